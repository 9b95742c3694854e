// "Predict the count" on the lesson card under real input: the learner types a number into the
// card's field and presses Check; the card shows the core's verdict, and once a name is given each
// checked number is written to the student's record, which `swizzle quiz summary` counts.
#include <GLFW/glfw3.h>

#include <filesystem>

#include "classroom.h"
#include "commands.h"
#include "gui_fixture.h"
#include "swz/teach/lesson_predict.h"
#include "swz/teach/quiz_record.h"

namespace swz::gui::test {

struct PredictCardTest : GuiTest {
  // Clicks the text field `probe_id` and types `text` into it, the mouse out of the way.
  void type_into(const std::string& probe_id, const std::string& text) {
    click(probe_id);
    InjectedInput typing;
    typing.mouse_pos = ImVec2(-1000, -1000);
    typing.text = text;
    frame(&typing);
    frames(1);
  }
};

// Toy-gpu step 5 asks for the read's wavefronts while the access trace is on screen: its Read verdict,
// and the read's step count and bank bars when the learner switches to it, stay hidden until a number
// is checked on the card (prediction_veil, lesson_predict.h); the store, which the step is about, stays.
TEST_F(PredictCardTest, TheTraceHidesThePredictedCountUntilANumberIsChecked) {
  std::string error;
  if (!reopen(1920, 1080, error)) GTEST_SKIP() << "no display: " << error;
  Workbench& b = open();
  Classroom& c = classroom();
  c.prediction_checked_at = {-1, -1};
  ASSERT_TRUE(open_lesson(b, "toy-gpu", 5, error)) << error;
  frames(4);
  EXPECT_TRUE(b.probe("trace.verdict.read.veiled").has_value());
  EXPECT_FALSE(b.probe("trace.verdict.read").has_value()) << "the Read verdict gives the answer away";
  EXPECT_TRUE(b.probe("trace.verdict.store").has_value());
  EXPECT_TRUE(b.probe("trace.bar.0").has_value()) << "the store's bars are the step's subject";
  // Switching the trace to the read (as its Read button does) hides its count and bars too.
  b.post(cmd::set_side(Side::Read));
  frames(2);
  EXPECT_TRUE(b.probe("trace.veiled").has_value());
  EXPECT_FALSE(b.probe("trace.bar.0").has_value());
  screenshot_if_asked("SWZ_PREDICT_VEIL_SCREENSHOT");  // to look at the veiled trace

  // The step again (its store on show); a checked number (wrong here) shows everything again.
  go_to_step(b, 4);
  frames(3);
  EXPECT_TRUE(b.probe("trace.verdict.read.veiled").has_value());
  type_into("lesson.predict.field", "3");
  click("lesson.predict.check");
  ASSERT_TRUE(b.probe("lesson.predict.wrong").has_value());
  frames(2);
  EXPECT_TRUE(b.probe("trace.verdict.read").has_value());
  EXPECT_FALSE(b.probe("trace.verdict.read.veiled").has_value());
  EXPECT_TRUE(b.probe("trace.bar.0").has_value());
  // A step that asks nothing veils nothing.
  go_to_step(b, 5);
  frames(3);
  EXPECT_TRUE(b.probe("trace.verdict.read").has_value());
  // Leave the card as a fresh sitting finds it (the classroom lives as long as the process).
  go_to_step(b, 4);
  frames(3);
  click("lesson.predict.retry");
  c.prediction_checked_at = {-1, -1};
  close_lesson(b);
}

TEST_F(PredictCardTest, APredictionTypedOnTheCardIsCheckedAndRecorded) {
  std::string error;
  if (!reopen(1920, 1080, error)) GTEST_SKIP() << "no display: " << error;
  Workbench& b = open();
  Classroom& c = classroom();
  const auto records = temp_dir("records");
  c.records_dir = records;
  ASSERT_TRUE(open_lesson(b, "toy-gpu", 5, error)) << error;
  frames(4);
  const LessonStep* step = c.current_step();
  ASSERT_NE(step, nullptr);
  ASSERT_TRUE(step->predict.has_value()) << step->title;
  ASSERT_EQ(prediction_answer(*step), 8);  // the read of column 0: one bank, eight wavefronts
  ASSERT_TRUE(b.probe("lesson.predict").has_value());
  EXPECT_FALSE(b.probe("lesson.predict.right").has_value());

  const auto type = [&](const std::string& probe, const std::string& text) { type_into(probe, text); };
  // Wrong, with no name given: the verdict and the core's count, nothing written.
  type("lesson.predict.field", "4");
  click("lesson.predict.check");
  ASSERT_TRUE(b.probe("lesson.predict.wrong").has_value());
  EXPECT_FALSE(b.probe("lesson.predict.right").has_value());
  EXPECT_TRUE(std::filesystem::is_empty(records)) << "recorded without a name";
  screenshot_if_asked("SWZ_PREDICT_SCREENSHOT");  // to look at the card's verdict

  // A name, then another try: right, and written to the record.
  type("lesson.predict.student", "Ana Lima");
  key(GLFW_KEY_ENTER);
  EXPECT_EQ(c.student, "Ana Lima");
  click("lesson.predict.retry");
  EXPECT_FALSE(b.probe("lesson.predict.wrong").has_value());
  type("lesson.predict.field", "8");
  click("lesson.predict.check");
  ASSERT_TRUE(b.probe("lesson.predict.right").has_value());
  EXPECT_TRUE(c.record_error.empty()) << c.record_error;
  const QuizRecord r = load_quiz_record_file(records / "ana-lima.jsonl");
  EXPECT_EQ(r.student, "Ana Lima");
  ASSERT_EQ(r.exercises.size(), 1u);
  EXPECT_EQ(r.exercises[0].exercise, "toy-gpu/step-5");
  EXPECT_EQ(r.exercises[0].answer, "8");
  EXPECT_TRUE(r.exercises[0].correct);
  const QuizSummary s = summarize_quiz_record_dir(records);
  ASSERT_EQ(s.exercises.size(), 1u);
  EXPECT_EQ(s.exercises[0].correct, 1);

  // The next step asks nothing; coming back shows the answer given, and records nothing more.
  go_to_step(b, 5);
  frames(3);
  EXPECT_FALSE(b.probe("lesson.predict").has_value());
  go_to_step(b, 4);
  frames(3);
  EXPECT_TRUE(b.probe("lesson.predict.field").has_value());
  EXPECT_TRUE(b.probe("lesson.predict.right").has_value());
  EXPECT_EQ(load_quiz_record_file(records / "ana-lima.jsonl").exercises.size(), 1u);

  close_lesson(b);
  c.student.clear();
  c.records_dir.clear();
  c.record.reset();
  c.record_path.clear();
  b.apply_pending();
  std::filesystem::remove_all(records);
}

}  // namespace swz::gui::test
