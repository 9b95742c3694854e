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
  screenshot_if_asked("SWZ_EXERCISE_SCREENSHOT");  // to look at the solved card

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
  EXPECT_EQ(classroom().exercise_answer, exercise_solution_text(*step->exercise, solve_exercise(*step)));
  EXPECT_EQ(classroom().exercise_answer->rfind("masks ", 0), 0u) << *classroom().exercise_answer;
  EXPECT_TRUE(b.probe("lesson.exercise.answered").has_value());
  EXPECT_TRUE(b.probe("lesson.exercise.answer").has_value());
  EXPECT_FALSE(b.probe("lesson.exercise.show_answer").has_value());
  EXPECT_FALSE(b.probe("grid.answers_locked").has_value());
  click("grid.solver");
  EXPECT_NE(b.session().problem.masks, start);
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, 1);
  EXPECT_TRUE(b.probe("lesson.exercise.answered").has_value()) << "the solver's answer does not count as solved";
  screenshot_if_asked("SWZ_EXERCISE_ANSWER_SCREENSHOT");  // to look at the answered card

  // Return to this step: the exercise is open again, and so is the lock.
  apply_lesson_step(b);
  frames(3);
  EXPECT_EQ(b.session().problem.masks, start);
  EXPECT_TRUE(b.probe("lesson.exercise.unsolved").has_value());
  EXPECT_TRUE(b.probe("grid.answers_locked").has_value());
  click("grid.solver");
  EXPECT_EQ(b.session().problem.masks, start);
}

// The CuTe lesson's exercise: B, M and S stepped on the card. The core builds each layout, the card
// names the one CuTe refuses (|S| < B) and keeps the workbench's, and the check follows to "Solved".
TEST_F(GuiTest, SwizzleExerciseIsSolvedWithTheCardsBMSButtons) {
  std::string error;
  if (!reopen(1920, 1080, error)) GTEST_SKIP() << "no display: " << error;
  Workbench& b = open();
  ASSERT_TRUE(open_lesson(b, "cute-swizzle", 1, error)) << error;
  int at = -1;
  for (std::size_t i = 0; i < classroom().lesson()->steps.size(); ++i)
    if (classroom().lesson()->steps[i].exercise) at = static_cast<int>(i);
  ASSERT_GE(at, 0) << "the CuTe lesson has no exercise";
  go_to_step(b, at);
  frames(4);
  const LessonStep* step = classroom().current_step();
  ASSERT_TRUE(step && step->exercise && step->exercise->swizzle);
  EXPECT_TRUE(b.probe("lesson.exercise.unsolved").has_value());
  const auto origin = [&] { return b.session().problem.shared ? b.session().problem.shared->origin : std::string("(none)"); };
  const std::string plain = step->exercise->swizzle->plain_text;
  EXPECT_EQ(plain, "(64,64):(64,1)");

  for (int i = 0; i < 3; ++i) click("lesson.exercise.M.plus");  // Swizzle<0,3,1>: still no swizzle
  EXPECT_EQ(origin(), "Swizzle<0,3,1> o " + plain);
  click("lesson.exercise.B.plus");  // Swizzle<1,3,1>
  EXPECT_EQ(origin(), "Swizzle<1,3,1> o " + plain);
  click("lesson.exercise.B.plus");  // Swizzle<2,3,1>: CuTe refuses it, the workbench keeps <1,3,1>
  ASSERT_TRUE(b.probe("lesson.exercise.swizzle_error").has_value());
  EXPECT_EQ(origin(), "Swizzle<1,3,1> o " + plain);
  click("lesson.exercise.S.plus");
  click("lesson.exercise.S.plus");  // Swizzle<2,3,3>: two bits, pairs of rows still collide
  EXPECT_FALSE(b.probe("lesson.exercise.swizzle_error").has_value());
  EXPECT_EQ(origin(), "Swizzle<2,3,3> o " + plain);
  EXPECT_TRUE(b.probe("lesson.exercise.unsolved").has_value());
  click("lesson.exercise.B.plus");  // Swizzle<3,3,3>: the TMA 128B pattern
  EXPECT_EQ(origin(), "Swizzle<3,3,3> o " + plain);
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, 4);
  EXPECT_EQ(b.model().analysis.store.simulated.wavefronts, 4);
  EXPECT_TRUE(check_exercise(*step, b.session().problem, b.session().trace.step).solved);
  EXPECT_TRUE(b.probe("lesson.exercise.solved").has_value());
  screenshot_if_asked("SWZ_SWIZZLE_EXERCISE_SCREENSHOT");  // to look at the solved card

  // M = 2 splits the 16-byte rows ldmatrix reads: the card says so and the workbench keeps <3,3,3>.
  click("lesson.exercise.M.minus");
  ASSERT_TRUE(b.probe("lesson.exercise.swizzle_error").has_value());
  EXPECT_EQ(origin(), "Swizzle<3,3,3> o " + plain);
  click("lesson.exercise.M.plus");
  EXPECT_FALSE(b.probe("lesson.exercise.swizzle_error").has_value());

  // Undo goes back to <2,3,3>, and the card's B follows it: one more B is <3,3,3> again.
  b.undo();
  frames(3);
  EXPECT_EQ(origin(), "Swizzle<2,3,3> o " + plain);
  EXPECT_EQ(classroom().exercise_outcome, ExerciseOutcome::Solved) << "solved once, the one-click answers stay unlocked";
  click("lesson.exercise.B.plus");
  EXPECT_EQ(origin(), "Swizzle<3,3,3> o " + plain);

  // Return to this step starts again; giving up shows the core's answer in CuTe's words.
  apply_lesson_step(b);
  frames(3);
  EXPECT_TRUE(b.probe("lesson.exercise.unsolved").has_value());
  click("lesson.exercise.show_answer");
  ASSERT_TRUE(classroom().exercise_answer.has_value());
  EXPECT_EQ(*classroom().exercise_answer, "Swizzle<3,3,3> o " + plain);
  EXPECT_TRUE(b.probe("lesson.exercise.answer").has_value());
}

}  // namespace swz::gui::test
