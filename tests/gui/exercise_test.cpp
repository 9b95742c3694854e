// An exercise under real clicks: the toy lesson's column read, solved on the toggle grid with
// injected mouse input; the card follows the core's check from "not solved" to "Solved", and
// reveals its hints one at a time.
#include <cstdlib>

#include "classroom.h"
#include "commands.h"
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

// A teacher's rule: the one-click answers do nothing while the exercise is open; "Show the answer"
// gives up, reveals the core's solution, marks the exercise answered (not solved) and unlocks them.
TEST_F(GuiTest, ExerciseLocksTheOneClickAnswersUntilTheAnswerIsShown) {
  std::string error;
  if (!reopen(1920, 1080, error)) GTEST_SKIP() << "no display: " << error;
  Workbench& b = open();
  ASSERT_TRUE(open_lesson(b, "toy-gpu", 6, error)) << error;
  b.post(cmd::show_panel("solver", true));
  frames(4);
  const LessonStep* step = classroom().current_step();
  ASSERT_NE(step, nullptr);
  ASSERT_TRUE(step->exercise.has_value()) << step->title;
  const std::vector<std::uint32_t> start = b.session().problem.masks;
  const SolverAnswer& answer = b.solver_answer();
  ASSERT_TRUE(answer.masks.has_value()) << answer.error;

  // Every answer button is there, disabled, and says why; clicking them changes nothing.
  EXPECT_TRUE(b.probe("grid.answers_locked").has_value());
  for (const char* button : {"grid.solver", "grid.classic_xor", "solver.apply"}) {
    ASSERT_TRUE(b.probe(button).has_value()) << button;
    click(button);
    EXPECT_EQ(b.session().problem.masks, start) << button;
  }
  EXPECT_TRUE(b.probe("lesson.exercise.unsolved").has_value());
  EXPECT_EQ(classroom().exercise_outcome, ExerciseOutcome::Open);

  // Giving up: the core's solution on the card, answered and not solved, the buttons work again.
  click("lesson.exercise.show_answer");
  EXPECT_EQ(classroom().exercise_outcome, ExerciseOutcome::Answered);
  EXPECT_EQ(classroom().exercise_answer, solve_exercise(*step).solution);
  EXPECT_TRUE(b.probe("lesson.exercise.answered").has_value());
  EXPECT_TRUE(b.probe("lesson.exercise.answer").has_value());
  EXPECT_FALSE(b.probe("lesson.exercise.show_answer").has_value());
  EXPECT_FALSE(b.probe("grid.answers_locked").has_value());
  click("grid.solver");
  EXPECT_NE(b.session().problem.masks, start);
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, 1);
  EXPECT_TRUE(b.probe("lesson.exercise.answered").has_value()) << "the solver's answer does not count as solved";
  if (const char* shot = std::getenv("SWZ_EXERCISE_ANSWER_SCREENSHOT")) {  // to look at the answered card
    int w = 0, h = 0;
    const auto px = capture(w, h);
    ASSERT_TRUE(write_png(shot, px, w, h, error)) << error;
  }

  // Return to this step: the exercise is open again, and so is the lock.
  apply_lesson_step(b);
  frames(3);
  EXPECT_EQ(b.session().problem.masks, start);
  EXPECT_TRUE(b.probe("lesson.exercise.unsolved").has_value());
  EXPECT_TRUE(b.probe("grid.answers_locked").has_value());
  click("grid.solver");
  EXPECT_EQ(b.session().problem.masks, start);
}

}  // namespace swz::gui::test
