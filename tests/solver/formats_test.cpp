// Text formats: exact Triton text, round trips through every format, CuTe
// against the factories, and one test per bad-input class.
#include "swz/io/formats.h"

#include <gtest/gtest.h>

#include <set>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/layout/recognize.h"
#include "swz/solve/solver.h"

namespace swz {
namespace {

TEST(Formats, TritonTextIsTritonsToString) {
  const Problem p = make_preset("transpose16x32");
  EXPECT_EQ(to_triton_text(p.read.layout),
            " - register=1 -> (0, 2)\n"
            "   register=2 -> (0, 4)\n"
            "   register=4 -> (0, 8)\n"
            "   register=8 -> (0, 16)\n"
            " - lane=1 -> (1, 0)\n"
            "   lane=2 -> (2, 0)\n"
            "   lane=4 -> (4, 0)\n"
            "   lane=8 -> (8, 0)\n"
            "   lane=16 -> (0, 1)\n"
            " - warp is a size 1 dimension\n"
            " - block is a size 1 dimension\n"
            "where out dims are: [dim0 (size 16), dim1 (size 32)]\n");
  // Triton's own output starts with a newline and has no trailing one; both parse.
  const LayoutFile f = parse_layout_text("\n" + to_triton_text(p.read.layout));
  EXPECT_EQ(f.kind, LayoutKind::Distributed);
  EXPECT_EQ(f.layout, p.read.layout);
}

TEST(Formats, MlirAttributes) {
  const LayoutFile d = parse_layout_text(
      "#ttg.linear<{register = [[1, 0], [2, 0], [4, 0], [8, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [], "
      "block = []}>");
  EXPECT_EQ(d.layout, make_preset("transpose16x32").store.layout);
  const LayoutFile s = parse_layout_text("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]]}, alignment = 16>");
  EXPECT_EQ(s.kind, LayoutKind::Shared);
  EXPECT_EQ(s.layout.shape(), (std::vector<std::int64_t>{4, 4}));
  // A type around the attribute gives the shape (broadcast bases cannot) and the element width.
  const LayoutFile t = parse_layout_text(
      "tensor<16x32xf16, #ttg.linear<{register = [[1, 0]], lane = [[2, 0], [4, 0], [8, 0], [0, 1], [0, 0]], warp = [[0, 2]], "
      "block = []}>>");
  EXPECT_EQ(t.layout.shape(), (std::vector<std::int64_t>{16, 32}));
  EXPECT_EQ(t.element_bits, 16);
  EXPECT_EQ(parse_layout_text(to_mlir(t.layout, 16)).layout, t.layout);
  const LayoutFile m = parse_layout_text(
      "!ttg.memdesc<8x16xbf16, #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], "
      "[1, 0], [2, 0], [4, 0]], block = []}, alignment = 128>, #ttg.shared_memory>");
  EXPECT_EQ(m.layout.shape(), (std::vector<std::int64_t>{8, 16}));
  EXPECT_EQ(m.element_bits, 16);
}

TEST(Formats, CuteAgainstTheFactories) {
  const CuteLayout col{{{{8, 1}}, {{8, 8}}}};
  auto shared = [](const std::string& text) { return SharedLayout::from_linear(parse_layout_text(text).layout, "parsed"); };
  EXPECT_EQ(shared("(8,8):(1,8)"), column_major({8, 8}));
  EXPECT_EQ(shared("((8,2),(4,4)):((4,32),(1,64))"), cute_plain({{{{8, 4}, {2, 32}}, {{4, 1}, {4, 64}}}}));
  EXPECT_EQ(shared("Swizzle<3,2,3> o (8,8):(1,8)"), cute_swizzle(3, 2, 3, col, SwizzleUnits::Elements, 32));
  EXPECT_EQ(shared("Swizzle<3,2,3> ∘ (8,8):(1,8)"), cute_swizzle(3, 2, 3, col, SwizzleUnits::Elements, 32));
  EXPECT_EQ(shared("Swizzle<3,4,3> o (8,64):(64,1) ; bytes ; element_bits=16"), tma_swizzle(128, {8, 64}, 16));
  EXPECT_EQ(parse_layout_text("(16,32):(32,1) ; element_bits=8").element_bits, 8);
}

// Every preset's accesses (distributed) and solved layout (shared) through every form.
TEST(Formats, RoundTripsThroughEveryFormat) {
  for (const auto& info : list_presets()) {
    SCOPED_TRACE(info.name);
    const Problem p = make_preset(info.name);
    for (const Access* a : {&p.store, &p.read}) {
      const LayoutFile f{LayoutKind::Distributed, a->layout, p.element_bits};
      for (TextFormat t : {TextFormat::Json, TextFormat::Triton, TextFormat::Mlir}) {
        const LayoutFile back = parse_layout_text(write_layout(f, t));
        EXPECT_EQ(back.layout, f.layout) << format_name(t);
      }
      EXPECT_THROW(write_layout(f, TextFormat::Cute), Error);
    }
    const SolveResult r = solve(p);
    const LayoutFile s{LayoutKind::Shared, r.offset_bases, p.element_bits};
    for (TextFormat t : {TextFormat::Json, TextFormat::Triton, TextFormat::Mlir}) {
      EXPECT_EQ(parse_layout_text(write_layout(s, t)).layout, s.layout) << format_name(t);
    }
    // CuTe: when the layout has a form, it reads back to the same table.
    if (to_cute(s.layout)) {
      const LayoutFile back = parse_layout_text(write_layout(s, TextFormat::Cute));
      EXPECT_EQ(SharedLayout::from_linear(back.layout, "back"), r.shared);
      EXPECT_EQ(back.element_bits, p.element_bits);
    } else {
      EXPECT_THROW(write_layout(s, TextFormat::Cute), Error);
    }
  }
  EXPECT_EQ(to_cute(solve(make_preset("transpose16x32")).offset_bases), "Swizzle<4,1,4> o (16,32):(32,1)");
}

TEST(Formats, NoCuteFormIsAClearError) {
  // Element (1, 0) lives at offset 0b0111: a swizzle flips one bit per set Y bit,
  // so no Swizzle<B,M,S> (|S| >= B) of a strided layout reaches three offset bits.
  const auto l = LinearLayout::from_coordinates({{"offset", {{3, 1}, {2, 0}, {0, 1}, {0, 2}}}, {"block", {}}},
                                                LinearLayout::out_dims_for_shape({4, 4}));
  EXPECT_FALSE(to_cute(l).has_value());
  try {
    write_layout({LayoutKind::Shared, l, 16}, TextFormat::Cute);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a CuTe Swizzle"), std::string::npos);
  }
}

TEST(Formats, BadInputClasses) {
  auto bad = [](const std::string& text) {
    SCOPED_TRACE(text);
    try {
      parse_layout_text(text, "input");
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("input: ", 0), 0u) << e.what();
    }
  };
  // malformed text
  bad("");
  bad("hello");
  bad(" - register=1 -> (0, 1\nwhere out dims are: [dim0 (size 2), dim1 (size 2)]");
  bad(" - register=1 -> (0, 1)\n   register=4 -> (1, 0)\nwhere out dims are: [dim0 (size 2), dim1 (size 2)]");
  bad(" - register=1 -> (0, 1)");
  bad("#ttg.linear<{register = [[0, 1], lane = []}>");
  bad("#ttg.shared_linear<{offset = [[0, 1]]}, alignment = 3>");
  bad("Swizzle<3,2> o (8,8):(1,8)");
  bad("(8,8):(1,8) ; fast");
  bad("{\"offset_bases\": [[0, 1]], \"shape\": [1, 2]");
  // wrong shapes
  bad(" - register=1 -> (0, 1, 0)\nwhere out dims are: [dim0 (size 2), dim1 (size 2)]");
  bad(" - register=1 -> (0, 4)\nwhere out dims are: [dim0 (size 2), dim1 (size 2)]");
  bad("#ttg.linear<{register = [[0, 1], [1]], lane = [], warp = [], block = []}>");
  bad("((8,2),(4,4)):((4,32),1)");
  bad("tensor<4x4x4xf32, #ttg.linear<{register = [[0, 1]], lane = [], warp = [], block = []}>>");
  // non-power-of-two
  bad(" - offset=1 -> (1)\nwhere out dims are: [dim0 (size 3)]");
  bad("(8,6):(1,8)");
  bad("tensor<16x12xf32, #ttg.linear<{register = [[0, 1]], lane = [], warp = [], block = []}>>");
  bad("tensor<16x16xf24, #ttg.linear<{register = [[0, 1]], lane = [], warp = [], block = []}>>");
  // not invertible / not linear (shared layouts fail when built)
  bad("(8,8):(1,9)");
  bad("(4,4):(1,2)");
  EXPECT_THROW(
      SharedLayout::from_linear(
          parse_layout_text("#ttg.shared_linear<{offset = [[0, 1], [0, 1], [1, 0], [2, 0]]}, alignment = 16>").layout, "x"),
      Error);
  EXPECT_THROW(parse_text_format("yaml"), Error);
}

TEST(Recognize, NamesTheFamilies) {
  auto families = [](const SharedLayout& s, int bits) {
    std::set<std::string> out;
    for (const auto& m : recognize(s, bits)) out.insert(m.family);
    return out;
  };
  EXPECT_EQ(families(row_major({16, 32}), 32), (std::set<std::string>{"row_major"}));
  EXPECT_EQ(families(column_major({16, 32}), 32), (std::set<std::string>{"column_major"}));
  // A TMA tile is also what tcgen05 reads K-major under the same descriptor mode (sm100.h).
  EXPECT_EQ(families(tma_swizzle(128, {64, 64}, 16), 16),
            (std::set<std::string>{"cute", "tma", "tcgen05", "triton_swizzled", "nvmma"}));
  EXPECT_EQ(families(tma_swizzle(32, {16, 16}, 16), 16), (std::set<std::string>{"cute", "tma", "tcgen05", "triton_swizzled", "nvmma"}));
  EXPECT_TRUE(families(triton_swizzled(4, 2, 4, {1, 0}, {32, 32}), 32).count("triton_swizzled"));
  EXPECT_TRUE(families(triton_swizzled(2, 1, 8, {0, 1}, {32, 32}), 32).count("triton_swizzled"));
  EXPECT_TRUE(families(padded({16, 32}, 1), 32).empty());
  EXPECT_TRUE(families(tma_swizzle(128, {64, 64}, 16, 0x80), 16).empty());  // unaligned base: not linear
  // The seed's answer, with parameters.
  const auto seed = recognize(solve(make_preset("transpose16x32")).shared, 32);
  ASSERT_FALSE(seed.empty());
  EXPECT_EQ(seed[0].family, "cute");
  EXPECT_EQ(seed[0].params[0], (std::pair<std::string, std::int64_t>{"B", 4}));
  bool triton = false;
  for (const auto& m : seed)
    if (m.family == "triton_swizzled") {
      triton = true;
      EXPECT_EQ(m.name, "Triton SwizzledSharedLayout(vec=2, perPhase=1, maxPhase=16, order=[1, 0])");
    }
  EXPECT_TRUE(triton);
  // Byte units: Swizzle<3,3,3> on fp16 elements is Swizzle<3,4,3> on bytes.
  const auto tma = recognize(tma_swizzle(128, {64, 64}, 16), 16);
  EXPECT_NE(tma[0].name.find("Swizzle<3,4,3> on byte addresses"), std::string::npos);
  // A transposed NVMMA layout: the contiguous dim is dim0.
  bool transposed = false;
  for (const auto& m :
       recognize(column_major({64, 8}).is_linear()
                     ? SharedLayout::from_linear(
                           LinearLayout::from_coordinates(
                               {{"offset", {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}, {8, 1}, {16, 2}, {32, 4}}}},
                               LinearLayout::out_dims_for_shape({64, 8})),
                           "t")
                     : column_major({64, 8}),
                 16))
    if (m.family == "nvmma") transposed = transposed || m.name.find("transposed=true") != std::string::npos;
  EXPECT_TRUE(transposed);
}

}  // namespace
}  // namespace swz
