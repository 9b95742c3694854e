#include "swz/teach/quiz_record.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>
#include <tuple>

#include "swz/error.h"
#include "swz/export/english.h"
#include "swz/io/atomic_file.h"
#include "swz/io/json_describe.h"
#include "swz/io/limits.h"
#include "swz/teach/quiz_score.h"

namespace swz {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kQuizRecordFormat = "swizzle-quiz-record";

// Reads one line's object: every key known, each of the right type; errors "ORIGIN: line N: ...".
struct RecordLine {
  const json& j;
  std::string where;  // "ana.jsonl: line 3"

  void check_keys(std::initializer_list<const char*> known) const {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (std::none_of(known.begin(), known.end(), [&](const char* k) { return it.key() == k; })) {
        std::string names;
        for (const char* k : known) names += fmt::format("{}{}", names.empty() ? "" : ", ", k);
        fail("{}: unknown key '{}' (known: {})", where, it.key(), names);
      }
  }
  const json& at(const char* key) const {
    if (!j.contains(key)) fail("{}: '{}' is missing", where, key);
    return j.at(key);
  }
  std::string text(const char* key) const {
    const json& v = at(key);
    if (!v.is_string()) fail("{}: '{}' must be a string, not {}", where, key, describe_json_value(v));
    return v.get<std::string>();
  }
  int number(const char* key) const {
    const json& v = at(key);
    if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 1000)
      fail("{}: '{}' must be a whole number from 0, not {}", where, key, describe_json_value(v));
    return v.get<int>();
  }
  bool flag(const char* key) const {
    const json& v = at(key);
    if (!v.is_boolean()) fail("{}: '{}' must be true or false, not {}", where, key, describe_json_value(v));
    return v.get<bool>();
  }
};

// "first-class/10" sorts after "first-class/9"; seeds after sets.
bool question_id_before(const std::string& a, const std::string& b) {
  const auto split = [](const std::string& id) {
    const std::size_t slash = id.rfind('/');
    long long n = -1;
    if (slash != std::string::npos) std::from_chars(id.data() + slash + 1, id.data() + id.size(), n);
    const std::string prefix = id.substr(0, slash == std::string::npos ? id.size() : slash);
    return std::make_tuple(prefix == "seed", prefix, n, id);
  };
  return split(a) < split(b);
}

}  // namespace

std::string quiz_set_question_id(const std::string& set, int index_from_0) { return fmt::format("{}/{}", set, index_from_0 + 1); }
std::string quiz_seed_question_id(std::uint64_t seed) { return fmt::format("seed/{}", seed); }

std::string quiz_record_text(const QuizRecord& r) {
  std::string out = json{{"format", kQuizRecordFormat},
                         {"version", kQuizRecordVersion},
                         {"student", r.student},
                         {"set", r.set},
                         {"started", r.started}}
                        .dump() +
                    "\n";
  for (const QuizAnswerRecord& a : r.answers)
    out += (a.skipped ? json{{"question", a.question}, {"prompt", a.prompt}, {"skipped", true}, {"time", a.time}}
                      : json{{"question", a.question},
                             {"prompt", a.prompt},
                             {"choice", a.choice},
                             {"choice_text", a.choice_text},
                             {"correct", a.correct},
                             {"time", a.time}})
               .dump() +
           "\n";
  for (const ExerciseAnswerRecord& e : r.exercises)
    out += json{{"exercise", e.exercise}, {"prompt", e.prompt}, {"answer", e.answer}, {"correct", e.correct}, {"time", e.time}}
               .dump() +
           "\n";
  return out;
}

QuizRecord parse_quiz_record(const std::string& text, const std::string& origin) {
  QuizRecord r;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = fmt::format("{}: line {}", origin, number);
    const json j = parse_json_or_discarded(line, where);
    if (j.is_discarded() || !j.is_object()) fail("{}: not a JSON object (a record has one object a line)", where);
    const RecordLine f{j, where};
    if (!header) {
      f.check_keys({"format", "version", "student", "set", "started"});
      if (f.text("format") != kQuizRecordFormat) fail("{}: 'format' must be \"{}\" (is this a quiz record?)", where, kQuizRecordFormat);
      if (f.number("version") != kQuizRecordVersion)
        fail("{}: 'version' {} is not one this program reads ({})", where, f.number("version"), kQuizRecordVersion);
      r.student = f.text("student");
      r.set = f.text("set");
      r.started = f.text("started");
      header = true;
      continue;
    }
    if (j.contains("exercise")) {  // a lesson's prediction
      f.check_keys({"exercise", "prompt", "answer", "correct", "time"});
      ExerciseAnswerRecord e{f.text("exercise"), f.text("prompt"), f.text("answer"), f.flag("correct"), f.text("time")};
      if (e.exercise.empty()) fail("{}: 'exercise' is empty", where);
      r.exercises.push_back(std::move(e));
      continue;
    }
    QuizAnswerRecord a;
    a.skipped = j.contains("skipped");
    if (a.skipped) {
      f.check_keys({"question", "prompt", "skipped", "time"});
      if (!f.flag("skipped")) fail("{}: 'skipped' is true on a skipped question's line (an answer has no 'skipped')", where);
    } else {
      f.check_keys({"question", "prompt", "choice", "choice_text", "correct", "time"});
    }
    a.question = f.text("question");
    if (a.question.empty()) fail("{}: 'question' is empty", where);
    a.prompt = f.text("prompt");
    if (!a.skipped) {
      a.choice = f.number("choice");
      a.choice_text = f.text("choice_text");
      a.correct = f.flag("correct");
    }
    a.time = f.text("time");
    r.answers.push_back(std::move(a));
  }
  if (!header) fail("{}: empty (a record starts with its header line)", origin);
  return r;
}

QuizRecord load_quiz_record_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("{}: cannot be read", path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return parse_quiz_record(text.str(), path.filename().string());
}

fs::path quiz_records_dir() {
  if (const char* env = std::getenv("SWZ_QUIZ_RECORDS"); env && *env) return env;
  if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data) return fs::path(data) / "swizzle-workbench" / "quiz-records";
  const char* home = std::getenv("HOME");
  return fs::path(home && *home ? home : ".") / ".local" / "share" / "swizzle-workbench" / "quiz-records";
}

fs::path new_quiz_record_path(const fs::path& dir, const std::string& student) {
  std::string stem;
  for (const char ch : student) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c))
      stem += static_cast<char>(std::tolower(c));
    else if (!stem.empty() && stem.back() != '-')
      stem += '-';
  }
  while (!stem.empty() && stem.back() == '-') stem.pop_back();
  if (stem.empty()) fail("student name '{}': give a name with a letter or a digit", student);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) fail("quiz records folder '{}': cannot be created ({})", dir.string(), ec ? ec.message() : "not a folder");
  for (int n = 1;; ++n) {
    const fs::path path = dir / (n == 1 ? stem + ".jsonl" : fmt::format("{}-{}.jsonl", stem, n));
    if (!fs::exists(fs::symlink_status(path))) return path;
  }
}

unsigned quiz_record_file_mode() {
  const char* env = std::getenv("SWZ_QUIZ_RECORDS_MODE");
  if (!env || !*env) return kPrivateFileMode;
  const std::string_view text = env;
  unsigned mode = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), mode, 8);
  if (ec != std::errc() || end != text.data() + text.size() || mode > 0777)
    fail("SWZ_QUIZ_RECORDS_MODE: '{}' is not a file mode in octal (0600, 0640, ...)", text);
  return mode;
}

void save_quiz_record(const fs::path& path, const QuizRecord& record) {
  write_file_atomically(path.string(), quiz_record_text(record), quiz_record_file_mode());
}

QuizSummary summarize_quiz_records(const std::vector<std::pair<std::string, QuizRecord>>& records) {
  QuizSummary s;
  std::map<std::string, QuizSummary::Question> questions, exercises;
  // One prediction counted for its student and for its exercise.
  const auto count = [](std::map<std::string, QuizSummary::Question>& by_id, const std::string& id, const std::string& prompt,
                        bool correct, int& answered, int& right) {
    ++answered;
    right += correct ? 1 : 0;
    QuizSummary::Question& q = by_id[id];
    q.id = id;
    if (q.prompt.empty()) q.prompt = prompt;
    ++q.answered;
    q.correct += correct ? 1 : 0;
  };
  const auto sorted = [](std::map<std::string, QuizSummary::Question>& by_id) {
    std::vector<QuizSummary::Question> out;
    for (auto& entry : by_id) out.push_back(std::move(entry.second));
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return question_id_before(a.id, b.id); });
    return out;
  };
  for (const auto& [file, r] : records) {
    // The sitting's score by the one rule (quiz_score.h): right out of answered and skipped.
    const QuizScore score = score_answers(r.answers);
    QuizSummary::Student student{r.student, file, r.set, score.asked, score.skipped, score.correct};
    for (const QuizAnswerRecord& a : r.answers) {
      QuizSummary::Question& q = questions[a.question];
      q.id = a.question;
      if (q.prompt.empty()) q.prompt = a.prompt;
      const QuizScore one = score_answers({a});
      q.answered += one.asked;
      q.skipped += one.skipped;
      q.correct += one.correct;
    }
    for (const ExerciseAnswerRecord& e : r.exercises)
      count(exercises, e.exercise, e.prompt, e.correct, student.exercises_answered, student.exercises_correct);
    s.students.push_back(std::move(student));
  }
  std::sort(s.students.begin(), s.students.end(), [](const auto& a, const auto& b) { return a.file < b.file; });
  s.questions = sorted(questions);
  s.exercises = sorted(exercises);
  return s;
}

QuizSummary summarize_quiz_record_dir(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) fail("quiz records folder '{}': not a folder", dir.string());
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".jsonl" && entry.is_regular_file()) files.push_back(entry.path());
  if (ec) fail("quiz records folder '{}': cannot be read ({})", dir.string(), ec.message());
  std::sort(files.begin(), files.end());
  std::vector<std::pair<std::string, QuizRecord>> records;
  for (const fs::path& f : files) records.emplace_back(f.filename().string(), load_quiz_record_file(f));
  return summarize_quiz_records(records);
}

std::string quiz_summary_text(const QuizSummary& s) {
  if (s.students.empty()) return "no quiz records (*.jsonl) in this folder\n";
  std::size_t name_width = 7;
  for (const auto& st : s.students) name_width = std::max(name_width, st.name.size() + st.file.size() + 3);
  std::string out = fmt::format("{}\n\n{:<{}}  right / asked  skipped\n",
                                counted(static_cast<std::int64_t>(s.students.size()), "record"), "Student", name_width);
  for (const auto& st : s.students)
    out += fmt::format("{:<{}}  {:>5} / {:<5}  {}\n", fmt::format("{} ({})", st.name, st.file), name_width, st.correct,
                       st.asked(), st.skipped);
  std::size_t id_width = 8;
  for (const auto& q : s.questions) id_width = std::max(id_width, q.id.size());
  out += fmt::format("\n{:<{}}  right / asked  skipped  prompt\n", "Question", id_width);
  for (const auto& q : s.questions)
    out += fmt::format("{:<{}}  {:>5} / {:<5}  {:<7}  {}\n", q.id, id_width, q.correct, q.asked(), q.skipped, q.prompt);
  if (s.exercises.empty()) return out;
  out += fmt::format("\n{:<{}}  predictions right / answered\n", "Student", name_width);  // the lessons' predictions, apart
  for (const auto& st : s.students)
    if (st.exercises_answered)
      out += fmt::format("{:<{}}  {:>5} / {}\n", fmt::format("{} ({})", st.name, st.file), name_width, st.exercises_correct,
                         st.exercises_answered);
  for (const auto& e : s.exercises) id_width = std::max(id_width, e.id.size());
  out += fmt::format("\n{:<{}}  right / answered  prompt\n", "Exercise", id_width);
  for (const auto& e : s.exercises)
    out += fmt::format("{:<{}}  {:>5} / {:<8}  {}\n", e.id, id_width, e.correct, e.answered, e.prompt);
  return out;
}

json to_json(const QuizSummary& s) {
  json j = {{"students", json::array()}, {"questions", json::array()}};
  for (const auto& st : s.students)
    j["students"].push_back({{"student", st.name},
                             {"file", st.file},
                             {"set", st.set},
                             {"answered", st.answered},
                             {"skipped", st.skipped},
                             {"asked", st.asked()},
                             {"correct", st.correct},
                             {"exercises_answered", st.exercises_answered},
                             {"exercises_correct", st.exercises_correct}});
  for (const auto& q : s.questions)
    j["questions"].push_back({{"question", q.id},
                              {"prompt", q.prompt},
                              {"answered", q.answered},
                              {"skipped", q.skipped},
                              {"asked", q.asked()},
                              {"correct", q.correct}});
  j["exercises"] = json::array();
  for (const auto& e : s.exercises)
    j["exercises"].push_back({{"exercise", e.id}, {"prompt", e.prompt}, {"answered", e.answered}, {"correct", e.correct}});
  return j;
}

}  // namespace swz
