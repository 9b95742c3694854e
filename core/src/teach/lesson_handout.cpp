// lesson_handout.cpp: a lesson on paper. The student handout (what the class is given: steps,
// figures, tasks, the first hint) and the teacher's key (notes, answers, timing), two files so the
// answers never travel with the tasks.
#include <fmt/format.h>

#include <optional>

#include "lesson_html.h"
#include "swz/export/svg.h"
#include "swz/teach/claim_words.h"
#include "swz/teach/lesson_exercise.h"
#include "swz/teach/lesson_pages.h"
#include "swz/teach/lesson_predict.h"
#include "swz/teach/math_text.h"
#include "swz/teach/quiz_set.h"

namespace swz {

namespace {

std::string html(const std::string& text) { return render_math(text, MathStyle::Html); }

std::string moves_words(const LessonExercise& e) {
  return fmt::format("{}{}", e.swizzle ? "" : "at most ", exercise_moves_text(e));
}

std::string step_heading(std::size_t i, const LessonStep& s) {
  return fmt::format("<h2>Step {}. {}</h2>\n", i + 1, html(s.title));
}

std::optional<QuizSet> lesson_quiz(const Lesson& lesson) {
  if (lesson.quiz.empty()) return std::nullopt;
  return load_quiz_set_file(resolve_quiz_set(lesson.quiz));
}

std::string contents_html(const Lesson& lesson) {
  std::string out =
      fmt::format("<h1>{}</h1>\n<p>{}</p>\n<ol class=\"contents\">\n", xml_escape(lesson.title), html(lesson.summary));
  for (std::size_t i = 0; i < lesson.steps.size(); ++i)
    out += fmt::format("<li><a href=\"#step-{}\">{}</a></li>\n", i + 1, html(lesson.steps[i].title));
  return out + "</ol>\n";
}

const char kChoiceLetters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

std::string quiz_questions_html(const QuizSet& quiz) {
  std::string out = fmt::format("<section id=\"quiz\">\n<h2>Quiz: {}</h2>\n<ol>\n", html(quiz.title));
  for (const QuizQuestion& q : quiz.questions) {
    out += "<li class=\"question\">";
    if (!q.context.empty()) out += "<p>" + html(q.context) + "</p>";
    for (const std::string& d : q.details) out += "<p>" + html(d) + "</p>";
    out += "<p><strong>" + html(q.prompt) + "</strong></p>\n<ol type=\"A\">";
    for (const std::string& c : q.choices) out += "<li>" + html(c) + "</li>";
    out += "</ol></li>\n";
  }
  return out + "</ol>\n</section>\n";
}

std::string quiz_answers_html(const QuizSet& quiz) {
  std::string out = fmt::format("<h2>Quiz: {}</h2>\n<ol>\n", html(quiz.title));
  for (const QuizQuestion& q : quiz.questions)
    out += fmt::format("<li class=\"quiz-answer\"><p>{}</p><p><strong>{}. {}</strong> {}</p></li>\n", html(q.prompt),
                       kChoiceLetters[q.answer % 26], html(q.right_choice()), html(q.explanation));
  return out + "</ol>\n";
}

// The core's solution of a step's exercise: the state it found, and the goal checked on it.
std::string exercise_answer_html(std::size_t index, const LessonStep& step) {
  std::string out = fmt::format("<div class=\"answer\" id=\"answer-{}\"><p><strong>Answer:</strong> ", index + 1);
  const ExerciseSearch found = solve_exercise(step);
  if (!found.state)
    return out + fmt::format("no state within {} meets the goal.</p></div>\n", exercise_moves_text(*step.exercise));
  if (const auto& swizzle = step.exercise->swizzle)
    out += fmt::format("<code>{}</code> (the step starts with <code>{}</code>).</p>\n",
                       html(exercise_solution_text(*step.exercise, found)),
                       html(fmt::format("Swizzle<{},{},{}>", swizzle->start[0], swizzle->start[1], swizzle->start[2])));
  else
    out += fmt::format("row masks <code>{}</code> ({}).</p>\n", format_masks(*found.solution),
                       step.problem.masks.empty()
                           ? "the step starts with none"
                           : fmt::format("the step starts with <code>{}</code>", format_masks(step.problem.masks)));
  out += "<ul class=\"claims\">\n";
  for (const ClaimCheck& c : check_exercise(step, *found.state, step.step).goal)
    out += fmt::format("<li{}>{}</li>\n", c.holds ? "" : " class=\"off\"",
                       claim_in_words(c.claim.quantity, c.actual, MathStyle::Html));
  return out + "</ul></div>\n";
}

// A step in the key: its time, its notes, its exercise with every hint and the answer, its prediction's answer.
std::string key_step_html(const Lesson& lesson, std::size_t i) {
  const LessonStep& s = lesson.steps[i];
  std::string out = fmt::format("<section class=\"step\" id=\"step-{}\">\n{}", i + 1, step_heading(i, s));
  if (s.minutes > 0)
    out += fmt::format("<p class=\"time\">{:g} min; by its end {:g} min</p>\n", s.minutes, planned_minutes_before(lesson, i + 1));
  if (!s.notes.empty()) {
    out += "<div class=\"notes\">\n";
    for (const std::string& n : s.notes) out += "<p>" + html(n) + "</p>\n";
    out += "</div>\n";
  }
  if (s.exercise) {
    out += fmt::format("<div class=\"practice\">\n<h3>Exercise</h3>\n<p>{}</p>\n<p>Moves: {}.</p>\n", html(s.exercise->task),
                       moves_words(*s.exercise));
    if (!s.exercise->hints.empty()) {
      out += "<p>Hints, in the order the card shows them:</p>\n<ol class=\"hints\">\n";
      for (const std::string& h : s.exercise->hints) out += "<li>" + html(h) + "</li>\n";
      out += "</ol>\n";
    }
    out += exercise_answer_html(i, s) + "</div>\n";
  }
  if (s.predict) {
    const std::int64_t value = prediction_answer(s);
    out += fmt::format(
        "<div class=\"practice\">\n<h3>Predict</h3>\n<p>{}</p>\n<div class=\"answer\" "
        "id=\"predict-answer-{}\"><p><strong>Answer: {}</strong>. "
        "{}</p></div>\n</div>\n",
        html(s.predict->ask), i + 1, value, claim_in_words(s.predict->quantity, value, MathStyle::Html));
  }
  return out + "</section>\n";
}

}  // namespace

std::string practice_html(const LessonStep& s, std::size_t hints) {
  std::string out;
  if (s.exercise) {
    const LessonExercise& e = *s.exercise;
    out += fmt::format("<div class=\"practice exercise\">\n<h3>Exercise</h3>\n<p>{}</p>\n<p>Moves: {}.</p>\n", html(e.task),
                       moves_words(e));
    for (std::size_t h = 0; h < hints && h < e.hints.size(); ++h)
      out += fmt::format("<p class=\"hint\">Hint{}: {}</p>\n", hints > 1 ? fmt::format(" {}", h + 1) : "", html(e.hints[h]));
    out += "</div>\n";
  }
  if (s.predict)
    out += fmt::format(
        "<div class=\"practice predict\">\n<h3>Predict</h3>\n<p>{}</p>\n<p>Your answer: <span "
        "class=\"blank\"></span></p>\n</div>\n",
        html(s.predict->ask));
  return out;
}

std::vector<std::string> step_practice_lines(const LessonStep& s) {
  std::vector<std::string> out;
  if (s.exercise) out.push_back(fmt::format("Exercise: {} Moves: {}.", s.exercise->task, moves_words(*s.exercise)));
  if (s.predict) out.push_back(fmt::format("Predict: {}", s.predict->ask));
  return out;
}

std::string lesson_student_handout_html(const Lesson& lesson) {
  const std::optional<QuizSet> quiz = lesson_quiz(lesson);
  std::string body = contents_html(lesson);
  for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
    const LessonStep& s = lesson.steps[i];
    body += fmt::format("<section class=\"step\" id=\"step-{}\">\n{}", i + 1, step_heading(i, s));
    body += step_content_html(s) + practice_html(s, /*hints=*/1) + "</section>\n";
  }
  if (quiz) body += quiz_questions_html(*quiz);
  return html_page(lesson.title + ": handout", body);
}

std::string lesson_teacher_key_html(const Lesson& lesson) {
  const std::optional<QuizSet> quiz = lesson_quiz(lesson);
  std::string body = fmt::format("<h1>{}: teacher's key</h1>\n<p>{}</p>\n", xml_escape(lesson.title), html(lesson.summary));
  const double planned = planned_minutes_before(lesson, lesson.steps.size());
  if (planned > 0) {
    body += fmt::format(
        "<h2>Plan: {:g} minutes</h2>\n<table class=\"plan\">\n<tr><th>Step</th><th>Minutes</th><th>By its end</th></tr>\n",
        planned);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i)
      body += fmt::format("<tr><td><a href=\"#step-{}\">{}. {}</a></td><td>{:g}</td><td>{:g}</td></tr>\n", i + 1, i + 1,
                          html(lesson.steps[i].title), lesson.steps[i].minutes, planned_minutes_before(lesson, i + 1));
    body += "</table>\n";
  }
  for (std::size_t i = 0; i < lesson.steps.size(); ++i) body += key_step_html(lesson, i);
  if (quiz) body += "<section id=\"answers\">\n" + quiz_answers_html(*quiz) + "</section>\n";
  return html_page(lesson.title + ": teacher's key", body);
}

}  // namespace swz
