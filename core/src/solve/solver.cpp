// solver.cpp: the construction of solver.h for one pair of instructions
// (vectors first, then the segment directions), its proof, and the choice
// between vector widths. Which instructions: solver_instructions.cpp; the
// simulator's check: solver_check.cpp; toggle grids: solver_grid.cpp.
//
// Index:
//   [SECTION] Vectors           register spans, the common vectors
//   [SECTION] Construction      Hi, W', I/E/F/H/C, banks for one pair of widths
//   [SECTION] Choice            every pair of widths, costed; the cheapest kept
//   [SECTION] Trace             the steps a front end replays
#include "swz/solve/solver.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "solver_access.h"
#include "swz/error.h"

namespace swz {

using namespace solve_detail;

namespace {

struct Geometry {
  int width = 0;  // coordinate bits d
  int ebits = 32;
  int seg_start = 0;     // first segment offset bit
  int within_word = 0;   // |W|: offset bits inside one bank word
  int widest = 0;        // log2 elements in 128 bits
  int segment_bits = 0;  // s
  int cap_a = 0, cap_b = 0;  // widest vector (log2 elements) each side may use: 128 bits or the caller's cap
};

// [SECTION] Vectors
//
// A lane's vector is 2^k consecutive offsets. Registers are a thread's own
// values, so a kernel may number them as it likes: the access vectorises to
// 2^k elements exactly when offsets 1, 2, .., 2^(k-1) lie in the span of its
// registers (R) and none of its lanes and warps (LW) moves an offset bit below
// k. So the widths are bounded by subspaces, not by register order:
//
//   k_x <= dim R_x - dim(R_x ∩ LW_x)                  (each side on its own)
//   min(k_a, k_b) <= dim R∩ - dim(R∩ ∩ (LW_a + LW_b))  (R∩ = R_a ∩ R_b: the vectors both use)

Subspace register_span(const AccessInfo& x, int w) { return Subspace::span(x.regs, w); }
Subspace lane_warp_span(const AccessInfo& x, int w) { return Subspace::span(lane_warp_bases(x), w); }

// Widest (log2) a subspace `space` allows once the directions of `avoid` are excluded.
int free_dim(const Subspace& space, const Subspace& avoid) { return space.dim() - intersect_dim(space, avoid); }

// The common vectors, best first: a basis of R_a ∩ R_b avoiding both accesses'
// lanes and warps, in the writer's register order where it can be (so its
// registers need no renumbering), then the reader's, then any. A side whose
// registers keep their numbering takes its own leading registers, in order,
// as long as they lie in the other's span.
std::vector<BitVec> common_vectors(const AccessInfo& a, const AccessInfo& b, int w) {
  const Subspace shared = register_span(a, w).intersect(register_span(b, w));
  Subspace taken = lane_warp_span(a, w).sum(lane_warp_span(b, w));
  std::vector<BitVec> out;
  if (a.as_numbered || b.as_numbered) {
    const AccessInfo& f = a.as_numbered ? a : b;
    const AccessInfo& o = a.as_numbered ? b : a;
    for (std::size_t i = 0; i < f.regs.size(); ++i) {
      const BitVec v = f.regs[i];
      if (v == 0 || !shared.contains(v) || (o.as_numbered && (i >= o.regs.size() || o.regs[i] != v)) || !taken.insert(v)) break;
      out.push_back(v);
    }
    return out;
  }
  std::vector<BitVec> order(a.regs);
  order.insert(order.end(), b.regs.begin(), b.regs.end());
  order.insert(order.end(), shared.basis().begin(), shared.basis().end());
  for (BitVec c : order)
    if (c != 0 && shared.contains(c) && taken.insert(c)) out.push_back(c);
  return out;
}

struct VectorPlan {
  int k_a = 0, k_b = 0;
  const AccessInfo* wide = nullptr;  // the access whose registers hold all of Vec (the writer on a tie)
  const AccessInfo* narrow = nullptr;
  std::vector<BitVec> vec;  // Vo: offset images 2^0 .. 2^(kw-1); the first kn in both register spans
  // Bases of each side that must keep off its vector bits: lanes and warps, and
  // the later registers too when registers keep their numbering.
  std::vector<BitVec> fixed_wide, fixed_narrow;
};

// The bases of x a plan must keep off x's first k offset bits.
std::vector<BitVec> fixed_bases(const AccessInfo& x, int k) {
  std::vector<BitVec> out = lane_warp_bases(x);
  if (x.as_numbered)
    for (std::size_t i = static_cast<std::size_t>(k); i < x.regs.size(); ++i)
      if (x.regs[i]) out.push_back(x.regs[i]);
  return out;
}

// The vectors leave room for a complement Hi: no lane or warp of the wide
// access moves along Vec, and none of either (nor U) along the common part.
bool vectors_fit(const VectorPlan& p, int width) {
  const int kn = std::min(p.k_a, p.k_b);  // p.vec may still be growing towards max(k_a, k_b)
  const Subspace lw_wide = Subspace::span(p.fixed_wide, width);
  if (intersect_dim(lw_wide, Subspace::span(p.vec, width)) != 0) return false;
  Subspace z = lw_wide.sum(Subspace::span(p.fixed_narrow, width));
  for (std::size_t i = static_cast<std::size_t>(kn); i < p.vec.size(); ++i) z.insert(p.vec[i]);
  const Subspace common = Subspace::span(std::vector<BitVec>(p.vec.begin(), p.vec.begin() + kn), width);
  return intersect_dim(z, common) == 0;
}

// A plan for widths (k_a, k_b), the extra vectors U taken from `u_order`; nullopt when none fits.
std::optional<VectorPlan> plan_for(const AccessInfo& a, const AccessInfo& b, int ka, int kb,
                                   const std::vector<BitVec>& common, const std::vector<BitVec>& u_order, int width) {
  const int kn = std::min(ka, kb), kw = std::max(ka, kb);
  if (kn > static_cast<int>(common.size())) return std::nullopt;
  VectorPlan p;
  p.k_a = ka;
  p.k_b = kb;
  p.wide = kb > ka ? &b : &a;
  p.narrow = kb > ka ? &a : &b;
  p.fixed_wide = fixed_bases(*p.wide, kw);
  p.fixed_narrow = fixed_bases(*p.narrow, kn);
  const bool as_numbered = p.wide->as_numbered;
  p.vec.assign(common.begin(), common.begin() + kn);
  if (!vectors_fit(p, width)) return std::nullopt;
  const Subspace r_wide = register_span(*p.wide, width);
  for (BitVec c : u_order) {
    if (static_cast<int>(p.vec.size()) == kw) break;
    if (c == 0 || !r_wide.contains(c) || Subspace::span(p.vec, width).contains(c)) {
      if (as_numbered) return std::nullopt;  // the next register must be the next offset
      continue;
    }
    p.vec.push_back(c);
    if (!vectors_fit(p, width)) {
      if (as_numbered) return std::nullopt;
      p.vec.pop_back();
    }
  }
  if (static_cast<int>(p.vec.size()) != kw) return std::nullopt;
  return p;
}

// Orders in which the wide access's extra vectors U are tried: its registers
// that are lanes of the other access first (the other side then reads them
// as bank bits, never as conflicts), or the common vectors not used first.
std::vector<std::vector<BitVec>> u_orders(const AccessInfo& wide, const AccessInfo& narrow, const std::vector<BitVec>& common,
                                          int kn, int width) {
  const auto rest = common.begin() + std::min<std::ptrdiff_t>(kn, static_cast<std::ptrdiff_t>(common.size()));
  const Subspace rw = register_span(wide, width);
  auto then_any = [&](std::vector<BitVec> head) {
    head.insert(head.end(), rest, common.end());
    head.insert(head.end(), wide.regs.begin(), wide.regs.end());
    head.insert(head.end(), rw.basis().begin(), rw.basis().end());
    return head;
  };
  std::vector<BitVec> lanes_of_narrow;
  for (BitVec r : wide.regs)
    if (r != 0 && std::find(narrow.lanes.begin(), narrow.lanes.end(), r) != narrow.lanes.end()) lanes_of_narrow.push_back(r);
  return {then_any(lanes_of_narrow), then_any({})};
}

// [SECTION] Construction

// One finished construction for one pair of widths.
struct Built {
  std::vector<BitVec> images;  // offset images, low first
  std::vector<BitVec> within_word_extra, bank, segment;
  std::vector<BitVec> ta, tb, split_a, split_b, i_set, e_set, f_set, h_set, c_set, pad;
  int space_dim = 0;
  int claimed_a = 0, claimed_b = 0;  // dim(Seg ∩ T) in the construction
  Subspace hi, w_extra;
  std::vector<BitVec> w_full;
  Predicted pred_a, pred_b;
  int bound_a = 0, bound_b = 0, max_avoiding = 0;
  int vector_bits_total = 0;
};

// Vectors of `candidates` that lie in `space`, then the space's own basis.
std::vector<BitVec> within(const Subspace& space, const std::vector<BitVec>& candidates) {
  std::vector<BitVec> out;
  for (BitVec c : candidates)
    if (c != 0 && space.contains(c)) out.push_back(c);
  out.insert(out.end(), space.basis().begin(), space.basis().end());
  return out;
}

// Hi: a complement of Vec holding every lane and warp of the wide access,
// with U + Hi holding the narrow one's; the narrow access's lanes are paired
// with U (its extra vector bits) so that as few of them as possible stay in Hi.
// (Registers need no room: a renumbering moves them off the vector bits.)
Subspace choose_hi(const VectorPlan& plan, const Geometry& g, const BankModel& model, const std::vector<BitVec>& units) {
  const int kn = std::min(plan.k_a, plan.k_b);
  const int w = g.width;
  const Subspace rx = Subspace::span(plan.fixed_wide, w);
  std::vector<BitVec> u(plan.vec.begin() + kn, plan.vec.end());
  Subspace z = rx.sum(Subspace::span(plan.fixed_narrow, w));
  for (BitVec v : u) z.insert(v);
  Subspace grow = z.sum(Subspace::span(plan.vec, w));
  Subspace hi_prime = z;
  for (BitVec c : units)
    if (grow.insert(c)) hi_prime.insert(c);
  if (u.empty()) return hi_prime;
  // Pair the narrow access's lanes with U modulo Rx.
  const Subspace u_red = [&] {
    std::vector<BitVec> r;
    for (BitVec v : u) r.push_back(rx.reduce(v));
    return Subspace::span(r, w);
  }();
  std::vector<BitVec> j_red;
  for (BitVec t : phase_threads(*plan.narrow, phase_lanes(*plan.narrow, kn, g.ebits, model))) j_red.push_back(rx.reduce(t));
  const Subspace j_space = Subspace::span(j_red, w);
  const Subspace k0 = j_space.intersect(u_red);
  const auto j0 = extend_basis(k0, j_red);
  std::vector<BitVec> u_cands;
  for (BitVec v : u) u_cands.push_back(rx.reduce(v));
  const auto uc = extend_basis(k0, u_cands);
  std::vector<BitVec> cands;
  const std::size_t pairs = std::min(j0.size(), uc.size());
  for (std::size_t i = 0; i < pairs; ++i) cands.push_back(j0[i] ^ uc[i]);
  for (std::size_t i = pairs; i < j0.size(); ++i) cands.push_back(j0[i]);
  cands.insert(cands.end(), hi_prime.basis().begin(), hi_prime.basis().end());
  Subspace hi = rx;
  Subspace with_u = rx;
  for (BitVec v : u) with_u.insert(v);
  for (BitVec c : cands)
    if (with_u.insert(c)) hi.insert(c);
  return hi;
}

Built build(const AccessInfo& a, const AccessInfo& b, const VectorPlan& plan, const Subspace& hi, const Geometry& g,
            const BankModel& model, const std::vector<BitVec>& low_candidates) {
  const int w = g.width;
  const int kw = std::max(plan.k_a, plan.k_b);
  Built r;
  r.hi = hi;
  const std::vector<BitVec> in_hi = within(hi, low_candidates);
  // W': within-word bits above Vec.
  const int w_extra = std::max(0, g.within_word - kw);
  r.w_extra = Subspace(w);
  for (BitVec c : in_hi) {
    if (static_cast<int>(r.within_word_extra.size()) >= w_extra) break;
    if (r.w_extra.insert(c)) r.within_word_extra.push_back(c);
  }
  r.w_full.assign(plan.vec.begin(), plan.vec.begin() + std::min(kw, g.within_word));
  for (BitVec v : r.within_word_extra) r.w_full.push_back(v);
  const Subspace wfull = Subspace::span(r.w_full, w);
  auto red = [&](BitVec v) { return r.w_extra.reduce(v); };
  // Q = Hi / W', as reduced representatives inside Hi.
  std::vector<BitVec> q_basis;
  for (BitVec v : hi.basis()) q_basis.push_back(red(v));
  const Subspace q = Subspace::span(q_basis, w);
  r.space_dim = q.dim();
  // Relevant thread spans: (T + W) ∩ Hi, modulo W'.
  auto relevant = [&](const std::vector<BitVec>& t) {
    // Common case: no W', and the threads already lie in Hi (W is inside Vec, which meets Hi in 0).
    if (r.within_word_extra.empty() && std::all_of(t.begin(), t.end(), [&](BitVec v) { return hi.contains(v); }))
      return Subspace::span(t, w);
    const Subspace inter = Subspace::span(t, w).sum(wfull).intersect(hi);
    std::vector<BitVec> out;
    for (BitVec v : inter.basis()) out.push_back(red(v));
    return Subspace::span(out, w);
  };
  const int lanes_a = phase_lanes(a, plan.k_a, g.ebits, model), lanes_b = phase_lanes(b, plan.k_b, g.ebits, model);
  r.ta = phase_threads(a, lanes_a);
  r.tb = phase_threads(b, lanes_b);
  r.split_a = split_threads(a, lanes_a);
  r.split_b = split_threads(b, lanes_b);
  const Subspace ta = relevant(r.ta), tb = relevant(r.tb);
  auto nice = [&](const std::vector<BitVec>& lanes, const Subspace& in) {
    std::vector<BitVec> c;
    for (BitVec v : lanes) c.push_back(red(v));
    return within(in, c);
  };
  const Subspace i_space = ta.intersect(tb);
  std::vector<BitVec> i_cands = nice(r.ta, i_space);
  r.i_set = extend_basis(Subspace(w), i_cands);
  r.e_set = extend_basis(i_space, nice(r.ta, ta));
  r.f_set = extend_basis(i_space, nice(r.tb, tb));
  const std::size_t pairs = std::min(r.e_set.size(), r.f_set.size());
  for (std::size_t i = 0; i < pairs; ++i) r.h_set.push_back(r.e_set[i] ^ r.f_set[i]);
  std::vector<BitVec> unit_red;
  for (BitVec v : low_candidates) unit_red.push_back(red(v));
  r.c_set = extend_basis(ta.sum(tb), within(q, unit_red));
  // Segment bits: H, then C, then the fewest conflicting directions.
  const int s = g.segment_bits;
  auto take = [&](const std::vector<BitVec>& from, std::vector<BitVec>* pad) {
    for (BitVec v : from) {
      if (static_cast<int>(r.segment.size()) >= s) return;
      r.segment.push_back(v);
      if (pad) pad->push_back(v);
    }
  };
  take(r.h_set, nullptr);
  take(r.c_set, nullptr);
  if (static_cast<int>(r.segment.size()) < s) {
    const auto& longer = r.e_set.size() > r.f_set.size() ? r.e_set : r.f_set;
    take(std::vector<BitVec>(longer.begin() + static_cast<std::ptrdiff_t>(pairs), longer.end()), &r.pad);
    take(r.i_set, &r.pad);
    take(std::vector<BitVec>(r.f_set.begin(), r.f_set.begin() + static_cast<std::ptrdiff_t>(pairs)), &r.pad);
  }
  if (static_cast<int>(r.segment.size()) != s) throw SolverBug("the segment search ran out of directions");
  const Subspace seg = Subspace::span(r.segment, w);
  r.claimed_a = intersect_dim(seg, ta);
  r.claimed_b = intersect_dim(seg, tb);
  r.max_avoiding = std::max(0, r.space_dim - std::max(ta.dim(), tb.dim()));
  // Banks last: complete inside Hi.
  Subspace used = Subspace::span(plan.vec, w);
  for (BitVec v : r.within_word_extra) used.insert(v);
  for (BitVec v : r.segment) used.insert(v);
  for (BitVec c : in_hi) {
    if (used.dim() == w) break;
    if (used.insert(c)) r.bank.push_back(c);
  }
  r.images = plan.vec;
  r.images.insert(r.images.end(), r.within_word_extra.begin(), r.within_word_extra.end());
  r.images.insert(r.images.end(), r.bank.begin(), r.bank.end());
  r.images.insert(r.images.end(), r.segment.begin(), r.segment.end());
  if (static_cast<int>(r.images.size()) != w) throw SolverBug("the offset bases do not span the tensor");
  const OffsetMap m = offset_map(r.images, w);
  const int ka = widest_vector(a, m, g.cap_a, !a.as_numbered), kb = widest_vector(b, m, g.cap_b, !b.as_numbered);
  r.pred_a = predict_on_bases(a, m, ka, g.ebits, model, g.seg_start, g.within_word, w);
  r.pred_b = predict_on_bases(b, m, kb, g.ebits, model, g.seg_start, g.within_word, w);
  if (ka == plan.k_a && r.pred_a.conflict_dim != r.claimed_a)
    throw SolverBug(
        fmt::format("Lemma 9.4 gives {} conflict bits for the writer, the construction {}", r.pred_a.conflict_dim, r.claimed_a));
  if (kb == plan.k_b && r.pred_b.conflict_dim != r.claimed_b)
    throw SolverBug(
        fmt::format("Lemma 9.4 gives {} conflict bits for the reader, the construction {}", r.pred_b.conflict_dim, r.claimed_b));
  // Lemma 9.5 with the final phases.
  const int ta_final = r.pred_a.lanes == lanes_a ? ta.dim() : relevant(phase_threads(a, r.pred_a.lanes)).dim();
  const int tb_final = r.pred_b.lanes == lanes_b ? tb.dim() : relevant(phase_threads(b, r.pred_b.lanes)).dim();
  r.bound_a = std::max(0, s + ta_final - r.space_dim);
  r.bound_b = std::max(0, s + tb_final - r.space_dim);
  r.vector_bits_total = ka + kb;
  return r;
}

std::string names(const LinearLayout& c, const std::vector<BitVec>& vs) {
  if (vs.empty()) return "{}";
  std::vector<std::string> out;
  for (BitVec v : vs) out.push_back(c.describe_out(v));
  return "{" + fmt::format("{}", fmt::join(out, ", ")) + "}";
}

// [SECTION] Choice
//
// Cost of one side = instructions x wavefronts per instruction (the wavefronts
// the warp waits for). Every pair of widths within the bounds is built; the
// lowest total over both sides wins, then the fewest instructions (wider vectors).

SideCost side_cost(const AccessInfo& x, const Predicted& p, int ebits) {
  SideCost c;
  c.vec_bits = (1 << p.vector_log2) * ebits;
  c.instructions = std::int64_t{1} << (static_cast<int>(x.regs.size()) - p.vector_log2 + static_cast<int>(x.warps.size()));
  c.wavefronts = p.wavefronts();
  c.ideal_wavefronts = p.phases;
  c.conflicts = c.wavefronts - c.ideal_wavefronts;
  c.total_wavefronts = c.instructions * c.wavefronts;
  return c;
}

struct Candidate {
  VectorPlan plan;
  Built built;
  SideCost a, b;
  std::int64_t total() const { return a.total_wavefronts + b.total_wavefronts; }
  std::int64_t instructions() const { return a.instructions + b.instructions; }
};

// Fewer wavefronts, then fewer instructions, then fewer loads: the reader's
// loads stall the warps that consume the data, the writer's stores do not.
bool cheaper(const Candidate& x, const Candidate& y) {
  return cheaper_cost(x.a, x.b, y.a, y.b);
}

// The most either side can vectorise (log2 elements): requested, or bounded by
// the cap and by its registers that avoid its lanes and warps.
int widest_for(const AccessInfo& x, int cap, int width) {
  if (x.requested >= 0) return x.requested;
  if (x.as_numbered) {
    int k = 0;
    Subspace taken = lane_warp_span(x, width);
    while (k < cap && k < static_cast<int>(x.regs.size()) && x.regs[static_cast<std::size_t>(k)] != 0 &&
           taken.insert(x.regs[static_cast<std::size_t>(k)]))
      ++k;
    return k;
  }
  return std::min(cap, free_dim(register_span(x, width), lane_warp_span(x, width)));
}

WidthProof width_proof(const AccessInfo& a, const AccessInfo& b, const Geometry& g, int common, int built, int tried) {
  WidthProof p;
  const int w = g.width;
  const int max_a = widest_for(a, g.cap_a, w), max_b = widest_for(b, g.cap_b, w);
  p.write_max_bits = (1 << max_a) * g.ebits;
  p.read_max_bits = (1 << max_b) * g.ebits;
  p.common_max_bits = (1 << std::min({common, max_a, max_b})) * g.ebits;
  auto side = [&](const AccessInfo& x, int cap, int mx) {
    if (x.requested >= 0) return fmt::format("the {} asks for {} bits", x.role, (1 << mx) * g.ebits);
    const Subspace r = register_span(x, w);
    const int along = intersect_dim(r, lane_warp_span(x, w));
    return fmt::format("the {}'s registers span {} direction{}{}, so at most {} bits{}", x.role, r.dim(), r.dim() == 1 ? "" : "s",
                       along ? fmt::format(" ({} along its own lanes or warps)", along) : std::string(),
                       (1 << std::min(cap, r.dim() - along)) * g.ebits,
                       cap < r.dim() - along ? fmt::format(" (the {}-bit cap)", (1 << cap) * g.ebits) : std::string());
  };
  p.reason = fmt::format(
      "A vector is 2^k consecutive offsets held by one lane's registers (numbered as the kernel likes): {}; {}. Offsets "
      "both vectorise on lie in both register spans and avoid both accesses' lanes and warps: {} such direction{}, so the "
      "narrower side has at most {} bits. Of the {} pair{} of widths within these bounds, {} {} built and costed (the others "
      "could not beat them even conflict-free, or no vectors fit); the chosen pair has the fewest total wavefronts (then "
      "the fewest instructions).",
      side(a, g.cap_a, max_a), side(b, g.cap_b, max_b), common, common == 1 ? "" : "s", p.common_max_bits, tried,
      tried == 1 ? "" : "s", built, built == 1 ? "was" : "were");
  return p;
}

std::string registers_text(const Renumbering& rn, const char* letter) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < rn.from.size(); ++i) {
    if (rn.from[i] == std::uint64_t{1} << i) continue;
    std::vector<std::string> terms;
    for (int j = 0; j < 64; ++j)
      if (rn.from[i] & (std::uint64_t{1} << j)) terms.push_back(fmt::format("r{}", j));
    parts.push_back(fmt::format("r{}' = {}", i, fmt::join(terms, "^")));
  }
  return fmt::format("{} renumbers its registers: {}", letter, fmt::join(parts, ", "));
}

void check_options(const SolveOptions& o, int ebits) {
  for (auto [bits, flag] : {std::pair{o.write_vec_bits, "write"}, std::pair{o.read_vec_bits, "read"}})
    if (!pow2(bits) || bits < ebits || bits > 128)
      fail("the {} vector cap is {} bits: give a power of two from the element width ({}) to 128", flag, bits, ebits);
}

}  // namespace

namespace solve_detail {

// The SASS an access issues: STS.128, LDS.U16, LDSM.x4.trans, STSM.x4, ...
std::string instruction_name(const Access& x, int vec_bits) {
  const bool load = x.kind == AccessKind::Load;
  if (x.ldmatrix)
    return fmt::format("{}.x{}{}", load ? "LDSM" : "STSM", x.ldmatrix, x.trans ? ".trans" : "");
  const char* op = load ? "LDS" : "STS";
  if (vec_bits == 32) return op;
  if (vec_bits < 32) return fmt::format("{}.U{}", op, vec_bits);
  return fmt::format("{}.{}", op, vec_bits);
}

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
  r.write_cost.instruction = instruction_name(writer, r.write_cost.vec_bits);
  r.read_cost.instruction = instruction_name(reader, r.read_cost.vec_bits);
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
        "b = log2(128 bytes / {} bits per vector) = {} bank bits, s = {} - {} - {} = {} segment bits "
        "(one segment = one 128-byte row of all {} banks).",
        (1 << v) * ebits, bank_bits, g.width, v, bank_bits, g.segment_bits, model.banks);
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
          "conflicts (Lemma 9.5: at least 2^{} for A and 2^{} for B per phase).",
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
