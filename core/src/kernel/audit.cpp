// audit.cpp: the shared-memory audit of a TTGIR module (audit.h).
//
// Index:
//   [SECTION] Layouts      tensor / memdesc types -> simulator inputs
//   [SECTION] Accesses     one entry per op, simulated
//   [SECTION] Suggestions  the solver's layout per buffer
//   [SECTION] Output       JSON and the terminal table
#include "swz/kernel/audit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

#include "audit_global.h"
#include "audit_parts.h"
#include "audit_pipeline.h"
#include "audit_sass.h"
#include "audit_scratch.h"
#include "swz/error.h"
#include "swz/kernel/triton_convert.h"
#include "swz/solve/solver.h"

namespace swz {

using namespace audit_parts;  // the pieces the audit is built from (audit_parts.h)

namespace {

// A cp.async as Triton 3.6 issues it: src-size 16 or 0 from the mask, which ptxas issues as a
// predicate operand (LDGSTS ..., P0), not the size register's .ZFILL form; priced as the form without
// src-size (bank.h), whose count it meets or, measured, undercuts (audit_pipeline.cpp), with the lanes
// and warps that hold copies of other lanes' elements predicated off.
Access triton_copy(const LinearLayout& regs, int vec_bits) {
  Access a{regs, AccessKind::Store, 0, vec_bits};
  a.async_copy = true;
  a.src_size = false;
  a.duplicates_predicated_off = true;
  return a;
}

// What price() writes into an access, kept for the next access with the same inputs.
struct PricedAccess {
  std::string instruction;
  std::int64_t instructions = 0;
  std::optional<double> wavefronts;
  std::optional<int> ideal_wavefronts, worst_wavefronts;
  std::optional<double> conflicts;
  std::string note;  // cp.async: what its number rests on (price() writes no other note)
  std::optional<Access> issued;
  Access access;
  bool fell_back = false;
  PricedAccess(const AuditAccess& a, Access priced, bool fell)
      : instruction(a.instruction), instructions(a.instructions), wavefronts(a.wavefronts), ideal_wavefronts(a.ideal_wavefronts),
        worst_wavefronts(a.worst_wavefronts), conflicts(a.conflicts), note(priced.async_copy ? a.note : std::string()),
        issued(a.issued), access(std::move(priced)), fell_back(fell) {}
  void copy_to(AuditAccess& a) const {
    a.instruction = instruction;
    a.instructions = instructions;
    a.wavefronts = wavefronts;
    a.ideal_wavefronts = ideal_wavefronts;
    a.worst_wavefronts = worst_wavefronts;
    a.conflicts = conflicts;
    a.issued = issued;
    if (access.async_copy) a.note = note;
  }
};
constexpr std::size_t kPriceMemoLimit = 200000;
std::unordered_map<std::string, PricedAccess>& price_memo() {
  static thread_local std::unordered_map<std::string, PricedAccess> memo;
  return memo;
}

// One audit of one module: each kind of op has its step; the state they share is here.
struct AuditRun {
  const Module& m;
  AuditReport report;
  Auditor au;
  std::vector<Pending> pending;  // simulated LSU accesses, for suggestions
  std::map<std::string, AccessResult> simulations;
  bool hip = false;
  const ttgir::PointerReader pointers;  // the kernel's address arithmetic: copies' global side (audit_global.h)
  audit_parts::KnownArguments arguments;  // given (--arg) and assumed values of its integer arguments
  std::vector<CopySite> copies;           // every cp.async, for the SASS's second pass (audit_sass.h)

  AuditRun(const Module& module, const GpuModel& gpu)
      : m(module), au(module), hip(gpu.vendor == Vendor::Amd), pointers(module) {
    report.path = m.path;
    report.lines = m.lines;
    report.first_line = m.first_line;
    report.module_index = m.index;
    report.module_count = m.count;
    report.header = m.header;
    report.num_warps = m.num_warps;
    au.bank = gpu.bank;
    report.gpu = gpu.name;
  }

  AuditAccess entry(const Op& op) const {
    AuditAccess a;
    a.op = op.name;
    a.line = op.line;
    a.loc = op.loc;
    return a;
  }
  void not_modelled(const Op& op, const std::string& why) {
    AuditAccess a = entry(op);
    a.instruction = "not modelled";
    a.note = why;
    report.accesses.push_back(std::move(a));
  }

  std::pair<Access, bool> price(AuditAccess& a, AccessKind kind, const LinearLayout& regs, const std::string& regs_key,
                                const SharedLayout& s, const std::string& shared_key, int bits,
                                const std::string& instruction_prefix, int vec_bits);
  void lsu(const Op& op, AccessKind kind, const Distributed& d, const Auditor::SharedView& view, int bits,
           const std::string& instruction_prefix, int vec_bits, const std::string& note, const std::string& global_suffix = "");

  void audit_op(const Op& op);
  void view(const Op& op, const std::string& kind);
  void nvidia_op(const Op& op, const std::string& kind);
  void local_alloc(const Op& op);
  void local_store(const Op& op);
  void local_load(const Op& op);
  void async_copy(const Op& op);
  void convert_layout(const Op& op);
  void partners();
};

// Prices an LSU access of `regs` to `s` as the module's lowering issues it (the instruction, its
// count and wavefronts into `a`); returns the access simulated and whether an ldmatrix candidate
// fell back to vector loads.
std::pair<Access, bool> AuditRun::price(AuditAccess& a, AccessKind kind, const LinearLayout& regs, const std::string& regs_key,
                                        const SharedLayout& s, const std::string& shared_key, int bits,
                                        const std::string& instruction_prefix, int vec_bits) {
  // Pricing is a pure function of these inputs, and dumps repeat them: within a module (every
  // suggestion candidate prices every access of its buffer) and across the modules of an
  // MLIR_ENABLE_DUMP file (the same kernel after each pass). One memo per thread. The registers are
  // keyed by their bases too: a layout's text names its parent by alias (#mma), which other modules define
  // otherwise.
  const std::string memo_key = regs.to_string() + "|" +
      fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}", static_cast<int>(kind), regs_key, fmt::join(regs.shape(), "x"),
                  shared_key, s.description(), bits, instruction_prefix, vec_bits, m.target, m.threads_per_warp, s.is_linear(),
                  report.gpu);
  if (const auto hit = price_memo().find(memo_key); hit != price_memo().end()) {
    hit->second.copy_to(a);
    return {hit->second.access, hit->second.fell_back};
  }
  const bool copy = instruction_prefix == "LDGSTS";
  Access access = copy ? triton_copy(regs, vec_bits) : Access{regs, kind, 0, vec_bits};
  if (copy) {  // cp.async: the copy reads its global rows too
    access.global_contiguous_dim = global_contiguous_dim(layout_text_of(regs_key), static_cast<int>(regs.out_dims().size()));
    access.global_bytes = global_bytes_of(regs_key);  // read from the kernel, when it could be (audit_global.h)
  }
  std::string instruction;
  if (instruction_prefix == "DS_READ_TR")  // gfx950's transposing read: 64 bits a lane at Triton's addresses
    access = Access{audit_parts::ds_read_tr_addresses(regs, bits), kind, 0, 64, /*trans=*/true};
  if (instruction_prefix == "LDSM") {
    if (const auto lds = ldmatrix_addresses(regs, s)) {
      access = Access{lds->first, kind, 4, 0, /*trans=*/lds->second};
      instruction = instruction_name(access, 128);
    }
  }
  const std::string key =
      fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}", static_cast<int>(kind), regs_key, fmt::join(regs.shape(), "x"), shared_key,
                  s.description(), vec_bits, access.ldmatrix, access.async_copy, access.trans);
  auto cached = simulations.find(key);
  if (cached == simulations.end()) cached = simulations.emplace(key, simulate(access, s, bits, au.bank)).first;
  const AccessResult& r = cached->second;
  fill(a, r);
  a.issued = access;
  if (!access.ldmatrix) a.issued->vec_bits = r.vector.bits;  // the width priced, not "the widest"
  if (access.async_copy)
    a.note = fmt::format(
        "{}{}{}",
        !r.modelled ? "cp.async: priced as the shared store of this width (not modelled)"
        : r.vector.bits == 128
            ? "cp.async.cg as Triton issues it (masked by a predicate, no size register): rule 5, the writes of the 32-byte "
              "sectors read"
            : "cp.async: each shared bank's writes after its sources' other lanes",
        access.global_bytes ? "" : " (global rows taken a multiple of 128 bytes apart)", predicated_off_note(access));
  a.instruction = !instruction.empty()
                      ? instruction
                      : audit_parts::sass(instruction_prefix == "LDSM" ? "LDS" : instruction_prefix.c_str(), r.vector.bits);
  bool fell_back = instruction_prefix == "LDSM" && instruction.empty();
  if (!hip && instruction_prefix != "LDGSTS" && s.is_linear()) {
    // Triton 3.6's own lowering of local_store / local_alloc / local_load on NVIDIA targets:
    // stmatrix / ldmatrix wherever the registers hold its tile, not only for mma operands.
    try {
      const TritonSide t =
          triton_local_access(regs, s.linear(), bits, kind == AccessKind::Load, au.bank, triton_target(m.target));
      fill(a, t, bits);
      fell_back = false;
    } catch (const Error&) {
      // Not a buffer Triton's lowering addresses this way: the simulator's own vector choice above.
    }
  }
  // AMD: LDS instructions by width, served in the GPU's phases (gpu.h).
  if (hip) a.instruction = instruction_name(Access{access.layout, kind, 0, 0, access.trans}, r.vector.bits, au.bank);
  if (price_memo().size() > kPriceMemoLimit) price_memo().clear();  // bounded: a long run forgets, never grows
  price_memo().emplace(memo_key, PricedAccess{a, access, fell_back});
  return {access, fell_back};
}

void AuditRun::lsu(const Op& op, AccessKind kind, const Distributed& d, const Auditor::SharedView& view, int bits,
                   const std::string& instruction_prefix, int vec_bits, const std::string& note, const std::string& global_suffix) {
  const Shared& s = *view.layout;
  AuditAccess a = entry(op);
  a.direction = kind == AccessKind::Store ? "store" : "load";
  if (d.layout.shape() != s.layout.shape())
    fail("the register tensor is {} but the shared view is {}", fmt::join(d.layout.shape(), "x"),
         fmt::join(s.layout.shape(), "x"));
  const auto [access, fell_back] = price(a, kind, d.layout, d.text + global_suffix, s.layout, s.text, bits, instruction_prefix, vec_bits);
  a.shared_layout = s.text;
  a.distributed_layout = d.text;
  a.element_bits = bits;
  (kind == AccessKind::Store ? a.writer : a.reader) = d.layout;
  if (s.layout.is_linear()) a.shared_offsets = offsets_only(s.layout.linear());
  a.note = fell_back ? "an mma operand whose registers do not follow ldmatrix's pattern: modelled as vector loads"
           : instruction_prefix == "LDGSTS" ? a.note + note
                                            : note;
  Pending q{report.accesses.size(), access,   view.layout, view.root, view.plain_view, bits, d.layout,
            instruction_prefix,     vec_bits, d.text + global_suffix, &op};
  pending.push_back(std::move(q));
  report.accesses.push_back(std::move(a));
}

// One op: its step, or "not modelled" with the reason; one odd op never stops the audit of the rest.
void AuditRun::audit_op(const Op& op) {
  const std::string kind = op.name.substr(op.name.find('.') + 1);
  try {
    if (kind == "memdesc_index" || kind == "memdesc_subview" || kind == "memdesc_subslice" || kind == "memdesc_trans" ||
        kind == "memdesc_reinterpret")
      return view(op, kind);
    if (is_no_data_op(op.name)) return;
    if (is_scratch_op(op.name)) {  // tt.reduce / tt.scan / tt.gather / tt.histogram: audit_scratch.cpp
      for (AuditAccess& a : scratch_accesses(op, au, entry(op), &pointers)) report.accesses.push_back(std::move(a));
      return;
    }
    // Descriptor ops and the rest of tt.: may go through shared memory, not modelled.
    if (op.name.rfind("tt.", 0) == 0)
      return not_modelled(op, fmt::format("{} may use shared memory (Triton's lowering of it is not modelled)", op.name));
    if (op.name.rfind("ttng.", 0) == 0 || op.name.rfind("triton_nvidia_gpu.", 0) == 0) return nvidia_op(op, kind);
    if (hip && (kind == "async_copy_global_to_local" || kind == "buffer_load_to_local"))
      return not_modelled(op, audit_parts::amd_copy_to_lds_note(op.name));
    if (!is_modelled_op(op.name)) return not_modelled(op, fmt::format("{} is not modelled", op.name));
    if (kind == "local_alloc") return local_alloc(op);
    if (kind == "local_store") return local_store(op);
    if (kind == "local_load") return local_load(op);
    if (kind == "async_copy_global_to_local") return async_copy(op);
    if (kind == "convert_layout") return convert_layout(op);
  } catch (const Error& e) {
    not_modelled(op, e.what());
  } catch (const SolverBug& e) {
    not_modelled(op, e.what());
  } catch (const std::exception& e) {
    not_modelled(op, fmt::format("internal: {}", e.what()));
  }
}

// Views: remember where each memdesc comes from.
void AuditRun::view(const Op& op, const std::string& kind) {
  if (op.results.empty() || op.operands.empty()) return;
  View v{op.operands[0], {}, kind == "memdesc_trans"};
  if (kind == "memdesc_subslice" || kind == "memdesc_subview") {
    // %x[0, 32] : the static offsets in brackets after the source.
    std::size_t at = 0;
    const std::string& idx = op.indices;
    while (at < idx.size()) {
      while (at < idx.size() && (idx[at] == ' ' || idx[at] == ',')) ++at;
      if (at >= idx.size()) break;
      if (!std::isdigit(static_cast<unsigned char>(idx[at]))) fail("memdesc_subslice with non-constant offsets");
      std::size_t used = 0;
      v.origin.push_back(std::stoll(idx.substr(at), &used));
      at += used;
    }
  }
  au.views[op.results[0]] = v;
}

// wgmma / tcgen05 operands read from shared memory (listed, no LSU bank model), mbarriers, TMA.
void AuditRun::nvidia_op(const Op& op, const std::string& kind) {
  if (kind == "warp_group_dot" || kind == "tc_gen5_mma" || kind == "tc_gen5_mma_scaled") {
    const bool wgmma = kind == "warp_group_dot";
    for (std::size_t i = 0; i < op.operand_types.size() && i < 2; ++i) {
      const Type& t = op.operand_types[i];
      if (t.kind != Type::Kind::MemDesc || !t.encoding) continue;
      AuditAccess a = entry(op);
      // An operand in tensor memory (#ttng.tensor_memory, inline or by alias): no shared access.
      if (t.memory_space && attribute_text(*t.memory_space, m.aliases).find("tensor_memory") != std::string::npos) {
        if (wgmma) continue;
        a.instruction = "tensor memory";
        a.note = fmt::format("operand {} read from tensor memory (TMEM) by tcgen05: no shared access to price", i == 0 ? "A" : "B");
        report.accesses.push_back(std::move(a));
        continue;
      }
      a.direction = "load";
      a.instruction = wgmma ? "wgmma" : "tcgen05.mma";
      a.shared_layout = attribute_text(*t.encoding, m.aliases);
      const std::string operand_note = wgmma ? "" : audit_parts::tcgen05_operand_note(a.shared_layout, static_cast<int>(i), t.element);
      a.note = fmt::format("operand {}{} read from shared memory by {}: no LSU bank model applies", i == 0 ? "A" : "B",
                           operand_note.empty() ? "" : " (" + operand_note + ")", wgmma ? "wgmma" : "tcgen05");
      report.accesses.push_back(std::move(a));
    }
    return;
  }
  if (kind == "tmem_alloc" || kind == "tmem_store" || kind == "tmem_load" || kind == "tmem_copy" || kind == "tmem_subslice") {
    // Tensor memory is its own memory (sm_100), moved by tcgen05.ld / st / cp: no shared access to price.
    AuditAccess a = entry(op);
    a.instruction = "tensor memory";
    a.note = fmt::format("{}: tensor memory (TMEM), not shared memory: no shared access to price", op.name);
    report.accesses.push_back(std::move(a));
    return;
  }
  if (kind.find("barrier") != std::string::npos || kind == "arrive_barrier" || kind == "barrier_expect")
    not_modelled(op, fmt::format("{}: an mbarrier (8 bytes of shared memory), no tensor data", op.name));
  else if (kind.find("tma") != std::string::npos)
    not_modelled(op, fmt::format("{}: TMA moves whole boxes by the copy engine; no LSU bank model applies", op.name));
  else
    not_modelled(op, fmt::format("{} is not modelled", op.name));
}

void AuditRun::local_alloc(const Op& op) {
  if (op.operands.empty()) return;  // an allocation only
  if (op.operand_types.empty() || op.result_types.empty()) fail("local_alloc with a source needs its types");
  const Type& src = op.operand_types[0];
  const Type& dst = op.result_types[0];
  const int bits = dst.element_bits ? dst.element_bits : src.element_bits;
  const Distributed& d = au.distributed(src, bits);
  const Auditor::SharedView s =
      au.shared(dst, op.results.empty() ? "" : op.results[0], trailing(dst.shape, src.shape.size()), bits);
  lsu(op, AccessKind::Store, d, s, bits, "STS", 0, global_request_note(pointers, op.operands[0], d.layout, bits, m.threads_per_warp));
}

void AuditRun::local_store(const Op& op) {
  if (op.operand_types.size() < 1 || op.result_types.empty() || op.operands.size() < 2)
    fail("local_store needs its operands and types");
  const Type& src = op.operand_types[0];
  const Type& dst = op.result_types[0];
  const int bits = dst.element_bits ? dst.element_bits : src.element_bits;
  const Distributed& d = au.distributed(src, bits);
  lsu(op, AccessKind::Store, d, au.shared(dst, op.operands[1], trailing(dst.shape, src.shape.size()), bits), bits, "STS", 0,
      global_request_note(pointers, op.operands[0], d.layout, bits, m.threads_per_warp));
}

void AuditRun::local_load(const Op& op) {
  if (op.operand_types.empty() || op.result_types.empty() || op.operands.empty()) fail("local_load needs its operand and types");
  const Type& src = op.operand_types[0];
  const Type& dst = op.result_types[0];
  const int bits = src.element_bits ? src.element_bits : dst.element_bits;
  const Distributed& d = au.distributed(dst, bits);
  bool ldmatrix = false;
  if (d.kind == "dot_op" && dst.encoding) {
    const AttrNode e = ttgir::resolve(*dst.encoding, m.aliases);
    if (const AttrNode* parent = e.field("parent"))
      ldmatrix = parent->layout_kind() == "nvidia_mma" && bits == 16 && m.threads_per_warp == 32;
  }
  std::string stored = global_request_note(pointers, op.results.empty() ? "" : op.results[0], d.layout, bits, m.threads_per_warp);
  const audit_parts::AmdTransposingRead tr =
      hip ? audit_parts::amd_transposing_read(op, m.aliases, au.bank, bits) : audit_parts::AmdTransposingRead{};
  if (!tr.note.empty()) stored = tr.note + (stored.empty() ? "" : "; " + stored);
  const char* prefix = ldmatrix ? "LDSM" : tr.modelled ? "DS_READ_TR" : "LDS";
  lsu(op, AccessKind::Load, d, au.shared(src, op.operands[0], trailing(src.shape, dst.shape.size()), bits), bits, prefix, 0,
      ldmatrix ? "ldmatrix into an mma operand" + (stored.empty() ? "" : "; " + stored) : stored);
}

void AuditRun::async_copy(const Op& op) {
  if (op.operand_types.empty() || op.result_types.empty() || op.operands.size() < 2)
    fail("async_copy_global_to_local needs its operands and types");
  const Type& src = op.operand_types[0];
  const Type& dst = op.result_types[0];
  const int bits = dst.element_bits;
  const Distributed& d = au.distributed(src, bits);
  const Auditor::SharedView s = au.shared(dst, op.operands[1], trailing(dst.shape, src.shape.size()), bits);
  // cp.async moves 4, 8 or 16 bytes per lane: the pointer contiguity caps it. Its sources are
  // read through the banks too (serve()), priced from the register layout's order.
  int vec_bits = 0;
  std::string note;
  if (const int contiguity = pointer_contiguity(op)) {
    vec_bits = std::clamp(contiguity * bits, 32, 128);
    const VectorChoice widest = choose_vector(Access{d.layout, AccessKind::Store, 0, 0}, s.layout->layout, bits, au.bank);
    if (vec_bits > widest.bits) vec_bits = 0;
    note = fmt::format("; pointer contiguity {}", contiguity);
  }
  const Access copy = triton_copy(d.layout, vec_bits);  // as price() issues it: the range in the note is the line's form
  const CopyGlobal global = read_copy_global(pointers, op.operands[0], copy, s.layout->layout, bits, au.bank, arguments);
  lsu(op, AccessKind::Store, d, s, bits, "LDGSTS", vec_bits, note + global.note, global.key_suffix);
  // Every copy the pipeline issues: its executions, placements and predicated-off tail (audit_pipeline.h).
  AuditAccess& a = report.accesses.back();
  CopySite& site = copies.emplace_back(CopySite{&op, report.accesses.size() - 1, a.note, a.issued, s.layout, bits});
  if (!a.issued || !a.wavefronts || global.key_suffix.empty()) return;
  if (const auto issues = price_copy_issues(pointers, op, *a.issued, s.layout->layout, bits, au.bank, arguments)) {
    a.executions = issues->executions;
    a.issued_wavefronts = issues->wavefronts;
    a.note += issues->note;
    site.moves_data = issues->moves_data;
  }
}

// Registers / shuffles when no data leaves the warp (as Triton 3.6 lowers it), else a store and a
// load through Triton 3.6's own scratch layout; the solver's layout where that model does not apply.
void AuditRun::convert_layout(const Op& op) {
  if (op.operand_types.empty() || op.result_types.empty()) fail("convert_layout needs its types");
  const Type& src = op.operand_types[0];
  const Type& dst = op.result_types[0];
  const int bits = src.element_bits ? src.element_bits : 32;
  const Distributed& from = au.distributed(src, bits);
  const Distributed& to = au.distributed(dst, bits);
  AuditAccess a = entry(op);
  a.distributed_layout = from.text + " -> " + to.text;
  // Which data leaves a warp? Same per-warp element sets (lanes and registers) -> no shared memory.
  const LinearLayout& S = from.layout;
  const LinearLayout& D = to.layout;
  std::vector<BitVec> s_rl = S.bases("register"), d_rl = D.bases("register");
  const Subspace s_r = Subspace::span(s_rl, S.out_bits()), d_r = Subspace::span(d_rl, D.out_bits());
  for (BitVec b : S.bases("lane")) s_rl.push_back(b);
  for (BitVec b : D.bases("lane")) d_rl.push_back(b);
  const Subspace s_w = Subspace::span(s_rl, S.out_bits()), d_w = Subspace::span(d_rl, D.out_bits());
  bool in_warp = s_w == d_w && S.bases("warp").size() == D.bases("warp").size();
  for (std::size_t i = 0; in_warp && i < S.bases("warp").size(); ++i)
    in_warp = s_w.contains(S.bases("warp")[i] ^ D.bases("warp")[i]);
  bool in_thread = in_warp && s_r == d_r && S.bases("lane").size() == D.bases("lane").size();
  for (std::size_t i = 0; in_thread && i < S.bases("lane").size(); ++i)
    in_thread = s_r.contains(S.bases("lane")[i] ^ D.bases("lane")[i]);
  // Within a warp Triton 3.6 shuffles only when the permutation of register and lane bits needs
  // at most one register-lane exchange; from two on it goes through shared memory (triton_convert.h).
  int exchanges = 0;
  if (in_warp && !in_thread) {
    try {
      exchanges = triton_warp_exchanges(S, D);
    } catch (const Error&) {
      exchanges = 0;  // not a permutation of bits: kept as shuffles
    }
  }
  if (in_warp && exchanges < 2) {
    a.instruction = in_thread ? "registers" : "shuffle";
    const std::int64_t regs = std::int64_t{1} << S.bases("register").size();
    a.instructions = in_thread ? 0 : regs * ((bits + 31) / 32) * (std::int64_t{1} << S.bases("warp").size());
    a.note = in_thread ? "every thread keeps its elements: a register permutation"
                       : "data stays in its warp: warp shuffles (one SHFL per 32-bit register, an upper bound)";
    report.accesses.push_back(std::move(a));
    return;
  }
  a.writer = S;
  a.reader = D;
  a.element_bits = bits;
  // The conversion's two accesses on its line: the writer's stores, then the reader's loads.
  auto side = [&](const char* direction, const std::string& layout_text, const std::string& scratch, const std::string& note,
                  auto&& fill_side) {
    AuditAccess x = a;
    x.direction = direction;
    fill_side(x);
    x.shared_layout = scratch;
    x.distributed_layout = layout_text;
    x.note = note;
    report.accesses.push_back(std::move(x));
  };
  std::optional<TritonConversion> triton;
  std::string refused;
  try {
    triton = triton_convert_layout(S, D, bits, au.bank, triton_target(m.target));
  } catch (const Error& e) {
    refused = e.what();
  }
  if (triton) {
    // Triton 3.6's own scratch layout and instructions (triton_convert.h).
    const std::string scratch = ttgir::shared_linear_attribute(triton->scratch);
    a.shared_offsets = offsets_only(triton->scratch);
    std::string note = "through shared memory; Triton 3.6's scratch layout";
    if (in_warp)
      note = fmt::format("data stays in its warp, but {} register-lane exchanges are too many to shuffle: {}", exchanges, note);
    if (triton->rounds > 1) note += fmt::format(", in {} rounds through a buffer of one", triton->rounds);
    // Warps that only hold copies a tt.store masks off skip its plain loads (audit_parts.h); each
    // reads what a storing warp reads, so the totals scale by the storing warps.
    const std::int64_t warps = std::int64_t{1} << D.bases("warp").size();
    std::int64_t storing = 0;
    for (std::int64_t w = 0; w < warps; ++w) storing += stores_from_warp(D, static_cast<std::uint64_t>(w));
    if (triton->load.kind.op == WarpOp::Load && storing < warps && !op.results.empty() && only_stored(m, op.results[0])) {
      TritonSide& load = triton->load;
      load.instructions = load.instructions * storing / warps;
      load.wavefronts = load.wavefronts * storing / warps;
      load.ideal_total = load.ideal_total * storing / warps;
      note += fmt::format("; {} of {} warps load: the others hold copies that tt.store masks off", storing, warps);
    }
    for (const bool store : {true, false}) {
      const TritonSide& t = store ? triton->store : triton->load;
      side(store ? "store" : "load", store ? from.text : to.text, scratch, note, [&](AuditAccess& x) { fill(x, t, bits); });
    }
    return;
  }
  // Not a conversion Triton 3.6 lowers this way: the solver's conflict-free layout, with the
  // registers as the layouts number them, shows what the data movement costs at best.
  SolveOptions stand_in;
  stand_in.renumber_registers = false;
  stand_in.check = SolveOptions::Check::Full;
  const SolveResult t = solve(Access{S, AccessKind::Store, 0, 0}, Access{D, AccessKind::Load, 0, 0}, bits, au.bank, stand_in);
  const std::string scratch = ttgir::shared_linear_attribute(t.offset_bases);
  const std::string note =
      "through shared memory; scratch layout: the solver's (Triton 3.6's not modelled here: " + refused + ")";
  a.shared_offsets = offsets_only(t.offset_bases);
  side("store", from.text, scratch, note, [&](AuditAccess& x) {
    fill(x, t.write);
    x.instruction = audit_parts::sass("STS", t.write.vector.bits);
    x.issued = Access{S, AccessKind::Store, 0, t.write.vector.bits};
  });
  side("load", to.text, scratch, note, [&](AuditAccess& x) {
    fill(x, t.read);
    x.instruction = audit_parts::sass("LDS", t.read.vector.bits);
    x.issued = Access{D, AccessKind::Load, 0, t.read.vector.bits};
  });
  return;
}

// [SECTION] Partners: each access also carries its buffer's other side (the first writer for a
// load, the first reader for a store; views of the whole buffer only), for the workbench.
void AuditRun::partners() {
  std::map<std::string, std::pair<const Pending*, const Pending*>> sides;
  for (const Pending& q : pending) {
    if (!q.plain_view || q.root.empty()) continue;
    auto& [writer, reader] = sides[q.root];
    if (q.access.kind == AccessKind::Store && !writer) writer = &q;
    if (q.access.kind == AccessKind::Load && !reader) reader = &q;
  }
  for (const Pending& p : pending) {
    if (!p.plain_view) continue;
    const auto [writer, reader] = sides[p.root];
    AuditAccess& a = report.accesses[p.index];
    if (!a.reader && reader && reader->access.layout.shape() == p.access.layout.shape())
      a.reader = report.accesses[reader->index].reader;
    if (!a.writer && writer && writer->access.layout.shape() == p.access.layout.shape())
      a.writer = report.accesses[writer->index].writer;
  }
}

}  // namespace

AuditReport audit(const Module& m, std::string_view gpu, const ArgumentValues& arguments, const sass::Listing* sass) {
  std::string note;
  AuditRun run(m, audit_gpu(m, gpu, &note));
  for (const auto& [given, value] : arguments) {
    const std::string name = given.rfind('%', 0) == 0 ? given : "%" + given;
    // A program id (tt.get_program_id's value) picks the program whose masks are read.
    const std::map<std::string, int>& programs = run.pointers.program_ids();
    if (!run.pointers.arguments().count(name) && !programs.count(name)) {
      std::string known, ids;
      for (const auto& [k, v] : run.pointers.arguments()) known += (known.empty() ? "" : ", ") + k;
      for (const auto& [k, v] : programs) ids += (ids.empty() ? "" : ", ") + k;
      fail("{}: --arg {}: the kernel has no integer argument or program id {} (its integer arguments: {}; its program ids: {})",
           m.path, clipped(given), "%" + clipped(name.substr(1)), known.empty() ? "none" : known, ids.empty() ? "none" : ids);
    }
    run.arguments.values[name] = value;
    run.arguments.given.insert(name);
  }
  run.report.gpu_note = note;
  for (const Op& op : m.ops) run.audit_op(op);
  if (sass) price_copies_by_sass(run.report, m, run.copies, *sass, run.pointers, run.au.bank, run.arguments);
  run.partners();
  // AMD: every LSU access named as the GPU names it (DS_READ_B64, ...), scratch and conversions included.
  if (run.hip)
    for (AuditAccess& a : run.report.accesses)
      if (const auto vec_bits = instruction_vector_bits(a.instruction); vec_bits && a.direction)
        a.instruction = instruction_name(
            Access{LinearLayout{}, *a.direction == "store" ? AccessKind::Store : AccessKind::Load, 0, 0}, *vec_bits, run.au.bank);
  // [SECTION] Suggestions: a layout for each conflicted buffer that all its users accept.
  const Pricer price = [&run](AuditAccess& a, AccessKind kind, const LinearLayout& regs, const std::string& regs_key,
                              const SharedLayout& s, const std::string& shared_key, int bits, const std::string& prefix,
                              int vec_bits) { return run.price(a, kind, regs, regs_key, s, shared_key, bits, prefix, vec_bits); };
  suggest(run.report, m, run.au, run.pending, uses_of_buffers(m, run.au), price);
  suggest_copy_layouts(run.report, m, run.au, run.pending, price);
  return std::move(run.report);
}

}  // namespace swz
