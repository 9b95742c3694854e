// sweep.h: every configuration of a toggle grid, simulated and predicted.
//
// A grid of R row bits and K toggleable column bits has 2^(R*K) mask sets
// (2^20 for the seed). For each one both accesses are simulated lane by lane,
// bank by bank (every instruction of every warp), the read and the write, and
// Lemma 9.4 is evaluated independently from the segment bases; the sweep
// reports, per side, the histogram of wavefronts and how many configurations
// the lemma predicts exactly, and how many sets are conflict-free for the
// reads, for the writes and for both (AccessSides: the last is what
// swz::family_size counts by algebra).
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
// time). Whether an access takes this fast path depends only on its geometry
// (SweepPath says why not): accesses it does not cover (sub-word vectors,
// lanes of a phase sharing elements, lanes paired so that the hardware widens
// the phases of an LDS.64/128) run through swz::simulate per configuration,
// thousands of times slower; sweep_projection() says how long that will take.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "swz/problem/access_sides.h"
#include "swz/problem/problem.h"

namespace swz {

// How a sweep evaluates one access.
struct SweepPath {
  bool fast = false;
  std::string reason;  // why not fast: one phrase (empty when fast)
};

// One access of a sweep: the simulated wavefronts of its worst instruction, per configuration.
struct SweepSide {
  int ideal_wavefronts = 0;                // the phases of one instruction: what conflict-free costs
  std::int64_t conflict_free = 0;          // configurations whose worst instruction costs ideal_wavefronts
  std::int64_t lemma_agrees = 0;           // predicted == simulated
  std::map<int, std::int64_t> histogram;   // wavefronts (worst instruction) -> count
  SweepPath path;
  std::vector<std::uint32_t> first_disagreement;  // masks of the first config where the lemma differs
};

struct SweepResult {
  std::int64_t configs = 0;
  SweepSide read, write;
  std::int64_t conflict_free_both = 0;  // both sides conflict-free: what swz::family_size counts
  double elapsed_ms = 0;
  int threads = 1;
  bool fast_path = false;  // both sides took the fast path
  // Configurations conflict-free for these sides.
  std::int64_t conflict_free(AccessSides sides) const {
    return sides == AccessSides::Read    ? read.conflict_free
           : sides == AccessSides::Write ? write.conflict_free
                                         : conflict_free_both;
  }
};

// Largest grid a sweep will enumerate.
inline constexpr int kMaxSweepBits = 24;

// progress(done, total) is called from the calling thread now and then.
SweepResult sweep(const Problem& problem, const std::function<void(std::int64_t, std::int64_t)>& progress = {},
                  int threads = 0);

// What a sweep of this problem will do, known before it starts: each side's path, and
// (when a side is off the fast path) the time projected from evaluating a sample of
// configurations the way the sweep will, for `threads` workers (0: all cores).
struct SweepProjection {
  std::int64_t configs = 0;
  SweepPath read, write;
  int threads = 1;
  double seconds = 0;  // projected wall time; 0 when both sides are on the fast path
};
SweepProjection sweep_projection(const Problem& problem, int threads = 0);

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

// The sweep's own evaluation of one configuration for one side (Read or Write): (wavefronts of
// the worst instruction, lemma prediction or -1). Exposed so tests can hold it against swz::simulate.
std::pair<int, int> sweep_evaluate(const Problem& problem, const std::vector<std::uint32_t>& masks,
                                   AccessSides side = AccessSides::Read);

}  // namespace swz
