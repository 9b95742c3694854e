// The audit's global side read from the kernel's pointer arithmetic (core/src/kernel/audit_global.h):
// the cp.async of a tf32 matmul whose B copy was edited so that lanes walk K, and the bad inputs.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "swz/kernel/audit.h"

namespace {

std::string kernel_text(const std::string& name) {
  std::ifstream in(std::string(SWZ_TEST_DATA_DIR) + "/ttgir/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::vector<swz::AuditAccess> copies(const swz::AuditReport& r) {
  std::vector<swz::AuditAccess> out;
  for (const auto& a : r.accesses)
    if (a.op == "ttg.async_copy_global_to_local") out.push_back(a);
  return out;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The one copy of tests/data/ttgir/copy_pointers.ttgir with `from` edited to `to`.
swz::AuditAccess the_copy(const std::string& from, const std::string& to) {
  const auto c = copies(swz::audit_module(replaced(kernel_text("copy_pointers.ttgir"), from, to), "copy_pointers.ttgir"));
  EXPECT_EQ(c.size(), 1u);
  return c.empty() ? swz::AuditAccess{} : c.front();
}

// Measured on an H200 (Triton 3.6, sm_90, 2026-11-29; tests/data/triton/copies/h200-20261129-lanes-walk-k):
// with #blocked1 at threadsPerWarp = [32, 1], order = [0, 1] each live LDGSTS of the B tile takes 32
// wavefronts. The lanes read one column of 32 rows %N elements apart; %N is a multiple of 16
// (tt.divisibility), so its pitch is taken as a multiple of 128 bytes: every lane's source in one bank,
// read in 32 turns. Its 32 lanes cover the tile's 32 rows, so warps 1-3 hold copies and are predicated
// off (@!P0 in the SASS; per instruction 4 executions, 32 threads predicated on, 32 wavefronts): 8 per
// LDGSTS executed.
TEST(AuditGlobal, LanesWalkingKArePricedAtTheMeasured32WavefrontsInTheLiveWarp) {
  const auto r = swz::audit_module(kernel_text("matmul_tf32_lanes_walk_k.ttgir"), "matmul_tf32_lanes_walk_k.ttgir");
  int b_copies = 0;
  for (const auto& a : copies(r)) {
    if (!has(a.distributed_layout, "threadsPerWarp = [32, 1]")) continue;
    ++b_copies;
    EXPECT_EQ(a.instruction, "LDGSTS.32");
    EXPECT_EQ(a.worst_wavefronts, 32) << a.note;
    EXPECT_EQ(a.wavefronts, 8.0) << a.note;
    EXPECT_TRUE(has(a.note, "1 of 4 warps x 32 of 32 lanes live")) << a.note;
    EXPECT_TRUE(has(a.note, "global side from the kernel's pointers")) << a.note;
    EXPECT_TRUE(has(a.note, "%N taken as")) << a.note;
    // The range over the pitches tt.divisibility = 16 allows: a 64-byte pitch puts the lanes in two banks.
    EXPECT_TRUE(has(a.note, "best 4.00")) << a.note;
    EXPECT_TRUE(has(a.note, "typical 8.00, worst 8.00")) << a.note;
  }
  EXPECT_EQ(b_copies, 3);  // the prologue's two stages and the loop's copy
}

// A copy whose every lane and warp holds elements of its own issues it live everywhere: no such note.
TEST(AuditGlobal, CopiesWithoutDuplicatesAreLiveInEveryWarp) {
  const auto r = swz::audit_module(kernel_text("triton36/matmul_tf32.ttgir"), "matmul_tf32.ttgir");
  for (const auto& a : copies(r)) EXPECT_FALSE(has(a.note, "predicated off (a warp")) << a.note;
}

// The unedited kernel's copies keep the prices they had when the global side was placed from the
// register layout's order, and now say that they rest on the kernel's own pointers.
TEST(AuditGlobal, TheUneditedKernelKeepsItsCopyPrices) {
  const auto r = swz::audit_module(kernel_text("triton36/matmul_tf32.ttgir"), "matmul_tf32.ttgir");
  const auto c = copies(r);
  ASSERT_EQ(c.size(), 6u);
  for (const auto& a : c) {
    EXPECT_TRUE(has(a.note, "global side from the kernel's pointers")) << a.note;
    if (a.instruction == "LDGSTS.32") {
      EXPECT_EQ(a.wavefronts, 10.0) << a.note;
      // H100, 64x64x32: 8,388,608 sectors for 557,056 .ca requests (tests/data/triton/fixes/h100-20261126/tf32_variants.json).
      EXPECT_TRUE(has(a.note, "16.0 sectors per request")) << a.note;
    } else {
      EXPECT_EQ(a.instruction, "LDGSTS.128");
      EXPECT_EQ(a.wavefronts, 4.0);
    }
  }
}

// A tt.load that a local_alloc writes: 8 lanes of 4 bytes (2 fp16) cover each 32-byte row of the 16x16
// tile, 4 rows a warp: 4 sectors per request, the least 128 bytes can take.
TEST(AuditGlobal, ALoadIntoSharedMemorySaysItsSectorsPerRequest) {
  const auto r = swz::audit_module(kernel_text("triton36/dot_16x16_fp16.ttgir"), "dot_16x16_fp16.ttgir");
  int loads = 0;
  for (const auto& a : r.accesses)
    if (a.op == "ttg.local_alloc" && (a.line == 24 || a.line == 30)) {
      ++loads;
      EXPECT_TRUE(has(a.note, "sectors per request of 4 bytes a lane (ideal 4)")) << a.note;
      EXPECT_EQ(a.note.rfind("global side (tt.load of %", 0), 0u) << a.note;
      EXPECT_TRUE(has(a.note, "): 4.0 sectors")) << a.note;
    }
  EXPECT_EQ(loads, 2);
}

// The local_load whose tensor a tt.store writes: a warp's 32 lanes store one 128-byte row, 4 sectors.
TEST(AuditGlobal, AStoreFromSharedMemorySaysItsSectorsPerRequest) {
  const auto r = swz::audit_module(kernel_text("copy_pointers.ttgir"), "copy_pointers.ttgir");
  int loads = 0;
  for (const auto& a : r.accesses)
    if (a.op == "ttg.local_load") {
      ++loads;
      EXPECT_EQ(a.note,
                "global side (tt.store to %p): 4.0 sectors per request of 4 bytes a lane (ideal 4); %pitch taken as 128 (a "
                "128-byte pitch)");
    }
  EXPECT_EQ(loads, 1);
}

TEST(AuditGlobal, KnownStridesNeedNoAssumption) {
  const swz::AuditAccess a = the_copy("%pitches = tt.splat %pitch : i32 -> tensor<4x1xi32, #blocked>",
                                      "%pitches = arith.constant dense<256> : tensor<4x1xi32, #blocked>");
  EXPECT_EQ(a.wavefronts, 1.0) << a.note;
  EXPECT_TRUE(has(a.note, "global side from the kernel's pointers (%p): 4.0 sectors per request")) << a.note;
  EXPECT_FALSE(has(a.note, "taken as")) << a.note;
}

TEST(AuditGlobal, APitchOfPartOfAnElementIsSaid) {
  const swz::AuditAccess a = the_copy("%pitches = tt.splat %pitch : i32 -> tensor<4x1xi32, #blocked>",
                                      "%pitches = arith.constant dense<130> : tensor<4x1xi32, #blocked>");
  EXPECT_TRUE(has(a.note, "step 130 bytes along dim 0: not a whole number of 4-byte elements")) << a.note;
  EXPECT_TRUE(has(a.note, "rows taken a multiple of 128 bytes apart")) << a.note;
}

TEST(AuditGlobal, AStrideWithoutDivisibilityIsSaidWithItsRange) {
  const swz::AuditAccess a = the_copy("%pitch: i32 {tt.divisibility = 16 : i32}", "%pitch: i32");
  EXPECT_TRUE(has(a.note, "%pitch has no tt.divisibility: any pitch is possible")) << a.note;
  EXPECT_TRUE(has(a.note, "%pitch taken as 128 (a 128-byte pitch, a multiple of 128)")) << a.note;
  EXPECT_TRUE(has(a.note, "over the pitches the divisibility allows")) << a.note;
}

TEST(AuditGlobal, PointersThatMissPartOfTheTileAreSaid) {
  const swz::AuditAccess a = the_copy("%p8 = tt.addptr %base, %off", "%p8 = tt.addptr %base, %rr");
  EXPECT_TRUE(has(a.note, "the pointers give 4 distinct addresses for the tile's 128 elements: they do not cover it")) << a.note;
  // 32 lanes of a warp read one word: one source bank, 32 turns.
  EXPECT_EQ(a.wavefronts, 32.0) << a.note;
}

TEST(AuditGlobal, ArithmeticNotFollowedFallsBackAndSaysWhere) {
  const swz::AuditAccess a = the_copy("%off = arith.addi %rr, %cc", "%off = arith.remsi %rr, %cc");
  EXPECT_TRUE(has(a.note,
                  "rows taken a multiple of 128 bytes apart along the layout's order[0] (the pointers %p were not "
                  "followed: line 20: arith.remsi (of a value not known per element))"))
      << a.note;
}

}  // namespace
