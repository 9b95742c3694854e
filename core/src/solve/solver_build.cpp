// solver_build.cpp: vectors, the construction for one pair of widths, and costs
// (solver_build.h); solver.cpp chooses among the pairs and writes the proof.
#include "solver_build.h"

namespace swz::solve_detail {

Subspace register_span(const AccessInfo& x, int w) { return Subspace::span(x.regs, w); }

Subspace lane_warp_span(const AccessInfo& x, int w) { return Subspace::span(lane_warp_bases(x), w); }

int free_dim(const Subspace& space, const Subspace& avoid) { return space.dim() - intersect_dim(space, avoid); }

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

std::vector<BitVec> fixed_bases(const AccessInfo& x, int k) {
  std::vector<BitVec> out = lane_warp_bases(x);
  if (x.as_numbered)
    for (std::size_t i = static_cast<std::size_t>(k); i < x.regs.size(); ++i)
      if (x.regs[i]) out.push_back(x.regs[i]);
  return out;
}

bool vectors_fit(const VectorPlan& p, int width) {
  const int kn = std::min(p.k_a, p.k_b);  // p.vec may still be growing towards max(k_a, k_b)
  const Subspace lw_wide = Subspace::span(p.fixed_wide, width);
  if (intersect_dim(lw_wide, Subspace::span(p.vec, width)) != 0) return false;
  Subspace z = lw_wide.sum(Subspace::span(p.fixed_narrow, width));
  for (std::size_t i = static_cast<std::size_t>(kn); i < p.vec.size(); ++i) z.insert(p.vec[i]);
  const Subspace common = Subspace::span(std::vector<BitVec>(p.vec.begin(), p.vec.begin() + kn), width);
  return intersect_dim(z, common) == 0;
}

std::optional<VectorPlan> plan_for(const AccessInfo& a, const AccessInfo& b, int ka, int kb, const std::vector<BitVec>& common,
                                   const std::vector<BitVec>& u_order, int width) {
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

std::vector<BitVec> within(const Subspace& space, const std::vector<BitVec>& candidates) {
  std::vector<BitVec> out;
  for (BitVec c : candidates)
    if (c != 0 && space.contains(c)) out.push_back(c);
  out.insert(out.end(), space.basis().begin(), space.basis().end());
  return out;
}

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
  for (BitVec t : phase_threads(*plan.narrow, lane_phases(*plan.narrow, kn, g.ebits, model))) j_red.push_back(rx.reduce(t));
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
  const LanePhases phases_a = lane_phases(a, plan.k_a, g.ebits, model), phases_b = lane_phases(b, plan.k_b, g.ebits, model);
  r.ta = phase_threads(a, phases_a);
  r.tb = phase_threads(b, phases_b);
  r.split_a = split_threads(a, phases_a);
  r.split_b = split_threads(b, phases_b);
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
  r.pred_a = predict_on_bases(a, m, ka, g.ebits, model, w);
  r.pred_b = predict_on_bases(b, m, kb, g.ebits, model, w);
  // The construction places segments on the GPU's banks; a side whose instruction is served on
  // fewer (gfx950's ds_write_b64) is priced on its own and may conflict where the claim says not.
  if (ka == plan.k_a && r.pred_a.seg_start == g.seg_start && r.pred_a.conflict_dim != r.claimed_a)
    throw SolverBug(
        fmt::format("Lemma 9.4 gives {} conflict bits for the writer, the construction {}", r.pred_a.conflict_dim, r.claimed_a));
  if (kb == plan.k_b && r.pred_b.seg_start == g.seg_start && r.pred_b.conflict_dim != r.claimed_b)
    throw SolverBug(
        fmt::format("Lemma 9.4 gives {} conflict bits for the reader, the construction {}", r.pred_b.conflict_dim, r.claimed_b));
  // Lemma 9.5 with the final phases.
  const int ta_final = r.pred_a.lane_phases.span == phases_a.span ? ta.dim() : relevant(phase_threads(a, r.pred_a.lane_phases)).dim();
  const int tb_final = r.pred_b.lane_phases.span == phases_b.span ? tb.dim() : relevant(phase_threads(b, r.pred_b.lane_phases)).dim();
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

bool cheaper(const Candidate& x, const Candidate& y) { return cheaper_cost(x.a, x.b, y.a, y.b); }

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
      "A vector is 2^{{k}} consecutive offsets held by one lane's registers (numbered as the kernel likes): {}; {}. Offsets "
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

}  // namespace swz::solve_detail
