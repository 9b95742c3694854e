// Lemma 9.4 (wavefronts = 2^dim(span(M_Seg) ∩ span(Thr)) per phase) against the
// brute-force simulator: all 2^20 toggle grids of the seed preset, random linear
// layouts of every element width, and Lemma 9.5's bound against brute force.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "swz/sim/analysis.h"
#include "swz/error.h"
#include "swz/algebra/f2.h"
#include "swz/layout/factories.h"
#include "swz/algebra/lemma.h"
#include "swz/problem/problem.h"

namespace {

using swz::Access;
using swz::AccessKind;
using swz::BankModel;
using swz::BitVec;
using swz::Coords;
using swz::LinearLayout;
using swz::SharedLayout;
using swz::Subspace;

// The seed's toggle grid as Triton writes it (offset -> (m, n)): bank bit i -> n_i,
// segment bit j -> m_j ^ C_j. Same layout as swz::toggle_grid, built without a table scan.
SharedLayout seed_grid(const std::array<std::uint32_t, 4>& masks) {
  std::vector<Coords> offset;
  for (std::int64_t i = 0; i < 5; ++i) offset.push_back({0, std::int64_t{1} << i});
  for (std::size_t j = 0; j < 4; ++j) offset.push_back({std::int64_t{1} << j, static_cast<std::int64_t>(masks[j])});
  return SharedLayout::from_linear(
      LinearLayout::from_coordinates({{"offset", offset}, {"block", {}}}, LinearLayout::out_dims_for_shape({16, 32})), "grid");
}

// The seed read by hand: at step r thread t reads (t mod 16, 2r + t/16) at offset
// 32m + (n ^ mask(m)); the worst step's max over banks of distinct words (rows).
int seed_read_by_hand(const std::array<std::uint32_t, 4>& masks) {
  std::array<std::uint32_t, 16> row_mask{};
  for (std::uint32_t m = 0; m < 16; ++m)
    for (int j = 0; j < 4; ++j)
      if ((m >> j) & 1u) row_mask[m] ^= masks[static_cast<std::size_t>(j)];
  // The 32 lanes of a step read 32 different elements, so hits per bank are distinct words.
  int worst = 0;
  for (std::uint32_t r = 0; r < 16; ++r) {
    std::array<int, 32> hits{};
    for (std::uint32_t t = 0; t < 32; ++t) {
      const std::uint32_t m = t % 16, n = 2 * r + t / 16;
      worst = std::max(worst, ++hits[(n ^ row_mask[m]) % 32]);
    }
  }
  return worst;
}

std::array<std::uint32_t, 4> masks_of(std::uint32_t cfg) { return {cfg & 31, (cfg >> 5) & 31, (cfg >> 10) & 31, (cfg >> 15) & 31}; }

// Read wavefronts = 2^(4 - rank of the masks modulo n0); 4-tuples of F2^4 by rank 4..0 number
// 20160, 37800, 7350, 225, 1, times 16 for the masks' n0 components.
const std::map<int, std::int64_t> kSeedHistogram{{1, 322560}, {2, 604800}, {4, 117600}, {8, 3600}, {16, 16}};

TEST(LemmaSweep, AlgebraEqualsBruteForceOnEveryToggleGrid) {
  // All 2^20 grids: 2^dim(span(M_Seg) ∩ span(B_Thr)) with M_Seg = {m_j ^ C_j} and B_Thr the
  // preset read's lane bases, against the bank-by-bank count.
  const swz::Problem p = swz::make_preset("transpose16x32");
  ASSERT_TRUE(p.grid.has_value());
  EXPECT_EQ(p.grid->configs_log2(), 20);
  const LinearLayout& read = p.read.layout;
  const Subspace thr = Subspace::span(read.bases("lane"), read.out_bits());
  EXPECT_EQ(thr, Subspace::span({read.flatten({1, 0}), read.flatten({2, 0}), read.flatten({4, 0}), read.flatten({8, 0}),
                                 read.flatten({0, 1})}, 9));
  std::map<int, std::int64_t> histogram;
  std::int64_t agree = 0, conflict_free = 0, independence_rule_holds = 0;
  for (std::uint32_t cfg = 0; cfg < (1u << 20); ++cfg) {
    const auto masks = masks_of(cfg);
    std::array<BitVec, 4> seg{};
    for (std::size_t j = 0; j < 4; ++j) seg[j] = (BitVec{1} << j) | (BitVec{masks[j]} << 4);  // m_j ^ C_j
    const int predicted = 1 << Subspace::span(seg, 9).intersect(thr).dim();
    const int counted = seed_read_by_hand(masks);
    agree += predicted == counted ? 1 : 0;
    ++histogram[counted];
    conflict_free += counted == 1 ? 1 : 0;
    // Conflict-free iff the four masks together with n0 are linearly independent.
    const std::array<BitVec, 5> family{masks[0], masks[1], masks[2], masks[3], 1};
    independence_rule_holds += (swz::rank(family) == 5) == (counted == 1) ? 1 : 0;
  }
  EXPECT_EQ(agree, std::int64_t{1} << 20);
  EXPECT_EQ(independence_rule_holds, std::int64_t{1} << 20);
  EXPECT_EQ(conflict_free, 322560);  // (32-2)(32-4)(32-8)(32-16)
  EXPECT_EQ(histogram, kSeedHistogram);
}

TEST(LemmaSweep, SimulatorAndPredictOnSampledToggleGrids) {
  // swz::simulate and swz::predict through the library's own types on 6000 grids drawn
  // at random plus all 16 grids of the rarest class (every mask 0 or n0).
  const swz::Problem p = swz::make_preset("transpose16x32");
  std::vector<std::uint32_t> configs;
  std::mt19937 rng(1234);
  for (int i = 0; i < 6000; ++i) configs.push_back(rng() & 0xFFFFFu);
  for (std::uint32_t n0 = 0; n0 < 16; ++n0)
    configs.push_back((n0 & 1) | ((n0 >> 1 & 1) << 5) | ((n0 >> 2 & 1) << 10) | ((n0 >> 3 & 1) << 15));
  std::map<int, int> classes;
  for (std::uint32_t cfg : configs) {
    const auto masks = masks_of(cfg);
    const SharedLayout s = seed_grid(masks);
    const swz::AccessResult read = swz::simulate(p.read, s, 32, p.bank);
    const swz::LemmaResult lemma = swz::predict(p.read, s, 32, p.bank, read.vector.bits);
    const swz::AccessResult store = swz::simulate(p.store, s, 32, p.bank);
    ASSERT_TRUE(lemma.applies);
    ASSERT_EQ(lemma.predicted_wavefronts, read.wavefronts) << cfg;
    ASSERT_EQ(read.wavefronts, seed_read_by_hand(masks)) << cfg;
    ASSERT_EQ(store.wavefronts, 1) << cfg;  // within-row permutations never hurt the store
    ASSERT_EQ(swz::predict(p.store, s, 32, p.bank, store.vector.bits).intersection_dim, 0);
    ++classes[read.wavefronts];
  }
  EXPECT_EQ(classes.size(), 5u);
  EXPECT_EQ(classes[16], 16);
  // The grid built from bases is the toggle-grid factory's layout.
  for (std::uint32_t cfg : {0u, 0x155u, 0x8A3C1u, 0xFFFFFu}) {
    const auto m = masks_of(cfg);
    EXPECT_EQ(seed_grid(m), swz::toggle_grid({16, 32}, {m.begin(), m.end()}));
  }
}

TEST(LemmaSweep, HandCountOnNamedSwizzles) {
  EXPECT_EQ(seed_read_by_hand({0, 0, 0, 0}), 16);
  EXPECT_EQ(seed_read_by_hand({1, 2, 4, 8}), 2);
  EXPECT_EQ(seed_read_by_hand({2, 4, 8, 16}), 1);
}

// -- random linear layouts of every width ------------------------------------------

BitVec random_invertible_column(std::mt19937_64& rng, const Subspace& taken, int width) {
  for (;;) {
    const BitVec v = rng() & swz::low_bits(width);
    if (v != 0 && !taken.contains(v)) return v;
  }
}

// A random linear shared layout of a 2-D tile (a random invertible offset -> coords matrix).
SharedLayout random_shared(std::mt19937_64& rng, const std::vector<std::int64_t>& shape) {
  const auto outs = LinearLayout::out_dims_for_shape(shape);
  int bits = 0;
  for (const auto& o : outs) bits += o.log2_size;
  Subspace taken(bits);
  std::vector<BitVec> cols;
  for (int i = 0; i < bits; ++i) {
    cols.push_back(random_invertible_column(rng, taken, bits));
    taken.insert(cols.back());
  }
  return SharedLayout::from_linear(LinearLayout({swz::InDim{"offset", cols}}, outs), "random");
}

TEST(LemmaRandom, AgreesWithSimulatorForEveryElementWidth) {
  // Random invertible shared layouts and random (possibly broadcasting) lane maps; registers
  // take the shared layout's low offset bits so that vectors of every width are possible.
  std::mt19937_64 rng(20240611);
  const std::vector<std::int64_t> shape{32, 64};
  int checked = 0, merged = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    const SharedLayout s = random_shared(rng, shape);
    const auto& offset_bases = s.linear().bases("offset");
    const int ebits = std::array<int, 5>{4, 8, 16, 32, 64}[iter % 5];
    const int max_vec_log = std::countr_zero(128u / static_cast<unsigned>(ebits));
    const int vec_log = static_cast<int>(rng() % static_cast<std::uint64_t>(max_vec_log + 1));
    std::vector<BitVec> reg(offset_bases.begin(), offset_bases.begin() + vec_log);
    std::vector<BitVec> lane;
    for (int i = 0; i < 5; ++i) {
      const std::uint64_t pick = rng() % 8;
      lane.push_back(pick == 0 ? 0 : rng() & swz::low_bits(11));  // 1 in 8 broadcasts
    }
    // Lanes must start vectors: clear the vector bits of their offsets.
    for (BitVec& l : lane) {
      const std::uint32_t off = s.offset(l);
      const std::uint32_t aligned = off & ~((1u << vec_log) - 1u);
      l = *s.coord_at(aligned);
    }
    const AccessKind kind = rng() % 2 ? AccessKind::Load : AccessKind::Store;
    const Access a{LinearLayout({swz::InDim{"register", reg}, swz::InDim{"lane", lane}}, s.coords().out_dims()), kind, 0,
                   ebits << vec_log};
    const swz::AccessAnalysis an = swz::analyze_access(a, s, ebits, BankModel{});
    ASSERT_TRUE(an.lemma.applies);
    if (an.simulated.merged) {
      ++merged;
      ASSERT_EQ(kind, AccessKind::Load);
      ASSERT_LE(an.simulated.wavefronts, an.lemma.predicted_wavefronts);
      if (!an.agrees()) ASSERT_NE(an.difference.find("upper bound"), std::string::npos) << an.difference;
      continue;
    }
    ASSERT_EQ(an.lemma.predicted_wavefronts, an.simulated.wavefronts)
        << "iter " << iter << " ebits " << ebits << " vec " << (ebits << vec_log) << ": " << an.difference;
    ASSERT_TRUE(an.agrees()) << an.difference;
    ++checked;
  }
  EXPECT_GT(checked, 2500);
  EXPECT_GT(merged, 0);
}

TEST(LemmaRandom, IntersectionBasisNamesTheBadDirections) {
  // For every conflicting random access: each bad direction is a thread direction, and a
  // segment (or within-word) direction; and its dimension is the log2 of the wavefronts.
  std::mt19937_64 rng(7);
  for (int iter = 0; iter < 500; ++iter) {
    const SharedLayout s = random_shared(rng, {16, 32});
    std::vector<BitVec> lane;
    for (int i = 0; i < 5; ++i) lane.push_back(rng() & swz::low_bits(9));
    const Access a{LinearLayout({swz::InDim{"lane", lane}}, s.coords().out_dims()), AccessKind::Load, 0, 32};
    const swz::LemmaResult l = swz::predict(a, s, 32, BankModel{}, 32);
    const Subspace thr = Subspace::span(l.thread_basis, 9);
    const Subspace seg = Subspace::span(l.segment_basis, 9);
    ASSERT_EQ(l.segment_basis.size(), 4u);
    ASSERT_EQ(static_cast<int>(l.intersection_basis.size()), l.intersection_dim);
    ASSERT_EQ(l.wavefronts_per_phase, 1 << l.intersection_dim);
    for (BitVec v : l.intersection_basis) {
      ASSERT_TRUE(thr.contains(v));
      ASSERT_TRUE(seg.contains(v));
    }
    ASSERT_EQ(Subspace::span(l.intersection_basis, 9), thr.intersect(seg));
    ASSERT_EQ(swz::simulate(a, s, 32, BankModel{}).wavefronts, l.predicted_wavefronts);
  }
}

// -- Lemma 9.5 --------------------------------------------------------------------

std::vector<Subspace> subspaces_of(int w) {
  std::map<std::vector<BitVec>, Subspace> found;
  std::vector<Subspace> frontier{Subspace(w)};
  found.emplace(std::vector<BitVec>{}, Subspace(w));
  while (!frontier.empty()) {
    std::vector<Subspace> next;
    for (const Subspace& s : frontier)
      for (BitVec v = 1; v < (BitVec{1} << w); ++v) {
        Subspace t = s;
        if (t.insert(v) && found.emplace(t.basis(), t).second) next.push_back(t);
      }
    frontier = std::move(next);
  }
  std::vector<Subspace> out;
  for (auto& [b, s] : found) out.push_back(s);
  return out;
}

TEST(Lemma95, LargestAvoidingSubspaceMatchesBruteForceInF2To4) {
  const auto subs = subspaces_of(4);
  ASSERT_EQ(subs.size(), 67u);
  for (const Subspace& u : subs)
    for (const Subspace& v : subs) {
      int best = 0;
      for (const Subspace& w : subs)
        if (w.intersect(u).dim() == 0 && w.intersect(v).dim() == 0) best = std::max(best, w.dim());
      ASSERT_EQ(best, swz::max_avoiding_dim(4, u.dim(), v.dim()));
    }
}

TEST(Lemma95, SeedExampleHasZeroSlack) {
  // 9 coordinate bits, both thread spans 5-dimensional: 4 segment bits can avoid both.
  EXPECT_EQ(swz::max_avoiding_dim(9, 5, 5), 4);
  EXPECT_EQ(swz::max_avoiding_dim(4, 5, 2), 0);
}

// -- explanations ---------------------------------------------------------------

TEST(LemmaExplain, SaysWhyItDiffers) {
  swz::LemmaResult l;
  swz::AccessResult r;
  l.applies = false;
  l.reason = "the shared layout is not linear: padding";
  EXPECT_EQ(swz::explain_difference(l, r), l.reason);
  l.applies = true;
  l.vec_bits = 128;
  l.predicted_wavefronts = 4;
  l.phases = 4;
  r.vector.bits = 128;
  r.wavefronts = 4;
  EXPECT_EQ(swz::explain_difference(l, r), "");
  r.wavefronts = 2;
  r.merged = true;
  l.lanes_per_phase = 8;
  EXPECT_NE(swz::explain_difference(l, r).find("the lemma's count is an upper bound here"), std::string::npos);
  EXPECT_NE(swz::explain_difference(l, r).find("phases twice as wide (16 lanes"), std::string::npos);
  r.vector.bits = 64;
  EXPECT_NE(swz::explain_difference(l, r).find("64"), std::string::npos);
}

TEST(LemmaExplain, PaddingIsSimulatedNotPredicted) {
  const swz::Problem p = swz::make_preset("transpose16x32");
  const SharedLayout pad = swz::padded({16, 32}, 1);
  const swz::AccessAnalysis read = swz::analyze_access(p.read, pad, 32, p.bank);
  // offset = 33m + n: bank = (m + n) mod 32, and the read's two columns 2r, 2r+1 overlap in
  // 15 banks: 2 wavefronts. The lemma does not apply and the output says why.
  EXPECT_EQ(read.simulated.wavefronts, 2);
  EXPECT_FALSE(read.lemma.applies);
  EXPECT_FALSE(read.agrees());
  EXPECT_NE(read.difference.find("not linear"), std::string::npos) << read.difference;
  const swz::AccessAnalysis store = swz::analyze_access(p.store, pad, 32, p.bank);
  EXPECT_EQ(store.simulated.wavefronts, 1);
}

}  // namespace
