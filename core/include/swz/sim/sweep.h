// sweep.h: every configuration of a toggle grid, simulated and predicted.
//
// A grid of R row bits and K toggleable column bits has 2^(R*K) mask sets
// (2^20 for the seed). For each one the read access is simulated lane by
// lane, bank by bank (every instruction of every warp), and Lemma 9.4 is
// evaluated independently from the segment bases; the sweep reports the
// histogram of read wavefronts, how many sets read conflict-free and how
// many the lemma predicts exactly.
//
// Speed: a grid layout is linear, so each lane's and each instruction's bank
// is the XOR of per-bit images, and flipping one toggle bit changes them (and
// the lemma's segment vectors) by one precomputed delta. Each worker walks its
// share of the configurations in Gray-code order, updating that state with one
// delta per step, then simulates every lane of every instruction and evaluates
// the lemma from the updated segment vectors (their ranks by counting the
// subsets whose XOR vanishes, or by elimination), for each configuration.
// The bank counting adds the lanes' one-hot bank bits in a
// carry-save adder tree, one instruction per vector element: one kernel over
// GCC/Clang vector types, instantiated for 16-byte vectors (portable: SSE2,
// NEON or scalar code), and on x86-64 for AVX2 and AVX-512 (chosen at run
// time). Problems the fast path does not cover
// (sub-word elements, broadcast, the LDS.128 merge) run through swz::simulate
// unchanged.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "swz/problem/problem.h"

namespace swz {

struct SweepResult {
  std::int64_t configs = 0;
  std::int64_t conflict_free = 0;       // read wavefronts == ideal
  std::int64_t lemma_agrees = 0;        // predicted == simulated
  std::map<int, std::int64_t> histogram;  // read wavefronts (worst instruction) -> count
  double elapsed_ms = 0;
  int threads = 1;
  bool fast_path = false;
  std::vector<std::uint32_t> first_disagreement;  // masks of the first config where the lemma differs
};

// Largest grid a sweep will enumerate.
inline constexpr int kMaxSweepBits = 24;

// progress(done, total) is called from the calling thread now and then.
SweepResult sweep(const Problem& problem, const std::function<void(std::int64_t, std::int64_t)>& progress = {},
                  int threads = 0);

// Masks of configuration number `index` (toggle bits row-major: row bit j, column k above the vector bits).
std::vector<std::uint32_t> masks_of_config(const GridSpec& grid, std::uint64_t index);

// Bank-counting kernel of the fast path, narrowest first. Auto = the widest the CPU supports.
// Scalar is the portable instantiation (no target-specific instructions), the only one
// off x86-64 or with SWZ_SIMD off; Avx2 / Avx512 the same kernel on 32- / 64-byte vectors.
enum class SweepKernel { Scalar, Avx2, Avx512, Auto };
// The kernel sweeps use now: the widest the CPU supports, capped by set_sweep_kernel.
SweepKernel sweep_kernel();
// Caps the kernel for later sweeps (process-wide; tests hold the kernels against each other).
void set_sweep_kernel(SweepKernel cap);

// The sweep's own evaluation of one configuration: (read wavefronts of the worst instruction,
// lemma prediction or -1). Exposed so tests can hold it against swz::simulate.
std::pair<int, int> sweep_evaluate(const Problem& problem, const std::vector<std::uint32_t>& masks);

}  // namespace swz
