// swizzle lesson: lessons without the GUI. `list` shows where lessons are found,
// `check` evaluates every claim of every step and solves every exercise, `export` writes pages, slides or a handout and its key.
//
// Exit status: 0 fine, 1 a claim does not hold (check), 2 bad input (a lesson that
// does not load, an unknown name, an output path that is not a folder, no font for png).
// `answer` checks a learner's typed prediction (exit 0 right, 1 wrong) and can record it.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "command.h"
#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/export/font.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_exercise.h"
#include "swz/teach/lesson_pages.h"
#include "swz/teach/lesson_paths.h"
#include "swz/teach/lesson_predict.h"

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
  bool handout = false;  // export: the student handout and the teacher's key instead of a folder of pages
  bool format_given = false;
  int step = 0;                // answer: the step, from 1
  std::string typed, student;  // answer: the learner's text, and whose it is
  std::string record;          // answer: the record file to add it to
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

// --handout: the student handout and the teacher's key, two HTML files in the folder at -o.
void export_handout(const Options& o) {
  if (o.format_given && o.format != "html") fail("--format {}: a handout is HTML only (leave --format out)", o.format);
  const Lesson lesson = load_lesson_file(resolve(o.lesson));
  const fs::path dir(o.out);
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    fail("-o {}: exists and is not a folder; --handout writes {}-handout.html and {}-key.html into a folder", o.out, lesson.name,
         lesson.name);
  const std::string handout = lesson_student_handout_html(lesson), key = lesson_teacher_key_html(lesson);
  fs::create_directories(dir, ec);
  if (ec) fail("-o {}: cannot create the folder: {}", o.out, ec.message());
  const fs::path handout_file = dir / (lesson.name + "-handout.html"), key_file = dir / (lesson.name + "-key.html");
  write_file_atomically(handout_file.string(), handout);
  write_file_atomically(key_file.string(), key);
  int exercises = 0, predictions = 0;
  for (const LessonStep& s : lesson.steps) {
    exercises += s.exercise ? 1 : 0;
    predictions += s.predict ? 1 : 0;
  }
  if (o.json)
    print_json({{"lesson", lesson.name},
                {"format", "handout"},
                {"handout", handout_file.string()},
                {"key", key_file.string()},
                {"steps", lesson.steps.size()},
                {"exercises", exercises},
                {"predictions", predictions},
                {"quiz", lesson.quiz}});
  else
    fmt::print("{}: handout of {} steps ({} exercise{}, {} prediction{}{}) written to {}, the teacher's key to {}\n", lesson.name,
               lesson.steps.size(), exercises, exercises == 1 ? "" : "s", predictions, predictions == 1 ? "" : "s",
               lesson.quiz.empty() ? "" : ", the quiz " + lesson.quiz, handout_file.string(), key_file.string());
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

// answer: a learner's typed prediction against the core; with --record FILE --student NAME it is
// added to that record file (created when missing), as the workbench records it.
void answer(const Options& o) {
  const Lesson lesson = load_lesson_file(resolve(o.lesson));
  const int steps = static_cast<int>(lesson.steps.size());
  if (o.step < 1 || o.step > steps) fail("step {}: {} has steps 1..{}", o.step, lesson.name, steps);
  const LessonStep& step = lesson.steps[static_cast<std::size_t>(o.step - 1)];
  if (!step.predict) {
    std::string asking;
    for (int i = 0; i < steps; ++i)
      if (lesson.steps[static_cast<std::size_t>(i)].predict) asking += fmt::format("{}{}", asking.empty() ? "" : ", ", i + 1);
    fail("step {} of {} asks for no prediction (steps that do: {})", o.step, lesson.name, asking.empty() ? "none" : asking);
  }
  const PredictionCheck check = check_prediction(step, o.typed);
  if (!check.typed) fail("answer {}", check.problem);
  if (!o.record.empty()) {
    if (o.student.empty()) fail("--record {}: give --student NAME, whose answer it is", o.record);
    std::error_code ec;
    QuizRecord record =
        fs::exists(o.record, ec) ? load_quiz_record_file(o.record) : QuizRecord{o.student, "", utc_timestamp(), {}, {}};
    if (record.student != o.student) fail("--record {}: is {}'s record, not {}'s", o.record, record.student, o.student);
    record.exercises.push_back(prediction_record(lesson, static_cast<std::size_t>(o.step - 1), o.typed, check));
    save_quiz_record(o.record, record);
  }
  if (o.json)
    print_json({{"lesson", lesson.name},
                {"step", o.step},
                {"exercise", prediction_id(lesson, static_cast<std::size_t>(o.step - 1))},
                {"ask", step.predict->ask},
                {"answer", *check.typed},
                {"correct", check.correct},
                {"recorded", !o.record.empty()}});
  else if (check.correct)
    fmt::print("right: {}\n", *check.typed);
  else
    fmt::print("not {}: the core counts {}\n", *check.typed, check.expected);
  std::fflush(stdout);
  if (!check.correct) std::exit(1);
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
  e->add_option("-o,--output", o->out, "Folder for the pages, slides or handout files (created if missing)")->required();
  e->add_option("--format", o->format, "Page format: html (default) or png")->each([o](const std::string&) { o->format_given = true; });
  e->add_flag(
      "--handout", o->handout,
      "Two printable HTML files instead: NAME-handout.html for the class (steps, figures, tasks, the first hint, the quiz) "
      "and NAME-key.html for the teacher (plan, notes, every hint, the answers)");
  e->add_flag("--json", o->json, "One JSON object on stdout (what was written where)");
  e->callback([o] { export_pages(*o); });
  CLI::App* a = sub.add_subcommand(
      "answer", "Check a typed prediction of a step (\"predict the count\") against the core: exit 0 right, 1 wrong");
  a->add_option("lesson", o->lesson, "A lesson file (.json) or a name in the lesson folder")->required();
  a->add_option("step", o->step, "The step that asks, from 1")->required();
  a->add_option("answer", o->typed, "The number predicted")->required();
  a->add_option("--student", o->student, "Whose answer it is (with --record)");
  a->add_option("--record", o->record,
                "A quiz record file to add the answer to (created when missing; swizzle quiz summary counts it)");
  a->add_flag("--json", o->json, "One JSON object on stdout");
  a->callback([o] { answer(*o); });
}}};

}  // namespace
}  // namespace swz::cli
