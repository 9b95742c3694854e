// The quiz soak for answers behind a question: every question of every shipped set, opened over
// the lesson that offers it (its last step, the card's claims shown) and over the question's own
// problem (what "Show on the workbench" left from the question before), must leave no panel that
// can show its answer (quiz_revealing_panels, the core's list) drawing any content; answered,
// the panels come back.
#include <algorithm>

#include "classroom.h"
#include "gui_fixture.h"
#include "swz/teach/lesson_paths.h"

namespace swz::gui::test {

namespace {

// Probes a panel draws inside itself start with its id ("trace.read", "solver.run", "lesson.claims").
std::vector<std::string> content_probes(const Workbench& b, const std::string& panel) {
  std::vector<std::string> out;
  for (const std::string& id : b.probe_ids())
    if (id.rfind(panel + ".", 0) == 0 && id != panel + ".veiled") out.push_back(id);
  return out;
}

}  // namespace

TEST_F(GuiTest, QuizHidesEveryPanelThatShowsTheOpenQuestionsAnswer) {
  Workbench& b = open();
  Classroom& c = classroom();
  scan_lessons(c);
  int questions = 0;
  for (const LessonEntry& entry : c.lessons) {
    if (!entry.lesson || entry.lesson->quiz.empty()) continue;
    const Lesson& lesson = *entry.lesson;
    std::string error;
    ASSERT_TRUE(open_lesson(b, lesson.name, static_cast<int>(lesson.steps.size()), error)) << error;
    c.show_claims = true;
    ASSERT_TRUE(open_quiz_set(b, lesson.quiz, error)) << error;
    const std::size_t n = c.quiz_set->questions.size();
    for (std::size_t i = 0; i < n; ++i) {
      const QuizQuestion q = c.quiz_set->questions[i];
      SCOPED_TRACE(lesson.quiz + " question " + std::to_string(i + 1) + ": " + q.prompt);
      for (int over_its_problem = 0; over_its_problem < 2; ++over_its_problem) {
        if (over_its_problem) {
          if (!q.problem) continue;
          const ProblemSpec problem = *q.problem;  // the worst case: the workbench shows the question's problem
          b.post({"Quiz question", [problem](Session& s) { s.problem = problem; }});
        } else {
          apply_lesson_step(b);  // the lesson's last step, claims listed on the card
        }
        // Every panel on show, so none escapes by being hidden in this lesson step's view.
        b.post({"Every panel", [](Session& s) {
                  for (const char* id : {"problem", "grid", "tensor", "trace", "layouts", "matrix", "algebra", "memory", "solver"})
                    s.view.panels[id] = true;
                }});
        b.apply_pending();
        c.set_index = static_cast<int>(i);
        c.question = q;
        c.answer.reset();
        frames(2);
        ++questions;
        for (const std::string& panel : quiz_revealing_panels(q)) {
          if (panel == "lesson") {  // the card stays (its text, its buttons); its claims list values, so they go
            EXPECT_FALSE(b.probe("lesson.claims").has_value()) << "the card lists its claims";
            continue;
          }
          EXPECT_EQ(content_probes(b, panel), std::vector<std::string>{}) << panel << " shows its content";
          EXPECT_TRUE(b.probe("panel." + panel + ".veiled").has_value()) << panel << " is not veiled";
        }
      }
      // Answered: the workbench is back.
      click("quiz.choice." + std::to_string(q.answer));
      frames(1);
      EXPECT_FALSE(b.probe("panel.trace.veiled").has_value());
      EXPECT_TRUE(b.probe("panel.trace").has_value());
    }
    c.quiz_open = false;
    close_lesson(b);
  }
  EXPECT_GE(questions, 20);
}

}  // namespace swz::gui::test
