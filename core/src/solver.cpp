// solver.cpp: the construction of solver.h, its check, and the toggle-grid family.
//
// Index:
//   [SECTION] Access geometry   lane phases, register prefixes, input checks
//   [SECTION] Lemma on bases    wavefronts of an access under offset images, no tables
//   [SECTION] Construction      Vec, Hi, W', I/E/F/H/C, banks; one candidate per bank order
//   [SECTION] Check             the simulator against the claim
//   [SECTION] Toggle grids      masks, family count, lazy enumeration, repair
#include "swz/solver.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <limits>

#include "swz/error.h"
#include "swz/factories.h"

namespace swz {

namespace {

int ilog2(std::uint64_t v) { return std::countr_zero(v); }
bool pow2(std::int64_t v) { return v > 0 && std::has_single_bit(static_cast<std::uint64_t>(v)); }

// dim(a ∩ b) = dim a + dim b - dim(a + b): cheaper than building the intersection.
int intersect_dim(const Subspace& a, const Subspace& b) { return a.dim() + b.dim() - a.sum(b).dim(); }

// [SECTION] Access geometry

// What the solver needs of one access: its bases by role.
struct AccessInfo {
  const Access* access = nullptr;
  const char* role = "";    // "writer" / "reader"
  const char* letter = "";  // "A" / "B"
  std::vector<BitVec> regs, lanes, warps;
  int lane_bits = 0;
  int requested = -1;  // vector (log2 elements) the access insists on; -1 = free
};

void check_access_for_solver(const Access& a, const char* role, int ebits, const BankModel& m) {
  for (const auto& d : a.layout.in_dims())
    if (d.name != "register" && d.name != "lane" && d.name != "warp" && d.name != "block")
      fail("the {} has input dim '{}'; an access has register, lane, warp, block", role, d.name);
  const int lane_bits = a.layout.in_dim_bits("lane");
  if ((1 << lane_bits) != m.warp_size)
    fail("the {} has {} lanes; the bank model's warp has {}", role, 1 << lane_bits, m.warp_size);
  if (a.ldmatrix != 0 && a.ldmatrix != 1 && a.ldmatrix != 2 && a.ldmatrix != 4)
    fail("the {} uses ldmatrix .x{}; ldmatrix loads 1, 2 or 4 matrices", role, a.ldmatrix);
  if (a.ldmatrix && a.kind != AccessKind::Load) fail("the {} is an ldmatrix store; ldmatrix only loads", role);
  if (a.ldmatrix && m.warp_size != 32) fail("ldmatrix needs 32-lane warps");
  if (a.vec_bits != 0 && (!pow2(a.vec_bits) || a.vec_bits < ebits || a.vec_bits > 128))
    fail("the {} asks for {}-bit vectors: a power of two between the element width ({}) and 128", role, a.vec_bits, ebits);
}

AccessInfo info_of(const Access& a, const char* role, const char* letter, int ebits) {
  AccessInfo x;
  x.access = &a;
  x.role = role;
  x.letter = letter;
  x.regs = a.layout.bases("register");
  x.lanes = a.layout.bases("lane");
  x.warps = a.layout.bases("warp");
  x.lane_bits = a.layout.in_dim_bits("lane");
  const int widest = ilog2(static_cast<std::uint64_t>(128 / ebits));
  if (a.ldmatrix)
    x.requested = widest;
  else if (a.vec_bits)
    x.requested = ilog2(static_cast<std::uint64_t>(a.vec_bits / ebits));
  return x;
}

// Lanes served together for a vector of 2^k elements (hardware.md: phases).
int phase_lanes(const AccessInfo& x, int k, int ebits, const BankModel& m) {
  if (x.access->ldmatrix) return 8;
  const int bits = std::max(m.bank_bytes * 8, (1 << k) * ebits);
  return std::min(1 << x.lane_bits, m.wavefront_bytes() * 8 / bits);
}
int active_lanes(const AccessInfo& x) { return x.access->ldmatrix ? 8 * x.access->ldmatrix : 1 << x.lane_bits; }

// Nonzero lane bases of one phase (T), and the lane bases the split drops.
std::vector<BitVec> phase_threads(const AccessInfo& x, int lanes) {
  std::vector<BitVec> t;
  for (int i = 0; i < ilog2(static_cast<std::uint64_t>(lanes)) && i < static_cast<int>(x.lanes.size()); ++i)
    if (x.lanes[static_cast<std::size_t>(i)] != 0) t.push_back(x.lanes[static_cast<std::size_t>(i)]);
  return t;
}
std::vector<BitVec> split_threads(const AccessInfo& x, int lanes) {
  std::vector<BitVec> t;
  const int active_bits = ilog2(static_cast<std::uint64_t>(active_lanes(x)));
  for (int i = ilog2(static_cast<std::uint64_t>(lanes)); i < active_bits && i < static_cast<int>(x.lanes.size()); ++i)
    if (x.lanes[static_cast<std::size_t>(i)] != 0) t.push_back(x.lanes[static_cast<std::size_t>(i)]);
  return t;
}

// Longest prefix of registers that are nonzero and independent, at most `cap`.
int independent_prefix(const std::vector<BitVec>& regs, int cap, int width) {
  Subspace s(width);
  int k = 0;
  while (k < cap && k < static_cast<int>(regs.size()) && regs[static_cast<std::size_t>(k)] != 0 &&
         s.insert(regs[static_cast<std::size_t>(k)]))
    ++k;
  return k;
}

// Every basis of x except its first k registers (the ones that must avoid Vec).
std::vector<BitVec> non_vector_bases(const AccessInfo& x, int k) {
  std::vector<BitVec> out(x.regs.begin() + std::min<std::ptrdiff_t>(k, static_cast<std::ptrdiff_t>(x.regs.size())), x.regs.end());
  out.insert(out.end(), x.lanes.begin(), x.lanes.end());
  out.insert(out.end(), x.warps.begin(), x.warps.end());
  std::erase(out, BitVec{0});
  return out;
}

// Unit coordinate vectors, last dim first (a row-major tile's offset order).
std::vector<BitVec> unit_vectors(const LinearLayout& coords) {
  std::vector<BitVec> out;
  for (int d = coords.rank(); d-- > 0;)
    for (int i = 0; i < coords.out_dims()[static_cast<std::size_t>(d)].log2_size; ++i)
      out.push_back(BitVec{1} << (coords.out_offset(d) + i));
  return out;
}

// [SECTION] Lemma on bases

struct OffsetMap {
  std::vector<BitVec> images;  // images[i] = coordinates of element offset 2^i
  BitMatrix inverse;           // coordinates -> offset
};

OffsetMap offset_map(const std::vector<BitVec>& images, int width) {
  const auto inv = BitMatrix::from_columns(width, images).inverse();
  if (!inv) throw SolverBug("the constructed offset bases are not invertible");
  return {images, *inv};
}

// Widest vector (log2 elements) the simulator's rule allows x under the map,
// or the requested one (checked).
int vector_under(const AccessInfo& x, const OffsetMap& m, int cap) {
  auto valid = [&](int k) {
    if (k > static_cast<int>(x.regs.size()) || k > static_cast<int>(m.images.size())) return false;
    for (int i = 0; i < k; ++i)
      if (x.regs[static_cast<std::size_t>(i)] == 0 ||
          x.regs[static_cast<std::size_t>(i)] != m.images[static_cast<std::size_t>(i)])
        return false;
    for (BitVec b : non_vector_bases(x, k))
      if (m.inverse.apply(b) & low_bits(k)) return false;
    return true;
  };
  if (x.requested >= 0) {
    if (!valid(x.requested))
      throw SolverBug(fmt::format("the {}'s requested vector is not contiguous in the constructed layout", x.role));
    return x.requested;
  }
  int k = 0;
  while (k < cap && valid(k + 1)) ++k;
  return k;
}

struct Predicted {
  int vector_log2 = 0;  // elements per lane per instruction, log2
  int lanes = 32;       // lanes per phase
  int phases = 1;
  int conflict_dim = 0;
  int wavefronts() const { return phases << conflict_dim; }
};

// Lemma 9.4 with sub-word elements: 2^(dim(T ∩ (S+W)) - dim(T ∩ W)) per phase.
Predicted predict_on_bases(const AccessInfo& x, const OffsetMap& m, int k, int ebits, const BankModel& model, int seg_start,
                           int within_word, int width) {
  Predicted p;
  p.vector_log2 = k;
  p.lanes = phase_lanes(x, k, ebits, model);
  p.phases = active_lanes(x) / p.lanes;
  const Subspace t = Subspace::span(phase_threads(x, p.lanes), width);
  const int d = static_cast<int>(m.images.size());
  std::vector<BitVec> w(m.images.begin(), m.images.begin() + std::min(within_word, d));
  std::vector<BitVec> sw = w;
  for (int i = seg_start; i < d; ++i) sw.push_back(m.images[static_cast<std::size_t>(i)]);
  p.conflict_dim = intersect_dim(t, Subspace::span(sw, width)) - intersect_dim(t, Subspace::span(w, width));
  return p;
}

// [SECTION] Construction

struct Geometry {
  int width = 0;  // coordinate bits d
  int ebits = 32;
  int seg_start = 0;     // first segment offset bit
  int within_word = 0;   // |W|: offset bits inside one bank word
  int widest = 0;        // log2 elements in 128 bits
  int segment_bits = 0;  // s
};

struct VectorPlan {
  int k_a = 0, k_b = 0;
  const AccessInfo* wide = nullptr;  // the access whose registers are Vec
  const AccessInfo* narrow = nullptr;
  std::vector<BitVec> vec;  // Vo
  std::string note;         // why the vectors are what they are
};

// Constraint (2): every non-vector basis of an access must have no component on
// that access's vector bits. True when a complement Hi exists.
bool vectors_fit(const AccessInfo& wide, const AccessInfo& narrow, int k_wide, int k_narrow, const std::vector<BitVec>& vo,
                 int width) {
  const Subspace vec = Subspace::span(vo, width);
  Subspace rx = Subspace::span(non_vector_bases(wide, k_wide), width);
  if (intersect_dim(rx, vec) != 0) return false;
  Subspace z = rx.sum(Subspace::span(non_vector_bases(narrow, k_narrow), width));
  for (int i = k_narrow; i < k_wide; ++i) z.insert(vo[static_cast<std::size_t>(i)]);
  const Subspace v_narrow = Subspace::span(std::vector<BitVec>(vo.begin(), vo.begin() + k_narrow), width);
  return intersect_dim(z, v_narrow) == 0;
}

VectorPlan plan_vectors(const AccessInfo& a, const AccessInfo& b, const Geometry& g) {
  const int lead_a = independent_prefix(a.regs, g.widest, g.width);
  const int lead_b = independent_prefix(b.regs, g.widest, g.width);
  int common = 0;
  while (common < lead_a && common < lead_b &&
         a.regs[static_cast<std::size_t>(common)] == b.regs[static_cast<std::size_t>(common)])
    ++common;
  for (const AccessInfo* x : {&a, &b}) {
    const int lead = x == &a ? lead_a : lead_b;
    if (x->requested > lead) {
      if (x->access->ldmatrix)
        fail("ldmatrix reads 128-bit rows: the {}'s first {} register bases must be distinct nonzero directions", x->role,
             x->requested);
      fail("the {} asks for {}-bit vectors but only its first {} register bases are distinct nonzero directions", x->role,
           (1 << x->requested) * g.ebits, lead);
    }
  }
  // Free accesses take the common prefix; a forced one (ldmatrix, a requested width) keeps its own.
  int ka = a.requested >= 0 ? a.requested : common;
  int kb = b.requested >= 0 ? b.requested : common;
  if (std::min(ka, kb) > common)
    fail("the writer's {}-bit and the reader's {}-bit vectors need the same leading registers, and they share only {}",
         (1 << ka) * g.ebits, (1 << kb) * g.ebits, common);
  VectorPlan plan;
  for (;;) {
    plan.k_a = ka;
    plan.k_b = kb;
    plan.wide = kb > ka ? &b : &a;
    plan.narrow = kb > ka ? &a : &b;
    const int kw = std::max(ka, kb), kn = std::min(ka, kb);
    plan.vec.assign(plan.wide->regs.begin(), plan.wide->regs.begin() + kw);
    if (vectors_fit(*plan.wide, *plan.narrow, kw, kn, plan.vec, g.width)) break;
    // Some lane, warp or register moves along a vector direction: narrow the free side(s).
    const bool free_a = a.requested < 0 && ka > 0, free_b = b.requested < 0 && kb > 0;
    if (!free_a && !free_b)
      fail(
          "no layout gives the accesses their vectors: a lane, warp or later register of one access moves along a vector "
          "register of the other");
    if (free_a && free_b) {
      --ka;
      --kb;
    } else if (free_a)
      --ka;
    else
      --kb;
    plan.note = "narrowed because another basis of an access moves along a shared register direction";
  }
  return plan;
}

// One finished construction (for one order of bank candidates).
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

// Hi: a complement of Vec holding every non-vector basis of the wide access,
// with U + Hi holding the narrow one's; the narrow access's lanes are paired
// with U (its extra vector bits) so that as few of them as possible stay in Hi.
Subspace choose_hi(const VectorPlan& plan, const Geometry& g, const BankModel& model, const std::vector<BitVec>& units) {
  const int kw = std::max(plan.k_a, plan.k_b), kn = std::min(plan.k_a, plan.k_b);
  const int w = g.width;
  const Subspace rx = Subspace::span(non_vector_bases(*plan.wide, kw), w);
  std::vector<BitVec> u(plan.vec.begin() + kn, plan.vec.end());
  Subspace z = rx.sum(Subspace::span(non_vector_bases(*plan.narrow, kn), w));
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
  const int ka = vector_under(a, m, g.widest), kb = vector_under(b, m, g.widest);
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

void check_inputs(const Access& a, const Access& b, int ebits, const BankModel& model) {
  check_bank_model(model);
  if (ebits != 4 && ebits != 8 && ebits != 16 && ebits != 32 && ebits != 64)
    fail("element width {} bits is not one of 4, 8, 16, 32, 64", ebits);
  if (model.banks < 4) fail("the solver needs at least 4 banks (a 16-byte vector must fit in one row of banks)");
  check_access_for_solver(a, "writer", ebits, model);
  check_access_for_solver(b, "reader", ebits, model);
  if (a.layout.out_dims() != b.layout.out_dims())
    fail("the writer covers a {} tensor but the reader a {} one", fmt::join(a.layout.shape(), "x"),
         fmt::join(b.layout.shape(), "x"));
  if (a.layout.out_bits() > kMaxAddressBits)
    fail("the tensor has 2^{} elements; at most 2^{}", a.layout.out_bits(), kMaxAddressBits);
}

}  // namespace

SolveResult construct(const Access& writer, const Access& reader, int ebits, const BankModel& model) {
  check_inputs(writer, reader, ebits, model);
  const LinearLayout& coords = writer.layout;
  Geometry g;
  g.width = coords.out_bits();
  g.ebits = ebits;
  g.seg_start = ilog2(static_cast<std::uint64_t>(model.banks * model.bank_bytes * 8 / ebits));
  g.within_word = ebits < 32 ? ilog2(static_cast<std::uint64_t>(32 / ebits)) : 0;
  g.widest = ilog2(static_cast<std::uint64_t>(128 / ebits));
  g.segment_bits = std::max(0, g.width - g.seg_start);
  const AccessInfo a = info_of(writer, "writer", "A", ebits), b = info_of(reader, "reader", "B", ebits);
  const VectorPlan plan = plan_vectors(a, b, g);
  const std::vector<BitVec> units = unit_vectors(coords);
  const Subspace hi = choose_hi(plan, g, model, units);
  const int kw = std::max(plan.k_a, plan.k_b);
  // Bank orders: plain, then ones that let an access vectorise further.
  Built best = build(a, b, plan, hi, g, model, units);
  for (const AccessInfo* x : {&a, &b}) {
    if (x->requested >= 0 || kw >= g.widest || static_cast<int>(x->regs.size()) <= kw) continue;
    const Predicted& now = x == &a ? best.pred_a : best.pred_b;
    if (now.vector_log2 > kw || !hi.contains(x->regs[static_cast<std::size_t>(kw)])) continue;
    if (Subspace::span(non_vector_bases(*x, kw + 1), g.width).contains(x->regs[static_cast<std::size_t>(kw)])) continue;
    const bool conflict_free = best.pred_a.conflict_dim == 0 && best.pred_b.conflict_dim == 0;
    if (!conflict_free) break;
    std::vector<BitVec> order(x->regs.begin() + kw, x->regs.end());
    order.insert(order.end(), units.begin(), units.end());
    Built alt = build(a, b, plan, hi, g, model, order);
    if (alt.pred_a.conflict_dim == 0 && alt.pred_b.conflict_dim == 0 && alt.vector_bits_total > best.vector_bits_total)
      best = std::move(alt);
  }

  SolveResult r;
  r.element_bits = ebits;
  r.vec_bits = (1 << kw) * ebits;
  r.offset_bases = LinearLayout({InDim{"offset", best.images}, InDim{"block", {}}}, coords.out_dims());
  r.claimed_write_wavefronts = best.pred_a.wavefronts();
  r.claimed_read_wavefronts = best.pred_b.wavefronts();
  r.conflict_free = best.pred_a.conflict_dim == 0 && best.pred_b.conflict_dim == 0;
  r.fallback = static_cast<int>(best.h_set.size() + best.c_set.size()) < g.segment_bits;
  r.vec = plan.vec;
  r.within_word = best.w_full;
  r.thread_a = best.ta;
  r.thread_b = best.tb;
  r.split_a = best.split_a;
  r.split_b = best.split_b;
  r.shared_threads = best.i_set;
  r.only_a = best.e_set;
  r.only_b = best.f_set;
  r.paired = best.h_set;
  r.complement = best.c_set;
  r.padding = best.pad;
  r.bank = best.bank;
  r.segment = best.segment;

  LowerBound& lb = r.bound;
  lb.space_dim = best.space_dim;
  lb.segment_bits = g.segment_bits;
  lb.max_avoiding_dim = best.max_avoiding;
  lb.write_conflict_dim = best.bound_a;
  lb.read_conflict_dim = best.bound_b;
  lb.write_wavefronts = best.pred_a.phases << best.bound_a;
  lb.read_wavefronts = best.pred_b.phases << best.bound_b;
  if (g.segment_bits == 0)
    lb.reason = "the tensor fits in one row of banks: there are no segment bits, so nothing can conflict";
  else if (g.segment_bits <= best.max_avoiding)
    lb.reason = fmt::format(
        "Lemma 9.5: in the {}-dim space left after the vector and within-word bits, a subspace avoiding "
        "span(A_Thr) and span(B_Thr) can have dimension {} - max(dim A_Thr, dim B_Thr) = {} >= {} segment "
        "bits, so both accesses can be conflict-free",
        best.space_dim, best.space_dim, best.max_avoiding, g.segment_bits);
  else
    lb.reason = fmt::format(
        "Lemma 9.5: a subspace avoiding both thread spans has dimension at most {}, but {} segment bits are "
        "needed; any {} segment directions meet span(A_Thr) in at least {} and span(B_Thr) in at least {} "
        "dimensions",
        best.max_avoiding, g.segment_bits, g.segment_bits, best.bound_a, best.bound_b);

  // The trace.
  const int v = kw;
  const int bank_bits = g.seg_start - v;
  auto& t = r.trace;
  {
    SolveStep st{"Vectorization", "", {}};
    std::vector<BitVec> ar(a.regs.begin(), a.regs.end()), br(b.regs.begin(), b.regs.end());
    st.sets = {{"A_Reg", ar}, {"B_Reg", br}, {"V", plan.vec}};
    if (plan.k_a == plan.k_b)
      st.sentence = fmt::format(
          "V = the registers A and B share, in the same order: {}, so v = {} and each lane moves {} bits "
          "per instruction{}.",
          names(coords, plan.vec), v, (1 << v) * ebits,
          v == 0 ? " (scalar accesses: no register direction is common to both)" : "");
    else
      st.sentence =
          fmt::format("The {} needs {}-bit vectors {}; the {} shares the first {} of them, so it moves {} bits per lane.",
                      plan.wide->role, (1 << kw) * ebits, names(coords, plan.vec), plan.narrow->role,
                      std::min(plan.k_a, plan.k_b), (1 << std::min(plan.k_a, plan.k_b)) * ebits);
    if (!plan.note.empty()) st.sentence += " (" + plan.note + ".)";
    t.push_back(std::move(st));
  }
  {
    SolveStep st{"Space sizes", "", {}};
    st.sentence = fmt::format(
        "b = log2(128 bytes / {} bits per vector) = {} bank bits, s = {} - {} - {} = {} segment bits "
        "(one segment = one 128-byte row of all {} banks).",
        (1 << v) * ebits, bank_bits, g.width, v, bank_bits, g.segment_bits, model.banks);
    if (!best.w_full.empty() && static_cast<int>(best.w_full.size()) > v) {
      st.sentence += fmt::format(
          " Elements are {} bits, so W' = {} share a bank word with the vector: lanes that differ "
          "only there read the same word.",
          ebits, names(coords, best.within_word_extra));
      st.sets.push_back({"W'", best.within_word_extra});
    }
    t.push_back(std::move(st));
  }
  {
    SolveStep st{"Transaction split", "", {}};
    st.sets = {{"A_Thr", best.ta}, {"B_Thr", best.tb}, {"A_split", best.split_a}, {"B_split", best.split_b}};
    auto one = [&](const AccessInfo& x, const std::vector<BitVec>& split, int k) {
      const int lanes = phase_lanes(x, k, ebits, model);
      if (split.empty()) return fmt::format("{} is served {} lanes at a time: no split", x.letter, lanes);
      return fmt::format("{} is served {} lanes at a time, so its lane bits {} get a free pass", x.letter, lanes,
                         names(coords, split));
    };
    st.sentence = one(a, best.split_a, plan.k_a) + "; " + one(b, best.split_b, plan.k_b) + ".";
    t.push_back(std::move(st));
  }
  t.push_back({"Sort the thread bits",
               fmt::format("I = A_Thr ∩ B_Thr = {} is set aside (a thread direction for both); E = A_Thr \\ B_Thr = {}; "
                           "F = B_Thr \\ A_Thr = {}.",
                           names(coords, best.i_set), names(coords, best.e_set), names(coords, best.f_set)),
               {{"I", best.i_set}, {"E", best.e_set}, {"F", best.f_set}}});
  t.push_back({"Pair and XOR",
               fmt::format("H = {{e_i ^ f_i}} = {}: each flips a thread bit only A uses together with one only B uses, so "
                           "neither access sees it as a thread direction.",
                           names(coords, best.h_set)),
               {{"H", best.h_set}}});
  t.push_back({"Top up",
               best.c_set.empty()
                   ? std::string("The two thread spans fill the space: C = {}.")
                   : fmt::format("C = {} completes A_Thr + B_Thr: directions neither access's threads can produce.",
                                 names(coords, best.c_set)),
               {{"C", best.c_set}}});
  {
    SolveStep st{"Fallback", "", {{"P", best.pad}}};
    const std::size_t have = best.h_set.size() + best.c_set.size();
    if (!r.fallback)
      st.sentence = fmt::format("|H| + |C| = {} >= s = {}: no fallback needed, Seg = {}.", have, g.segment_bits,
                                names(coords, best.segment));
    else
      st.sentence = fmt::format(
          "|H| + |C| = {} < s = {}: conflict-free is impossible; padding with {} costs the fewest "
          "conflicts (Lemma 9.5: at least 2^{} for A and 2^{} for B per phase).",
          have, g.segment_bits, names(coords, best.pad), best.bound_a, best.bound_b);
    t.push_back(std::move(st));
  }
  {
    SolveStep st{"Banks last", "", {{"Bank", best.bank}, {"Seg", best.segment}}};
    st.sentence = fmt::format(
        "Bank = {} completes the basis (bank choice cannot create conflicts). Writer: {} wavefront{} "
        "per instruction ({}-bit vectors), reader: {} ({}-bit vectors).",
        names(coords, best.bank), r.claimed_write_wavefronts, r.claimed_write_wavefronts == 1 ? "" : "s",
        (1 << best.pred_a.vector_log2) * ebits, r.claimed_read_wavefronts, (1 << best.pred_b.vector_log2) * ebits);
    t.push_back(std::move(st));
  }
  return r;
}

// [SECTION] Check

SolveResult solve(const Access& writer, const Access& reader, int ebits, const BankModel& model) {
  SolveResult r = construct(writer, reader, ebits, model);
  r.shared = SharedLayout::from_linear(r.offset_bases, "solved swizzle");
  r.write = simulate(writer, r.shared, ebits, model);
  r.read = simulate(reader, r.shared, ebits, model);
  std::string notes;
  auto compare = [&](const char* role, const AccessResult& sim, int claimed) {
    if (sim.wavefronts == claimed) return;
    if (sim.merged && sim.wavefronts < claimed) {
      notes += fmt::format("{}the {}'s 128-bit loads merge quarter-warps: {} wavefronts where the lemma counts {}",
                           notes.empty() ? "" : "; ", role, sim.wavefronts, claimed);
      return;
    }
    throw SolverBug(
        fmt::format("the construction claims {} wavefronts for the {}, the simulator counts {}", claimed, role, sim.wavefronts));
  };
  compare("writer", r.write, r.claimed_write_wavefronts);
  compare("reader", r.read, r.claimed_read_wavefronts);
  r.conflict_free = r.write.wavefronts == r.write.ideal_wavefronts && r.read.wavefronts == r.read.ideal_wavefronts;
  r.check = notes.empty() ? "the simulator agrees with the construction for both accesses" : notes;
  r.trace.push_back({"Check", "Brute-force simulation: " + r.check + ".", {}});
  return r;
}

SolveResult solve(const Problem& p) { return solve(p.store, p.read, p.element_bits, p.bank); }

// [SECTION] Toggle grids

namespace {

// Geometry of a grid problem in its own bit order, built for fast searches:
// a vector keeps the toggleable columns G lowest so that a pivot-highest
// echelon basis splits into "inside G" and "outside G" parts.
struct GridSearch {
  int rows = 0, cols = 0, vec = 0;  // row bits r, column bits c, untouched low columns
  int within_word = 0;              // |W| (low columns inside one bank word)
  int seg_start = 0;                // offset bit where segments start
  int g = 0;                        // toggle columns that matter (modulo W)
  int kernel = 0;                   // toggle columns inside W (free)
  int first_seg_row = 0;            // rows j >= this are segment rows
  std::vector<int> perm;            // flat coordinate bit -> search bit (-1: inside W, dropped)
  std::vector<BitVec> threads_a, threads_b, fixed_segments;
  std::vector<BitVec> row_vec;  // row_vec[j] = m_j in search bits
  bool possible = true;         // fixed segment columns avoid both thread spans

  BitVec map(BitVec flat) const {
    BitVec out = 0;
    for (int i = 0; flat; ++i, flat >>= 1)
      if ((flat & 1u) && perm[static_cast<std::size_t>(i)] >= 0) out ^= BitVec{1} << perm[static_cast<std::size_t>(i)];
    return out;
  }
  // Toggle value x (bits over columns vec..cols-1) split into its G part (search bits) and kernel part.
  BitVec g_part(std::uint32_t toggles) const { return toggles >> kernel; }
};

// A pivot-highest echelon basis indexed by pivot; grid searches stay within 32 bits.
struct Echelon {
  std::array<BitVec, 32> by_pivot{};
  BitVec pivots = 0;
  BitVec reduce(BitVec v) const {
    while (BitVec hit = v & pivots) v ^= by_pivot[static_cast<std::size_t>(63 - std::countl_zero(hit))];
    return v;
  }
  bool insert(BitVec v) {
    v = reduce(v);
    if (!v) return false;
    const int p = 63 - std::countl_zero(v);
    by_pivot[static_cast<std::size_t>(p)] = v;
    pivots |= BitVec{1} << p;
    return true;
  }
};

// Vector widths of a grid problem's accesses under the row-major tile.
std::pair<int, int> grid_vectors(const Problem& p, const AccessInfo& a, const AccessInfo& b) {
  const SharedLayout rm = toggle_grid(p.shape, {});
  const auto& lin = rm.linear();
  const OffsetMap m = offset_map(lin.bases("offset"), lin.out_bits());
  const int widest = ilog2(static_cast<std::uint64_t>(128 / p.element_bits));
  return {vector_under(a, m, widest), vector_under(b, m, widest)};
}

GridSearch grid_search(const Problem& p) {
  if (!p.grid) fail("preset '{}' has no toggle grid (its shared layout is not a row-major tile)", p.name);
  check_inputs(p.store, p.read, p.element_bits, p.bank);
  GridSearch gs;
  gs.rows = p.grid->row_bits;
  gs.cols = p.grid->col_bits;
  gs.vec = p.grid->vec_bits;
  gs.within_word = std::min(gs.cols, p.element_bits < 32 ? ilog2(static_cast<std::uint64_t>(32 / p.element_bits)) : 0);
  gs.seg_start = ilog2(static_cast<std::uint64_t>(p.bank.banks * p.bank.bank_bytes * 8 / p.element_bits));
  const int low = std::max(gs.vec, gs.within_word);
  gs.g = gs.cols - low;
  gs.kernel = std::max(0, gs.within_word - gs.vec);
  gs.first_seg_row = std::max(0, gs.seg_start - gs.cols);
  // Search bit order: G columns, then the other columns above W, then rows.
  gs.perm.assign(static_cast<std::size_t>(gs.rows + gs.cols), -1);
  int next = 0;
  for (int c = low; c < gs.cols; ++c) gs.perm[static_cast<std::size_t>(gs.rows + c)] = next++;
  for (int c = gs.within_word; c < low; ++c) gs.perm[static_cast<std::size_t>(gs.rows + c)] = next++;
  for (int j = 0; j < gs.rows; ++j) gs.perm[static_cast<std::size_t>(j)] = next++;
  const AccessInfo a = info_of(p.store, "writer", "A", p.element_bits), b = info_of(p.read, "reader", "B", p.element_bits);
  const auto [ka, kb] = grid_vectors(p, a, b);
  for (BitVec t : phase_threads(a, phase_lanes(a, ka, p.element_bits, p.bank))) gs.threads_a.push_back(gs.map(t));
  for (BitVec t : phase_threads(b, phase_lanes(b, kb, p.element_bits, p.bank))) gs.threads_b.push_back(gs.map(t));
  for (int c = std::max(gs.seg_start, 0); c < gs.cols; ++c) gs.fixed_segments.push_back(gs.map(BitVec{1} << (gs.rows + c)));
  for (int j = 0; j < gs.rows; ++j) gs.row_vec.push_back(gs.map(BitVec{1} << j));
  return gs;
}

// P_X = (segments so far) + T_X, for both accesses.
struct Pair {
  Echelon pa, pb;
};

std::optional<Pair> grid_root(const GridSearch& gs) {
  Pair root;
  for (BitVec t : gs.threads_a) root.pa.insert(t);
  for (BitVec t : gs.threads_b) root.pb.insert(t);
  for (BitVec f : gs.fixed_segments) {
    if (!root.pa.insert(f)) return std::nullopt;
    if (!root.pb.insert(f)) return std::nullopt;
  }
  return root;
}

// Adds row j with toggle value `toggles`; false when a thread direction enters Seg.
bool grid_step(const GridSearch& gs, const Pair& in, int j, std::uint32_t toggles, Pair& out) {
  const BitVec v = gs.row_vec[static_cast<std::size_t>(j)] ^ gs.g_part(toggles);
  if (in.pa.reduce(v) == 0 || in.pb.reduce(v) == 0) return false;
  out = in;
  out.pa.insert(v);
  out.pb.insert(v);
  return true;
}

std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
    fail("the family has more than 2^64 members; too large to count");
  return a * b;
}

// Toggle values of the last segment row that keep both spans clear. The bad
// values for one access form a coset rep + span(dirs) inside G (or nothing).
std::uint64_t count_last(const GridSearch& gs, const Pair& at, int j) {
  const BitVec mj = gs.row_vec[static_cast<std::size_t>(j)];
  const BitVec gmask = low_bits(gs.g);
  const std::uint64_t all = std::uint64_t{1} << gs.g;
  struct Coset {
    bool any = false;
    BitVec rep = 0;
    std::array<BitVec, 32> dirs{};
    int n = 0;
  };
  auto bad = [&](const Echelon& e) {
    Coset c;
    c.rep = e.reduce(mj);
    if (c.rep & ~gmask) return c;
    c.any = true;
    for (int p = 0; p < gs.g; ++p)
      if ((e.pivots >> p) & 1u) c.dirs[static_cast<std::size_t>(c.n++)] = e.by_pivot[static_cast<std::size_t>(p)];
    return c;
  };
  const Coset ca = bad(at.pa), cb = bad(at.pb);
  if (!ca.any && !cb.any) return all;
  if (!ca.any || !cb.any) return all - (std::uint64_t{1} << (ca.any ? ca.n : cb.n));
  // |A ∪ B| = |A| + |B| - |A ∩ B|; the cosets meet iff ra ^ rb is in span(A) + span(B),
  // and then in a coset of span(A) ∩ span(B), of dimension n_A + n_B - dim(span(A) + span(B)).
  Echelon sum;
  for (int i = 0; i < ca.n; ++i) sum.insert(ca.dirs[static_cast<std::size_t>(i)]);
  for (int i = 0; i < cb.n; ++i) sum.insert(cb.dirs[static_cast<std::size_t>(i)]);
  const int sum_dim = std::popcount(sum.pivots);
  const std::uint64_t inter = sum.reduce(ca.rep ^ cb.rep) == 0 ? std::uint64_t{1} << (ca.n + cb.n - sum_dim) : 0;
  return all - (std::uint64_t{1} << ca.n) - (std::uint64_t{1} << cb.n) + inter;
}

// Lemma 9.5 as a prune: the rows still to place must stay independent modulo
// P_X, and they can only use m_j.. and the toggle columns.
bool room_left(const GridSearch& gs, const Pair& at, int j) {
  const int need = gs.rows - j;
  for (const Echelon* e : {&at.pa, &at.pb}) {
    Echelon grow = *e;
    int gained = 0;
    for (int k = j; k < gs.rows; ++k) gained += grow.insert(gs.row_vec[static_cast<std::size_t>(k)]) ? 1 : 0;
    for (int k = 0; k < gs.g; ++k) gained += grow.insert(BitVec{1} << k) ? 1 : 0;
    if (gained < need) return false;
  }
  return true;
}

std::uint64_t count_from(const GridSearch& gs, const Pair& at, int j) {
  if (j == gs.rows) return 1;
  if (j == gs.rows - 1) return count_last(gs, at, j);
  if (j + 2 < gs.rows && !room_left(gs, at, j)) return 0;
  std::uint64_t total = 0;
  Pair next;
  for (std::uint32_t x = 0; x < (1u << gs.g); ++x)
    if (grid_step(gs, at, j, x << gs.kernel, next)) total += count_from(gs, next, j + 1);
  return total;
}

}  // namespace

std::optional<std::vector<std::uint32_t>> masks_of(const Problem& p, const LinearLayout& offset_bases) {
  if (p.shape.size() != 2 || offset_bases.shape() != p.shape) return std::nullopt;
  const int r = ilog2(static_cast<std::uint64_t>(p.shape[0])), c = ilog2(static_cast<std::uint64_t>(p.shape[1]));
  const auto& img = offset_bases.bases("offset");
  if (static_cast<int>(img.size()) != r + c) return std::nullopt;
  for (int i = 0; i < c; ++i)
    if (img[static_cast<std::size_t>(i)] != BitVec{1} << (r + i)) return std::nullopt;
  std::vector<std::uint32_t> masks;
  for (int j = 0; j < r; ++j) {
    const BitVec v = img[static_cast<std::size_t>(c + j)];
    if ((v & low_bits(r)) != BitVec{1} << j) return std::nullopt;
    masks.push_back(static_cast<std::uint32_t>(v >> r));
  }
  return masks;
}

bool masks_conflict_free(const Problem& p, const std::vector<std::uint32_t>& masks) {
  const GridSearch gs = grid_search(p);
  if (static_cast<int>(masks.size()) > gs.rows) fail("{} masks given; the grid has {} row bits", masks.size(), gs.rows);
  std::optional<Pair> at = grid_root(gs);
  if (!at) return false;
  for (int j = 0; j < gs.rows; ++j) {
    const std::uint32_t m = j < static_cast<int>(masks.size()) ? masks[static_cast<std::size_t>(j)] : 0;
    if (m >> gs.cols) fail("mask {} (row bit {}) is wider than the {} columns", m, j, 1u << gs.cols);
    if (m & low_bits(gs.vec)) return false;  // outside the family: it moves a vector column
    if (j < gs.first_seg_row) continue;
    Pair next;
    if (!grid_step(gs, *at, j, m >> gs.vec, next)) return false;
    at = next;
  }
  return true;
}

std::uint64_t family_size(const Problem& p) {
  const GridSearch gs = grid_search(p);
  const std::optional<Pair> root = grid_root(gs);
  if (!root) return 0;
  const int toggles = gs.cols - gs.vec;
  std::uint64_t factor = 1;
  for (int j = 0; j < gs.rows; ++j) {
    if (j < gs.first_seg_row)
      factor = checked_mul(factor, std::uint64_t{1} << toggles);
    else
      factor = checked_mul(factor, std::uint64_t{1} << gs.kernel);
  }
  return checked_mul(factor, count_from(gs, *root, gs.first_seg_row));
}

struct MaskEnumerator::State {
  GridSearch gs;
  bool started = false, done = false;
  std::vector<std::uint32_t> toggles;  // per row: the toggle value (columns vec..cols-1) being tried
  std::vector<Pair> stack;             // stack[j] = state before row j (segment rows only)
};

MaskEnumerator::MaskEnumerator(const Problem& p) : state_(std::make_unique<State>()) {
  state_->gs = grid_search(p);
  const std::optional<Pair> root = grid_root(state_->gs);
  state_->done = !root.has_value();
  state_->toggles.assign(static_cast<std::size_t>(state_->gs.rows), 0);
  state_->stack.resize(static_cast<std::size_t>(state_->gs.rows) + 1);
  if (root) state_->stack[0] = *root;
}
MaskEnumerator::~MaskEnumerator() = default;
MaskEnumerator::MaskEnumerator(MaskEnumerator&&) noexcept = default;
MaskEnumerator& MaskEnumerator::operator=(MaskEnumerator&&) noexcept = default;

std::optional<std::vector<std::uint32_t>> MaskEnumerator::next() {
  State& s = *state_;
  if (s.done) return std::nullopt;
  const GridSearch& gs = s.gs;
  const std::uint32_t limit = 1u << (gs.cols - gs.vec);
  // Try row j with toggle values starting at s.toggles[j]; descend; backtrack on exhaustion.
  int j = 0;
  if (s.started) {
    j = gs.rows - 1;
    if (j < 0) {
      s.done = true;
      return std::nullopt;
    }
    ++s.toggles[static_cast<std::size_t>(j)];
  }
  s.started = true;
  // stack index: state before row j is stack[j]; bank rows just copy.
  while (j >= 0 && j < gs.rows) {
    std::uint32_t& x = s.toggles[static_cast<std::size_t>(j)];
    bool placed = false;
    for (; x < limit; ++x) {
      if (j < gs.first_seg_row) {
        s.stack[static_cast<std::size_t>(j) + 1] = s.stack[static_cast<std::size_t>(j)];
        placed = true;
        break;
      }
      if (grid_step(gs, s.stack[static_cast<std::size_t>(j)], j, x, s.stack[static_cast<std::size_t>(j) + 1]) &&
          (j + 2 >= gs.rows || room_left(gs, s.stack[static_cast<std::size_t>(j) + 1], j + 1))) {
        placed = true;
        break;
      }
    }
    if (placed) {
      ++j;
      if (j < gs.rows) s.toggles[static_cast<std::size_t>(j)] = 0;
    } else {
      x = 0;
      --j;
      if (j >= 0) ++s.toggles[static_cast<std::size_t>(j)];
    }
  }
  if (j < 0 || gs.rows == 0) {
    // rows == 0: the single empty mask set, if the root is clear.
    if (gs.rows == 0 && j >= 0) {
      s.done = true;
      return std::vector<std::uint32_t>{};
    }
    s.done = true;
    return std::nullopt;
  }
  std::vector<std::uint32_t> masks;
  for (std::uint32_t t : s.toggles) masks.push_back(t << gs.vec);
  return masks;
}

Repair repair(const Problem& p, const std::vector<std::uint32_t>& current_in) {
  const GridSearch gs = grid_search(p);
  if (static_cast<int>(current_in.size()) > gs.rows) fail("{} masks given; the grid has {} row bits", current_in.size(), gs.rows);
  std::vector<std::uint32_t> current = current_in;
  current.resize(static_cast<std::size_t>(gs.rows), 0);
  for (std::size_t j = 0; j < current.size(); ++j)
    if (current[j] >> gs.cols) fail("mask {} (row bit {}) is wider than the {} columns", current[j], j, 1u << gs.cols);
  Repair out;
  const std::optional<Pair> root = grid_root(gs);
  if (!root || family_size(p) == 0) return out;
  out.possible = true;
  const std::uint32_t limit = 1u << (gs.cols - gs.vec);
  auto cost = [&](int j, std::uint32_t t) { return std::popcount((t << gs.vec) ^ current[static_cast<std::size_t>(j)]); };
  // Candidates per row, cheapest first.
  std::vector<std::vector<std::uint32_t>> order(static_cast<std::size_t>(gs.rows));
  for (int j = 0; j < gs.rows; ++j) {
    auto& o = order[static_cast<std::size_t>(j)];
    for (std::uint32_t t = 0; t < limit; ++t) o.push_back(t);
    std::stable_sort(o.begin(), o.end(), [&](std::uint32_t x, std::uint32_t y) { return cost(j, x) < cost(j, y); });
  }
  int best = std::numeric_limits<int>::max();
  std::vector<std::uint32_t> chosen(static_cast<std::size_t>(gs.rows), 0), best_masks;
  std::uint64_t nodes = 0;
  constexpr std::uint64_t kNodeLimit = 20'000'000;
  auto dfs = [&](auto&& self, int j, const Pair& at, int so_far) -> void {
    if (++nodes > kNodeLimit) {
      out.exact = false;
      return;
    }
    if (j == gs.rows) {
      if (so_far < best) {
        best = so_far;
        best_masks = chosen;
      }
      return;
    }
    Pair next;
    for (std::uint32_t t : order[static_cast<std::size_t>(j)]) {
      const int c = so_far + cost(j, t);
      if (c >= best) break;
      if (j < gs.first_seg_row) {
        chosen[static_cast<std::size_t>(j)] = t;
        self(self, j + 1, at, c);
        break;  // bank rows: the cheapest choice is as good as any
      }
      if (!grid_step(gs, at, j, t, next)) continue;
      if (j + 2 < gs.rows && !room_left(gs, next, j + 1)) continue;
      chosen[static_cast<std::size_t>(j)] = t;
      self(self, j + 1, next, c);
      if (best == 0) return;
    }
  };
  dfs(dfs, 0, *root, 0);
  out.flips = best;
  for (int j = 0; j < gs.rows; ++j) {
    const std::uint32_t m = best_masks[static_cast<std::size_t>(j)] << gs.vec;
    out.masks.push_back(m);
    const std::uint32_t diff = m ^ current[static_cast<std::size_t>(j)];
    for (int c = 0; c < gs.cols; ++c)
      if ((diff >> c) & 1u) out.cells.emplace_back(j, c);
  }
  return out;
}

}  // namespace swz
