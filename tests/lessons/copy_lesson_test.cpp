// The cp.async lesson (assets/lessons/cp-async.json) and the claim quantities it rests on
// (core/src/teach/lesson_copy_facts.cpp): the strided warp is the rule of serve_async_copy
// (core/src/sim/warp_access.cpp, exact on every .ca copy measured on an H100 and an H200,
// tests/data/hardware), and the worked example's counts are what `swizzle audit` prices from the
// tf32 matmul's own pointer arithmetic (tests/data/ttgir), before and after `--fix`.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "swz/error.h"
#include "swz/kernel/audit.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_predict.h"

namespace swz {
namespace {

const std::filesystem::path kCopyLessonDir = SWZ_LESSONS_DIR;

Lesson copy_lesson() { return load_lesson_file(kCopyLessonDir / "cp-async.json"); }

const LessonStep& copy_step(const Lesson& lesson, const std::string& title) {
  for (const LessonStep& s : lesson.steps)
    if (s.title == title) return s;
  throw Error("cp-async has no step '" + title + "'");
}

nlohmann::json copy_measure(const std::string& quantity, const LessonStep& step) {
  const Problem p = problem_for_step(step);
  return measure(quantity, p, analyze(p), step.step);
}

std::string copy_kernel_text(const std::string& name) {
  std::ifstream in(std::string(SWZ_TEST_DATA_DIR) + "/ttgir/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The B tile's cp.async lines of an audited kernel (LDGSTS.32: the A tile's copies are 16 bytes).
std::vector<AuditAccess> b_tile_copies(const AuditReport& r) {
  std::vector<AuditAccess> out;
  for (const AuditAccess& a : r.accesses)
    if (a.op == "ttg.async_copy_global_to_local" && a.instruction == "LDGSTS.32") out.push_back(a);
  return out;
}

// Worked by hand with the rule: lane i reads source bank (SOURCE*i/4) mod 32 and writes shared bank i
// (4-byte copies). A shared bank's one write waits behind the other lanes of its source bank.
TEST(CopyFacts, AStridedWarpIsPricedByTheCpAsyncRule) {
  const Lesson l = copy_lesson();
  const LessonStep& s = l.steps.front();
  EXPECT_EQ(copy_measure("cp_async(4,4,4).wavefronts", s), 1);   // a run: one lane per source bank
  EXPECT_EQ(copy_measure("cp_async(4,16,4).wavefronts", s), 4);  // banks 0, 4, ..., 28: 1 + 3 waiting
  EXPECT_EQ(copy_measure("cp_async(4,16,4).source_banks", s), 8);
  EXPECT_EQ(copy_measure("cp_async(4,64,4).wavefronts", s), 16);     // two source banks: 1 + 15
  EXPECT_EQ(copy_measure("cp_async(4,128,4).wavefronts", s), 32);    // one source bank: 1 + 31
  EXPECT_EQ(copy_measure("cp_async(4,132,4).wavefronts", s), 1);     // a word further each row: every bank
  EXPECT_EQ(copy_measure("cp_async(4,4,128).wavefronts", s), 32);    // the store's own conflict
  EXPECT_EQ(copy_measure("cp_async(4,128,128).wavefronts", s), 32);  // bank 0's lanes are source 0's: no wait
  EXPECT_EQ(copy_measure("cp_async(4,128,128).shared_banks", s), 1);
  EXPECT_EQ(copy_measure("cp_async(8,8,8).instruction", s), "LDGSTS.64");
  EXPECT_EQ(copy_measure("cp_async(16,16,16).wavefronts", s), 4);  // quarter-warps, one wavefront each
  EXPECT_EQ(copy_measure("cp_async(16,16,16).ideal_wavefronts", s), 4);
  EXPECT_EQ(copy_measure("cp_async(16,16,16).modelled", s), true);
}

// 16-byte copies around L1, as Triton issues them (no src-size operand), by rule 5: the H200 measured 4
// for a warp's contiguous copy and 32 from sources 128 bytes apart (h200-sm90-ldgsts-20261128.jsonl
// cases 126 and 128).
TEST(CopyFacts, CgCopiesGoByTheSectorsTheyRead) {
  const Lesson l = copy_lesson();
  const LessonStep& s = l.steps.front();
  EXPECT_EQ(copy_measure("cp_async_cg(16,16).modelled", s), true);
  EXPECT_EQ(copy_measure("cp_async_cg(16,16).instruction", s), "LDGSTS.BYPASS.128.NOZFILL");
  EXPECT_EQ(copy_measure("cp_async_cg(16,16).wavefronts", s), 4);
  EXPECT_EQ(copy_measure("cp_async_cg(128,16).wavefronts", s), 32);
}

TEST(CopyFacts, BadCopiesAreRefusedNamingTheQuantity) {
  const Lesson l = copy_lesson();
  const LessonStep& s = l.steps.front();
  auto message = [&](const std::string& q) {
    try {
      (void)copy_measure(q, s);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("cp_async(3,4,4).wavefronts"),
            "quantity 'cp_async(3,4,4).wavefronts': a cp.async copies 4, 8 or 16 bytes a lane, not 3");
  EXPECT_EQ(message("cp_async(4,4).wavefronts"),
            "quantity 'cp_async(4,4).wavefronts': cp_async takes (BYTES, SOURCE_STRIDE, SHARED_STRIDE)");
  EXPECT_EQ(message("cp_async(16,8,16).wavefronts"),
            "quantity 'cp_async(16,8,16).wavefronts': lane 1: global address 8 is not aligned to the 16-byte copy of LDGSTS.128");
  EXPECT_EQ(
      message("cp_async(4,4,4).happiness"),
      "quantity 'cp_async(4,4,4).happiness': a copy is followed by .wavefronts, .ideal_wavefronts, .instruction, .modelled, "
      ".source_banks or .shared_banks");
  EXPECT_EQ(message("cp_async(4,2000000,4).wavefronts"),
            "quantity 'cp_async(4,2000000,4).wavefronts': the source stride 2000000 is past the 1048576 bytes a claim may use");
  EXPECT_EQ(message("cp_async.rows(64).wavefronts"),
            "quantity 'cp_async.rows(64).wavefronts': rows of 256 bytes do not fit a pitch of 64");
  EXPECT_EQ(message("cp_async.rows(8192)"),
            "quantity 'cp_async.rows(8192)': cp_async.rows(PITCH) is followed by one field, e.g. .wavefronts");
}

// The worked example: each step's count is the one swizzle audit gives the kernel it shows.
TEST(CopyLesson, TheWorkedExampleIsWhatTheAuditPrices) {
  const Lesson l = copy_lesson();
  const auto walk_k = b_tile_copies(audit_module(copy_kernel_text("matmul_tf32_lanes_walk_k.ttgir"), "walk_k.ttgir"));
  ASSERT_FALSE(walk_k.empty());
  const LessonStep& walking = copy_step(l, "A tf32 matmul whose lanes walk K");
  // The step shows one warp's copy: the audit's worst, the warp that copies live (warps 1-3 hold copies
  // of its rows and are predicated off, so the line's mean over the 4 warps is a quarter of it).
  for (const AuditAccess& a : walk_k) {
    EXPECT_EQ(copy_measure("cp_async.rows(8192).wavefronts", walking).get<double>(), *a.worst_wavefronts) << a.line;
    EXPECT_EQ(*a.wavefronts * 4, *a.worst_wavefronts) << a.line;
    EXPECT_EQ(copy_measure("cp_async.rows(8192).instruction", walking), a.instruction) << a.line;
  }
  const std::string triton_text = copy_kernel_text("triton36/matmul_tf32.ttgir");
  const AuditReport triton = audit_module(triton_text, "matmul_tf32.ttgir");
  const auto as_triton = b_tile_copies(triton);
  ASSERT_FALSE(as_triton.empty());
  const LessonStep& triton_step = copy_step(l, "Lanes along N, as Triton laid them");
  for (const AuditAccess& a : as_triton)
    EXPECT_EQ(copy_measure("cp_async.rows(8192).wavefronts", triton_step).get<double>(), *a.wavefronts) << a.line;
  // The fix step shows the layout --fix writes, and its count is the audit's of the fixed kernel.
  const std::string fixed_text = fix_module(triton_text, triton);
  const LessonStep& fix_step = copy_step(l, "The fix: swizzle audit --fix");
  ASSERT_TRUE(fix_step.problem.writer.has_value());
  const std::string fixed_layout =
      "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>";
  EXPECT_NE(fixed_text.find("#blocked1 = " + fixed_layout), std::string::npos) << "--fix no longer writes the step's layout";
  const auto fixed = b_tile_copies(audit_module(fixed_text, "fixed.ttgir"));
  ASSERT_FALSE(fixed.empty());
  for (const AuditAccess& a : fixed)
    EXPECT_EQ(copy_measure("cp_async.rows(8192).wavefronts", fix_step).get<double>(), *a.wavefronts) << a.line;
}

// Practice that counts: the student types the copy's wavefronts and the core checks them.
TEST(CopyLesson, ThePredictionIsTheRulesCount) {
  const Lesson l = copy_lesson();
  const LessonStep& s = copy_step(l, "Predict the count");
  ASSERT_TRUE(s.predict.has_value());
  EXPECT_EQ(s.predict->quantity, "cp_async(4,16,4).wavefronts");
  EXPECT_TRUE(check_prediction(s, "4").correct);
  EXPECT_FALSE(check_prediction(s, "8").correct);
  EXPECT_EQ(check_prediction(s, "8").expected, 4);
}

}  // namespace
}  // namespace swz
