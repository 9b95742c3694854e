// Shipped lessons against the core, and the loader's errors on malformed lessons.
#include "swz/teach/lesson.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "swz/error.h"
#include "swz/io/layout_io.h"
#include "swz/layout/factories.h"
#include "swz/teach/lesson.h"

namespace swz {
namespace {

const std::filesystem::path kLessons = SWZ_LESSONS_DIR;
const std::filesystem::path kData = SWZ_LESSON_TEST_DATA;

Lesson shipped(const std::string& name) { return load_lesson_file(kLessons / (name + ".json")); }

TEST(Lessons, ShippedLessonsAreTheSevenOfTheCurriculumInOrder) {
  std::vector<std::string> names;
  for (const auto& path : lesson_files(kLessons)) names.push_back(path.stem().string());
  EXPECT_EQ(names, (std::vector<std::string>{"algebra-wins", "amd-lds", "cp-async", "cute-swizzle", "swizzle-by-hand",
                                             "tma-swizzle", "toy-gpu"}));
  // The menu runs from the toy GPU up.
  std::vector<std::pair<int, std::string>> menu;
  for (const auto& name : names) menu.emplace_back(shipped(name).order, name);
  std::sort(menu.begin(), menu.end());
  std::vector<std::string> order;
  for (const auto& [o, name] : menu) order.push_back(name);
  EXPECT_EQ(order, (std::vector<std::string>{"toy-gpu", "swizzle-by-hand", "tma-swizzle", "cute-swizzle", "algebra-wins",
                                             "cp-async", "amd-lds"}));
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
        EXPECT_TRUE(c.holds) << c.claim.quantity << ": lesson says " << c.claim.expected.dump() << ", core says "
                             << c.actual.dump();
        ++claims;
      }
    }
  }
  EXPECT_GE(claims, 250);
}

TEST(Lessons, GuidedLessonWalksTheSixteenTwoOneTable) {
  const Lesson l = shipped("swizzle-by-hand");
  ASSERT_GE(l.steps.size(), 16u);
  std::vector<int> read_wavefronts;
  for (const auto& title :
       {"The pileup: 16-way conflict", "The leftover: a 2-way conflict", "Leave the read's bit alone: XOR 2m"}) {
    const auto it = std::find_if(l.steps.begin(), l.steps.end(), [&](const LessonStep& s) { return s.title == title; });
    ASSERT_NE(it, l.steps.end()) << title;
    read_wavefronts.push_back(analyze(problem_for_step(*it)).read.simulated.wavefronts);
  }
  EXPECT_EQ(read_wavefronts, (std::vector<int>{16, 2, 1}));
}

TEST(Lessons, StepsInheritPresetLayoutAndAccess) {
  const Lesson l = shipped("swizzle-by-hand");
  const LessonStep& pileup = l.steps[4];  // names no preset, layout or access of its own
  EXPECT_EQ(pileup.problem.preset, "transpose16x32");
  EXPECT_TRUE(pileup.problem.masks.empty());  // "unswizzled": the grid with no masks
  EXPECT_TRUE(pileup.problem.variant.empty());
  EXPECT_EQ(pileup.access, LessonAccess::Read);
  const LessonStep& freedom = l.steps[5];
  EXPECT_TRUE(freedom.problem.variant.empty());
  EXPECT_EQ(freedom.problem.masks, (std::vector<std::uint32_t>{5, 9, 18, 27}));
}

TEST(Lessons, CuteStepsParseSwizzleText) {
  const Lesson l = shipped("cute-swizzle");
  const auto it = std::find_if(l.steps.begin(), l.steps.end(), [](const LessonStep& s) {
    return s.problem.shared && s.problem.shared->origin.find("<1,2,2>") != std::string::npos;
  });
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
  s.claims = {{"read.segment_basis", nlohmann::json::parse(R"j(["m3^n4", "m0^n1", "m2^n3", "m1^n2"])j")}, {"read.wavefronts", 2}};
  const auto checks = check_claims(s);
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_TRUE(checks[0].holds);
  EXPECT_FALSE(checks[1].holds);
  EXPECT_EQ(checks[1].actual, 1);
}

TEST(Lessons, ALessonNamesAQuizSetThatMustLoad) {
  nlohmann::json j = {{"format", kLessonFormat},
                      {"version", 1},
                      {"title", "T"},
                      {"quiz", "first-class"},
                      {"steps", {{{"title", "A"}, {"text", "x"}, {"preset", "transpose16x32"}}}}};
  EXPECT_EQ(parse_lesson(j, "q", "q.json").quiz, "first-class");
  j["quiz"] = "no-such-set";
  try {
    parse_lesson(j, "q", "q.json");
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("q.json: 'quiz': "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no-such-set"), std::string::npos) << e.what();
  }
  for (const auto& path : lesson_files(kLessons)) EXPECT_FALSE(load_lesson_file(path).quiz.empty()) << path;
}

TEST(Lessons, AStepViewIsParsedAndLaterStepsInheritIt) {
  const nlohmann::json j = {{"format", kLessonFormat},
                            {"version", 1},
                            {"title", "T"},
                            {"steps",
                             {{{"title", "A"},
                               {"text", "x"},
                               {"preset", "transpose16x32"},
                               {"view", {{"panels", {"trace", "tensor"}}, {"cells", "offset"}, {"solver_step", 3}}}},
                              {{"title", "B"}, {"text", "y"}, {"layout", "xor-m"}},
                              {{"title", "C"}, {"text", "z"}, {"view", {{"focus", "memory"}}}},
                              {{"title", "D"}, {"text", "w"}}}}};
  const Lesson l = parse_lesson(j, "views", "views.json");
  ASSERT_EQ(l.steps.size(), 4u);
  EXPECT_EQ(l.steps[0].view.panels, (std::vector<std::string>{"tensor", "trace"}));  // the workbench's order
  EXPECT_EQ(l.steps[0].view.cells, CellNumbers::Offset);
  EXPECT_EQ(l.steps[0].view.solver_step, 2);
  EXPECT_TRUE(l.steps[0].view.shows("trace"));
  EXPECT_FALSE(l.steps[0].view.shows("algebra"));
  EXPECT_EQ(l.steps[1].view, l.steps[0].view);  // inherited with the problem
  EXPECT_EQ(l.steps[2].view.focus, "memory");   // a new view replaces the old one as a whole
  EXPECT_TRUE(l.steps[2].view.panels.empty());
  EXPECT_EQ(l.steps[2].view.cells, CellNumbers::None);
  EXPECT_FALSE(l.steps[2].view.shows("tensor"));
  EXPECT_EQ(l.steps[3].view, l.steps[2].view);
  EXPECT_EQ(lesson_target_panel("trace.bar.3"), "trace");
  EXPECT_EQ(lesson_target_panel("panel:solver"), "solver");
  EXPECT_EQ(lesson_target_panel("layouts.a.picture"), "layouts");
}

// -- facts beyond one access (lesson_facts.h) -----------------------------------

TEST(LessonFacts, CuteSwizzleMapsThirtyTwoToThirtySixAndUndoesItself) {
  const Problem p = make_preset("cute8x8");
  const ProblemAnalysis a = analyze(p);
  EXPECT_EQ(measure("swizzle(3,2,3).of(32)", p, a, 0), 36);
  for (int o = 0; o < 256; ++o) {
    const auto once = measure(fmt::format("swizzle(3,2,3).of({})", o), p, a, 0).get<int>();
    EXPECT_EQ(measure(fmt::format("swizzle(3,2,3).of({})", once), p, a, 0), o) << o;
  }
  EXPECT_THROW(measure("swizzle(3,2).of(1)", p, a, 0), Error);
  EXPECT_THROW(measure("swizzle(3,2,3).to(1)", p, a, 0), Error);
}

TEST(LessonFacts, TmaModesAndTheirShiftAgreeWithTheLayout) {
  const Problem p = make_preset("tma128_fp16");
  const ProblemAnalysis a = analyze(p);
  EXPECT_EQ(measure("tma(128).name", p, a, 0), "CU_TENSOR_MAP_SWIZZLE_128B");
  EXPECT_EQ(measure("tma(32).name", p, a, 0), "CU_TENSOR_MAP_SWIZZLE_32B");
  EXPECT_EQ(measure("tma(64).repeat_bytes", p, a, 0), 512);
  EXPECT_EQ(measure("tma(64).max_inner_box_bytes", p, a, 0), 64);
  EXPECT_EQ(measure("tma(128).global_alignment", p, a, 0), 128);
  // The shift the formula gives is where the layout on that base really puts element (0, 0)'s chunk.
  for (int width : {32, 64, 128})
    for (std::uint64_t base = 0; base < 4096; base += 128) {
      const SharedLayout l = tma_swizzle(width, {8, width / 2}, 16, base);
      const std::uint64_t chunk = (base + std::uint64_t{l.offset(0)} * 2) % 128 / 16;
      EXPECT_EQ(measure(fmt::format("tma({}).pattern_shift({})", width, base), p, a, 0), chunk) << width << " " << base;
    }
  EXPECT_THROW(measure("tma(48).name", p, a, 0), Error);
  EXPECT_THROW(measure("tma(128).pattern_shift(0x40)", p, a, 0), Error);
  EXPECT_THROW(measure("tma(128).speed", p, a, 0), Error);
}

TEST(LessonFacts, XorTableBijectionExactlyWhenEverythingStaysInside) {
  const Problem p = make_preset("toy8x8");
  const ProblemAnalysis a = analyze(p);
  for (int rows = 1; rows <= 16; ++rows)
    for (int cols = 1; cols <= 16; ++cols) {
      const auto q = fmt::format("xor_table({},{})", rows, cols);
      const bool inside = measure(q + ".out_of_bounds", p, a, 0).empty();
      EXPECT_EQ(measure(q + ".bijection", p, a, 0), inside) << q;
      EXPECT_EQ(measure(q + ".column_spread", p, a, 0), true) << q;
      if ((cols & (cols - 1)) == 0) {
        EXPECT_EQ(inside, rows <= cols) << q;  // H <= W
      }
    }
}

TEST(LessonFacts, OffsetOfIsTheInverseComposedWithTheAccess) {
  Problem p = make_preset("transpose16x32");
  p.apply_variant("xor-2m");
  const ProblemAnalysis a = analyze(p);
  for (int reg = 0; reg < 16; ++reg)
    for (int lane = 0; lane < 32; ++lane) {
      const BitVec flat =
          p.read.layout.apply({{"register", static_cast<std::uint64_t>(reg)}, {"lane", static_cast<std::uint64_t>(lane)}});
      const auto offset = p.shared.offset(flat);
      EXPECT_EQ(measure(fmt::format("read.offset_of({},{})", reg, lane), p, a, 0), offset);
      EXPECT_EQ(measure(fmt::format("element_at({})", offset), p, a, 0), nlohmann::json(p.shared.coords().unflatten(flat)));
    }
  EXPECT_EQ(measure("read.offset_of(0,1)", p, a, 0), 34);
  EXPECT_THROW(measure("read.offset_of(16,0)", p, a, 0), Error);
  p.apply_variant("padded");
  EXPECT_THROW(measure("read.offset_of(0,1)", p, a, 0), Error);
}

TEST(LessonFacts, TheConstructionsSetsAndCosts) {
  const Problem p = make_preset("transpose16x32");
  const ProblemAnalysis a = analyze(p);
  LessonStep s;
  s.problem.preset = "transpose16x32";
  s.claims = {{"solve.H_basis", nlohmann::json::parse(R"j(["m3^n4", "m0^n1", "m2^n3", "m1^n2"])j")},
              {"solve.I_basis", nlohmann::json::parse(R"j(["n0"])j")},
              {"solve.C_basis", nlohmann::json::array()},
              {"solve.read.wavefronts", 1},
              {"solve.fallback", false}};
  for (const ClaimCheck& c : check_claims(s)) EXPECT_TRUE(c.holds) << c.claim.quantity << " = " << c.actual.dump();
  const Problem mma = make_preset("mma_to_blocked_fp16");
  EXPECT_EQ(measure("solve.write.instruction", mma, analyze(mma), 0), "STSM.x4");
  EXPECT_THROW(measure("solve.nothing", p, a, 0), Error);
  EXPECT_THROW(measure("solve.read.speed", p, a, 0), Error);
}

TEST(LessonFacts, RotatedRowsSpreadAColumnButNotThePair) {
  Problem p = make_preset("transpose16x32");
  p.apply_variant("rotated");
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 32; ++n)
      EXPECT_EQ(p.shared.offset(p.shared.coords().flatten({m, n})), static_cast<std::uint32_t>(32 * m + (n + m) % 32));
  const ProblemAnalysis a = analyze(p);
  EXPECT_EQ(measure("column_banks(0)", p, a, 0), 16);
  EXPECT_EQ(a.read.simulated.wavefronts, 2);
  EXPECT_FALSE(p.shared.is_linear());
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
      {R"j({"title": "S", "text": "x", "masks": [64]})j",
       "bad.json: step 2 (\"S\"): masks (--mask): mask 64 (row bit 0) is wider than the 32 columns"},
      {R"j({"title": "S", "text": "x", "masks": "1,x"})j", "bad.json: step 2 (\"S\"): mask list '1,x'"},
      {R"j({"title": "S", "text": "x", "masks": [1, 2, 4, 8, 16]})j",
       "bad.json: step 2 (\"S\"): masks (--mask): 5 masks given; the grid has 4 row bits"},
      {R"j({"title": "S", "text": "x", "layout": "xor-3m"})j",
       "bad.json: step 2 (\"S\"): variant (--layout): preset 'transpose16x32' has no layout 'xor-3m'"},
      {R"j({"title": "S", "text": "x", "layout": "xor-m", "masks": [1]})j", "give only one of 'layout', 'masks' and 'shared'"},
      {R"j({"title": "S", "text": "x", "claims": {"read.wavefronts": 16, "read.speed": 3}})j",
       "bad.json: step 2 (\"S\"): unknown quantity 'read.speed'"},
      {R"j({"title": "S", "text": "x", "claims": {"read.wavefronts": "many"}})j",
       "claim 'read.wavefronts' expects a string, but the quantity is a number"},
      {R"j({"title": "S", "text": "x", "claims": {"bank(16,0)": 0}})j", "coordinate 16 is outside the 16x32 tensor"},
      {R"j({"title": "S", "text": "x", "layout": "padded", "claims": {"read.intersection_dim": 1}})j",
       "the subspace lemma does not apply"},
      {R"j({"title": "S", "text": "x", "step": 16})j", "register step 16 is outside the read's steps 0..15"},
      {R"j({"title": "S", "text": "x", "access": "load"})j", "'access' must be \"store\" or \"read\""},
      {R"j({"title": "S", "text": "x", "highlight": ["panel:lessons"]})j", "highlight 'panel:lessons': no panel 'lessons'"},
      {R"j({"title": "S", "text": "x", "highlight": ["tensor.col.32"]})j",
       "highlight 'tensor.col.32': column 32 is outside 0..31"},
      {R"j({"title": "S", "text": "x", "highlight": ["grid.cell.4.0"]})j", "row bit 4 is outside 0..3"},
      {R"j({"title": "S", "text": "x", "highlight": ["tensor.cell.1"]})j", "highlight 'tensor.cell.1' is malformed"},
      {R"j({"title": "S", "text": "x", "view": {"panels": ["tensor", "lessons"]}})j",
       "bad.json: step 2 (\"S\"): 'view.panels': no panel 'lessons'"},
      {R"j({"title": "S", "text": "x", "view": {"panels": []}})j", "'view.panels' must be a non-empty list of panel ids"},
      {R"j({"title": "S", "text": "x", "view": {"panel": ["tensor"]}})j",
       "unknown key 'view.panel' (known: panels, focus, cells, solver_step)"},
      {R"j({"title": "S", "text": "x", "view": {"cells": "banks"}})j",
       "'view.cells': cell numbers 'banks': expected none, bank or offset"},
      {R"j({"title": "S", "text": "x", "view": {"cells": 1}})j", "'view.cells' must be \"none\", \"bank\" or \"offset\", not 1"},
      {R"j({"title": "S", "text": "x", "view": {"solver_step": "4"}})j", "'view.solver_step' must be an integer"},
      {R"j({"title": "S", "text": "x", "view": {"solver_step": 99}})j",
       "'view.solver_step' 99 is outside the construction's steps 1..11 for this problem"},
      {R"j({"title": "S", "text": "x", "view": {"panels": ["tensor"], "focus": "trace"}})j",
       "'view.focus' is 'trace', which 'view.panels' does not show"},
      {R"j({"title": "S", "text": "x", "view": {"panels": ["trace"]}, "highlight": ["tensor.col.0"]})j",
       "highlight 'tensor.col.0' is in panel 'tensor', which this step's view does not show"},
      {R"j({"title": "S", "text": "x", "view": []})j", "'view' must be an object"},
      {R"j({"title": "S", "text": "x", "highlight": ["somewhere"]})j", "unknown highlight 'somewhere'"},
      {R"j({"title": "S", "text": []})j", "'text' is empty"},
      {R"j({"title": "S", "text": "x", "notes": 3})j", "bad.json: step 2 (\"S\"): 'notes' must be a string or a list of strings"},
      {R"j({"title": "S", "text": "x", "notes": ["fine", 4]})j",
       "bad.json: step 2 (\"S\"): 'notes' must be a string or a list of strings"},
      {R"j({"text": "x"})j", "bad.json: step 2: missing 'title'"},
      {R"j({"title": "S", "text": "x", "shared": "Swizzle<3,2,3> o (16,16):(1,16)"})j",
       "covers a 16x16 tensor but the problem's tensor is 16x32"},
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
    if (v.is_null())
      j.erase(key);
    else
      j[key] = v;
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
