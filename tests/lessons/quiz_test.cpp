// Quiz questions of every kind: each right answer recomputed here from the simulator,
// the layout code or by hand; every question well formed; same seed, same question;
// question sets load, and bad ones are refused naming the file, question and key.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/analysis.h"
#include "swz/teach/lesson.h"
#include "swz/teach/math_text.h"
#include "swz/teach/quiz_set.h"

namespace swz {
namespace {

const std::filesystem::path kQuizzes = std::filesystem::path(SWZ_LESSONS_DIR).parent_path() / "quizzes";

const AccessResult& side(const ProblemAnalysis& a, QuizAccess access) {
  return access == QuizAccess::Store ? a.store.simulated : a.read.simulated;
}
bool is_ideal(const AccessResult& r) { return r.wavefronts == r.ideal_wavefronts; }

TEST(Quiz, EveryKindIsWellFormedAndTheSameSeedGivesTheSameQuestion) {
  for (int k = 0; k < kQuizKinds; ++k) {
    const auto kind = static_cast<QuizKind>(k);
    std::set<std::string> prompts;
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
      const QuizQuestion q = make_quiz_question(seed, kind);
      EXPECT_EQ(q.kind, kind);
      EXPECT_EQ(check_quiz_question(q), "") << quiz_kind_name(kind) << " seed " << seed;
      EXPECT_FALSE(has_ambiguous_power(q.explanation)) << q.explanation;
      const QuizQuestion again = make_quiz_question(seed, kind);
      EXPECT_EQ(again.prompt, q.prompt);
      EXPECT_EQ(again.choices, q.choices);
      EXPECT_EQ(again.answer, q.answer);
      EXPECT_EQ(again.explanation, q.explanation);
      prompts.insert(q.prompt + q.context + fmt::format("{}", fmt::join(q.choices, "|")));
    }
    EXPECT_GE(prompts.size(), 8u) << quiz_kind_name(kind) << ": the draw hardly varies";
  }
  std::set<QuizKind> kinds;
  for (std::uint64_t seed = 0; seed < 60; ++seed) kinds.insert(make_quiz_question(seed).kind);
  EXPECT_EQ(kinds.size(), static_cast<std::size_t>(kQuizKinds));
}

TEST(Quiz, CheckRefusesMalformedQuestions) {
  QuizQuestion q = make_quiz_question(3, QuizKind::Swizzle);
  ASSERT_EQ(check_quiz_question(q), "");
  QuizQuestion twice = q;
  twice.choices[1] = twice.choices[0];
  EXPECT_NE(check_quiz_question(twice).find("twice"), std::string::npos);
  QuizQuestion out_of_range = q;
  out_of_range.answer = static_cast<int>(q.choices.size());
  EXPECT_NE(check_quiz_question(out_of_range), "");
  QuizQuestion one = q;
  one.choices.resize(1);
  one.answer = 0;
  EXPECT_NE(check_quiz_question(one).find("at least two"), std::string::npos);
}

TEST(Quiz, WavefrontsAnswerIsTheSimulators) {
  std::set<std::string> presets;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const QuizQuestion q = make_quiz_question(seed, QuizKind::Wavefronts);
    ASSERT_TRUE(q.problem.has_value());
    presets.insert(q.problem->preset);
    const Problem p = build_problem(*q.problem);
    const Access& access = q.params.access == QuizAccess::Store ? p.store : p.read;
    const AccessResult r = simulate(access, p.shared, p.element_bits, p.bank);
    EXPECT_EQ(q.right_choice(), std::to_string(r.wavefronts)) << q.prompt << " seed " << seed;
    EXPECT_EQ(std::count(q.choices.begin(), q.choices.end(), std::to_string(r.wavefronts)), 1);
  }
  EXPECT_GE(presets.size(), 5u) << "wavefront questions draw from the presets beyond the toggle-grid transposes";
}

TEST(Quiz, FixHasExactlyOneMaskSetThatIsConflictFree) {
  std::set<std::string> presets;
  for (std::uint64_t seed = 0; seed < 25; ++seed) {
    const QuizQuestion q = make_quiz_question(seed, QuizKind::Fix);
    presets.insert(q.params.preset);
    Problem p = make_preset(q.params.preset);
    for (std::size_t i = 0; i < q.choices.size(); ++i) {
      p.set_masks(parse_masks(q.choices[i]));
      const bool ok = is_ideal(side(analyze(p), q.params.access));
      EXPECT_EQ(ok, static_cast<int>(i) == q.answer) << q.params.preset << " masks " << q.choices[i];
    }
  }
  EXPECT_GE(presets.size(), 3u);
}

TEST(Quiz, ConflictFreeHasExactlyOneNamedLayout) {
  std::set<std::string> presets;
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    const QuizQuestion q = make_quiz_question(seed, QuizKind::ConflictFree);
    presets.insert(q.params.preset);
    for (std::size_t i = 0; i < q.choices.size(); ++i) {
      Problem p = make_preset(q.params.preset);
      ASSERT_EQ(q.params.candidates.size(), q.choices.size());
      p.apply_variant(q.params.candidates[i]);
      const ProblemAnalysis a = analyze(p);
      const bool ok = q.params.access == QuizAccess::Both ? is_ideal(a.store.simulated) && is_ideal(a.read.simulated)
                                                          : is_ideal(side(a, q.params.access));
      EXPECT_EQ(ok, static_cast<int>(i) == q.answer) << q.params.preset << " " << q.choices[i];
    }
  }
  EXPECT_TRUE(presets.count("tma128_fp16") && presets.count("cute8x8")) << "the TMA and CuTe presets are asked about";
}

TEST(Quiz, SwizzleAnswerWorkedByHand) {
  // Swizzle<3,2,3>, offset 42 = 0b001'010'10: YYY (bits 5-7) = 001 lands on bits 2-4, so 42 ^ 0b100 = 46.
  QuizParams p;
  p.kind = QuizKind::Swizzle;
  p.swizzle_b = 3, p.swizzle_m = 2, p.swizzle_s = 3, p.offset = 42;
  EXPECT_EQ(build_quiz_question(p).right_choice(), "46");
  // Swizzle<3,4,3> (TMA 128B on bytes), byte 400 = line 3, chunk 1: chunk 1 ^ 3 = 2 -> byte 3*128 + 2*16 = 416.
  p.swizzle_m = 4, p.offset = 400;
  EXPECT_EQ(build_quiz_question(p).right_choice(), "416");
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const QuizQuestion q = make_quiz_question(seed, QuizKind::Swizzle);
    const QuizParams& s = q.params;
    const std::uint64_t yyy = ((std::uint64_t{1} << s.swizzle_b) - 1) << (s.swizzle_m + s.swizzle_s);
    EXPECT_EQ(q.right_choice(), std::to_string(s.offset ^ ((s.offset & yyy) >> s.swizzle_s))) << q.prompt;
    EXPECT_NE(std::find(q.choices.begin(), q.choices.end(), std::to_string(s.offset)), q.choices.end())
        << "leaving the offset alone is a distractor: " << q.prompt;
  }
}

TEST(Quiz, TmaAnswersAgreeWithTheModeTable) {
  QuizParams p;
  p.kind = QuizKind::Tma;
  p.ask = TmaAsk::Mode;
  const std::pair<int, const char*> modes[] = {{32, "CU_TENSOR_MAP_SWIZZLE_32B"},
                                               {64, "CU_TENSOR_MAP_SWIZZLE_64B"},
                                               {128, "CU_TENSOR_MAP_SWIZZLE_128B"},
                                               {256, "CU_TENSOR_MAP_SWIZZLE_NONE"}};
  for (const auto& [box, mode] : modes) {
    p.box_bytes = box;
    EXPECT_EQ(build_quiz_question(p).right_choice(), mode) << box;
  }
  // Seed 002's table: the pattern repeats after 256, 512 and 1024 bytes; inner box at most 32, 64, 128 bytes.
  for (const auto& [mode, repeat] : {std::pair{32, 256}, std::pair{64, 512}, std::pair{128, 1024}}) {
    p.mode_bytes = mode;
    p.ask = TmaAsk::Alignment;
    EXPECT_EQ(build_quiz_question(p).right_choice(), std::to_string(repeat)) << mode;
    p.ask = TmaAsk::LargestBox;
    EXPECT_EQ(build_quiz_question(p).right_choice(), std::to_string(mode)) << mode;
  }
  // Seed 002's index relation: smem[y][x] <-> smem[y][((y + offset) % R) ^ x], offset = (base / 128) % R, for 128-byte lines y.
  p.ask = TmaAsk::Chunk;
  p.mode_bytes = 128;
  for (std::uint64_t base : {0u, 128u, 640u})
    for (int row = 0; row < 16; ++row)
      for (int chunk = 0; chunk < 8; ++chunk) {
        p.base = base, p.row = row, p.chunk = chunk;
        const std::uint64_t want = ((static_cast<std::uint64_t>(row) + base / 128 % 8) % 8) ^ static_cast<std::uint64_t>(chunk);
        ASSERT_EQ(build_quiz_question(p).right_choice(), std::to_string(want)) << base << " " << row << " " << chunk;
      }
  for (std::uint64_t seed = 0; seed < 40; ++seed) EXPECT_EQ(check_quiz_question(make_quiz_question(seed, QuizKind::Tma)), "");
}

TEST(Quiz, BuildRefusesBadParametersNamingThem) {
  auto message = [](const QuizParams& p) {
    try {
      (void)build_quiz_question(p);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  QuizParams fix;
  fix.kind = QuizKind::Fix;
  fix.preset = "transpose16x32";
  fix.candidates = {"2,4,8,16", "0,0,0,0", "2,4,8,16"};
  EXPECT_NE(message(fix).find("choices: '2,4,8,16' is offered twice"), std::string::npos) << message(fix);
  fix.candidates = {"0,0,0,0", "1,2,4,8"};
  EXPECT_NE(message(fix).find("choices: 0 of them"), std::string::npos) << message(fix);
  fix.preset = "cute8x8";
  EXPECT_NE(message(fix).find("preset: 'cute8x8' has no toggle grid"), std::string::npos) << message(fix);
  QuizParams swz;
  swz.kind = QuizKind::Swizzle;
  swz.swizzle_b = 3, swz.swizzle_m = 2, swz.swizzle_s = 2;
  EXPECT_EQ(message(swz).rfind("swizzle:", 0), 0u) << message(swz);
  swz.swizzle_s = 3, swz.offset = 3;  // no bit in YYY: nothing to ask
  EXPECT_EQ(message(swz).rfind("offset:", 0), 0u) << message(swz);
  QuizParams tma;
  tma.kind = QuizKind::Tma;
  tma.ask = TmaAsk::Chunk;
  tma.base = 100;
  EXPECT_EQ(message(tma).rfind("base:", 0), 0u) << message(tma);
  tma.ask = TmaAsk::Alignment;
  tma.mode_bytes = 96;
  EXPECT_EQ(message(tma).rfind("mode:", 0), 0u) << message(tma);
  QuizParams w;
  w.preset = "nope";
  EXPECT_EQ(message(w).rfind("preset:", 0), 0u) << message(w);
}

TEST(QuizSet, ShippedSetsLoadAndCoverEveryKind) {
  std::set<QuizKind> kinds;
  int files = 0;
  for (const auto& path : lesson_files(kQuizzes)) {
    ++files;
    const QuizSet set = load_quiz_set_file(path);
    EXPECT_FALSE(set.questions.empty()) << path;
    for (const QuizQuestion& q : set.questions) {
      EXPECT_EQ(check_quiz_question(q), "") << path;
      EXPECT_FALSE(has_ambiguous_power(q.explanation)) << q.explanation;
      kinds.insert(q.kind);
    }
  }
  EXPECT_GE(files, 2);
  EXPECT_EQ(kinds.size(), static_cast<std::size_t>(kQuizKinds));
}

// What a room notices: the same question twice, a question with fewer choices than the rest, a
// summary that miscounts, a preset's internal name as a choice, a question whose text names its answer.
TEST(QuizSet, ShippedSetsAreFairToTheRoom) {
  std::set<std::string> ids;  // every named layout of every preset
  for (const PresetInfo& info : list_presets())
    for (const Variant& v : make_preset(info.name).variants) ids.insert(v.name);
  const char* counts[] = {"zero",  "one",  "two", "three",  "four",   "five",     "six",      "seven",
                          "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen"};
  for (const auto& path : lesson_files(kQuizzes)) {
    SCOPED_TRACE(path.filename().string());
    const QuizSet set = load_quiz_set_file(path);
    for (std::size_t i = 0; i < set.questions.size(); ++i) {
      const QuizQuestion& q = set.questions[i];
      SCOPED_TRACE("question " + std::to_string(i + 1) + ": " + q.prompt);
      EXPECT_GE(q.choices.size(), 4u);
      for (const std::string& c : q.choices) EXPECT_EQ(ids.count(c), 0u) << "internal id as a choice: " << c;
      const std::string& right = q.right_choice();
      if (right.find_first_not_of("0123456789x ,") != std::string::npos) {  // a name or a layout, not a number
        EXPECT_EQ(q.context.find(right), std::string::npos) << q.context;
        EXPECT_EQ(q.prompt.find(right), std::string::npos) << q.prompt;
      }
      // A layout question's context must not name the swizzle that answers it ("...; TMA 128B swizzle").
      if (q.kind == QuizKind::Fix || q.kind == QuizKind::ConflictFree) {
        EXPECT_EQ(q.context.find("swizzle"), std::string::npos) << q.context;
        EXPECT_EQ(q.context.find("Swizzle"), std::string::npos) << q.context;
      }
      for (std::size_t k = 0; k < i; ++k)
        EXPECT_FALSE(set.questions[k].prompt == q.prompt && set.questions[k].context == q.context &&
                     set.questions[k].right_choice() == right)
            << "same as question " << k + 1;
    }
    std::string summary = set.summary;
    for (char& ch : summary) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (std::size_t n = 0; n < std::size(counts); ++n) {
      if (summary.find(std::string(counts[n]) + " questions") != std::string::npos ||
          summary.find(std::to_string(n) + " questions") != std::string::npos) {
        EXPECT_EQ(n, set.questions.size()) << set.summary;
      }
    }
  }
}

TEST(QuizSet, TheSameQuestionTwiceIsRefused) {
  const nlohmann::json j = nlohmann::json::parse(R"({"format": "swizzle-workbench-quiz", "version": 1, "title": "t",
    "questions": [{"kind": "tma", "ask": "largest-box", "mode": 64}, {"kind": "swizzle", "swizzle": [3, 2, 3], "offset": 42},
                  {"kind": "tma", "ask": "largest-box", "mode": 64}]})");
  try {
    (void)parse_quiz_set(j, "t", "t.json");
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("question 3 (tma): asks the same as question 1"), std::string::npos) << e.what();
  }
}

TEST(QuizScore, ASkipCountsAgainstTheRunningScore) {
  QuizScore score;
  score.record(true);
  score.record_skip();
  score.record(false);
  EXPECT_EQ(score.correct, 1);
  EXPECT_EQ(score.asked, 2);
  EXPECT_EQ(score.passed(), 3);
  EXPECT_EQ(score.streak, 0);
}

TEST(QuizSet, SeedEntriesAreTheSeedsQuestions) {
  const nlohmann::json j = nlohmann::json::parse(R"({"format": "swizzle-workbench-quiz", "version": 1, "title": "t",
    "questions": [{"seed": 9}, {"kind": "fix", "seed": 4}]})");
  const QuizSet set = parse_quiz_set(j, "t", "t.json");
  ASSERT_EQ(set.questions.size(), 2u);
  EXPECT_EQ(set.questions[0].prompt, make_quiz_question(9).prompt);
  EXPECT_EQ(set.questions[0].choices, make_quiz_question(9).choices);
  EXPECT_EQ(set.questions[1].choices, make_quiz_question(4, QuizKind::Fix).choices);
}

// What `swizzle quiz check` prints for a set: each kind counted in the singular or the plural (never
// "1 wavefronts" or "2 fix"), in quiz_kind_name() order.
TEST(QuizSet, ContentsCountEachKindInTheRightNumber) {
  const nlohmann::json j = nlohmann::json::parse(R"({"format": "swizzle-workbench-quiz", "version": 1, "title": "t",
    "questions": [{"kind": "fix", "seed": 4}, {"kind": "wavefronts", "seed": 9}, {"kind": "fix", "seed": 5}]})");
  const QuizSet set = parse_quiz_set(j, "t", "t.json");
  EXPECT_EQ(quiz_set_contents(set), "3 questions (1 wavefronts question, 2 fix questions)");
  QuizSet one = set;
  one.questions.resize(1);
  EXPECT_EQ(quiz_set_contents(one), "1 question (1 fix question)");
}

TEST(QuizSet, BadSetsAreRefusedNamingFileQuestionAndKey) {
  const std::string head = R"({"format": "swizzle-workbench-quiz", "version": 1, "title": "t", "questions": [)";
  const std::pair<std::string, std::string> cases[] = {
      {head +
           R"({"kind": "tma", "ask": "mode", "box_bytes": 64}, {"kind": "swizzle", "swizzle": [3,2,3], "offset": 42, "colour": 1}]})",
       "bad.json: question 2 (swizzle): unknown key 'colour'"},
      {head + R"({"kind": "wavefronts", "preset": "transpose16x32", "masks": "two"}]})",
       "bad.json: question 1 (wavefronts): masks:"},
      {head + R"({"kind": "wavefronts", "preset": "transpose16x32", "masks": [64]}]})",
       "bad.json: question 1 (wavefronts): masks:"},
      {head + R"({"kind": "riddle"}]})", "bad.json: question 1 (riddle): kind: unknown kind 'riddle'"},
      {head + R"({"kind": "swizzle", "swizzle": [3,2], "offset": 1}]})",
       "bad.json: question 1 (swizzle): swizzle: must be [B, M, S]"},
      {head + R"({"kind": "swizzle", "swizzle": [3,2,3], "offset": "x"}]})",
       "bad.json: question 1 (swizzle): offset: must be a whole number"},
      {head + R"({"kind": "tma", "ask": "chunk", "mode": 128, "row": 1, "chunk": 9}]})", "bad.json: question 1 (tma): chunk:"},
      {head + R"({"kind": "fix", "preset": "transpose16x32"}]})", "bad.json: question 1 (fix): choices: missing"},
      {head + R"({"kind": "conflict-free", "preset": "toy8x8", "access": "sideways"}]})",
       "bad.json: question 1 (conflict-free): access:"},
      {head + R"({"seed": -1}]})", "bad.json: question 1 (seed): seed:"},
      {head + R"(]})", "bad.json: questions: must be a list of at least one question"},
      {R"({"format": "swizzle-workbench-lesson", "version": 1, "title": "t", "questions": [{"seed": 1}]})", "bad.json: format:"},
      {R"({"format": "swizzle-workbench-quiz", "version": 1, "title": "t", "questions": [{"seed": 1}], "extra": 1})",
       "bad.json: unknown key 'extra'"},
  };
  for (const auto& [text, want] : cases) {
    try {
      (void)parse_quiz_set(nlohmann::json::parse(text), "bad", "bad.json");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(want, 0), 0u) << e.what();
    }
  }
  EXPECT_THROW((void)load_quiz_set_file("/nonexistent/quiz.json"), Error);
}

}  // namespace
}  // namespace swz
