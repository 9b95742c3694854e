// Linear layouts: construction checks, apply, compose, invert, flatten, printing.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/layout/layout.h"

#include "test_support.h"

namespace {

using swz::BitVec;
using swz::InDim;
using swz::LinearLayout;
using swz::OutDim;

// A 4-bit layout: register (2 bits) and lane (2 bits) onto dim0 (size 4) x dim1 (size 4),
// its matrix given by 16 bits (column j = bits 4j..4j+3).
LinearLayout square_layout(std::uint32_t index) {
  std::vector<BitVec> c;
  for (int j = 0; j < 4; ++j) c.push_back((index >> (4 * j)) & 0xF);
  return LinearLayout({InDim{"register", {c[0], c[1]}}, InDim{"lane", {c[2], c[3]}}}, {OutDim{"dim0", 2}, OutDim{"dim1", 2}});
}

using swz::test::error_of;

TEST(Layout, SeedReadExampleFromTheHeader) {
  // Lane bases (1,0) (2,0) (4,0) (8,0) (0,1); registers (0,2) (0,4) (0,8) (0,16).
  const LinearLayout b = swz::distributed({16, 32}, {{0, 2}, {0, 4}, {0, 8}, {0, 16}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}});
  EXPECT_EQ(b.coords_of(b.apply("lane", 17)), (swz::Coords{1, 1}));
  // Thread t at step r reads (t mod 16, 2r + t/16), for every t and r.
  for (std::uint64_t r = 0; r < 16; ++r)
    for (std::uint64_t t = 0; t < 32; ++t) {
      const BitVec out = b.apply({{"register", r}, {"lane", t}});
      ASSERT_EQ(b.coords_of(out), (swz::Coords{static_cast<std::int64_t>(t % 16), static_cast<std::int64_t>(2 * r + t / 16)}));
    }
  EXPECT_EQ(b.in_bits(), 9);
  EXPECT_EQ(b.out_bits(), 9);
  EXPECT_EQ(b.rank(), 2);
  EXPECT_EQ(b.shape(), (std::vector<std::int64_t>{16, 32}));
  EXPECT_EQ(b.out_size(), 512);
  EXPECT_EQ(b.in_dim_bits("register"), 4);
  EXPECT_EQ(b.in_dim_bits("lane"), 5);
  EXPECT_EQ(b.in_dim_bits("warp"), 0);
  EXPECT_EQ(b.in_offset("lane"), 4);
  EXPECT_EQ(b.out_offset(1), 4);
  EXPECT_TRUE(b.is_invertible());
}

TEST(Layout, ApplyIsXorOfBasesForEveryInput) {
  const LinearLayout l = square_layout(0x9C35);
  for (BitVec x = 0; x < 16; ++x) {
    BitVec want = 0;
    const auto cols = l.matrix().columns();
    for (int j = 0; j < 4; ++j)
      if ((x >> j) & 1u) want ^= cols[static_cast<std::size_t>(j)];
    ASSERT_EQ(l.apply_flat(x), want);
    ASSERT_EQ(l.apply({{"register", x & 3}, {"lane", x >> 2}}), want);
    for (BitVec y = 0; y < 16; ++y) ASSERT_EQ(l.apply_flat(x ^ y), l.apply_flat(x) ^ l.apply_flat(y));
  }
  EXPECT_THROW(static_cast<void>(l.apply({{"lane", 4}})), swz::Error);   // out of range
  EXPECT_THROW(static_cast<void>(l.apply({{"warp", 1}})), swz::Error);   // no such dim
  EXPECT_EQ(l.apply({{"warp", 0}}), 0u);
}

TEST(Layout, InvertRoundTripsForEveryInvertible4BitLayout) {
  int invertible = 0;
  for (std::uint32_t idx = 0; idx < 65536; ++idx) {
    const LinearLayout l = square_layout(idx);
    if (!l.is_invertible()) {
      ASSERT_THROW(static_cast<void>(l.invert()), swz::Error);
      continue;
    }
    ++invertible;
    const LinearLayout inv = l.invert();
    ASSERT_EQ(inv.in_dims()[0].name, "dim0");
    ASSERT_EQ(inv.in_dims()[1].name, "dim1");
    ASSERT_EQ(inv.out_dims()[0], (OutDim{"register", 2}));
    ASSERT_EQ(inv.out_dims()[1], (OutDim{"lane", 2}));
    const LinearLayout there_and_back = l.compose(inv);  // register, lane -> register, lane
    const LinearLayout back_and_there = inv.compose(l);  // dim0, dim1 -> dim0, dim1
    for (BitVec x = 0; x < 16; ++x) {
      ASSERT_EQ(there_and_back.apply_flat(x), x);
      ASSERT_EQ(back_and_there.apply_flat(x), x);
      ASSERT_EQ(inv.apply_flat(l.apply_flat(x)), x);
    }
    ASSERT_EQ(inv.invert(), l);
  }
  EXPECT_EQ(invertible, 20160);  // |GL(4, F2)|
}

TEST(Layout, ComposeAppliesInnerThenOuter) {
  // inner: register (3 bits) -> dim0 (4) x dim1 (2); outer: dim0, dim1 -> x (16).
  const std::vector<OutDim> mid{{"dim0", 2}, {"dim1", 1}};
  for (std::uint32_t a = 0; a < 512; a += 3)
    for (std::uint32_t b = 0; b < 4096; b += 37) {
      const LinearLayout inner({InDim{"register", {a & 7, (a >> 3) & 7, (a >> 6) & 7}}}, mid);
      const LinearLayout outer({InDim{"dim0", {b & 15, (b >> 4) & 15}}, InDim{"dim1", {(b >> 8) & 15}}}, {OutDim{"x", 4}});
      const LinearLayout c = inner.compose(outer);
      ASSERT_EQ(c.in_dims()[0].name, "register");
      ASSERT_EQ(c.out_dims(), outer.out_dims());
      for (BitVec x = 0; x < 8; ++x) ASSERT_EQ(c.apply_flat(x), outer.apply_flat(inner.apply_flat(x)));
      // Composition is matrix product.
      ASSERT_EQ(c.matrix(), outer.matrix() * inner.matrix());
    }
}

TEST(Layout, ComposeRejectsMismatchedDims) {
  const LinearLayout a({InDim{"register", {1, 2}}}, {OutDim{"dim0", 2}});
  const LinearLayout wrong_name({InDim{"dim1", {1, 2}}}, {OutDim{"x", 2}});
  const LinearLayout wrong_size({InDim{"dim0", {1}}}, {OutDim{"x", 1}});
  EXPECT_NE(error_of([&] { static_cast<void>(a.compose(wrong_name)); }).find("cannot compose"), std::string::npos);
  EXPECT_NE(error_of([&] { static_cast<void>(a.compose(wrong_size)); }).find("cannot compose"), std::string::npos);
}

TEST(Layout, InvertErrorsSayWhy) {
  const LinearLayout more_in({InDim{"offset", {1, 2, 0}}}, {OutDim{"dim0", 2}});
  EXPECT_NE(error_of([&] { static_cast<void>(more_in.invert()); }).find("not invertible"), std::string::npos);
  // The message names two inputs with the same image, each an XOR of input bits.
  const LinearLayout singular({InDim{"offset", {1, 1}}}, {OutDim{"dim0", 2}});
  EXPECT_EQ(error_of([&] { static_cast<void>(singular.invert()); }), "layout is not invertible: inputs o0 and o1 map to the same point");
  const LinearLayout three({InDim{"register", {1, 2}}, InDim{"lane", {3, 4}}}, {OutDim{"dim0", 2}, OutDim{"dim1", 2}});
  EXPECT_EQ(error_of([&] { static_cast<void>(three.invert()); }), "layout is not invertible: inputs r0 and r1^t0 map to the same point");
  const LinearLayout zero({InDim{"lane", {0, 1}}}, {OutDim{"dim0", 1}, OutDim{"dim1", 1}});
  EXPECT_EQ(error_of([&] { static_cast<void>(zero.invert()); }), "layout is not invertible: input t0 maps to the same point as input 0");
  // And it is true: the named inputs do collide.
  EXPECT_EQ(three.apply({{"register", 1}}), three.apply({{"register", 2}, {"lane", 1}}));
}

TEST(Layout, ConstructionChecks) {
  EXPECT_THROW(LinearLayout({InDim{"register", {4}}}, {OutDim{"dim0", 2}}), swz::Error);  // basis outside
  EXPECT_THROW(LinearLayout({InDim{"lane", {1}}, InDim{"lane", {1}}}, {OutDim{"dim0", 1}}), swz::Error);
  EXPECT_THROW(LinearLayout({}, {OutDim{"dim0", 1}, OutDim{"dim0", 1}}), swz::Error);
  EXPECT_THROW(LinearLayout({}, {OutDim{"", 1}}), swz::Error);
  EXPECT_THROW(LinearLayout({InDim{"", {}}}, {OutDim{"dim0", 1}}), swz::Error);
  EXPECT_THROW(LinearLayout({}, {OutDim{"dim0", -1}}), swz::Error);
  EXPECT_THROW(LinearLayout({}, {OutDim{"dim0", 31}}), swz::Error);
  EXPECT_THROW(LinearLayout({}, {OutDim{"dim0", 30}, OutDim{"dim1", 30}}), swz::Error);  // 60 output bits
  // Zero bases are allowed: broadcast.
  EXPECT_NO_THROW(LinearLayout({InDim{"lane", {0, 1}}}, {OutDim{"dim0", 1}}));
}

TEST(Layout, ShapesMustBePowersOfTwo) {
  EXPECT_EQ(LinearLayout::out_dims_for_shape({16, 32}), (std::vector<OutDim>{{"dim0", 4}, {"dim1", 5}}));
  EXPECT_EQ(LinearLayout::out_dims_for_shape({1}), (std::vector<OutDim>{{"dim0", 0}}));
  for (std::int64_t bad : {0LL, -4LL, 3LL, 6LL, 24LL, 1000LL}) {
    const std::string msg = error_of([&] { static_cast<void>(LinearLayout::out_dims_for_shape({16, bad})); });
    EXPECT_NE(msg.find("power"), std::string::npos) << bad << ": " << msg;
  }
  EXPECT_THROW(static_cast<void>(LinearLayout::out_dims_for_shape({})), swz::Error);
  EXPECT_THROW(static_cast<void>(LinearLayout::out_dims_for_shape({std::int64_t{1} << 31})), swz::Error);
}

TEST(Layout, FromCoordinatesChecksEveryBasis) {
  const auto outs = LinearLayout::out_dims_for_shape({4, 8});
  const LinearLayout ok = LinearLayout::from_coordinates({{"offset", {{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}}}}, outs);
  EXPECT_EQ(ok.bases("offset"), (std::vector<BitVec>{4, 8, 16, 1, 2}));  // dim0 is the low flat bits
  const std::string wrong_rank = error_of([&] { LinearLayout::from_coordinates({{"offset", {{0, 1, 0}}}}, outs); });
  EXPECT_NE(wrong_rank.find("3 coordinates"), std::string::npos) << wrong_rank;
  const std::string out_of_range = error_of([&] { LinearLayout::from_coordinates({{"offset", {{0, 8}}}}, outs); });
  EXPECT_NE(out_of_range.find("outside 0..7"), std::string::npos) << out_of_range;
  EXPECT_THROW(LinearLayout::from_coordinates({{"offset", {{-1, 0}}}}, outs), swz::Error);
}

TEST(Layout, FlattenUnflattenRoundTrip) {
  const LinearLayout l({}, LinearLayout::out_dims_for_shape({4, 8, 2}));
  for (std::int64_t a = 0; a < 4; ++a)
    for (std::int64_t b = 0; b < 8; ++b)
      for (std::int64_t c = 0; c < 2; ++c) {
        const BitVec f = l.flatten({a, b, c});
        ASSERT_EQ(f, static_cast<BitVec>(a | (b << 2) | (c << 5)));
        ASSERT_EQ(l.unflatten(f), (swz::Coords{a, b, c}));
      }
  EXPECT_THROW(static_cast<void>(l.flatten({4, 0, 0})), swz::Error);
  EXPECT_THROW(static_cast<void>(l.flatten({0, 0})), swz::Error);
}

TEST(Layout, FlattenInsAndOuts) {
  const LinearLayout l = square_layout(0x8421 ^ 0x0300);
  const LinearLayout fi = l.flatten_ins("all");
  ASSERT_EQ(fi.in_dims().size(), 1u);
  EXPECT_EQ(fi.in_dim_bits("all"), 4);
  const LinearLayout fo = l.flatten_outs("flat");
  EXPECT_EQ(fo.out_dims(), (std::vector<OutDim>{{"flat", 4}}));
  for (BitVec x = 0; x < 16; ++x) {
    EXPECT_EQ(fi.apply_flat(x), l.apply_flat(x));
    EXPECT_EQ(fo.apply_flat(x), l.apply_flat(x));
  }
  const LinearLayout w = l.with_in_dim("warp", {1});
  EXPECT_EQ(w.in_dim_bits("warp"), 1);
  EXPECT_EQ(w.apply("warp", 1), 1u);
  EXPECT_EQ(l.with_in_dim("lane", {}).in_dim_bits("lane"), 0);
}

TEST(Layout, EqualityComparesBasesAndNames) {
  EXPECT_EQ(square_layout(0x8421), square_layout(0x8421));
  EXPECT_FALSE(square_layout(0x8421) == square_layout(0x8412));
  const LinearLayout renamed({InDim{"register", {1, 2}}, InDim{"warp", {4, 8}}}, {OutDim{"dim0", 2}, OutDim{"dim1", 2}});
  EXPECT_FALSE(square_layout(0x8421) == renamed);
}

TEST(Layout, ImageInjectiveSurjective) {
  const LinearLayout bcast({InDim{"lane", {1, 0, 2}}}, {OutDim{"dim0", 2}});
  EXPECT_FALSE(bcast.is_injective());
  EXPECT_TRUE(bcast.is_surjective());
  EXPECT_FALSE(bcast.is_invertible());
  EXPECT_EQ(bcast.image().dim(), 2);
  const LinearLayout partial({InDim{"lane", {1}}}, {OutDim{"dim0", 2}});
  EXPECT_TRUE(partial.is_injective());
  EXPECT_FALSE(partial.is_surjective());
  EXPECT_EQ(partial.image_of("lane"), swz::Subspace::span({1}, 2));
  EXPECT_EQ(partial.image_of("register").dim(), 0);
}

TEST(Layout, BitNamesAndDescriptions) {
  const LinearLayout b = swz::distributed({16, 32}, {{0, 2}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}});
  EXPECT_EQ(b.out_bit_name(0), "m0");
  EXPECT_EQ(b.out_bit_name(4), "n0");
  EXPECT_EQ(b.out_bit_name(8), "n4");
  EXPECT_EQ(b.in_bit_name(0), "r0");
  EXPECT_EQ(b.in_bit_name(1), "t0");
  EXPECT_EQ(b.in_bit_name(5), "t4");
  EXPECT_EQ(b.describe_out(0), "0");
  EXPECT_EQ(b.describe_out(b.flatten({1, 2})), "m0^n1");
  EXPECT_EQ(b.format_coords(b.flatten({3, 17})), "(3, 17)");
  const LinearLayout one({}, {OutDim{"dim0", 3}});
  EXPECT_EQ(one.out_bit_name(2), "x2");
  const LinearLayout three({}, LinearLayout::out_dims_for_shape({2, 2, 2}));
  EXPECT_EQ(three.out_bit_name(2), "d2_0");
  EXPECT_EQ(swz::in_dim_short_name("offset"), "o");
  EXPECT_EQ(swz::in_dim_short_name("warp"), "w");
  EXPECT_EQ(swz::in_dim_short_name("block"), "b");
}

TEST(Layout, ToStringTritonText) {
  const LinearLayout b = swz::distributed({16, 32}, {{0, 2}, {0, 4}}, {{1, 0}, {0, 1}});
  EXPECT_EQ(b.to_string(),
            " - register=1 -> (0, 2)\n"
            " - register=2 -> (0, 4)\n"
            " - lane=1 -> (1, 0)\n"
            " - lane=2 -> (0, 1)\n"
            " - warp is a size 1 dimension\n"
            " - block is a size 1 dimension\n"
            "where out dims are: [dim0 (size 16), dim1 (size 32)]");
}

}  // namespace
