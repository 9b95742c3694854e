// sweep_kernel.cpp: the bank counting of the sweep's fast path, and its step.
//
// One kernel, written once over GCC/Clang vector types (element-wise ^ & | ~ <<,
// comparisons giving -1/0 masks) and instantiated per vector width:
//   - portable (SweepKernel::Scalar): 16-byte vectors with no target attribute, which
//     the compiler lowers to the baseline ISA (SSE2 on x86-64, NEON on AArch64,
//     plain scalar code where there is no SIMD);
//   - AVX2 (32 bytes) and AVX-512 (64 bytes): the same template compiled with
//     [[gnu::target]], on x86-64 builds with SWZ_SIMD on, chosen at run time.
// Each element of a vector is one instruction, its bits the banks (32-bit
// elements for up to 32 banks, 64-bit ones for 64). Each lane of a phase adds the
// one-hot (or words_per_lane-hot) bank bits of its address in every instruction;
// a carry-save adder tree (Harley-Seal) sums the lanes into bit-sliced counters,
// so plane p holds bit p of every bank's word count. The max over banks then
// falls out plane by plane from the top.
//
// Vectors pass between the helpers by reference only: a vector wider than the
// baseline ISA's registers passed by value would change the calling convention
// (GCC and Clang warn, -Wpsabi); everything is inlined into the step functions.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <type_traits>
#include <utility>

#include "sweep_engine.h"
#include "swz/sim/analysis.h"

// The AVX2 / AVX-512 instantiations exist on x86-64 builds with SWZ_SIMD on.
#if defined(SWZ_SIMD) && SWZ_SIMD && defined(__x86_64__)
#define SWZ_X86_KERNELS 1
#else
#define SWZ_X86_KERNELS 0
#endif

namespace swz {

namespace sweep_detail {

namespace {

template <class T, int N>
struct VecOf {
  typedef T type __attribute__((vector_size(sizeof(T) * N)));
};
// N elements of T.
template <class T, int N>
using Vec = typename VecOf<T, N>::type;
template <class V>
using Elem = std::remove_cvref_t<decltype(std::declval<V&>()[0])>;
template <class V>
inline constexpr int kLanes = static_cast<int>(sizeof(V) / sizeof(Elem<V>));
// 32-bit words of the same size as V.
template <class V>
using Words = Vec<std::uint32_t, static_cast<int>(sizeof(V) / 4)>;

#define SWZ_VEC gnu::always_inline

template <class V>
[[SWZ_VEC]] inline void load(V& v, const std::uint32_t* p) {
  if constexpr (sizeof(Elem<V>) == 4) {
    std::memcpy(&v, p, sizeof v);
  } else {
    Vec<std::uint32_t, kLanes<V>> w;
    std::memcpy(&w, p, sizeof w);
    v = __builtin_convertvector(w, V);
  }
}

// Element 0 of t in every element of v.
template <class V, std::size_t... I>
[[SWZ_VEC]] inline void broadcast0(V& v, const V& t, std::index_sequence<I...>) {
  v = __builtin_shufflevector(t, t, static_cast<int>(I * 0)...);
}

// x in every element. (Not `V{} + x`: GCC builds that element by element in a
// function without the vector's ISA, and this one is inlined into such functions.)
template <class V>
[[SWZ_VEC]] inline void splat(V& v, Elem<V> x) {
  V t = {};
  std::memcpy(&t, &x, sizeof x);
  broadcast0(v, t, std::make_index_sequence<kLanes<V>>{});
}

// p[0] in every element, from a load of a whole vector's worth of words at p (a broadcast load).
template <class V>
[[SWZ_VEC]] inline void splat_at(V& v, const std::uint32_t* p) {
  using W = Vec<std::uint32_t, kLanes<V>>;
  W t;
  std::memcpy(&t, p, sizeof t);
  broadcast0(t, t, std::make_index_sequence<kLanes<V>>{});
  v = __builtin_convertvector(t, V);
}

template <class V>
[[SWZ_VEC]] inline void vmax(V& a, const V& b) {
  a = a > b ? a : b;
}

// Largest (Max) or sum of the elements.
template <bool Max, class V>
[[SWZ_VEC]] inline Elem<V> reduce(const V& v) {
  constexpr int n = kLanes<V>;
  if constexpr (n == 2) {
    return Max ? std::max(v[0], v[1]) : v[0] + v[1];
  } else if constexpr (n == 4) {
    V a = v;
    const V b = __builtin_shufflevector(v, v, 2, 3, 2, 3);
    if constexpr (Max) vmax(a, b); else a += b;
    return Max ? std::max(a[0], a[1]) : a[0] + a[1];
  } else {
    using H = Vec<Elem<V>, n / 2>;
    H lo, hi;
    std::memcpy(&lo, &v, sizeof lo);
    std::memcpy(&hi, reinterpret_cast<const char*>(&v) + sizeof lo, sizeof hi);
    if constexpr (Max) vmax(lo, hi); else lo += hi;
    return reduce<Max>(lo);
  }
}

// Full adder on every bit: (hi, lo) = a + b + c, hi the majority (three ternary-logic
// ops on AVX-512 as GCC 12 and Clang 14 fold this form, five ops on AVX2).
template <class V>
[[SWZ_VEC]] inline void csa(V& hi, V& lo, const V& a, const V& b, const V& c) {
  const V u = a ^ b, h = b ^ (u & (b ^ c));
  lo = u ^ c;
  hi = h;
}

// Bank bits of lane l in the instructions `sv` (reads lw up to l + the vector's elements:
// the state's instruction words follow the lanes).
template <class V>
[[SWZ_VEC]] inline void lane_bits(V& out, const std::uint32_t* lw, int l, const V& sv, const V& pattern) {
  V x;
  splat_at(x, lw + l);
  out = pattern << (sv ^ x);
}

// Adds 8 lanes into (ones, twos, fours); `eights` gets the carry.
template <class V>
[[SWZ_VEC]] inline void add8(V& eights, const std::uint32_t* lw, const V& sv, const V& pt, V& ones, V& twos, V& fours) {
  V a, b, twos_a, twos_b, fours_a, fours_b;
  lane_bits(a, lw, 0, sv, pt), lane_bits(b, lw, 1, sv, pt), csa(twos_a, ones, ones, a, b);
  lane_bits(a, lw, 2, sv, pt), lane_bits(b, lw, 3, sv, pt), csa(twos_b, ones, ones, a, b);
  csa(fours_a, twos, twos, twos_a, twos_b);
  lane_bits(a, lw, 4, sv, pt), lane_bits(b, lw, 5, sv, pt), csa(twos_a, ones, ones, a, b);
  lane_bits(a, lw, 6, sv, pt), lane_bits(b, lw, 7, sv, pt), csa(twos_b, ones, ones, a, b);
  csa(fours_b, twos, twos, twos_a, twos_b);
  csa(eights, fours, fours, fours_a, fours_b);
}

// Adds 16 lanes into (ones, twos, fours, eights); `sixteens` gets the carry.
template <class V>
[[SWZ_VEC]] inline void add16(V& sixteens, const std::uint32_t* lw, const V& sv, const V& pt, V& ones, V& twos, V& fours,
                              V& eights) {
  V e_a, e_b;
  add8(e_a, lw, sv, pt, ones, twos, fours);
  add8(e_b, lw + 8, sv, pt, ones, twos, fours);
  csa(sixteens, eights, eights, e_a, e_b);
}

// Max over banks, per instruction: walk the planes from the top, keeping the banks
// whose count has every bit chosen so far; q collects the complement of the max.
template <class V>
[[SWZ_VEC]] inline void walk(V& cand, V& q, const V& plane) {
  const V x = plane & cand;
  const auto none = x == 0;
  cand = none ? cand : x;
  q = (q << 1) - (V)none;
}

// Per instruction: the largest bank count of one phase of N lanes (0: any number of
// lanes, counts up to 127).
template <class V, int N>
[[SWZ_VEC]] inline void phase_max(V& max, const std::uint32_t* lw, int lanes, const V& sv, const V& pt) {
  constexpr int planes = N == 0 ? 7 : 6;
  V p[planes] = {};
  if constexpr (N == 32) {
    V s_a, s_b;
    add16(s_a, lw, sv, pt, p[0], p[1], p[2], p[3]);
    add16(s_b, lw + 16, sv, pt, p[0], p[1], p[2], p[3]);
    p[4] = s_a ^ s_b;
    p[5] = s_a & s_b;
  } else if constexpr (N == 16) {
    add16(p[4], lw, sv, pt, p[0], p[1], p[2], p[3]);
  } else if constexpr (N == 8) {
    add8(p[3], lw, sv, pt, p[0], p[1], p[2]);
  } else {
    for (int l = 0; l < lanes; ++l) {  // ripple carry, one lane at a time
      V c;
      lane_bits(c, lw, l, sv, pt);
#pragma GCC unroll 8
      for (int k = 0; k < planes - 1; ++k) {
        const V n = p[k] & c;
        p[k] ^= c;
        c = n;
      }
      p[planes - 1] ^= c;
    }
  }
  constexpr Elem<V> top = (Elem<V>{1} << planes) - 1;
  V cand = ~V{}, q = {};
#pragma GCC unroll 8
  for (int k = planes - 1; k >= 0; --k) walk(cand, q, p[k]);
  max = q ^ top;  // top - q
}

// Read wavefronts of the worst instruction. Single: one phase and one vector of
// instructions, so no loop (and nothing hoisted out of one).
template <class V, int N, bool Single>
[[SWZ_VEC]] inline int simulate_fast(const Engine& e, const std::uint32_t* words) {
  using T = Elem<V>;
  const Plan& pl = *e.pl;
  const std::uint32_t* lanes = words;
  const std::uint32_t* instrs = lanes + e.instr_off;
  V pt;
  splat(pt, static_cast<T>((T{1} << pl.words_per_lane) - 1));  // words_per_lane <= 4
  const int pl_lanes = pl.phase_lanes, phases = pl.phases;
  V worst, sv;
  if constexpr (Single) {
    load(sv, instrs);
    phase_max<V, N>(worst, lanes, pl_lanes, sv, pt);
  } else {
    worst = V{};
    for (int s0 = 0; s0 < e.instr_stride; s0 += kLanes<V>) {
      load(sv, instrs + s0);
      V total, m;
      phase_max<V, N>(total, lanes, pl_lanes, sv, pt);
      for (int ph = 1; ph < phases; ++ph) {
        phase_max<V, N>(m, lanes + ph * pl_lanes, pl_lanes, sv, pt);
        total += m;
      }
      vmax(worst, total);
    }
  }
  return static_cast<int>(reduce<true>(worst));
}

// Lemma 9.4 from the subset XORs `w` (e.n_sub mod W, then e.n_sub mod W + T): the zero
// ones counted with weights 1 and 256 in one sum.
template <class V>
[[SWZ_VEC]] inline int lemma_of_subsets(const Engine& e, const std::uint32_t* w) {
  using U = Words<V>;
  const std::uint32_t* weight = e.zero_weight.data();
  U sum = {};
  for (int i = 0; i < 2 * e.n_sub; i += kLanes<U>) {
    U x, wt;
    std::memcpy(&x, w + i, sizeof x);
    std::memcpy(&wt, weight + i, sizeof wt);
    sum += (U)(x == 0) & wt;
  }
  const std::uint32_t zeros = reduce<false>(sum);
  return lemma_of_ranks(e, subset_rank(e, static_cast<int>(zeros & 255)), subset_rank(e, static_cast<int>(zeros >> 8)));
}

// One configuration on the fast path: flip toggle bit t (none when t < 0), count banks, evaluate the lemma.
template <class V, int N, bool Single>
[[SWZ_VEC]] inline std::pair<int, int> step_fast(const Engine& e, State& st, int t) {
  using U = Words<V>;
  std::uint32_t* w = st.words.data();
  if (t >= 0) {
    if (e.need_masks) flip_mask(e, t, st);
    const std::uint32_t* d = e.delta_of(t);
    for (int i = 0; i < e.n_words; i += kLanes<U>) {
      U a, b;
      std::memcpy(&a, w + i, sizeof a);
      std::memcpy(&b, d + i, sizeof b);
      a ^= b;
      std::memcpy(w + i, &a, sizeof a);
    }
  }
  const int sim = simulate_fast<V, N, Single>(e, w);
  if (e.n_sub) return {sim, lemma_of_subsets<V>(e, w + e.seg_off)};
  return {sim, lemma_of_state(e, st)};
}

#undef SWZ_VEC

// The instantiations: Bytes-wide vectors of T (32-bit elements up to 32 banks, 64-bit for 64).
struct Portable {
  static constexpr int bytes = 16;
  template <int N, bool Single, class T>
  static std::pair<int, int> step(const Engine& e, State& st, int t) {
    return step_fast<Vec<T, bytes / static_cast<int>(sizeof(T))>, N, Single>(e, st, t);
  }
};

#if SWZ_X86_KERNELS
struct Avx2 {
  static constexpr int bytes = 32;
  template <int N, bool Single, class T>
  [[gnu::target("avx2")]] static std::pair<int, int> step(const Engine& e, State& st, int t) {
    return step_fast<Vec<T, bytes / static_cast<int>(sizeof(T))>, N, Single>(e, st, t);
  }
};

struct Avx512 {
  static constexpr int bytes = 64;
  template <int N, bool Single, class T>
  [[gnu::target("avx512f")]] static std::pair<int, int> step(const Engine& e, State& st, int t) {
    return step_fast<Vec<T, bytes / static_cast<int>(sizeof(T))>, N, Single>(e, st, t);
  }
};
#endif

using StepFn = std::pair<int, int> (*)(const Engine&, State&, int);

template <class K>
StepFn pick(const Engine& e) {
  using U32 = std::uint32_t;
  if (e.wide_banks) return &K::template step<0, false, std::uint64_t>;
  const bool single = e.instr_stride == K::bytes / 4 && e.pl->phases == 1;
  switch (e.pl->phase_lanes) {
    case 32: return single ? &K::template step<32, true, U32> : &K::template step<32, false, U32>;
    case 16: return single ? &K::template step<16, true, U32> : &K::template step<16, false, U32>;
    case 8: return single ? &K::template step<8, true, U32> : &K::template step<8, false, U32>;
    default: return &K::template step<0, false, U32>;
  }
}

// Problems off the fast path: swz::simulate on the layout of the masks.
std::pair<int, int> step_simulate(const Engine& e, State& st, int t) {
  if (t >= 0) {
    if (e.need_masks) flip_mask(e, t, st);
    std::uint32_t* w = st.words.data();
    const std::uint32_t* d = e.delta_of(t);
    for (int i = 0; i < e.n_words; ++i) w[i] ^= d[i];
  }
  const Problem& p = *e.pl->p;
  return {simulate(*e.pl->access, p.layout_for_masks(st.masks), p.element_bits, p.bank).wavefronts, lemma_of_state(e, st)};
}

std::atomic<SweepKernel> kernel_cap{SweepKernel::Auto};

}  // namespace

SweepKernel widest_kernel() {
#if SWZ_X86_KERNELS
  static const SweepKernel k = __builtin_cpu_supports("avx512f") ? SweepKernel::Avx512
                               : __builtin_cpu_supports("avx2")  ? SweepKernel::Avx2
                                                                 : SweepKernel::Scalar;
  return k;
#else
  return SweepKernel::Scalar;
#endif
}

int kernel_width(SweepKernel kernel, bool wide_banks) {
#if SWZ_X86_KERNELS
  const int bytes = kernel == SweepKernel::Avx512 ? Avx512::bytes : kernel == SweepKernel::Avx2 ? Avx2::bytes : Portable::bytes;
#else
  (void)kernel;
  const int bytes = Portable::bytes;
#endif
  return bytes / (wide_banks ? 8 : 4);
}

void choose_step(Engine& e) {
  if (!e.pl->fast) {
    e.step = &step_simulate;
    return;
  }
#if SWZ_X86_KERNELS
  if (e.kernel == SweepKernel::Avx512) {
    e.step = pick<Avx512>(e);
    return;
  }
  if (e.kernel == SweepKernel::Avx2) {
    e.step = pick<Avx2>(e);
    return;
  }
#endif
  e.step = pick<Portable>(e);
}

}  // namespace sweep_detail

SweepKernel sweep_kernel() {
  const SweepKernel widest = sweep_detail::widest_kernel(), cap = sweep_detail::kernel_cap.load();
  return cap == SweepKernel::Auto ? widest : std::min(cap, widest);
}

void set_sweep_kernel(SweepKernel kernel) { sweep_detail::kernel_cap.store(kernel); }

}  // namespace swz
