// The seed's construction, step by step (seed 000, section 06).
#include <gtest/gtest.h>

#include "swz/solve/solver.h"

namespace swz {
namespace {

std::vector<std::string> named(const LinearLayout& c, const std::vector<BitVec>& vs) {
  std::vector<std::string> out;
  for (BitVec v : vs) out.push_back(c.describe_out(v));
  return out;
}

using Names = std::vector<std::string>;

TEST(SolverSeed, ConstructionStepByStep) {
  const Problem p = make_preset("transpose16x32");
  const SolveResult r = solve(p);
  const LinearLayout& c = p.store.layout;
  EXPECT_TRUE(r.vec.empty());
  EXPECT_EQ(r.vec_bits, 32);
  EXPECT_TRUE(r.split_a.empty());
  EXPECT_TRUE(r.split_b.empty());
  EXPECT_EQ(named(c, r.shared_threads), (Names{"n0"}));
  EXPECT_EQ(named(c, r.only_a), (Names{"n1", "n2", "n3", "n4"}));
  EXPECT_EQ(named(c, r.only_b), (Names{"m0", "m1", "m2", "m3"}));
  EXPECT_EQ(named(c, r.paired), (Names{"m0^n1", "m1^n2", "m2^n3", "m3^n4"}));
  EXPECT_TRUE(r.complement.empty());
  EXPECT_FALSE(r.fallback);
  EXPECT_EQ(named(c, r.bank), (Names{"n0", "n1", "n2", "n3", "n4"}));
  EXPECT_EQ(named(c, r.segment), (Names{"m0^n1", "m1^n2", "m2^n3", "m3^n4"}));
  EXPECT_EQ(masks_of(p, r.offset_bases), (std::vector<std::uint32_t>{2, 4, 8, 16}));
  EXPECT_EQ(r.shared, p.layout_for_masks({2, 4, 8, 16}));
  EXPECT_EQ(r.write.wavefronts, 1);
  EXPECT_EQ(r.read.wavefronts, 1);
  EXPECT_TRUE(r.conflict_free);
  EXPECT_EQ(r.bound.space_dim, 9);
  EXPECT_EQ(r.bound.segment_bits, 4);
  EXPECT_EQ(r.bound.max_avoiding_dim, 4);
}

}  // namespace
}  // namespace swz
