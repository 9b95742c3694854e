// AMD layout attributes of Triton 3.6 (amd_mfma, dot_op over amd_mfma, amd_rotating_shared) as
// linear layouts: against the bases Triton's own unit tests expect
// (unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp, quoted per case) and against small
// cases worked by hand.
#include <gtest/gtest.h>

#include <algorithm>

#include "swz/kernel/ttgir.h"
#include "test_support.h"

namespace {

using AmdBases = std::vector<std::vector<std::int64_t>>;

AmdBases amd_bases(const swz::LinearLayout& l, const char* in) { return swz::test::bases_of(l, in); }

// Triton's warp bases list every warp bit, zero where a warp repeats the data; ours may drop them.
AmdBases nonzero(AmdBases b) {
  b.erase(std::remove_if(b.begin(), b.end(),
                         [](const std::vector<std::int64_t>& v) {
                           return std::all_of(v.begin(), v.end(), [](std::int64_t x) { return x == 0; });
                         }),
          b.end());
  return b;
}

swz::ttgir::Layout amd_convert(const std::string& attribute, std::vector<std::int64_t> shape, int bits,
                               const swz::ttgir::Aliases& aliases = {}) {
  return swz::ttgir::convert(attribute, shape, bits, aliases);
}

TEST(AmdLayouts, MfmaTilesPerWarpMatchesTritonUnitTest) {
  // LinearLayoutConversionsTest.MFMA32_2x4Warps_tpw_2_2: mfma(3, {2, 4}, {32, 32, 8}, false, {2, 2}) over 128x128:
  //   register {{1,0},{2,0},{8,0},{16,0},{0,32},{32,0}}, lane {{0,1},{0,2},{0,4},{0,8},{0,16},{4,0}},
  //   warp {{0,64},{0,0},{64,0}}
  const auto l = amd_convert(
      "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [32, 32, 8], isTransposed = false, tilesPerWarp = [2, 2]}>",
      {128, 128}, 32);
  EXPECT_EQ(amd_bases(l.linear, "register"), (AmdBases{{1, 0}, {2, 0}, {8, 0}, {16, 0}, {0, 32}, {32, 0}}));
  EXPECT_EQ(amd_bases(l.linear, "lane"), (AmdBases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}}));
  EXPECT_EQ(nonzero(amd_bases(l.linear, "warp")), (AmdBases{{0, 64}, {64, 0}}));
}

TEST(AmdLayouts, MfmaTransposedSixteenMatchesTritonUnitTest) {
  // LinearLayoutConversionsTest.MFMA16_2x4Warps_tpw_2_2, mfmaT = mfma(3, {2, 4}, {16, 16, 16}, true, {2, 2}) over 128x128:
  //   register {{0,1},{0,2},{0,16},{16,0},{64,0}}, lane {{1,0},{2,0},{4,0},{8,0},{0,4},{0,8}}, warp {{0,32},{0,64},{32,0}}
  const auto l = amd_convert(
      "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [16, 16, 16], isTransposed = true, tilesPerWarp = [2, 2]}>",
      {128, 128}, 32);
  EXPECT_EQ(amd_bases(l.linear, "register"), (AmdBases{{0, 1}, {0, 2}, {0, 16}, {16, 0}, {64, 0}}));
  EXPECT_EQ(amd_bases(l.linear, "lane"), (AmdBases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 4}, {0, 8}}));
  EXPECT_EQ(amd_bases(l.linear, "warp"), (AmdBases{{0, 32}, {0, 64}, {32, 0}}));
}

TEST(AmdLayouts, MfmaDotOperandsMatchTritonUnitTest) {
  const swz::ttgir::Aliases mma{
      {"mma", "#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 8], instrShape = [32, 32, 8], isTransposed = false}>"}};
  // LinearLayoutConversionsTest.MFMA32_warp1onK_lhs_kwidth8, mfmaDotOp(mfma(3, {1, 8}, {32, 32, 8}), 0, 8) over 128x128:
  //   register {{0,1},{0,2},{0,4},{0,16},{0,32},{0,64},{32,0},{64,0}}, lane {{1,0},{2,0},{4,0},{8,0},{16,0},{0,8}}, warp all 0
  const auto a = amd_convert("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>", {128, 128}, 16, mma);
  EXPECT_EQ(amd_bases(a.linear, "register"), (AmdBases{{0, 1}, {0, 2}, {0, 4}, {0, 16}, {0, 32}, {0, 64}, {32, 0}, {64, 0}}));
  EXPECT_EQ(amd_bases(a.linear, "lane"), (AmdBases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 8}}));
  EXPECT_TRUE(nonzero(amd_bases(a.linear, "warp")).empty());
  // ... over 16x16: lane {{1,0},{2,0},{4,0},{8,0},{0,0},{0,8}}: the tile's 32 rows broadcast onto 16.
  const auto small = amd_convert("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>", {16, 16}, 16, mma);
  EXPECT_EQ(amd_bases(small.linear, "register"), (AmdBases{{0, 1}, {0, 2}, {0, 4}}));
  EXPECT_EQ(amd_bases(small.linear, "lane"), (AmdBases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}, {0, 8}}));
  // LinearLayoutConversionsTest.MFMA32_warp1onK_rhs_kwidth8, opIdx 1 over 128x128:
  //   register {{1,0},{2,0},{4,0},{16,0},{32,0},{64,0}}, lane {{0,1},{0,2},{0,4},{0,8},{0,16},{8,0}}, warp {{0,32},{0,64},{0,0}}
  const auto b = amd_convert("#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>", {128, 128}, 16, mma);
  EXPECT_EQ(amd_bases(b.linear, "register"), (AmdBases{{1, 0}, {2, 0}, {4, 0}, {16, 0}, {32, 0}, {64, 0}}));
  EXPECT_EQ(amd_bases(b.linear, "lane"), (AmdBases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {8, 0}}));
  EXPECT_EQ(nonzero(amd_bases(b.linear, "warp")), (AmdBases{{0, 32}, {0, 64}}));
}

TEST(AmdLayouts, MfmaDotOperandTilesPerWarpStayInOneWarp) {
  // By hand, after mfmaDotToLinearLayout(): operand A of mfma 16x16 (v4, warps [2, 1], tilesPerWarp [2, 1]),
  // kWidth 8, over 64x32 (M x K). One tile: 8 registers along K, 16 lanes along M, then 4 lane groups along K
  // (8 x 4 = 32 = K: no K repeat). tilesPerWarp 2 along M: register {16, 0}, so warp 1 starts at row 32 and
  // the last M bit is a register again. Without tilesPerWarp warp 1 would start at row 16.
  const swz::ttgir::Aliases mma{{"mma",
                                 "#ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 1], instrShape = [16, 16, 32], isTransposed = "
                                 "true, tilesPerWarp = [2, 1]}>"}};
  const auto a = amd_convert("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>", {64, 32}, 16, mma);
  EXPECT_EQ(amd_bases(a.linear, "register"), (AmdBases{{0, 1}, {0, 2}, {0, 4}, {16, 0}}));
  EXPECT_EQ(amd_bases(a.linear, "lane"), (AmdBases{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}, {0, 16}}));
  EXPECT_EQ(amd_bases(a.linear, "warp"), (AmdBases{{32, 0}}));
}

TEST(AmdLayouts, RotatingSharedXorsTheBlockIntoThePhase) {
  // vec 4, perPhase 1, maxPhase 4, 16x16: row r XORs vec * ((r % 4) ^ ((r / 4) % 4)) into the column
  // (Triton 3.6, sharedToLinearLayoutAMDRotating: phase = (row / perPhase) % maxPhase,
  // blockNo = row / maxPhase / perPhase % maxPhase, column ^= vec * (phase ^ blockNo)).
  const auto l = amd_convert("#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>", {16, 16}, 32);
  ASSERT_EQ(l.kind, swz::LayoutKind::Shared);
  EXPECT_EQ(amd_bases(l.linear, "offset"), (AmdBases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 4}, {2, 8}, {4, 4}, {8, 8}}));
  ASSERT_TRUE(l.shared);
  auto at = [&](std::int64_t r, std::int64_t c) { return l.shared->offset(l.shared->coords().flatten({r, c})); };
  EXPECT_EQ(at(5, 0), 5u * 16 + 0);      // phase 1, block 1: 1 ^ 1 = 0
  EXPECT_EQ(at(6, 0), 6u * 16 + 12);     // phase 2, block 1: 3, column 0 ^ 12
  EXPECT_EQ(at(12, 5), 12u * 16 + 9);    // phase 0, block 3: 3, column 5 ^ 12 = 9
  EXPECT_EQ(at(15, 15), 15u * 16 + 15);  // phase 3, block 3: 0
  // The plain swizzle of the same parameters keeps rows 4 apart in the same phase: row 4 is not XORed.
  const auto plain = amd_convert("#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>", {16, 16}, 32);
  EXPECT_EQ(plain.shared->offset(plain.shared->coords().flatten({4, 0})), 4u * 16);
  EXPECT_EQ(at(4, 0), 4u * 16 + 4);
}

TEST(AmdLayouts, RotatingSharedColumnMajorAsInAGfx942Matmul) {
  // The B operand of tests/data/ttgir/targets/gfx942/matmul_fp16_128x128x64_w8s2.ttgir: 64x128 f16,
  // order [0, 1] (dim0 = K contiguous), vec 4, perPhase 1, maxPhase 16. Row = dim1 (n), column = dim0 (k):
  // n = 16 has phase 0 and block 1, so it XORs 4 into k; n = 17 XORs (1 ^ 1) * 4 = 0.
  const auto l = amd_convert("#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>", {64, 128}, 16);
  ASSERT_TRUE(l.shared);
  auto at = [&](std::int64_t k, std::int64_t n) { return l.shared->offset(l.shared->coords().flatten({k, n})); };
  EXPECT_EQ(at(0, 16), 16u * 64 + 4);
  EXPECT_EQ(at(0, 17), 17u * 64 + 0);
  EXPECT_EQ(at(3, 1), 1u * 64 + 7);  // phase 1, block 0: k 3 ^ 4
}

TEST(AmdLayouts, RotatingSharedBadParametersSayWhich) {
  try {
    amd_convert("#ttg.amd_rotating_shared<{vec = 0, perPhase = 1, maxPhase = 4, order = [1, 0]}>", {16, 16}, 32);
    FAIL() << "vec 0 accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("amd_rotating_shared"), std::string::npos) << e.what();
  }
}

}  // namespace
