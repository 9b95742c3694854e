// quiz_record.h: a student's quiz answers in a file the teacher collects, and the
// summary of a folder of them.
//
// One file per student and sitting, JSON lines: a header line, then one line per answer.
//
//   {"format":"swizzle-quiz-record","version":1,"student":"Ana Lima","set":"first-class","started":"2026-11-26T09:40:12Z"}
//   {"question":"first-class/1","prompt":"How many wavefronts
//   ...","choice":2,"choice_text":"4","correct":true,"time":"2026-11-26T09:41:03Z"}
//   {"question":"first-class/2","prompt":"Which ...","skipped":true,"time":"2026-11-26T09:41:20Z"}
//
// A lesson's "predict the count" answer (lesson_predict.h) is a line of its own, in the same file:
//
//   {"exercise":"toy-gpu/step-3","prompt":"How many wavefronts ...","answer":"16","correct":true,"time":"..."}
//
// A skipped question is a line of its own: the score counts it (quiz_score.h), so the card, the
// record and the summary give one score for one sitting.
// `question` is an id the whole class shares: "SET/K" for question K (from 1) of a set,
// "seed/N" for a random question (make_quiz_question(N) is the same question everywhere).
// `choice` counts from 0; `set` is "" for random questions; times are UTC, ISO 8601.
//
// Records go to quiz_records_dir() unless a front end names another folder. A new sitting
// takes a file name nobody has taken (ana-lima.jsonl, then ana-lima-2.jsonl, ...), so a
// record never replaces a file the student did not name; each answer rewrites the
// sitting's own file atomically (atomic_file.h), so a collected file is never half-written.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "swz/io/utc_time.h"  // utc_timestamp(), the time each answer is given
#include <vector>

namespace swz {

inline constexpr int kQuizRecordVersion = 1;

struct QuizAnswerRecord {
  std::string question;     // "first-class/3", "seed/17"
  std::string prompt;       // the question as asked
  int choice = 0;           // index of the pick, from 0
  std::string choice_text;  // the pick as shown
  bool correct = false;
  std::string time;      // when it was answered (or skipped), UTC ISO 8601
  bool skipped = false;  // passed without an answer (choice, choice_text and correct unused)
  bool operator==(const QuizAnswerRecord&) const = default;
};

// One typed answer to a lesson's prediction: what the student typed and whether the core agreed.
struct ExerciseAnswerRecord {
  std::string exercise;  // "toy-gpu/step-3" (prediction_id)
  std::string prompt;    // the question as asked
  std::string answer;    // as typed
  bool correct = false;
  std::string time;  // UTC ISO 8601
  bool operator==(const ExerciseAnswerRecord&) const = default;
};

struct QuizRecord {
  std::string student;
  std::string set;      // the quiz set's name; "" = random questions
  std::string started;  // UTC ISO 8601
  std::vector<QuizAnswerRecord> answers;
  std::vector<ExerciseAnswerRecord> exercises;  // predictions answered in lessons, in order
  bool operator==(const QuizRecord&) const = default;
};

// Ids of questions: "SET/K" (K from 1) and "seed/N".
std::string quiz_set_question_id(const std::string& set, int index_from_0);
std::string quiz_seed_question_id(std::uint64_t seed);


// The file's text (header line, then one line per answer).
std::string quiz_record_text(const QuizRecord& record);
// Reads a record; throws swz::Error "ORIGIN: line N: ..." naming the key that is wrong.
QuizRecord parse_quiz_record(const std::string& text, const std::string& origin);
QuizRecord load_quiz_record_file(const std::filesystem::path& path);

// Where records go by default: $SWZ_QUIZ_RECORDS, else $XDG_DATA_HOME/swizzle-workbench/quiz-records,
// else ~/.local/share/swizzle-workbench/quiz-records.
std::filesystem::path quiz_records_dir();
// A file in `dir` (created if missing) for a new sitting of `student` that no file has yet:
// the name in lower case, letters and digits kept, the rest '-'. Throws naming the folder when
// it cannot be created, or when the name has no letter or digit.
std::filesystem::path new_quiz_record_path(const std::filesystem::path& dir, const std::string& student);
// Writes the record atomically. A new file gets quiz_record_file_mode() (a file already there keeps its own).
void save_quiz_record(const std::filesystem::path& path, const QuizRecord& record);
// The mode a new record file gets (it names a student): $SWZ_QUIZ_RECORDS_MODE, in octal (0640 lets the
// teacher's group read it), else 0600, the student alone; less the umask either way. Throws naming the
// variable when it is not a mode.
unsigned quiz_record_file_mode();

// What a teacher reads from a folder of records.
struct QuizSummary {
  struct Student {
    std::string name, file, set;  // file: the record's file name
    int answered = 0, skipped = 0, correct = 0;
    int asked() const { return answered + skipped; }  // the score's "out of" (quiz_score.h)
    int exercises_answered = 0, exercises_correct = 0;  // lesson predictions
  };
  struct Question {
    std::string id, prompt;
    int answered = 0, skipped = 0, correct = 0;  // answers to it, skips, and how many answers were right
    int asked() const { return answered + skipped; }
  };
  std::vector<Student> students;    // by file name
  std::vector<Question> questions;  // by set, then number; seeds last
  std::vector<Question> exercises;  // lesson predictions, by lesson, then step
};
QuizSummary summarize_quiz_records(const std::vector<std::pair<std::string, QuizRecord>>& records_by_file);
// Every *.jsonl file of `dir`; throws naming the folder, or the first file that does not read.
QuizSummary summarize_quiz_record_dir(const std::filesystem::path& dir);
std::string quiz_summary_text(const QuizSummary& summary);
nlohmann::json to_json(const QuizSummary& summary);

}  // namespace swz
