// The handout (lesson_handout_html): one document per lesson holding every step, every
// exercise with its hints, the quiz, and an answer key whose solutions the core found.
#include <gtest/gtest.h>

#include <string>

#include "swz/problem/problem.h"
#include "swz/teach/claim_words.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_exercise.h"
#include "swz/teach/lesson_pages.h"
#include "swz/teach/math_text.h"
#include "swz/teach/quiz_set.h"

namespace swz {
namespace {

bool holds_text(const std::string& html, const std::string& text) { return html.find(text) != std::string::npos; }

TEST(LessonHandout, HoldsEveryStepEveryExerciseAndItsAnswer) {
  int exercises = 0, questions = 0;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    const std::string html = lesson_handout_html(lesson);
    const std::string name = file.filename().string();
    const std::size_t key = html.find("<h2>Answer key</h2>");
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const LessonStep& s = lesson.steps[i];
      const std::string heading = "<h2>Step " + std::to_string(i + 1) + ". " + render_math(s.title, MathStyle::Html) + "</h2>";
      const std::size_t at = html.find(heading);
      ASSERT_NE(at, std::string::npos) << name << ": " << heading;
      EXPECT_LT(at, key) << name << ": step " << i + 1 << " after the answer key";
      for (const std::string& n : s.notes) EXPECT_TRUE(holds_text(html, render_math(n, MathStyle::Html))) << name << " step " << i + 1;
      for (const ClaimCheck& c : check_claims(s))
        EXPECT_TRUE(holds_text(html, claim_in_words(c.claim.quantity, c.actual, MathStyle::Html))) << name << ": " << c.claim.quantity;
      if (!s.exercise) continue;
      ++exercises;
      const std::size_t task = html.find(render_math(s.exercise->task, MathStyle::Html));
      EXPECT_LT(task, key) << name << ": step " << i + 1 << "'s task is missing or in the key";
      for (const std::string& h : s.exercise->hints) EXPECT_TRUE(holds_text(html, render_math(h, MathStyle::Html))) << name;
      // The answer: the masks the core's search finds, after the steps, and each goal holding on them.
      const ExerciseSearch found = solve_exercise(s);
      ASSERT_TRUE(found.state) << name << " step " << i + 1;
      const std::size_t answer = html.find("id=\"answer-" + std::to_string(i + 1) + "\"");
      ASSERT_NE(answer, std::string::npos) << name << " step " << i + 1;
      EXPECT_GT(answer, key);
      const std::string entry = html.substr(answer, html.find("</li>\n</ul></li>", answer) - answer);
      const std::string answer_code = s.exercise->swizzle
                                          ? render_math(exercise_solution_text(*s.exercise, found), MathStyle::Html)
                                          : format_masks(*found.solution);
      EXPECT_TRUE(holds_text(entry, "<code>" + answer_code + "</code>")) << entry;
      EXPECT_FALSE(holds_text(entry, "class=\"off\"")) << entry;
    }
    if (lesson.quiz.empty()) continue;
    const QuizSet quiz = load_quiz_set_file(resolve_quiz_set(lesson.quiz));
    for (const QuizQuestion& q : quiz.questions) {
      ++questions;
      EXPECT_LT(html.find(render_math(q.prompt, MathStyle::Html)), key) << name << ": " << q.prompt;
      EXPECT_NE(html.find(render_math(q.right_choice(), MathStyle::Html) + "</strong>", key), std::string::npos) << name << ": " << q.prompt;
    }
  }
  EXPECT_GE(exercises, 4);
  EXPECT_GE(questions, 10);
}

}  // namespace
}  // namespace swz
