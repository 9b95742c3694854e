// Factories: distributed layouts against their reference definitions (Triton's
// BlockedEncoding, the PTX ISA fragment tables of mma.sync m16n8k16, ldmatrix row
// addresses) and shared layouts against their address formulas.
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/layout/shared.h"

#include "test_support.h"

namespace {

using swz::BitVec;
using swz::Coords;
using swz::LinearLayout;
using swz::SharedLayout;

using swz::test::error_of;

Coords at(const LinearLayout& l, std::uint64_t reg, std::uint64_t lane, std::uint64_t warp = 0) {
  return l.coords_of(l.apply({{"register", reg}, {"lane", lane}, {"warp", warp}}));
}

// -- blocked -------------------------------------------------------------------

// Triton's BlockedEncoding, written out: a thread's id splits into per-dim coordinates
// fastest dim (order[0]) first; its registers are its sizePerThread block (order
// fastest) followed by the repetitions over the tensor (order fastest); the CTA tile
// wraps around dims smaller than it (broadcast).
struct BlockedRef {
  std::vector<std::int64_t> spt, tpw, wpc, order, shape;
  std::int64_t registers() const {
    std::int64_t n = 1;
    for (std::size_t d = 0; d < shape.size(); ++d) n *= spt[d] * std::max<std::int64_t>(1, shape[d] / (spt[d] * tpw[d] * wpc[d]));
    return n;
  }
  static std::vector<std::int64_t> split(std::int64_t id, const std::vector<std::int64_t>& sizes,
                                         const std::vector<std::int64_t>& order) {
    std::vector<std::int64_t> c(sizes.size());
    for (std::int64_t d : order) {
      c[static_cast<std::size_t>(d)] = id % sizes[static_cast<std::size_t>(d)];
      id /= sizes[static_cast<std::size_t>(d)];
    }
    return c;
  }
  Coords coords(std::int64_t reg, std::int64_t lane, std::int64_t warp) const {
    const std::size_t rank = shape.size();
    std::vector<std::int64_t> reps(rank), tile(rank);
    std::int64_t elems = 1;
    for (std::size_t d = 0; d < rank; ++d) {
      tile[d] = spt[d] * tpw[d] * wpc[d];
      reps[d] = std::max<std::int64_t>(1, shape[d] / tile[d]);
      elems *= spt[d];
    }
    const auto e = split(reg % elems, spt, order);
    const auto r = split(reg / elems, reps, order);
    const auto l = split(lane, tpw, order);
    const auto w = split(warp, wpc, order);
    Coords c(rank);
    for (std::size_t d = 0; d < rank; ++d)
      c[d] = (r[d] * tile[d] + w[d] * spt[d] * tpw[d] + l[d] * spt[d] + e[d]) % shape[d];
    return c;
  }
};

void expect_blocked_matches(const BlockedRef& ref) {
  const LinearLayout l = swz::blocked(ref.spt, ref.tpw, ref.wpc, ref.order, ref.shape);
  std::int64_t lanes = 1, warps = 1;
  for (std::size_t d = 0; d < ref.shape.size(); ++d) {
    lanes *= ref.tpw[d];
    warps *= ref.wpc[d];
  }
  ASSERT_EQ(std::int64_t{1} << l.in_dim_bits("register"), ref.registers());
  ASSERT_EQ(std::int64_t{1} << l.in_dim_bits("lane"), lanes);
  ASSERT_EQ(std::int64_t{1} << l.in_dim_bits("warp"), warps);
  EXPECT_EQ(l.in_dim_bits("block"), 0);
  EXPECT_EQ(l.shape(), ref.shape);
  for (std::int64_t w = 0; w < warps; ++w)
    for (std::int64_t t = 0; t < lanes; ++t)
      for (std::int64_t r = 0; r < ref.registers(); ++r)
        ASSERT_EQ(at(l, static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(t), static_cast<std::uint64_t>(w)),
                  ref.coords(r, t, w))
            << "reg " << r << " lane " << t << " warp " << w;
}

TEST(Blocked, RowMajorVectorTile) {
  // sizePerThread [1,8], threadsPerWarp [4,8], warpsPerCTA [4,1], order [1,0] on 64x64.
  expect_blocked_matches({{1, 8}, {4, 8}, {4, 1}, {1, 0}, {64, 64}});
}

TEST(Blocked, ColumnMajorOrder) {
  expect_blocked_matches({{4, 1}, {8, 4}, {1, 2}, {0, 1}, {64, 32}});
  expect_blocked_matches({{2, 2}, {2, 16}, {2, 2}, {0, 1}, {32, 128}});
}

TEST(Blocked, ThreeDimensions) {
  expect_blocked_matches({{1, 2, 2}, {2, 4, 4}, {2, 1, 2}, {2, 0, 1}, {8, 16, 32}});
  expect_blocked_matches({{2, 1, 1}, {1, 8, 4}, {1, 2, 1}, {0, 2, 1}, {4, 16, 8}});
}

TEST(Blocked, TensorSmallerThanTheCtaTileBroadcasts) {
  // 4 warps x 32 lanes over a 16x16 tile: lanes and warps past the tile repeat it.
  expect_blocked_matches({{1, 4}, {8, 4}, {4, 1}, {1, 0}, {16, 16}});
  const LinearLayout l = swz::blocked({1, 4}, {8, 4}, {4, 1}, {1, 0}, {16, 16});
  EXPECT_EQ(l.bases("warp"), (std::vector<BitVec>{8, 0}));  // warp 1 -> row 8, warp 2 -> row 16 wraps to 0
  // sizePerThread wider than the tensor: the extra register bits broadcast (zero bases).
  expect_blocked_matches({{1, 8}, {32, 1}, {1, 1}, {1, 0}, {32, 4}});
  const LinearLayout wide = swz::blocked({1, 8}, {32, 1}, {1, 1}, {1, 0}, {32, 4});
  EXPECT_EQ(wide.bases("register").back(), 0u);
}

TEST(Blocked, TritonRegisterOrderForSeedStore) {
  // The seed's store as a blocked layout: each thread holds a column, registers walk rows.
  const LinearLayout l = swz::blocked({1, 1}, {1, 32}, {1, 1}, {1, 0}, {16, 32});
  const LinearLayout a = swz::distributed({16, 32}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}});
  EXPECT_EQ(l.bases("register"), a.bases("register"));
  EXPECT_EQ(l.bases("lane"), a.bases("lane"));
}

TEST(Blocked, RandomConfigurationsOfRankOneToThree) {
  std::mt19937_64 rng(31337);
  auto pow2 = [&](int max_log) { return std::int64_t{1} << (rng() % static_cast<std::uint64_t>(max_log + 1)); };
  for (int iter = 0; iter < 300; ++iter) {
    const std::size_t rank = 1 + rng() % 3;
    BlockedRef ref;
    ref.order.resize(rank);
    for (std::size_t d = 0; d < rank; ++d) ref.order[d] = static_cast<std::int64_t>(d);
    std::shuffle(ref.order.begin(), ref.order.end(), rng);
    int lane_log = 5, warp_log = static_cast<int>(rng() % 3);
    for (std::size_t d = 0; d < rank; ++d) {
      ref.spt.push_back(pow2(2));
      const int l = d + 1 == rank ? lane_log : static_cast<int>(rng() % static_cast<std::uint64_t>(lane_log + 1));
      const int w = d + 1 == rank ? warp_log : static_cast<int>(rng() % static_cast<std::uint64_t>(warp_log + 1));
      ref.tpw.push_back(std::int64_t{1} << l);
      ref.wpc.push_back(std::int64_t{1} << w);
      lane_log -= l;
      warp_log -= w;
      ref.shape.push_back(pow2(rank == 1 ? 9 : rank == 2 ? 6 : 4));
    }
    expect_blocked_matches(ref);
    if (HasFatalFailure()) return;
  }
}

TEST(Blocked, RejectsBadParameters) {
  EXPECT_NE(error_of([] { swz::blocked({1, 3}, {4, 8}, {1, 1}, {1, 0}, {16, 16}); }).find("power of two"), std::string::npos);
  EXPECT_NE(error_of([] { swz::blocked({1, 1}, {4, 8}, {1, 1}, {1, 1}, {16, 16}); }).find("permutation"), std::string::npos);
  EXPECT_THROW(swz::blocked({1}, {4, 8}, {1, 1}, {1, 0}, {16, 16}), swz::Error);
  EXPECT_THROW(swz::blocked({1, 1}, {4, 8}, {1, 1}, {1, 0}, {16, 12}), swz::Error);
}

// -- mma.sync m16n8k16 -----------------------------------------------------------

// PTX ISA, "Matrix Fragments for mma.m16n8k16" with .f16/.bf16 A and B, f32/f16 C/D:
// groupID = laneid >> 2, threadID_in_group = laneid % 4.
Coords ptx_a(int lane, int i) {  // a0..a7, 16x16 (row, col)
  const int g = lane >> 2, t = lane % 4;
  const int row = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8;
  const int col = i < 4 ? t * 2 + (i & 1) : t * 2 + (i & 1) + 8;
  return {row, col};
}
Coords ptx_b(int lane, int i) {  // b0..b3, 16x8 (row = k, col = n)
  const int g = lane >> 2, t = lane % 4;
  const int row = i < 2 ? t * 2 + (i & 1) : t * 2 + (i & 1) + 8;
  return {row, g};
}
Coords ptx_c(int lane, int i) {  // c0..c3, 16x8 (row, col)
  const int g = lane >> 2, t = lane % 4;
  const int row = i < 2 ? g : g + 8;
  return {row, t * 2 + (i & 1)};
}

TEST(Mma, FragmentAMatchesPtxTable) {
  const LinearLayout l = swz::mma_m16n8k16(swz::MmaOperand::A, {16, 16});
  ASSERT_EQ(l.in_dim_bits("register"), 3);
  ASSERT_EQ(l.in_dim_bits("lane"), 5);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 8; ++i) ASSERT_EQ(at(l, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(lane)), ptx_a(lane, i));
  EXPECT_TRUE(l.is_invertible());
}

TEST(Mma, FragmentBMatchesPtxTable) {
  const LinearLayout l = swz::mma_m16n8k16(swz::MmaOperand::B, {16, 8});
  ASSERT_EQ(l.in_dim_bits("register"), 2);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) ASSERT_EQ(at(l, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(lane)), ptx_b(lane, i));
  EXPECT_TRUE(l.is_invertible());
}

TEST(Mma, FragmentCMatchesPtxTable) {
  const LinearLayout l = swz::mma_m16n8k16(swz::MmaOperand::C, {16, 8});
  ASSERT_EQ(l.in_dim_bits("register"), 2);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) ASSERT_EQ(at(l, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(lane)), ptx_c(lane, i));
  EXPECT_TRUE(l.is_invertible());
}

TEST(Mma, TilesRepeatOverLargerShapesAndWarps) {
  // C over 64x64 with 2x2 warps: warp bit 0 -> n (dim1), warp bit 1 -> m (dim0).
  const LinearLayout c = swz::mma_m16n8k16(swz::MmaOperand::C, {64, 64}, {2, 2});
  EXPECT_EQ(c.bases("warp"), (std::vector<BitVec>{c.flatten({0, 8}), c.flatten({16, 0})}));
  EXPECT_TRUE(c.is_invertible());
  // Every element once: the fragment of tile (rep) at (lane, i) is ptx_c shifted.
  std::set<BitVec> seen;
  for (std::uint64_t x = 0; x < (std::uint64_t{1} << c.in_bits()); ++x) seen.insert(c.apply_flat(x));
  EXPECT_EQ(seen.size(), 64u * 64u);
  // A broadcasts over the n warps, B over the m warps.
  const LinearLayout a = swz::mma_m16n8k16(swz::MmaOperand::A, {32, 32}, {2, 2});
  EXPECT_EQ(a.bases("warp"), (std::vector<BitVec>{0, a.flatten({16, 0})}));
  const LinearLayout b = swz::mma_m16n8k16(swz::MmaOperand::B, {32, 16}, {2, 2});
  EXPECT_EQ(b.bases("warp"), (std::vector<BitVec>{b.flatten({0, 8}), 0}));
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 8; ++i) {
      // Register bit 3 of A steps k by 16, bit 4 steps m by 16.
      Coords want = ptx_a(lane, i);
      ASSERT_EQ(at(a, static_cast<std::uint64_t>(i) | 8, static_cast<std::uint64_t>(lane)), (Coords{want[0], want[1] + 16}));
      ASSERT_EQ(at(a, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(lane), 2), (Coords{want[0] + 16, want[1]}));
    }
}

TEST(Mma, RejectsTooSmallTiles) {
  EXPECT_THROW(swz::mma_m16n8k16(swz::MmaOperand::A, {16, 8}), swz::Error);
  EXPECT_THROW(swz::mma_m16n8k16(swz::MmaOperand::C, {8, 8}), swz::Error);
  EXPECT_THROW(swz::mma_m16n8k16(swz::MmaOperand::C, {16, 8}, {2, 1}), swz::Error);  // two warps along a 16-row tile
  EXPECT_THROW(swz::mma_m16n8k16(swz::MmaOperand::C, {16, 8, 2}), swz::Error);
}

// -- ldmatrix ------------------------------------------------------------------

TEST(LdMatrix, RowAddressesPerLane) {
  // .x4: lanes 8i..8i+7 give the rows of matrix i; matrices 0..3 = (rows 0-7 | 8-15) x (cols 0-7 | 8-15),
  // matrix 1 below matrix 0 (the mma A operand order).
  const auto x4 = swz::ldmatrix(4, false, {16, 16});
  EXPECT_EQ(x4.matrices, 4);
  EXPECT_FALSE(x4.trans);
  for (int lane = 0; lane < 32; ++lane) {
    const int mat = lane / 8, row = lane % 8;
    for (int e = 0; e < 8; ++e)
      ASSERT_EQ(at(x4.addresses, static_cast<std::uint64_t>(e), static_cast<std::uint64_t>(lane)),
                (Coords{row + 8 * (mat & 1), e + 8 * (mat >> 1)}));
  }
  // .x2: lanes 0-15 address two matrices stacked in rows; .x1: lanes 0-7 one matrix.
  const auto x2 = swz::ldmatrix(2, true, {16, 8});
  EXPECT_TRUE(x2.trans);
  const auto x1 = swz::ldmatrix(1, false, {8, 8});
  for (int lane = 0; lane < 16; ++lane) ASSERT_EQ(at(x2.addresses, 0, static_cast<std::uint64_t>(lane)), (Coords{lane, 0}));
  for (int lane = 0; lane < 8; ++lane) ASSERT_EQ(at(x1.addresses, 0, static_cast<std::uint64_t>(lane)), (Coords{lane, 0}));
  EXPECT_THROW(swz::ldmatrix(3, false, {16, 16}), swz::Error);
  EXPECT_THROW(swz::ldmatrix(4, false, {16, 8}), swz::Error);
}

// -- shared layouts ------------------------------------------------------------

TEST(SharedFactories, RowAndColumnMajor) {
  const SharedLayout r = swz::row_major({4, 8});
  const SharedLayout c = swz::column_major({4, 8});
  for (std::int64_t m = 0; m < 4; ++m)
    for (std::int64_t n = 0; n < 8; ++n) {
      const BitVec f = r.coords().flatten({m, n});
      ASSERT_EQ(r.offset(f), static_cast<std::uint32_t>(m * 8 + n));
      ASSERT_EQ(c.offset(f), static_cast<std::uint32_t>(n * 4 + m));
      ASSERT_EQ(r.coord_at(static_cast<std::uint64_t>(m * 8 + n)), f);
    }
  ASSERT_TRUE(r.is_linear());
  ASSERT_TRUE(c.is_linear());
  // Triton direction: offset bit -> coordinate.
  EXPECT_EQ(r.linear().bases("offset"), (std::vector<BitVec>{4, 8, 16, 1, 2}));
  EXPECT_EQ(c.linear().bases("offset"), (std::vector<BitVec>{1, 2, 4, 8, 16}));
  EXPECT_EQ(r.extent(), 32u);
  EXPECT_EQ(r.elements(), 32);
  EXPECT_FALSE(r.coord_at(32).has_value());
}

TEST(SharedFactories, PaddingIsNotLinear) {
  const SharedLayout p = swz::padded({16, 32}, 1);
  EXPECT_FALSE(p.is_linear());
  EXPECT_NE(p.nonlinear_reason().find("not linear"), std::string::npos);
  EXPECT_EQ(p.extent(), 15u * 33u + 32u);
  for (std::int64_t m = 0; m < 16; ++m)
    for (std::int64_t n = 0; n < 32; ++n) ASSERT_EQ(p.offset(p.coords().flatten({m, n})), static_cast<std::uint32_t>(33 * m + n));
  EXPECT_FALSE(p.coord_at(32).has_value());  // the pad slot
  const std::string msg = error_of([&] { static_cast<void>(p.linear()); });
  EXPECT_NE(msg.find("not linear"), std::string::npos) << msg;
  EXPECT_TRUE(swz::padded({16, 32}, 0).is_linear());
  EXPECT_THROW(swz::padded({16, 32}, -1), swz::Error);
}

TEST(SharedFactories, ToggleGridEveryMaskSetOn4x8) {
  // offset(m, n) = 8m + (n ^ mask(m)), mask(m) = XOR of C_j over set bits j of m.
  for (std::uint32_t c0 = 0; c0 < 8; ++c0)
    for (std::uint32_t c1 = 0; c1 < 8; ++c1) {
      const SharedLayout s = swz::toggle_grid({4, 8}, {c0, c1});
      ASSERT_TRUE(s.is_linear());
      for (std::int64_t m = 0; m < 4; ++m)
        for (std::int64_t n = 0; n < 8; ++n) {
          const std::uint32_t mask = ((m & 1) ? c0 : 0) ^ ((m & 2) ? c1 : 0);
          ASSERT_EQ(s.offset(s.coords().flatten({m, n})), static_cast<std::uint32_t>(8 * m + (static_cast<std::uint32_t>(n) ^ mask)));
        }
      // Matrix view: bank bits -> n_i; segment bit j -> m_j ^ C_j.
      const LinearLayout& l = s.linear();
      ASSERT_EQ(l.bases("offset"), (std::vector<BitVec>{4, 8, 16, 1 | (c0 << 2), 2 | (c1 << 2)}));
    }
}

TEST(SharedFactories, ToggleGridChecks) {
  const std::string wide = error_of([] { swz::toggle_grid({16, 32}, {32}); });
  EXPECT_NE(wide.find("wider than the 32 columns"), std::string::npos) << wide;
  EXPECT_THROW(swz::toggle_grid({16, 32}, {1, 2, 4, 8, 16}), swz::Error);  // 5 masks, 4 row bits
  EXPECT_THROW(swz::toggle_grid({16, 32, 2}, {}), swz::Error);
  EXPECT_EQ(swz::toggle_grid({16, 32}, {}), swz::row_major({16, 32}));
  EXPECT_EQ(swz::toggle_grid({16, 32}, {0, 0}).description(), "row-major");
}

TEST(SharedFactories, FromFunctionRejectsCollisionsAndRecognisesLinearity) {
  const std::string msg = error_of([] {
    swz::SharedLayout::from_function({4, 4}, [](const Coords& c) { return static_cast<std::uint64_t>(c[0] * 4 + (c[1] & 2)); }, "lossy");
  });
  EXPECT_NE(msg.find("same offset"), std::string::npos) << msg;
  // An XOR map that is a permutation is recognised as linear.
  const SharedLayout x = SharedLayout::from_function(
      {4, 4}, [](const Coords& c) { return static_cast<std::uint64_t>(c[0] * 4 + (c[1] ^ c[0])); }, "xor");
  ASSERT_TRUE(x.is_linear());
  EXPECT_EQ(x.linear().bases("offset"), (std::vector<BitVec>{4, 8, 1 | 4, 2 | 8}));
  // A permutation that adds with carries is not.
  const SharedLayout rot = SharedLayout::from_function(
      {4, 4}, [](const Coords& c) { return static_cast<std::uint64_t>(c[0] * 4 + (c[1] + c[0]) % 4); }, "rotate");
  EXPECT_FALSE(rot.is_linear());
  EXPECT_NE(rot.nonlinear_reason().find("not an XOR-linear"), std::string::npos);
}

TEST(SharedFactories, FromLinearChecks) {
  const auto outs = LinearLayout::out_dims_for_shape({4, 4});
  const LinearLayout ok = LinearLayout::from_coordinates({{"offset", {{0, 1}, {0, 2}, {1, 1}, {2, 0}}}}, outs);
  const SharedLayout s = SharedLayout::from_linear(ok, "ok");
  for (BitVec o = 0; o < 16; ++o) ASSERT_EQ(s.offset(ok.apply("offset", o)), o);
  EXPECT_EQ(s.linear(), ok);
  const LinearLayout singular = LinearLayout::from_coordinates({{"offset", {{0, 1}, {0, 2}, {0, 3}, {2, 0}}}}, outs);
  EXPECT_NE(error_of([&] { SharedLayout::from_linear(singular, "s"); }).find("not invertible"), std::string::npos);
  const LinearLayout short_one = LinearLayout::from_coordinates({{"offset", {{0, 1}, {0, 2}, {1, 0}}}}, outs);
  EXPECT_NE(error_of([&] { SharedLayout::from_linear(short_one, "s"); }).find("not invertible"), std::string::npos);
  const LinearLayout wrong_dim = LinearLayout::from_coordinates({{"lane", {{0, 1}, {0, 2}, {1, 0}, {2, 0}}}}, outs);
  EXPECT_THROW(SharedLayout::from_linear(wrong_dim, "s"), swz::Error);
}

TEST(SharedFactories, AddressFunctionOfARandomLinearLayoutIsRecognised) {
  // offset -> coords L, its table, and the table read back as a function: the same L.
  std::mt19937_64 rng(5);
  const auto outs = LinearLayout::out_dims_for_shape({8, 16});
  for (int iter = 0; iter < 200; ++iter) {
    swz::Subspace taken(7);
    std::vector<BitVec> cols;
    while (cols.size() < 7) {
      const BitVec v = rng() & 0x7F;
      if (v != 0 && taken.insert(v)) cols.push_back(v);
    }
    const LinearLayout l({swz::InDim{"offset", cols}}, outs);
    const SharedLayout a = SharedLayout::from_linear(l, "a");
    for (BitVec o = 0; o < 128; ++o) ASSERT_EQ(a.offset(l.apply("offset", o)), o);
    const SharedLayout b = SharedLayout::from_function({8, 16}, [&](const Coords& c) { return std::uint64_t{a.offset(a.coords().flatten(c))}; }, "b");
    ASSERT_TRUE(b.is_linear());
    ASSERT_EQ(b.linear().bases("offset"), cols);
    ASSERT_EQ(a, b);
  }
}

TEST(SharedFactories, FitLinear) {
  EXPECT_EQ(swz::fit_linear({0, 3, 5, 6}, 2), (std::vector<BitVec>{3, 5}));
  EXPECT_FALSE(swz::fit_linear({0, 1, 2, 4}, 2).has_value());
  EXPECT_FALSE(swz::fit_linear({1, 0, 3, 2}, 2).has_value());  // affine, not linear
  EXPECT_FALSE(swz::fit_linear({}, 0).has_value());
}

// -- CuTe swizzles ------------------------------------------------------------

TEST(CuteSwizzle, BitFormula) {
  // Swizzle<3,2,3>: bits 5..7 fold into bits 2..4. The tutorial's worked example: 32 -> 36.
  EXPECT_EQ(swz::cute_swizzle_apply(3, 2, 3, 32), 36u);
  for (std::uint64_t o = 0; o < 4096; ++o) {
    const std::uint64_t yyy = 0b111u << 5;
    ASSERT_EQ(swz::cute_swizzle_apply(3, 2, 3, o), o ^ ((o & yyy) >> 3));
    // An involution, and the identity on the M low bits.
    ASSERT_EQ(swz::cute_swizzle_apply(3, 2, 3, swz::cute_swizzle_apply(3, 2, 3, o)), o);
    ASSERT_EQ(swz::cute_swizzle_apply(3, 2, 3, o) & 3u, o & 3u);
    // S < 0 shifts left: Swizzle<2,1,-3> folds bits 1..2 into bits 4..5.
    ASSERT_EQ(swz::cute_swizzle_apply(2, 1, -3, o), o ^ ((o & 0b110u) << 3));
  }
  EXPECT_EQ(swz::cute_swizzle_apply(0, 0, 0, 12345), 12345u);
  EXPECT_THROW(swz::check_cute_swizzle(3, 2, 2), swz::Error);  // |S| < B
  EXPECT_THROW(swz::check_cute_swizzle(-1, 2, 3), swz::Error);
  EXPECT_NO_THROW(swz::check_cute_swizzle(3, 4, 3));
}

// The one place that says which Swizzle<B,M,S> there are: each limit is the last value taken, and
// each refusal names the swizzle and why.
TEST(CuteSwizzle, LimitsAndTheSourceBitRuleAreSaidInOnePlace) {
  EXPECT_EQ(swz::cute_swizzle_limits_text(), "B 0..16, M 0..24, S -24..24");
  EXPECT_EQ(swz::cute_swizzle_fault(16, 24, 24), std::nullopt);
  EXPECT_EQ(swz::cute_swizzle_fault(16, 0, -24), std::nullopt);
  EXPECT_EQ(swz::cute_swizzle_fault(0, 0, 0), std::nullopt);
  for (const auto& [b, m, s] : {std::array{17, 0, 24}, std::array{-1, 0, 0}, std::array{0, 25, 0}, std::array{0, -1, 0},
                                std::array{0, 0, 25}, std::array{0, 0, -25}}) {
    EXPECT_FALSE(swz::cute_swizzle_within_limits(b, m, s)) << b << "," << m << "," << s;
    EXPECT_EQ(swz::cute_swizzle_fault(b, m, s),
              fmt::format("Swizzle<{},{},{}> is out of range (B 0..16, M 0..24, S -24..24)", b, m, s));
  }
  // |S| < B is within every limit, and still no swizzle: the fields would overlap.
  EXPECT_TRUE(swz::cute_swizzle_within_limits(3, 2, -2));
  EXPECT_EQ(swz::cute_swizzle_fault(3, 2, -2),
            "Swizzle<3,2,-2>: |S| must be at least B, or the source bits would overlap the bits they change");
  try {
    swz::check_cute_swizzle(3, 2, 2);
    ADD_FAILURE() << "Swizzle<3,2,2> passed the check";
  } catch (const swz::Error& e) {
    EXPECT_EQ(std::string(e.what()), *swz::cute_swizzle_fault(3, 2, 2));
  }
}

TEST(CuteSwizzle, Swizzle333OnHalfElementsEqualsSwizzle343OnBytes) {
  for (std::uint64_t o = 0; o < (1u << 16); ++o)
    ASSERT_EQ(swz::cute_swizzle_apply(3, 4, 3, 2 * o), 2 * swz::cute_swizzle_apply(3, 3, 3, o));
  const swz::CuteLayout rm{{{{64, 64}}, {{64, 1}}}};  // 64x64 row-major
  const SharedLayout e = swz::cute_swizzle(3, 3, 3, rm, swz::SwizzleUnits::Elements, 16);
  const SharedLayout b = swz::cute_swizzle(3, 4, 3, rm, swz::SwizzleUnits::Bytes, 16);
  EXPECT_EQ(e, b);
  EXPECT_TRUE(e.is_linear());
  // On bytes, a swizzle that would split elements is refused: Swizzle<3,0,3> moves single bytes of fp16.
  EXPECT_THROW(swz::cute_swizzle(3, 0, 3, rm, swz::SwizzleUnits::Bytes, 16), swz::Error);
}

TEST(CuteSwizzle, NegativeShiftOnBytes) {
  // S < 0: sources at bits M.., targets at M+|S|..; Swizzle<2,1,-3> on fp16 byte addresses moves
  // whole elements, as Swizzle<2,0,-3> on element offsets does.
  const swz::CuteLayout rm{{{{16, 64}}, {{64, 1}}}};
  for (std::uint64_t o = 0; o < 2048; ++o)
    ASSERT_EQ(swz::cute_swizzle_apply(2, 1, -3, 2 * o), 2 * swz::cute_swizzle_apply(2, 0, -3, o));
  EXPECT_EQ(swz::cute_swizzle(2, 1, -3, rm, swz::SwizzleUnits::Bytes, 16),
            swz::cute_swizzle(2, 0, -3, rm, swz::SwizzleUnits::Elements, 16));
  // Sources inside an element (M = 0 on fp16 bytes) would split it, whatever the shift's sign.
  EXPECT_THROW(swz::cute_swizzle(1, 0, -4, rm, swz::SwizzleUnits::Bytes, 16), swz::Error);
  EXPECT_THROW(swz::cute_swizzle(2, 1, -3, rm, swz::SwizzleUnits::Bytes, 32), swz::Error);
}

TEST(CuteSwizzle, CuteLayoutOffsetsAndText) {
  const swz::CuteLayout hier{{{{8, 4}, {2, 32}}, {{4, 1}, {4, 64}}}};  // ((8,2),(4,4)):((4,32),(1,64))
  EXPECT_EQ(hier.shape(), (std::vector<std::int64_t>{16, 16}));
  EXPECT_EQ(hier.to_string(), "((8,2),(4,4)):((4,32),(1,64))");
  EXPECT_EQ(hier.offset({9, 5}), 1u * 4 + 1 * 32 + 1 * 1 + 1 * 64);
  const swz::CuteLayout cm{{{{8, 1}}, {{8, 8}}}};
  EXPECT_EQ(cm.to_string(), "(8,8):(1,8)");
  const SharedLayout plain = swz::cute_plain(cm);
  EXPECT_EQ(plain, swz::column_major({8, 8}));
}

// -- TMA swizzle modes ----------------------------------------------------------

// Seed 002: a buffer at `base` sees smem[y][x] <-> smem[y][((y + off) % R) ^ x], y = 128-byte row of
// the buffer, x = 16-byte chunk, off = (base / 128) % R, R = 8 / 4 / 2 for 128B / 64B / 32B.
std::uint64_t seed_formula_byte(int mode, std::uint64_t base, std::uint64_t rel_byte) {
  const std::uint64_t r = static_cast<std::uint64_t>(mode / 16);
  const std::uint64_t off = (base / 128) % r;
  const std::uint64_t y = rel_byte / 128, x = (rel_byte / 16) % 8;
  return y * 128 + ((((y + off) % r) ^ x) * 16) + rel_byte % 16;
}

TEST(TmaSwizzle, Mode128IsRowXorChunk) {
  // 128B, fp16, 64 columns = 128 bytes per row: smem[y][(y % 8) ^ x] on 16-byte chunks.
  const SharedLayout s = swz::tma_swizzle(128, {64, 64}, 16);
  ASSERT_TRUE(s.is_linear());
  for (std::int64_t y = 0; y < 64; ++y)
    for (std::int64_t col = 0; col < 64; ++col) {
      const std::int64_t x = col / 8;
      const std::int64_t want = y * 64 + (((y % 8) ^ x) * 8) + col % 8;
      ASSERT_EQ(s.offset(s.coords().flatten({y, col})), static_cast<std::uint32_t>(want));
    }
  // It is CuTe's Swizzle<3,4,3> on byte addresses and Swizzle<3,3,3> on fp16 elements.
  const swz::CuteLayout rm{{{{64, 64}}, {{64, 1}}}};
  EXPECT_EQ(s, swz::cute_swizzle(3, 4, 3, rm, swz::SwizzleUnits::Bytes, 16));
  EXPECT_EQ(s, swz::cute_swizzle(3, 3, 3, rm, swz::SwizzleUnits::Elements, 16));
  // And the toggle grid with masks 8, 16, 32 (row bit j flips chunk bit j).
  EXPECT_EQ(s, swz::toggle_grid({64, 64}, {8, 16, 32}));
}

TEST(TmaSwizzle, ModesMatchCuteAndTritonNvmma) {
  // 64B = Swizzle<2,4,3> on bytes, 32B = Swizzle<1,4,3>; NVMMA perPhase/maxPhase 2/4 and 4/2 with 16-byte vectors.
  const swz::CuteLayout rm32{{{{64, 32}}, {{32, 1}}}}, rm16{{{{64, 16}}, {{16, 1}}}}, rm64{{{{64, 64}}, {{64, 1}}}};
  EXPECT_EQ(swz::tma_swizzle(64, {64, 32}, 16), swz::cute_swizzle(2, 4, 3, rm32, swz::SwizzleUnits::Bytes, 16));
  EXPECT_EQ(swz::tma_swizzle(32, {64, 16}, 16), swz::cute_swizzle(1, 4, 3, rm16, swz::SwizzleUnits::Bytes, 16));
  EXPECT_EQ(swz::tma_swizzle(128, {64, 64}, 16), swz::triton_swizzled(8, 1, 8, {1, 0}, {64, 64}));
  EXPECT_EQ(swz::tma_swizzle(64, {64, 32}, 16), swz::triton_swizzled(8, 2, 4, {1, 0}, {64, 32}));
  EXPECT_EQ(swz::tma_swizzle(32, {64, 16}, 16), swz::triton_swizzled(8, 4, 2, {1, 0}, {64, 16}));
  // fp32 and fp8 rows of 128 bytes: same byte pattern.
  EXPECT_EQ(swz::tma_swizzle(128, {32, 32}, 32), swz::triton_swizzled(4, 1, 8, {1, 0}, {32, 32}));
  EXPECT_EQ(swz::tma_swizzle(128, {32, 128}, 8), swz::triton_swizzled(16, 1, 8, {1, 0}, {32, 128}));
  static_cast<void>(rm64);
}

TEST(TmaSwizzle, UnalignedBaseFollowsSeedOffsetFormula) {
  struct Mode { int bytes; std::int64_t cols; };
  for (Mode mode : {Mode{128, 64}, Mode{64, 32}, Mode{32, 16}}) {
    const std::uint64_t repeat = static_cast<std::uint64_t>(mode.bytes) * 8;
    for (std::uint64_t base = 0; base < 2 * 1024; base += 128) {
      const SharedLayout s = swz::tma_swizzle(mode.bytes, {64, mode.cols}, 16, base);
      EXPECT_EQ(s.is_linear(), base % repeat == 0) << mode.bytes << "B base " << base;
      for (std::int64_t row = 0; row < 64; ++row)
        for (std::int64_t col = 0; col < mode.cols; ++col) {
          const std::uint64_t rel = static_cast<std::uint64_t>(row * mode.cols + col) * 2;
          ASSERT_EQ(std::uint64_t{s.offset(s.coords().flatten({row, col}))} * 2, seed_formula_byte(mode.bytes, base, rel))
              << mode.bytes << "B base " << base << " (" << row << ", " << col << ")";
          ASSERT_EQ(swz::tma_relative_chunk(mode.bytes, base, rel / 128, (rel / 16) % 8), (seed_formula_byte(mode.bytes, base, rel) / 16) % 8);
        }
    }
  }
  // The pattern repeats: a base one repeat further sees the aligned pattern.
  EXPECT_EQ(swz::tma_swizzle(128, {64, 64}, 16, 1024), swz::tma_swizzle(128, {64, 64}, 16, 0));
  EXPECT_EQ(swz::tma_swizzle(64, {64, 32}, 16, 512), swz::tma_swizzle(64, {64, 32}, 16, 0));
  EXPECT_EQ(swz::tma_swizzle(32, {64, 16}, 16, 256), swz::tma_swizzle(32, {64, 16}, 16, 0));
  // Seed 002's 128B example: base 0x80 shifts the pattern by one row.
  EXPECT_EQ(swz::tma_relative_chunk(128, 0x80, 0, 0), 1u);
  EXPECT_EQ(swz::tma_relative_chunk(128, 0x80, 7, 0), 0u);
  const SharedLayout shifted = swz::tma_swizzle(128, {64, 64}, 16, 0x80);
  EXPECT_NE(shifted.nonlinear_reason().find("not aligned"), std::string::npos);
}

TEST(TmaSwizzle, Checks) {
  EXPECT_THROW(swz::tma_swizzle(16, {64, 8}, 16), swz::Error);
  EXPECT_THROW(swz::tma_swizzle(128, {64, 32}, 16), swz::Error);      // 64-byte rows for 128B
  EXPECT_THROW(swz::tma_swizzle(128, {64, 64}, 16, 0x40), swz::Error);  // not 128-byte aligned
  EXPECT_THROW(swz::tma_swizzle(128, {64, 256}, 4), swz::Error);
}

// -- Triton SwizzledSharedLayout ---------------------------------------------

TEST(TritonSwizzled, MatchesDefinition) {
  // offset(row, col) = row*cols + (((col/vec) ^ ((row/perPhase) % maxPhase)) * vec) % cols + col % vec.
  struct P { int vec, per_phase, max_phase; };
  for (P p : {P{1, 1, 1}, P{4, 1, 8}, P{8, 2, 4}, P{2, 1, 16}, P{4, 4, 2}, P{1, 1, 32}})
    for (bool col_major : {false, true}) {
      const std::vector<std::int64_t> shape{32, 32};
      const std::vector<std::int64_t> order = col_major ? std::vector<std::int64_t>{0, 1} : std::vector<std::int64_t>{1, 0};
      const SharedLayout s = swz::triton_swizzled(p.vec, p.per_phase, p.max_phase, order, shape);
      EXPECT_TRUE(s.is_linear());
      for (std::int64_t a = 0; a < 32; ++a)
        for (std::int64_t b = 0; b < 32; ++b) {
          const std::int64_t row = col_major ? b : a, col = col_major ? a : b;
          const std::int64_t phase = (row / p.per_phase) % p.max_phase;
          const std::int64_t want = row * 32 + (((col / p.vec) ^ phase) * p.vec) % 32 + col % p.vec;
          ASSERT_EQ(s.offset(s.coords().flatten({a, b})), static_cast<std::uint32_t>(want));
        }
    }
  EXPECT_THROW(swz::triton_swizzled(3, 1, 8, {1, 0}, {32, 32}), swz::Error);
  EXPECT_THROW(swz::triton_swizzled(4, 1, 8, {0, 0}, {32, 32}), swz::Error);
}

}  // namespace
