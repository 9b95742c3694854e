// lesson_view.h: what the workbench shows during one lesson step, besides the
// problem: which panels, one panel focused, the numbers in the tensor's cells,
// and the solver's replay step.
//
//   "view": {"panels": ["tensor", "trace"], "focus": "", "cells": "bank", "solver_step": 4}
//
// Loading checks every panel id, that the step's highlights lie in panels it
// shows, and that the solver step exists for the step's problem.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "swz/problem/problem.h"
#include "swz/problem/views.h"

namespace swz {

struct LessonView {
  std::vector<std::string> panels;  // the panels shown, in the workbench's order; empty: every panel
  std::string focus;                // one panel filling the tile area; "" none
  CellNumbers cells = CellNumbers::None;
  int solver_step = 0;  // the Solver panel's replay step, from 0 ("solver_step": 1 in the file)
  bool operator==(const LessonView&) const = default;

  bool shows(const std::string& panel) const;
};

// The panel a highlight target lies in: "tensor.col.3" -> "tensor", "panel:trace" -> "trace".
std::string lesson_target_panel(const std::string& target);

// Parses a step's "view" object; `where` starts every message ("file: step 3 (\"Title\"): ").
LessonView parse_lesson_view(const nlohmann::json& j, const std::string& where);
// Checks a view (given or inherited) against its step: the highlights lie in panels it shows,
// and the solver step exists for the step's problem.
void check_lesson_view(const LessonView& view, const Problem& problem, const std::vector<std::string>& highlight,
                       const std::string& where);

}  // namespace swz
