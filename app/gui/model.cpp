#include "model.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/problem/problem_spec.h"

namespace swz::gui {

namespace {

int log2_of(std::int64_t v) { return std::countr_zero(static_cast<std::uint64_t>(v)); }

}  // namespace

Model build_model(const ProblemSpec& state) {
  Model m;
  m.problem = build_problem(state);
  const Problem& p = m.problem;
  m.analysis = analyze(p);

  const auto& shape = p.shape;
  m.row_bits = shape.size() >= 2 ? log2_of(shape[0]) : 0;
  m.col_bits = p.shared.coord_bits() - m.row_bits;

  m.window = tensor_window(m.rows(), m.cols());
  std::vector<BitVec> drawn;
  drawn.reserve(static_cast<std::size_t>(m.window.shown_rows * m.window.shown_cols));
  for (int r = 0; r < m.shown_rows(); ++r)
    for (int c = 0; c < m.shown_cols(); ++c) drawn.push_back(m.cell_coord(r, c));
  m.places = element_places(p, drawn);
  m.holders_a = std::make_shared<const HolderIndex>(p.store);
  m.holders_b = std::make_shared<const HolderIndex>(p.read);
  for (BitVec c : drawn) {
    m.owner_a.push_back(m.holders_a->owner(c));
    m.owner_b.push_back(m.holders_b->owner(c));
  }
  // Memory: all of it for a whole picture; for a window, as many segments as hold as many elements as the window.
  const std::uint64_t window_bytes = static_cast<std::uint64_t>(drawn.size()) * static_cast<std::uint64_t>(p.element_bits) / 8;
  const auto segment_bytes = static_cast<std::uint64_t>(p.bank.wavefront_bytes());
  m.memory = m.window.windowed() ? memory_view(p, std::max<std::uint64_t>(1, window_bytes / segment_bytes)) : memory_view(p);
  return m;
}

StepTrace trace_step(const Model& m, Side side, int warp, int step) {
  return swz::trace_step(m.problem, side == Side::Store ? AccessKind::Store : AccessKind::Load, m.analysis_of(side).simulated, warp, step);
}

}  // namespace swz::gui
