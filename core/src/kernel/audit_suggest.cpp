// audit_suggest.cpp: legal layout suggestions for conflicted buffers, and their patches (audit_parts.h).
//
// For a buffer with a conflicted access the candidates are, simplest first: nvmma_shared at each
// canonical swizzle and major-ness, swizzled_shared, then the solver's own layout for the buffer's
// writer and reader (a shared_linear). A candidate is legal when every op that uses the buffer
// accepts it (audit_rules.cpp, and the LSU accesses keep their ldmatrix / stmatrix); it is better
// when no modelled access of the buffer gets worse and their total wavefronts drop. The legal
// candidate with the lowest total wins; ties go to the simpler.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <set>
#include <unordered_map>

#include "audit_parts.h"
#include "swz/solve/solver.h"

namespace swz::audit_parts {

std::map<std::string, std::vector<BufferUse>> uses_of_buffers(const Module& m, const Auditor& au) {
  std::map<std::string, std::vector<BufferUse>> uses;
  for (const Op& op : m.ops) {
    const std::string kind = op.name.substr(op.name.find('.') + 1);
    std::vector<const Type*> printed;  // in print order: operand types, then result types
    for (const Type& t : op.operand_types) printed.push_back(&t);
    for (const Type& t : op.result_types) printed.push_back(&t);
    auto add = [&](const std::string& value, const Type* t, int operand) {
      if (!t || t->kind != Type::Kind::MemDesc || value.empty() || value[0] != '%') return;
      bool plain = true;
      std::vector<std::int64_t> origin;
      const std::string root = au.root_of(value, &origin, &plain);
      int occurrence = 0;
      for (const Type* x : printed) {
        if (x == t) break;
        occurrence += x->text == t->text;
      }
      uses[root].push_back(BufferUse{&op, operand, t, occurrence, plain});
    };
    auto type_at = [](const std::vector<Type>& v, std::size_t i) -> const Type* { return i < v.size() ? &v[i] : nullptr; };
    // The destination of a copy is its second operand, printed after "->".
    if (kind == "local_store" || kind == "async_copy_global_to_local" || kind == "async_tma_copy_global_to_local") {
      if (op.operands.size() > 1) add(op.operands[1], type_at(op.result_types, 0), 1);
      if (kind == "async_tma_copy_global_to_local")
        for (std::size_t i = 2; i < op.operands.size(); ++i)
          add(op.operands[i], type_at(op.operand_types, i - 1), static_cast<int>(i));
      continue;
    }
    for (std::size_t i = 0; i < op.operands.size(); ++i) add(op.operands[i], type_at(op.operand_types, i), static_cast<int>(i));
    for (std::size_t i = 0; i < op.results.size(); ++i) add(op.results[i], type_at(op.result_types, i), -1);
  }
  return uses;
}

namespace {

struct Candidate {
  std::string text;
  std::vector<AuditConsumer> consumers;
  std::string refusal;                        // the first consumer's refusal, "line N op (role): rule"; empty when legal
  double total = 0;                           // wavefronts of the buffer's modelled accesses
  bool worse = false;                         // some access gets worse
  std::map<std::size_t, AuditAccess> priced;  // report index -> the access under this layout
};

bool is_view(const std::string& kind) {
  return kind == "memdesc_index" || kind == "memdesc_subview" || kind == "memdesc_subslice" || kind == "memdesc_trans" ||
         kind == "memdesc_reinterpret";
}

// Whole-word occurrences of `#name` in `text`.
std::vector<std::size_t> alias_references(const std::string& text, const std::string& name) {
  std::vector<std::size_t> at;
  const std::string needle = "#" + name;
  for (std::size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) {
    const std::size_t end = p + needle.size();
    if (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) continue;
    at.push_back(p);
  }
  return at;
}

// A candidate's layout over a shape: the same few candidates are converted for every buffer of
// every module, so each (text, shape, bits) is converted once per thread; its error is kept too.
const ttgir::Layout& candidate_layout(const std::string& text, const std::vector<std::int64_t>& shape, int bits) {
  struct Converted {
    std::optional<ttgir::Layout> layout;
    std::string error;
  };
  static thread_local std::unordered_map<std::string, Converted> memo;
  const std::string key = fmt::format("{}|{}|{}", text, fmt::join(shape, "x"), bits);
  auto it = memo.find(key);
  if (it == memo.end()) {
    if (memo.size() > 100000) memo.clear();  // bounded
    Converted c;
    try {
      c.layout = ttgir::convert(text, shape, bits);
    } catch (const Error& e) {
      c.error = e.what();
    }
    it = memo.emplace(key, std::move(c)).first;
  }
  if (!it->second.layout) throw Error(it->second.error);
  return *it->second.layout;
}

}  // namespace

void suggest(AuditReport& report, const Module& m, const Auditor& au, const std::vector<Pending>& pending,
             const std::map<std::string, std::vector<BufferUse>>& uses, const Pricer& price) {
  // Buffers with a conflicted access through a view of the whole buffer.
  std::map<std::string, std::vector<const Pending*>> buffers;
  for (const Pending& p : pending)
    if (!p.root.empty()) buffers[p.root].push_back(&p);
  for (const auto& buffer : buffers) {
    const std::string& root = buffer.first;
    const std::vector<const Pending*>& accesses = buffer.second;
    bool conflicted = false;
    for (const Pending* p : accesses) {
      const AuditAccess& a = report.accesses[p->index];
      conflicted |= p->plain_view && a.wavefronts && a.ideal_wavefronts && *a.wavefronts > *a.ideal_wavefronts + 1e-9;
    }
    if (!conflicted) continue;
    const auto found = uses.find(root);
    if (found == uses.end()) continue;
    const std::vector<BufferUse>& users = found->second;
    // The allocation's type: its shape and current layout.
    const BufferUse* alloc = nullptr;
    for (const BufferUse& u : users)
      if (u.operand == -1 && u.op->results.size() == 1 && u.op->results[0] == root) alloc = &u;
    if (!alloc || !alloc->type->encoding) {
      for (const Pending* p : accesses) {
        AuditAccess& a = report.accesses[p->index];
        if (a.wavefronts && a.ideal_wavefronts && *a.wavefronts > *a.ideal_wavefronts + 1e-9 && a.no_suggestion.empty())
          a.no_suggestion = fmt::format(
              "{} is not allocated in this module (an argument or a value from elsewhere): its layout is "
              "set where it is made",
              root);
      }
      continue;
    }
    const Type& alloc_type = *alloc->type;
    const int bits = accesses.front()->element_bits;
    const std::string old_text = attribute_text(*alloc_type.encoding, m.aliases);
    const std::vector<std::int64_t> tile = trailing(alloc_type.shape, 2);
    const bool amd = m.target.rfind("hip", 0) == 0;  // AMD: the layouts its passes make (audit_amd.cpp)
    double before = 0;
    for (const Pending* p : accesses)
      before += *report.accesses[p->index].wavefronts * static_cast<double>(report.accesses[p->index].instructions);

    auto evaluate = [&](const std::string& text) {
      Candidate c;
      c.text = text;
      auto refuse = [&](AuditConsumer& consumer, std::string rule) {
        consumer.refusal = std::move(rule);
        if (c.refusal.empty())
          c.refusal = fmt::format("line {} {} ({}): {}", consumer.line, consumer.op, consumer.role, consumer.refusal);
      };
      try {
        // Pipeline stages (3x...) repeat the tile; our layouts need power-of-two dims, so the
        // stage dims are rounded up for this check.
        std::vector<std::int64_t> shape = alloc_type.shape;
        for (std::size_t i = 0; i + 2 < shape.size(); ++i)
          shape[i] = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(shape[i])));
        (void)candidate_layout(text, shape, bits);
      } catch (const Error& e) {
        AuditConsumer x{alloc->op->line, alloc->op->name, "allocation", ""};
        refuse(x, fmt::format("does not describe the {} allocation ({})", fmt::join(alloc_type.shape, "x"), e.what()));
        c.consumers.push_back(x);
        return c;
      }
      std::set<const Op*> seen;
      for (const BufferUse& u : users) {
        const Op& op = *u.op;
        const std::string kind = op.name.substr(op.name.find('.') + 1);
        if (!seen.insert(&op).second && kind != "warp_group_dot") continue;
        AuditConsumer x{op.line, op.name, "", ""};
        if (is_view(kind) || kind == "local_alloc" || kind == "local_dealloc" || kind == "warp_group_dot_wait") {
          x.role = is_view(kind) ? "view" : kind == "local_alloc" ? "allocation" : kind == "local_dealloc" ? "release" : "wait";
          if (!u.plain_view)
            refuse(x, "a view with a layout of its own (a transpose or a window), which this change does not re-derive");
          if (kind == "local_alloc" && !op.operands.empty()) continue;  // a store too: priced below
        } else if (kind == "local_store" || kind == "local_load" || kind == "async_copy_global_to_local") {
          if (amd && text != old_text) {  // priced below; on AMD also held to what Triton's AMD passes make
            if (std::string rule = amd_layout_rule(text, old_text, op, m.aliases, tile); !rule.empty()) {
              x.role = kind == "local_load" ? "load" : "store";
              refuse(x, rule);
              c.consumers.push_back(std::move(x));
            }
          }
          continue;
        } else if (kind == "warp_group_dot") {
          const std::string element = u.type->element;
          x.role =
              fmt::format("wgmma operand {} ({}{})", u.operand == 0 ? "A" : "B", element, element == "f32" ? " as tf32" : "");
          if (u.operand > 1) continue;  // the accumulator is not in shared memory
          if (std::string rule = wgmma_operand_rule(text, u.operand, element, bits, tile); !rule.empty()) refuse(x, rule);
        } else if (kind.find("tma") != std::string::npos) {
          x.role = "TMA copy";
          if (text != old_text)
            refuse(x, "the tensor descriptor fixes a TMA copy's box and swizzle, so its buffer keeps its layout");
        } else if (kind.rfind("tc_gen5", 0) == 0) {
          const std::string element = u.type->element;
          x.role =
              fmt::format("tcgen05 operand {} ({}{})", u.operand == 0 ? "A" : "B", element, element == "f32" ? " as tf32" : "");
          if (u.operand > 1) continue;  // the accumulator lives in tensor memory
          if (std::string rule = tcgen05_operand_layout_rule(text, u.operand, element, bits, tile); !rule.empty())
            refuse(x, rule);
        } else {
          x.role = "other";
          refuse(x, "its lowering is not modelled, so the buffer keeps its layout");
        }
        c.consumers.push_back(std::move(x));
      }
      // The modelled accesses, priced as the audit prices them.
      for (const Pending* p : accesses) {
        const AuditAccess& now = report.accesses[p->index];
        AuditConsumer x{p->op->line, p->op->name, fmt::format("{} {}", *now.direction, now.instruction), ""};
        AuditAccess after = now;
        bool fell_back = false;
        try {
          const ttgir::Layout& l = candidate_layout(text, p->shared->layout.shape(), bits);
          if (!l.shared) throw Error("not a shared layout");
          fell_back = price(after, p->access.kind, p->registers, p->registers_key, *l.shared, text, bits, p->instruction_prefix,
                            p->vec_bits)
                          .second;
        } catch (const Error& e) {
          refuse(x, fmt::format("its view cannot take this layout ({})", e.what()));
          c.consumers.push_back(std::move(x));
          continue;
        }
        // Losing ldmatrix / stmatrix is legal (Triton's lowering falls back to vector accesses); the
        // price above already counts the instructions it then issues.
        (void)fell_back;
        x.role = fmt::format("{} {} -> {}", *now.direction, now.instruction, after.instruction);
        const double t_now = *now.wavefronts * static_cast<double>(now.instructions);
        const double t_after = *after.wavefronts * static_cast<double>(after.instructions);
        c.worse |= t_after > t_now + 1e-9;
        c.total += t_after;
        c.priced[p->index] = std::move(after);
        c.consumers.push_back(std::move(x));
      }
      return c;
    };

    std::vector<std::string> texts;
    if (amd) texts = amd_shared_candidates(users, old_text, tile, bits, m.aliases);
    for (int swizzle : {128, 64, 32, 0})
      for (const char* transposed : {"false", "true"})
        if (!amd)
          texts.push_back(fmt::format("#ttg.nvmma_shared<{{swizzlingByteWidth = {}, transposed = {}, elementBitWidth = {}}}>",
                                      swizzle, transposed, bits));
    if (tile.size() == 2 && !amd)
      for (const char* order : {"[1, 0]", "[0, 1]"})
        for (int vec = 1; vec * bits <= 128; vec *= 2)
          for (int max_phase = 2; max_phase <= 32; max_phase *= 2)
            for (int per_phase = 1; per_phase <= 8; per_phase *= 2)
              texts.push_back(fmt::format("#ttg.swizzled_shared<{{vec = {}, perPhase = {}, maxPhase = {}, order = {}}}>", vec,
                                          per_phase, max_phase, order));
    // The solver's layout for the buffer's first writer and first reader (the access itself stands
    // in for a side the module lacks): the least any shared layout costs them, proven (solver.h).
    bool optimum_weighed = false;
    {
      const Pending* writer = nullptr;
      const Pending* reader = nullptr;
      for (const Pending* p : accesses) {
        if (!p->plain_view) continue;
        if (p->access.kind == AccessKind::Store && !writer) writer = p;
        if (p->access.kind == AccessKind::Load && !reader) reader = p;
      }
      if (!writer) writer = reader;
      if (!reader) reader = writer;
      if (!amd && writer && writer->access.layout.shape() == reader->access.layout.shape()) {
        try {
          Access w = writer->access, rd = reader->access;
          w.kind = AccessKind::Store;
          w.ldmatrix = 0;
          rd.kind = AccessKind::Load;
          rd.async_copy = false;  // a buffer read by no LSU load: its writer's pattern read back as plain loads
          rd.global_bytes = nullptr;
          SolveOptions as_written;
          as_written.renumber_registers = false;
          as_written.check = SolveOptions::Check::Full;
          const SolveResult r = solve(w, rd, bits, au.bank, as_written);
          texts.push_back(ttgir::shared_linear_attribute(r.offset_bases));
          optimum_weighed = true;
        } catch (const Error&) {
        } catch (const SolverBug&) {
        }
      }
    }
    std::optional<Candidate> best;
    std::optional<Candidate> best_refused;  // the simplest candidate that would be better but is not legal
    double ideal = 0;
    for (const Pending* p : accesses) {
      const AuditAccess& a = report.accesses[p->index];
      ideal += static_cast<double>(*a.ideal_wavefronts) * static_cast<double>(a.instructions);
    }
    for (const std::string& text : texts) {
      if (text == old_text) continue;
      Candidate c = evaluate(text);
      const bool better = !c.priced.empty() && !c.worse && c.total + 1e-9 < before;

      if (!better) continue;
      if (!c.refusal.empty()) {
        if (!best_refused) best_refused = std::move(c);
        continue;
      }
      if (!best || c.total + 1e-9 < best->total) best = std::move(c);
      if (best && best->total <= ideal + 1e-9) break;
    }
    if (!best) {
      const std::string why = best_refused ? "no legal shared layout does better: " + best_refused->refusal
                                           : "no shared layout does better for every access of this buffer";
      for (const Pending* p : accesses) {
        AuditAccess& a = report.accesses[p->index];
        if (a.wavefronts && a.ideal_wavefronts && *a.wavefronts > *a.ideal_wavefronts + 1e-9) {
          a.no_suggestion = why;
          a.at_optimum = optimum_weighed;
        }
      }
      continue;
    }
    AuditSuggestion s;
    s.target = AuditSuggestion::Target::SharedLayout;
    s.buffer = root;
    s.old_layout = old_text;
    s.new_layout = best->text;
    s.total_wavefronts_before = static_cast<std::int64_t>(std::llround(before));
    s.total_wavefronts_after = static_cast<std::int64_t>(std::llround(best->total));
    s.consumers = best->consumers;
    // The patch: the alias definition when only this buffer's types use it; else a new alias for them.
    std::vector<const BufferUse*> printed;
    std::set<std::pair<const Op*, const Type*>> seen_types;
    for (const BufferUse& u : users)
      if (seen_types.insert({u.op, u.type}).second) printed.push_back(&u);
    auto type_text_in_line = [&](const BufferUse& u) {
      std::string t = u.type->text;
      // async copies print their destination as "<...>"; the reader adds the dialect prefix.
      const std::string kind = u.op->name.substr(u.op->name.find('.') + 1);
      if (u.operand == 1 && kind == "async_copy_global_to_local" && t.rfind("!ttg.memdesc<", 0) == 0) t = t.substr(12);
      return t;
    };
    if (alloc_type.encoding->kind == AttrNode::Kind::Alias) {
      const std::string& name = alloc_type.encoding->text;
      std::size_t elsewhere = 0;
      for (const Op& op : m.ops) {
        for (const auto* list : {&op.operand_types, &op.result_types})
          for (const Type& t : *list)
            if (t.encoding && t.encoding->kind == AttrNode::Kind::Alias && t.encoding->text == name &&
                !seen_types.count({&op, &t}))
              ++elsewhere;
      }
      const auto def = m.alias_lines.find(name);
      if (def == m.alias_lines.end()) continue;
      if (elsewhere == 0) {
        s.patch.push_back(AuditPatch{def->second, 0, m.aliases.at(name), s.new_layout});
      } else {
        // Unique among the module's aliases and those an earlier suggestion adds (MLIR refuses a
        // redefinition, even of the same text).
        auto added_earlier = [&](const std::string& alias) {
          const std::string head = "#" + alias + " = ";
          for (const AuditSuggestion& other : report.suggestions)
            for (const AuditPatch& p : other.patch)
              if (p.old_text.empty() && p.new_text.rfind(head, 0) == 0) return true;
          return false;
        };
        std::string fresh = name + "_fix";
        while (m.aliases.count(fresh) || added_earlier(fresh)) fresh += "_";
        s.patch.push_back(AuditPatch{def->second, 0, "", fmt::format("#{} = {}", fresh, s.new_layout)});
        for (const BufferUse* u : printed) {
          const std::string old_type = type_text_in_line(*u);
          std::string new_type = old_type;
          const auto at = alias_references(new_type, name);
          if (at.empty()) continue;
          new_type.replace(at.front(), name.size() + 1, "#" + fresh);
          s.patch.push_back(AuditPatch{u->op->line, u->occurrence, old_type, new_type});
        }
      }
    } else {
      for (const BufferUse* u : printed) {
        const std::string old_type = type_text_in_line(*u);
        const std::string inline_text = type_encoding_text(*u->type, m.aliases, old_type);
        std::string new_type = old_type;
        if (const std::size_t at = new_type.find(inline_text); !inline_text.empty() && at != std::string::npos)
          new_type.replace(at, inline_text.size(), s.new_layout);
        if (new_type != old_type) s.patch.push_back(AuditPatch{u->op->line, u->occurrence, old_type, new_type});
      }
    }
    std::sort(s.patch.begin(), s.patch.end(), [](const AuditPatch& a, const AuditPatch& b) { return a.line < b.line; });
    const std::size_t index = report.suggestions.size();
    bool first = true;
    for (const Pending* p : accesses) {
      AuditAccess& a = report.accesses[p->index];
      if (!a.wavefronts || !a.ideal_wavefronts || *a.wavefronts <= *a.ideal_wavefronts + 1e-9) continue;
      const AuditAccess& after = best->priced.at(p->index);
      a.suggestion = s.new_layout;
      a.suggestion_wavefronts = after.wavefronts;
      a.suggestion_index = index;
      if (first) {
        s.line = a.line;
        s.instruction_after = after.instruction;
        s.instructions_after = after.instructions;
        s.wavefronts_after = after.wavefronts.value_or(0);
        first = false;
      }
    }
    report.suggestions.push_back(std::move(s));
  }
}

}  // namespace swz::audit_parts
