// The solver's command path at scale: a problem up to 2^30 elements is built (row-major start, toggle
// grid, vector widths) and solved from bases alone, and gives the answer the enumerating path gives
// on a small tile of the same shape of access.
#include <gtest/gtest.h>

#include "swz/layout/factories.h"
#include "swz/problem/problem_spec.h"
#include "swz/solve/solver.h"

namespace {

// An NxN fp16 transpose, 8 warps: each lane of the writer holds an 8x8 block, row by row (8
// elements of a row first: 128-bit rows), 32 lanes along the rows, warps down them; the reader
// the same transposed.
swz::LinearLayout side(int n_bits, bool transposed) {
  std::vector<swz::Coords> along, down;
  for (int i = 0; i < n_bits; ++i) {
    along.push_back({0, std::int64_t{1} << i});
    down.push_back({std::int64_t{1} << i, 0});
  }
  if (transposed) std::swap(along, down);  // the reader's rows are the writer's columns
  std::vector<swz::Coords> reg(along.begin(), along.begin() + 3), lane(along.begin() + 3, along.begin() + 8);
  std::vector<swz::Coords> warp(down.begin() + 3, down.begin() + 6);
  reg.insert(reg.end(), down.begin(), down.begin() + 3);  // an 8x8 block per lane: rows for one side, columns for the other
  reg.insert(reg.end(), along.begin() + 8, along.end());
  reg.insert(reg.end(), down.begin() + 6, down.end());
  const std::int64_t n = std::int64_t{1} << n_bits;
  return swz::distributed({n, n}, reg, lane, warp);
}

swz::Problem transpose(int n_bits) {
  swz::ProblemSpec spec;
  spec.preset = "";
  spec.element_bits = 16;
  spec.writer = swz::SpecLayout{side(n_bits, false), "writer"};
  spec.reader = swz::SpecLayout{side(n_bits, true), "reader"};
  return swz::build_problem(spec);
}

TEST(SolverScale, LargeTransposesGiveTheSmallTilesAnswer) {
  const swz::Problem small = transpose(8);  // 256x256: checked in full, every instruction simulated
  const swz::SolveResult base = swz::solve(small);
  ASSERT_FALSE(base.sampled);
  ASSERT_TRUE(base.conflict_free);
  for (int n_bits : {12, 14, 15}) {  // 2^24, 2^28 and 2^30 elements
    SCOPED_TRACE(n_bits);
    const swz::Problem p = transpose(n_bits);
    ASSERT_TRUE(p.grid);  // the toggle grid of a row-major start, built from bases
    EXPECT_EQ(p.shared.elements(), std::int64_t{1} << (2 * n_bits));
    EXPECT_FALSE(p.shared.has_table());
    // The vector widths of the row-major start, read from bases: 128-bit rows for the writer, scalar columns for the reader.
    EXPECT_EQ(swz::choose_vector(p.store, p.shared, 16, p.bank).bits, 128);
    EXPECT_EQ(swz::choose_vector(p.read, p.shared, 16, p.bank).bits, 16);
    const swz::SolveResult r = swz::solve(p);
    EXPECT_TRUE(r.sampled);
    EXPECT_TRUE(r.conflict_free);
    for (const auto& [big, ref] : {std::pair{&r.write_cost, &base.write_cost}, std::pair{&r.read_cost, &base.read_cost}}) {
      EXPECT_EQ(big->instruction, ref->instruction);
      EXPECT_EQ(big->vec_bits, ref->vec_bits);
      EXPECT_EQ(big->wavefronts, ref->wavefronts);
      EXPECT_EQ(big->ideal_wavefronts, ref->ideal_wavefronts);
      // Instructions scale with the elements: as many per element as on the small tile.
      EXPECT_EQ(big->instructions, ref->instructions << (2 * (n_bits - 8)));
    }
    EXPECT_EQ(r.write.wavefronts, base.write.wavefronts);
    EXPECT_EQ(r.read.wavefronts, base.read.wavefronts);
  }
}

}  // namespace
