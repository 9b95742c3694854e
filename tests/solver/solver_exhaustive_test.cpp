// Optimality against exhaustive search: on problems small enough, every
// invertible shared layout is simulated under every register numbering and
// vector width, and none costs fewer wavefronts than the solver's answer.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/solve/solver.h"

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

// A random distributed layout of a 4x4 tensor: 2 register and 2 lane bases,
// a bijection (the solver takes nothing else).
LinearLayout random_layout(std::mt19937& rng) {
  const std::vector<std::int64_t> shape{4, 4};
  for (;;) {
    std::vector<Coords> reg, lane;
    auto pick = [&] { return Coords{static_cast<std::int64_t>(rng() % 4), static_cast<std::int64_t>(rng() % 4)}; };
    for (int i = 0; i < 2; ++i) reg.push_back(pick());
    for (int i = 0; i < 2; ++i) lane.push_back(pick());
    auto l = distributed(shape, reg, lane);
    if (l.is_surjective()) return l;
  }
}

// Every way a kernel can number two registers: the six invertible 2x2 maps.
std::vector<Access> renumberings(const Access& x) {
  const auto regs = x.layout.bases("register");
  std::vector<Access> out;
  const BitVec r0 = regs[0], r1 = regs[1];
  for (auto [p, q] : std::vector<std::pair<BitVec, BitVec>>{
           {r0, r1}, {r1, r0}, {r0, r0 ^ r1}, {r0 ^ r1, r0}, {r1, r0 ^ r1}, {r0 ^ r1, r1}}) {
    Access y = x;
    y.layout = x.layout.with_in_dim("register", {p, q});
    out.push_back(y);
  }
  return out;
}

// The cheapest a layout can be used: over every register numbering and every
// vector width, total wavefronts of both sides (instructions x wavefronts).
std::int64_t best_cost(const Access& a, const Access& b, const SharedLayout& s, int ebits, const BankModel& m) {
  auto side = [&](const Access& x) {
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    for (const Access& y : renumberings(x)) {
      Access free = y;
      free.vec_bits = 0;
      const int widest = choose_vector(free, s, ebits, m).bits;  // every narrower width works too
      for (int bits = ebits; bits <= widest; bits *= 2) {
        if (x.vec_bits && bits != x.vec_bits) continue;
        Access z = y;
        z.vec_bits = bits;
        best = std::min(best, simulate(z, s, ebits, m).total_wavefronts);
      }
    }
    return best;
  };
  const std::int64_t ca = side(a), cb = side(b);
  if (ca == std::numeric_limits<std::int64_t>::max() || cb == std::numeric_limits<std::int64_t>::max())
    return std::numeric_limits<std::int64_t>::max();
  return ca + cb;
}

// No invertible layout, used with any register numbering and vector widths,
// costs fewer total wavefronts than the solver's answer; and the answer's own
// cost is what the simulator counts on the accesses the solver issues.
void check_against_all(const Access& a, const Access& b, int ebits, const BankModel& m, const std::string& what) {
  SCOPED_TRACE(what);
  static const auto layouts = all_invertible(4);
  const SolveResult r = solve(a, b, ebits, m);
  const std::int64_t ours = r.write.total_wavefronts + r.read.total_wavefronts;
  EXPECT_EQ(ours, r.write_cost.total_wavefronts + r.read_cost.total_wavefronts);
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  for (const auto& cols : layouts) {
    const auto l = LinearLayout({InDim{"offset", cols}}, a.layout.out_dims());
    best = std::min(best, best_cost(a, b, SharedLayout::from_linear(l, "candidate"), ebits, m));
  }
  EXPECT_EQ(ours, best) << "the best layout costs " << best << " wavefronts, the solver's " << ours;
  if (!r.conflict_free) {
    // The bound is a real bound: the simulator cannot beat it under the solver's vectors.
    EXPECT_EQ(r.claimed_write_wavefronts, r.bound.write_wavefronts);
    EXPECT_EQ(r.claimed_read_wavefronts, r.bound.read_wavefronts);
  }
}

// Every layout of a case is priced, so under the sanitizers (SWZ_SANITIZED_BUILD) the random
// problems are the first third of the plain build's, drawn from the same seeds.
#ifdef SWZ_SANITIZED_BUILD
constexpr int kCaseShare = 3;
#else
constexpr int kCaseShare = 1;
#endif

TEST(SolverExhaustive, RandomSmallProblems32Bit) {
  std::mt19937 rng(7);
  const BankModel toy{4, 4, 4};  // 4 banks, 4 lanes: a 4x4 tile has 2 segment bits
  for (int i = 0; i < 12 / kCaseShare; ++i) {
    const Access a{random_layout(rng), AccessKind::Store, 0, 0};
    const Access b{random_layout(rng), AccessKind::Load, 0, 0};
    check_against_all(a, b, 32, toy, fmt::format("32-bit case {}", i));
  }
}

TEST(SolverExhaustive, RandomSmallProblemsSubWord) {
  std::mt19937 rng(11);
  const BankModel toy{4, 4, 4};
  for (int i = 0; i < 8 / kCaseShare; ++i) {
    const Access a{random_layout(rng), AccessKind::Store, 0, 0};
    const Access b{random_layout(rng), AccessKind::Load, 0, 0};
    check_against_all(a, b, 16, toy, fmt::format("16-bit case {}", i));
  }
}

TEST(SolverExhaustive, RequestedWideVectors) {
  std::mt19937 rng(3);
  const BankModel toy{4, 4, 4};
  int tried = 0;
  for (int i = 0; i < 60 && tried < 4; ++i) {
    Access a{random_layout(rng), AccessKind::Store, 0, 0};
    Access b{random_layout(rng), AccessKind::Load, 0, 64};
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
