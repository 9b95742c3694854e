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

  m.places = element_places(p);
  m.owner_a = owners_of(p.store);
  m.owner_b = owners_of(p.read);
  m.memory = memory_view(p);
  return m;
}

StepTrace trace_step(const Model& m, Side side, int warp, int step) {
  return swz::trace_step(m.problem, side == Side::Store ? AccessKind::Store : AccessKind::Load, m.analysis_of(side).simulated, warp, step);
}

}  // namespace swz::gui
