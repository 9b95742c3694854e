// Lesson steps as a class sees them at 1920x1080, scale 1.0 and 1.6: for every step of every
// lesson, the card shows all its text without scrolling, every highlighted target is drawn,
// inside its panel, on screen and clear of the card and of every other window, no window on
// screen scrolls (panels, and the regions inside them: the card's text, the solver's step list,
// tables, lists), and no text is cut (screen_checks.h).
#include <fmt/format.h>
#include <imgui_internal.h>

#include <cstdio>

#include "classroom.h"
#include "gui_fixture.h"
#include "screen_checks.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_paths.h"

namespace swz::gui::test {

namespace {

bool inside(const ImRect& inner, const ImRect& outer, float slack = 1.0f) {
  return inner.Min.x >= outer.Min.x - slack && inner.Min.y >= outer.Min.y - slack && inner.Max.x <= outer.Max.x + slack &&
         inner.Max.y <= outer.Max.y + slack;
}
std::string text_of(const ImRect& r) {
  return fmt::format("({:.0f},{:.0f})-({:.0f},{:.0f})", r.Min.x, r.Min.y, r.Max.x, r.Max.y);
}

// What is wrong with the current step on screen, one line per fault ("" when nothing is);
// `regions` counts the windows and child windows looked at.
std::string faults_of_step(const Workbench& b, int& regions) {
  std::string out;
  const GlyphIndex glyphs(*ImGui::GetIO().Fonts);
  for (ImGuiWindow* w : active_windows()) {
    ++regions;
    if (const std::string s = scrolling_region(*w); !s.empty()) out += s + "\n";
    for (const std::string& t : text_faults(*w, glyphs, /*check_size=*/false)) out += t + "\n";
  }
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const auto card = lesson_card_rect();
  ImGuiWindow* card_window = ImGui::FindWindowByName("###lesson");
  if (!card || !card_window) return "no lesson card\n";
  if (!inside(*card, ImRect(ImVec2(0, 0), display))) out += fmt::format("card {} is off the screen\n", text_of(*card));
  if (card_window->ScrollMax.y > 0.5f) out += fmt::format("card text needs {:.0f} px of scrolling\n", card_window->ScrollMax.y);
  // The tile area: below the menu bar, above the status bar, left of the card.
  const ImRect tiles(ImVec2(0, ImGui::GetFrameHeight()),
                     ImVec2(display.x - b.reserved_right(), display.y - ImGui::GetFrameHeight()));
  for (const auto& [target, rect] : lesson_targets(b)) {
    const std::string panel = lesson_target_panel(target);
    ImGuiWindow* w = ImGui::FindWindowByName(("###" + panel).c_str());
    if (!w || !w->WasActive) {
      out += fmt::format("{}: panel '{}' is not shown\n", target, panel);
      continue;
    }
    if (!rect) {
      out += fmt::format("{}: not on screen\n", target);
      continue;
    }
    const ImRect window(w->Pos, ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y));
    if (!inside(window, tiles))
      out +=
          fmt::format("{}: panel '{}' {} is partly outside the tile area {}\n", target, panel, text_of(window), text_of(tiles));
    if (w->ScrollMax.y > 0.5f || w->ScrollMax.x > 0.5f)
      out += fmt::format("{}: panel '{}' needs scrolling ({:.0f} px down, {:.0f} px across)\n", target, panel, w->ScrollMax.y,
                         w->ScrollMax.x);
    const bool whole_panel = target.rfind("panel:", 0) == 0;
    if (!whole_panel && !inside(*rect, w->InnerClipRect))
      out += fmt::format("{}: {} is clipped by its panel {}\n", target, text_of(*rect), text_of(w->InnerClipRect));
    if (target.rfind("tensor.", 0) == 0)
      if (const auto grid = b.probe("tensor.grid"); grid && !inside(ImRect(grid->min, grid->max), w->InnerClipRect))
        out += fmt::format("{}: the tensor is partly clipped\n", target);
    ImRect covered = *rect;
    covered.ClipWithFull(*card);
    if (covered.GetWidth() > 1.0f && covered.GetHeight() > 1.0f) out += fmt::format("{}: covered by the card\n", target);
    for (const std::string& over : covered_by(*rect, w)) out += fmt::format("{}: covered by window '{}'\n", target, over);
  }
  return out;
}

}  // namespace

TEST_F(GuiTest, LessonStepsShowTheirTextAndTargetsAtProjectorScales) {
  std::string error;
  if (!reopen(1920, 1080, error)) GTEST_SKIP() << "no display: " << error;
  Workbench& b = open();
  const LessonDirSearch dir = find_lessons_dir();
  ASSERT_TRUE(dir.found) << dir.message();
  int steps = 0, targets = 0, regions = 0, faulty = 0;
  std::string report;
  for (const float scale : {1.0f, 1.6f}) {
    b.apply(cmd::set_ui_scale(scale));
    for (const auto& file : lesson_files(*dir.found)) {
      const Lesson lesson = load_lesson_file(file);
      for (int k = 1; k <= static_cast<int>(lesson.steps.size()); ++k) {
        ASSERT_TRUE(open_lesson(b, lesson.name, k, error)) << error;
        frames(4);
        ++steps;
        targets += static_cast<int>(lesson_targets(b).size());
        if (const std::string f = faults_of_step(b, regions); !f.empty()) {
          ++faulty;
          report += fmt::format("scale {} {} step {} ({}):\n{}", scale, lesson.name, k,
                                lesson.steps[static_cast<std::size_t>(k - 1)].title, f);
        }
      }
    }
  }
  std::printf("lesson steps: %d (%d steps x 2 scales), %d targets, %d regions (windows and child windows), %d steps with faults\n%s",
              steps, steps / 2, targets, regions, faulty, report.c_str());
  EXPECT_GE(steps, 2 * 69);
  EXPECT_EQ(faulty, 0) << report;
}

// A step's view: only its panels, one focused, numbers in the cells, the solver's replay step;
// closing the lesson gives the view back as it was.
TEST_F(GuiTest, LessonStepViewSetsPanelsFocusNumbersAndSolverStep) {
  const auto dir = temp_dir("lesson");
  const auto file = dir / "view.json";
  {
    std::FILE* f = std::fopen(file.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(R"({"format": "swizzle-workbench-lesson", "version": 1, "title": "Views", "steps": [
      {"title": "Two panels", "preset": "transpose16x32", "text": "a", "view": {"panels": ["tensor", "trace"], "cells": "bank"},
       "highlight": ["tensor.col.0", "panel:trace"]},
      {"title": "Inherited", "text": "b"},
      {"title": "Solver", "text": "c", "view": {"focus": "solver", "solver_step": 4}},
      {"title": "Offsets", "text": "d", "view": {"cells": "offset"}}]})",
               f);
    std::fclose(f);
  }
  Workbench& b = open();
  frames(2);
  ASSERT_TRUE(b.panel_visible("algebra"));
  std::string error;
  ASSERT_TRUE(open_lesson(b, file.string(), 1, error)) << error;
  frames(3);
  EXPECT_TRUE(b.probe("panel.tensor").has_value());
  EXPECT_TRUE(b.probe("panel.trace").has_value());
  EXPECT_FALSE(b.probe("panel.algebra").has_value());
  EXPECT_FALSE(b.probe("panel.solver").has_value());
  EXPECT_EQ(b.session().view.cell_numbers, CellNumbers::Bank);
  EXPECT_GT(b.reserved_right(), 0.0f);  // the card has its own column

  classroom().step = 1;  // inherits the view
  apply_lesson_step(b);
  frames(3);
  EXPECT_FALSE(b.probe("panel.algebra").has_value());
  EXPECT_EQ(b.session().view.cell_numbers, CellNumbers::Bank);

  classroom().step = 2;
  apply_lesson_step(b);
  frames(3);
  EXPECT_EQ(b.focus(), "solver");
  EXPECT_EQ(b.session().view.solver_step, 3);  // "solver_step": 4 counts from 1
  EXPECT_FALSE(b.probe("panel.tensor").has_value());

  classroom().step = 3;
  apply_lesson_step(b);
  frames(3);
  EXPECT_TRUE(b.focus().empty());
  EXPECT_EQ(b.session().view.cell_numbers, CellNumbers::Offset);
  EXPECT_TRUE(b.probe("panel.algebra").has_value());  // a view without 'panels' shows every panel

  close_lesson(b);
  frames(3);
  EXPECT_EQ(b.session().view.cell_numbers, CellNumbers::None);
  EXPECT_TRUE(b.probe("panel.algebra").has_value());
  EXPECT_FLOAT_EQ(b.reserved_right(), 0.0f);
}

}  // namespace swz::gui::test
