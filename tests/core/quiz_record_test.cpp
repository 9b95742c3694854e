// Quiz records: the file round-trips, each malformed line is named, a new sitting never takes
// an existing file, and the folder's summary counts per student and per question.
#include "swz/teach/quiz_record.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "swz/error.h"
#include "swz/teach/quiz_score.h"

namespace swz {
namespace {

namespace fs = std::filesystem;

std::string record_error_of(const std::string& text) {
  try {
    parse_quiz_record(text, "ana.jsonl");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

QuizRecord sample_record(const std::string& student, std::vector<bool> right) {
  QuizRecord r{student, "first-class", "2026-11-26T09:40:12Z", {}};
  for (std::size_t i = 0; i < right.size(); ++i)
    r.answers.push_back({quiz_set_question_id("first-class", static_cast<int>(i)), fmt::format("Question {}?", i + 1),
                         static_cast<int>(i % 3), "some choice", right[i], "2026-11-26T09:41:00Z"});
  return r;
}

struct RecordFolder {
  fs::path dir = fs::temp_directory_path() / ("swz-quiz-records-" + std::to_string(::getpid()));
  RecordFolder() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~RecordFolder() { fs::remove_all(dir); }
};

TEST(QuizRecord, RoundTrips) {
  const QuizRecord r = sample_record("Ana Lima", {true, false, true});
  const std::string text = quiz_record_text(r);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4);
  EXPECT_EQ(parse_quiz_record(text, "x"), r);
  const QuizRecord none{"Bo", "", "2026-11-26T09:40:12Z", {}};
  EXPECT_EQ(parse_quiz_record(quiz_record_text(none), "x"), none);
  EXPECT_EQ(quiz_seed_question_id(17), "seed/17");
  EXPECT_EQ(quiz_set_question_id("s", 0), "s/1");
  EXPECT_EQ(utc_timestamp().size(), 20u);
}

TEST(QuizRecord, EachWrongLineIsNamed) {
  const std::string header = R"({"format":"swizzle-quiz-record","version":1,"student":"Ana","set":"","started":"t"})";
  const std::string answer = R"({"question":"s/1","prompt":"p","choice":1,"choice_text":"c","correct":true,"time":"t"})";
  const std::pair<std::string, std::string> cases[] = {
      {"", "ana.jsonl: empty"},
      {"not json\n", "ana.jsonl: line 1: not a JSON object"},
      {R"({"format":"swizzle-session","version":1,"student":"a","set":"","started":"t"})", "ana.jsonl: line 1: 'format' must be"},
      {R"({"format":"swizzle-quiz-record","version":2,"student":"a","set":"","started":"t"})", "ana.jsonl: line 1: 'version' 2"},
      {R"({"format":"swizzle-quiz-record","version":1,"set":"","started":"t"})", "ana.jsonl: line 1: 'student' is missing"},
      {header + "\n\n" + R"({"question":"s/1","prompt":"p","choice":1,"choice_text":"c","correct":"yes","time":"t"})",
       "ana.jsonl: line 3: 'correct' must be true or false, not the string \"yes\""},
      {header + "\n" + R"({"question":"s/1","prompt":"p","choice":-1,"choice_text":"c","correct":true,"time":"t"})",
       "ana.jsonl: line 2: 'choice' must be a whole number"},
      {header + "\n" + answer + "\n" + R"({"question":"","prompt":"p","choice":1,"choice_text":"c","correct":true,"time":"t"})",
       "ana.jsonl: line 3: 'question' is empty"},
      {header + "\n" + R"({"question":"s/1","score":3})", "ana.jsonl: line 2: unknown key 'score'"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string error = record_error_of(text);
    EXPECT_EQ(error.rfind(expected, 0), 0u) << text << "\n  gave: " << error << "\n  expected it to start: " << expected;
  }
}

TEST(QuizRecord, NewSittingNeverTakesAnExistingFile) {
  RecordFolder folder;
  const fs::path sub = folder.dir / "class" / "monday";  // created on demand
  const fs::path first = new_quiz_record_path(sub, "Ana  Lima!");
  EXPECT_EQ(first.filename(), "ana-lima.jsonl");
  EXPECT_FALSE(fs::exists(first)) << "choosing a name writes nothing";
  { std::ofstream(first) << "the teacher's own notes\n"; }
  const fs::path second = new_quiz_record_path(sub, "Ana Lima");
  EXPECT_EQ(second.filename(), "ana-lima-2.jsonl");
  save_quiz_record(second, sample_record("Ana Lima", {true}));
  EXPECT_EQ(new_quiz_record_path(sub, "ana lima").filename(), "ana-lima-3.jsonl");
  std::ifstream in(first);
  std::string kept;
  std::getline(in, kept);
  EXPECT_EQ(kept, "the teacher's own notes");
  EXPECT_THROW(new_quiz_record_path(sub, " !? "), Error);
  { std::ofstream(folder.dir / "a-file") << "x"; }
  EXPECT_THROW(new_quiz_record_path(folder.dir / "a-file", "Ana"), Error);
}

// A record holds a student's name and answers: a new file is the student's alone (0600) whatever
// the umask allows, unless SWZ_QUIZ_RECORDS_MODE asks for another mode (before: 0644 always).
TEST(QuizRecord, NewRecordFilesArePrivateUnlessAskedOtherwise) {
  RecordFolder folder;
  const mode_t saved = ::umask(022);
  const auto mode_of = [](const fs::path& f) {
    struct stat st {};
    EXPECT_EQ(::stat(f.c_str(), &st), 0);
    return st.st_mode & 0777;
  };
  ::unsetenv("SWZ_QUIZ_RECORDS_MODE");
  save_quiz_record(folder.dir / "ana.jsonl", sample_record("Ana", {true}));
  EXPECT_EQ(mode_of(folder.dir / "ana.jsonl"), 0600u);
  ::setenv("SWZ_QUIZ_RECORDS_MODE", "0640", 1);
  save_quiz_record(folder.dir / "bo.jsonl", sample_record("Bo", {true}));
  EXPECT_EQ(mode_of(folder.dir / "bo.jsonl"), 0640u);
  ::setenv("SWZ_QUIZ_RECORDS_MODE", "rw-r-----", 1);
  try {
    save_quiz_record(folder.dir / "cy.jsonl", sample_record("Cy", {true}));
    ADD_FAILURE() << "a mode that is not octal was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("SWZ_QUIZ_RECORDS_MODE: 'rw-r-----' is not a file mode"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(folder.dir / "cy.jsonl"));
  ::unsetenv("SWZ_QUIZ_RECORDS_MODE");
  ::umask(saved);
}

TEST(QuizRecord, FolderSummaryCountsStudentsAndQuestions) {
  RecordFolder folder;
  // 12 questions so "first-class/10" must sort after "first-class/9".
  std::vector<bool> ana(12, true), bo(12, false), cy = {true, false};
  ana[1] = false;
  bo[0] = true;
  save_quiz_record(folder.dir / "ana.jsonl", sample_record("Ana", ana));
  save_quiz_record(folder.dir / "bo.jsonl", sample_record("Bo", bo));
  QuizRecord random{"Cy", "", "t", {}};
  random.answers.push_back({quiz_seed_question_id(5), "Seeded?", 0, "c", true, "t"});
  save_quiz_record(folder.dir / "cy.jsonl", random);
  { std::ofstream(folder.dir / "notes.txt") << "not a record"; }
  const QuizSummary s = summarize_quiz_record_dir(folder.dir);
  ASSERT_EQ(s.students.size(), 3u);
  EXPECT_EQ(s.students[0].name, "Ana");
  EXPECT_EQ(s.students[0].correct, 11);
  EXPECT_EQ(s.students[0].answered, 12);
  EXPECT_EQ(s.students[1].correct, 1);
  EXPECT_EQ(s.students[2].answered, 1);
  ASSERT_EQ(s.questions.size(), 13u);
  EXPECT_EQ(s.questions[0].id, "first-class/1");
  EXPECT_EQ(s.questions[0].correct, 2);
  EXPECT_EQ(s.questions[1].correct, 0);
  EXPECT_EQ(s.questions[1].answered, 2);
  EXPECT_EQ(s.questions[9].id, "first-class/10");
  EXPECT_EQ(s.questions[12].id, "seed/5");
  EXPECT_EQ(to_json(s)["students"][0]["correct"], 11);
  const std::string text = quiz_summary_text(s);
  EXPECT_NE(text.find("Ana (ana.jsonl)"), std::string::npos) << text;
  EXPECT_NE(text.find("first-class/2       0 / 2"), std::string::npos) << text;

  { std::ofstream(folder.dir / "dan.jsonl") << "{\"format\":\"nope\"}\n"; }
  try {
    summarize_quiz_record_dir(folder.dir);
    ADD_FAILURE() << "a bad record was summarised";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("dan.jsonl: line 1: ", 0), 0u) << e.what();
  }
  EXPECT_THROW(summarize_quiz_record_dir(folder.dir / "missing"), Error);
}

}  // namespace

// One rule (quiz_score.h): a sitting of 1 right, 1 wrong and 2 skipped scores 1 / 4 on the card
// (QuizScore as the card records it), in the record read back, and in the folder's summary.
TEST(QuizRecord, SkipsCountAgainstTheScoreOnTheCardTheRecordAndTheSummary) {
  QuizScore card;
  QuizRecord r{"Ana", "first-class", "2026-11-26T09:40:12Z", {}};
  const auto answer = [&](int k, bool right) {
    card.record(right);
    r.answers.push_back({quiz_set_question_id("first-class", k), "Q?", 0, "a", right, "t"});
  };
  const auto skip = [&](int k) {
    card.record_skip();
    QuizAnswerRecord a;
    a.question = quiz_set_question_id("first-class", k);
    a.prompt = "Q?";
    a.time = "t";
    a.skipped = true;
    r.answers.push_back(a);
  };
  answer(0, true);
  skip(1);
  answer(2, false);
  skip(3);
  EXPECT_EQ(card.text(), "1 / 4");
  const QuizRecord back = parse_quiz_record(quiz_record_text(r), "ana.jsonl");
  EXPECT_EQ(back, r);
  EXPECT_NE(quiz_record_text(r).find("\"skipped\":true"), std::string::npos);
  EXPECT_EQ(score_answers(back.answers).text(), card.text());
  const QuizSummary s = summarize_quiz_records({{"ana.jsonl", back}});
  ASSERT_EQ(s.students.size(), 1u);
  EXPECT_EQ(s.students[0].correct, 1);
  EXPECT_EQ(s.students[0].asked(), 4);
  EXPECT_EQ(s.students[0].skipped, 2);
  EXPECT_EQ(to_json(s)["students"][0]["asked"], 4);
  ASSERT_EQ(s.questions.size(), 4u);
  EXPECT_EQ(s.questions[1].skipped, 1);
  EXPECT_EQ(s.questions[1].asked(), 1);
  EXPECT_NE(quiz_summary_text(s).find("Ana (ana.jsonl)      1 / 4      2"), std::string::npos) << quiz_summary_text(s);
  // A skip line with an answer's keys, or 'skipped' false, is named.
  EXPECT_THROW(parse_quiz_record(quiz_record_text(QuizRecord{"Bo", "", "t", {}}) +
                                     "{\"question\":\"seed/1\",\"prompt\":\"p\",\"skipped\":true,\"choice\":0,\"time\":\"t\"}\n",
                                 "bo.jsonl"),
               Error);
  EXPECT_THROW(parse_quiz_record(quiz_record_text(QuizRecord{"Bo", "", "t", {}}) +
                                     "{\"question\":\"seed/1\",\"prompt\":\"p\",\"skipped\":false,\"time\":\"t\"}\n",
                                 "bo.jsonl"),
               Error);
}

}  // namespace swz
