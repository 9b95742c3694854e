// solver_access.h: what the solver needs of one access, shared by the
// construction (solver.cpp) and the toggle-grid search (solver_grid.cpp).
// Internal to the core: nothing here is part of the public API.
//
// Everything works on bases, never on tables:
//   regs[i]  = coordinates of register 2^i   (zero: a broadcast register)
//   lanes[i] = coordinates of lane 2^i       (zero: lanes sharing data)
//   warps[i] = coordinates of warp 2^i
// and an offset map M (offset bit i -> coordinates) with its inverse.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "swz/sim/bank.h"
#include "swz/algebra/f2.h"
#include "swz/layout/layout.h"
#include "swz/solve/solver.h"

namespace swz::solve_detail {

// Tensors the solver takes: every algorithm here is on bases, so the limit is
// the width of a bit vector, not memory.
inline constexpr int kSolverMaxAddressBits = 40;

inline int ilog2(std::uint64_t v) { return std::countr_zero(v); }
inline bool pow2(std::int64_t v) { return v > 0 && std::has_single_bit(static_cast<std::uint64_t>(v)); }

// dim(a ∩ b) = dim a + dim b - dim(a + b): cheaper than building the intersection.
inline int intersect_dim(const Subspace& a, const Subspace& b) { return a.dim() + b.dim() - a.sum(b).dim(); }

struct AccessInfo {
  const Access* access = nullptr;
  const char* role = "";    // "writer" / "reader"
  const char* letter = "";  // "A" / "B"
  std::vector<BitVec> regs, lanes, warps;
  int lane_bits = 0;
  int requested = -1;  // vector (log2 elements) the access insists on (ldmatrix, vec_bits); -1 = free
  bool as_numbered = false;  // its registers keep their numbering (matrix rows; or the caller asks)
};

// Bad input, one message each, before any work (throws swz::Error).
void check_inputs(const Access& writer, const Access& reader, int ebits, const BankModel& model);
AccessInfo info_of(const Access& a, const char* role, const char* letter, int ebits);

// Lanes served together for a vector of 2^k elements (hardware.md: phases).
int phase_lanes(const AccessInfo& x, int k, int ebits, const BankModel& m);
// Which lanes: runs, or cosets of lane bits (AMD's ds_read_b128).
LanePhases lane_phases(const AccessInfo& x, int k, int ebits, const BankModel& m);
int active_lanes(const AccessInfo& x);
// Nonzero lane bases of one phase (T), and the active lane bases the split drops, with the lanes
// numbered so that the phases are runs (lane_bases_in_phase_order).
std::vector<BitVec> phase_threads(const AccessInfo& x, const LanePhases& phases);
std::vector<BitVec> split_threads(const AccessInfo& x, const LanePhases& phases);
// Nonzero lane and warp bases: the directions a register renumbering cannot move.
std::vector<BitVec> lane_warp_bases(const AccessInfo& x);
// Unit coordinate vectors, last dim first (a row-major tile's offset order).
std::vector<BitVec> unit_vectors(const LinearLayout& coords);

struct OffsetMap {
  std::vector<BitVec> images;  // images[i] = coordinates of element offset 2^i
  BitMatrix inverse;           // coordinates -> offset
};
OffsetMap offset_map(const std::vector<BitVec>& images, int width);  // throws SolverBug when singular

// Widest vector (log2 elements, at most `cap`) of x under M: offsets 1, 2, ..,
// 2^(k-1) are x's registers and no lane or warp moves an offset bit below k.
// Renumbered: any registers spanning them (a kernel numbers its registers as it
// likes). Not: the first k registers as numbered, and every later register
// keeps off those bits too. A requested width is checked, not searched.
int widest_vector(const AccessInfo& x, const OffsetMap& m, int cap, bool renumbered);

struct Predicted {
  int vector_log2 = 0;  // elements per lane per instruction, log2
  int seg_start = 0;    // the first segment offset bit on the instruction's banks
  int lanes = 32;       // lanes per phase
  LanePhases lane_phases;  // which lanes
  int phases = 1;
  int conflict_dim = 0;
  int wavefronts() const { return phases << conflict_dim; }
};

// Lemma 9.4 with sub-word elements: 2^(dim(T ∩ (S+W)) - dim(T ∩ W)) wavefronts per phase,
// S = the offset images from the segment start up, W = the images inside one bank word, both on
// the banks the side's instruction is served on (access_geometry(): gfx950's ds_write_b64 has 32).
Predicted predict_on_bases(const AccessInfo& x, const OffsetMap& m, int k, int ebits, const BankModel& model, int width);

// The registers of x renumbered for a 2^k vector under M: registers 0..k-1 are
// the offsets 1 .. 2^(k-1); every other register is an original one with the
// vector registers that cancel its low offset bits XORed in. from[i] says which
// original registers register i is the XOR of (bit j = register 2^j).
struct Renumbering {
  std::vector<BitVec> regs;
  std::vector<std::uint64_t> from;
  bool identity = true;
};
Renumbering renumber(const AccessInfo& x, const OffsetMap& m, int k);  // throws SolverBug when M's low offsets are not x's

// The order of answers: fewer total wavefronts, then fewer instructions, then
// fewer loads (the reader's loads stall the warps that consume the data; the
// writer's stores do not).
inline bool cheaper_cost(const SideCost& wa, const SideCost& ra, const SideCost& wb, const SideCost& rb) {
  const std::int64_t ta = wa.total_wavefronts + ra.total_wavefronts, tb = wb.total_wavefronts + rb.total_wavefronts;
  if (ta != tb) return ta < tb;
  const std::int64_t ia = wa.instructions + ra.instructions, ib = wb.instructions + rb.instructions;
  if (ia != ib) return ia < ib;
  return ra.instructions < rb.instructions;
}

// The construction for the accesses as given (their instructions fixed): every
// pair of vector widths within the bounds built and costed, the cheapest kept
// (solver.cpp). Throws swz::Error for bad input or when no layout serves them.
SolveResult construct_with(const Access& writer, const Access& reader, int ebits, const BankModel& model,
                           const SolveOptions& opt);

}  // namespace swz::solve_detail
