// solver.cpp: the construction of solver.h for one pair of instructions
// (vectors first, then the segment directions), its proof, and the choice
// between vector widths. Which instructions: solver_instructions.cpp; the
// simulator's check: solver_check.cpp; toggle grids: solver_grid.cpp.
//
// The pieces (vectors, the construction for one pair of widths, costs) are in
// solver_build.cpp; here: every pair of widths costed and the cheapest kept, its
// proof, and the trace a front end replays.
#include "swz/solve/solver.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "solver_access.h"
#include "solver_build.h"
#include "swz/error.h"

namespace swz {

using namespace solve_detail;


namespace solve_detail {

SolveResult construct_with(const Access& writer, const Access& reader, int ebits, const BankModel& model, const SolveOptions& opt) {
  check_inputs(writer, reader, ebits, model);
  check_options(opt, ebits);
  const LinearLayout& coords = writer.layout;
  Geometry g;
  g.width = coords.out_bits();
  g.ebits = ebits;
  const OffsetBits bits = offset_bits(model, ebits);
  g.seg_start = bits.segment_start;
  g.within_word = bits.within_word;
  g.widest = ilog2(static_cast<std::uint64_t>(128 / ebits));
  g.segment_bits = std::max(0, g.width - g.seg_start);
  g.cap_a = ilog2(static_cast<std::uint64_t>(opt.write_vec_bits / ebits));
  g.cap_b = ilog2(static_cast<std::uint64_t>(opt.read_vec_bits / ebits));
  AccessInfo a = info_of(writer, "writer", "A", ebits), b = info_of(reader, "reader", "B", ebits);
  a.as_numbered = a.as_numbered || !opt.renumber_registers;
  b.as_numbered = b.as_numbered || !opt.renumber_registers;
  const int w = g.width;
  for (const AccessInfo* x : {&a, &b}) {
    if (x->requested < 0) continue;
    const int cap = x == &a ? g.cap_a : g.cap_b;
    if (x->requested > cap)
      fail("the {} needs {}-bit vectors{}, above the {}-bit cap", x->role, (1 << x->requested) * ebits,
           x->access->ldmatrix ? " (ldmatrix reads 16-byte rows)" : "", (1 << cap) * ebits);
    const int room = free_dim(register_span(*x, w), lane_warp_span(*x, w));
    if (x->requested > room)
      fail("the {} asks for {}-bit vectors but its registers give at most {} bits (vectors are register directions no lane "
           "or warp moves along)",
           x->role, (1 << x->requested) * ebits, (1 << room) * ebits);
  }
  const std::vector<BitVec> common = common_vectors(a, b, w);
  const std::vector<BitVec> units = unit_vectors(coords);
  const int max_a = widest_for(a, g.cap_a, w), max_b = widest_for(b, g.cap_b, w);
  const int min_a = a.requested >= 0 ? a.requested : 0, min_b = b.requested >= 0 ? b.requested : 0;

  // Every pair of widths, widest first; a pair whose conflict-free cost cannot beat the best so far is not built.
  std::optional<Candidate> best;
  std::vector<WidthChoice> choices;
  int built = 0, tried = 0;
  for (int ka = max_a; ka >= min_a; --ka)
    for (int kb = max_b; kb >= min_b; --kb) {
      // Registers as numbered: one vector both share (as wide as their common leading registers), or a requested one.
      if (a.as_numbered && b.as_numbered && ka != kb && a.requested < 0 && b.requested < 0) continue;
      ++tried;
      WidthChoice ch;
      ch.write_vec_bits = (1 << ka) * ebits;
      ch.read_vec_bits = (1 << kb) * ebits;
      auto ideal = [&](const AccessInfo& x, int k) {
        return (std::int64_t{1} << (static_cast<int>(x.regs.size()) - k + static_cast<int>(x.warps.size()))) *
               (active_lanes(x) / phase_lanes(x, k, ebits, model));
      };
      const std::int64_t floor = ideal(a, ka) + ideal(b, kb);
      const std::int64_t instr = (std::int64_t{1} << (static_cast<int>(a.regs.size()) - ka + static_cast<int>(a.warps.size()))) +
                                 (std::int64_t{1} << (static_cast<int>(b.regs.size()) - kb + static_cast<int>(b.warps.size())));
      if (best && (floor > best->total() || (floor == best->total() && instr >= best->instructions()))) {
        ch.note = fmt::format("not built: even conflict-free it costs {} wavefronts, the best so far {}", floor, best->total());
        choices.push_back(std::move(ch));
        continue;
      }
      std::optional<Candidate> pair_best;
      const AccessInfo& wide = kb > ka ? b : a;
      const AccessInfo& narrow = kb > ka ? a : b;
      const auto orders =
          ka == kb         ? std::vector<std::vector<BitVec>>{{}}
          : wide.as_numbered ? std::vector<std::vector<BitVec>>{{wide.regs.begin() + std::min(ka, kb), wide.regs.end()}}
                          : u_orders(wide, narrow, common, std::min(ka, kb), w);
      for (const auto& order : orders) {
        const auto plan = plan_for(a, b, ka, kb, common, order, w);
        if (!plan) continue;
        const Subspace hi = choose_hi(*plan, g, model, units);
        Candidate c{*plan, build(a, b, *plan, hi, g, model, units), {}, {}};
        c.a = side_cost(a, c.built.pred_a, ebits);
        c.b = side_cost(b, c.built.pred_b, ebits);
        if (!pair_best || cheaper(c, *pair_best)) pair_best = std::move(c);
      }
      if (!pair_best) {
        ch.note = "no vectors fit: a lane or warp of one access moves along a vector direction of the other";
        choices.push_back(std::move(ch));
        continue;
      }
      ++built;
      ch.built = true;
      ch.write = pair_best->a;
      ch.read = pair_best->b;
      ch.write.instruction = instruction_name(writer, ch.write.vec_bits, model);
      ch.read.instruction = instruction_name(reader, ch.read.vec_bits, model);
      ch.total_wavefronts = pair_best->total();
      ch.instructions = pair_best->instructions();
      choices.push_back(std::move(ch));
      if (!best || cheaper(*pair_best, *best)) best = std::move(pair_best);
    }
  if (!best)
    fail("no layout gives the accesses their vectors: a lane or warp of one access moves along a vector register of the other");
  for (auto& ch : choices)
    ch.chosen = ch.built && ch.write_vec_bits == (1 << best->plan.k_a) * ebits && ch.read_vec_bits == (1 << best->plan.k_b) * ebits;

  const VectorPlan& plan = best->plan;
  const Built& bt = best->built;
  const int kw = std::max(plan.k_a, plan.k_b);
  SolveResult r;
  r.element_bits = ebits;
  r.vec_bits = (1 << kw) * ebits;
  r.offset_bases = LinearLayout({InDim{"offset", bt.images}, InDim{"block", {}}}, coords.out_dims());
  r.claimed_write_wavefronts = bt.pred_a.wavefronts();
  r.claimed_read_wavefronts = bt.pred_b.wavefronts();
  r.conflict_free = bt.pred_a.conflict_dim == 0 && bt.pred_b.conflict_dim == 0;
  r.fallback = static_cast<int>(bt.h_set.size() + bt.c_set.size()) < g.segment_bits;
  r.vec = plan.vec;
  r.within_word = bt.w_full;
  r.thread_a = bt.ta;
  r.thread_b = bt.tb;
  r.split_a = bt.split_a;
  r.split_b = bt.split_b;
  r.shared_threads = bt.i_set;
  r.only_a = bt.e_set;
  r.only_b = bt.f_set;
  r.paired = bt.h_set;
  r.complement = bt.c_set;
  r.padding = bt.pad;
  r.bank = bt.bank;
  r.segment = bt.segment;
  r.write_cost = best->a;
  r.read_cost = best->b;
  r.write_cost.instruction = instruction_name(writer, r.write_cost.vec_bits, model);
  r.read_cost.instruction = instruction_name(reader, r.read_cost.vec_bits, model);
  r.choices = std::move(choices);
  r.width = width_proof(a, b, g, static_cast<int>(common.size()), built, tried);

  // The accesses as the kernel issues them: registers renumbered so each vector is registers 0..k-1.
  const OffsetMap m = offset_map(bt.images, w);
  const Renumbering ra = renumber(a, m, bt.pred_a.vector_log2), rb = renumber(b, m, bt.pred_b.vector_log2);
  auto issued = [&](const Access& x, const Renumbering& rn, const Predicted& p) {
    Access out = x;
    if (!rn.identity) out.layout = x.layout.with_in_dim("register", rn.regs);
    if (!x.ldmatrix) out.vec_bits = (1 << p.vector_log2) * ebits;
    return out;
  };
  r.writer = issued(writer, ra, bt.pred_a);
  r.reader = issued(reader, rb, bt.pred_b);
  r.write_registers = ra.from;
  r.read_registers = rb.from;
  r.write_renumbered = !ra.identity;
  r.read_renumbered = !rb.identity;

  LowerBound& lb = r.bound;
  lb.space_dim = bt.space_dim;
  lb.segment_bits = g.segment_bits;
  lb.max_avoiding_dim = bt.max_avoiding;
  lb.write_conflict_dim = bt.bound_a;
  lb.read_conflict_dim = bt.bound_b;
  lb.write_wavefronts = bt.pred_a.phases << bt.bound_a;
  lb.read_wavefronts = bt.pred_b.phases << bt.bound_b;
  if (g.segment_bits == 0)
    lb.reason = "the tensor fits in one row of banks: there are no segment bits, so nothing can conflict";
  else if (g.segment_bits <= bt.max_avoiding)
    lb.reason = fmt::format(
        "Lemma 9.5: in the {}-dim space left after the vector and within-word bits, a subspace avoiding "
        "span(A_Thr) and span(B_Thr) can have dimension {} - max(dim A_Thr, dim B_Thr) = {} >= {} segment "
        "bits, so both accesses can be conflict-free",
        bt.space_dim, bt.space_dim, bt.max_avoiding, g.segment_bits);
  else
    lb.reason = fmt::format(
        "Lemma 9.5: a subspace avoiding both thread spans has dimension at most {}, but {} segment bits are "
        "needed; any {} segment directions meet span(A_Thr) in at least {} and span(B_Thr) in at least {} "
        "dimensions",
        bt.max_avoiding, g.segment_bits, g.segment_bits, bt.bound_a, bt.bound_b);

  // The trade-off: a wider pair that was built but cost more.
  const WidthChoice* wider = nullptr;
  for (const auto& ch : r.choices)
    if (ch.built && !ch.chosen && ch.write.vec_bits >= r.write_cost.vec_bits && ch.read.vec_bits >= r.read_cost.vec_bits &&
        (ch.write.vec_bits + ch.read.vec_bits > r.write_cost.vec_bits + r.read_cost.vec_bits) &&
        (!wider || ch.write.vec_bits + ch.read.vec_bits > wider->write.vec_bits + wider->read.vec_bits))
      wider = &ch;
  if (wider)
    r.tradeoff = fmt::format(
        "{}-bit writes and {}-bit reads would cost {} wavefronts in all ({} and {} per instruction, {} instructions); "
        "{}-bit writes and {}-bit reads cost {} ({} and {} per instruction, {} instructions), so the narrower vectors win",
        wider->write.vec_bits, wider->read.vec_bits, wider->total_wavefronts, wider->write.wavefronts, wider->read.wavefronts,
        wider->instructions, r.write_cost.vec_bits, r.read_cost.vec_bits, best->total(), r.write_cost.wavefronts,
        r.read_cost.wavefronts, best->instructions());

  // [SECTION] Trace (of the chosen pair)
  const int v = kw;
  const int bank_bits = g.seg_start - v;
  auto& t = r.trace;
  {
    SolveStep st{"Vector widths", r.width.reason, {}};
    st.sets = {{"A_Reg", a.regs}, {"B_Reg", b.regs}, {"Common", common}};
    if (!r.tradeoff.empty()) st.sentence += " Trade-off: " + r.tradeoff + ".";
    t.push_back(std::move(st));
  }
  {
    SolveStep st{"Vectorization", "", {}};
    st.sets = {{"V", plan.vec}};
    if (plan.k_a == plan.k_b)
      st.sentence = fmt::format("V = {}: directions both register spans hold, so v = {} and each lane moves {} bits per "
                                "instruction{}.",
                                names(coords, plan.vec), v, (1 << v) * ebits,
                                v == 0 ? " (scalar accesses)" : "");
    else
      st.sentence =
          fmt::format("V = {}: the {} moves {} bits per lane; the {} shares the first {} of them and moves {} bits, the rest "
                      "being its lanes or later registers.",
                      names(coords, plan.vec), plan.wide->role, (1 << kw) * ebits, plan.narrow->role,
                      std::min(plan.k_a, plan.k_b), (1 << std::min(plan.k_a, plan.k_b)) * ebits);
    if (r.write_renumbered) st.sentence += " " + registers_text(ra, "A") + ".";
    if (r.read_renumbered) st.sentence += " " + registers_text(rb, "B") + ".";
    t.push_back(std::move(st));
  }
  {
    SolveStep st{"Space sizes", "", {}};
    st.sentence = fmt::format(
        "b = log2({} bytes / {} bits per vector) = {} bank bits, s = {} - {} - {} = {} segment bits "
        "(one segment = one {}-byte row of all {} banks).",
        model.wavefront_bytes(), (1 << v) * ebits, bank_bits, g.width, v, bank_bits, g.segment_bits,
        model.wavefront_bytes(), model.banks);
    if (!bt.w_full.empty() && static_cast<int>(bt.w_full.size()) > v) {
      st.sentence += fmt::format(
          " Elements are {} bits, so W' = {} share a bank word with the vector: lanes that differ "
          "only there read the same word.",
          ebits, names(coords, bt.within_word_extra));
      st.sets.push_back({"W'", bt.within_word_extra});
    }
    t.push_back(std::move(st));
  }
  {
    SolveStep st{"Transaction split", "", {}};
    st.sets = {{"A_Thr", bt.ta}, {"B_Thr", bt.tb}, {"A_split", bt.split_a}, {"B_split", bt.split_b}};
    auto one = [&](const AccessInfo& x, const std::vector<BitVec>& split, int k) {
      const int lanes = phase_lanes(x, k, ebits, model);
      if (split.empty()) return fmt::format("{} is served {} lanes at a time: no split", x.letter, lanes);
      return fmt::format("{} is served {} lanes at a time, so its lane bits {} get a free pass", x.letter, lanes,
                         names(coords, split));
    };
    st.sentence = one(a, bt.split_a, plan.k_a) + "; " + one(b, bt.split_b, plan.k_b) + ".";
    t.push_back(std::move(st));
  }
  t.push_back({"Sort the thread bits",
               fmt::format("I = A_Thr ∩ B_Thr = {} is set aside (a thread direction for both); E = A_Thr \\ B_Thr = {}; "
                           "F = B_Thr \\ A_Thr = {}.",
                           names(coords, bt.i_set), names(coords, bt.e_set), names(coords, bt.f_set)),
               {{"I", bt.i_set}, {"E", bt.e_set}, {"F", bt.f_set}}});
  t.push_back({"Pair and XOR",
               fmt::format("H = {{e_i ^ f_i}} = {}: each flips a thread bit only A uses together with one only B uses, so "
                           "neither access sees it as a thread direction.",
                           names(coords, bt.h_set)),
               {{"H", bt.h_set}}});
  t.push_back({"Top up",
               bt.c_set.empty()
                   ? std::string("The two thread spans fill the space: C = {}.")
                   : fmt::format("C = {} completes A_Thr + B_Thr: directions neither access's threads can produce.",
                                 names(coords, bt.c_set)),
               {{"C", bt.c_set}}});
  {
    SolveStep st{"Fallback", "", {{"P", bt.pad}}};
    const std::size_t have = bt.h_set.size() + bt.c_set.size();
    if (!r.fallback)
      st.sentence = fmt::format("|H| + |C| = {} >= s = {}: no fallback needed, Seg = {}.", have, g.segment_bits,
                                names(coords, bt.segment));
    else
      st.sentence = fmt::format(
          "|H| + |C| = {} < s = {}: conflict-free is impossible; padding with {} costs the fewest "
          "conflicts (Lemma 9.5: at least 2^{{{}}} for A and 2^{{{}}} for B per phase).",
          have, g.segment_bits, names(coords, bt.pad), bt.bound_a, bt.bound_b);
    t.push_back(std::move(st));
  }
  {
    SolveStep st{"Banks last", "", {{"Bank", bt.bank}, {"Seg", bt.segment}}};
    st.sentence = fmt::format(
        "Bank = {} completes the basis (bank choice cannot create conflicts). Writer: {} wavefront{} "
        "per instruction ({}-bit vectors), reader: {} ({}-bit vectors).",
        names(coords, bt.bank), r.claimed_write_wavefronts, r.claimed_write_wavefronts == 1 ? "" : "s",
        (1 << bt.pred_a.vector_log2) * ebits, r.claimed_read_wavefronts, (1 << bt.pred_b.vector_log2) * ebits);
    t.push_back(std::move(st));
  }
  t.push_back({"Cost",
               fmt::format("Writer: {} instructions x {} wavefront{} = {}; reader: {} x {} = {}; {} wavefronts in all.{}",
                           r.write_cost.instructions, r.write_cost.wavefronts, r.write_cost.wavefronts == 1 ? "" : "s",
                           r.write_cost.total_wavefronts, r.read_cost.instructions, r.read_cost.wavefronts,
                           r.read_cost.total_wavefronts, r.write_cost.total_wavefronts + r.read_cost.total_wavefronts,
                           r.tradeoff.empty() ? std::string() : " " + r.tradeoff + "."),
               {}});
  return r;
}


}  // namespace solve_detail
}  // namespace swz
