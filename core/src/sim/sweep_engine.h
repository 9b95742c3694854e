// sweep_engine.h: the sweep's insides, shared by sweep.cpp (the driver: threads,
// progress, results), sweep_plan.cpp (the plan, the lemma's constants, the engine
// and its state) and sweep_kernel.cpp (bank counting). Private to core/src/sim.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "swz/sim/sweep.h"

namespace swz::sweep_detail {

// Masks of configuration `index` into `masks` (see masks_of_config).
void fill_masks(const GridSpec& g, std::uint64_t index, std::vector<std::uint32_t>& masks);

// Everything about one access (the read or the write) that does not depend on the masks.
struct Plan {
  const Problem* p = nullptr;
  const Access* access = nullptr;  // p->read or p->store
  GridSpec g;
  int row_bits = 0, col_bits = 0;
  std::uint64_t n_cols = 0;
  bool fast = false;
  std::string slow_reason;  // why not fast (empty when fast)
  // Input bases of the access (registers above the vector, lanes, warps) as coordinates (m, n).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> step_bases, lane_bases, warp_bases;
  int lane_bits = 0, phase_lanes = 32, phases = 1, words_per_lane = 1, word_shift = 0;  // word = offset << shift (>> when negative)
  std::uint32_t bank_mask = 31;
  // Lemma inputs.
  std::vector<BitVec> threads;  // thread basis of one phase, flat coords
  int vec_elems = 1, seg_start = 0, within_word = 0;
  int dim_t = 0, rank_tw = 0;  // dim span(T), dim span(T + W)
  bool lemma_possible = true;
};

Plan make_plan(const Problem& p, AccessSides side);

// ---- The fast path's state ---------------------------------------------------
//
// Everything the simulation of an access and the lemma need from one configuration is
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
  void add(BitVec x);
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
  bool wide_banks = false;  // more than 32 banks: one 64-bit word of bank bits per instruction
  bool need_masks = false;  // the masks themselves are read (slow simulation or lemma)
  int toggles = 0;          // configuration index bits
  int lanes = 0;            // active lanes (phases * phase_lanes)
  int instrs = 0;           // instructions of the access (steps x warps)
  int instr_stride = 0;     // rounded up to whole vectors of the kernel, padded with the last instruction
  // The state is one word buffer: [lanes | instructions | lemma], the banks of lanes and
  // instructions one word each; each toggle bit has a delta of the same shape. The lemma part
  // holds the segment vectors reduced mod W, then mod W + T: either every subset XOR of them
  // (n_sub = 2^n_seg words each, when they fit in a word and are few), or the vectors
  // themselves (two words each, low first). Every part starts on a multiple of 16 words and
  // n_words is one too, so whole vectors of up to 64 bytes cover each.
  int instr_off = 0, seg_off = 0, n_words = 0;
  std::vector<std::uint32_t> delta;  // [toggle][word]
  // Weights of the subset words when counting the zero ones: 1 for the first n_sub (mod W),
  // 256 for the next n_sub (mod W + T), 0 for the padding up to n_words (from seg_off).
  std::vector<std::uint32_t> zero_weight;
  // Lemma: segment vectors reduced modulo span(W) and modulo span(W + T).
  bool lemma_linear = true;  // W does not depend on the masks
  int n_seg = 0, seg_lo = 0, nw = 0, rank_w = 0, rank_wt = 0;
  int n_sub = 0;  // subsets stored per reduction (0: the vectors are stored)
  Reducer by_w, by_wt;
  const std::uint32_t* delta_of(int t) const { return delta.data() + static_cast<std::size_t>(t) * static_cast<std::size_t>(n_words); }
  // One configuration: flip toggle bit t of the state (none when t < 0), then simulate the access
  // and evaluate the lemma on it: (wavefronts of the worst instruction, lemma prediction).
  std::pair<int, int> (*step)(const Engine&, State&, int) = nullptr;
};

struct State {
  std::vector<std::uint32_t> words;  // laid out as Engine says
  std::vector<std::uint32_t> masks;
};

// The engine of a plan, its step chosen for the kernel sweep_kernel() allows.
Engine make_engine(const Plan& pl);
// The state of a configuration, computed directly from its masks.
void load_state(const Engine& e, const std::vector<std::uint32_t>& masks, State& st);
// Flip toggle bit t (row j, column vec_bits + k) in the masks themselves.
void flip_mask(const Engine& e, int t, State& st);

// Lemma 9.4 on a state: from its segment vectors, or from the masks when W moves with them.
int lemma_of_state(const Engine& e, const State& st);

// Ranks from the subset XORs: the subsets whose XOR is zero form the kernel of
// (subset -> XOR of its vectors), of 2^(n - rank) elements.
inline int subset_rank(const Engine& e, int zeros) {
  return e.n_seg - std::countr_zero(static_cast<unsigned>(zeros));
}

// Lemma 9.4 from the ranks of the segment vectors mod W and mod W + T:
// dim(T ∩ (S+W)) - dim(T ∩ W), each via dim(A∩B) = dim A + dim B - dim(A+B), with
// dim(S+W) = dim W + rank(S mod W) and dim(T+S+W) = dim(T+W) + rank(S mod (T+W)).
inline int lemma_of_ranks(const Engine& e, int rank_sw, int rank_stw) {
  const Plan& pl = *e.pl;
  const int dim_sw = e.rank_w + rank_sw;
  const int dim_t_sw = e.rank_wt + rank_stw;
  const int bad = (pl.dim_t + dim_sw - dim_t_sw) - (pl.dim_t + e.nw - pl.rank_tw);
  return pl.phases << bad;
}

// ---- Bank counting (sweep_kernel.cpp) ----------------------------------------

// The widest kernel this build and CPU have.
SweepKernel widest_kernel();
// Instructions one vector of `kernel` holds (32 or 64 bank bits each).
int kernel_width(SweepKernel kernel, bool wide_banks);
// Sets e.step for e.kernel and the plan's shape.
void choose_step(Engine& e);

}  // namespace swz::sweep_detail
