#include "swz/teach/lesson_pages.h"

#include <fmt/format.h>

#include "swz/export/svg.h"
#include "swz/problem/problem.h"
#include "swz/teach/claim_words.h"
#include "swz/teach/lesson_exercise.h"
#include "swz/teach/math_text.h"
#include "swz/teach/quiz_set.h"

namespace swz {

namespace {

constexpr const char* kStyle =
    "body{font-family:'DejaVu Sans',sans-serif;max-width:60em;margin:2em auto;line-height:1.45;color:#1b1b1b}"
    "h1{font-size:1.6em;margin-bottom:.2em}.crumb{color:#666}.figure svg{max-width:100%;height:auto}"
    ".claims{color:#2d6a2d}.off{color:#b22}nav a{margin-right:1.5em}"
    "pre.code{background:#f2f3f5;padding:.6em 1em;font-size:1.05em;overflow-x:auto}"
    "pre,code{font-family:'DejaVu Sans Mono',monospace}"
    ".notes{border-left:3px solid #bbb;padding-left:1em;color:#444}.exercise{border:1px solid #999;padding:.2em 1em;margin:1em 0}"
    "@media print{body{max-width:none;margin:0}section.step,#quiz,#answers{break-before:page}nav{display:none}}";

std::string page(const std::string& title, const std::string& body) {
  return fmt::format("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{}</style></head>\n"
                     "<body>\n{}</body></html>\n",
                     xml_escape(title), kStyle, body);
}

// A step's card text (code as <pre><code>), the figures of its view and its claims in words.
std::string step_content(const LessonStep& s) {
  std::string body;
  for (const std::string& p : s.paragraphs) {
    if (!is_code_paragraph(p)) {
      body += "<p>" + render_math(p, MathStyle::Html) + "</p>\n";
      continue;
    }
    body += "<pre class=\"code\"><code>";  // as written: '^' in code is C's XOR
    for (const std::string& line : code_lines(p)) body += xml_escape(line) + "\n";
    body += "</code></pre>\n";
  }
  const Problem problem = problem_for_step(s);
  for (StepFigure& f : step_figures(s)) {
    if (f.svg.rfind("<?xml", 0) == 0) f.svg.erase(0, f.svg.find('\n') + 1);  // inline in HTML: no XML declaration
    body += fmt::format("<div class=\"figure\" data-panel=\"{}\">\n{}</div>\n", f.panel, f.svg);
  }
  if (!s.claims.empty()) {
    body += "<ul class=\"claims\">\n";
    for (const ClaimCheck& c : check_claims(s, problem, analyze(problem)))
      body += fmt::format("<li{}>{}{}</li>\n", c.holds ? "" : " class=\"off\"", claim_in_words(c.claim.quantity, c.actual, MathStyle::Html),
                          c.holds ? "" : " The lesson says: " + claim_in_words(c.claim.quantity, c.claim.expected, MathStyle::Html));
    body += "</ul>\n";
  }
  return body;
}

std::string step_file(std::size_t i) { return fmt::format("step-{:02}.html", i + 1); }

}  // namespace

std::vector<LessonPage> lesson_pages(const Lesson& lesson) {
  std::vector<LessonPage> pages;
  const std::size_t n = lesson.steps.size();
  for (std::size_t i = 0; i < n; ++i) {
    const LessonStep& s = lesson.steps[i];
    std::string body = fmt::format("<p class=\"crumb\">{} &middot; step {} of {}</p>\n<h1>{}</h1>\n", xml_escape(lesson.title), i + 1, n,
                                   render_math(s.title, MathStyle::Html));
    body += step_content(s);
    body += "<nav>";
    if (i > 0) body += fmt::format("<a href=\"{}\">&larr; back</a>", step_file(i - 1));
    body += "<a href=\"index.html\">contents</a>";
    if (i + 1 < n) body += fmt::format("<a href=\"{}\">next &rarr;</a>", step_file(i + 1));
    body += "</nav>\n";
    pages.push_back({step_file(i), page(fmt::format("{}: {}", lesson.title, render_math(s.title, MathStyle::Ascii)), body)});
  }
  std::string index = fmt::format("<h1>{}</h1>\n<p>{}</p>\n<ol>\n", xml_escape(lesson.title), render_math(lesson.summary, MathStyle::Html));
  for (std::size_t i = 0; i < n; ++i)
    index += fmt::format("<li><a href=\"{}\">{}</a></li>\n", step_file(i), render_math(lesson.steps[i].title, MathStyle::Html));
  index += "</ol>\n";
  pages.push_back({"index.html", page(lesson.title, index)});
  return pages;
}

// [SECTION] The handout

namespace {

// The step's exercise as posed: the task, the moves allowed, the hints in order.
std::string exercise_html(std::size_t index, const LessonExercise& e) {
  std::string out =
      fmt::format("<div class=\"exercise\" id=\"exercise-{}\">\n<h3>Exercise</h3>\n<p>{}</p>\n<p>Moves: {}{}.</p>\n", index + 1,
                  render_math(e.task, MathStyle::Html), e.swizzle ? "" : "at most ", exercise_moves_text(e));
  if (!e.hints.empty()) {
    out += "<p>Hints, one at a time:</p>\n<ol class=\"hints\">\n";
    for (const std::string& h : e.hints) out += "<li>" + render_math(h, MathStyle::Html) + "</li>\n";
    out += "</ol>\n";
  }
  return out + "</div>\n";
}

// The core's solution of a step's exercise: the masks it found, and the goal checked on them.
std::string exercise_answer_html(std::size_t index, const LessonStep& step) {
  std::string out = fmt::format("<li id=\"answer-{}\"><p><a href=\"#exercise-{}\">Step {}</a> ({}): ", index + 1, index + 1, index + 1,
                                render_math(step.title, MathStyle::Html));
  const ExerciseSearch found = solve_exercise(step);
  if (!found.state)
    return out + fmt::format("no state within {} meets the goal.</p></li>\n", exercise_moves_text(*step.exercise));
  if (const auto& swizzle = step.exercise->swizzle)
    out += fmt::format(
        "<code>{}</code> (the step starts with <code>{}</code>).</p>\n<ul class=\"claims\">\n",
        render_math(exercise_solution_text(*step.exercise, found), MathStyle::Html),
        render_math(fmt::format("Swizzle<{},{},{}>", swizzle->start[0], swizzle->start[1], swizzle->start[2]), MathStyle::Html));
  else
    out += fmt::format("row masks <code>{}</code> ({}).</p>\n<ul class=\"claims\">\n", format_masks(*found.solution),
                       step.problem.masks.empty()
                           ? "the step starts with none"
                           : fmt::format("the step starts with <code>{}</code>", format_masks(step.problem.masks)));
  for (const ClaimCheck& c : check_exercise(step, *found.state, step.step).goal)
    out += fmt::format("<li{}>{}</li>\n", c.holds ? "" : " class=\"off\"", claim_in_words(c.claim.quantity, c.actual, MathStyle::Html));
  return out + "</ul></li>\n";
}

const char kChoiceLetters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

std::string quiz_questions_html(const QuizSet& quiz) {
  std::string out = fmt::format("<section id=\"quiz\">\n<h2>Quiz: {}</h2>\n<ol>\n", render_math(quiz.title, MathStyle::Html));
  for (const QuizQuestion& q : quiz.questions) {
    out += "<li class=\"question\">";
    if (!q.context.empty()) out += "<p>" + render_math(q.context, MathStyle::Html) + "</p>";
    for (const std::string& d : q.details) out += "<p>" + render_math(d, MathStyle::Html) + "</p>";
    out += "<p><strong>" + render_math(q.prompt, MathStyle::Html) + "</strong></p>\n<ol type=\"A\">";
    for (const std::string& c : q.choices) out += "<li>" + render_math(c, MathStyle::Html) + "</li>";
    out += "</ol></li>\n";
  }
  return out + "</ol>\n</section>\n";
}

std::string quiz_answers_html(const QuizSet& quiz) {
  std::string out = "<h3>Quiz</h3>\n<ol>\n";
  for (const QuizQuestion& q : quiz.questions)
    out += fmt::format("<li class=\"quiz-answer\"><strong>{}. {}</strong> {}</li>\n", kChoiceLetters[q.answer % 26],
                       render_math(q.right_choice(), MathStyle::Html), render_math(q.explanation, MathStyle::Html));
  return out + "</ol>\n";
}

}  // namespace

std::string lesson_handout_html(const Lesson& lesson) {
  std::optional<QuizSet> quiz;
  if (!lesson.quiz.empty()) quiz = load_quiz_set_file(resolve_quiz_set(lesson.quiz));
  std::string body = fmt::format("<h1>{}</h1>\n<p>{}</p>\n<ol class=\"contents\">\n", xml_escape(lesson.title),
                                 render_math(lesson.summary, MathStyle::Html));
  for (std::size_t i = 0; i < lesson.steps.size(); ++i)
    body += fmt::format("<li><a href=\"#step-{}\">{}</a></li>\n", i + 1, render_math(lesson.steps[i].title, MathStyle::Html));
  body += "</ol>\n";
  std::string answers;
  for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
    const LessonStep& s = lesson.steps[i];
    body += fmt::format("<section class=\"step\" id=\"step-{}\">\n<h2>Step {}. {}</h2>\n", i + 1, i + 1, render_math(s.title, MathStyle::Html));
    body += step_content(s);
    if (!s.notes.empty()) {
      body += "<div class=\"notes\">\n<h3>Notes</h3>\n";
      for (const std::string& n : s.notes) body += "<p>" + render_math(n, MathStyle::Html) + "</p>\n";
      body += "</div>\n";
    }
    if (s.exercise) {
      body += exercise_html(i, *s.exercise);
      answers += exercise_answer_html(i, s);
    }
    body += "</section>\n";
  }
  if (quiz) body += quiz_questions_html(*quiz);
  if (!answers.empty() || quiz) {
    body += "<section id=\"answers\">\n<h2>Answer key</h2>\n";
    if (!answers.empty()) body += "<h3>Exercises</h3>\n<ol class=\"exercise-answers\">\n" + answers + "</ol>\n";
    if (quiz) body += quiz_answers_html(*quiz);
    body += "</section>\n";
  }
  return page(lesson.title + ": handout", body);
}

}  // namespace swz
