// Toggle grids: the family count, the lazy enumeration and the repair, each
// against brute force with the simulator or the seed's independence rule.
#include <gtest/gtest.h>

#include <bit>
#include <set>

#include "swz/error.h"
#include "swz/solve/solver.h"

namespace swz {
namespace {

bool simulated_free(const Problem& p, const std::vector<std::uint32_t>& masks) {
  const SharedLayout s = p.layout_for_masks(masks);
  const AccessResult a = simulate(p.store, s, p.element_bits, p.bank), b = simulate(p.read, s, p.element_bits, p.bank);
  return a.wavefronts == a.ideal_wavefronts && b.wavefronts == b.ideal_wavefronts;
}

// All mask sets of a grid (toggle columns only), row 0 first.
std::vector<std::vector<std::uint32_t>> all_masks(const Problem& p) {
  const int rows = p.grid->row_bits, toggles = p.grid->col_bits - p.grid->vec_bits;
  std::vector<std::vector<std::uint32_t>> out;
  const std::uint64_t n = std::uint64_t{1} << (rows * toggles);
  for (std::uint64_t code = 0; code < n; ++code) {
    std::vector<std::uint32_t> m;
    for (int j = 0; j < rows; ++j) {
      const auto t = static_cast<std::uint32_t>((code >> ((rows - 1 - j) * toggles)) & ((1u << toggles) - 1));
      m.push_back(t << p.grid->vec_bits);
    }
    out.push_back(m);
  }
  return out;
}

TEST(Grid, ToyFamilyMatchesTheSimulator) {
  const Problem p = make_preset("toy8x8");
  std::vector<std::vector<std::uint32_t>> free;
  for (const auto& m : all_masks(p))
    if (simulated_free(p, m)) free.push_back(m);
  EXPECT_EQ(family_size(p), free.size());
  MaskEnumerator e(p);
  std::vector<std::vector<std::uint32_t>> listed;
  while (auto m = e.next()) listed.push_back(*m);
  EXPECT_EQ(listed, free);  // same sets, same (lexicographic) order
  for (const auto& m : all_masks(p)) EXPECT_EQ(masks_conflict_free(p, m), simulated_free(p, m));
}

TEST(Grid, ToyRepairIsTheNearestMember) {
  const Problem p = make_preset("toy8x8");
  std::vector<std::vector<std::uint32_t>> free;
  for (const auto& m : all_masks(p))
    if (simulated_free(p, m)) free.push_back(m);
  for (const auto& current : all_masks(p)) {
    int best = 1 << 20;
    for (const auto& f : free) {
      int d = 0;
      for (std::size_t j = 0; j < f.size(); ++j) d += std::popcount(f[j] ^ current[j]);
      best = std::min(best, d);
    }
    const Repair r = repair(p, current);
    ASSERT_TRUE(r.possible);
    EXPECT_EQ(r.flips, best);
    EXPECT_TRUE(simulated_free(p, r.masks));
    EXPECT_EQ(static_cast<int>(r.cells.size()), r.flips);
  }
}

TEST(Grid, SeedFamilyIsTheIndependenceRule) {
  // Seed 000, section 05: conflict-free iff the four masks together with n0 are independent.
  const Problem p = make_preset("transpose16x32");
  std::uint64_t by_rule = 0;
  for (std::uint32_t code = 0; code < (1u << 20); ++code) {
    const std::vector<BitVec> v{1, code & 31u, (code >> 5) & 31u, (code >> 10) & 31u, (code >> 15) & 31u};
    by_rule += rank(v) == 5 ? 1 : 0;
  }
  EXPECT_EQ(by_rule, 322560u);
  EXPECT_EQ(family_size(p), by_rule);
  EXPECT_TRUE(masks_conflict_free(p, {2, 4, 8, 16}));
  EXPECT_FALSE(masks_conflict_free(p, {1, 2, 4, 8}));
  // A sample checked by the simulator.
  std::uint32_t x = 12345;
  for (int i = 0; i < 200; ++i) {
    std::vector<std::uint32_t> m;
    for (int j = 0; j < 4; ++j) {
      x = x * 1103515245u + 12345u;
      m.push_back((x >> 16) & 31u);
    }
    EXPECT_EQ(masks_conflict_free(p, m), simulated_free(p, m));
  }
}

TEST(Grid, SeedEnumerationIsLazyAndOrdered) {
  const Problem p = make_preset("transpose16x32");
  MaskEnumerator e(p);
  std::vector<std::uint32_t> prev;
  std::uint64_t count = 0;
  while (auto m = e.next()) {
    if (count < 50) EXPECT_TRUE(simulated_free(p, *m));
    if (count > 0) EXPECT_LT(prev, *m);
    prev = *m;
    ++count;
  }
  EXPECT_EQ(count, family_size(p));
}

TEST(Grid, SeedRepairOfTheClassicSwizzle) {
  const Problem p = make_preset("transpose16x32");
  const Repair r = repair(p, {1, 2, 4, 8});
  EXPECT_TRUE(r.possible);
  EXPECT_EQ(r.flips, 1);
  EXPECT_TRUE(simulated_free(p, r.masks));
  EXPECT_EQ(repair(p, {2, 4, 8, 16}).flips, 0);
}

TEST(Grid, EmptyFamilyAndPresetsWithoutGrids) {
  // 128x128 fp32 transpose: XOR masks only permute within a 128-element row, which
  // cannot spread the 32 column-readers' rows over distinct banks (the solver's
  // general layout can).
  const Problem p = make_preset("transpose128_fp32_4w");
  EXPECT_EQ(family_size(p), 0u);
  EXPECT_FALSE(repair(p, {}).possible);
  EXPECT_FALSE(MaskEnumerator(p).next().has_value());
  EXPECT_TRUE(solve(p).conflict_free);
  EXPECT_THROW(family_size(make_preset("cute8x8")), Error);
}

TEST(Grid, TmaPresetMasksAreAFamilyMember) {
  const Problem p = make_preset("tma128_fp16");
  const SolveResult r = solve(p);
  const auto masks = masks_of(p, r.offset_bases);
  ASSERT_TRUE(masks.has_value());
  EXPECT_TRUE(masks_conflict_free(p, *masks));
  EXPECT_TRUE(simulated_free(p, *masks));
  EXPECT_GT(family_size(p), 0u);
}

}  // namespace
}  // namespace swz
