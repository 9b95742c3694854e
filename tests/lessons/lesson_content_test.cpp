// The facts the shipped lessons teach, each checked by the core through a claim of the step
// that says it: a step's text may be reworded, but the claim that backs it must stay and hold.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/bank.h"
#include "swz/teach/lesson.h"

namespace swz {
namespace {

const std::filesystem::path kLessonDir = SWZ_LESSONS_DIR;

Lesson lesson_named(const std::string& name) { return load_lesson_file(kLessonDir / (name + ".json")); }

const LessonStep* step_titled(const Lesson& lesson, const std::string& title) {
  for (const LessonStep& s : lesson.steps)
    if (s.title == title) return &s;
  return nullptr;
}

// The step claims `quantity` = `value`, and the core agrees on the step's own problem.
void expect_backed(const std::string& lesson, const std::string& title, const std::string& quantity,
                   const nlohmann::json& value) {
  const Lesson l = lesson_named(lesson);
  const LessonStep* step = step_titled(l, title);
  ASSERT_NE(step, nullptr) << lesson << " has no step '" << title << "'";
  const auto claim =
      std::find_if(step->claims.begin(), step->claims.end(), [&](const LessonClaim& c) { return c.quantity == quantity; });
  ASSERT_NE(claim, step->claims.end()) << lesson << " '" << title << "' does not claim " << quantity;
  EXPECT_EQ(claim->expected, value) << lesson << " '" << title << "' " << quantity;
  const Problem p = problem_for_step(*step);
  EXPECT_EQ(measure(quantity, p, analyze(p), step->step), value) << lesson << " '" << title << "' " << quantity;
}

TEST(LessonContent, EachTmaModeIsShownOnABoxItAcceptsAndReadsConflictFree) {
  const Lesson l = lesson_named("tma-swizzle");
  std::set<int> shown;
  for (const LessonStep& step : l.steps) {
    const Problem p = problem_for_step(step);
    const ProblemAnalysis a = analyze(p);
    for (int width : {32, 64, 128}) {
      if (!measure(fmt::format("tma({}).matches_layout", width), p, a, 0).get<bool>()) continue;
      shown.insert(width);
      EXPECT_TRUE(measure(fmt::format("tma({}).inner_box_fits", width), p, a, 0).get<bool>()) << step.title;
      EXPECT_EQ(a.read.simulated.wavefronts, a.read.simulated.ideal_wavefronts) << step.title;
    }
    // No step puts a mode's masks on a box wider than the mode allows.
    for (const LessonClaim& c : step.claims) {
      if (c.quantity.rfind("tma(", 0) == 0 && c.quantity.find(".matches_layout") != std::string::npos) {
        EXPECT_TRUE(c.expected.get<bool>()) << step.title;
      }
    }
  }
  EXPECT_EQ(shown, (std::set<int>{32, 64, 128}));
  expect_backed("tma-swizzle", "32B mode on its own box", "tma(32).inner_box_fits", true);
  expect_backed("tma-swizzle", "32B mode on its own box", "read.wavefronts", 4);
  expect_backed("tma-swizzle", "64B mode on its own box", "tma(64).matches_layout", true);
}

TEST(LessonContent, TmaCopyIsNotAWarpsStore) {
  // Where the lesson counts a store's wavefronts on a TMA tile, it says a TMA copy is not that store.
  const Lesson l = lesson_named("tma-swizzle");
  const LessonStep* first = step_titled(l, "Rows of 16-byte chunks");
  ASSERT_NE(first, nullptr);
  std::string text;
  for (const std::string& p : first->paragraphs) text += p + " ";
  EXPECT_NE(text.find("TMA copy is not a warp's STS"), std::string::npos) << text;
}

TEST(LessonContent, TmaNoneModeAsksSixteenByteGlobalAlignment) {
  expect_backed("tma-swizzle", "What the tensor map asks for", "tma(0).global_alignment", 16);
  expect_backed("tma-swizzle", "What the tensor map asks for", "tma(0).name", "CU_TENSOR_MAP_SWIZZLE_NONE");
}

TEST(LessonContent, CuteMZeroKeepsTheBlockInAnotherOrder) {
  // Offsets 32-35 are still one 16-byte block, holding rows 1, 0, 3, 2.
  for (const auto& [row, offset] : {std::pair{0, 33}, {1, 32}, {2, 35}, {3, 34}})
    expect_backed("cute-swizzle", "M=0 breaks the blocks", fmt::format("offset({},4)", row), offset);
}

TEST(LessonContent, CuteSFollowsTheRowsAndCutlassKeepsItWhileBShrinks) {
  expect_backed("cute-swizzle", "Choosing M, B and S", "swizzle(3,3,3).of(64)", 72);  // row bit 0 -> chunk bit 0
  expect_backed("cute-swizzle", "Choosing M, B and S", "tma(128).matches_layout", true);
  expect_backed("cute-swizzle", "CUTLASS's table: B shrinks, S stays", "tma(64).matches_layout", true);
  expect_backed("cute-swizzle", "CUTLASS's table: B shrinks, S stays", "swizzle(2,3,3).of(128)", 144);
  expect_backed("cute-swizzle", "CUTLASS's table: B shrinks, S stays", "swizzle(1,3,3).of(64)", 72);
}

TEST(LessonContent, CuteSwizzleXorsTheBankItDoesNotAddToIt) {
  expect_backed("cute-swizzle", "The same Swizzle<3,2,3> fixes it", "bank(5,1)", 1);   // 5 ^ 4, not 5 + 4
  expect_backed("cute-swizzle", "The same Swizzle<3,2,3> fixes it", "bank(6,3)", 10);  // 6 ^ 12, not 6 + 12
}

TEST(LessonContent, CuteAllocatesTheCosize) {
  expect_backed("cute-swizzle", "In code: composition", "layout.cosize", 64);
  expect_backed("cute-swizzle", "In code: composition", "layout.size", 64);
}

TEST(LessonContent, ToyRowZeroMovesNothing) {
  expect_backed("toy-gpu", "A 4x6 tile: two rows fail", "xor_table(4,6).row(0)", nlohmann::json::array({0, 1, 2, 3, 4, 5}));
  expect_backed("toy-gpu", "A 4x6 tile: two rows fail", "xor_table(4,6).row(1)", nlohmann::json::array({1, 0, 3, 2, 5, 4}));
}

TEST(LessonContent, MmaFragmentThreadHoldsN0AndM3AndStmatrixGathersTheRow) {
  const std::string title = "The same steps, unchanged";
  expect_backed("algebra-wins", title, "store.register_basis", nlohmann::json::array({"n0", "m3", "n4", "n5", "m5"}));
  expect_backed("algebra-wins", title, "store.lane_basis", nlohmann::json::array({"n1", "n2", "m0", "m1", "m2"}));
  expect_backed("algebra-wins", title, "solve.write.instruction", "STSM.x4");
}

// On 16 banks a wavefront moves 64 bytes: the stmatrix.x4 store's 512 bytes cost 8 at best, and
// the bound lets the construction reach it (the lesson once taught an ideal of 4 and a forced fallback).
TEST(LessonContent, AlgebraWinsSixteenBanksIdealIsTheBytesOverAWavefront) {
  const std::string title = "Sixteen banks: the bound decides";
  expect_backed("algebra-wins", title, "wavefront_bytes", 16 * 4);
  expect_backed("algebra-wins", title, "store.bytes_per_instruction", 32 * 4);  // the fragments' STS.32: 32 lanes of 4 bytes
  expect_backed("algebra-wins", title, "read.bytes_per_instruction", 32 * 16);  // LDS.128
  expect_backed("algebra-wins", title, "solve.write.ideal_wavefronts",
                (4 * 8 * 16) / (16 * 4));  // stmatrix.x4: 4 x 8 rows of 16 bytes
  expect_backed("algebra-wins", title, "solve.conflict_free", true);
  expect_backed("algebra-wins", title, "solve.fallback", false);
  expect_backed("algebra-wins", title, "solve.write.wavefronts", 8);
}

// Every ideal a shipped lesson claims is the instruction's bytes over a wavefront's, the fact
// counted on the lanes (bytes_per_instruction) and the bank model's width, not the phases.
TEST(LessonContent, EveryClaimedIdealIsTheBytesOverAWavefront) {
  int checked = 0;
  for (const auto& path : lesson_files(kLessonDir)) {
    const Lesson l = load_lesson_file(path);
    for (const LessonStep& s : l.steps)
      for (const LessonClaim& c : s.claims)
        for (const std::string side : {"store", "read"}) {
          if (c.quantity != side + ".ideal_wavefronts") continue;
          const Problem p = problem_for_step(s);
          const ProblemAnalysis a = analyze(p);
          const auto bytes = measure(side + ".bytes_per_instruction", p, a, s.step).get<std::int64_t>();
          const auto wavefront = measure("wavefront_bytes", p, a, s.step).get<std::int64_t>();
          EXPECT_EQ(c.expected, std::max<std::int64_t>(1, (bytes + wavefront - 1) / wavefront))
              << l.name << " '" << s.title << "'";
          ++checked;
        }
  }
  EXPECT_GT(checked, 3);
}

TEST(LessonContent, AlgebraWinsNarratesTheSolversInstructions) {
  expect_backed("algebra-wins", "The answer is a named swizzle", "solve.write.instruction", "STSM.x4");
  expect_backed("algebra-wins", "The answer is a named swizzle", "solve.read.instruction", "LDS.128");
  expect_backed("algebra-wins", "Eight warps", "solve.write.instruction", "STS.128");
  expect_backed("algebra-wins", "Eight warps", "solve.read.instruction", "LDSM.x4.trans");
}

// The first five lessons are one 90-minute lecture with its quiz (assets/lessons/README.md); cp-async
// and amd-lds, which build on them, make the next session.
TEST(LessonPlan, EveryShippedStepIsPlannedAndTheFirstLectureFitsNinetyMinutes) {
  double total = 0, first_lecture = 0;
  for (const auto& path : lesson_files(kLessonDir)) {
    const Lesson l = load_lesson_file(path);
    for (const LessonStep& s : l.steps) EXPECT_GT(s.minutes, 0.0) << path.filename() << ": " << s.title;
    EXPECT_DOUBLE_EQ(planned_minutes_before(l, 0), 0.0);
    EXPECT_DOUBLE_EQ(planned_minutes_before(l, 1), l.steps[0].minutes);
    total += planned_minutes_before(l, l.steps.size());
    if (l.name != "cp-async" && l.name != "amd-lds") first_lecture += planned_minutes_before(l, l.steps.size());
  }
  EXPECT_GT(first_lecture, 60.0);
  EXPECT_LE(first_lecture, 90.0);
  EXPECT_LE(total - first_lecture, 20.0) << "cp-async and amd-lds are a short second session";
  EXPECT_DOUBLE_EQ(total, 105.5) << "assets/lessons/README.md states the plan's total";
  const nlohmann::json bad = nlohmann::json::parse(
      R"({"format": "swizzle-workbench-lesson", "version": 1, "title": "t",
          "steps": [{"title": "s", "preset": "toy8x8", "text": "a", "minutes": -2}]})");
  try {
    (void)parse_lesson(bad, "t", "t.json");
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'minutes' must be a number of minutes above 0"), std::string::npos) << e.what();
  }
}

// The trace's bars: one phase's distinct words per bank, whose tallest is the "N" of an N-way
// conflict; all phases added would show 16 beside "8-way" for ldmatrix on unswizzled 128-byte rows.
TEST(BankTrace, WorstPhaseBarsShowTheWays) {
  const Problem p = make_preset("tma128_fp16");
  const InstructionResult ir = trace_instruction(p.read, p.shared, p.element_bits, p.bank, /*warp=*/0, /*step=*/0);
  ASSERT_EQ(ir.phase_wavefronts.size(), 4u);
  EXPECT_EQ(ir.wavefronts, 32);
  EXPECT_EQ(*std::max_element(ir.worst_phase_bank_words.begin(), ir.worst_phase_bank_words.end()), 8);
  EXPECT_GT(*std::max_element(ir.bank_words.begin(), ir.bank_words.end()), 8);  // every phase added up
}

TEST(LessonFacts, TmaBoxFitAndLayoutMatchFollowTheTile) {
  const Problem wide = make_preset("tma128_fp16");  // 128-byte rows
  const ProblemAnalysis a = analyze(wide);
  EXPECT_EQ(measure("tma(128).inner_box_fits", wide, a, 0), true);
  EXPECT_EQ(measure("tma(64).inner_box_fits", wide, a, 0), false);
  EXPECT_EQ(measure("tma(32).inner_box_fits", wide, a, 0), false);
  EXPECT_EQ(measure("tma(0).inner_box_fits", wide, a, 0), true);
  EXPECT_EQ(measure("tma(128).matches_layout", wide, a, 0), false);  // unswizzled
  Problem swizzled = wide;
  swizzled.apply_variant("tma-128B");
  EXPECT_EQ(measure("tma(128).matches_layout", swizzled, analyze(swizzled), 0), true);
  swizzled.set_masks({8});  // the old lesson's "32B" on 128-byte rows: not the mode's pattern, and not its box
  EXPECT_EQ(measure("tma(32).matches_layout", swizzled, analyze(swizzled), 0), false);
  Problem narrow = make_preset("tma32_fp16");
  narrow.apply_variant("tma-32B");
  EXPECT_EQ(measure("tma(32).matches_layout", narrow, analyze(narrow), 0), true);
  EXPECT_EQ(measure("tma(0).name", narrow, analyze(narrow), 0), "CU_TENSOR_MAP_SWIZZLE_NONE");
  EXPECT_EQ(measure("tma(0).global_alignment", narrow, analyze(narrow), 0), 16);
  EXPECT_EQ(measure("tma(0).repeat_bytes", narrow, analyze(narrow), 0), nullptr);
  EXPECT_THROW(measure("tma(0).pattern_shift(0x80)", narrow, analyze(narrow), 0), Error);
  EXPECT_THROW(tma_swizzle(0, {8, 8}, 16), Error);
}

TEST(LessonFacts, RegisterAndLaneBasesAndCosize) {
  const Problem p = make_preset("transpose16x32");
  const ProblemAnalysis a = analyze(p);
  EXPECT_EQ(measure("store.register_basis", p, a, 0), nlohmann::json::array({"m0", "m1", "m2", "m3"}));
  EXPECT_EQ(measure("read.lane_basis", p, a, 0), nlohmann::json::array({"m0", "m1", "m2", "m3", "n0"}));
  EXPECT_EQ(measure("layout.size", p, a, 0), 512);
  EXPECT_EQ(measure("layout.cosize", p, a, 0), 512);
  Problem padded = p;
  padded.apply_variant("padded");  // a row of 33: the allocation outgrows the tensor
  EXPECT_GT(measure("layout.cosize", padded, analyze(padded), 0).get<int>(), 512);
}

TEST(LessonFacts, ClaimsOnTheLearnersStateHoldOnlyWhereTrueThere) {
  // swizzle-by-hand's "Three rules" step claims a 1-wavefront read; a learner who goes back to XOR m breaks it.
  const Lesson l = lesson_named("swizzle-by-hand");
  const LessonStep* rules = step_titled(l, "Three rules from the derivation");
  ASSERT_NE(rules, nullptr);
  const LessonStep& last = *rules;
  for (const ClaimCheck& c : check_claims_on(last, last.problem, last.step)) EXPECT_TRUE(c.holds) << c.claim.quantity;
  ProblemSpec changed = last.problem;
  changed.masks.clear();
  changed.shared.reset();
  changed.variant = "xor-m";
  const auto checks = check_claims_on(last, changed, last.step);
  ASSERT_FALSE(checks.empty());
  EXPECT_TRUE(std::any_of(checks.begin(), checks.end(), [](const ClaimCheck& c) { return !c.holds; }));
  for (const ClaimCheck& c : checks) {
    if (c.claim.quantity.find("wavefronts") == std::string::npos && c.claim.quantity.find("verdict") == std::string::npos)
      continue;
    const Problem p = build_problem(changed);
    EXPECT_EQ(c.holds, measure(c.claim.quantity, p, analyze(p), last.step) == c.claim.expected) << c.claim.quantity;
  }
}

}  // namespace
}  // namespace swz
