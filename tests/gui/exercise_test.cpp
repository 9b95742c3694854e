// An exercise under real clicks: the toy lesson's column read, solved on the toggle grid with
// injected mouse input; the card follows the core's check from "not solved" to "Solved", and
// reveals its hints one at a time.
#include <cstdlib>

#include "classroom.h"
#include "gui_fixture.h"
#include "swz/teach/lesson_exercise.h"

namespace swz::gui::test {

TEST_F(GuiTest, ExerciseIsSolvedByClicksOnTheToggleGrid) {
  std::string error;
  if (!reopen(1920, 1080, error)) GTEST_SKIP() << "no display: " << error;
  Workbench& b = open();
  ASSERT_TRUE(open_lesson(b, "toy-gpu", 6, error)) << error;
  frames(4);
  const LessonStep* step = classroom().current_step();
  ASSERT_NE(step, nullptr);
  ASSERT_TRUE(step->exercise.has_value()) << step->title;
  ASSERT_TRUE(b.probe("lesson.exercise").has_value());
  EXPECT_TRUE(b.probe("lesson.exercise.unsolved").has_value());
  EXPECT_FALSE(b.probe("lesson.exercise.solved").has_value());

  // Hints one at a time: the button stays until the last is shown.
  const std::size_t hints = step->exercise->hints.size();
  ASSERT_GE(hints, 2u);
  for (std::size_t i = 0; i < hints; ++i) {
    ASSERT_TRUE(b.probe("lesson.exercise.hint").has_value()) << "after " << i << " hints";
    click("lesson.exercise.hint");
  }
  EXPECT_FALSE(b.probe("lesson.exercise.hint").has_value());

  // Two toggles: a column over four banks, 2 wavefronts, not yet.
  click("grid.cell.0.0");
  click("grid.cell.1.1");
  EXPECT_EQ(b.session().problem.masks, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, 2);
  EXPECT_TRUE(b.probe("lesson.exercise.unsolved").has_value());

  // The third: x ^= row, one wavefront, and the card says so.
  click("grid.cell.2.2");
  EXPECT_EQ(b.session().problem.masks, (std::vector<std::uint32_t>{1, 2, 4}));
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, 1);
  EXPECT_TRUE(check_exercise(*step, b.session().problem, b.session().trace.step).solved);
  EXPECT_TRUE(b.probe("lesson.exercise.solved").has_value());
  EXPECT_FALSE(b.probe("lesson.exercise.unsolved").has_value());
  if (const char* shot = std::getenv("SWZ_EXERCISE_SCREENSHOT")) {  // to look at the solved card
    int w = 0, h = 0;
    const auto px = capture(w, h);
    ASSERT_TRUE(write_png(shot, px, w, h, error)) << error;
  }

  // A fourth toggle: still conflict-free, but over the three allowed.
  click("grid.cell.0.1");
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, 1);
  EXPECT_TRUE(b.probe("lesson.exercise.unsolved").has_value());

  // Return to this step starts again, and the next step has no exercise.
  apply_lesson_step(b);
  frames(3);
  EXPECT_TRUE(b.probe("lesson.exercise.unsolved").has_value());
  go_to_step(b, 6);
  frames(3);
  EXPECT_FALSE(b.probe("lesson.exercise").has_value());
}

}  // namespace swz::gui::test
