#include "swz/teach/lesson_pages.h"

#include <fmt/format.h>

#include "swz/teach/math_text.h"
#include "swz/export/svg.h"

namespace swz {

namespace {

constexpr const char* kStyle =
    "body{font-family:'DejaVu Sans',sans-serif;max-width:60em;margin:2em auto;line-height:1.45;color:#1b1b1b}"
    "h1{font-size:1.6em;margin-bottom:.2em}.crumb{color:#666}.figure svg{max-width:100%;height:auto}"
    ".claims{color:#2d6a2d}.off{color:#b22}nav a{margin-right:1.5em}"
    "pre.code{background:#f2f3f5;padding:.6em 1em;font-size:1.05em;overflow-x:auto}";

std::string page(const std::string& title, const std::string& body) {
  return fmt::format("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{}</style></head>\n"
                     "<body>\n{}</body></html>\n",
                     xml_escape(title), kStyle, body);
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
        body += fmt::format("<li{}>{} = {}{}</li>\n", c.holds ? "" : " class=\"off\"", xml_escape(c.claim.quantity),
                            render_math(c.actual.dump(), MathStyle::Html), c.holds ? "" : " (the lesson says " + xml_escape(c.claim.expected.dump()) + ")");
      body += "</ul>\n";
    }
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

}  // namespace swz
