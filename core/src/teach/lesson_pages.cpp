#include "swz/teach/lesson_pages.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "lesson_html.h"
#include "swz/export/svg.h"
#include "swz/problem/problem.h"
#include "swz/teach/claim_words.h"
#include "swz/teach/lesson_exercise.h"
#include "swz/teach/math_text.h"

namespace swz {

namespace {

constexpr const char* kStyle =
    "body{font-family:'DejaVu Sans',sans-serif;max-width:60em;margin:2em auto;line-height:1.45;color:#1b1b1b}"
    "h1{font-size:1.6em;margin-bottom:.2em}.crumb{color:#666}.figure svg{max-width:100%;height:auto}"
    ".claims{color:#2d6a2d}.off{color:#b22}nav a{margin-right:1.5em}"
    "pre.code{background:#f2f3f5;padding:.6em 1em;font-size:1.05em;overflow-x:auto}"
    "pre,code{font-family:'DejaVu Sans Mono',monospace}"
    ".notes{border-left:3px solid #bbb;padding-left:1em;color:#444}.practice{border:1px solid #999;padding:.2em 1em;margin:1em 0}"
    ".blank{display:inline-block;min-width:8em;border-bottom:1px solid #333}table.plan td,table.plan th{padding:.1em "
    ".8em;text-align:left}"
    ".figures{display:flex;flex-wrap:wrap;gap:.5em 1.5em;align-items:flex-start}.figures.many .figure{max-width:calc(50% - "
    ".75em)}"
    // Printed, a step stays on one page: its figures share the height its words leave (--print-height,
    // step_content_html()); the quiz and the key's quiz answers start a page of their own.
    "@media "
    "print{body{max-width:none;margin:0}section.step,.practice,ul.claims,.figure,li.question,li.quiz-answer{break-inside:avoid}"
    "h2,h3{break-after:avoid}"
    ".figures .figure svg{max-height:var(--print-height);width:auto}#quiz,#answers{break-before:page}nav{display:none}}";

// Printed on A4 (about 270 mm of a page inside Chrome's margins): the words of a step take about 5 mm
// a line of 95 characters, and its figures, two to a row when there are several, share the rest.
constexpr double kPrintPageMm = 255, kPrintLineMm = 6.2, kPrintLineChars = 88, kSmallestPrintFigureMm = 30,
                 kLargestPrintFigureMm = 120;

// The height a step's words take printed: its title, paragraphs, claims (as the sentences drawn) and
// what it asks, line by line.
double print_words_mm(const LessonStep& s, const std::vector<std::string>& claims) {
  double lines = 3;  // the title
  const auto add = [&](const std::string& text, double extra) {
    lines += std::ceil(static_cast<double>(text.size()) / kPrintLineChars) + extra;
  };
  for (const std::string& p : s.paragraphs) {
    if (is_code_paragraph(p))
      lines += static_cast<double>(code_lines(p).size()) + 1.5;
    else
      add(p, 0.7);
  }
  for (const std::string& c : claims) add(c, 0);
  for (const std::string& line : step_practice_lines(s)) add(line, 5);  // the box, its heading, a hint or a blank
  return lines * kPrintLineMm;
}

std::string step_file(std::size_t i) { return fmt::format("step-{:02}.html", i + 1); }

}  // namespace

std::string html_page(const std::string& title, const std::string& body) {
  return fmt::format("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{}</style></head>\n"
                     "<body>\n{}</body></html>\n",
                     xml_escape(title), kStyle, body);
}

// A step's card text (code as <pre><code>), the figures of its view and its claims in words.
std::string step_content_html(const LessonStep& s) {
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
  std::vector<std::string> claims;  // each claim in words, as the core measures it
  for (const ClaimCheck& c : check_claims(s, problem, analyze(problem)))
    claims.push_back(fmt::format(
        "<li{}>{}{}</li>\n", c.holds ? "" : " class=\"off\"", claim_in_words(c.claim.quantity, c.actual, MathStyle::Html),
        c.holds ? "" : " The lesson says: " + claim_in_words(c.claim.quantity, c.claim.expected, MathStyle::Html)));
  std::vector<StepFigure> figures = step_figures(s);
  if (!figures.empty()) {
    const std::size_t rows = figures.size() == 1 ? 1 : (figures.size() + 1) / 2;
    const double height = std::clamp((kPrintPageMm - print_words_mm(s, claims)) / static_cast<double>(rows),
                                     kSmallestPrintFigureMm, kLargestPrintFigureMm);
    body +=
        fmt::format("<div class=\"figures{}\" style=\"--print-height:{:.0f}mm\">\n", figures.size() > 1 ? " many" : "", height);
  }
  for (StepFigure& f : figures) {
    if (f.svg.rfind("<?xml", 0) == 0) f.svg.erase(0, f.svg.find('\n') + 1);  // inline in HTML: no XML declaration
    body += fmt::format("<div class=\"figure\" data-panel=\"{}\">\n{}</div>\n", f.panel, f.svg);
  }
  if (!figures.empty()) body += "</div>\n";
  if (!claims.empty()) {
    body += "<ul class=\"claims\">\n";
    for (const std::string& c : claims) body += c;
    body += "</ul>\n";
  }
  return body;
}

std::vector<LessonPage> lesson_pages(const Lesson& lesson) {
  std::vector<LessonPage> pages;
  const std::size_t n = lesson.steps.size();
  for (std::size_t i = 0; i < n; ++i) {
    const LessonStep& s = lesson.steps[i];
    std::string body = fmt::format("<p class=\"crumb\">{} &middot; step {} of {}</p>\n<h1>{}</h1>\n", xml_escape(lesson.title), i + 1, n,
                                   render_math(s.title, MathStyle::Html));
    body += step_content_html(s);
    body += practice_html(s, /*hints=*/0);
    body += "<nav>";
    if (i > 0) body += fmt::format("<a href=\"{}\">&larr; back</a>", step_file(i - 1));
    body += "<a href=\"index.html\">contents</a>";
    if (i + 1 < n) body += fmt::format("<a href=\"{}\">next &rarr;</a>", step_file(i + 1));
    body += "</nav>\n";
    pages.push_back({step_file(i), html_page(fmt::format("{}: {}", lesson.title, render_math(s.title, MathStyle::Ascii)), body)});
  }
  std::string index = fmt::format("<h1>{}</h1>\n<p>{}</p>\n<ol>\n", xml_escape(lesson.title), render_math(lesson.summary, MathStyle::Html));
  for (std::size_t i = 0; i < n; ++i)
    index += fmt::format("<li><a href=\"{}\">{}</a></li>\n", step_file(i), render_math(lesson.steps[i].title, MathStyle::Html));
  index += "</ol>\n";
  pages.push_back({"index.html", html_page(lesson.title, index)});
  return pages;
}

}  // namespace swz
