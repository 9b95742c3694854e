// The facts of the seed articles, each checked against the library: the 16/2/1 table with
// its segment and intersection bases, the conflict-free rule, the CuTe tutorial's bank maps
// and counts, the toy GPU's 8-way conflict and its XOR fix, the XOR out-of-bounds cases,
// and the XOR bijection argument.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "swz/sim/analysis.h"
#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/problem/problem.h"

namespace {

using swz::BitVec;
using swz::LinearLayout;
using swz::SharedLayout;
using swz::Subspace;

std::vector<std::string> names(const std::vector<BitVec>& vs, const LinearLayout& l) {
  std::vector<std::string> out;
  for (BitVec v : vs) out.push_back(l.describe_out(v));
  return out;
}

// -- seed 000: Swizzle by Hand, Swizzle by Algebra --------------------------------

struct TableRow {
  std::vector<std::uint32_t> masks;
  std::vector<std::string> m_seg;         // M_Seg basis, segment bit 0 first
  std::vector<std::string> intersection;  // basis of span(M_Seg) ∩ span(B_Thr)
  int read_wavefronts;
};

TEST(Seeds, SixteenTwoOneTable) {
  swz::Problem p = swz::make_preset("transpose16x32");
  const LinearLayout& names_of = p.shared.coords();
  const std::vector<TableRow> table{
      {{}, {"m0", "m1", "m2", "m3"}, {"m3", "m2", "m1", "m0"}, 16},
      {{1, 2, 4, 8}, {"m0^n0", "m1^n1", "m2^n2", "m3^n3"}, {"m0^n0"}, 2},
      {{2, 4, 8, 16}, {"m0^n1", "m1^n2", "m2^n3", "m3^n4"}, {}, 1},
  };
  for (const TableRow& row : table) {
    p.set_masks(row.masks);
    const swz::ProblemAnalysis a = swz::analyze(p);
    const swz::LemmaResult& l = a.read.lemma;
    ASSERT_TRUE(l.applies);
    EXPECT_EQ(names(l.segment_basis, names_of), row.m_seg);
    EXPECT_EQ(names(l.intersection_basis, names_of), row.intersection);
    // B_Thr = m0..m3 and n0: the read's lanes.
    EXPECT_EQ(names(l.thread_basis, names_of), (std::vector<std::string>{"m0", "m1", "m2", "m3", "n0"}));
    EXPECT_EQ(l.intersection_dim, static_cast<int>(row.intersection.size()));
    EXPECT_EQ(l.predicted_wavefronts, row.read_wavefronts);
    EXPECT_EQ(a.read.simulated.wavefronts, row.read_wavefronts);
    // The store column of the table is always trivial: span(A_Thr) = n0..n4 has no m bits.
    EXPECT_EQ(names(a.store.lemma.thread_basis, names_of), (std::vector<std::string>{"n0", "n1", "n2", "n3", "n4"}));
    EXPECT_EQ(a.store.lemma.intersection_dim, 0);
    EXPECT_EQ(a.store.simulated.wavefronts, 1);
  }
}

TEST(Seeds, BankHitsOfTheReadTrace) {
  // Unswizzled: columns 0 and 1 stack 16 rows into banks 0 and 1. XOR m: the two half-warps
  // double-book banks 0-15 while 16-31 idle. XOR 2m: even banks for column 2r, odd for 2r+1.
  swz::Problem p = swz::make_preset("transpose16x32");
  auto hits = [&](const std::vector<std::uint32_t>& masks, int step) {
    p.set_masks(masks);
    return swz::trace_instruction(p.read, p.shared, 32, p.bank, 0, step).bank_words;
  };
  std::vector<int> unswizzled(32, 0);
  unswizzled[0] = unswizzled[1] = 16;
  EXPECT_EQ(hits({}, 0), unswizzled);
  std::vector<int> xor_m(32, 0);
  for (int b = 0; b < 16; ++b) xor_m[static_cast<std::size_t>(b)] = 2;
  EXPECT_EQ(hits({1, 2, 4, 8}, 0), xor_m);
  EXPECT_EQ(hits({2, 4, 8, 16}, 0), std::vector<int>(32, 1));
  for (int step = 0; step < 16; ++step) EXPECT_EQ(hits({2, 4, 8, 16}, step), std::vector<int>(32, 1));
  // Every lane's bank in the XOR 2m read: n ^ 2m mod 32, so lanes 0-15 even banks, 16-31 odd.
  const swz::InstructionResult ir = swz::trace_instruction(p.read, p.shared, 32, p.bank, 0, 3);
  for (const auto& la : ir.lanes) {
    const int m = la.lane % 16, n = 2 * 3 + la.lane / 16;
    EXPECT_EQ(la.bank, (n ^ (2 * m)) % 32);
    EXPECT_EQ(la.bank % 2, la.lane / 16);
  }
}

TEST(Seeds, NamedVariantsOfTheSeedPreset) {
  swz::Problem p = swz::make_preset("transpose16x32");
  for (auto [variant, read] : std::vector<std::pair<std::string, int>>{{"unswizzled", 16}, {"xor-m", 2}, {"xor-2m", 1}, {"padded", 2}}) {
    p.apply_variant(variant);
    EXPECT_EQ(swz::analyze(p).read.simulated.wavefronts, read) << variant;
  }
}

TEST(Seeds, ConflictFreeIffMasksAndN0Independent) {
  // The rule of the game, on named family members: {n1..n4} yes, {n0..n3} no, and others.
  swz::Problem p = swz::make_preset("transpose16x32");
  struct Case { std::vector<std::uint32_t> masks; bool free; };
  for (const Case& c : std::vector<Case>{{{2, 4, 8, 16}, true},
                                         {{1, 2, 4, 8}, false},
                                         {{2, 4, 8, 17}, true},     // n4 ^ n0 with n1..n3
                                         {{3, 5, 9, 17}, true},     // every mask carries n0, still independent mod n0
                                         {{16, 8, 4, 2}, true},     // reversed order
                                         {{2, 4, 8, 8}, false},     // repeated mask
                                         {{2, 4, 8, 14}, false},    // 14 = 2 ^ 4 ^ 8
                                         {{2, 4, 8, 15}, false},    // 15 = 2 ^ 4 ^ 8 ^ n0
                                         {{2, 4, 8, 0}, false}}) {
    p.set_masks(c.masks);
    const std::vector<BitVec> family{c.masks[0], c.masks[1], c.masks[2], c.masks[3], 1};
    EXPECT_EQ(swz::rank(family) == 5, c.free);
    EXPECT_EQ(swz::analyze(p).read.simulated.wavefronts == 1, c.free) << swz::format_masks(c.masks);
  }
}

TEST(Seeds, ConstructionPairsThreadBits) {
  // §06: I = A_Thr ∩ B_Thr = {n0}; pairing E = n1..n4 with F = m0..m3 gives M_Seg = {n_{j+1} ^ m_j},
  // which is offset = 32m + (n ^ 2m), and Lemma 9.5 says 4 = 9 - max(5, 5) segment bits is all there is.
  const swz::Problem p = swz::make_preset("transpose16x32");
  const Subspace a_thr = p.store.layout.image_of("lane");
  const Subspace b_thr = p.read.layout.image_of("lane");
  const LinearLayout& l = p.read.layout;
  EXPECT_EQ(a_thr.intersect(b_thr), Subspace::span({l.flatten({0, 1})}, 9));
  std::vector<BitVec> h;
  for (std::int64_t j = 0; j < 4; ++j) h.push_back(l.flatten({std::int64_t{1} << j, std::int64_t{2} << j}));
  const Subspace seg = Subspace::span(h, 9);
  EXPECT_EQ(seg.intersect(a_thr).dim(), 0);
  EXPECT_EQ(seg.intersect(b_thr).dim(), 0);
  EXPECT_EQ(swz::max_avoiding_dim(9, a_thr.dim(), b_thr.dim()), 4);
  EXPECT_EQ(p.layout_for_masks({2, 4, 8, 16}).linear().bases("offset"),
            (std::vector<BitVec>{l.flatten({0, 1}), l.flatten({0, 2}), l.flatten({0, 4}), l.flatten({0, 8}), l.flatten({0, 16}),
                                 h[0], h[1], h[2], h[3]}));
}

// -- seed 003: CuTe Swizzle<3,2,3> on the 8x8 column-major tile ------------------------

constexpr std::array<std::array<int, 8>, 8> kPlainBanks{{
    {0, 8, 16, 24, 0, 8, 16, 24},
    {1, 9, 17, 25, 1, 9, 17, 25},
    {2, 10, 18, 26, 2, 10, 18, 26},
    {3, 11, 19, 27, 3, 11, 19, 27},
    {4, 12, 20, 28, 4, 12, 20, 28},
    {5, 13, 21, 29, 5, 13, 21, 29},
    {6, 14, 22, 30, 6, 14, 22, 30},
    {7, 15, 23, 31, 7, 15, 23, 31},
}};
constexpr std::array<std::array<int, 8>, 8> kSwizzledBanks{{
    {0, 8, 16, 24, 4, 12, 20, 28},
    {1, 9, 17, 25, 5, 13, 21, 29},
    {2, 10, 18, 26, 6, 14, 22, 30},
    {3, 11, 19, 27, 7, 15, 23, 31},
    {4, 12, 20, 28, 0, 8, 16, 24},
    {5, 13, 21, 29, 1, 9, 17, 25},
    {6, 14, 22, 30, 2, 10, 18, 26},
    {7, 15, 23, 31, 3, 11, 19, 27},
}};

// The tutorial's count: a row read costs (max over banks of hits) wavefronts; sum over the
// 8 row reads of (wavefronts - 1).
int row_wise_conflicts(const SharedLayout& s) {
  int total = 0;
  for (std::int64_t m = 0; m < 8; ++m) {
    std::array<int, 32> hits{};
    for (std::int64_t n = 0; n < 8; ++n) ++hits[s.offset(s.coords().flatten({m, n})) % 32];
    total += *std::max_element(hits.begin(), hits.end()) - 1;
  }
  return total;
}

TEST(Seeds, CuteTutorialBankMapsCellByCell) {
  const swz::CuteLayout col_major{{{{8, 1}}, {{8, 8}}}};
  const SharedLayout plain = swz::cute_plain(col_major);
  const SharedLayout swizzled = swz::cute_swizzle(3, 2, 3, col_major, swz::SwizzleUnits::Elements, 32);
  const swz::BankModel bank;
  for (std::int64_t m = 0; m < 8; ++m)
    for (std::int64_t n = 0; n < 8; ++n) {
      const BitVec f = plain.coords().flatten({m, n});
      EXPECT_EQ(bank.bank_of(swz::byte_address_of(plain.offset(f), 32)), kPlainBanks[m][n]) << m << "," << n;
      EXPECT_EQ(bank.bank_of(swz::byte_address_of(swizzled.offset(f), 32)), kSwizzledBanks[m][n]) << m << "," << n;
    }
  EXPECT_EQ(row_wise_conflicts(plain), 8);
  EXPECT_EQ(row_wise_conflicts(swizzled), 0);
  // The swizzle is transparent: every element keeps exactly one slot of the 64.
  std::set<std::uint32_t> slots(swizzled.offsets().begin(), swizzled.offsets().end());
  EXPECT_EQ(slots.size(), 64u);
  EXPECT_EQ(swizzled.extent(), 64u);
}

TEST(Seeds, CuteTutorialCountsFromTheSimulator) {
  // The preset reads the tile a row per instruction: 8 instructions of (wavefronts - 1) = 1, then 0.
  swz::Problem p = swz::make_preset("cute8x8");
  auto total_conflicts = [&] {
    const swz::AccessResult r = swz::analyze(p).read.simulated;
    EXPECT_EQ(r.instructions(), 8);
    int total = 0;
    for (int w : r.per_instruction) total += w - 1;
    return total;
  };
  EXPECT_EQ(total_conflicts(), 8);
  p.apply_variant("swizzle323");
  EXPECT_EQ(total_conflicts(), 0);
  // Reading down a column (the copy's direction) never conflicted.
  EXPECT_EQ(swz::analyze(p).store.simulated.wavefronts, 1);
}

// -- seed 001: toy GPU, 8 banks, 8 threads -------------------------------------------

TEST(Seeds, ToyGpuTransposeEightWayAndXorFix) {
  swz::Problem p = swz::make_preset("toy8x8");
  EXPECT_EQ(p.bank.banks, 8);
  EXPECT_EQ(p.bank.warp_size, 8);
  swz::ProblemAnalysis a = swz::analyze(p);
  EXPECT_EQ(a.store.simulated.wavefronts, 1);  // rows: 8 banks, one each
  EXPECT_EQ(a.read.simulated.wavefronts, 8);   // columns: 8-way
  EXPECT_EQ(a.read.simulated.conflicts, 7);
  EXPECT_EQ(a.read.simulated.instructions(), 8);
  EXPECT_EQ(swz::verdict_text(a.read.simulated), "8 wavefronts, 8-way conflict");
  p.apply_variant("xor-row");
  a = swz::analyze(p);
  EXPECT_EQ(a.store.simulated.wavefronts, 1);
  EXPECT_EQ(a.read.simulated.wavefronts, 1);
  EXPECT_EQ(swz::verdict_text(a.read.simulated), "1 wavefront");
  // The kernel's shared_matrix[i][i ^ t]: row i, column i ^ t.
  for (std::int64_t i = 0; i < 8; ++i)
    for (std::int64_t t = 0; t < 8; ++t)
      EXPECT_EQ(p.shared.offset(p.shared.coords().flatten({i, t})), static_cast<std::uint32_t>(8 * i + (i ^ t)));
}

TEST(Seeds, ToyGpuSwizzlingRowByRowReducesConflicts) {
  // The carousel: XOR-swizzling only the first k rows of 8; the worst column read falls from
  // 8-way to none once all rows disagree.
  const swz::Problem p = swz::make_preset("toy8x8");
  std::vector<int> worst;
  for (int k = 0; k <= 8; ++k) {
    const SharedLayout s = SharedLayout::from_function(
        {8, 8}, [k](const swz::Coords& c) { return static_cast<std::uint64_t>(8 * c[0] + (c[0] < k ? (c[0] ^ c[1]) : c[1])); },
        "first rows swizzled");
    worst.push_back(swz::simulate(p.read, s, 32, p.bank).wavefronts);
  }
  EXPECT_EQ(worst.front(), 8);
  EXPECT_EQ(worst.back(), 1);
  for (std::size_t k = 1; k < worst.size(); ++k) EXPECT_LE(worst[k], worst[k - 1]);
}

std::vector<std::vector<int>> xor_index_matrix(int rows, int cols) {
  std::vector<std::vector<int>> out(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) out[static_cast<std::size_t>(r)].push_back(r ^ c);
  return out;
}

TEST(Seeds, XorIndexMatricesAndOutOfBounds) {
  EXPECT_EQ(xor_index_matrix(2, 2), (std::vector<std::vector<int>>{{0, 1}, {1, 0}}));
  // 2x3: cell [1, 2] -> 1 ^ 2 = 3, out of bounds; nothing else is.
  const auto m23 = xor_index_matrix(2, 3);
  EXPECT_EQ(m23, (std::vector<std::vector<int>>{{0, 1, 2}, {1, 0, 3}}));
  std::vector<std::pair<int, int>> oob;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c)
      if (m23[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] >= 3) oob.emplace_back(r, c);
  EXPECT_EQ(oob, (std::vector<std::pair<int, int>>{{1, 2}}));
  // 4x6: rows 2 and 3 run out of bounds in their last two cells.
  const auto m46 = xor_index_matrix(4, 6);
  EXPECT_EQ(m46[2], (std::vector<int>{2, 3, 0, 1, 6, 7}));
  EXPECT_EQ(m46[3], (std::vector<int>{3, 2, 1, 0, 7, 6}));
  oob.clear();
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 6; ++c)
      if (m46[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] >= 6) oob.emplace_back(r, c);
  EXPECT_EQ(oob, (std::vector<std::pair<int, int>>{{2, 4}, {2, 5}, {3, 4}, {3, 5}}));
  // The library refuses such tiles up front instead of addressing out of bounds.
  for (const std::vector<std::int64_t>& shape : {std::vector<std::int64_t>{2, 3}, std::vector<std::int64_t>{4, 6}}) {
    try {
      swz::toggle_grid(shape, {1});
      ADD_FAILURE() << "accepted a " << shape[0] << "x" << shape[1] << " tile";
    } catch (const swz::Error& e) {
      EXPECT_NE(std::string(e.what()).find("powers of two"), std::string::npos) << e.what();
    }
  }
}

// -- seed 004: the XOR bijection --------------------------------------------------------

TEST(Seeds, XorMapIsABijectionThatSpreadsColumns) {
  // f(row, col) = (row, row ^ col) with W a power of two and H <= W: property 1 (a column's
  // elements land in distinct columns) and property 2 (bijective, in bounds).
  for (int w = 1; w <= 64; w *= 2)
    for (int h = 1; h <= w; h *= 2) {
      std::set<std::pair<int, int>> image;
      for (int col = 0; col < w; ++col) {
        std::set<int> cols_of_column;
        for (int row = 0; row < h; ++row) {
          const int c = row ^ col;
          ASSERT_LT(c, w);
          cols_of_column.insert(c);
          image.emplace(row, c);
        }
        ASSERT_EQ(static_cast<int>(cols_of_column.size()), h);
      }
      ASSERT_EQ(static_cast<int>(image.size()), h * w);
    }
  // As a layout: a 32x32 fp32 tile with row bit j folded into column bit j reads a column in one wavefront.
  const swz::Access column{swz::distributed({32, 32}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}},
                                            {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}),
                           swz::AccessKind::Load, 0, 32};
  EXPECT_EQ(swz::simulate(column, swz::row_major({32, 32}), 32, {}).wavefronts, 32);
  EXPECT_EQ(swz::simulate(column, swz::toggle_grid({32, 32}, {1, 2, 4, 8, 16}), 32, {}).wavefronts, 1);
}

// -- seed 002: TMA swizzle modes --------------------------------------------------

TEST(Seeds, Tma128BIsRowXorChunkForEveryElementWidth) {
  // smem[y][(y % 8) ^ x] on 16-byte chunks, whatever the element: fp8, fp16, fp32 (128-byte rows).
  for (int ebits : {8, 16, 32}) {
    const std::int64_t cols = 1024 / ebits;
    const SharedLayout s = swz::tma_swizzle(128, {16, cols}, ebits);
    const std::int64_t per_chunk = 128 / ebits;
    for (std::int64_t y = 0; y < 16; ++y)
      for (std::int64_t c = 0; c < cols; ++c) {
        const std::uint64_t byte = swz::byte_address_of(s.offset(s.coords().flatten({y, c})), ebits);
        const std::uint64_t x = static_cast<std::uint64_t>(c / per_chunk);
        ASSERT_EQ(byte, static_cast<std::uint64_t>(y) * 128 + (((static_cast<std::uint64_t>(y) % 8) ^ x) * 16) +
                            static_cast<std::uint64_t>(c % per_chunk) * static_cast<std::uint64_t>(ebits) / 8);
      }
  }
}

TEST(Seeds, Tma128PresetReadsConflictFreeAtAnyBase) {
  swz::Problem p = swz::make_preset("tma128_fp16");
  EXPECT_EQ(swz::analyze(p).read.simulated.wavefronts, 32);
  p.apply_variant("tma-128B");
  EXPECT_EQ(swz::analyze(p).read.simulated.wavefronts, 4);
  EXPECT_TRUE(swz::analyze(p).read.agrees());
  // Base 0x80: the pattern is shifted by one row ((y + 1) % 8) ^ x, still 8 distinct chunks per
  // matrix; the algebra does not apply (carries) and says so.
  p.apply_variant("tma-128B-base-0x80");
  const swz::ProblemAnalysis a = swz::analyze(p);
  EXPECT_EQ(a.read.simulated.wavefronts, 4);
  EXPECT_FALSE(a.read.lemma.applies);
  EXPECT_NE(a.read.difference.find("not linear"), std::string::npos) << a.read.difference;
}

}  // namespace
