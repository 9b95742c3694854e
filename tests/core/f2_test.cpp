// F2 algebra: every operation checked against brute force over all vectors of small widths.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "swz/error.h"
#include "swz/algebra/f2.h"

namespace {

using swz::BitMatrix;
using swz::BitVec;
using swz::Subspace;

// The set of all XOR-combinations of `vs`, as a membership mask over the 2^w vectors (w <= 6).
std::uint64_t brute_span(const std::vector<BitVec>& vs) {
  std::uint64_t members = 1;  // the zero vector
  for (BitVec v : vs) {
    std::uint64_t grown = members;
    for (BitVec x = 0; x < 64; ++x)
      if ((members >> x) & 1u) grown |= std::uint64_t{1} << (x ^ v);
    members = grown;
  }
  return members;
}

std::uint64_t members_of(const Subspace& s) {
  std::uint64_t m = 0;
  for (BitVec x : s.elements()) m |= std::uint64_t{1} << x;
  return m;
}

// Every subspace of F2^w (w <= 6), found by closing spans of single vectors under adding a vector.
std::vector<Subspace> all_subspaces(int w) {
  std::map<std::uint64_t, Subspace> found;
  std::vector<Subspace> frontier{Subspace(w)};
  found.emplace(1, Subspace(w));
  while (!frontier.empty()) {
    std::vector<Subspace> next;
    for (const Subspace& s : frontier)
      for (BitVec v = 1; v < (BitVec{1} << w); ++v) {
        Subspace t = s;
        if (!t.insert(v)) continue;
        if (found.emplace(members_of(t), t).second) next.push_back(t);
      }
    frontier = std::move(next);
  }
  std::vector<Subspace> out;
  for (auto& [m, s] : found) out.push_back(s);
  return out;
}

bool is_reduced_echelon(const Subspace& s) {
  const auto& b = s.basis();
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b[i] == 0) return false;
    const int p = std::bit_width(b[i]) - 1;
    if (i > 0 && p >= std::bit_width(b[i - 1]) - 1) return false;  // pivots strictly decreasing
    for (std::size_t j = 0; j < b.size(); ++j)
      if (j != i && ((b[j] >> p) & 1u)) return false;  // pivot column cleared elsewhere
  }
  return true;
}

TEST(F2, LowBitsAndWidthChecks) {
  EXPECT_EQ(swz::low_bits(0), 0u);
  EXPECT_EQ(swz::low_bits(5), 0x1Fu);
  EXPECT_EQ(swz::low_bits(64), ~BitVec{0});
  EXPECT_NO_THROW(swz::check_width(0x1F, 5));
  EXPECT_THROW(swz::check_width(0x20, 5), swz::Error);
  EXPECT_THROW(swz::check_width(0, 65), swz::Error);
  EXPECT_THROW(swz::check_width(0, -1), swz::Error);
  EXPECT_THROW(Subspace(65), swz::Error);
  Subspace s(4);
  EXPECT_THROW(s.insert(0x10), swz::Error);
  EXPECT_THROW(static_cast<void>(s.contains(0x10)), swz::Error);
}

TEST(F2, HeaderWorkedExample) {
  const Subspace s = Subspace::span({0b0110, 0b0011, 0b0101}, 4);
  EXPECT_EQ(s.dim(), 2);
  EXPECT_EQ(s.basis(), (std::vector<BitVec>{0b0101, 0b0011}));
}

TEST(F2, SpanMatchesBruteForceForAllTriplesOfWidth4) {
  // Every family of up to three 4-bit vectors: membership, dimension, canonical basis.
  std::map<std::uint64_t, std::vector<BitVec>> canonical;
  for (BitVec a = 0; a < 16; ++a)
    for (BitVec b = 0; b < 16; ++b)
      for (BitVec c = 0; c < 16; ++c) {
        const std::vector<BitVec> vs{a, b, c};
        const Subspace s = Subspace::span(vs, 4);
        const std::uint64_t want = brute_span(vs);
        ASSERT_EQ(members_of(s), want) << a << " " << b << " " << c;
        ASSERT_EQ(std::uint64_t{1} << s.dim(), static_cast<std::uint64_t>(std::popcount(want)));
        ASSERT_EQ(s.dim(), swz::rank(vs));
        ASSERT_TRUE(is_reduced_echelon(s));
        for (BitVec x = 0; x < 16; ++x) {
          ASSERT_EQ(s.contains(x), ((want >> x) & 1u) != 0);
          ASSERT_EQ(s.reduce(x) == 0, s.contains(x));
        }
        // One subspace, one basis, whatever family produced it.
        auto [it, fresh] = canonical.emplace(want, s.basis());
        if (!fresh) ASSERT_EQ(it->second, s.basis());
      }
  // Every subspace of F2^4 except the whole space is spanned by at most 3 vectors: 1+15+35+15 = 66.
  EXPECT_EQ(canonical.size(), 66u);
}

TEST(F2, NumberOfSubspacesOfWidth5) {
  // Gaussian binomials [5 choose k]_2: 1, 31, 155, 155, 31, 1.
  const auto subs = all_subspaces(5);
  std::vector<int> by_dim(6, 0);
  for (const auto& s : subs) ++by_dim[static_cast<std::size_t>(s.dim())];
  EXPECT_EQ(by_dim, (std::vector<int>{1, 31, 155, 155, 31, 1}));
  EXPECT_EQ(subs.size(), 374u);
}

TEST(F2, IntersectionAndSumMatchBruteForceForAllPairsOfWidth5) {
  const auto subs = all_subspaces(5);
  for (const Subspace& u : subs) {
    const std::uint64_t mu = members_of(u);
    for (const Subspace& v : subs) {
      const std::uint64_t mv = members_of(v);
      const Subspace i = u.intersect(v);
      ASSERT_EQ(members_of(i), mu & mv);
      ASSERT_TRUE(is_reduced_echelon(i));
      const Subspace s = u.sum(v);
      std::vector<BitVec> both = u.basis();
      both.insert(both.end(), v.basis().begin(), v.basis().end());
      ASSERT_EQ(members_of(s), brute_span(both));
      ASSERT_TRUE(is_reduced_echelon(s));
      // dim(U + V) + dim(U ∩ V) = dim U + dim V.
      ASSERT_EQ(s.dim() + i.dim(), u.dim() + v.dim());
      ASSERT_EQ(u.intersect(v), v.intersect(u));
    }
  }
}

TEST(F2, EqualityIsCanonical) {
  EXPECT_EQ(Subspace::span({0b11, 0b01}, 2), Subspace::whole(2));
  EXPECT_EQ(Subspace::span({0b110, 0b011}, 3), Subspace::span({0b101, 0b110}, 3));
  EXPECT_FALSE(Subspace::span({0b110}, 3) == Subspace::span({0b011}, 3));
  EXPECT_FALSE(Subspace::span({1}, 3) == Subspace::span({1}, 4));  // widths differ
}

TEST(F2, ElementsInGrayCodeOrderFromZero) {
  const Subspace s = Subspace::span({0b1000, 0b0110, 0b0001}, 4);
  const auto e = s.elements();
  ASSERT_EQ(e.size(), 8u);
  EXPECT_EQ(e[0], 0u);
  std::set<BitVec> distinct(e.begin(), e.end());
  EXPECT_EQ(distinct.size(), 8u);
  for (std::size_t k = 1; k < e.size(); ++k) {
    const BitVec step = e[k] ^ e[k - 1];
    EXPECT_NE(std::find(s.basis().begin(), s.basis().end(), step), s.basis().end());
  }
  EXPECT_EQ(Subspace(7).elements(), std::vector<BitVec>{0});
  EXPECT_THROW(static_cast<void>(Subspace::whole(25).elements()), swz::Error);
}

TEST(F2, StandardComplementCompletesEverySubspaceOfWidth5) {
  for (const Subspace& s : all_subspaces(5)) {
    const auto c = s.standard_complement();
    ASSERT_EQ(static_cast<int>(c.size()) + s.dim(), 5);
    for (BitVec v : c) ASSERT_EQ(std::popcount(v), 1);
    const Subspace total = s.sum(Subspace::span(c, 5));
    ASSERT_EQ(total, Subspace::whole(5));
    ASSERT_EQ(s.intersect(Subspace::span(c, 5)).dim(), 0);
  }
}

TEST(F2, ExtendBasisKeepsIndependentCandidatesInOrder) {
  const Subspace base = Subspace::span({0b0011}, 4);
  const std::vector<BitVec> cands{0b0001, 0b0010, 0b0100, 0b0101, 0b1000, 0b1111};
  // 0b0010 = 0b0011 ^ 0b0001 is dependent; 0b0101 = 0b0100 ^ 0b0001 too.
  EXPECT_EQ(swz::extend_basis(base, cands), (std::vector<BitVec>{0b0001, 0b0100, 0b1000}));
  EXPECT_TRUE(swz::extend_basis(Subspace::whole(4), cands).empty());
  // For every subspace of F2^4 and every 2 candidates: base + result spans base + candidates.
  for (const Subspace& s : all_subspaces(4))
    for (BitVec a = 0; a < 16; ++a)
      for (BitVec b = 0; b < 16; ++b) {
        const std::vector<BitVec> cs{a, b};
        const auto ext = swz::extend_basis(s, cs);
        ASSERT_EQ(static_cast<int>(ext.size()), s.sum(Subspace::span(cs, 4)).dim() - s.dim());
        ASSERT_EQ(s.sum(Subspace::span(ext, 4)), s.sum(Subspace::span(cs, 4)));
      }
}

TEST(F2, WideVectorsUpTo64Bits) {
  // Vectors of at least 32 bits: the top bits behave like the low ones.
  const BitVec hi = BitVec{1} << 63, mid = BitVec{1} << 40;
  Subspace s = Subspace::span({hi | 1, mid | 1, hi | mid}, 64);
  EXPECT_EQ(s.dim(), 2);
  EXPECT_TRUE(s.contains(hi ^ mid));
  EXPECT_FALSE(s.contains(hi));
  EXPECT_EQ(Subspace::whole(64).dim(), 64);
  EXPECT_EQ(Subspace::whole(64).intersect(s), s);
  EXPECT_EQ(swz::rank(std::vector<BitVec>{hi, hi, mid, 0}), 2);
  BitMatrix m = BitMatrix::identity(64);
  m.set(0, 63, true);
  const auto inv = m.inverse();
  ASSERT_TRUE(inv.has_value());
  EXPECT_EQ((*inv * m), BitMatrix::identity(64));
  EXPECT_EQ(m.apply(hi), hi | 1);
}

// -- matrices ------------------------------------------------------------------

BitMatrix matrix_from_index(int rows, int cols, std::uint64_t index) {
  std::vector<BitVec> c;
  for (int j = 0; j < cols; ++j) c.push_back((index >> (j * rows)) & swz::low_bits(rows));
  return BitMatrix::from_columns(rows, c);
}

TEST(F2Matrix, InverseOfEvery3x3MatrixMatchesBruteForce) {
  int invertible = 0;
  for (std::uint64_t idx = 0; idx < 512; ++idx) {
    const BitMatrix m = matrix_from_index(3, 3, idx);
    std::set<BitVec> image;
    for (BitVec x = 0; x < 8; ++x) image.insert(m.apply(x));
    const bool bijective = image.size() == 8;
    const auto inv = m.inverse();
    ASSERT_EQ(inv.has_value(), bijective) << idx;
    ASSERT_EQ(m.rank() == 3, bijective);
    if (!inv) continue;
    ++invertible;
    for (BitVec x = 0; x < 8; ++x) {
      ASSERT_EQ(inv->apply(m.apply(x)), x);
      ASSERT_EQ(m.apply(inv->apply(x)), x);
    }
    ASSERT_EQ(*inv * m, BitMatrix::identity(3));
    ASSERT_EQ(m * *inv, BitMatrix::identity(3));
  }
  EXPECT_EQ(invertible, 168);  // |GL(3, F2)| = 7 * 6 * 4
}

TEST(F2Matrix, KernelImageAndRankOfEvery3x4Matrix) {
  for (std::uint64_t idx = 0; idx < 4096; ++idx) {
    const BitMatrix m = matrix_from_index(3, 4, idx);
    std::uint64_t ker = 0, img = 0;
    for (BitVec x = 0; x < 16; ++x) {
      if (m.apply(x) == 0) ker |= std::uint64_t{1} << x;
      img |= std::uint64_t{1} << m.apply(x);
    }
    const Subspace k = m.kernel();
    ASSERT_EQ(k.width(), 4);
    ASSERT_EQ(members_of(k), ker) << idx;
    ASSERT_EQ(members_of(m.image()), img);
    ASSERT_EQ(m.rank() + k.dim(), 4);  // rank-nullity
    ASSERT_FALSE(m.inverse().has_value());  // not square
  }
}

TEST(F2Matrix, ProductIsCompositionAndTransposeSwapsCells) {
  for (std::uint64_t a = 0; a < 4096; a += 7)
    for (std::uint64_t b = 0; b < 64; ++b) {
      const BitMatrix ma = matrix_from_index(4, 3, a);  // 4x3
      const BitMatrix mb = matrix_from_index(3, 2, b);  // 3x2
      const BitMatrix p = ma * mb;
      ASSERT_EQ(p.rows(), 4);
      ASSERT_EQ(p.cols(), 2);
      for (BitVec x = 0; x < 4; ++x) ASSERT_EQ(p.apply(x), ma.apply(mb.apply(x)));
    }
  const BitMatrix m = matrix_from_index(3, 4, 0b101'011'110'001);
  const BitMatrix t = m.transpose();
  ASSERT_EQ(t.rows(), 4);
  ASSERT_EQ(t.cols(), 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(m.at(i, j), t.at(j, i));
  EXPECT_EQ(t.transpose(), m);
  EXPECT_THROW(static_cast<void>(m * m), swz::Error);  // 3x4 by 3x4
}

TEST(F2Matrix, ToStringRowsFirst) {
  // Columns e0 -> 0b01, e1 -> 0b11: row 0 = "11", row 1 = "01".
  const BitMatrix m = BitMatrix::from_columns(2, {0b01, 0b11});
  EXPECT_EQ(m.to_string(), "11\n01\n");
  EXPECT_EQ(BitMatrix::identity(3).to_string(), "100\n010\n001\n");
}

TEST(F2Matrix, ChecksSizesAndCells) {
  EXPECT_THROW(BitMatrix::from_columns(2, {0b100}), swz::Error);
  EXPECT_THROW(BitMatrix(65, 1), swz::Error);
  BitMatrix m(2, 2);
  EXPECT_THROW(m.set(2, 0, true), swz::Error);
  EXPECT_THROW(m.set(0, -1, true), swz::Error);
  m.set(1, 0, true);
  EXPECT_TRUE(m.at(1, 0));
  m.set(1, 0, false);
  EXPECT_EQ(m, BitMatrix(2, 2));
  EXPECT_FALSE(BitMatrix(2, 2).inverse().has_value());
  EXPECT_EQ(BitMatrix(0, 0).inverse(), BitMatrix(0, 0));
}

}  // namespace
