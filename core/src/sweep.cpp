#include "swz/sweep.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <thread>

#include <emmintrin.h>
#include <immintrin.h>

#include "swz/analysis.h"
#include "swz/error.h"
#include "swz/factories.h"

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
  Access sized = p.read;
  sized.vec_bits = v.bits;
  pl.phase_lanes = lanes_per_phase(sized, pl.lane_bits, p.bank);
  const int active = p.read.ldmatrix ? 8 * p.read.ldmatrix : (1 << pl.lane_bits);
  pl.phases = active / pl.phase_lanes;
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
  // word = offset * element_bits / 32; vectors of whole words make the right shift exact.
  pl.word_shift = std::countr_zero(static_cast<unsigned>(p.element_bits)) - 5;
  pl.bank_mask = static_cast<std::uint32_t>(p.bank.banks - 1);
  // Lemma constants.
  const int pb = std::countr_zero(static_cast<unsigned>(pl.phase_lanes));
  for (int i = 0; i < pb; ++i)
    if (L.bases("lane")[static_cast<std::size_t>(i)]) pl.threads.push_back(L.bases("lane")[static_cast<std::size_t>(i)]);
  const int ebits_log = std::countr_zero(static_cast<unsigned>(p.element_bits));
  pl.within_word = std::max(0, 5 - ebits_log);
  pl.seg_start = std::max(0, std::countr_zero(static_cast<unsigned>(p.bank.banks)) + 5 - ebits_log);
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

// Eight instructions at once (AVX2): each 32-bit lane of a vector is one
// instruction's bank mask. Every lane of the warp adds its one-hot bank bits
// into bit-sliced counters (carry-save adds), so after a phase plane p holds
// bit p of each bank's word count; the max over banks falls out plane by plane.
//   counts:  planes[5..0]  (bit p of the count of bank b = bit b of planes[p])
__attribute__((target("avx2"))) int phase_max_avx2(const std::uint32_t* lane_words, int lanes, __m256i steps,
                                                   std::uint32_t bank_mask, std::uint32_t word_bits_mask, __m256i* out_max) {
  const __m256i bm = _mm256_set1_epi32(static_cast<int>(bank_mask));
  const __m256i pattern = _mm256_set1_epi32(static_cast<int>(word_bits_mask));
  // Six named planes (counts up to 63 >= 32 lanes) so they stay in registers.
  __m256i p0 = _mm256_setzero_si256(), p1 = p0, p2 = p0, p3 = p0, p4 = p0, p5 = p0;
  for (int l = 0; l < lanes; ++l) {
    const __m256i bank = _mm256_and_si256(_mm256_xor_si256(steps, _mm256_set1_epi32(static_cast<int>(lane_words[l]))), bm);
    __m256i c = _mm256_sllv_epi32(pattern, bank), n;
    n = _mm256_and_si256(p0, c); p0 = _mm256_xor_si256(p0, c); c = n;
    n = _mm256_and_si256(p1, c); p1 = _mm256_xor_si256(p1, c); c = n;
    n = _mm256_and_si256(p2, c); p2 = _mm256_xor_si256(p2, c); c = n;
    n = _mm256_and_si256(p3, c); p3 = _mm256_xor_si256(p3, c); c = n;
    n = _mm256_and_si256(p4, c); p4 = _mm256_xor_si256(p4, c); c = n;
    p5 = _mm256_xor_si256(p5, c);
  }
  // Max over banks, per instruction: walk planes from the top keeping the banks that have the bit.
  const __m256i planes[6] = {p0, p1, p2, p3, p4, p5};
  __m256i cand = _mm256_set1_epi32(-1), result = _mm256_setzero_si256();
  for (int p = 5; p >= 0; --p) {
    const __m256i x = _mm256_and_si256(planes[p], cand);
    const __m256i nonzero = _mm256_xor_si256(_mm256_cmpeq_epi32(x, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
    cand = _mm256_blendv_epi8(cand, x, nonzero);
    result = _mm256_or_si256(result, _mm256_and_si256(nonzero, _mm256_set1_epi32(1 << p)));
  }
  *out_max = result;
  return 0;
}

__attribute__((target("avx2"))) int simulate_avx2(const std::uint32_t* lane_words, const std::uint32_t* step_words, int steps,
                                                  int phase_lanes, int phases, int words_per_lane, std::uint32_t bank_mask) {
  const std::uint32_t pattern = words_per_lane >= 32 ? ~0u : (1u << words_per_lane) - 1;
  int worst = 0;
  for (int s0 = 0; s0 < steps; s0 += 8) {
    alignas(32) std::uint32_t sw[8];
    for (int i = 0; i < 8; ++i) sw[i] = step_words[std::min(s0 + i, steps - 1)];
    const __m256i sv = _mm256_load_si256(reinterpret_cast<const __m256i*>(sw));
    __m256i total = _mm256_setzero_si256();
    for (int ph = 0; ph < phases; ++ph) {
      __m256i m;
      phase_max_avx2(lane_words + ph * phase_lanes, phase_lanes, sv, bank_mask, pattern, &m);
      total = _mm256_add_epi32(total, m);
    }
    alignas(32) std::uint32_t t[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(t), total);
    for (int i = 0; i < 8; ++i) worst = std::max(worst, static_cast<int>(t[i]));
  }
  return worst;
}

bool have_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}

// Brute force over every instruction; addresses from per-bit images (the layout is linear).
int simulate_fast(const Plan& pl, const std::uint32_t* masks) {
  auto image = [&](const std::pair<std::uint32_t, std::uint32_t>& b) {
    const auto off = static_cast<std::uint32_t>(grid_offset(pl, masks, b.first, b.second));
    return pl.word_shift >= 0 ? off << pl.word_shift : off >> -pl.word_shift;
  };
  std::uint32_t lane_words[64];
  {
    std::uint32_t lane_img[8];
    for (int i = 0; i < pl.lane_bits; ++i) lane_img[i] = image(pl.lane_bases[static_cast<std::size_t>(i)]);
    lane_words[0] = 0;
    for (int l = 1; l < (1 << pl.lane_bits); ++l) lane_words[l] = lane_words[l & (l - 1)] ^ lane_img[std::countr_zero(static_cast<unsigned>(l))];
  }
  std::uint32_t step_img[32], warp_img[16];
  const int ns = static_cast<int>(pl.step_bases.size()), nwarp = static_cast<int>(pl.warp_bases.size());
  for (int i = 0; i < ns; ++i) step_img[i] = image(pl.step_bases[static_cast<std::size_t>(i)]);
  for (int i = 0; i < nwarp; ++i) warp_img[i] = image(pl.warp_bases[static_cast<std::size_t>(i)]);
  if (pl.bank_mask < 32 && have_avx2()) {
    thread_local std::vector<std::uint32_t> step_words;
    step_words.resize(std::size_t{1} << ns);
    int worst = 0;
    std::uint32_t warp_word = 0;
    for (int w = 0; w < (1 << nwarp); ++w) {
      if (w) warp_word ^= warp_img[std::countr_zero(static_cast<unsigned>(w))];
      step_words[0] = warp_word;
      for (int st = 1; st < (1 << ns); ++st) step_words[static_cast<std::size_t>(st)] = step_words[static_cast<std::size_t>(st & (st - 1))] ^ step_img[std::countr_zero(static_cast<unsigned>(st))];
      worst = std::max(worst, simulate_avx2(lane_words, step_words.data(), 1 << ns, pl.phase_lanes, pl.phases, pl.words_per_lane, pl.bank_mask));
    }
    return worst;
  }
  // Hot loop: locals only (the byte counters alias everything, so nothing is read through `pl`).
  const int phase_lanes = pl.phase_lanes, active_phases = pl.phases, words_per_lane = pl.words_per_lane;
  const std::uint32_t bank_mask = pl.bank_mask;
  alignas(16) std::uint8_t count[64 + 4];
  int worst = 0;
  std::uint32_t warp_word = 0;
  for (int w = 0; w < (1 << nwarp); ++w) {
    if (w) warp_word ^= warp_img[std::countr_zero(static_cast<unsigned>(w))];
    std::uint32_t step_word = warp_word;
    for (int s = 0; s < (1 << ns); ++s) {
      if (s) step_word ^= step_img[std::countr_zero(static_cast<unsigned>(s))];
      int wavefronts = 0;
      for (int ph = 0; ph < active_phases; ++ph) {
        std::memset(count, 0, 64);
        const std::uint32_t* lw = lane_words + ph * phase_lanes;
        if (words_per_lane == 1) {
          for (int l = 0; l < phase_lanes; ++l) ++count[(step_word ^ lw[l]) & bank_mask];
        } else {
          for (int l = 0; l < phase_lanes; ++l) {
            const std::uint32_t bank = (step_word ^ lw[l]) & bank_mask;
            for (int k = 0; k < words_per_lane; ++k) ++count[bank + static_cast<std::uint32_t>(k)];
          }
        }
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
      }
      worst = std::max(worst, wavefronts);
    }
  }
  return worst;
}

std::pair<int, int> evaluate(const Plan& pl, const std::vector<std::uint32_t>& masks) {
  const Problem& p = *pl.p;
  int simulated;
  if (pl.fast) {
    simulated = simulate_fast(pl, masks.data());
  } else {
    simulated = simulate(p.read, p.layout_for_masks(masks), p.element_bits, p.bank).wavefronts;
  }
  return {simulated, lemma_prediction(pl, masks.data())};
}

}  // namespace

std::pair<int, int> sweep_evaluate(const Problem& problem, const std::vector<std::uint32_t>& masks) {
  const Plan pl = make_plan(problem);
  std::vector<std::uint32_t> m = masks;
  m.resize(static_cast<std::size_t>(pl.row_bits), 0);
  problem.layout_for_masks(m);  // validates
  return evaluate(pl, m);
}

SweepResult sweep(const Problem& problem, const std::function<void(std::int64_t, std::int64_t)>& progress, int threads) {
  const auto start = std::chrono::steady_clock::now();
  const Plan pl = make_plan(problem);
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
    std::int64_t first_bad = -1;
  };
  std::vector<Partial> parts(static_cast<std::size_t>(threads));
  std::atomic<std::int64_t> done{0};
  auto work = [&](int t) {
    Partial& part = parts[static_cast<std::size_t>(t)];
    const std::int64_t lo = r.configs * t / threads, hi = r.configs * (t + 1) / threads;
    std::vector<int> local_hist(1024, 0);
    std::int64_t batch = 0;
    std::vector<std::uint32_t> masks;
    for (std::int64_t c = lo; c < hi; ++c) {
      fill_masks(pl.g, static_cast<std::uint64_t>(c), masks);
      const auto [sim, pred] = evaluate(pl, masks);
      if (sim < 1024) ++local_hist[static_cast<std::size_t>(sim)];
      else ++part.histogram[sim];
      if (sim == ideal) ++part.conflict_free;
      if (sim == pred) ++part.agrees;
      else if (part.first_bad < 0) part.first_bad = c;
      if (++batch == 4096) { done += batch; batch = 0; }
    }
    done += batch;
    for (std::size_t w = 0; w < local_hist.size(); ++w)
      if (local_hist[w]) part.histogram[static_cast<int>(w)] += local_hist[w];
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  if (progress) {
    std::thread main_part(work, 0);
    while (done.load() < r.configs) {
      progress(done.load(), r.configs);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
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
    if (first_bad < 0 && part.first_bad >= 0) first_bad = part.first_bad;
  }
  if (first_bad >= 0) r.first_disagreement = masks_of_config(pl.g, static_cast<std::uint64_t>(first_bad));
  r.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace swz
