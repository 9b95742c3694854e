// The lesson card at 1920x1080, scale 1.0 and 1.6: for every step of every lesson, the card
// covers none of the step's highlighted targets, and the highlights are never drawn over it.
#include <cstdio>

#include <fmt/format.h>
#include <imgui_internal.h>

#include "classroom.h"
#include "gui_fixture.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_paths.h"

namespace swz::gui::test {

TEST_F(GuiTest, LessonCardCoversNoTargetAtProjectorScales) {
  std::string error;
  if (!reopen(1920, 1080, error)) GTEST_SKIP() << "no display: " << error;
  Workbench& b = open();
  const LessonDirSearch dir = find_lessons_dir();
  ASSERT_TRUE(dir.found) << dir.message();
  int steps = 0, covered = 0;
  std::string report;
  for (const float scale : {1.0f, 1.6f}) {
    b.apply(cmd::set_ui_scale(scale));
    for (const auto& file : lesson_files(*dir.found)) {
      const Lesson lesson = load_lesson_file(file);
      for (int k = 1; k <= static_cast<int>(lesson.steps.size()); ++k) {
        ASSERT_TRUE(open_lesson(b, lesson.name, k, error)) << error;
        frames(4);
        const auto card = lesson_card_rect();
        ASSERT_TRUE(card.has_value()) << lesson.name << " step " << k;
        ++steps;
        for (const ImRect& h : lesson_highlight_rects(b)) {
          ImRect i = h;
          i.ClipWithFull(*card);
          if (i.GetWidth() > 1.0f && i.GetHeight() > 1.0f) {
            ++covered;
            report += fmt::format("  scale {} {} step {}: card ({:.0f},{:.0f})-({:.0f},{:.0f}) covers target ({:.0f},{:.0f})-({:.0f},{:.0f})\n",
                                  scale, lesson.name, k, card->Min.x, card->Min.y, card->Max.x, card->Max.y, h.Min.x, h.Min.y, h.Max.x,
                                  h.Max.y);
          }
        }
      }
    }
  }
  std::printf("lesson card: %d steps at two scales, %d covered targets\n%s", steps, covered, report.c_str());
  EXPECT_GE(steps, 2 * 41);
  EXPECT_EQ(covered, 0) << report;
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
