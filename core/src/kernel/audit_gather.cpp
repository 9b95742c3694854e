// audit_gather.cpp: Triton 3.6's tt.gather, priced (audit_scratch_parts.h).
//
// out[I] = src[I with I[axis] = idx[I]]. Triton 3.6 (GatherOpToLLVM.cpp) shuffles within each warp
// when the warp that owns an index also owns every source element it may name
// (GatherLoweringHelper::isWarpLocal); its OptimizeGatherLayouts pass gives every gather of rank 2
// or more such a layout. The rest (a 1-D gather over several warps, a layout written by hand) goes
// through shared memory (emitGatherInShared), retold:
//
//   scratch   the source tile itself, one element of the source's width per element, at
//             LLVM::linearize(coords, shape) without an order: dim 0 fastest whatever the layouts
//             say,  offset = c0 + s0 * (c1 + s1 * (c2 + ...))
//   1. store  every thread writes each of its source registers at its element's offset: a plain
//             st.shared per register (no predicate), which LLVM's vectorizer merges into one wider
//             store where a thread's registers are adjacent and aligned in every thread (register
//             bases at offsets 1, 2, ..., the rest multiples of the run: XOR of power-of-two
//             offsets, so aligned everywhere); registers that repeat an element are one store.
//   barrier
//   2. load   for each register of the result (the index tensor's layout), the element at the
//             thread's coords with the axis coordinate replaced by the index value: one LDS each.
//
// The load addresses are the index values. Where the module computes them (a range and integer
// ops: ttgir_pointer.h) every instruction is priced on them; where it reads them from memory they
// are known only at run time, and each LDS is priced between its ideal and the worst any index
// values could make it (AuditAccess::index_dependent).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "audit_scratch_parts.h"
#include "swz/error.h"
#include "swz/sim/warp_access.h"
#include "ttgir_pointer.h"

namespace swz::audit_parts {

namespace {

// LLVM::linearize(coords, shape) without an order: dim 0 fastest.
std::int64_t gather_offset(const Coords& c, const std::vector<std::int64_t>& shape) {
  std::int64_t at = 0;
  for (std::size_t d = c.size(); d-- > 0;) at = at * shape[d] + c[d];
  return at;
}

// Row-major index of `c` in `shape` (the order the pointer reader keeps a tensor's elements in).
std::int64_t row_major(const Coords& c, const std::vector<std::int64_t>& shape) {
  std::int64_t at = 0;
  for (std::size_t d = 0; d < c.size(); ++d) at = at * shape[d] + c[d];
  return at;
}

// The register bits a thread's merged store covers (bases at element offsets 1, 2, 4, ...) and the
// elements it stores at once: at most 16 bytes, and every other basis a multiple of it.
std::pair<std::uint64_t, std::int64_t> store_vector(const LinearLayout& l, const std::vector<std::int64_t>& shape, int bytes) {
  std::vector<std::int64_t> reg_offsets;
  for (BitVec b : l.bases("register")) reg_offsets.push_back(gather_offset(l.unflatten(b), shape));
  std::int64_t vec = 1;
  std::uint64_t bits = 0;
  while (vec * bytes < 16) {
    const auto it = std::find(reg_offsets.begin(), reg_offsets.end(), vec);
    if (it == reg_offsets.end()) break;
    bits |= std::uint64_t{1} << (it - reg_offsets.begin());
    vec *= 2;
  }
  for (;;) {
    bool aligned = true;
    for (const char* in : {"register", "lane", "warp"}) {
      const auto& bases = l.bases(in);
      for (std::size_t i = 0; i < bases.size(); ++i) {
        if (std::string(in) == "register" && ((bits >> i) & 1u)) continue;
        aligned &= gather_offset(l.unflatten(bases[i]), shape) % vec == 0;
      }
    }
    if (aligned || vec == 1) break;
    vec /= 2;  // drop the widest vector basis
    for (std::size_t i = 0; i < reg_offsets.size(); ++i)
      if (reg_offsets[i] == vec) bits &= ~(std::uint64_t{1} << i);
  }
  return {bits, vec};
}

// The most wavefronts one LDS of `bytes` per lane can cost when each lane may read any element of
// its column (its coords off the axis, `columns[lane]`): per phase, the largest over banks of
// min(lanes that can reach the bank, the words of it their columns span). An upper bound: the index
// values pick one element a lane. `words_of` keeps each column's words per bank (bank -> count).
int worst_over_indices(const std::vector<Coords>& columns, std::size_t axis, const std::vector<std::int64_t>& shape, int bytes,
                       const BankModel& bank, std::map<Coords, std::map<int, int>>& words_of) {
  auto words = [&](const Coords& column) -> const std::map<int, int>& {
    auto it = words_of.find(column);
    if (it != words_of.end()) return it->second;
    std::set<std::int64_t> seen;
    Coords c = column;
    for (std::int64_t v = 0; v < shape[axis]; ++v) {
      c[axis] = v;
      const std::int64_t a = gather_offset(c, shape) * bytes;
      for (std::int64_t w = a / bank.bank_bytes; w <= (a + bytes - 1) / bank.bank_bytes; ++w) seen.insert(w);
    }
    std::map<int, int> per_bank;
    for (std::int64_t w : seen) ++per_bank[static_cast<int>(w % bank.banks)];
    return words_of.emplace(column, std::move(per_bank)).first->second;
  };
  const std::size_t per_phase =
      static_cast<std::size_t>(std::max(1, phase_lanes(InstructionKind{WarpOp::Load, bytes, 0, false}, bank)));
  int total = 0;
  for (std::size_t first = 0; first < columns.size(); first += per_phase) {
    std::map<Coords, int> lanes_in;  // column -> its lanes in this phase
    for (std::size_t l = first; l < std::min(columns.size(), first + per_phase); ++l) ++lanes_in[columns[l]];
    std::map<int, std::pair<int, int>> at;  // bank -> (lanes that reach it, words of it they reach)
    for (const auto& [column, lanes] : lanes_in)
      for (const auto& [b, n] : words(column)) {
        at[b].first += lanes;
        at[b].second += n;
      }
    int worst = 1;
    for (const auto& [b, ln] : at) worst = std::max(worst, std::min(ln.first, ln.second));
    total += worst;
  }
  return total;
}

}  // namespace

std::vector<AuditAccess> gather_accesses(const Op& op, const Auditor& au, const AuditAccess& entry,
                                         const ttgir::PointerReader* pointers) {
  AuditAccess a = entry;
  a.instruction = "not modelled";
  if (op.operand_types.size() < 2 || op.operand_types[0].kind != Type::Kind::Tensor ||
      op.operand_types[1].kind != Type::Kind::Tensor || op.result_types.empty() ||
      op.result_types[0].kind != Type::Kind::Tensor) {
    a.note = "tt.gather whose operand types were not printed";
    return {a};
  }
  const std::size_t axis = axis_of(op);
  const Type& src_type = op.operand_types[0];
  const int bytes = std::max(8, src_type.element_bits) / 8;
  const Distributed& src = au.distributed(src_type, bytes * 8);
  const Distributed& idx = au.distributed(op.operand_types[1], std::max(8, op.operand_types[1].element_bits));
  a.distributed_layout = src.text;
  auto along_axis = [&](const LinearLayout& l, const char* in) {
    return std::any_of(l.bases(in).begin(), l.bases(in).end(), [&](BitVec b) { return l.unflatten(b)[axis] != 0; });
  };
  // The bases of `in` with the axis coordinate dropped: which other-dim positions it reaches.
  auto off_axis = [&](const LinearLayout& l, const char* in) {
    std::vector<Coords> out;
    for (BitVec b : l.bases(in)) {
      Coords c = l.unflatten(b);
      c.erase(c.begin() + static_cast<std::ptrdiff_t>(axis));
      out.push_back(c);
    }
    return out;
  };
  // isWarpLocal's three tests (lib/Analysis/Utility.cpp); a broadcast (zero) warp basis moves no
  // element, so warps that repeat the data (the old layout pass's 1-D gathers) stay warp-local.
  const bool warp_local = !along_axis(src.layout, "warp") && !along_axis(idx.layout, "warp") &&
                          off_axis(src.layout, "warp") == off_axis(idx.layout, "warp") &&
                          off_axis(src.layout, "lane") == off_axis(idx.layout, "lane");
  if (warp_local) {
    a.instruction = "shuffle";
    a.note = fmt::format("tt.gather along axis {} within each warp: shuffles (Triton 3.6's warp-local gather), no shared memory",
                         axis);
    return {a};
  }

  const Module& m = au.m;
  const int lanes = m.threads_per_warp, num_warps = m.num_warps;
  for (const LinearLayout* l : {&src.layout, &idx.layout})
    if ((std::int64_t{1} << l->bases("warp").size()) != num_warps || (std::int64_t{1} << l->bases("lane").size()) != lanes)
      fail("a gathered tensor's layout has {} warps of {} lanes, the module {} of {}", std::int64_t{1} << l->bases("warp").size(),
           std::int64_t{1} << l->bases("lane").size(), num_warps, lanes);
  const std::vector<std::int64_t>& shape = src_type.shape;
  const std::vector<std::int64_t>& idx_shape = op.operand_types[1].shape;
  ScratchPricer pricer(au.bank);
  std::vector<std::int64_t> address(static_cast<std::size_t>(lanes));

  // 1. The source to the scratch, merged stores where a thread's registers allow.
  const auto [vector_bits, vec] = store_vector(src.layout, shape, bytes);
  for (std::uint64_t r : distinct_registers(src.layout)) {
    if (r & vector_bits) continue;
    for (int w = 0; w < num_warps; ++w) {
      for (int lane = 0; lane < lanes; ++lane)
        address[static_cast<std::size_t>(lane)] =
            gather_offset(coords_at(src.layout, r, static_cast<std::uint64_t>(lane), static_cast<std::uint64_t>(w)), shape) *
            bytes;
      pricer.issue(/*store=*/true, static_cast<int>(vec) * bytes, address, /*predicated=*/false);
    }
  }
  pricer.end_step(vec > 1 ? "source elements stored (adjacent ones merged)" : "source elements stored", "");

  // 2. One LDS per result register, where the index names; none when no op reads the result.
  const LinearLayout& rl = idx.layout;
  std::optional<ttgir::Affine> index;
  std::string unknown_why;
  if (pointers) {
    const ttgir::Followed f = pointers->follow(op.operands.size() > 1 ? op.operands[1] : "");
    if (f.value && f.value->coefficient.empty() && !f.value->uniform_unknown &&
        static_cast<std::int64_t>(f.value->size()) ==
            std::accumulate(idx_shape.begin(), idx_shape.end(), std::int64_t{1}, std::multiplies<>()))
      index = f.value;
    else
      unknown_why = f.value ? "they depend on the kernel's arguments" : f.why_not;
    if (const std::size_t at = unknown_why.find("tt.load is not followed"); at != std::string::npos)
      unknown_why = unknown_why.substr(0, at) + "tt.load reads them from memory";
  } else {
    unknown_why = "the module's arithmetic was not read";
  }
  const std::string result = op.results.empty() ? "" : op.results[0].substr(0, op.results[0].find(':'));
  const bool stored = only_stored(m, result);
  std::int64_t index_loads = 0;
  std::map<Coords, std::map<int, int>> column_words;
  int worst = 0;
  const InstructionKind load_kind{WarpOp::Load, bytes, 0, false};
  // Indices the kernel computes are constants per thread: a register whose lanes read the same
  // addresses as an earlier register of the warp is the same load, and the compiler issues it once
  // where it proves them equal (H200, tests/data/triton/scratch/h200-20261129: gather1d_1024_f32_w4_s32,
  // 16 LDS for 32 registers' worth). It does not always: the Gluon gather of 64x32 fp32 loads 7 of
  // a warp's 16 registers where 4 address sets differ (its PTX keeps one column's four repeats). The
  // line prices each set once; `repeats` counts every register's load, the most there can be.
  std::map<int, std::set<std::vector<std::int64_t>>> issued;
  std::int64_t least = 0, least_wavefronts = 0, repeats = 0, repeat_wavefronts = 0;
  if (m.used_values.count(result))
    for (std::uint64_t r : distinct_registers(rl))
      for (int w = 0; w < num_warps; ++w) {
        if (stored && !stores_from_warp(rl, static_cast<std::uint64_t>(w))) continue;
        std::vector<Coords> columns;
        for (int lane = 0; lane < lanes; ++lane) {
          Coords c = coords_at(rl, r, static_cast<std::uint64_t>(lane), static_cast<std::uint64_t>(w));
          if (index) {
            const std::int64_t v = index->constant[static_cast<std::size_t>(row_major(c, idx_shape))];
            if (v < 0 || v >= shape[axis])
              fail("tt.gather index {} outside the source's {} elements along axis {}", v, shape[axis], axis);
            c[axis] = v;
            address[static_cast<std::size_t>(lane)] = gather_offset(c, shape) * bytes;
            continue;
          }
          c[axis] = 0;
          columns.push_back(std::move(c));
        }
        if (index) {
          const std::int64_t cost = serve(WarpRequest{load_kind, address, {}}, au.bank).wavefronts;
          ++repeats;
          repeat_wavefronts += cost;
          if (issued[w].insert(address).second) {
            pricer.issue(/*store=*/false, bytes, address, /*predicated=*/false);
            ++least;
            least_wavefronts += cost;
          }
        } else {
          ++index_loads;
          worst = std::max(worst, worst_over_indices(columns, axis, shape, bytes, au.bank, column_words));
        }
      }
  pricer.end_step("", "elements read where the indices name");

  std::vector<std::int64_t> dims(shape.begin(), shape.end());
  const std::string where =
      shape.size() == 1
          ? fmt::format("a gather across warps through Triton 3.6's scratch: the source's {} elements in order", shape[0])
          : fmt::format(
                "a gather along axis {} across warps through Triton 3.6's scratch: the source tile [{}] at c0 + {} c1 ... "
                "(dim 0 fastest)",
                axis, fmt::join(dims, " x "), shape[0]);
  std::vector<AuditAccess> entries = pricer.entries(a, where, bytes * 8);
  if (repeats > least)
    for (AuditAccess& e : entries)
      if (e.direction == "load")
        e.note += fmt::format(
            "; {} loads, one per distinct set of lane addresses in a warp ({} wavefronts): a register that repeats an "
            "earlier one's addresses is loaded again where the compiler does not prove them equal, up to {} loads ({} wavefronts)",
            least, least_wavefronts, repeats, repeat_wavefronts);
  if (index_loads) {
    AuditAccess x = a;
    x.direction = "load";
    x.instruction = load_kind.name();
    x.instructions = index_loads;
    x.index_dependent = true;
    std::vector<std::int64_t> contiguous(static_cast<std::size_t>(lanes));
    std::iota(contiguous.begin(), contiguous.end(), std::int64_t{0});
    for (auto& c : contiguous) c *= bytes;
    x.ideal_wavefronts = serve(WarpRequest{load_kind, contiguous, {}}, au.bank).ideal;
    x.worst_wavefronts = worst;
    x.element_bits = bytes * 8;
    x.note = fmt::format(
        "{}: {} elements read where the indices name; the indices are not known before run time ({}): each costs between {} and "
        "{} wavefronts, as the index values fall",
        where, index_loads, unknown_why, *x.ideal_wavefronts, worst);
    entries.push_back(std::move(x));
  }
  return entries;
}

}  // namespace swz::audit_parts
