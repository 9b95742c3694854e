#include "swz/teach/lesson_view.h"

#include <fmt/format.h>

#include <algorithm>

#include "swz/error.h"
#include "swz/solve/solver.h"
#include "swz/teach/lesson.h"

namespace swz {

bool LessonView::shows(const std::string& panel) const {
  if (!focus.empty()) return panel == focus;
  return panels.empty() || std::find(panels.begin(), panels.end(), panel) != panels.end();
}

std::string lesson_target_panel(const std::string& target) {
  if (target.rfind("panel:", 0) == 0) return target.substr(6);
  return target.substr(0, target.find('.'));
}

namespace {

std::string panel_id(const nlohmann::json& v, const std::string& key, const std::string& where) {
  const auto& ids = lesson_panel_ids();
  if (!v.is_string()) fail("{}'view.{}' takes panel ids ({}), not {}", where, key, fmt::join(ids, ", "), v.dump());
  const std::string id = v.get<std::string>();
  if (std::find(ids.begin(), ids.end(), id) == ids.end())
    fail("{}'view.{}': no panel '{}' (panels: {})", where, key, id, fmt::join(ids, ", "));
  return id;
}

}  // namespace

LessonView parse_lesson_view(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) fail("{}'view' must be an object with 'panels', 'focus', 'cells' or 'solver_step'", where);
  LessonView v;
  for (const auto& item : j.items()) {
    const std::string& key = item.key();
    const nlohmann::json& value = item.value();
    if (key == "panels") {
      if (!value.is_array() || value.empty()) fail("{}'view.panels' must be a non-empty list of panel ids", where);
      std::vector<std::string> listed;
      for (const auto& e : value) listed.push_back(panel_id(e, key, where));
      for (const std::string& id : lesson_panel_ids())  // the workbench's order, each once
        if (std::find(listed.begin(), listed.end(), id) != listed.end()) v.panels.push_back(id);
    } else if (key == "focus") {
      v.focus = panel_id(value, key, where);
    } else if (key == "cells") {
      if (!value.is_string()) fail("{}'view.cells' must be \"none\", \"bank\" or \"offset\", not {}", where, value.dump());
      try {
        v.cells = parse_cell_numbers(value.get<std::string>());
      } catch (const Error& e) {
        fail("{}'view.cells': {}", where, e.what());
      }
    } else if (key == "solver_step") {
      if (!value.is_number_integer())
        fail("{}'view.solver_step' must be an integer (1 = the construction's first step), not {}", where, value.dump());
      const std::int64_t step = value.get<std::int64_t>();
      if (step < 1 || step > 1000) fail("{}'view.solver_step' {} is outside 1..1000", where, step);
      v.solver_step = static_cast<int>(step - 1);
    } else {
      fail("{}unknown key 'view.{}' (known: panels, focus, cells, solver_step)", where, key);
    }
  }
  if (!v.focus.empty() && !v.panels.empty() && std::find(v.panels.begin(), v.panels.end(), v.focus) == v.panels.end())
    fail("{}'view.focus' is '{}', which 'view.panels' does not show", where, v.focus);
  return v;
}

void check_lesson_view(const LessonView& v, const Problem& problem, const std::vector<std::string>& highlight,
                       const std::string& where) {
  for (const std::string& target : highlight)
    if (!v.shows(lesson_target_panel(target)))
      fail("{}highlight '{}' is in panel '{}', which this step's view does not show", where, target, lesson_target_panel(target));
  if (v.solver_step > 0) {
    const auto steps = static_cast<int>(solve(problem).trace.size());
    if (v.solver_step >= steps)
      fail("{}'view.solver_step' {} is outside the construction's steps 1..{} for this problem", where, v.solver_step + 1, steps);
  }
}

}  // namespace swz
