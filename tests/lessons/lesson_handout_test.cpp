// A lesson on paper: the student handout (lesson_student_handout_html) holds every step, its
// figures and claims, each exercise's task with only its first hint and each prediction's question,
// and nothing that answers them; the teacher's key (lesson_teacher_key_html) holds the notes, every
// hint, the core's answers and the plan. Checked against the lesson data of every shipped lesson.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "swz/export/font.h"
#include "swz/problem/problem.h"
#include "swz/teach/claim_words.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_exercise.h"
#include "swz/teach/lesson_pages.h"
#include "swz/teach/lesson_predict.h"
#include "swz/teach/math_text.h"
#include "swz/teach/quiz_set.h"

namespace swz {
namespace {

bool holds_text(const std::string& html, const std::string& text) { return html.find(text) != std::string::npos; }
std::string html(const std::string& text) { return render_math(text, MathStyle::Html); }

// The part of a document from step i's section to the next section.
std::string step_section(const std::string& doc, std::size_t i) {
  const std::size_t at = doc.find("<section class=\"step\" id=\"step-" + std::to_string(i + 1) + "\">");
  if (at == std::string::npos) return "";
  return doc.substr(at, doc.find("</section>", at) - at);
}

// The answer to a step's exercise as the key writes it.
std::string answer_code(const LessonStep& s) {
  const ExerciseSearch found = solve_exercise(s);
  return s.exercise->swizzle ? html(exercise_solution_text(*s.exercise, found)) : format_masks(*found.solution);
}

TEST(LessonHandout, StudentHandoutHasEveryTaskAndNoAnswerHintPastTheFirstOrNote) {
  int exercises = 0, predictions = 0, questions = 0;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    const std::string doc = lesson_student_handout_html(lesson);
    const std::string name = file.filename().string();
    EXPECT_FALSE(holds_text(doc, "class=\"answer\"")) << name;
    EXPECT_FALSE(holds_text(doc, "Answer")) << name;
    EXPECT_FALSE(holds_text(doc, "class=\"notes\"")) << name;
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const LessonStep& s = lesson.steps[i];
      const std::string section = step_section(doc, i);
      ASSERT_FALSE(section.empty()) << name << " step " << i + 1;
      EXPECT_TRUE(holds_text(section, "<h2>Step " + std::to_string(i + 1) + ". " + html(s.title) + "</h2>"))
          << name << " step " << i + 1;
      EXPECT_TRUE(holds_text(section, "<div class=\"figure\"")) << name << " step " << i + 1 << ": no figure";
      for (const ClaimCheck& c : check_claims(s))
        EXPECT_TRUE(holds_text(section, claim_in_words(c.claim.quantity, c.actual, MathStyle::Html)))
            << name << ": " << c.claim.quantity;
      for (const std::string& n : s.notes)
        EXPECT_FALSE(holds_text(doc, html(n))) << name << " step " << i + 1 << ": a speaker note";
      if (s.exercise) {
        ++exercises;
        EXPECT_TRUE(holds_text(section, html(s.exercise->task))) << name << " step " << i + 1;
        EXPECT_TRUE(holds_text(section, "Moves: ")) << name << " step " << i + 1;
        ASSERT_FALSE(s.exercise->hints.empty());
        EXPECT_TRUE(holds_text(section, "Hint: " + html(s.exercise->hints[0]))) << name << " step " << i + 1;
        for (std::size_t h = 1; h < s.exercise->hints.size(); ++h)
          EXPECT_FALSE(holds_text(doc, html(s.exercise->hints[h]))) << name << " step " << i + 1 << ": hint " << h + 1;
        EXPECT_FALSE(holds_text(section, answer_code(s))) << name << " step " << i + 1 << ": the answer beside the task";
      }
      if (s.predict) {
        ++predictions;
        EXPECT_TRUE(holds_text(section, html(s.predict->ask))) << name << " step " << i + 1;
        EXPECT_TRUE(holds_text(section, "Your answer: <span class=\"blank\"></span>")) << name;
      }
    }
    if (lesson.quiz.empty()) continue;
    const QuizSet quiz = load_quiz_set_file(resolve_quiz_set(lesson.quiz));
    for (const QuizQuestion& q : quiz.questions) {
      ++questions;
      EXPECT_TRUE(holds_text(doc, html(q.prompt))) << name << ": " << q.prompt;
      EXPECT_FALSE(holds_text(doc, html(q.explanation))) << name << ": the explanation of " << q.prompt;
    }
  }
  EXPECT_GE(exercises, 5);
  EXPECT_GE(predictions, 3);
  EXPECT_GE(questions, 10);
}

TEST(LessonHandout, TeachersKeyHasNotesEveryHintTheAnswersAndThePlan) {
  int answers = 0;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    const std::string key = lesson_teacher_key_html(lesson);
    const std::string name = file.filename().string();
    const double planned = planned_minutes_before(lesson, lesson.steps.size());
    if (planned > 0) {
      EXPECT_TRUE(holds_text(key, fmt::format("<h2>Plan: {:g} minutes</h2>", planned))) << name;
    }
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const LessonStep& s = lesson.steps[i];
      const std::string section = step_section(key, i);
      ASSERT_FALSE(section.empty()) << name << " step " << i + 1;
      if (s.minutes > 0) {
        EXPECT_TRUE(
            holds_text(section, fmt::format("{:g} min; by its end {:g} min", s.minutes, planned_minutes_before(lesson, i + 1))))
            << name << " step " << i + 1;
      }
      for (const std::string& n : s.notes) EXPECT_TRUE(holds_text(section, html(n))) << name << " step " << i + 1;
      if (s.exercise) {
        ++answers;
        EXPECT_TRUE(holds_text(section, html(s.exercise->task))) << name;
        for (const std::string& h : s.exercise->hints) EXPECT_TRUE(holds_text(section, html(h))) << name << " step " << i + 1;
        const std::size_t at = section.find("id=\"answer-" + std::to_string(i + 1) + "\"");
        ASSERT_NE(at, std::string::npos) << name << " step " << i + 1;
        const std::string entry = section.substr(at);
        EXPECT_TRUE(holds_text(entry, "<code>" + answer_code(s) + "</code>")) << entry;
        EXPECT_FALSE(holds_text(entry, "class=\"off\"")) << entry;  // the goal holds on the answer
      }
      if (s.predict) {
        ++answers;
        EXPECT_TRUE(holds_text(
            section, fmt::format("id=\"predict-answer-{}\"><p><strong>Answer: {}</strong>", i + 1, prediction_answer(s))))
            << section;
      }
    }
    if (lesson.quiz.empty()) continue;
    const QuizSet quiz = load_quiz_set_file(resolve_quiz_set(lesson.quiz));
    for (const QuizQuestion& q : quiz.questions) {
      EXPECT_TRUE(holds_text(key, html(q.right_choice()) + "</strong> " + html(q.explanation))) << name << ": " << q.prompt;
    }
  }
  EXPECT_GE(answers, 8);
}

// Printed, a step stays together: no step starts a page by force, each one (its figures, its claims,
// its task) asks not to be split, and figures are kept short enough for a step to fit a page.
TEST(LessonHandout, PrintedStepsStayTogether) {
  const Lesson lesson = load_lesson_file(std::filesystem::path(SWZ_LESSONS_DIR) / "swizzle-by-hand.json");
  for (const std::string& doc : {lesson_student_handout_html(lesson), lesson_teacher_key_html(lesson)}) {
    const std::size_t print = doc.find("@media print{");
    ASSERT_NE(print, std::string::npos);
    const std::string css = doc.substr(print, doc.find("</style>") - print);
    EXPECT_TRUE(holds_text(css, "section.step,.practice,ul.claims,.figure,li.question,li.quiz-answer{break-inside:avoid}"))
        << css;
    EXPECT_TRUE(holds_text(css, "h2,h3{break-after:avoid}")) << css;
    EXPECT_TRUE(holds_text(css, ".figures .figure svg{max-height:var(--print-height);width:auto}")) << css;
    EXPECT_FALSE(holds_text(css, "section.step{break-before")) << css;
    EXPECT_FALSE(holds_text(css, "section.step,#quiz")) << css;
  }
}

// Step pages and slides carry what the step asks (its task and moves, its question) and no hint;
// the words work off the screen too: no card, button or click to point at.
TEST(LessonHandout, StepPagesAndSlidesCarryTheTaskInWordsThatWorkOffScreen) {
  const Typeface type = Typeface::load();
  int asked = 0;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    const std::vector<LessonPage> pages = lesson_pages(lesson);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const LessonStep& s = lesson.steps[i];
      const std::vector<std::string> lines = step_practice_lines(s);
      EXPECT_EQ(lines.size(), (s.exercise ? 1u : 0u) + (s.predict ? 1u : 0u));
      for (const std::string& line : lines) {
        ++asked;
        EXPECT_LE(line.size(), 260u) << "too long for a slide: " << line;
        for (const char* word : {"card", "button", "click", "Show a hint"}) EXPECT_FALSE(holds_text(line, word)) << line;
        for (const std::string& p : s.paragraphs)
          for (const char* word : {"this card", "on the card", "click"}) EXPECT_FALSE(holds_text(p, word)) << file << ": " << p;
      }
      const std::string& page = pages[i].contents;
      if (!lines.empty()) {  // on the step's first slide, word-wrapped in its text column
        std::string slide;
        for (const SlideText& t : slide_texts(lesson, i, type))
          if (t.slide == 0 && t.figure.empty()) slide += t.text + " ";
        for (const std::string& line : lines) {
          const std::string first_words = render_math(line, MathStyle::Unicode).substr(0, line.find(' ', 12));
          EXPECT_TRUE(holds_text(slide, first_words)) << lesson.name << " step " << i + 1 << ": " << first_words << "\n" << slide;
        }
      }
      if (s.exercise) {
        EXPECT_TRUE(holds_text(lines[0], s.exercise->task + " Moves: ")) << lines[0];
        EXPECT_TRUE(holds_text(page, html(s.exercise->task))) << lesson.name << " step " << i + 1;
        for (const std::string& h : s.exercise->hints)
          EXPECT_FALSE(holds_text(page, html(h))) << lesson.name << " step " << i + 1;
      }
      if (s.predict) {
        EXPECT_EQ(lines.back(), "Predict: " + s.predict->ask);
        EXPECT_TRUE(holds_text(page, html(s.predict->ask))) << lesson.name << " step " << i + 1;
      }
    }
  }
  EXPECT_GE(asked, 8);
}

}  // namespace
}  // namespace swz
