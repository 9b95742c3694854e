// Optimality against exhaustive search: on problems small enough, every
// invertible shared layout is simulated, and no layout beats the solver.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

#include "swz/error.h"
#include "swz/factories.h"
#include "swz/solver.h"

namespace swz {
namespace {

// Every invertible d x d matrix over F2, as its columns (d <= 4: 20160 of them).
std::vector<std::vector<BitVec>> all_invertible(int d) {
  std::vector<std::vector<BitVec>> out;
  std::vector<BitVec> cols;
  auto rec = [&](auto&& self, Subspace span) -> void {
    if (static_cast<int>(cols.size()) == d) {
      out.push_back(cols);
      return;
    }
    for (BitVec v = 1; v < (BitVec{1} << d); ++v) {
      if (span.contains(v)) continue;
      Subspace next = span;
      next.insert(v);
      cols.push_back(v);
      self(self, next);
      cols.pop_back();
    }
  };
  rec(rec, Subspace(d));
  return out;
}

// A random distributed layout of a 4x4 tensor: 2 register and 2 lane bases (zeros allowed).
LinearLayout random_layout(std::mt19937& rng, bool surjective) {
  const std::vector<std::int64_t> shape{4, 4};
  for (;;) {
    std::vector<Coords> reg, lane;
    auto pick = [&] { return Coords{static_cast<std::int64_t>(rng() % 4), static_cast<std::int64_t>(rng() % 4)}; };
    for (int i = 0; i < 2; ++i) reg.push_back(pick());
    for (int i = 0; i < 2; ++i) lane.push_back(pick());
    auto l = distributed(shape, reg, lane);
    if (!surjective || l.is_surjective()) return l;
  }
}

struct Cost {
  int write_conflicts, read_conflicts, vector_bits;
};

Cost cost_of(const Access& a, const Access& b, const SharedLayout& s, int ebits, const BankModel& m) {
  const AccessResult ra = simulate(a, s, ebits, m), rb = simulate(b, s, ebits, m);
  return {ra.conflicts, rb.conflicts, ra.vector.bits + rb.vector.bits};
}

// No layout is conflict-free where the solver is not; when the solver reports
// conflicts, no layout with the same vector widths has fewer for either access.
void check_against_all(const Access& a, const Access& b, int ebits, const BankModel& m, const std::string& what) {
  SCOPED_TRACE(what);
  static const auto layouts = all_invertible(4);
  const SolveResult r = solve(a, b, ebits, m);
  bool any_free = false;
  int best_a = 1 << 20, best_b = 1 << 20;
  for (const auto& cols : layouts) {
    const auto l = LinearLayout({InDim{"offset", cols}}, a.layout.out_dims());
    const SharedLayout s = SharedLayout::from_linear(l, "candidate");
    Cost c;
    try {
      c = cost_of(a, b, s, ebits, m);
    } catch (const Error&) {
      continue;  // a requested vector this layout cannot serve
    }
    any_free = any_free || (c.write_conflicts == 0 && c.read_conflicts == 0);
    best_a = std::min(best_a, c.write_conflicts);
    best_b = std::min(best_b, c.read_conflicts);
  }
  if (any_free) {
    EXPECT_TRUE(r.conflict_free);
  }
  EXPECT_GE(r.write.conflicts, best_a);
  EXPECT_GE(r.read.conflicts, best_b);
  if (!r.conflict_free) {
    // The bound is a real bound: the simulator cannot beat it under the solver's vectors.
    EXPECT_EQ(r.claimed_write_wavefronts, r.bound.write_wavefronts);
    EXPECT_EQ(r.claimed_read_wavefronts, r.bound.read_wavefronts);
  }
}

TEST(SolverExhaustive, RandomSmallProblems32Bit) {
  std::mt19937 rng(7);
  const BankModel toy{4, 4, 4};  // 4 banks, 4 lanes: a 4x4 tile has 2 segment bits
  for (int i = 0; i < 6; ++i) {
    const Access a{random_layout(rng, i % 2 == 0), AccessKind::Store, 0, 0};
    const Access b{random_layout(rng, i % 3 == 0), AccessKind::Load, 0, 0};
    check_against_all(a, b, 32, toy, fmt::format("32-bit case {}", i));
  }
}

TEST(SolverExhaustive, RandomSmallProblemsSubWord) {
  std::mt19937 rng(11);
  const BankModel toy{4, 4, 4};
  for (int i = 0; i < 4; ++i) {
    const Access a{random_layout(rng, true), AccessKind::Store, 0, 0};
    const Access b{random_layout(rng, true), AccessKind::Load, 0, 0};
    check_against_all(a, b, 16, toy, fmt::format("16-bit case {}", i));
  }
}

TEST(SolverExhaustive, RequestedWideVectors) {
  std::mt19937 rng(3);
  const BankModel toy{4, 4, 4};
  int tried = 0;
  for (int i = 0; i < 60 && tried < 4; ++i) {
    Access a{random_layout(rng, true), AccessKind::Store, 0, 0};
    Access b{random_layout(rng, true), AccessKind::Load, 0, 64};
    try {
      (void)solve(a, b, 32, toy);
    } catch (const Error&) {
      continue;  // this reader cannot have 64-bit vectors at all
    }
    ++tried;
    check_against_all(a, b, 32, toy, fmt::format("requested 64-bit reader, case {}", i));
  }
  EXPECT_GT(tried, 0);
}

}  // namespace
}  // namespace swz
