// sweep_plan.cpp: what a sweep knows before it starts (the plan of one access,
// the lemma's constants) and the engine that walks the configurations: the
// per-toggle deltas, the state of one configuration, and the lemma on that state.
#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "sweep_engine.h"
#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/sim/analysis.h"
#include "swz/sim/gpu.h"

namespace swz {

namespace sweep_detail {

void fill_masks(const GridSpec& g, std::uint64_t index, std::vector<std::uint32_t>& masks) {
  const int cols = g.col_bits - g.vec_bits;
  masks.resize(static_cast<std::size_t>(g.row_bits));
  for (int j = 0; j < g.row_bits; ++j)
    masks[static_cast<std::size_t>(j)] = static_cast<std::uint32_t>((index >> (j * cols)) & low_bits(cols)) << g.vec_bits;
}

namespace {

// Rank of up to 64 vectors by elimination on pivots (no allocation).
int small_rank(const BitVec* v, int n) {
  BitVec pivots[64];
  BitVec used = 0;  // bit p set when pivots[p] holds a vector
  int r = 0;
  for (int i = 0; i < n; ++i) {
    BitVec x = v[i];
    while (x) {
      const int p = 63 - std::countl_zero(x);
      if (!((used >> p) & 1u)) { pivots[p] = x; used |= BitVec{1} << p; ++r; break; }
      x ^= pivots[p];
    }
  }
  return r;
}

// Grid layout's offset of coordinate (m, n) under masks (as a per-row-bit table).
inline std::uint64_t grid_offset(const Plan& pl, const std::uint32_t* masks, std::uint32_t m, std::uint32_t n) {
  std::uint32_t mask = 0;
  for (std::uint32_t bits = m; bits; bits &= bits - 1) mask ^= masks[std::countr_zero(bits)];
  return static_cast<std::uint64_t>(m) * pl.n_cols + (n ^ mask);
}

// Offset bit i of the grid layout, as a flat coordinate: n_i below the column bits, m_j ^ mask_j above.
BitVec offset_image(const Plan& pl, const std::uint32_t* masks, int i) {
  if (i < pl.col_bits) return BitVec{1} << (pl.row_bits + i);  // dim0 = m occupies the low row_bits
  const int j = i - pl.col_bits;
  return (BitVec{1} << j) | (static_cast<BitVec>(masks[j]) << pl.row_bits);
}

}  // namespace

Plan make_plan(const Problem& p, AccessSides side) {
  if (!p.grid) fail("preset '{}' has no toggle grid to sweep", p.name);
  Plan pl;
  pl.p = &p;
  pl.access = side == AccessSides::Write ? &p.store : &p.read;
  pl.g = *p.grid;
  pl.row_bits = pl.g.row_bits;
  pl.col_bits = pl.g.col_bits;
  pl.n_cols = std::uint64_t{1} << pl.col_bits;
  if (pl.g.configs_log2() > kMaxSweepBits)
    fail("the grid has 2**{} configurations; sweeps enumerate at most 2**{}", pl.g.configs_log2(), kMaxSweepBits);
  const Access& a = *pl.access;
  const SharedLayout rm = toggle_grid(p.shape, {});
  const VectorChoice v = choose_vector(a, rm, p.element_bits, p.bank);
  pl.vec_elems = v.elements;
  const LinearLayout& L = a.layout;
  const int vec_log = std::countr_zero(static_cast<unsigned>(v.elements));
  auto split = [&](BitVec flat) {
    const Coords c = L.unflatten(flat);
    return std::pair<std::uint32_t, std::uint32_t>{static_cast<std::uint32_t>(c[0]), static_cast<std::uint32_t>(c[1])};
  };
  const auto& regs = L.bases("register");
  for (std::size_t i = static_cast<std::size_t>(vec_log); i < regs.size(); ++i) pl.step_bases.push_back(split(regs[i]));
  const AccessGeometry geometry = access_geometry(a, p.element_bits, v.bits, p.bank);
  // Lanes numbered so that a phase is a run of them (AMD's ds_read_b128 phases are not runs of lane ids).
  const std::vector<BitVec> lane_images = lane_bases_in_phase_order(L.bases("lane"), geometry.lane_phases);
  for (BitVec b : lane_images) pl.lane_bases.push_back(split(b));
  for (BitVec b : L.bases("warp")) pl.warp_bases.push_back(split(b));
  pl.lane_bits = static_cast<int>(pl.lane_bases.size());
  pl.phase_lanes = geometry.lanes_per_phase;
  pl.phases = geometry.phases;
  // The fast path counts each lane's words once per phase, phases fixed by lane id. Its
  // preconditions are the access's geometry (the same for a preset and for the same
  // layouts given as files); the first one that fails is the reason it is off.
  const int pb = std::countr_zero(static_cast<unsigned>(pl.phase_lanes));
  // Lanes of one phase must hold distinct coordinates (so distinct words, the grid being a
  // bijection): the phase's lane bases independent.
  const bool phase_lanes_distinct =
      pb <= static_cast<int>(lane_images.size()) && small_rank(lane_images.data(), pb) == pb;
  // serve() widens the phases of a 64- or 128-bit LDS when every lane reads the address of
  // lane ^ 1 (or of lane ^ 2): under a bijective layout exactly when lane basis 0 (or 1) is zero.
  // Masks cannot change that, so it is known here, not per configuration.
  auto lane_basis_zero = [&](std::size_t i) { return i < lane_images.size() && lane_images[i] == 0; };
  const bool merge_possible = gpu_of(p.bank).paired_lane_loads && a.kind == AccessKind::Load && !a.ldmatrix && v.bits > p.bank.bank_bytes * 8 &&
                              pl.phase_lanes < geometry.active_lanes && (lane_basis_zero(0) || lane_basis_zero(1));
  if (v.bits < 32)
    pl.slow_reason = fmt::format("{}-bit vectors are narrower than a 32-bit bank word", v.bits);
  else if (p.bank.banks > 64)
    pl.slow_reason = fmt::format("{} banks (the fast path counts up to 64)", p.bank.banks);
  else if (merge_possible)
    pl.slow_reason = "paired lanes read one address, so the hardware may serve wider phases";
  else if (!phase_lanes_distinct)
    pl.slow_reason = "lanes of one phase share elements (broadcast)";
  pl.fast = pl.slow_reason.empty();
  pl.words_per_lane = std::max(1, v.bits / 32);
  // word = offset >> within_word bits; vectors of whole words make the shift exact.
  pl.word_shift = -geometry.offset.within_word;
  if (p.element_bits > p.bank.bank_bytes * 8) pl.word_shift = std::countr_zero(static_cast<unsigned>(p.element_bits / (p.bank.bank_bytes * 8)));
  pl.bank_mask = static_cast<std::uint32_t>(geometry.bank.banks - 1);  // the instruction's banks
  // Lemma constants.
  for (int i = 0; i < pb; ++i)
    if (lane_images[static_cast<std::size_t>(i)]) pl.threads.push_back(lane_images[static_cast<std::size_t>(i)]);
  pl.within_word = geometry.offset.within_word;
  pl.seg_start = geometry.offset.segment_start;
  pl.dim_t = small_rank(pl.threads.data(), static_cast<int>(pl.threads.size()));
  {
    std::vector<BitVec> tw = pl.threads;
    const std::vector<std::uint32_t> zero(static_cast<std::size_t>(pl.row_bits), 0);
    for (int i = 0; i < std::min(pl.within_word, pl.row_bits + pl.col_bits); ++i) tw.push_back(offset_image(pl, zero.data(), i));
    pl.rank_tw = small_rank(tw.data(), static_cast<int>(tw.size()));
  }
  return pl;
}

namespace {

int lemma_prediction(const Plan& pl, const std::uint32_t* masks) {
  // Rows: [W | Seg] then T appended; W (the within-word bits) does not depend on the masks.
  BitVec rows[128];
  int n = 0;
  const int bits = pl.row_bits + pl.col_bits;
  for (int i = 0; i < std::min(pl.within_word, bits); ++i) rows[n++] = offset_image(pl, masks, i);
  const int nw = n;
  for (int i = std::max(pl.seg_start, pl.within_word); i < bits; ++i) rows[n++] = offset_image(pl, masks, i);
  const int dim_sw = small_rank(rows, n);
  for (BitVec t : pl.threads) rows[n++] = t;
  const int dim_t_sw = small_rank(rows, n);
  // dim(T ∩ (S+W)) - dim(T ∩ W), each via dim(A∩B) = dim A + dim B - dim(A+B).
  const int bad = (pl.dim_t + dim_sw - dim_t_sw) - (pl.dim_t + nw - pl.rank_tw);
  return pl.phases << bad;
}

}  // namespace

void Reducer::add(BitVec x) {
  x = reduce(x);
  if (!x) return;
  const int lead = 63 - std::countl_zero(x);
  for (BitVec& r : rows)
    if ((r >> lead) & 1u) r ^= x;
  rows.push_back(x);
  leads.push_back(lead);
}

namespace {

std::uint32_t word_of_offset(const Plan& pl, std::uint32_t off) {
  return pl.word_shift >= 0 ? off << pl.word_shift : off >> -pl.word_shift;
}

void put_vec(std::uint32_t* w, int i, BitVec v) {
  w[2 * i] = static_cast<std::uint32_t>(v);
  w[2 * i + 1] = static_cast<std::uint32_t>(v >> 32);
}
inline BitVec get_vec(const std::uint32_t* w, int i) { return BitVec{w[2 * i]} | (BitVec{w[2 * i + 1]} << 32); }

}  // namespace

Engine make_engine(const Plan& pl) {
  Engine e;
  e.pl = &pl;
  e.toggles = static_cast<int>(pl.g.configs_log2());
  const int cols = pl.g.col_bits - pl.g.vec_bits;
  // Lemma: W = offset bits below within_word, segments from max(seg_start, within_word).
  const int bits = pl.row_bits + pl.col_bits;
  e.nw = std::min(pl.within_word, bits);
  e.seg_lo = std::max(pl.seg_start, pl.within_word);
  e.n_seg = std::max(0, bits - e.seg_lo);
  e.lemma_linear = e.nw <= pl.col_bits;
  e.need_masks = !pl.fast || !e.lemma_linear;
  e.n_sub = e.lemma_linear && bits <= 32 && e.n_seg <= 5 ? 1 << e.n_seg : 0;
  const int ns = static_cast<int>(pl.step_bases.size()), nwarp = static_cast<int>(pl.warp_bases.size());
  if (pl.fast) {
    e.lanes = pl.phases * pl.phase_lanes;
    e.instrs = 1 << (ns + nwarp);
    e.kernel = sweep_kernel();
    e.wide_banks = pl.bank_mask >= 32;
    const int width = kernel_width(e.kernel, e.wide_banks);
    e.instr_off = (e.lanes + 15) / 16 * 16;
    e.instr_stride = (e.instrs + width - 1) / width * width;
    e.seg_off = e.instr_off + (e.instr_stride + 15) / 16 * 16;
  }
  e.n_words = (e.seg_off + (!e.lemma_linear ? 0 : e.n_sub ? 2 * e.n_sub : 4 * e.n_seg) + 15) / 16 * 16;
  e.delta.assign(static_cast<std::size_t>(e.toggles) * static_cast<std::size_t>(e.n_words), 0);
  if (pl.fast) {
    // Row coordinate m of every lane and instruction (linear in the lane / instruction index bits).
    std::vector<std::uint32_t> lane_m(static_cast<std::size_t>(e.lanes), 0), instr_m(static_cast<std::size_t>(e.instrs), 0);
    for (int l = 1; l < e.lanes; ++l)
      lane_m[static_cast<std::size_t>(l)] = lane_m[static_cast<std::size_t>(l & (l - 1))] ^
                                            pl.lane_bases[static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(l)))].first;
    for (int s = 1; s < e.instrs; ++s) {
      const int b = std::countr_zero(static_cast<unsigned>(s));
      const std::uint32_t m = b < ns ? pl.step_bases[static_cast<std::size_t>(b)].first : pl.warp_bases[static_cast<std::size_t>(b - ns)].first;
      instr_m[static_cast<std::size_t>(s)] = instr_m[static_cast<std::size_t>(s & (s - 1))] ^ m;
    }
    // Toggle bit t flips column bit vec_bits + k of every coordinate whose row has bit j.
    for (int t = 0; t < e.toggles; ++t) {
      const int j = t / cols, k = t % cols;
      const std::uint32_t flip = word_of_offset(pl, std::uint32_t{1} << (pl.g.vec_bits + k)) & pl.bank_mask;
      std::uint32_t* d = e.delta.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(e.n_words);
      for (int l = 0; l < e.lanes; ++l) d[l] = ((lane_m[static_cast<std::size_t>(l)] >> j) & 1u) ? flip : 0;
      for (int s = 0; s < e.instr_stride; ++s)
        d[e.instr_off + s] = ((instr_m[static_cast<std::size_t>(std::min(s, e.instrs - 1))] >> j) & 1u) ? flip : 0;
    }
  }
  if (e.lemma_linear) {
    const std::vector<std::uint32_t> zero(static_cast<std::size_t>(pl.row_bits), 0);
    for (int i = 0; i < e.nw; ++i) {
      e.by_w.add(offset_image(pl, zero.data(), i));
      e.by_wt.add(offset_image(pl, zero.data(), i));
    }
    for (BitVec t : pl.threads) e.by_wt.add(t);
    e.rank_w = e.by_w.rank();
    e.rank_wt = e.by_wt.rank();
    // Toggle bit t flips bit (vec_bits + k) of mask j, i.e. flat bit row_bits + vec_bits + k of offset image col_bits + j.
    for (int t = 0; t < e.toggles; ++t) {
      const int j = t / cols, k = t % cols;
      const int s = pl.col_bits + j - e.seg_lo;  // its segment vector
      if (s < 0) continue;
      const BitVec flip = BitVec{1} << (pl.row_bits + pl.g.vec_bits + k);
      std::uint32_t* d = e.delta.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(e.n_words) + e.seg_off;
      if (e.n_sub) {
        for (int c = 0; c < e.n_sub; ++c)
          if ((c >> s) & 1) {
            d[c] = static_cast<std::uint32_t>(e.by_w.reduce(flip));
            d[e.n_sub + c] = static_cast<std::uint32_t>(e.by_wt.reduce(flip));
          }
      } else {
        put_vec(d, s, e.by_w.reduce(flip));
        put_vec(d, e.n_seg + s, e.by_wt.reduce(flip));
      }
    }
  }
  if (e.n_sub) {
    e.zero_weight.assign(static_cast<std::size_t>(e.n_words - e.seg_off), 0);
    for (int c = 0; c < e.n_sub; ++c) {
      e.zero_weight[static_cast<std::size_t>(c)] = 1;
      e.zero_weight[static_cast<std::size_t>(e.n_sub + c)] = 256;
    }
  }
  choose_step(e);
  return e;
}

void load_state(const Engine& e, const std::vector<std::uint32_t>& masks, State& st) {
  const Plan& pl = *e.pl;
  st.masks = masks;
  st.words.assign(static_cast<std::size_t>(e.n_words), 0);
  std::uint32_t* w = st.words.data();
  if (pl.fast) {
    auto word = [&](const std::pair<std::uint32_t, std::uint32_t>& b) {
      return word_of_offset(pl, static_cast<std::uint32_t>(grid_offset(pl, masks.data(), b.first, b.second)));
    };
    std::uint32_t lane_img[8] = {};
    for (int i = 0; i < pl.lane_bits; ++i) lane_img[i] = word(pl.lane_bases[static_cast<std::size_t>(i)]);
    for (int l = 1; l < e.lanes; ++l) w[l] = w[l & (l - 1)] ^ lane_img[std::countr_zero(static_cast<unsigned>(l))];
    for (int l = 0; l < e.lanes; ++l) w[l] &= pl.bank_mask;
    const int ns = static_cast<int>(pl.step_bases.size());
    std::uint32_t* in = w + e.instr_off;
    for (int s = 1; s < e.instrs; ++s) {
      const int b = std::countr_zero(static_cast<unsigned>(s));
      const std::uint32_t img = b < ns ? word(pl.step_bases[static_cast<std::size_t>(b)]) : word(pl.warp_bases[static_cast<std::size_t>(b - ns)]);
      in[s] = in[s & (s - 1)] ^ img;
    }
    for (int s = 0; s < e.instrs; ++s) in[s] &= pl.bank_mask;
    for (int s = e.instrs; s < e.instr_stride; ++s) in[s] = in[e.instrs - 1];
  }
  if (e.lemma_linear) {
    std::uint32_t* lw = w + e.seg_off;
    for (int s = 0; s < e.n_seg; ++s) {
      const BitVec v = offset_image(pl, masks.data(), e.seg_lo + s);
      const BitVec vw = e.by_w.reduce(v), vwt = e.by_wt.reduce(v);
      if (e.n_sub) {
        for (int c = 0; c < e.n_sub; ++c)
          if ((c >> s) & 1) {
            lw[c] ^= static_cast<std::uint32_t>(vw);
            lw[e.n_sub + c] ^= static_cast<std::uint32_t>(vwt);
          }
      } else {
        put_vec(lw, s, vw);
        put_vec(lw, e.n_seg + s, vwt);
      }
    }
  }
}

void flip_mask(const Engine& e, int t, State& st) {
  const int cols = e.pl->g.col_bits - e.pl->g.vec_bits;
  st.masks[static_cast<std::size_t>(t / cols)] ^= std::uint32_t{1} << (e.pl->g.vec_bits + t % cols);
}

namespace {

// Rank by elimination in insertion order: each new pivot is reduced by the earlier ones and
// keyed by its lowest bit, so one pass over the pivots clears every pivot bit (branch-free).
// A zero vector becomes a pivot with no lead bit, which reduces nothing, so the loops
// have fixed trip counts (N known at compile time unrolls them).
template <int N>
[[gnu::always_inline]] inline int rank_of(const BitVec* v, int n) {
  if constexpr (N > 0) n = N;
  BitVec piv[64], lead[64];
  int r = 0;
#pragma GCC unroll 8
  for (int i = 0; i < n; ++i) {
    BitVec x = v[i];
#pragma GCC unroll 8
    for (int k = 0; k < i; ++k) x ^= (x & lead[k]) ? piv[k] : 0;
    piv[i] = x;
    lead[i] = x & (~x + 1);
    r += x != 0;
  }
  return r;
}

// (rank of a, rank of b): a = the first n vectors of w, b = the next n.
template <int N>
std::pair<int, int> rank_pair(const std::uint32_t* w, int n) {
  if constexpr (N > 0) n = N;
  BitVec a[64], b[64];
  for (int i = 0; i < n; ++i) {
    a[i] = get_vec(w, i);
    b[i] = get_vec(w, n + i);
  }
  return {rank_of<N>(a, n), rank_of<N>(b, n)};
}

std::pair<int, int> ranks_of(const std::uint32_t* w, int n) {
  switch (n) {
    case 1: return rank_pair<1>(w, n);
    case 2: return rank_pair<2>(w, n);
    case 3: return rank_pair<3>(w, n);
    case 4: return rank_pair<4>(w, n);
    case 5: return rank_pair<5>(w, n);
    case 6: return rank_pair<6>(w, n);
    case 7: return rank_pair<7>(w, n);
    case 8: return rank_pair<8>(w, n);
    default: return rank_pair<0>(w, n);
  }
}

// How many of w[0, n) and of w[n, 2n) are zero.
std::pair<int, int> zero_counts(const std::uint32_t* w, int n) {
  int a = 0, b = 0;
  for (int i = 0; i < n; ++i) {
    a += w[i] == 0;
    b += w[n + i] == 0;
  }
  return {a, b};
}

}  // namespace

int lemma_of_state(const Engine& e, const State& st) {
  if (!e.lemma_linear) return lemma_prediction(*e.pl, st.masks.data());
  const std::uint32_t* w = st.words.data() + e.seg_off;
  if (e.n_sub) {
    const auto [zeros_w, zeros_wt] = zero_counts(w, e.n_sub);
    return lemma_of_ranks(e, subset_rank(e, zeros_w), subset_rank(e, zeros_wt));
  }
  const auto [rank_sw, rank_stw] = ranks_of(w, e.n_seg);
  return lemma_of_ranks(e, rank_sw, rank_stw);
}

}  // namespace sweep_detail

std::vector<std::uint32_t> masks_of_config(const GridSpec& g, std::uint64_t index) {
  std::vector<std::uint32_t> masks;
  sweep_detail::fill_masks(g, index, masks);
  return masks;
}

}  // namespace swz
