// swizzle lesson: lessons without the GUI. `list` shows where lessons are found,
// `check` evaluates every claim of every step and solves every exercise, `export` writes pages, slides or one handout.
//
// Exit status: 0 fine, 1 a claim does not hold (check), 2 bad input (a lesson that
// does not load, an unknown name, an output path that is not a folder (a file for --handout), no font for png).
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "command.h"
#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/export/font.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_exercise.h"
#include "swz/teach/lesson_pages.h"
#include "swz/teach/lesson_paths.h"

namespace swz::cli {
namespace {

namespace fs = std::filesystem;

// A lesson file: a path to a .json file, or the name of one in the lesson folder.
fs::path resolve(const std::string& what) {
  const fs::path p(what);
  std::error_code ec;
  if (p.extension() == ".json" || fs::exists(p, ec)) return p;
  const LessonDirSearch s = find_lessons_dir();
  if (!s.found) fail("lesson '{}': {}", what, s.message());
  const fs::path file = *s.found / (what + ".json");
  if (!fs::exists(file, ec)) {
    std::string known;
    for (const fs::path& f : lesson_files(*s.found)) known += (known.empty() ? "" : ", ") + f.stem().string();
    fail("no lesson '{}' in {} (lessons: {})", what, s.found->string(), known.empty() ? "none" : known);
  }
  return file;
}

struct Options {
  std::vector<std::string> lessons;
  std::string lesson, out, format = "html";
  bool json = false;
  bool handout = false;  // export: one printable HTML file instead of a folder of pages
  bool format_given = false;
};

void list(const Options& o) {
  const LessonDirSearch s = find_lessons_dir();
  if (!s.found) fail("{}", s.message());
  nlohmann::json j = {{"dir", s.found->string()}, {"lessons", nlohmann::json::array()}};
  std::string text = fmt::format("lessons in {}\n", s.found->string());
  for (const fs::path& f : lesson_files(*s.found)) {
    try {
      const Lesson l = load_lesson_file(f);
      j["lessons"].push_back({{"name", l.name}, {"title", l.title}, {"steps", l.steps.size()}});
      text += fmt::format("  {:<20} {} ({} steps)\n", l.name, l.title, l.steps.size());
    } catch (const Error& e) {
      j["lessons"].push_back({{"name", f.stem().string()}, {"error", e.what()}});
      text += fmt::format("  {:<20} does not load: {}\n", f.stem().string(), e.what());
    }
  }
  if (o.json) print_json(j);
  else std::fputs(text.c_str(), stdout);
}

void check(const Options& o) {
  nlohmann::json report = {{"lessons", nlohmann::json::array()}};
  std::string text;
  int failed = 0;
  std::vector<std::pair<fs::path, Lesson>> loaded;
  for (const std::string& what : o.lessons) {  // every file loads before any claim is checked
    const fs::path file = resolve(what);
    loaded.emplace_back(file, load_lesson_file(file));
  }
  for (const auto& [file, lesson] : loaded) {
    int claims = 0;
    nlohmann::json bad = nlohmann::json::array();
    for (std::size_t i = 0; i < lesson.steps.size(); ++i)
      for (const ClaimCheck& c : check_claims(lesson.steps[i])) {
        ++claims;
        if (c.holds) continue;
        ++failed;
        bad.push_back({{"step", i + 1}, {"title", lesson.steps[i].title}, {"claim", c.claim.quantity}, {"expected", c.claim.expected},
                       {"actual", c.actual}});
        text += fmt::format("{}: step {} ({}): {} is {}, the lesson says {}\n", file.string(), i + 1, lesson.steps[i].title,
                            c.claim.quantity, c.actual.dump(), c.claim.expected.dump());
      }
    int exercises = 0;
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {  // each exercise: not solved at the start, solvable within its moves
      const LessonStep& step = lesson.steps[i];
      if (!step.exercise) continue;
      ++exercises;
      const std::string fault = exercise_fault(step);
      if (fault.empty()) continue;
      ++failed;
      bad.push_back({{"step", i + 1}, {"title", step.title}, {"exercise", fault}});
      text += fmt::format("{}: step {} ({}): {}\n", file.string(), i + 1, step.title, fault);
    }
    report["lessons"].push_back({{"file", file.string()}, {"name", lesson.name}, {"steps", lesson.steps.size()}, {"claims", claims},
                                 {"exercises", exercises}, {"failed", bad}});
    if (bad.empty())
      text += fmt::format("{}: {} steps, {} claims, all hold{}\n", file.string(), lesson.steps.size(), claims,
                          exercises ? fmt::format("; {} exercise{} solvable", exercises, exercises == 1 ? "" : "s") : "");
  }
  report["ok"] = failed == 0;
  if (o.json) print_json(report);
  else std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  if (failed) std::exit(1);
}

// --handout: the whole lesson, its quiz and the answer key as one HTML file at -o.
void export_handout(const Options& o) {
  if (o.format_given && o.format != "html") fail("--format {}: a handout is HTML only (leave --format out)", o.format);
  const Lesson lesson = load_lesson_file(resolve(o.lesson));
  const fs::path file(o.out);
  std::error_code ec;
  if (fs::is_directory(file, ec)) fail("-o {}: is a folder; --handout writes one file (e.g. -o {}.html)", o.out, lesson.name);
  const std::string html = lesson_handout_html(lesson);
  if (file.has_parent_path()) {
    fs::create_directories(file.parent_path(), ec);
    if (ec) fail("-o {}: cannot create the folder {}: {}", o.out, file.parent_path().string(), ec.message());
  }
  write_file_atomically(file.string(), html);
  int exercises = 0;
  for (const LessonStep& s : lesson.steps) exercises += s.exercise ? 1 : 0;
  if (o.json)
    print_json({{"lesson", lesson.name}, {"format", "handout"}, {"file", file.string()}, {"steps", lesson.steps.size()},
                {"exercises", exercises}, {"quiz", lesson.quiz}});
  else
    fmt::print("{}: handout of {} steps, {} exercise{}{} written to {}\n", lesson.name, lesson.steps.size(), exercises,
               exercises == 1 ? "" : "s", lesson.quiz.empty() ? "" : " and the quiz " + lesson.quiz, file.string());
}

void export_pages(const Options& o) {
  if (o.handout) return export_handout(o);
  if (o.format != "html" && o.format != "png") fail("--format {}: unknown page format (known: html, png)", o.format);
  const Lesson lesson = load_lesson_file(resolve(o.lesson));
  const fs::path dir(o.out);
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) fail("-o {}: exists and is not a folder", o.out);
  const std::vector<LessonPage> pages = o.format == "png" ? lesson_slides_png(lesson, Typeface::load()) : lesson_pages(lesson);
  fs::create_directories(dir, ec);
  if (ec) fail("-o {}: cannot create the folder: {}", o.out, ec.message());
  nlohmann::json written = nlohmann::json::array();
  for (const LessonPage& p : pages) {
    write_file_atomically((dir / p.file).string(), p.contents);
    written.push_back((dir / p.file).string());
  }
  if (o.json)
    print_json({{"lesson", lesson.name}, {"format", o.format}, {"dir", dir.string()}, {"steps", lesson.steps.size()}, {"written", written}});
  else if (o.format == "png")
    fmt::print("{}: {} slides for {} steps written to {}\n", lesson.name, pages.size(), lesson.steps.size(), dir.string());
  else
    fmt::print("{}: {} step pages and index.html written to {}\n", lesson.name, lesson.steps.size(), dir.string());
}

Register reg{{"lesson", "Lessons without the GUI: list them, check every claim, export handout pages", 90, [](CLI::App& sub) {
  auto o = std::make_shared<Options>();
  sub.require_subcommand(1);
  CLI::App* l = sub.add_subcommand("list", "The lessons and the folder they were found in");
  l->add_flag("--json", o->json, "One JSON object on stdout");
  l->callback([o] { list(*o); });
  CLI::App* c = sub.add_subcommand("check", "Load lessons, evaluate every claim of every step and solve every exercise (exit 1 when one fails)");
  c->add_option("lessons", o->lessons, "Lesson files (.json) or names in the lesson folder")->required();
  c->add_flag("--json", o->json, "One JSON object on stdout");
  c->callback([o] { check(*o); });
  CLI::App* e = sub.add_subcommand("export", "One page per step (text, figure, claims): HTML and an index, or 1920x1080 PNG slides");
  e->add_option("lesson", o->lesson, "A lesson file (.json) or a name in the lesson folder")->required();
  e->add_option("-o,--output", o->out, "Folder for the pages (created if missing); with --handout, the HTML file")->required();
  e->add_option("--format", o->format, "Page format: html (default) or png")->each([o](const std::string&) { o->format_given = true; });
  e->add_flag("--handout", o->handout,
              "One printable HTML document instead: every step with notes and exercises, the quiz, an answer key at the end");
  e->add_flag("--json", o->json, "One JSON object on stdout (what was written where)");
  e->callback([o] { export_pages(*o); });
}}};

}  // namespace
}  // namespace swz::cli
