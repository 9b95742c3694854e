// Shared layouts at scale (shared.h): a linear layout past 2^kTableBits elements keeps no table and
// answers from its address function, up to 2^30 elements; row-major and toggle grids are built from
// their bases. Each checked against the enumerating definitions they replace, on small tiles.
#include <gtest/gtest.h>

#include <functional>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/layout/shared.h"
#include "swz/problem/problem.h"
#include "swz/sim/bank.h"

namespace {

using swz::BitVec;
using swz::Coords;
using swz::SharedLayout;

// The definitions as they were: offset by formula, every element enumerated.
SharedLayout enumerated_grid(const std::vector<std::int64_t>& shape, const std::vector<std::uint32_t>& masks) {
  return SharedLayout::from_function(
      shape,
      [&](const Coords& c) {
        std::uint64_t mask = 0;
        for (std::size_t j = 0; j < masks.size(); ++j)
          if ((c[0] >> j) & 1) mask ^= masks[j];
        return static_cast<std::uint64_t>(c[0]) * static_cast<std::uint64_t>(shape[1]) + (static_cast<std::uint64_t>(c[1]) ^ mask);
      },
      "enumerated");
}

void expect_same_map(const SharedLayout& a, const SharedLayout& b) {
  ASSERT_EQ(a.shape(), b.shape());
  ASSERT_EQ(a.extent(), b.extent());
  for (BitVec f = 0; f < static_cast<BitVec>(a.elements()); ++f) ASSERT_EQ(a.offset(f), b.offset(f)) << f;
  for (std::uint64_t off = 0; off < a.extent(); ++off) ASSERT_EQ(a.coord_at(off), b.coord_at(off)) << off;
  EXPECT_TRUE(a == b);
}

TEST(SharedScale, RowMajorAndGridsFromBasesEqualTheEnumeratedOnes) {
  expect_same_map(swz::row_major({16, 32}), enumerated_grid({16, 32}, {}));
  expect_same_map(swz::row_major({8, 4, 16}), SharedLayout::from_function({8, 4, 16}, [](const Coords& c) {
                    return static_cast<std::uint64_t>((c[0] * 4 + c[1]) * 16 + c[2]);
                  }, "enumerated"));
  expect_same_map(swz::column_major({16, 32}), SharedLayout::from_function({16, 32}, [](const Coords& c) {
                    return static_cast<std::uint64_t>(c[1] * 16 + c[0]);
                  }, "enumerated"));
  for (const auto& masks : std::vector<std::vector<std::uint32_t>>{{1, 2, 4, 8}, {2, 4, 8, 16}, {31, 0, 5}, {}})
    expect_same_map(swz::toggle_grid({16, 32}, masks), enumerated_grid({16, 32}, masks));
  expect_same_map(swz::toggle_grid({64, 128}, {8, 16, 32, 64, 72, 120}), enumerated_grid({64, 128}, {8, 16, 32, 64, 72, 120}));
}

// Past 2^kTableBits: no table, the same offsets (checked on a spread of elements against the formula).
TEST(SharedScale, LargeLinearLayoutsKeepNoTable) {
  const std::vector<std::uint32_t> masks{8, 16, 32, 64, 128, 256, 512, 1024};
  const SharedLayout big = swz::toggle_grid({4096, 4096}, masks);
  EXPECT_FALSE(big.has_table());
  EXPECT_TRUE(big.is_linear());
  EXPECT_EQ(big.extent(), std::uint64_t{1} << 24);
  for (BitVec f = 0; f < (BitVec{1} << 24); f += 40961) {
    const std::uint64_t m = f & 4095, n = f >> 12;  // flat: dim0 lowest
    std::uint64_t mask = 0;
    for (std::size_t j = 0; j < masks.size(); ++j)
      if ((m >> j) & 1) mask ^= masks[j];
    ASSERT_EQ(big.offset(f), m * 4096 + (n ^ mask)) << f;
    ASSERT_EQ(big.coord_at(big.offset(f)), f);
  }
  EXPECT_EQ(big.coord_at(std::uint64_t{1} << 24), std::nullopt);
  // 2^30 elements are accepted, 2^31 refused by name.
  const SharedLayout largest = swz::row_major({32768, 32768});
  EXPECT_EQ(largest.offset(BitVec{1} << 15), 1u);  // element (0, 1)
  EXPECT_THROW(swz::row_major({65536, 32768}), swz::Error);
  // A table is built on demand up to 2^24 elements, and refused past it.
  const SharedLayout wide = swz::toggle_grid({2048, 1024}, {8, 16, 32});
  ASSERT_FALSE(wide.has_table());
  EXPECT_EQ(wide.offsets().size(), std::size_t{1} << 21);
  for (BitVec f = 0; f < (BitVec{1} << 21); f += 4099) ASSERT_EQ(wide.offsets()[f], wide.offset(f));
  EXPECT_THROW((void)largest.offsets(), swz::Error);
}

// choose_vector on a linear layout reads the bases; the enumerating definition (every group of
// 2^k registers on 2^k aligned consecutive offsets, for every lane and warp) gives the same width.
TEST(SharedScale, VectorWidthByBasesEqualsTheEnumeration) {
  int compared = 0;
  for (const auto& info : swz::list_presets()) {
    swz::Problem p = swz::make_preset(info.name);
    for (const auto& v : p.variants) {
      swz::Problem q = p;
      q.apply_variant(v.name);
      if (!q.shared.is_linear()) continue;
      for (const swz::Access* a : {&q.store, &q.read}) {
        if (a->ldmatrix || a->vec_bits) continue;
        swz::Access plain = *a;
        const swz::VectorChoice c = swz::choose_vector(plain, q.shared, q.element_bits, q.bank);
        auto valid = [&](int k) {
          const int regs = plain.layout.in_dim_bits("register");
          if (k > regs) return false;
          for (int i = 0; i < k; ++i)
            if (plain.layout.bases("register")[static_cast<std::size_t>(i)] == 0) return false;
          const std::uint32_t width = 1u << k;
          for (BitVec x = 0; x < (BitVec{1} << plain.layout.in_bits()); x += width) {
            const std::uint32_t base = q.shared.offset(plain.layout.apply_flat(x));
            if (base % width) return false;
            for (BitVec j = 1; j < width; ++j)
              if (q.shared.offset(plain.layout.apply_flat(x | j)) != base + j) return false;
          }
          return true;
        };
        int k = 0;
        while ((1 << (k + 1)) * q.element_bits <= 128 && valid(k + 1)) ++k;
        EXPECT_EQ(c.elements, 1 << k) << info.name << " " << v.name;
        ++compared;
      }
    }
  }
  EXPECT_GE(compared, 16);  // every preset side that picks its own width on a linear layout
}

}  // namespace
