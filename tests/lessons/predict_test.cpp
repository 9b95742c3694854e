// "Predict the count": a step's prediction is checked against the core's own measure, typed text
// that is no number is refused with a reason, lesson files that ask for something a learner cannot
// type (or that the card already states) do not load, and the answers travel in the student's quiz
// record into `swizzle quiz summary`'s counts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <set>
#include <tuple>

#include "swz/error.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_predict.h"
#include "swz/teach/quiz_record.h"

namespace swz {
namespace {

namespace fs = std::filesystem;

const LessonStep& step_of(const Lesson& lesson, std::size_t from_1) { return lesson.steps.at(from_1 - 1); }

TEST(LessonPredict, EveryShippedPredictionIsCheckedAgainstTheCore) {
  std::set<std::string> lessons;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const LessonStep& s = lesson.steps[i];
      if (!s.predict) continue;
      lessons.insert(lesson.name);
      const Problem p = problem_for_step(s);
      const std::int64_t truth = measure(s.predict->quantity, p, analyze(p), s.step).get<std::int64_t>();
      EXPECT_EQ(prediction_answer(s), truth) << lesson.name << " step " << i + 1;
      EXPECT_TRUE(check_prediction(s, std::to_string(truth)).correct) << lesson.name << " step " << i + 1;
      EXPECT_TRUE(check_prediction(s, " " + std::to_string(truth) + "\t").correct) << "blanks around the number are fine";
      const PredictionCheck wrong = check_prediction(s, std::to_string(truth + 1));
      ASSERT_TRUE(wrong.typed.has_value());
      EXPECT_FALSE(wrong.correct);
      EXPECT_EQ(wrong.expected, truth);
      for (const LessonClaim& c : s.claims) EXPECT_NE(c.quantity, s.predict->quantity) << "the card would state the answer";
    }
  }
  EXPECT_GE(lessons.size(), 3u) << "predictions in at least three lessons";
}

// The counts the shipped predictions ask for, as the lessons' own next steps state them.
TEST(LessonPredict, ShippedAnswersAreTheNextStepsFacts) {
  const Lesson toy = load_lesson_file(fs::path(SWZ_LESSONS_DIR) / "toy-gpu.json");
  ASSERT_TRUE(step_of(toy, 5).predict);
  EXPECT_EQ(prediction_answer(step_of(toy, 5)), 8);  // toy-gpu step 6: a column lives in one bank, 8 wavefronts
  const Lesson cute = load_lesson_file(fs::path(SWZ_LESSONS_DIR) / "cute-swizzle.json");
  ASSERT_TRUE(step_of(cute, 1).predict);
  EXPECT_EQ(prediction_answer(step_of(cute, 1)), 2);  // cute-swizzle step 2: a row of (8,8):(1,8) is 2-way
  const Lesson hand = load_lesson_file(fs::path(SWZ_LESSONS_DIR) / "swizzle-by-hand.json");
  ASSERT_TRUE(step_of(hand, 4).predict);
  EXPECT_EQ(prediction_answer(step_of(hand, 4)), 0);  // swizzle-by-hand step 5: column 0 lies in bank 0
  EXPECT_EQ(prediction_id(toy, 4), "toy-gpu/step-5");
}

// While a prediction is open the workbench hides the count it asks for: toy-gpu step 5 asks for the
// read's wavefronts beside the access trace, whose Read verdict would answer it.
TEST(LessonPredict, AnOpenPredictionVeilsTheCountsThatAnswerIt) {
  const Lesson toy = load_lesson_file(fs::path(SWZ_LESSONS_DIR) / "toy-gpu.json");
  const PredictionVeil toy_veil = prediction_veil(step_of(toy, 5));
  ASSERT_TRUE(toy_veil.access.has_value());
  EXPECT_EQ(*toy_veil.access, LessonAccess::Read);
  EXPECT_TRUE(toy_veil.panels.empty());  // tensor and trace: the trace hides the read's counts itself
  EXPECT_FALSE(prediction_veil(step_of(toy, 6)).access.has_value()) << "a step that asks nothing veils nothing";
  // The bank of a cell is read off the tensor: nothing to hide.
  const Lesson hand = load_lesson_file(fs::path(SWZ_LESSONS_DIR) / "swizzle-by-hand.json");
  const PredictionVeil hand_veil = prediction_veil(step_of(hand, 4));
  EXPECT_FALSE(hand_veil.access.has_value());
  EXPECT_TRUE(hand_veil.panels.empty());
  // Every panel on show: those that print both accesses' wavefronts are veiled whole.
  LessonStep all = step_of(toy, 5);
  all.view = LessonView{};
  all.predict->quantity = "store.conflicts";
  const PredictionVeil all_veil = prediction_veil(all);
  EXPECT_EQ(all_veil.access, LessonAccess::Store);
  EXPECT_EQ(all_veil.panels, (std::vector<std::string>{"problem", "algebra", "solver"}));
}

TEST(LessonPredict, TextThatIsNoNumberIsRefusedWithAReason) {
  const Lesson toy = load_lesson_file(fs::path(SWZ_LESSONS_DIR) / "toy-gpu.json");
  const LessonStep& s = step_of(toy, 5);
  const std::pair<std::string, std::string> cases[] = {
      {"", "type a whole number"},
      {"   ", "type a whole number"},
      {"eight", "'eight' is not a whole number"},
      {"8 wavefronts", "'8 wavefronts' is not a whole number"},
      {"8.0", "'8.0' is not a whole number"},
      {"99999999999999999999999", "'99999999999999999999999' is too large a number"},
      {std::string(300, '7'), "'777777777777777777777777...' is too large a number"},
  };
  for (const auto& [typed, problem] : cases) {
    const PredictionCheck c = check_prediction(s, typed);
    EXPECT_FALSE(c.typed.has_value()) << typed;
    EXPECT_FALSE(c.correct) << typed;
    EXPECT_EQ(c.problem, problem) << typed;
  }
  EXPECT_THROW(prediction_answer(step_of(toy, 1)), Error) << "a step that asks nothing";
}

std::string predict_load_error(const nlohmann::json& predict, const nlohmann::json& claims = nlohmann::json::object()) {
  nlohmann::json step = {{"title", "Ask"}, {"preset", "toy8x8"}, {"text", "Text."}, {"predict", predict}};
  if (!claims.empty()) step["claims"] = claims;
  const nlohmann::json lesson = {{"format", kLessonFormat}, {"version", kLessonVersion}, {"title", "T"}, {"steps", {step}}};
  try {
    parse_lesson(lesson, "ask", "ask.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(LessonPredict, APredictionALearnerCannotTypeDoesNotLoad) {
  EXPECT_EQ(predict_load_error({{"ask", "How many?"}, {"quantity", "read.wavefronts"}}), "(no error)");
  EXPECT_NE(predict_load_error({{"ask", "Which?"}, {"quantity", "read.verdict"}}).find("'predict.quantity' 'read.verdict' is the string"),
            std::string::npos)
      << predict_load_error({{"ask", "Which?"}, {"quantity", "read.verdict"}});
  EXPECT_NE(predict_load_error({{"ask", "How many?"}, {"quantity", "read.wavefronts"}}, {{"read.wavefronts", 8}})
                .find("is also a claim of the step: the card would show the answer"),
            std::string::npos);
  EXPECT_NE(predict_load_error({{"ask", "How many?"}, {"quantity", "read.happiness"}}).find("unknown quantity 'read.happiness'"),
            std::string::npos);
  EXPECT_NE(
      predict_load_error({{"ask", "How many?"}, {"quantity", "read.wavefronts"}, {"answer", 8}}).find("'predict': unknown key 'answer'"),
      std::string::npos);
  EXPECT_NE(predict_load_error({{"quantity", "read.wavefronts"}}).find("'predict': missing 'ask'"), std::string::npos);
  EXPECT_NE(predict_load_error("read.wavefronts").find("'predict' must be an object"), std::string::npos);
}

TEST(LessonPredict, AnswersRoundTripInTheRecordAndTheSummaryCountsThem) {
  const Lesson toy = load_lesson_file(fs::path(SWZ_LESSONS_DIR) / "toy-gpu.json");
  const Lesson cute = load_lesson_file(fs::path(SWZ_LESSONS_DIR) / "cute-swizzle.json");
  const auto answer = [](const Lesson& l, std::size_t from_1, const std::string& typed) {
    return prediction_record(l, from_1 - 1, typed, check_prediction(l.steps[from_1 - 1], typed));
  };
  QuizRecord ana{"Ana", "", "2026-11-28T09:00:00Z", {}, {}};
  ana.answers.push_back({"first-class/1", "How many?", 1, "4", true, "2026-11-28T09:01:00Z"});
  ana.exercises.push_back(answer(toy, 5, " 8 "));
  ana.exercises.push_back(answer(cute, 1, "4"));
  EXPECT_EQ(ana.exercises[0].exercise, "toy-gpu/step-5");
  EXPECT_EQ(ana.exercises[0].answer, "8") << "kept as typed, blanks trimmed";
  EXPECT_EQ(ana.exercises[0].prompt, toy.steps[4].predict->ask);
  EXPECT_TRUE(ana.exercises[0].correct);
  EXPECT_FALSE(ana.exercises[1].correct);
  const QuizRecord back = parse_quiz_record(quiz_record_text(ana), "ana.jsonl");
  EXPECT_EQ(back, ana);

  QuizRecord bo{"Bo", "", "2026-11-28T09:00:00Z", {}, {}};
  bo.exercises.push_back(answer(toy, 5, "1"));
  bo.exercises.push_back(answer(toy, 5, "8"));  // a second try, right
  const fs::path dir = fs::temp_directory_path() / ("swz-predict-records-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  save_quiz_record(dir / "ana.jsonl", ana);
  save_quiz_record(dir / "bo.jsonl", bo);
  const QuizSummary s = summarize_quiz_record_dir(dir);
  fs::remove_all(dir);
  ASSERT_EQ(s.students.size(), 2u);
  // Per student: quiz answers, predictions answered, predictions right (counted apart).
  const auto student_counts = [](const QuizSummary::Student& st) {
    return std::array<int, 3>{st.answered, st.exercises_answered, st.exercises_correct};
  };
  EXPECT_EQ(student_counts(s.students[0]), (std::array<int, 3>{1, 2, 1}));
  EXPECT_EQ(student_counts(s.students[1]), (std::array<int, 3>{0, 2, 1}));
  ASSERT_EQ(s.exercises.size(), 2u);
  const auto exercise_counts = [](const QuizSummary::Question& q) { return std::make_tuple(q.id, q.answered, q.correct); };
  EXPECT_EQ(exercise_counts(s.exercises[0]), std::make_tuple(std::string("cute-swizzle/step-1"), 1, 0));
  EXPECT_EQ(exercise_counts(s.exercises[1]), std::make_tuple(std::string("toy-gpu/step-5"), 3, 2));
  const nlohmann::json j = to_json(s);
  EXPECT_EQ(j["exercises"][1]["correct"], 2);
  EXPECT_EQ(j["students"][1]["exercises_answered"], 2);
  const std::string text = quiz_summary_text(s);
  EXPECT_NE(text.find("toy-gpu/step-5"), std::string::npos) << text;
  const std::size_t predictions = text.find("predictions right / answered");
  ASSERT_NE(predictions, std::string::npos) << text;
  EXPECT_NE(text.find("Bo (bo.jsonl)        1 / 2", predictions), std::string::npos) << text;

  // A prediction line is read as strictly as an answer line.
  const std::string header = R"({"format":"swizzle-quiz-record","version":1,"student":"Ana","set":"","started":"t"})";
  const auto error_of = [&](const std::string& line) {
    try {
      parse_quiz_record(header + "\n" + line + "\n", "ana.jsonl");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error_of(R"({"exercise":"t/step-1","prompt":"p","answer":"8","correct":"yes","time":"t"})"),
            "ana.jsonl: line 2: 'correct' must be true or false, not the string \"yes\"");
  EXPECT_EQ(error_of(R"({"exercise":"","prompt":"p","answer":"8","correct":true,"time":"t"})"),
            "ana.jsonl: line 2: 'exercise' is empty");
  EXPECT_EQ(error_of(R"({"exercise":"t/step-1","prompt":"p","answer":"8","correct":true,"time":"t","choice":1})")
                .rfind("ana.jsonl: line 2: unknown key 'choice'", 0),
            0u);
}

}  // namespace
}  // namespace swz
