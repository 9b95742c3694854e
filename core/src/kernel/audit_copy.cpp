// audit_copy.cpp: the audit's second knob. A cp.async that conflicts may be served better by
// another register layout of the copied tensor (which lane copies which element), the buffer's
// shared layout unchanged: who reads the buffer (wgmma, ldmatrix) never sees the change.
//
// The candidates are blocked layouts of the same order and warps: the contiguous dim's
// sizePerThread (4 to 16 bytes, what one cp.async moves) and threadsPerWarp split over the two
// fastest dims. Each is priced by the audit's own pricer (serve(): the cp.async rule) and
// by the 32-byte global sectors one instruction reads; a candidate must not read more sectors per
// request than the copy does now (coalescing stays). The patch redefines the pointer tensor's alias,
// so every op of its address arithmetic follows; an alias that also lays out other memory ops is
// left alone, and the access says why.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "audit_global.h"
#include "audit_parts.h"
#include "swz/error.h"

namespace swz::audit_parts {

namespace {

struct Blocked {
  std::string dialect;  // "ttg" or "triton_gpu"
  std::vector<std::int64_t> size_per_thread, threads_per_warp, warps_per_cta, order;
};

std::vector<std::int64_t> integers(const AttrNode* list) {
  std::vector<std::int64_t> v;
  if (!list || list->kind != AttrNode::Kind::List) return v;
  for (const AttrNode& i : list->items) {
    if (i.kind != AttrNode::Kind::Integer) return {};
    v.push_back(i.integer);
  }
  return v;
}

std::optional<Blocked> read_blocked(const AttrNode& e) {
  if (e.layout_kind() != "blocked") return std::nullopt;
  if (e.field("CTAsPerCGA") || e.field("CTASplitNum") || e.field("CTAOrder")) return std::nullopt;  // multi-CTA: left alone
  Blocked b;
  b.dialect = e.text.substr(0, e.text.find('.'));
  b.size_per_thread = integers(e.field("sizePerThread"));
  b.threads_per_warp = integers(e.field("threadsPerWarp"));
  b.warps_per_cta = integers(e.field("warpsPerCTA"));
  b.order = integers(e.field("order"));
  const std::size_t rank = b.order.size();
  if (rank < 2 || b.size_per_thread.size() != rank || b.threads_per_warp.size() != rank || b.warps_per_cta.size() != rank)
    return std::nullopt;
  return b;
}

std::string text_of(const Blocked& b) {
  return fmt::format("#{}.blocked<{{sizePerThread = [{}], threadsPerWarp = [{}], warpsPerCTA = [{}], order = [{}]}}>", b.dialect,
                     fmt::join(b.size_per_thread, ", "), fmt::join(b.threads_per_warp, ", "), fmt::join(b.warps_per_cta, ", "),
                     fmt::join(b.order, ", "));
}

// A copy-layout candidate over a pointer shape and shared layout (suggest_copy_layouts).
struct CopyCandidate {
  std::optional<LinearLayout> layout;  // none: the text does not describe the tensor
  int vec_bits = 0;                    // the copy width it is priced at
  std::optional<double> sectors;       // global sectors per request, once counted
};
std::unordered_map<std::string, CopyCandidate>& copy_candidate_memo() {
  static thread_local std::unordered_map<std::string, CopyCandidate> memo;
  return memo;
}

bool lays_out_memory(const std::string& name) {
  static const std::set<std::string> ops{"tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas", "ttg.local_store", "ttg.local_alloc",
                                         "ttg.local_load", "ttg.convert_layout", "ttg.async_copy_global_to_local", "tt.dot",
                                         "tt.reduce", "tt.scan"};
  return ops.count(name) > 0;
}

}  // namespace

void suggest_copy_layouts(AuditReport& report, const Module& m, const Auditor& au, const std::vector<Pending>& pending,
                          const Pricer& price) {
  std::map<std::string, std::size_t> made;  // alias -> its suggestion: the copies of one pipelined loop share it
  for (const Pending& p : pending) {
    if (p.instruction_prefix != "LDGSTS" || !p.op || p.op->operand_types.empty()) continue;
    AuditAccess& a = report.accesses[p.index];
    if (!a.wavefronts || !a.ideal_wavefronts || *a.wavefronts <= *a.ideal_wavefronts + 1e-9) continue;
    const Type& pointers = p.op->operand_types[0];
    if (!pointers.encoding) continue;
    auto refuse = [&](const std::string& why) {
      if (!a.suggestion && a.no_suggestion.empty()) a.no_suggestion = why;
    };
    if (pointers.encoding->kind != AttrNode::Kind::Alias) {
      refuse("the copy's register layout is written inline, not as an alias the fix could redefine");
      continue;
    }
    const std::string alias = pointers.encoding->text;
    const auto def = m.alias_lines.find(alias);
    const std::optional<Blocked> now = read_blocked(ttgir::resolve(*pointers.encoding, m.aliases));
    if (def == m.alias_lines.end() || !now) continue;
    if (const auto done = made.find(alias); done != made.end()) {
      const AuditSuggestion& s = report.suggestions[done->second];
      if (s.chosen) {
        if (a.suggestion_index && *a.suggestion_index != done->second) a.alternative_index = a.suggestion_index;
        a.suggestion = s.new_layout;
        a.suggestion_wavefronts = s.wavefronts_after;
        a.suggestion_index = done->second;
        a.no_suggestion.clear();
      } else {
        a.alternative_index = done->second;
      }
      continue;
    }
    // Every other op that lays out memory with this alias must keep its layout: left alone.
    const Op* other = nullptr;
    for (const Op& op : m.ops) {
      // Other copies through this alias (a pipelined loop issues the same copy in its prologue and body) change alike.
      if (&op == p.op || !lays_out_memory(op.name) || op.name == p.op->name) continue;
      for (const auto* list : {&op.operand_types, &op.result_types})
        for (const Type& t : *list)
          if (t.encoding && t.encoding->kind == AttrNode::Kind::Alias && t.encoding->text == alias) other = &op;
    }
    if (other) {
      refuse(fmt::format("another register layout for the copy would help, but #{} also lays out {} at line {}", alias, other->name,
                         other->line));
      continue;
    }

    const int bits = p.element_bits;
    const SharedLayout& shared = p.shared->layout;
    const std::size_t rank = now->order.size();
    const std::size_t fast = static_cast<std::size_t>(now->order[0]), next = static_cast<std::size_t>(now->order[1]);
    if (fast >= rank || next >= rank || pointers.shape.size() != rank) continue;
    const int contiguity_bits = pointer_contiguity(*p.op) * bits;

    auto evaluate = [&](const std::string& text, int& vec_bits, AuditAccess& priced, double& sectors) -> bool {
      // The candidates repeat for every copy of every module: each is converted and its global
      // sectors counted once per thread (the price itself is memoized by `price`).
      // The copy's global side (audit_global.h) travels with the layout's text: a candidate keeps the pointers' addresses.
      const std::string keyed = text + global_suffix_of(p.registers_key);
      const std::string key = fmt::format("{}|{}|{}|{}|{}|{}|{}", keyed, fmt::join(pointers.shape, "x"), bits, shared.description(),
                                          vec_bits, m.threads_per_warp, m.target);
      auto& memo = copy_candidate_memo();
      auto it = memo.find(key);
      if (it == memo.end()) {
        if (memo.size() > 100000) memo.clear();  // bounded
        CopyCandidate c;
        try {
          c.layout = ttgir::convert(ttgir::parse_attribute(text), pointers.shape, bits, m.aliases).linear;
          const VectorChoice widest = choose_vector(Access{*c.layout, AccessKind::Store, 0, 0}, shared, bits, au.bank);
          c.vec_bits = vec_bits > widest.bits ? 0 : vec_bits;
        } catch (const Error&) {
          c.layout.reset();
        }
        it = memo.emplace(key, std::move(c)).first;
      }
      CopyCandidate& c = it->second;
      if (!c.layout) return false;
      priced = a;
      const auto [access, fell_back] = price(priced, AccessKind::Store, *c.layout, keyed, shared, p.shared->text, bits, "LDGSTS", c.vec_bits);
      (void)fell_back;
      if (!priced.wavefronts) return false;
      if (!c.sectors) c.sectors = sectors_per_request(access, shared, bits, au.bank);
      sectors = *c.sectors;
      return true;
    };

    // The copy as it is.
    AuditAccess before_priced;
    double sectors_before = 0;
    int vec_now = p.vec_bits;
    if (!evaluate(text_of(*now), vec_now, before_priced, sectors_before)) continue;
    const double total_before = *before_priced.wavefronts * static_cast<double>(before_priced.instructions);

    struct Best {
      Blocked layout;
      AuditAccess priced;
      double total = 0, sectors = 0;
    };
    std::optional<Best> best;
    for (std::int64_t vec = std::max<std::int64_t>(1, 32 / bits); vec * bits <= 128 && vec <= pointers.shape[fast]; vec *= 2)
      for (std::int64_t along = 1; along <= 32; along *= 2) {
        Blocked c = *now;
        std::fill(c.size_per_thread.begin(), c.size_per_thread.end(), 1);
        std::fill(c.threads_per_warp.begin(), c.threads_per_warp.end(), 1);
        c.size_per_thread[fast] = vec;
        c.threads_per_warp[fast] = along;
        c.threads_per_warp[next] = 32 / along;
        if (vec * along > pointers.shape[fast] || 32 / along > pointers.shape[next]) continue;  // no lane copies twice
        int vec_bits = static_cast<int>(vec) * bits;
        if (contiguity_bits) vec_bits = std::min(vec_bits, std::max(32, contiguity_bits));
        if (vec_bits < 32) continue;
        AuditAccess priced;
        double sectors = 0;
        if (!evaluate(text_of(c), vec_bits, priced, sectors)) continue;
        const double total = *priced.wavefronts * static_cast<double>(priced.instructions);
        if (sectors > sectors_before + 1e-9 || total + 1e-9 >= total_before) continue;
        if (!best || total + 1e-9 < best->total || (std::abs(total - best->total) < 1e-9 && sectors + 1e-9 < best->sectors))
          best = Best{c, priced, total, sectors};
      }
    if (!best) {
      refuse(fmt::format("no register layout of the copy (cp.async of 4 to 16 bytes, warps as now) costs less without reading more "
                         "global sectors per request than {:.1f}",
                         sectors_before));
      continue;
    }

    AuditSuggestion s;
    s.target = AuditSuggestion::Target::DistributedLayout;
    s.buffer = p.root;
    s.line = a.line;
    s.old_layout = m.aliases.at(alias);
    s.new_layout = text_of(best->layout);
    s.instruction_after = best->priced.instruction;
    s.instructions_after = best->priced.instructions;
    s.wavefronts_after = best->priced.wavefronts.value_or(0);
    // The buffer's other accesses keep their cost: only this copy changes.
    // Every copy through the alias (a pipelined loop's prologue and body) changes alike.
    std::int64_t buffer_before = 0, copies_before = 0, copies = 0;
    for (const Pending& q : pending) {
      const AuditAccess& x = report.accesses[q.index];
      if (q.root != p.root || !x.wavefronts) continue;
      const std::int64_t cost = std::llround(*x.wavefronts * static_cast<double>(x.instructions));
      buffer_before += cost;
      if (q.instruction_prefix == "LDGSTS" && q.registers_key == p.registers_key) {
        copies_before += cost;
        ++copies;
      }
    }
    s.total_wavefronts_before = buffer_before;
    s.total_wavefronts_after = buffer_before - copies_before + copies * std::llround(best->total);
    s.global_sectors_before = sectors_before;
    s.global_sectors_after = best->sectors;
    s.consumers.push_back(AuditConsumer{a.line, p.op->name, "cp.async source layout (#" + alias + ", its address arithmetic follows)", ""});
    s.patch.push_back(AuditPatch{def->second, 0, m.aliases.at(alias), s.new_layout});

    // Both knobs may help: the one --fix applies is the lower predicted total (both modelled:
    // .cg by rule 5 in the plain form Triton issues).
    s.basis = "modelled";
    const std::size_t index = report.suggestions.size();
    if (a.suggestion_index) {
      AuditSuggestion& other_s = report.suggestions[*a.suggestion_index];
      const bool mine = s.total_wavefronts_after < other_s.total_wavefronts_after;
      if (!mine) {
        s.chosen = false;
        report.suggestions.push_back(std::move(s));
        a.alternative_index = index;
        made[alias] = index;
        continue;
      }
      const std::size_t old_index = *a.suggestion_index;
      for (AuditAccess& x : report.accesses)
        if (x.suggestion_index == old_index) {
          x.suggestion.reset();
          x.suggestion_wavefronts.reset();
          x.suggestion_index.reset();
        }
      other_s.chosen = false;
      a.alternative_index = old_index;
    }
    report.suggestions.push_back(std::move(s));
    made[alias] = index;
    a.suggestion = report.suggestions[index].new_layout;
    a.suggestion_wavefronts = report.suggestions[index].wavefronts_after;
    a.suggestion_index = index;
    a.no_suggestion.clear();
  }
}

}  // namespace swz::audit_parts
