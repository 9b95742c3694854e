// Links under real frames: a lesson step and masks opened from a link, Copy link then
// Open link giving back the same state, a bad link shown as an error; and a student's
// quiz answers recorded to their own file.
#include "swz/io/link.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "classroom.h"
#include "gui_fixture.h"
#include "open_link.h"
#include "swz/sim/analysis.h"

namespace swz::gui::test {

namespace {

// The classroom is one per process: leave it as a fresh start finds it.
void reset_classroom(Workbench& b) {
  Classroom& c = classroom();
  if (c.open_lesson >= 0) close_lesson(b);
  c.quiz_open = false;
  c.quiz_set.reset();
  c.student.clear();
  c.records_dir.clear();
  b.apply_pending();
}

}  // namespace

TEST_F(GuiTest, LinkWithALessonStepOpensThatStep) {
  Workbench& b = open();
  std::string error;
  ASSERT_TRUE(apply_link(b, "https://example.org/workbench/#v=1&lesson=swizzle-by-hand&step=4", error)) << error;
  frames(3);
  Classroom& c = classroom();
  ASSERT_NE(c.lesson(), nullptr);
  EXPECT_EQ(c.lesson()->name, "swizzle-by-hand");
  EXPECT_EQ(c.step, 3);
  ASSERT_NE(c.current_step(), nullptr);
  EXPECT_EQ(b.session().problem, state_for_step(*c.current_step()));
  EXPECT_TRUE(b.probe("lesson.next").has_value()) << "no lesson card on screen";
  EXPECT_TRUE(b.error().empty()) << b.error();
  int w = 0, h = 0;
  const auto px = capture(w, h);
  std::string why;
  ASSERT_TRUE(write_png((std::filesystem::temp_directory_path() / "swz-link-lesson-step.png").string(), px, w, h, why)) << why;
  reset_classroom(b);
}

TEST_F(GuiTest, LinkWithMasksShowsThoseMasks) {
  Workbench& b = open();
  std::string error;
  ASSERT_TRUE(apply_link(b, "#v=1&preset=transpose16x32&masks=2,4,8,16", error)) << error;
  frames(3);
  EXPECT_EQ(b.session().problem.masks, (std::vector<std::uint32_t>{2, 4, 8, 16}));
  Problem core = make_preset("transpose16x32");
  core.set_masks({2, 4, 8, 16});
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, analyze(core).read.simulated.wavefronts);
  // The toggle grid draws them: row bit j's cell in column bit j+1 is on, the one in column bit j off.
  int w = 0, h = 0;
  const auto px = capture(w, h);
  for (int j = 0; j < 4; ++j) {
    const auto on = b.probe(fmt::format("grid.cell.{}.{}", j, j + 1));
    const auto off = b.probe(fmt::format("grid.cell.{}.{}", j, j));
    ASSERT_TRUE(on && off) << "no grid cells for row bit " << j;
    const Rgba a = pixel(px, w, on->center()), o = pixel(px, w, off->center());
    EXPECT_FALSE(near(a, o, 10)) << "row bit " << j << ": the folded cell looks like an empty one";
  }
  std::string why;
  ASSERT_TRUE(write_png((std::filesystem::temp_directory_path() / "swz-link-masks.png").string(), px, w, h, why)) << why;
  reset_classroom(b);
}

TEST_F(GuiTest, CopyLinkThenOpenLinkGivesBackTheSameState) {
  Workbench& b = open();
  Classroom& c = classroom();
  std::string error;
  // A lesson step the learner changed, and a quiz set on show.
  ASSERT_TRUE(open_lesson(b, "toy-gpu", 3, error)) << error;
  frames(2);
  ASSERT_TRUE(b.apply(cmd::set_masks("by hand", {1, 2}))) << b.error();
  ASSERT_TRUE(open_quiz_set(b, "first-class", error)) << error;
  frames(2);
  const ProblemSpec problem = b.session().problem;
  click("menu.edit");
  click("menu.edit.copy_link");
  const std::string link = ImGui::GetClipboardText() ? ImGui::GetClipboardText() : "";
  EXPECT_EQ(link.rfind("#v=1&", 0), 0u) << link;
  EXPECT_NE(link.find("lesson=toy-gpu&step=3"), std::string::npos) << link;
  EXPECT_NE(link.find("quiz=first-class"), std::string::npos) << link;
  EXPECT_NE(link.find("masks=1,2"), std::string::npos) << link;

  // Somewhere else entirely, then the link from the clipboard.
  reset_classroom(b);
  b.apply(cmd::select_preset("toy8x8"));
  frames(2);
  ASSERT_NE(b.session().problem, problem);
  click("menu.edit");
  click("menu.edit.open_link");
  frames(2);
  EXPECT_TRUE(b.error().empty()) << b.error();
  EXPECT_EQ(b.session().problem, problem);
  ASSERT_NE(c.lesson(), nullptr);
  EXPECT_EQ(c.lesson()->name, "toy-gpu");
  EXPECT_EQ(c.step, 2);
  EXPECT_TRUE(c.quiz_open);
  ASSERT_TRUE(c.quiz_set.has_value());
  EXPECT_EQ(c.quiz_set->name, "first-class");
  EXPECT_EQ(make_link(current_link(b)), link);

  // The step's own problem is not repeated in its link.
  go_to_step(b, 3);
  frames(2);
  EXPECT_FALSE(current_link(b).problem.has_value()) << make_link(current_link(b));
  reset_classroom(b);
}

TEST_F(GuiTest, BadLinkIsShownAndChangesNothing) {
  Workbench& b = open();
  const ProblemSpec before = b.session().problem;
  std::string error;
  EXPECT_FALSE(apply_link(b, "#v=1&preset=transpose16x32&masks=2,x", error));
  EXPECT_EQ(error.rfind("link: masks: ", 0), 0u) << error;
  EXPECT_NE(b.error().find("Cannot open the link: link: masks:"), std::string::npos) << b.error();
  EXPECT_FALSE(apply_link(b, "#v=1&preset=toy8x8&lesson=no-such-lesson", error));
  EXPECT_EQ(error.rfind("link: lesson: ", 0), 0u) << error;
  frames(3);
  EXPECT_EQ(b.session().problem, before) << "a refused link changed the problem";
  EXPECT_EQ(classroom().open_lesson, -1);
  reset_classroom(b);
}

TEST_F(GuiTest, QuizAnswersAreRecordedUnderTheStudentsName) {
  Workbench& b = open();
  Classroom& c = classroom();
  const auto records = temp_dir("records");
  c.records_dir = records;
  std::string error;
  ASSERT_TRUE(open_quiz_set(b, "first-class", error)) << error;
  frames(2);
  // The student types a name and starts recording.
  click("quiz.student");
  InjectedInput typing;
  typing.mouse_pos = ImVec2(-1000, -1000);
  typing.text = "Ana Lima";
  frame(&typing);
  frames(1);
  click("quiz.record");
  EXPECT_EQ(c.student, "Ana Lima");
  ASSERT_TRUE(b.probe("quiz.recording").has_value());
  EXPECT_FALSE(std::filesystem::exists(records / "ana-lima.jsonl")) << "a file before any answer";
  int w = 0, h = 0;
  const auto px = capture(w, h);
  std::string why;
  ASSERT_TRUE(write_png((std::filesystem::temp_directory_path() / "swz-quiz-recording.png").string(), px, w, h, why)) << why;

  // Right on the first question, wrong on the second.
  const QuizQuestion first = *c.question;
  click("quiz.choice." + std::to_string(first.answer));
  click("quiz.next");
  const QuizQuestion second = *c.question;
  const int wrong = (second.answer + 1) % static_cast<int>(second.choices.size());
  click("quiz.choice." + std::to_string(wrong));
  const QuizRecord r = load_quiz_record_file(records / "ana-lima.jsonl");
  EXPECT_EQ(r.student, "Ana Lima");
  EXPECT_EQ(r.set, "first-class");
  ASSERT_EQ(r.answers.size(), 2u);
  EXPECT_EQ(r.answers[0].question, "first-class/1");
  EXPECT_EQ(r.answers[0].prompt, first.prompt);
  EXPECT_TRUE(r.answers[0].correct);
  EXPECT_EQ(r.answers[1].question, "first-class/2");
  EXPECT_EQ(r.answers[1].choice, wrong);
  EXPECT_EQ(r.answers[1].choice_text, second.choices[static_cast<std::size_t>(wrong)]);
  EXPECT_FALSE(r.answers[1].correct);
  EXPECT_TRUE(c.record_error.empty()) << c.record_error;

  // A skip is recorded and counts against the score (quiz_score.h): the card, the record and the
  // summary give one score.
  click("quiz.next");
  click("quiz.next");  // no answer: the third question is skipped
  const QuizRecord with_skip = load_quiz_record_file(records / "ana-lima.jsonl");
  ASSERT_EQ(with_skip.answers.size(), 3u);
  EXPECT_TRUE(with_skip.answers[2].skipped);
  EXPECT_EQ(with_skip.answers[2].question, "first-class/3");
  EXPECT_EQ(c.score.text(), "1 / 3");
  EXPECT_EQ(score_answers(with_skip.answers).text(), c.score.text());

  // Another sitting takes a file of its own; the first stays as it was.
  start_quiz(b, c.quiz_set);
  frames(2);
  click("quiz.choice.0");
  EXPECT_EQ(load_quiz_record_file(records / "ana-lima.jsonl"), with_skip);
  EXPECT_EQ(load_quiz_record_file(records / "ana-lima-2.jsonl").answers.size(), 1u);
  const QuizSummary s = summarize_quiz_record_dir(records);
  ASSERT_EQ(s.students.size(), 2u);
  const auto first_sitting = std::find_if(s.students.begin(), s.students.end(), [](const auto& st) { return st.file == "ana-lima.jsonl"; });
  ASSERT_NE(first_sitting, s.students.end());
  EXPECT_EQ(first_sitting->correct, 1);
  EXPECT_EQ(first_sitting->answered, 2);
  EXPECT_EQ(first_sitting->asked(), 3);
  reset_classroom(b);
  std::filesystem::remove_all(records);
}

}  // namespace swz::gui::test
