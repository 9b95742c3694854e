// solver_access.cpp: the solver's view of one access (solver_access.h).
#include "solver_access.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "swz/error.h"
#include "swz/solve/solver.h"

namespace swz::solve_detail {

namespace {

void check_access(const Access& a, const char* role, int ebits, const BankModel& m) {
  for (const auto& d : a.layout.in_dims())
    if (d.name != "register" && d.name != "lane" && d.name != "warp" && d.name != "block")
      fail("the {} has input dim '{}'; an access has register, lane, warp, block", role, d.name);
  const int lane_bits = a.layout.in_dim_bits("lane");
  if ((1 << lane_bits) != m.warp_size)
    fail("the {} has {} lanes; the bank model's warp has {}", role, 1 << lane_bits, m.warp_size);
  if (a.ldmatrix != 0 && a.ldmatrix != 1 && a.ldmatrix != 2 && a.ldmatrix != 4)
    fail("the {} uses ldmatrix .x{}; ldmatrix loads 1, 2 or 4 matrices", role, a.ldmatrix);
  if (a.ldmatrix && m.warp_size != 32) fail("ldmatrix needs 32-lane warps");
  if (a.vec_bits != 0 && (!pow2(a.vec_bits) || a.vec_bits < ebits || a.vec_bits > 128))
    fail("the {} asks for {}-bit vectors: a power of two between the element width ({}) and 128", role, a.vec_bits, ebits);
}


// Every element is held (surjective), and no two non-broadcast inputs hold the
// same one: the nonzero bases are independent (zero bases are broadcast and fine).
void check_coverage(const Access& a, const char* role) {
  const LinearLayout& l = a.layout;
  if (const std::string gap = coverage_gap(l); !gap.empty()) fail("the {} does not cover the tensor: {}", role, gap);
  Subspace seen(l.out_bits());
  for (const auto& d : l.in_dims()) {
    if (d.name == "block") continue;
    for (std::size_t i = 0; i < d.bases.size(); ++i)
      if (d.bases[i] != 0 && !seen.insert(d.bases[i]))
        fail("the {} is not injective: {} {} = {} repeats elements other bases already hold (only a zero basis may "
             "broadcast)",
             role, d.name, std::size_t{1} << i, l.format_coords(d.bases[i]));
  }
}

}  // namespace

void check_inputs(const Access& a, const Access& b, int ebits, const BankModel& model) {
  check_bank_model(model);
  if (ebits != 4 && ebits != 8 && ebits != 16 && ebits != 32 && ebits != 64)
    fail("element width {} bits is not one of 4, 8, 16, 32, 64", ebits);
  if (model.banks < 4) fail("the solver needs at least 4 banks (a 16-byte vector must fit in one row of banks)");
  check_access(a, "writer", ebits, model);
  check_access(b, "reader", ebits, model);
  if (a.layout.out_dims() != b.layout.out_dims())
    fail("the writer covers a {} tensor but the reader a {} one", fmt::join(a.layout.shape(), "x"),
         fmt::join(b.layout.shape(), "x"));
  if (a.layout.out_bits() > kSolverMaxAddressBits)
    fail("the tensor has 2**{} elements; the solver takes at most 2**{}", a.layout.out_bits(), kSolverMaxAddressBits);
  const int threads_a = a.layout.in_dim_bits("lane") + a.layout.in_dim_bits("warp");
  const int threads_b = b.layout.in_dim_bits("lane") + b.layout.in_dim_bits("warp");
  if (threads_a != threads_b)
    fail("the writer runs {} threads ({} warp{}) but the reader {} ({} warp{}): one CTA writes and reads", 1 << threads_a,
         1 << a.layout.in_dim_bits("warp"), a.layout.in_dim_bits("warp") ? "s" : "", 1 << threads_b,
         1 << b.layout.in_dim_bits("warp"), b.layout.in_dim_bits("warp") ? "s" : "");
  check_coverage(a, "writer");
  check_coverage(b, "reader");
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
  x.as_numbered = a.ldmatrix != 0;  // a matrix row's elements are in hardware order
  const int widest = ilog2(static_cast<std::uint64_t>(128 / ebits));
  if (a.ldmatrix)
    x.requested = widest;
  else if (a.vec_bits)
    x.requested = ilog2(static_cast<std::uint64_t>(a.vec_bits / ebits));
  return x;
}

// Lanes served together for a vector of 2^k elements (hardware.md: phases).
int phase_lanes(const AccessInfo& x, int k, int ebits, const BankModel& m) {
  return access_geometry(*x.access, x.lane_bits, ebits, (1 << k) * ebits, m).lanes_per_phase;
}
LanePhases lane_phases(const AccessInfo& x, int k, int ebits, const BankModel& m) {
  return access_geometry(*x.access, x.lane_bits, ebits, (1 << k) * ebits, m).lane_phases;
}
int active_lanes(const AccessInfo& x) { return x.access->ldmatrix ? 8 * x.access->ldmatrix : 1 << x.lane_bits; }

// Nonzero lane bases of one phase (T), and the lane bases the split drops.
std::vector<BitVec> phase_threads(const AccessInfo& x, const LanePhases& phases) {
  const std::vector<BitVec> lanes = lane_bases_in_phase_order(x.lanes, phases);
  std::vector<BitVec> t;
  for (int i = 0; i < ilog2(static_cast<std::uint64_t>(phases.lanes_per_phase)) && i < static_cast<int>(lanes.size()); ++i)
    if (lanes[static_cast<std::size_t>(i)] != 0) t.push_back(lanes[static_cast<std::size_t>(i)]);
  return t;
}
std::vector<BitVec> split_threads(const AccessInfo& x, const LanePhases& phases) {
  const std::vector<BitVec> lanes = lane_bases_in_phase_order(x.lanes, phases);
  std::vector<BitVec> t;
  const int active_bits = ilog2(static_cast<std::uint64_t>(active_lanes(x)));
  for (int i = ilog2(static_cast<std::uint64_t>(phases.lanes_per_phase)); i < active_bits && i < static_cast<int>(lanes.size()); ++i)
    if (lanes[static_cast<std::size_t>(i)] != 0) t.push_back(lanes[static_cast<std::size_t>(i)]);
  return t;
}

std::vector<BitVec> lane_warp_bases(const AccessInfo& x) {
  std::vector<BitVec> out;
  for (BitVec v : x.lanes)
    if (v) out.push_back(v);
  for (BitVec v : x.warps)
    if (v) out.push_back(v);
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


OffsetMap offset_map(const std::vector<BitVec>& images, int width) {
  const auto inv = BitMatrix::from_columns(width, images).inverse();
  if (!inv) throw SolverBug("the constructed offset bases are not invertible");
  return {images, *inv};
}


int widest_vector(const AccessInfo& x, const OffsetMap& m, int cap, bool renumbered) {
  const int w = static_cast<int>(m.images.size());
  const Subspace regs = Subspace::span(x.regs, w);
  const auto lw = lane_warp_bases(x);
  auto valid = [&](int k) {
    if (k > w || (!renumbered && k > static_cast<int>(x.regs.size()))) return false;
    for (int i = 0; i < k; ++i) {
      const BitVec image = m.images[static_cast<std::size_t>(i)];
      if (renumbered ? !regs.contains(image) : x.regs[static_cast<std::size_t>(i)] != image) return false;
    }
    if (!renumbered)
      for (std::size_t i = static_cast<std::size_t>(k); i < x.regs.size(); ++i)
        if (m.inverse.apply(x.regs[i]) & low_bits(k)) return false;
    for (BitVec b : lw)
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

Predicted predict_on_bases(const AccessInfo& x, const OffsetMap& m, int k, int ebits, const BankModel& model, int width) {
  const AccessGeometry geometry = access_geometry(*x.access, x.lane_bits, ebits, (1 << k) * ebits, model);
  const int seg_start = geometry.offset.segment_start, within_word = geometry.offset.within_word;
  Predicted p;
  p.vector_log2 = k;
  p.seg_start = seg_start;
  p.lane_phases = geometry.lane_phases;
  p.lanes = geometry.lanes_per_phase;
  p.phases = active_lanes(x) / p.lanes;
  const Subspace t = Subspace::span(phase_threads(x, p.lane_phases), width);
  const int d = static_cast<int>(m.images.size());
  std::vector<BitVec> w(m.images.begin(), m.images.begin() + std::min(within_word, d));
  std::vector<BitVec> sw = w;
  for (int i = seg_start; i < d; ++i) sw.push_back(m.images[static_cast<std::size_t>(i)]);
  p.conflict_dim = intersect_dim(t, Subspace::span(sw, width)) - intersect_dim(t, Subspace::span(w, width));
  return p;
}

// Solve sum of regs[j] over bits j of x = target (regs may be dependent); nullopt when target is outside their span.
std::optional<std::uint64_t> preimage(const std::vector<BitVec>& regs, BitVec target) {
  // Echelon form carrying, for each row, which registers it is the XOR of.
  std::vector<std::pair<BitVec, std::uint64_t>> rows;
  for (std::size_t j = 0; j < regs.size(); ++j) {
    BitVec v = regs[j];
    std::uint64_t mix = std::uint64_t{1} << j;
    for (const auto& [rv, rm] : rows)
      if (v & (BitVec{1} << (63 - std::countl_zero(rv)))) v ^= rv, mix ^= rm;
    if (v) rows.emplace_back(v, mix);
  }
  std::uint64_t mix = 0;
  for (const auto& [rv, rm] : rows)
    if (target & (BitVec{1} << (63 - std::countl_zero(rv)))) target ^= rv, mix ^= rm;
  if (target) return std::nullopt;
  return mix;
}

Renumbering renumber(const AccessInfo& x, const OffsetMap& m, int k) {
  Renumbering out;
  const int n = static_cast<int>(x.regs.size());
  std::vector<std::uint64_t> chosen;  // input vectors (over original register bits)
  Subspace inputs(n);
  for (int i = 0; i < k; ++i) {
    const auto mix = preimage(x.regs, m.images[static_cast<std::size_t>(i)]);
    if (!mix) throw SolverBug(fmt::format("offset 2**{} is not in the {}'s registers", i, x.role));
    chosen.push_back(*mix);
    inputs.insert(*mix);
  }
  for (int j = 0; j < n; ++j) {
    const std::uint64_t unit = std::uint64_t{1} << j;
    if (!inputs.insert(unit)) continue;
    std::uint64_t mix = unit;
    const BitVec low = m.inverse.apply(x.regs[static_cast<std::size_t>(j)]) & low_bits(k);
    for (int i = 0; i < k; ++i)
      if (low & (BitVec{1} << i)) mix ^= chosen[static_cast<std::size_t>(i)];
    chosen.push_back(mix);
  }
  for (std::uint64_t mix : chosen) {
    BitVec v = 0;
    for (int j = 0; j < n; ++j)
      if (mix & (std::uint64_t{1} << j)) v ^= x.regs[static_cast<std::size_t>(j)];
    out.regs.push_back(v);
    out.from.push_back(mix);
  }
  for (int j = 0; j < n; ++j)
    if (out.from[static_cast<std::size_t>(j)] != std::uint64_t{1} << j) out.identity = false;
  return out;
}


}  // namespace swz::solve_detail
