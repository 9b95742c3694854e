// Triton attributes -> linear layouts on small cases checked by hand.
#include <gtest/gtest.h>

#include "swz/error.h"
#include "swz/kernel/ttgir.h"
#include "test_support.h"

namespace {

using Bases = std::vector<std::vector<std::int64_t>>;

Bases bases(const swz::LinearLayout& l, const char* in) { return swz::test::bases_of(l, in); }

using swz::test::error_of;

TEST(TtgirAttr, BlockedOneWarpRowMajor) {
  // 2 registers along n, 8 lanes along n, 4 along m: 4x16 per warp; a 8x16 tensor repeats registers along m.
  const auto l = swz::ttgir::convert(
      "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>", {8, 16}, 32);
  EXPECT_EQ(bases(l.linear, "register"), (Bases{{0, 1}, {4, 0}}));
  EXPECT_EQ(bases(l.linear, "lane"), (Bases{{0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}}));
  EXPECT_TRUE(l.linear.bases("warp").empty());
}

TEST(TtgirAttr, BlockedLargerThanTheTensorBroadcasts) {
  // 32 lanes along n cover 32 columns; a 4x8 tensor keeps lanes 1, 2, 4 and broadcasts lanes 8, 16.
  const auto l = swz::ttgir::convert(
      "#triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>", {4, 8},
      32);
  EXPECT_EQ(bases(l.linear, "lane"), (Bases{{0, 1}, {0, 2}, {0, 4}, {0, 0}, {0, 0}}));
  EXPECT_EQ(bases(l.linear, "warp"), (Bases{{1, 0}, {2, 0}}));
}

TEST(TtgirAttr, SliceDropsADimAndItsRegisters) {
  // Parent: registers (0,1),(4,0) over 8x16; slicing dim 1 keeps the m parts: lanes 8, 16 -> m1, m2.
  const auto l = swz::ttgir::convert(
      "#ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order "
      "= [1, 0]}>}>",
      {8}, 32);
  EXPECT_EQ(bases(l.linear, "register"), (Bases{{4}}));
  EXPECT_EQ(bases(l.linear, "lane"), (Bases{{0}, {0}, {0}, {1}, {2}}));
}

TEST(TtgirAttr, MmaV2AccumulatorFragment) {
  // mma.sync m16n8 C: thread t holds (t/4, 2(t%4)) and its neighbour, and 8 rows below.
  const auto l = swz::ttgir::convert(
      "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>", {16, 8}, 32);
  EXPECT_EQ(bases(l.linear, "register"), (Bases{{0, 1}, {8, 0}}));
  EXPECT_EQ(bases(l.linear, "lane"), (Bases{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}));
}

TEST(TtgirAttr, MmaV3WarpsGoDownM) {
  const auto l = swz::ttgir::convert(
      "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>", {64, 32}, 16);
  EXPECT_EQ(bases(l.linear, "register"), (Bases{{0, 1}, {8, 0}, {0, 8}, {0, 16}}));
  EXPECT_EQ(bases(l.linear, "warp"), (Bases{{16, 0}, {32, 0}}));
}

TEST(TtgirAttr, DotOperandAOfMmaV2) {
  // A fragment of m16n8k16: a0 (row, 2c), a1 row+8, a2 col+8.
  const auto l = swz::ttgir::convert(
      "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>", {16, 16}, 16,
      {{"mma", "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>"}});
  EXPECT_EQ(bases(l.linear, "register"), (Bases{{0, 1}, {8, 0}, {0, 8}}));
  EXPECT_EQ(bases(l.linear, "lane"), (Bases{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}));
}

TEST(TtgirAttr, SwizzledSharedXorsRowsIntoColumns) {
  // vec 2, perPhase 1, maxPhase 4 on 8x8: row r XORs 2*(r % 4) into the column.
  const auto l = swz::ttgir::convert("#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>", {8, 8}, 32);
  EXPECT_EQ(bases(l.linear, "offset"), (Bases{{0, 1}, {0, 2}, {0, 4}, {1, 2}, {2, 4}, {4, 0}}));
  ASSERT_TRUE(l.shared);
  EXPECT_EQ(l.shared->offset(l.shared->coords().flatten({3, 0})), 3u * 8 + 6);  // 2*(3%4) = 6
}

TEST(TtgirAttr, NvmmaShared128ByteIsTmaSwizzle) {
  // fp16, 128 B rows: 64 columns, row r XORs 16-byte chunk r % 8 (8 elements).
  const auto l = swz::ttgir::convert("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
                                     {16, 64}, 16);
  EXPECT_EQ(bases(l.linear, "offset"),
            (Bases{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 8}, {2, 16}, {4, 32}, {8, 0}}));
}

TEST(TtgirAttr, NvmmaSharedWiderThanOneSwizzleRowStacksBlocks) {
  // 128 columns of fp16 are two 64-column blocks, each all rows deep.
  const auto l = swz::ttgir::convert("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
                                     {16, 128}, 16);
  const auto b = bases(l.linear, "offset");
  ASSERT_EQ(b.size(), 11u);
  EXPECT_EQ(b[9], (std::vector<std::int64_t>{8, 0}));
  EXPECT_EQ(b[10], (std::vector<std::int64_t>{0, 64}));
}

TEST(TtgirAttr, OlderSharedWithLeadingOffsetIsTheMmaV3Layout) {
  const auto old_form = swz::ttgir::convert(
      "#triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], hasLeadingOffset = true}>", {16, 64}, 16);
  const auto nvmma = swz::ttgir::convert(
      "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", {16, 64}, 16);
  EXPECT_EQ(old_form.linear, nvmma.linear);
  const auto plain = swz::ttgir::convert(
      "#triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], hasLeadingOffset = false}>", {16, 64}, 16);
  EXPECT_EQ(bases(plain.linear, "offset")[6], (std::vector<std::int64_t>{1, 8}));  // swizzled_shared: row 1 XORs vec 8
}

TEST(TtgirAttr, PaddedSharedAddsPadding) {
  // [8:+1] on an 8x8 row-major tile: row stride 9.
  const auto l = swz::ttgir::convert("#ttg.padded_shared<[8:+1] {order = [1, 0], shape = [8, 8]}>", {8, 8}, 32);
  ASSERT_TRUE(l.shared);
  EXPECT_FALSE(l.shared->is_linear());
  EXPECT_EQ(l.shared->offset(l.shared->coords().flatten({2, 3})), 2u * 9 + 3);
  const auto with_bases =
      swz::ttgir::convert("#ttg.padded_shared<[4:+2] {offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = []}>", {4, 4}, 32);
  EXPECT_EQ(with_bases.shared->offset(with_bases.shared->coords().flatten({3, 3})), 15u + 3 * 2);
}

TEST(TtgirAttr, CgaFieldsGiveBlockBases) {
  const char* old_form =
      "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0], CTAsPerCGA = [2, 1], "
      "CTASplitNum = [2, 1], CTAOrder = [1, 0]}>";
  EXPECT_EQ(bases(swz::ttgir::convert(old_form, {8, 8}, 32).linear, "block"), (Bases{{4, 0}}));
  const char* new_form =
      "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0], CGALayout = [[4, "
      "0]]}>";
  EXPECT_EQ(bases(swz::ttgir::convert(new_form, {8, 8}, 32).linear, "block"), (Bases{{4, 0}}));
  // Not split: both CTAs hold the same data (a zero block basis).
  const char* broadcast =
      "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0], CTAsPerCGA = [2, 1], "
      "CTASplitNum = [1, 1], CTAOrder = [1, 0]}>";
  EXPECT_EQ(bases(swz::ttgir::convert(broadcast, {8, 8}, 32).linear, "block"), (Bases{{0, 0}}));
}

TEST(TtgirAttr, TypesGiveShapeElementAndEncoding) {
  const auto t = swz::ttgir::parse_type("!ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>");
  EXPECT_EQ(t.kind, swz::ttgir::Type::Kind::MemDesc);
  EXPECT_EQ(t.shape, (std::vector<std::int64_t>{3, 128, 64}));
  EXPECT_EQ(t.element_bits, 16);
  EXPECT_TRUE(t.is_mutable);
  ASSERT_TRUE(t.encoding);
  EXPECT_EQ(t.encoding->text, "shared");
  const auto p = swz::ttgir::parse_type("tensor<64x1x!tt.ptr<f16>, #blocked>");
  EXPECT_EQ(p.shape, (std::vector<std::int64_t>{64, 1}));
  EXPECT_EQ(p.element_bits, 64);
  EXPECT_EQ(swz::ttgir::parse_type("tensor<64xf8E4M3FN, #ttg.slice<{dim = 1, parent = #blocked}>>").element_bits, 8);
}

TEST(TtgirAttr, BadInputNamesTheProblem) {
  EXPECT_NE(error_of([] {
              swz::ttgir::convert("#ttg.blocked<{sizePerThread = [1, 1}>", {4, 4}, 32);
            }).find("expected"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              swz::ttgir::convert("#ttng.tensor_memory_encoding<{blockM = 128, blockN = 64}>", {128, 64}, 32);
            }).find("not modelled"),
            std::string::npos);
  EXPECT_NE(error_of([] { swz::ttgir::convert("#blocked", {4, 4}, 32); }).find("#blocked is not defined"), std::string::npos);
  EXPECT_NE(error_of([] {
              swz::ttgir::convert("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
                                  {4, 4}, 32);
            }).find("rank"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              swz::ttgir::convert("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", {3, 4}, 32);
            }).find("power of two"),
            std::string::npos);
}

}  // namespace
