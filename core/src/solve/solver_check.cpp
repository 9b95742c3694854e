// solver_check.cpp: the construction checked by the simulator (every
// instruction on small tensors, a sample without a table on large ones), and
// an access issued under a given layout (registers renumbered).
#include <fmt/format.h>

#include <bit>
#include <string_view>
#include <tuple>

#include "solver_access.h"
#include "swz/error.h"
#include "swz/sim/matrix_rows.h"
#include "swz/solve/solver.h"

namespace swz {

using namespace solve_detail;

Access issue_under(const Access& x, const LinearLayout& offset_bases, int ebits, int cap_bits) {
  if (!pow2(ebits) || !pow2(cap_bits) || cap_bits < ebits || cap_bits > 128)
    fail("a vector cap of {} bits does not fit {}-bit elements", cap_bits, ebits);
  const AccessInfo info = info_of(x, "access", "X", ebits);
  if (x.layout.out_dims() != offset_bases.out_dims() || !offset_bases.is_invertible())
    fail("the shared layout is not an invertible map onto the access's {} tensor", fmt::join(x.layout.shape(), "x"));
  const OffsetMap m = offset_map(offset_bases.bases("offset"), offset_bases.out_bits());
  int k = 0;
  try {
    k = widest_vector(info, m, ilog2(static_cast<std::uint64_t>(cap_bits / ebits)), /*renumbered=*/true);
  } catch (const SolverBug&) {
    fail("the access asks for {}-bit vectors, which this layout does not hold contiguously", (1 << info.requested) * ebits);
  }
  const Renumbering rn = renumber(info, m, k);
  Access out = x;
  if (!rn.identity) out.layout = x.layout.with_in_dim("register", rn.regs);
  if (!x.ldmatrix) out.vec_bits = (1 << k) * ebits;
  return out;
}

Access issue_as_named(const Access& side, const SharedLayout& shared, int ebits, const BankModel& model,
                      const std::vector<BitVec>* other_registers) {
  if (side.ldmatrix) return issue_matrix(side, shared, ebits, model, other_registers);
  try {
    (void)choose_vector(side, shared, ebits, model);
    return side;
  } catch (const Error&) {
    if (!side.vec_bits || !shared.is_linear()) throw;
  }
  Access renumbered;
  try {
    renumbered = issue_under(side, shared.linear(), ebits, side.vec_bits);
  } catch (const Error&) {
    (void)choose_vector(side, shared, ebits, model);  // the simulator's own message
    throw;
  }
  (void)choose_vector(renumbered, shared, ebits, model);
  return renumbered;
}

// [SECTION] Check
//
// Small tensors: the whole table and every instruction, as the workbench runs
// them. Large ones: no table; a sample of instructions (all of warp 0's first
// steps, then spread over the rest) under the linear address function.

namespace {

AccessResult sampled(const Access& x, const BitMatrix& to_offset, int vec_log2, int ebits, const BankModel& model,
                     const SideCost& cost, int& simulated) {
  AccessResult r;
  r.element_bits = ebits;
  r.vector.elements = 1 << vec_log2;
  r.vector.bits = r.vector.elements * ebits;
  r.vector.limit = "the solver's choice";
  // The vector, checked on the bases: registers 0..k-1 are offsets 1 .. 2^(k-1), nothing else moves an offset bit below k.
  const auto regs = x.layout.bases("register");
  for (int i = 0; i < static_cast<int>(regs.size()); ++i) {
    const BitVec off = to_offset.apply(regs[static_cast<std::size_t>(i)]);
    if (i < vec_log2 ? off != (BitVec{1} << i) : (off & low_bits(vec_log2)) != 0) r.vector.bits = r.vector.elements = 0;
  }
  for (const char* dim : {"lane", "warp"})
    for (BitVec v : x.layout.bases(dim))
      if (to_offset.apply(v) & low_bits(vec_log2)) r.vector.bits = r.vector.elements = 0;
  if (r.vector.bits == 0) return r;
  r.warps = 1 << x.layout.in_dim_bits("warp");
  r.steps = 1 << (x.layout.in_dim_bits("register") - vec_log2);
  const AccessGeometry geometry = access_geometry(x, ebits, r.vector.bits, model);
  r.lanes_per_phase = geometry.lanes_per_phase;
  r.phases = geometry.phases;
  r.banks = geometry.bank.banks;
  const auto which = sample_instructions(r.warps, r.steps, /*budget=*/256);
  const auto results = simulate_linear(x, to_offset, vec_log2, ebits, model, which);
  simulated = static_cast<int>(results.size());
  for (const auto& ir : results) {
    r.merged = r.merged || ir.merged;
    if (ir.wavefronts > r.wavefronts) {
      r.wavefronts = ir.wavefronts;
      r.ideal_wavefronts = ir.ideal;
    }
  }
  r.conflicts = r.wavefronts - r.ideal_wavefronts;
  // Every instruction of a linear layout costs the same (the sample checks it): totals follow.
  r.mean_wavefronts = r.wavefronts;
  r.total_wavefronts = cost.instructions * r.wavefronts;
  r.total_ideal = cost.instructions * r.ideal_wavefronts;
  return r;
}

}  // namespace

SolveResult solve(const Access& writer, const Access& reader, int ebits, const BankModel& model, const SolveOptions& opt) {
  SolveResult r = construct(writer, reader, ebits, model, opt);
  const int width = writer.layout.out_bits();
  const bool full = opt.check == SolveOptions::Check::Full ||
                    (opt.check == SolveOptions::Check::Automatic && width <= SolveOptions::kFullCheckBits);
  if (full && width > kMaxAddressBits) fail("a full check needs a table of 2**{} entries; at most 2**{}", width, kMaxAddressBits);
  std::string how;
  if (full) {
    r.shared = SharedLayout::from_linear(r.offset_bases, "solved swizzle");
    r.write = simulate(r.writer, r.shared, ebits, model);
    r.read = simulate(r.reader, r.shared, ebits, model);
    r.simulated_instructions = r.write.instructions() + r.read.instructions();
    how = "every instruction simulated";
  } else {
    const auto inverse = BitMatrix::from_columns(width, r.offset_bases.bases("offset")).inverse();
    if (!inverse) throw SolverBug("the constructed offset bases are not invertible");
    int sw = 0, sr = 0;
    r.write = sampled(r.writer, *inverse, std::countr_zero(static_cast<unsigned>(r.write_cost.vec_bits / ebits)), ebits, model,
                      r.write_cost, sw);
    r.read = sampled(r.reader, *inverse, std::countr_zero(static_cast<unsigned>(r.read_cost.vec_bits / ebits)), ebits, model,
                     r.read_cost, sr);
    r.simulated_instructions = sw + sr;
    how = fmt::format("a sample of {} of the {} instructions simulated (no table of 2**{} elements)", sw + sr,
                      r.write_cost.instructions + r.read_cost.instructions, width);
  }
  r.sampled = !full;
  std::string notes;
  auto compare = [&](const char* role, const AccessResult& sim, int claimed, int vec_bits) {
    if (sim.vector.bits != vec_bits)
      throw SolverBug(fmt::format("the {} vectorises to {} bits in the simulator, {} in the construction", role, sim.vector.bits,
                                  vec_bits));
    if (sim.wavefronts == claimed) return;
    if (std::string_view(role) == "writer" && r.writer.async_copy && sim.modelled) {
      // A .ca copy's words come through the banks by their global source (warp_access.h, rule 4): the layout
      // algebra counts the shared side alone, so the simulator's count is the copy's price.
      notes += fmt::format("{}the writer's cp.async takes {} wavefronts where the layout algebra counts {} (its source banks' turns)",
                           notes.empty() ? "" : "; ", sim.wavefronts, claimed);
      r.write_cost.wavefronts = sim.wavefronts;
      r.write_cost.conflicts = sim.wavefronts - sim.ideal_wavefronts;
      r.write_cost.total_wavefronts = sim.total_wavefronts;
      return;
    }
    if (sim.merged && sim.wavefronts < claimed) {
      notes += fmt::format("{}the {}'s wide loads merge phases: {} wavefronts where the lemma counts {}",
                           notes.empty() ? "" : "; ", role, sim.wavefronts, claimed);
      return;
    }
    throw SolverBug(
        fmt::format("the construction claims {} wavefronts for the {}, the simulator counts {}", claimed, role, sim.wavefronts));
  };
  compare("writer", r.write, r.claimed_write_wavefronts, r.write_cost.vec_bits);
  compare("reader", r.read, r.claimed_read_wavefronts, r.read_cost.vec_bits);
  r.conflict_free = r.write.wavefronts == r.write.ideal_wavefronts && r.read.wavefronts == r.read.ideal_wavefronts;
  r.check = (notes.empty() ? "the simulator agrees with the construction for both accesses" : notes) + " (" + how + ")";
  r.trace.push_back({"Check", "Simulation: " + r.check + ".", {}});
  return r;
}

SolveResult solve(const Access& writer, const Access& reader, int ebits, const BankModel& model) {
  return solve(writer, reader, ebits, model, SolveOptions{});
}

SolveResult solve(const Problem& p, const SolveOptions& opt) { return solve(p.store, p.read, p.element_bits, p.bank, opt); }

std::vector<ProbeRequest> probe_requests(const SolveResult& r, const BankModel& model) {
  if (r.shared.coord_bits() == 0) fail("the answer was checked by sample, without a table: solve it with a full check");
  std::vector<ProbeRequest> out;
  for (const auto& [side, x, sim] : {std::tuple{"write", &r.writer, &r.write}, std::tuple{"read", &r.reader, &r.read}}) {
    std::vector<std::pair<int, int>> which;
    for (int st = 0; st < std::min(sim->steps, 8); ++st) which.emplace_back(0, st);
    if (sim->warps * sim->steps > 8) which.emplace_back(sim->warps - 1, sim->steps - 1);
    for (auto [warp, step] : which)
      out.push_back({fmt::format("{} warp {} step {}", side, warp, step), warp_request(*x, r.shared, r.element_bits, model, warp, step)});
  }
  return out;
}

}  // namespace swz
