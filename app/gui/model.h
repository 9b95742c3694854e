// model.h: everything the panels draw, derived from the session by asking the core.
//
// The session holds choices (preset, masks, step); the model holds answers:
// the core's Problem and its analysis, and tables of the drawn cells the panels
// need every frame (bank and segment of each from the core's bank model, who
// owns each in A and B, which element sits in each memory slot). A tensor too
// large to draw is drawn as the core's window of it (tensor_window, views.h):
// the tables cover that window and the first segments of memory, never every
// element, so a 2^30-element tile costs what a 128x128 one does. Any other
// element (a tooltip) is asked of the core when it is needed. Rebuilt only when
// the problem changes, never per frame.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
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

  // The drawn cells: every one, or the top-left window of a large tensor (its note says which).
  TensorWindow window;
  int shown_rows() const { return static_cast<int>(window.shown_rows); }
  int shown_cols() const { return static_cast<int>(window.shown_cols); }
  // Index of a drawn cell into `places` and the owner tables.
  std::size_t cell_index(int row, int col) const {
    return static_cast<std::size_t>(row) * static_cast<std::size_t>(window.shown_cols) + static_cast<std::size_t>(col);
  }
  // The drawn cell of an element, or false when it lies outside the window.
  bool cell_of(BitVec coord, int& row, int& col) const {
    row = static_cast<int>(coord & low_bits(row_bits));
    col = static_cast<int>(coord >> row_bits);
    return row < shown_rows() && col < shown_cols();
  }

  // The coordinate bits an element outside the window has set (the window's sides are powers of two from 0).
  BitVec outside_window() const {
    const int shown_row_bits = std::countr_zero(static_cast<std::uint64_t>(window.shown_rows));
    const int shown_col_bits = std::countr_zero(static_cast<std::uint64_t>(window.shown_cols));
    return low_bits(row_bits + col_bits) & ~(low_bits(shown_row_bits) | (low_bits(shown_col_bits) << row_bits));
  }

  // The core's views (views.h) of the drawn cells (index = cell_index), and of physical memory
  // (the first segments only when the tensor is windowed).
  ElementPlaces places;
  std::vector<ElementOwner> owner_a, owner_b;
  MemoryView memory;

  // Any element, drawn or not, from the core.
  ElementPlace place(BitVec coord) const { return place_of(problem, coord); }
  ElementOwner owner(Side side, BitVec coord) const { return (side == Side::Store ? holders_a : holders_b)->owner(coord); }

  const Access& access(Side side) const { return side == Side::Store ? problem.store : problem.read; }
  const AccessAnalysis& analysis_of(Side side) const { return side == Side::Store ? analysis.store : analysis.read; }
  const std::vector<ElementOwner>& owners(Side side) const { return side == Side::Store ? owner_a : owner_b; }
  int steps(Side side) const { return analysis_of(side).simulated.steps; }
  int warps(Side side) const { return analysis_of(side).simulated.warps; }
  // "(3, 17)"
  std::string format_coord(BitVec coord) const { return problem.shared.coords().format_coords(coord); }

  std::shared_ptr<const HolderIndex> holders_a, holders_b;
};

// The problem, its analysis and the tables of the drawn cells; throws swz::Error.
Model build_model(const ProblemSpec& state);

// The core's trace of one instruction of the access shown (views.h).
StepTrace trace_step(const Model& model, Side side, int warp, int step);

}  // namespace swz::gui
