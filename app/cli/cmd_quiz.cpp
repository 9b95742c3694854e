// swizzle quiz: quiz questions without the GUI. `show` prints questions with their
// answers (a teacher's answer key), from a set file or from seeds; `check` loads sets;
// `summary` reads a folder of students' records (quiz_record.h): per student and per question.
//
// Exit status: 0 fine, 2 bad input (a set that does not load, an unknown name or kind, a record
// that does not read).
#include <fmt/format.h>

#include <cstdio>

#include "command.h"
#include "swz/error.h"
#include "swz/export/english.h"
#include "swz/teach/math_text.h"
#include "swz/teach/quiz_record.h"
#include "swz/teach/quiz_set.h"

namespace swz::cli {
namespace {

struct Options {
  std::vector<std::string> sets;
  std::string set, kind;
  std::string records;  // summary: the folder
  std::optional<std::uint64_t> seed;
  int count = 1;
  bool json = false;
};

std::string key_text(const QuizQuestion& q, std::size_t number) {
  std::string out = fmt::format("{}. [{}] {}\n", number, quiz_kind_name(q.kind), q.context);
  for (const std::string& d : q.details) out += fmt::format("   {}\n", d);
  out += fmt::format("   {}\n", q.prompt);
  for (std::size_t i = 0; i < q.choices.size(); ++i)
    out += fmt::format("   {} {}) {}\n", static_cast<int>(i) == q.answer ? "*" : " ", static_cast<char>('a' + i), q.choices[i]);
  out += fmt::format("   Answer: {}. {}\n", q.right_choice(), q.explanation);
  return render_math(out, MathStyle::Ascii);
}

void show(const Options& o) {
  if (o.set.empty() == !o.seed) fail("give a quiz set (a file or a name) or --seed N, one of them");
  std::vector<QuizQuestion> questions;
  std::string title;
  std::vector<std::string> assumes;  // a set's lessons
  if (o.seed) {
    std::optional<QuizKind> kind;
    if (!o.kind.empty()) {
      kind = parse_quiz_kind(o.kind);
      if (!kind) fail("--kind: unknown kind '{}' (kinds: {})", o.kind, quiz_kind_names());
    }
    for (int i = 0; i < o.count; ++i) {
      const std::uint64_t seed = *o.seed + static_cast<std::uint64_t>(i);
      questions.push_back(kind ? make_quiz_question(seed, *kind) : make_quiz_question(seed));
    }
    title = fmt::format("seeds {} to {}", *o.seed, *o.seed + static_cast<std::uint64_t>(o.count) - 1);
  } else {
    if (!o.kind.empty()) fail("--kind applies to --seed; a set's questions are the set's");
    QuizSet set = load_quiz_set_file(resolve_quiz_set(o.set));
    title = set.title;
    assumes = set.assumes;
    questions = std::move(set.questions);
  }
  if (o.json) {
    nlohmann::json j = {{"title", title}, {"assumes", assumes}, {"questions", nlohmann::json::array()}};
    for (const QuizQuestion& q : questions) j["questions"].push_back(to_json(q));
    print_json(j);
    return;
  }
  std::string text = fmt::format("{} ({})\n{}\n", title, counted(static_cast<std::int64_t>(questions.size()), "question"),
                                 assumes.empty() ? "" : fmt::format("after the lessons {}\n", fmt::join(assumes, ", ")));
  for (std::size_t i = 0; i < questions.size(); ++i) text += key_text(questions[i], i + 1) + "\n";
  std::fputs(text.c_str(), stdout);
}

void check(const Options& o) {
  nlohmann::json report = {{"sets", nlohmann::json::array()}};
  std::string text;
  for (const std::string& what : o.sets) {
    const auto path = resolve_quiz_set(what);
    const QuizSet set = load_quiz_set_file(path);
    nlohmann::json by_kind = nlohmann::json::object();
    for (const QuizQuestion& q : set.questions) {
      const char* kind = quiz_kind_name(q.kind);
      by_kind[kind] = by_kind.value(kind, 0) + 1;
    }
    report["sets"].push_back(
        {{"file", path.string()}, {"title", set.title}, {"questions", set.questions.size()}, {"kinds", by_kind}});
    text += fmt::format("{}: {}, all load\n", path.string(), quiz_set_contents(set));
  }
  report["ok"] = true;
  if (o.json)
    print_json(report);
  else
    std::fputs(text.c_str(), stdout);
}

void summary(const Options& o) {
  const QuizSummary s = summarize_quiz_record_dir(o.records.empty() ? quiz_records_dir() : std::filesystem::path(o.records));
  if (o.json)
    print_json(to_json(s));
  else
    std::fputs(quiz_summary_text(s).c_str(), stdout);
}

Register reg{
    {"quiz", "Quiz questions with their answers (an answer key) from a set file or seeds; check set files", 91,
     [](CLI::App& sub) {
       auto o = std::make_shared<Options>();
       sub.require_subcommand(1);
       CLI::App* s = sub.add_subcommand("show", "Print questions with the right answer and its explanation");
       s->add_option("set", o->set, "A quiz set file (.json) or a name in the quizzes folder");
       s->add_option("--seed", o->seed, "Draw questions from this seed instead (seed, seed+1, ...)");
       s->add_option("--count", o->count, "How many questions to draw with --seed (default 1)")->check(CLI::Range(1, 1000));
       s->add_option("--kind", o->kind, "With --seed: only this kind (wavefronts, fix, conflict-free, swizzle, tma)");
       s->add_flag("--json", o->json, "One JSON object on stdout");
       s->callback([o] { show(*o); });
       CLI::App* c = sub.add_subcommand("check", "Load quiz sets and build every question (exit 2 naming the first problem)");
       c->add_option("sets", o->sets, "Quiz set files (.json) or names in the quizzes folder")->required();
       c->add_flag("--json", o->json, "One JSON object on stdout");
       c->callback([o] { check(*o); });
       CLI::App* r = sub.add_subcommand(
           "summary", "Summarise a folder of students' quiz records: each student's score, each question's right answers");
       r->add_option("folder", o->records,
                     "The folder of *.jsonl records (default: where the workbench writes them; see README)");
       r->add_flag("--json", o->json, "One JSON object on stdout");
       r->callback([o] { summary(*o); });
     }}};

}  // namespace
}  // namespace swz::cli
