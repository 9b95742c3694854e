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
#include "swz/sim/analysis.h"
#include "swz/problem/problem.h"
#include "swz/problem/views.h"

namespace swz::gui {

struct Model {
  Problem problem;
  ProblemAnalysis analysis;

  // Tensor view geometry: rows = dim0, columns = the other dims flattened (dim1 fastest).
  int row_bits = 0, col_bits = 0;
  int rows() const { return 1 << row_bits; }
  int cols() const { return 1 << col_bits; }
  BitVec cell_coord(int row, int col) const { return static_cast<BitVec>(row) | (static_cast<BitVec>(col) << row_bits); }

  // The core's views (views.h): per flat coordinate, and physical memory.
  ElementPlaces places;
  std::vector<ElementOwner> owner_a, owner_b;
  MemoryView memory;

  const Access& access(Side side) const { return side == Side::Store ? problem.store : problem.read; }
  const AccessAnalysis& analysis_of(Side side) const { return side == Side::Store ? analysis.store : analysis.read; }
  const std::vector<ElementOwner>& owners(Side side) const { return side == Side::Store ? owner_a : owner_b; }
  int steps(Side side) const { return analysis_of(side).simulated.steps; }
  int warps(Side side) const { return analysis_of(side).simulated.warps; }
  // "(3, 17)"
  std::string format_coord(BitVec coord) const { return problem.shared.coords().format_coords(coord); }
};

// The problem, its analysis and the per-element tables; throws swz::Error.
Model build_model(const ProblemSpec& state);


// The core's trace of one instruction of the access shown (views.h).
StepTrace trace_step(const Model& model, Side side, int warp, int step);

}  // namespace swz::gui
