// model.h: everything the panels draw, derived from the session by asking the core.
//
// The session holds choices (preset, masks, step); the model holds answers:
// the core's Problem and its analysis, and per-element tables the panels need
// every frame (bank and segment of each element from the core's bank model,
// who owns each element in A and B, which element sits in each memory slot).
// It is rebuilt only when the problem changes, never per frame.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "session.h"
#include "swz/analysis.h"
#include "swz/problem.h"

namespace swz::gui {

// Who holds an element in a distributed layout (the first holder when several do).
struct Owner {
  int lane = -1;    // -1: no thread holds it
  int warp = 0;
  int reg = 0;      // register index
  int sharers = 0;  // further (lane, warp, register) triples holding the same element
};

struct Model {
  Problem problem;
  ProblemAnalysis analysis;

  // Tensor view geometry: rows = dim0, columns = the other dims flattened (dim1 fastest).
  int row_bits = 0, col_bits = 0;
  int rows() const { return 1 << row_bits; }
  int cols() const { return 1 << col_bits; }
  BitVec cell_coord(int row, int col) const { return static_cast<BitVec>(row) | (static_cast<BitVec>(col) << row_bits); }

  // Per flat coordinate (the core's answers).
  std::vector<int> bank;
  std::vector<std::uint64_t> segment;
  std::vector<Owner> owner_a, owner_b;

  // Physical memory: segments x banks words, `per_word` element slots per word
  // (several for narrow elements). slot_coord[(segment * banks + bank) * per_word + sub] = flat coordinate or -1.
  std::uint64_t segments = 0;
  int per_word = 1;
  std::vector<std::int64_t> slot_coord;

  const Access& access(Side side) const { return side == Side::Store ? problem.store : problem.read; }
  const AccessAnalysis& analysis_of(Side side) const { return side == Side::Store ? analysis.store : analysis.read; }
  const std::vector<Owner>& owners(Side side) const { return side == Side::Store ? owner_a : owner_b; }
  int steps(Side side) const { return analysis_of(side).simulated.steps; }
  int warps(Side side) const { return analysis_of(side).simulated.warps; }
  // "(3, 17)"
  std::string format_coord(BitVec coord) const { return problem.shared.coords().format_coords(coord); }
};

// The problem, its analysis and the per-element tables; throws swz::Error.
Model build_model(const ProblemSpec& state);


// One traced instruction: the core's per-lane answer plus the elements each lane touches.
struct TracedCell {
  BitVec coord = 0;
  int lane = 0;
  int group = 0;  // outline group: the phase, or the half-warp when the whole warp is one phase
};
struct StepTrace {
  InstructionResult instruction;
  std::vector<TracedCell> cells;
  int groups = 1;
  std::vector<std::string> group_labels;  // "threads 0-15", "phase 1 (lanes 8-15)"
};
StepTrace trace_step(const Model& model, Side side, int warp, int step);

}  // namespace swz::gui
