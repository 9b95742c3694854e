// Shipped lessons against the core, and the loader's errors on malformed lessons.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "swz/error.h"
#include "swz/io/layout_io.h"
#include "swz/teach/lesson.h"

namespace swz {
namespace {

const std::filesystem::path kLessons = SWZ_LESSONS_DIR;
const std::filesystem::path kData = SWZ_LESSON_TEST_DATA;

Lesson shipped(const std::string& name) { return load_lesson_file(kLessons / (name + ".json")); }

TEST(Lessons, ShippedLessonsAreTheFourOfTheCurriculum) {
  std::vector<std::string> names;
  for (const auto& path : lesson_files(kLessons)) names.push_back(path.stem().string());
  EXPECT_EQ(names, (std::vector<std::string>{"cute-swizzle", "swizzle-by-hand", "tma-swizzle", "toy-gpu"}));
}

TEST(Lessons, EveryStepOfEveryShippedLessonLoadsAndItsClaimsHold) {
  int claims = 0;
  for (const auto& path : lesson_files(kLessons)) {
    SCOPED_TRACE(path.filename().string());
    const Lesson lesson = load_lesson_file(path);
    EXPECT_FALSE(lesson.title.empty());
    ASSERT_FALSE(lesson.steps.empty());
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const LessonStep& step = lesson.steps[i];
      SCOPED_TRACE("step " + std::to_string(i + 1) + " " + step.title);
      EXPECT_FALSE(step.paragraphs.empty());
      const Problem p = problem_for_step(step);
      const ProblemAnalysis a = analyze(p);
      // The state the workbench is put in: the lemma and the simulator agree wherever the lemma applies.
      if (a.read.lemma.applies) {
        EXPECT_TRUE(a.read.agrees()) << a.read.difference;
      }
      if (a.store.lemma.applies) {
        EXPECT_TRUE(a.store.agrees()) << a.store.difference;
      }
      for (const ClaimCheck& c : check_claims(step, p, a)) {
        EXPECT_TRUE(c.holds) << c.claim.quantity << ": lesson says " << c.claim.expected.dump() << ", core says " << c.actual.dump();
        ++claims;
      }
    }
  }
  EXPECT_GE(claims, 60);
}

TEST(Lessons, GuidedLessonWalksTheSixteenTwoOneTable) {
  const Lesson l = shipped("swizzle-by-hand");
  ASSERT_GE(l.steps.size(), 16u);
  std::vector<int> read_wavefronts;
  for (const auto& title : {"The pileup: 16-way conflict", "The leftover: a 2-way conflict", "Leave the read's bit alone: XOR 2m"}) {
    const auto it = std::find_if(l.steps.begin(), l.steps.end(), [&](const LessonStep& s) { return s.title == title; });
    ASSERT_NE(it, l.steps.end()) << title;
    read_wavefronts.push_back(analyze(problem_for_step(*it)).read.simulated.wavefronts);
  }
  EXPECT_EQ(read_wavefronts, (std::vector<int>{16, 2, 1}));
}

TEST(Lessons, StepsInheritPresetLayoutAndAccess) {
  const Lesson l = shipped("swizzle-by-hand");
  const LessonStep& pileup = l.steps[2];  // names no preset, layout or access of its own
  EXPECT_EQ(pileup.problem.preset, "transpose16x32");
  EXPECT_TRUE(pileup.problem.masks.empty());  // "unswizzled": the grid with no masks
  EXPECT_TRUE(pileup.problem.variant.empty());
  EXPECT_EQ(pileup.access, LessonAccess::Read);
  const LessonStep& freedom = l.steps[3];
  EXPECT_TRUE(freedom.problem.variant.empty());
  EXPECT_EQ(freedom.problem.masks, (std::vector<std::uint32_t>{5, 9, 18, 27}));
}

TEST(Lessons, CuteStepsParseSwizzleText) {
  const Lesson l = shipped("cute-swizzle");
  const auto it = std::find_if(l.steps.begin(), l.steps.end(),
                               [](const LessonStep& s) { return s.problem.shared && s.problem.shared->origin.find("<1,2,2>") != std::string::npos; });
  ASSERT_NE(it, l.steps.end());
  const Problem p = problem_for_step(*it);
  EXPECT_EQ(p.shared.description(), it->problem.shared->origin);
  EXPECT_EQ(analyze(p).read.simulated.wavefronts, 2);
}

// A teacher's own problem: a custom tile, another bank count, or writer and reader given outright.
TEST(Lessons, StepsTakeAWholeProblemAndLaterStepsInheritIt) {
  const auto seed = make_preset("transpose16x32");
  nlohmann::json writer = {{"origin", "seed writer"}, {"layout", layout_to_json(seed.store.layout)}};
  nlohmann::json reader = {{"origin", "seed reader"}, {"layout", layout_to_json(seed.read.layout)}};
  const nlohmann::json lesson = {
      {"format", kLessonFormat},
      {"version", 1},
      {"title", "Own problems"},
      {"summary", "custom problems"},
      {"steps",
       {{{"title", "Sixteen banks"},
         {"text", "Half the banks."},
         {"problem", {{"preset", "transpose16x32"}, {"banks", 16}}},
         {"claims", {{"read.wavefronts", 32}}}},
        {{"title", "Masks on top"}, {"text", "The same problem, swizzled."}, {"masks", {2, 4, 8, 16}}},
        {{"title", "Custom"},
         {"text", "Writer and reader given."},
         {"problem", {{"preset", ""}, {"element_bits", 32}, {"writer", writer}, {"reader", reader}, {"masks", {2, 4, 8, 16}}}},
         {"claims", {{"read.wavefronts", 1}}}},
        {{"title", "Another tile"}, {"text", "64 by 64."}, {"problem", {{"preset", "transpose16x32"}, {"shape", {64, 64}}}}}}}};
  const Lesson l = parse_lesson(lesson, "own", "own.json");
  ASSERT_EQ(l.steps.size(), 4u);
  EXPECT_EQ(problem_for_step(l.steps[0]).bank.banks, 16);
  EXPECT_EQ(l.steps[1].problem.banks, 16);  // inherited
  EXPECT_EQ(l.steps[1].problem.masks, (std::vector<std::uint32_t>{2, 4, 8, 16}));
  EXPECT_EQ(problem_for_step(l.steps[2]).name, "custom");
  EXPECT_EQ(problem_for_step(l.steps[3]).shape, (std::vector<std::int64_t>{64, 64}));
  for (const LessonStep& s : l.steps)
    for (const ClaimCheck& c : check_claims(s)) EXPECT_TRUE(c.holds) << s.title << ": " << c.claim.quantity;
  nlohmann::json bad = lesson;
  bad["steps"][0]["preset"] = "toy8x8";
  EXPECT_THROW(parse_lesson(bad, "own", "own.json"), Error);
  bad = lesson;
  bad["steps"][0]["problem"]["bankz"] = 3;
  try {
    parse_lesson(bad, "own", "own.json");
    ADD_FAILURE() << "an unknown problem key loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'problem.bankz' is not a problem field"), std::string::npos) << e.what();
  }
}

TEST(Lessons, XorTableMarksCellsOutsideNonPowerOfTwoWidths) {
  EXPECT_EQ(xor_swizzle_row(1, 3), (std::vector<std::int64_t>{1, 0, 3}));
  const Problem p = make_preset("toy8x8");
  const ProblemAnalysis a = analyze(p);
  EXPECT_EQ(measure("xor_table(2,3).out_of_bounds", p, a, 0), nlohmann::json::parse("[[1,2]]"));
  EXPECT_EQ(measure("xor_table(4,6).out_of_bounds", p, a, 0).size(), 4u);
  // Every power-of-two width keeps every row in bounds; every other width from 3 up has a row that steps out.
  for (std::int64_t cols = 1; cols <= 64; ++cols) {
    const bool pow2 = (cols & (cols - 1)) == 0;
    const auto oob = measure(fmt::format("xor_table({},{}).out_of_bounds", cols, cols), p, a, 0);
    EXPECT_EQ(oob.empty(), pow2 || cols < 3) << cols;
  }
}

TEST(Lessons, ClaimsCompareBasesAsSets) {
  LessonStep s;
  s.problem.preset = "transpose16x32";
  set_named_layout(s.problem, "xor-2m");
  s.claims = {{"read.segment_basis", nlohmann::json::parse(R"j(["m3^n4", "m0^n1", "m2^n3", "m1^n2"])j")},
              {"read.wavefronts", 2}};
  const auto checks = check_claims(s);
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_TRUE(checks[0].holds);
  EXPECT_FALSE(checks[1].holds);
  EXPECT_EQ(checks[1].actual, 1);
}

TEST(Lessons, SpeakerNotesAreOptionalAndKeptApartFromTheText) {
  const nlohmann::json first = {
      {"title", "Start"}, {"text", "On the card."}, {"preset", "transpose16x32"}, {"notes", "Ask who has seen a bank conflict."}};
  const nlohmann::json second = {{"title", "Two"}, {"text", "More."}, {"notes", {"First note.", "Second note."}}};
  const nlohmann::json third = {{"title", "Three"}, {"text", "No notes here."}};
  const Lesson l =
      parse_lesson({{"format", kLessonFormat}, {"version", 1}, {"title", "T"}, {"steps", {first, second, third}}}, "t", "t.json");
  ASSERT_EQ(l.steps.size(), 3u);
  EXPECT_EQ(l.steps[0].notes, std::vector<std::string>{"Ask who has seen a bank conflict."});
  EXPECT_EQ(l.steps[0].paragraphs, std::vector<std::string>{"On the card."});
  EXPECT_EQ(l.steps[1].notes, (std::vector<std::string>{"First note.", "Second note."}));
  EXPECT_TRUE(l.steps[2].notes.empty());  // notes are not inherited from the step before
}

// -- malformed lessons --------------------------------------------------------

std::string load_error(const nlohmann::json& j) {
  try {
    parse_lesson(j, "bad", "bad.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "(loaded)";
}

nlohmann::json lesson_with(const nlohmann::json& step) {
  nlohmann::json first = {{"title", "Start"}, {"text", "A first step."}, {"preset", "transpose16x32"}};
  return {{"format", kLessonFormat}, {"version", 1}, {"title", "T"}, {"steps", nlohmann::json::array({first, step})}};
}

TEST(LessonErrors, EachProblemIsOneLineNamingFileStepAndCause) {
  struct Case {
    const char* step;
    const char* expected;
  };
  const Case cases[] = {
      {R"j({"title": "S", "text": "x", "mask": [1]})j", "bad.json: step 2 (\"S\"): unknown key 'mask'"},
      {R"j({"title": "S", "text": "x", "preset": "nope"})j", "bad.json: step 2 (\"S\"): unknown preset 'nope'"},
      {R"j({"title": "S", "text": "x", "masks": [64]})j", "bad.json: step 2 (\"S\"): masks (--mask): mask 64 (row bit 0) is wider than the 32 columns"},
      {R"j({"title": "S", "text": "x", "masks": "1,x"})j", "bad.json: step 2 (\"S\"): mask list '1,x'"},
      {R"j({"title": "S", "text": "x", "masks": [1, 2, 4, 8, 16]})j", "bad.json: step 2 (\"S\"): masks (--mask): 5 masks given; the grid has 4 row bits"},
      {R"j({"title": "S", "text": "x", "layout": "xor-3m"})j", "bad.json: step 2 (\"S\"): variant (--layout): preset 'transpose16x32' has no layout 'xor-3m'"},
      {R"j({"title": "S", "text": "x", "layout": "xor-m", "masks": [1]})j", "give only one of 'layout', 'masks' and 'shared'"},
      {R"j({"title": "S", "text": "x", "claims": {"read.wavefronts": 16, "read.speed": 3}})j", "bad.json: step 2 (\"S\"): unknown quantity 'read.speed'"},
      {R"j({"title": "S", "text": "x", "claims": {"read.wavefronts": "many"}})j", "claim 'read.wavefronts' expects a string, but the quantity is a number"},
      {R"j({"title": "S", "text": "x", "claims": {"bank(16,0)": 0}})j", "coordinate 16 is outside the 16x32 tensor"},
      {R"j({"title": "S", "text": "x", "layout": "padded", "claims": {"read.intersection_dim": 1}})j", "the subspace lemma does not apply"},
      {R"j({"title": "S", "text": "x", "step": 16})j", "register step 16 is outside the read's steps 0..15"},
      {R"j({"title": "S", "text": "x", "access": "load"})j", "'access' must be \"store\" or \"read\""},
      {R"j({"title": "S", "text": "x", "highlight": ["panel:lessons"]})j", "highlight 'panel:lessons': no panel 'lessons'"},
      {R"j({"title": "S", "text": "x", "highlight": ["tensor.col.32"]})j", "highlight 'tensor.col.32': column 32 is outside 0..31"},
      {R"j({"title": "S", "text": "x", "highlight": ["grid.cell.4.0"]})j", "row bit 4 is outside 0..3"},
      {R"j({"title": "S", "text": "x", "highlight": ["tensor.cell.1"]})j", "highlight 'tensor.cell.1' is malformed"},
      {R"j({"title": "S", "text": "x", "highlight": ["somewhere"]})j", "unknown highlight 'somewhere'"},
      {R"j({"title": "S", "text": []})j", "'text' is empty"},
      {R"j({"title": "S", "text": "x", "notes": 3})j", "bad.json: step 2 (\"S\"): 'notes' must be a string or a list of strings"},
      {R"j({"title": "S", "text": "x", "notes": ["fine", 4]})j",
       "bad.json: step 2 (\"S\"): 'notes' must be a string or a list of strings"},
      {R"j({"text": "x"})j", "bad.json: step 2: missing 'title'"},
      {R"j({"title": "S", "text": "x", "shared": "Swizzle<3,2,3> o (16,16):(1,16)"})j", "covers a 16x16 tensor but the problem's tensor is 16x32"},
      {R"j({"title": "S", "text": "x", "shared": "not a layout"})j", "bad.json: step 2 (\"S\"): "},
  };
  for (const Case& c : cases) {
    const std::string error = load_error(lesson_with(nlohmann::json::parse(c.step)));
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.step << "\n  got: " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

TEST(LessonErrors, TopLevelProblems) {
  nlohmann::json good = lesson_with({{"title", "S"}, {"text", "x"}});
  auto with = [&](const char* key, nlohmann::json v) {
    nlohmann::json j = good;
    if (v.is_null()) j.erase(key);
    else j[key] = v;
    return load_error(j);
  };
  EXPECT_EQ(load_error(good), "(loaded)");
  EXPECT_NE(with("format", "slides").find("'format' must be \"swizzle-workbench-lesson\""), std::string::npos);
  EXPECT_NE(with("version", 2).find("'version' must be 1"), std::string::npos);
  EXPECT_NE(with("steps", nlohmann::json::array()).find("'steps' must be a non-empty list"), std::string::npos);
  EXPECT_NE(with("author", "me").find("bad.json: unknown key 'author'"), std::string::npos);
  EXPECT_NE(with("title", nullptr).find("bad.json: missing 'title'"), std::string::npos);
  nlohmann::json no_preset = good;
  no_preset["steps"][0].erase("preset");
  EXPECT_NE(load_error(no_preset).find("step 1 (\"Start\"): the first step must name a 'preset'"), std::string::npos);
}

TEST(LessonErrors, FilesThatAreNotJsonOrMissing) {
  try {
    load_lesson_file(kData / "broken.json");
    FAIL() << "loaded a broken file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("broken.json: not valid JSON"), std::string::npos) << e.what();
  }
  try {
    load_lesson_file(kData / "claims-on-nothing.json");
    FAIL() << "loaded a lesson with an unknown claim";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("claims-on-nothing.json: step 2 (\"Bad claim\"): unknown quantity 'store.happiness'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(load_lesson_file(kData / "absent.json"), Error);
  EXPECT_TRUE(lesson_files(kData / "absent").empty());
}

}  // namespace
}  // namespace swz
