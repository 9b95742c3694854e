// Every cp.async a pipelined loop issues (core/src/kernel/audit_pipeline.h), on the kernels measured
// on an H200 (tests/data/triton/copies/h200-20261128: Triton 3.6, one CTA, K = 4 x BK): the loop's
// trip count from its bounds, each execution's placement and its predicated-off tail.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kept_copies.h"
#include "swz/error.h"
#include "swz/kernel/audit.h"

namespace {

std::string kept_copy_kernel(const std::string& name) { return swz_test::kept_copies_file("h200-20261128/" + name + ".ttgir"); }
using swz_test::copy_on_line;
using swz_test::mentions;

// tf32 64x64x32, 3 stages, launched with K = 128: the loop runs 4 times and its last 2 issue their
// copies predicated off. The B copy (LDGSTS.32, .ca) costs 10 live and 8 off (a copy that moves no
// data: the store rule without merging), so its line averages 9 per instruction; the measured kernel
// total (3,968 wavefronts over 480 LDGSTS) is this mix.
TEST(AuditPipeline, Tf32TailIssuesItsCopiesPredicatedOff) {
  const swz::AuditReport r =
      swz::audit_module(kept_copy_kernel("matmul_tf32_64x64x32_w4s3"), "matmul_tf32_64x64x32_w4s3.ttgir", "", {{"K", 128}});
  const swz::AuditAccess& loop_b = copy_on_line(r, 125);
  EXPECT_EQ(loop_b.executions, 4);
  EXPECT_EQ(loop_b.wavefronts, 10.0);  // the first run, live
  ASSERT_TRUE(loop_b.issued_wavefronts);
  EXPECT_DOUBLE_EQ(*loop_b.issued_wavefronts, 9.0);
  EXPECT_TRUE(mentions(loop_b.note, "issued 4 times by the scf.for over %acc_63")) << loop_b.note;
  EXPECT_TRUE(mentions(loop_b.note, "2 predicated off at 8.00, 2 live at 10.00")) << loop_b.note;
  EXPECT_TRUE(mentions(loop_b.note, "%K = 128 (given)")) << loop_b.note;
  // The A copy (16 bytes, .cg): 4 either way, as measured.
  const swz::AuditAccess& loop_a = copy_on_line(r, 116);
  ASSERT_TRUE(loop_a.issued_wavefronts);
  EXPECT_DOUBLE_EQ(*loop_a.issued_wavefronts, 4.0);
  EXPECT_TRUE(mentions(loop_a.note, "priced by rule 5 at its pointers")) << loop_a.note;
  // The prologue's copies run once, live (K > 0, K > 32).
  for (int line : {62, 71, 81, 90}) EXPECT_EQ(copy_on_line(r, line).executions, 1) << line;
  uint64_t kernel_wavefronts = 0, kernel_instructions = 0;
  for (const auto& a : r.accesses)
    if (a.op == "ttg.async_copy_global_to_local") {
      kernel_instructions += static_cast<uint64_t>(a.instructions * a.executions);
      kernel_wavefronts += static_cast<uint64_t>(a.issued_wavefronts.value_or(*a.wavefronts) *
                                                 static_cast<double>(a.instructions) * static_cast<double>(a.executions));
    }
  EXPECT_EQ(kernel_instructions, 480u);  // copy_counters.json: ldgsts_instructions
  EXPECT_EQ(kernel_wavefronts, 3968u);   // and ldgsts_wavefronts
}

// A loop bound the caller does not give is assumed, one value per argument for the whole module (the
// pitch the A copy takes for %K), and the line says so.
TEST(AuditPipeline, ARuntimeTripCountIsAssumedAndSaid) {
  const swz::AuditReport r = swz::audit_module(kept_copy_kernel("matmul_tf32_64x64x32_w4s3"), "matmul_tf32_64x64x32_w4s3.ttgir");
  const swz::AuditAccess& loop_b = copy_on_line(r, 125);
  EXPECT_EQ(loop_b.executions, 64);
  EXPECT_TRUE(mentions(loop_b.note, "issued 64 times")) << loop_b.note;
  EXPECT_TRUE(mentions(loop_b.note, "%K taken as 2048")) << loop_b.note;
  EXPECT_TRUE(mentions(copy_on_line(r, 62).note, "%K taken as 2048")) << copy_on_line(r, 62).note;
}

// A stage's K slice keeps its place in its 128-byte line: the int8 tile's second prologue stage moved
// to start 16 bytes into the line straddles its sectors (rule 5, sectors grouped by the rotations and
// reflections it allows: 16 per LDGSTS, the first stage 8). Before, every copy's pointers were moved
// to byte 0 and both stages priced alike.
TEST(AuditPipeline, AStageKeepsItsPlaceInTheLine) {
  std::string text = kept_copy_kernel("matmul_int8_128x128x64_w4s3");
  const std::string stage = "%cst_1 = arith.constant dense<64> : tensor<64xi32";
  ASSERT_NE(text.find(stage), std::string::npos);
  text.replace(text.find(stage), stage.size(), "%cst_1 = arith.constant dense<16> : tensor<64xi32");
  const swz::AuditReport r = swz::audit_module(text, "int8.ttgir", "", {{"K", 256}});
  EXPECT_EQ(copy_on_line(r, 61).wavefronts, 8.0);
  EXPECT_EQ(copy_on_line(r, 70).wavefronts, 16.0);
}

// Triton's masked copy (src-size from a predicate, issued as LDGSTS with a predicate operand) counts
// its ideal or rule 5's sectors, not always rule 5 (H200, 2026-11-29; tests/data/hardware/experiments/
// README.md, int8-a-form to int8-a-check). The int8 kernel's three copy lines give both ends, and its
// per-instruction counters (tests/triton/int8_variants.py 3_256_128_64_4, one CTA, K = 256) sit at
// them: the first prologue stage at the ideal, the second stage and the loop at rule 5.
TEST(AuditPipeline, AMaskedCopyGivesItsIdealAsTheMeasuredLowerEnd) {
  const swz::AuditReport r = swz::audit_module(kept_copy_kernel("matmul_int8_128x128x64_w4s3"), "int8.ttgir", "", {{"K", 256}});
  for (int line : {61, 70, 105}) {
    const swz::AuditAccess& a = copy_on_line(r, line);
    EXPECT_EQ(a.wavefronts, 8.0) << line;
    EXPECT_EQ(a.ideal_wavefronts, 4) << line;
    EXPECT_TRUE(mentions(a.note, "a .cg copy has also measured only its ideal, 4.00 against 8.00 here")) << a.note;
  }
  // A copy whose ideal is its count (the fp16 kernel's 128-byte K slices) says nothing of the kind.
  const swz::AuditReport f = swz::audit_module(kept_copy_kernel("matmul_fp16_128x128x64_w4s3"), "fp16.ttgir", "", {{"K", 256}});
  for (const auto& a : f.accesses)
    if (a.op == "ttg.async_copy_global_to_local") EXPECT_FALSE(mentions(a.note, "measured only its ideal")) << a.note;
  std::ifstream in(std::string(SWZ_TEST_DATA) + "/triton/copies/h200-20261129-int8-variants/per-instruction.json");
  const auto kept = nlohmann::json::parse(in);
  const auto& rows = kept.at("variants").at("3_256_128_64_4").at("ldgsts");
  ASSERT_EQ(rows.size(), 12u);  // 4 copies a warp: stage 0, stage 1, the loop
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double per = rows[i].at("wavefronts").get<double>() / rows[i].at("executions").get<double>();
    EXPECT_EQ(per, i < 4 ? *copy_on_line(r, 61).ideal_wavefronts : *copy_on_line(r, i < 8 ? 70 : 105).wavefronts)
        << rows[i].at("sass").get<std::string>();
  }
}

// Which end a copy takes, against its SASS (README "Every copy a pipelined loop issues"): over the
// 13 kernels' per-instruction counters every LDGSTS whose predicate is P0 counts 4 a warp copy, its
// shared side, and every one counting more has another register or !P0. A sign, not the cause: the
// probe of 04493db counts 4 with P1 (tests/data/hardware/experiments/int8-a-registers-h200-20261129.jsonl).
TEST(AuditPipeline, TritonsCopiesAtTheirIdealHavePredicateP0) {
  int p0 = 0, above = 0;
  auto check = [&](const nlohmann::json& rows, const std::string& kernel) {
    for (const auto& row : rows) {
      const std::string sass = row.at("sass").get<std::string>();
      const double per = row.at("wavefronts").get<double>() / row.at("executions").get<double>();
      const bool is_p0 = sass.find(", P0,") != std::string::npos;
      if (is_p0) {
        ++p0;
        EXPECT_EQ(per, 4.0) << kernel << ": " << sass;
      }
      if (per > 4.0) {
        ++above;
        EXPECT_FALSE(is_p0) << kernel << ": " << sass;
      }
    }
  };
  const std::string copies = std::string(SWZ_TEST_DATA) + "/triton/copies/";
  std::ifstream variants(copies + "h200-20261129-int8-variants/per-instruction.json"),
      k64(copies + "h200-20261129-k64/per-instruction.json");
  const auto int8 = nlohmann::json::parse(variants), tiles = nlohmann::json::parse(k64);
  for (const auto& [name, v] : int8.at("variants").items()) check(v.at("ldgsts"), name);
  for (const auto& [name, rows] : tiles.at("kernels").items()) check(rows, name);
  EXPECT_GE(p0, 40);
  EXPECT_GE(above, 40);
  std::ifstream probe(std::string(SWZ_TEST_DATA) + "/hardware/experiments/int8-a-registers-h200-20261129.jsonl");
  int p1_at_four = 0;
  for (std::string line; std::getline(probe, line);) {
    const auto j = nlohmann::json::parse(line);
    if (j.at("sass").get<std::string>().ends_with(", P1"))
      p1_at_four += j.at("wavefronts").get<int>() == 4 * j.at("instructions").get<int>();
  }
  EXPECT_EQ(p1_at_four, 12);
}

// A .cg copy predicated off (the fp16 128x128x32 kernel at K = 32: its second prologue stage off)
// writes its zeros alone, 4 where rule 5 at its pointers gives 8: what the H200 counted for each of
// its four LDGSTS, as for every prologue copy predicated off in the kept matmuls
// (tests/data/triton/copies/h200-20261129-predicated-off). In the loop (K = 64: its two executions
// off) rule 5 stays the price, 8 as measured there, and the line gives the ideal as the lower end.
TEST(AuditPipeline, APredicatedOffCopyIsPricedAsMeasured) {
  std::ifstream in(std::string(SWZ_TEST_DATA) + "/triton/copies/h200-20261129-k64/matmul_fp16_128x128x32_w4s3.ttgir");
  std::stringstream text;
  text << in.rdbuf();
  const swz::AuditReport r = swz::audit_module(text.str(), "fp16.ttgir", "", {{"K", 32}});
  const swz::AuditAccess& off = copy_on_line(r, 78);
  EXPECT_EQ(off.wavefronts, 8.0);  // its first run's price were it live
  EXPECT_EQ(off.issued_wavefronts, 4.0);
  EXPECT_TRUE(mentions(off.note, "1 predicated off at 4.00")) << off.note;
  EXPECT_TRUE(mentions(off.note, "predicated off in the prologue a .cg copy writes zeros and reads nothing: its shared writes"))
      << off.note;
  std::ifstream kept(std::string(SWZ_TEST_DATA) + "/triton/copies/h200-20261129-predicated-off/per-instruction.json");
  const auto runs = nlohmann::json::parse(kept).at("kernels");
  const auto& measured = runs.at("float16_3_128_128_32_4_32");
  ASSERT_EQ(measured.size(), 24u);      // per warp: A and B of stage 0, of stage 1, of the loop, four each
  for (std::size_t i = 8; i < 12; ++i)  // stage 1's A copies
    EXPECT_EQ(measured[i].at("wavefronts").get<int>(), 4 * measured[i].at("executions").get<int>()) << measured[i].at("sass");
  const swz::AuditReport two = swz::audit_module(text.str(), "fp16.ttgir", "", {{"K", 64}});
  const swz::AuditAccess& loop = copy_on_line(two, 113);
  EXPECT_EQ(loop.issued_wavefronts, 8.0);
  EXPECT_TRUE(mentions(loop.note, "2 predicated off at 8.00")) << loop.note;
  EXPECT_TRUE(mentions(loop.note, "have also measured only their ideal, 4.00 against 8.00 here")) << loop.note;
  const auto& loop_measured = runs.at("float16_3_128_128_32_4_64");
  for (std::size_t i = 16; i < 20; ++i)  // the loop's A copies
    EXPECT_EQ(loop_measured[i].at("wavefronts").get<int>(), 8 * loop_measured[i].at("executions").get<int>())
        << loop_measured[i].at("sass");
}

// An argument the kernel does not have is one line naming it and the ones it has.
TEST(AuditPipeline, AnArgumentTheKernelLacksIsRefused) {
  try {
    (void)swz::audit_module(kept_copy_kernel("matmul_tf32_64x64x32_w4s3"), "tf32.ttgir", "", {{"Q", 3}});
    ADD_FAILURE() << "--arg Q was accepted";
  } catch (const swz::Error& e) {
    EXPECT_TRUE(mentions(e.what(),
                         "tf32.ttgir: --arg Q: the kernel has no integer argument or program id %Q (its integer arguments: "
                         "%K, %M, %N; its program ids: %pid_m, %pid_n)"))
        << e.what();
  }
}

}  // namespace
