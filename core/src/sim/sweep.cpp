#include "swz/sim/sweep.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <cstring>
#include <thread>

// The SIMD bank counters (AVX2, AVX-512, chosen at run time) exist on x86-64
// builds with SWZ_SIMD on; everything else runs the portable scalar path.
#if defined(SWZ_SIMD) && SWZ_SIMD && (defined(__x86_64__) || defined(_M_X64))
#define SWZ_X86_KERNELS 1
#include <emmintrin.h>
#include <immintrin.h>
#else
#define SWZ_X86_KERNELS 0
#endif

#include "swz/sim/analysis.h"
#include "swz/error.h"
#include "swz/layout/factories.h"

namespace swz {

namespace {
void fill_masks(const GridSpec& g, std::uint64_t index, std::vector<std::uint32_t>& masks) {
  const int cols = g.col_bits - g.vec_bits;
  masks.resize(static_cast<std::size_t>(g.row_bits));
  for (int j = 0; j < g.row_bits; ++j)
    masks[static_cast<std::size_t>(j)] = static_cast<std::uint32_t>((index >> (j * cols)) & low_bits(cols)) << g.vec_bits;
}
}  // namespace

std::vector<std::uint32_t> masks_of_config(const GridSpec& g, std::uint64_t index) {
  std::vector<std::uint32_t> masks;
  fill_masks(g, index, masks);
  return masks;
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

// Everything about the read access that does not depend on the masks.
struct Plan {
  const Problem* p = nullptr;
  GridSpec g;
  int row_bits = 0, col_bits = 0;
  std::uint64_t n_cols = 0;
  bool fast = false;
  // Input bases of the read (registers above the vector, lanes, warps) as coordinates (m, n).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> step_bases, lane_bases, warp_bases;
  int lane_bits = 0, phase_lanes = 32, phases = 1, words_per_lane = 1, word_shift = 0;  // word = offset << shift (>> when negative)
  std::uint32_t bank_mask = 31;
  // Lemma inputs.
  std::vector<BitVec> threads;  // thread basis of one phase, flat coords
  int vec_elems = 1, seg_start = 0, within_word = 0;
  int dim_t = 0, rank_tw = 0;  // dim span(T), dim span(T + W)
  bool lemma_possible = true;
};

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

Plan make_plan(const Problem& p) {
  if (!p.grid) fail("preset '{}' has no toggle grid to sweep", p.name);
  Plan pl;
  pl.p = &p;
  pl.g = *p.grid;
  pl.row_bits = pl.g.row_bits;
  pl.col_bits = pl.g.col_bits;
  pl.n_cols = std::uint64_t{1} << pl.col_bits;
  if (pl.g.configs_log2() > kMaxSweepBits)
    fail("the grid has 2^{} configurations; sweeps enumerate at most 2^{}", pl.g.configs_log2(), kMaxSweepBits);
  const SharedLayout rm = toggle_grid(p.shape, {});
  const VectorChoice v = choose_vector(p.read, rm, p.element_bits, p.bank);
  pl.vec_elems = v.elements;
  const LinearLayout& L = p.read.layout;
  const int vec_log = std::countr_zero(static_cast<unsigned>(v.elements));
  auto split = [&](BitVec flat) {
    const Coords c = L.unflatten(flat);
    return std::pair<std::uint32_t, std::uint32_t>{static_cast<std::uint32_t>(c[0]), static_cast<std::uint32_t>(c[1])};
  };
  const auto& regs = L.bases("register");
  for (std::size_t i = static_cast<std::size_t>(vec_log); i < regs.size(); ++i) pl.step_bases.push_back(split(regs[i]));
  for (BitVec b : L.bases("lane")) pl.lane_bases.push_back(split(b));
  for (BitVec b : L.bases("warp")) pl.warp_bases.push_back(split(b));
  pl.lane_bits = static_cast<int>(pl.lane_bases.size());
  const AccessGeometry geometry = access_geometry(p.read, p.element_bits, v.bits, p.bank);
  pl.phase_lanes = geometry.lanes_per_phase;
  pl.phases = geometry.phases;
  // Fast path: whole-word elements, no merge, every lane's vector distinct within a phase
  // (bijective layout + distinct coordinates => distinct words).
  const bool merge_possible = p.read.kind == AccessKind::Load && !p.read.ldmatrix && v.bits == 128;
  pl.fast = v.bits >= 32 && !merge_possible && p.bank.banks <= 64;
  if (pl.fast) {
    // Lanes of one phase must hold distinct coordinates: lane bases of a phase independent.
    const int pb = std::countr_zero(static_cast<unsigned>(pl.phase_lanes));
    std::vector<BitVec> lanes(L.bases("lane").begin(), L.bases("lane").begin() + pb);
    if (small_rank(lanes.data(), pb) != pb) pl.fast = false;
  }
  pl.words_per_lane = std::max(1, v.bits / 32);
  // word = offset >> within_word bits; vectors of whole words make the shift exact.
  pl.word_shift = -geometry.offset.within_word;
  if (p.element_bits > p.bank.bank_bytes * 8) pl.word_shift = std::countr_zero(static_cast<unsigned>(p.element_bits / (p.bank.bank_bytes * 8)));
  pl.bank_mask = static_cast<std::uint32_t>(p.bank.banks - 1);
  // Lemma constants.
  const int pb = std::countr_zero(static_cast<unsigned>(pl.phase_lanes));
  for (int i = 0; i < pb; ++i)
    if (L.bases("lane")[static_cast<std::size_t>(i)]) pl.threads.push_back(L.bases("lane")[static_cast<std::size_t>(i)]);
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

// ---- The fast path's state ---------------------------------------------------
//
// Everything the read simulation and the lemma need from one configuration is
// linear in its toggle bits: a lane's (or an instruction's) word address is the
// XOR of per-bit address images, and each image changes by one fixed word when
// one mask bit flips (the bit sits in one row's mask, so only coordinates with
// that row bit move). Likewise each segment basis vector of the lemma is
// (row bit j, mask j) in flat coordinates, and its reduction modulo a fixed
// subspace is linear, and so is every XOR of a subset of them. So a
// configuration's state is the all-zero state XOR one delta per set toggle bit,
// and the sweep walks the configurations in Gray order, applying one delta per
// step. The simulation (every lane of every instruction) and the lemma (ranks of
// the segment vectors) then run on that state for every configuration.

// Row-reduced echelon basis of a fixed subspace: reduce(x) clears every pivot bit of x.
struct Reducer {
  std::vector<BitVec> rows;
  std::vector<int> leads;
  void add(BitVec x) {
    x = reduce(x);
    if (!x) return;
    const int lead = 63 - std::countl_zero(x);
    for (BitVec& r : rows)
      if ((r >> lead) & 1u) r ^= x;
    rows.push_back(x);
    leads.push_back(lead);
  }
  BitVec reduce(BitVec x) const {
    for (std::size_t i = 0; i < rows.size(); ++i)
      if ((x >> leads[i]) & 1u) x ^= rows[i];
    return x;
  }
  int rank() const { return static_cast<int>(rows.size()); }
};

struct State;

struct Engine {
  const Plan* pl = nullptr;
  SweepKernel kernel = SweepKernel::Scalar;  // bank counting of the fast path
  bool need_masks = false;  // the masks themselves are read (slow simulation or lemma)
  int toggles = 0;          // configuration index bits
  int lanes = 0;            // active lanes (phases * phase_lanes)
  int instrs = 0;           // read instructions (steps x warps)
  int instr_stride = 0;     // rounded up to whole vectors (8 or 16 instructions), padded with the last instruction
  // The state is one word buffer: [lanes | instructions | lemma], the banks of lanes and
  // instructions one word each; each toggle bit has a delta of the same shape. The lemma part
  // holds the segment vectors reduced mod W, then mod W + T: either every subset XOR of them
  // (n_sub = 2^n_seg words each, when they fit in a word and are few), or the vectors
  // themselves (two words each, low first).
  int instr_off = 0, seg_off = 0, n_words = 0;
  std::vector<std::uint32_t> delta;  // [toggle][word]
  // Lemma: segment vectors reduced modulo span(W) and modulo span(W + T).
  bool lemma_linear = true;  // W does not depend on the masks
  int n_seg = 0, seg_lo = 0, nw = 0, rank_w = 0, rank_wt = 0;
  int n_sub = 0;  // subsets stored per reduction (0: the vectors are stored)
  Reducer by_w, by_wt;
  const std::uint32_t* delta_of(int t) const { return delta.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(n_words); }
  // One configuration: flip toggle bit t of the state (none when t < 0), then simulate the read
  // and evaluate the lemma on it: (read wavefronts of the worst instruction, lemma prediction).
  std::pair<int, int> (*step)(const Engine&, State&, int) = nullptr;
};

struct State {
  std::vector<std::uint32_t> words;  // laid out as Engine says
  std::vector<std::uint32_t> masks;
};

std::uint32_t word_of_offset(const Plan& pl, std::uint32_t off) {
  return pl.word_shift >= 0 ? off << pl.word_shift : off >> -pl.word_shift;
}

void put_vec(std::uint32_t* w, int i, BitVec v) {
  w[2 * i] = static_cast<std::uint32_t>(v);
  w[2 * i + 1] = static_cast<std::uint32_t>(v >> 32);
}
inline BitVec get_vec(const std::uint32_t* w, int i) { return BitVec{w[2 * i]} | (BitVec{w[2 * i + 1]} << 32); }

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
    e.kernel = pl.bank_mask < 32 ? sweep_kernel() : SweepKernel::Scalar;
    const int width = e.kernel == SweepKernel::Avx512 ? 16 : 8;
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
  return e;
}

// The state of a configuration, computed directly from its masks.
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

// Flip toggle bit t (row j, column vec_bits + k) in the masks themselves.
void flip_mask(const Engine& e, int t, State& st) {
  const int cols = e.pl->g.col_bits - e.pl->g.vec_bits;
  st.masks[static_cast<std::size_t>(t / cols)] ^= std::uint32_t{1} << (e.pl->g.vec_bits + t % cols);
}

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

#if SWZ_X86_KERNELS
// How many of w[0, n) and of w[n, 2n) are zero.
[[gnu::target("avx512f,popcnt"), gnu::always_inline]] inline std::pair<int, int> zero_counts_avx512(const std::uint32_t* w, int n) {
  const __m512i zero = _mm512_setzero_si512();
  if (n <= 16) {
    const auto m = static_cast<__mmask16>((1u << n) - 1);
    return {std::popcount(static_cast<unsigned>(_mm512_mask_cmpeq_epi32_mask(m, _mm512_maskz_loadu_epi32(m, w), zero))),
            std::popcount(static_cast<unsigned>(_mm512_mask_cmpeq_epi32_mask(m, _mm512_maskz_loadu_epi32(m, w + n), zero)))};
  }
  int z[2];
  for (int i = 0; i < 2; ++i)  // n == 32
    z[i] = std::popcount(static_cast<unsigned>(_mm512_cmpeq_epi32_mask(_mm512_loadu_si512(w + 32 * i), zero))) +
           std::popcount(static_cast<unsigned>(_mm512_cmpeq_epi32_mask(_mm512_loadu_si512(w + 32 * i + 16), zero)));
  return {z[0], z[1]};
}
#endif

// How many of w[0, n) and of w[n, 2n) are zero.
std::pair<int, int> zero_counts(const std::uint32_t* w, int n) {
  int a = 0, b = 0;
  for (int i = 0; i < n; ++i) {
    a += w[i] == 0;
    b += w[n + i] == 0;
  }
  return {a, b};
}

// Ranks from the subset XORs: the subsets whose XOR is zero form the kernel of
// (subset -> XOR of its vectors), of 2^(n - rank) elements.
inline std::pair<int, int> subset_ranks(const Engine& e, std::pair<int, int> zeros) {
  return {e.n_seg - std::countr_zero(static_cast<unsigned>(zeros.first)), e.n_seg - std::countr_zero(static_cast<unsigned>(zeros.second))};
}

// Lemma 9.4 from the configuration's segment vectors:
// dim(T ∩ (S+W)) - dim(T ∩ W), each via dim(A∩B) = dim A + dim B - dim(A+B), with
// dim(S+W) = dim W + rank(S mod W) and dim(T+S+W) = dim(T+W) + rank(S mod (T+W)).
inline int lemma_of_ranks(const Engine& e, std::pair<int, int> ranks) {
  const Plan& pl = *e.pl;
  const auto [rank_sw, rank_stw] = ranks;
  const int dim_sw = e.rank_w + rank_sw;
  const int dim_t_sw = e.rank_wt + rank_stw;
  const int bad = (pl.dim_t + dim_sw - dim_t_sw) - (pl.dim_t + e.nw - pl.rank_tw);
  return pl.phases << bad;
}

int lemma_of_state(const Engine& e, const State& st) {
  if (!e.lemma_linear) return lemma_prediction(*e.pl, st.masks.data());
  const std::uint32_t* w = st.words.data() + e.seg_off;
  return lemma_of_ranks(e, e.n_sub ? subset_ranks(e, zero_counts(w, e.n_sub)) : ranks_of(w, e.n_seg));
}

#if SWZ_X86_KERNELS
// ---- Bank counting -------------------------------------------------------------
//
// Eight instructions at once (AVX2): each 32-bit element of a vector is one
// instruction, its 32 bits the banks. Each lane of a phase contributes the
// one-hot (or words_per_lane-hot) bank bits of its address in every
// instruction; a carry-save adder tree (Harley-Seal) sums the lanes into
// bit-sliced counters, so plane p holds bit p of every bank's word count. The
// max over banks then falls out plane by plane from the top.

#define SWZ_AVX2 gnu::target("avx2"), gnu::always_inline

[[SWZ_AVX2]] inline void csa(__m256i& hi, __m256i& lo, __m256i a, __m256i b, __m256i c) {
  const __m256i u = _mm256_xor_si256(a, b);
  hi = _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(u, c));
  lo = _mm256_xor_si256(u, c);
}

// Bank bits of lane l in the eight instructions `sv`.
[[SWZ_AVX2]] inline __m256i lane_bits(const std::uint32_t* lw, int l, __m256i sv, __m256i pattern) {
  return _mm256_sllv_epi32(pattern, _mm256_xor_si256(sv, _mm256_set1_epi32(static_cast<int>(lw[l]))));
}

// Adds 8 lanes into (ones, twos, fours); returns the eights carry.
[[SWZ_AVX2]] inline __m256i add8(const std::uint32_t* lw, __m256i sv, __m256i pt, __m256i& ones, __m256i& twos, __m256i& fours) {
  __m256i twos_a, twos_b, fours_a, fours_b, eights;
  csa(twos_a, ones, ones, lane_bits(lw, 0, sv, pt), lane_bits(lw, 1, sv, pt));
  csa(twos_b, ones, ones, lane_bits(lw, 2, sv, pt), lane_bits(lw, 3, sv, pt));
  csa(fours_a, twos, twos, twos_a, twos_b);
  csa(twos_a, ones, ones, lane_bits(lw, 4, sv, pt), lane_bits(lw, 5, sv, pt));
  csa(twos_b, ones, ones, lane_bits(lw, 6, sv, pt), lane_bits(lw, 7, sv, pt));
  csa(fours_b, twos, twos, twos_a, twos_b);
  csa(eights, fours, fours, fours_a, fours_b);
  return eights;
}

// Adds 16 lanes into (ones, twos, fours, eights); returns the sixteens carry.
[[SWZ_AVX2]] inline __m256i add16(const std::uint32_t* lw, __m256i sv, __m256i pt, __m256i& ones, __m256i& twos, __m256i& fours,
                                  __m256i& eights) {
  const __m256i e_a = add8(lw, sv, pt, ones, twos, fours);
  const __m256i e_b = add8(lw + 8, sv, pt, ones, twos, fours);
  __m256i sixteens;
  csa(sixteens, eights, eights, e_a, e_b);
  return sixteens;
}

// Max over banks, per instruction: walk the planes from the top, keeping the banks
// whose count has every bit chosen so far; q collects the complement of the max.
[[SWZ_AVX2]] inline void walk(__m256i& cand, __m256i& q, __m256i plane) {
  const __m256i x = _mm256_and_si256(plane, cand);
  const __m256i none = _mm256_cmpeq_epi32(x, _mm256_setzero_si256());
  cand = _mm256_blendv_epi8(x, cand, none);
  q = _mm256_sub_epi32(_mm256_slli_epi32(q, 1), none);
}

// Per instruction: the largest bank count of one phase of N lanes (0: any count up to 63).
template <int N>
[[SWZ_AVX2]] inline __m256i phase_max_avx2(const std::uint32_t* lw, int lanes, __m256i sv, __m256i pt) {
  const __m256i zero = _mm256_setzero_si256();
  __m256i p0 = zero, p1 = zero, p2 = zero, p3 = zero, p4 = zero, p5 = zero;
  if constexpr (N == 32) {
    const __m256i s_a = add16(lw, sv, pt, p0, p1, p2, p3);
    const __m256i s_b = add16(lw + 16, sv, pt, p0, p1, p2, p3);
    p4 = _mm256_xor_si256(s_a, s_b);
    p5 = _mm256_and_si256(s_a, s_b);
  } else if constexpr (N == 16) {
    p4 = add16(lw, sv, pt, p0, p1, p2, p3);
  } else if constexpr (N == 8) {
    p3 = add8(lw, sv, pt, p0, p1, p2);
  } else {
    for (int l = 0; l < lanes; ++l) {  // ripple carry, one lane at a time
      __m256i c = lane_bits(lw, l, sv, pt), n;
      n = _mm256_and_si256(p0, c); p0 = _mm256_xor_si256(p0, c); c = n;
      n = _mm256_and_si256(p1, c); p1 = _mm256_xor_si256(p1, c); c = n;
      n = _mm256_and_si256(p2, c); p2 = _mm256_xor_si256(p2, c); c = n;
      n = _mm256_and_si256(p3, c); p3 = _mm256_xor_si256(p3, c); c = n;
      n = _mm256_and_si256(p4, c); p4 = _mm256_xor_si256(p4, c); c = n;
      p5 = _mm256_xor_si256(p5, c);
    }
  }
  __m256i cand = _mm256_set1_epi32(-1), q = zero;
  walk(cand, q, p5);
  walk(cand, q, p4);
  walk(cand, q, p3);
  walk(cand, q, p2);
  walk(cand, q, p1);
  walk(cand, q, p0);
  return _mm256_sub_epi32(_mm256_set1_epi32(63), q);
}

template <int N>
[[SWZ_AVX2]] inline int simulate_avx2(const Engine& e, const std::uint32_t* words) {
  const Plan& pl = *e.pl;
  const std::uint32_t* lanes = words;
  const std::uint32_t* instrs = lanes + e.instr_off;
  const std::uint32_t pattern = pl.words_per_lane >= 32 ? ~0u : (1u << pl.words_per_lane) - 1;
  const __m256i pt = _mm256_set1_epi32(static_cast<int>(pattern));
  const int pl_lanes = pl.phase_lanes, phases = pl.phases;
  __m256i worst = _mm256_setzero_si256();
  for (int s0 = 0; s0 < e.instr_stride; s0 += 8) {
    const __m256i sv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(instrs + s0));
    __m256i total = phase_max_avx2<N>(lanes, pl_lanes, sv, pt);
    for (int ph = 1; ph < phases; ++ph) total = _mm256_add_epi32(total, phase_max_avx2<N>(lanes + ph * pl_lanes, pl_lanes, sv, pt));
    worst = _mm256_max_epi32(worst, total);
  }
  __m128i m = _mm_max_epi32(_mm256_castsi256_si128(worst), _mm256_extracti128_si256(worst, 1));
  m = _mm_max_epi32(m, _mm_shuffle_epi32(m, 0x4E));
  m = _mm_max_epi32(m, _mm_shuffle_epi32(m, 0xB1));
  return _mm_cvtsi128_si32(m);
}

template <int N>
[[gnu::target("avx2")]] std::pair<int, int> step_avx2(const Engine& e, State& st, int t) {
  std::uint32_t* w = st.words.data();
  if (t >= 0) {
    if (e.need_masks) flip_mask(e, t, st);
    const std::uint32_t* d = e.delta_of(t);
    for (int i = 0; i < e.n_words; i += 8) {
      __m256i* p = reinterpret_cast<__m256i*>(w + i);
      _mm256_storeu_si256(p, _mm256_xor_si256(_mm256_loadu_si256(p), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(d + i))));
    }
  }
  const int sim = simulate_avx2<N>(e, w);
  return {sim, lemma_of_state(e, st)};
}

#undef SWZ_AVX2

// Sixteen instructions at once (AVX-512): the same adder tree, each full adder two ternary-logic ops.
#define SWZ_AVX512 gnu::target("avx512f"), gnu::always_inline

[[SWZ_AVX512]] inline void csa(__m512i& hi, __m512i& lo, __m512i a, __m512i b, __m512i c) {
  hi = _mm512_ternarylogic_epi32(a, b, c, 0xE8);  // majority
  lo = _mm512_ternarylogic_epi32(a, b, c, 0x96);  // parity
}

// (The zero-masked forms keep GCC's undefined-vector warnings out of the intrinsics headers.)
[[SWZ_AVX512]] inline __m512i lane_bits(const std::uint32_t* lw, int l, __m512i sv, __m512i pattern) {
  return _mm512_maskz_sllv_epi32(0xFFFF, pattern, _mm512_xor_si512(sv, _mm512_set1_epi32(static_cast<int>(lw[l]))));
}

[[SWZ_AVX512]] inline __m512i add8(const std::uint32_t* lw, __m512i sv, __m512i pt, __m512i& ones, __m512i& twos, __m512i& fours) {
  __m512i twos_a, twos_b, fours_a, fours_b, eights;
  csa(twos_a, ones, ones, lane_bits(lw, 0, sv, pt), lane_bits(lw, 1, sv, pt));
  csa(twos_b, ones, ones, lane_bits(lw, 2, sv, pt), lane_bits(lw, 3, sv, pt));
  csa(fours_a, twos, twos, twos_a, twos_b);
  csa(twos_a, ones, ones, lane_bits(lw, 4, sv, pt), lane_bits(lw, 5, sv, pt));
  csa(twos_b, ones, ones, lane_bits(lw, 6, sv, pt), lane_bits(lw, 7, sv, pt));
  csa(fours_b, twos, twos, twos_a, twos_b);
  csa(eights, fours, fours, fours_a, fours_b);
  return eights;
}

[[SWZ_AVX512]] inline __m512i add16(const std::uint32_t* lw, __m512i sv, __m512i pt, __m512i& ones, __m512i& twos, __m512i& fours,
                                    __m512i& eights) {
  const __m512i e_a = add8(lw, sv, pt, ones, twos, fours);
  const __m512i e_b = add8(lw + 8, sv, pt, ones, twos, fours);
  __m512i sixteens;
  csa(sixteens, eights, eights, e_a, e_b);
  return sixteens;
}

[[SWZ_AVX512]] inline void walk(__m512i& cand, __m512i& result, __m512i plane, int bit) {
  const __mmask16 any = _mm512_test_epi32_mask(plane, cand);  // some candidate bank has this bit
  cand = _mm512_mask_and_epi32(cand, any, cand, plane);
  result = _mm512_mask_or_epi32(result, any, result, _mm512_set1_epi32(bit));
}

template <int N>
[[SWZ_AVX512]] inline __m512i phase_max_avx512(const std::uint32_t* lw, int lanes, __m512i sv, __m512i pt) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i p0 = zero, p1 = zero, p2 = zero, p3 = zero, p4 = zero, p5 = zero;
  if constexpr (N == 32) {
    const __m512i s_a = add16(lw, sv, pt, p0, p1, p2, p3);
    const __m512i s_b = add16(lw + 16, sv, pt, p0, p1, p2, p3);
    p4 = _mm512_xor_si512(s_a, s_b);
    p5 = _mm512_and_si512(s_a, s_b);
  } else if constexpr (N == 16) {
    p4 = add16(lw, sv, pt, p0, p1, p2, p3);
  } else if constexpr (N == 8) {
    p3 = add8(lw, sv, pt, p0, p1, p2);
  } else {
    for (int l = 0; l < lanes; ++l) {
      __m512i c = lane_bits(lw, l, sv, pt), n;
      n = _mm512_and_si512(p0, c); p0 = _mm512_xor_si512(p0, c); c = n;
      n = _mm512_and_si512(p1, c); p1 = _mm512_xor_si512(p1, c); c = n;
      n = _mm512_and_si512(p2, c); p2 = _mm512_xor_si512(p2, c); c = n;
      n = _mm512_and_si512(p3, c); p3 = _mm512_xor_si512(p3, c); c = n;
      n = _mm512_and_si512(p4, c); p4 = _mm512_xor_si512(p4, c); c = n;
      p5 = _mm512_xor_si512(p5, c);
    }
  }
  __m512i cand = _mm512_set1_epi32(-1), result = zero;
  walk(cand, result, p5, 32);
  walk(cand, result, p4, 16);
  walk(cand, result, p3, 8);
  walk(cand, result, p2, 4);
  walk(cand, result, p1, 2);
  walk(cand, result, p0, 1);
  return result;
}

// Single: one phase and at most 16 instructions, so no loop (and nothing hoisted out of one).
template <int N, bool Single>
[[SWZ_AVX512]] inline int simulate_avx512(const Engine& e, const std::uint32_t* words) {
  const Plan& pl = *e.pl;
  const std::uint32_t* lanes = words;
  const std::uint32_t* instrs = lanes + e.instr_off;
  const std::uint32_t pattern = pl.words_per_lane >= 32 ? ~0u : (1u << pl.words_per_lane) - 1;
  const __m512i pt = _mm512_set1_epi32(static_cast<int>(pattern));
  const int pl_lanes = pl.phase_lanes, phases = pl.phases;
  __m512i worst;
  if constexpr (Single) {
    worst = phase_max_avx512<N>(lanes, pl_lanes, _mm512_loadu_si512(instrs), pt);
  } else {
    worst = _mm512_setzero_si512();
    for (int s0 = 0; s0 < e.instr_stride; s0 += 16) {
      const __m512i sv = _mm512_loadu_si512(instrs + s0);
      __m512i total = phase_max_avx512<N>(lanes, pl_lanes, sv, pt);
      for (int ph = 1; ph < phases; ++ph) total = _mm512_add_epi32(total, phase_max_avx512<N>(lanes + ph * pl_lanes, pl_lanes, sv, pt));
      worst = _mm512_maskz_max_epi32(0xFFFF, worst, total);
    }
  }
  // Max over the 16 instructions: halves, quarters, then within 128 bits.
  worst = _mm512_maskz_max_epi32(0xFFFF, worst, _mm512_maskz_shuffle_i32x4(0xFFFF, worst, worst, 0x4E));
  worst = _mm512_maskz_max_epi32(0xFFFF, worst, _mm512_maskz_shuffle_i32x4(0xFFFF, worst, worst, 0xB1));
  worst = _mm512_maskz_max_epi32(0xFFFF, worst, _mm512_maskz_shuffle_epi32(0xFFFF, worst, _MM_PERM_BADC));
  worst = _mm512_maskz_max_epi32(0xFFFF, worst, _mm512_maskz_shuffle_epi32(0xFFFF, worst, _MM_PERM_CDAB));
  return _mm512_cvtsi512_si32(worst);
}

template <int N, bool Single>
[[gnu::target("avx512f,popcnt")]] std::pair<int, int> step_avx512(const Engine& e, State& st, int t) {
  std::uint32_t* w = st.words.data();
  if (t >= 0) {
    if (e.need_masks) flip_mask(e, t, st);
    const std::uint32_t* d = e.delta_of(t);
    for (int i = 0; i < e.n_words; i += 16)
      _mm512_storeu_si512(w + i, _mm512_xor_si512(_mm512_loadu_si512(w + i), _mm512_loadu_si512(d + i)));
  }
  const int sim = simulate_avx512<N, Single>(e, w);
  if (e.n_sub) return {sim, lemma_of_ranks(e, subset_ranks(e, zero_counts_avx512(w + e.seg_off, e.n_sub)))};
  return {sim, lemma_of_state(e, st)};
}

#undef SWZ_AVX512
#endif  // SWZ_X86_KERNELS

SweepKernel widest_kernel() {
#if SWZ_X86_KERNELS
  static const SweepKernel k = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("popcnt") ? SweepKernel::Avx512
                               : __builtin_cpu_supports("avx2")  ? SweepKernel::Avx2
                                                                 : SweepKernel::Scalar;
  return k;
#else
  return SweepKernel::Scalar;
#endif
}

std::atomic<SweepKernel> kernel_cap{SweepKernel::Auto};

// Scalar: byte counters per bank, every lane of every instruction.
int simulate_scalar(const Engine& e, const State& st) {
  const Plan& pl = *e.pl;
  const std::uint32_t* lanes = st.words.data();
  const std::uint32_t* instrs = lanes + e.instr_off;
  const int phase_lanes = pl.phase_lanes, active_phases = pl.phases, words_per_lane = pl.words_per_lane;
  alignas(16) std::uint8_t count[64 + 4];
  int worst = 0;
  for (int s = 0; s < e.instrs; ++s) {
    const std::uint32_t step_word = instrs[s];
    int wavefronts = 0;
    for (int ph = 0; ph < active_phases; ++ph) {
      std::memset(count, 0, 64);
      const std::uint32_t* lw = lanes + ph * phase_lanes;
      if (words_per_lane == 1) {
        for (int l = 0; l < phase_lanes; ++l) ++count[step_word ^ lw[l]];
      } else {
        for (int l = 0; l < phase_lanes; ++l) {
          const std::uint32_t bank = step_word ^ lw[l];
          for (int k = 0; k < words_per_lane; ++k) ++count[bank + static_cast<std::uint32_t>(k)];
        }
      }
#if SWZ_X86_KERNELS
      // max of the 64 byte counters (SSE2)
      __m128i m = _mm_max_epu8(_mm_max_epu8(_mm_load_si128(reinterpret_cast<const __m128i*>(count)),
                                            _mm_load_si128(reinterpret_cast<const __m128i*>(count + 16))),
                               _mm_max_epu8(_mm_load_si128(reinterpret_cast<const __m128i*>(count + 32)),
                                            _mm_load_si128(reinterpret_cast<const __m128i*>(count + 48))));
      m = _mm_max_epu8(m, _mm_srli_si128(m, 8));
      m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
      m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
      m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
      wavefronts += _mm_cvtsi128_si32(m) & 0xFF;
#else
      wavefronts += *std::max_element(count, count + 64);
#endif
    }
    worst = std::max(worst, wavefronts);
  }
  return worst;
}

// Scalar path, and problems off the fast path (swz::simulate on the layout of the masks).
std::pair<int, int> step_generic(const Engine& e, State& st, int t) {
  const Plan& pl = *e.pl;
  if (t >= 0) {
    if (e.need_masks) flip_mask(e, t, st);
    std::uint32_t* w = st.words.data();
    const std::uint32_t* d = e.delta_of(t);
#if SWZ_X86_KERNELS
    for (int i = 0; i < e.n_words; i += 4) {
      __m128i* p = reinterpret_cast<__m128i*>(w + i);
      _mm_storeu_si128(p, _mm_xor_si128(_mm_loadu_si128(p), _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + i))));
    }
#else
    for (int i = 0; i < e.n_words; ++i) w[i] ^= d[i];
#endif
  }
  const Problem& p = *pl.p;
  const int simulated = pl.fast ? simulate_scalar(e, st) : simulate(p.read, p.layout_for_masks(st.masks), p.element_bits, p.bank).wavefronts;
  return {simulated, lemma_of_state(e, st)};
}

void choose_step(Engine& e) {
#if SWZ_X86_KERNELS
  const int lanes = e.pl->phase_lanes;
  if (e.kernel == SweepKernel::Avx512) {
    const bool single = e.instr_stride == 16 && e.pl->phases == 1;
    e.step = lanes == 32 ? (single ? &step_avx512<32, true> : &step_avx512<32, false>)
             : lanes == 16 ? (single ? &step_avx512<16, true> : &step_avx512<16, false>)
             : lanes == 8  ? (single ? &step_avx512<8, true> : &step_avx512<8, false>)
                           : &step_avx512<0, false>;
  } else if (e.kernel == SweepKernel::Avx2) {
    e.step = lanes == 32 ? &step_avx2<32> : lanes == 16 ? &step_avx2<16> : lanes == 8 ? &step_avx2<8> : &step_avx2<0>;
  } else {
    e.step = &step_generic;
  }
#else
  e.step = &step_generic;
#endif
}

}  // namespace

SweepKernel sweep_kernel() {
  const SweepKernel widest = widest_kernel(), cap = kernel_cap.load();
  return cap == SweepKernel::Auto ? widest : std::min(cap, widest);
}

void set_sweep_kernel(SweepKernel kernel) { kernel_cap.store(kernel); }

std::pair<int, int> sweep_evaluate(const Problem& problem, const std::vector<std::uint32_t>& masks) {
  const Plan pl = make_plan(problem);
  std::vector<std::uint32_t> m = masks;
  m.resize(static_cast<std::size_t>(pl.row_bits), 0);
  problem.layout_for_masks(m);  // validates
  Engine e = make_engine(pl);
  choose_step(e);
  State st;
  load_state(e, m, st);
  return e.step(e, st, -1);
}

SweepResult sweep(const Problem& problem, const std::function<void(std::int64_t, std::int64_t)>& progress, int threads) {
  const auto start = std::chrono::steady_clock::now();
  const Plan pl = make_plan(problem);
  Engine eng = make_engine(pl);
  choose_step(eng);
  SweepResult r;
  r.configs = std::int64_t{1} << pl.g.configs_log2();
  r.fast_path = pl.fast;
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = static_cast<int>(std::min<std::int64_t>(threads, std::max<std::int64_t>(1, r.configs / 1024)));
  r.threads = threads;
  const int ideal = pl.phases;
  struct Partial {
    std::map<int, std::int64_t> histogram;
    std::int64_t conflict_free = 0, agrees = 0;
    std::int64_t first_bad = -1;  // smallest configuration index where the lemma differs
  };
  std::vector<Partial> parts(static_cast<std::size_t>(threads));
  std::atomic<std::int64_t> done{0};
  // Each worker takes a run of Gray-code positions: position i is configuration i ^ (i >> 1), and
  // position i differs from position i - 1 in toggle bit countr_zero(i).
  auto work = [&](int t) {
    Partial& part = parts[static_cast<std::size_t>(t)];
    const std::int64_t lo = r.configs * t / threads, hi = r.configs * (t + 1) / threads;
    if (lo >= hi) return;
    std::vector<std::int64_t> local_hist(1024, 0);
    std::int64_t batch = 0;
    State st;
    {
      std::vector<std::uint32_t> masks;
      fill_masks(pl.g, static_cast<std::uint64_t>(lo ^ (lo >> 1)), masks);
      load_state(eng, masks, st);
    }
    for (std::int64_t i = lo; i < hi; ++i) {
      const auto [sim, pred] = eng.step(eng, st, i > lo ? std::countr_zero(static_cast<std::uint64_t>(i)) : -1);
      if (sim < 1024) ++local_hist[static_cast<std::size_t>(sim)];
      else ++part.histogram[sim];
      if (sim == ideal) ++part.conflict_free;
      if (sim == pred) {
        ++part.agrees;
      } else {
        const std::int64_t c = i ^ (i >> 1);
        if (part.first_bad < 0 || c < part.first_bad) part.first_bad = c;
      }
      if (++batch == 4096) { done += batch; batch = 0; }
    }
    done += batch;
    for (std::size_t w = 0; w < local_hist.size(); ++w)
      if (local_hist[w]) part.histogram[static_cast<int>(w)] += local_hist[w];
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  if (progress) {
    // Progress every 50 ms, woken early when the work ends: the elapsed time is the work's own.
    std::mutex m;
    std::condition_variable finished;
    bool main_done = false;
    std::thread main_part([&] {
      work(0);
      {
        const std::lock_guard<std::mutex> lock(m);
        main_done = true;
      }
      finished.notify_one();
    });
    {
      std::unique_lock<std::mutex> lock(m);
      while (!main_done) {
        lock.unlock();
        progress(done.load(), r.configs);
        lock.lock();
        finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return main_done; });
      }
    }
    main_part.join();
    progress(r.configs, r.configs);
  } else {
    work(0);
  }
  for (auto& th : pool) th.join();
  std::int64_t first_bad = -1;
  for (const auto& part : parts) {
    for (const auto& [w, n] : part.histogram) r.histogram[w] += n;
    r.conflict_free += part.conflict_free;
    r.lemma_agrees += part.agrees;
    if (part.first_bad >= 0 && (first_bad < 0 || part.first_bad < first_bad)) first_bad = part.first_bad;
  }
  if (first_bad >= 0) r.first_disagreement = masks_of_config(pl.g, static_cast<std::uint64_t>(first_bad));
  r.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace swz
