// Layout files: Gluon's JSON names in and out, round trips, and one clear error per bad input.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/io/layout_io.h"
#include "swz/layout/shared.h"

#include "test_support.h"

namespace {

using nlohmann::json;
using swz::LayoutKind;
using swz::LinearLayout;

using swz::test::error_of;

std::string parse_error(const std::string& text) {
  return error_of([&] { swz::parse_layout_text(text, "in.json"); });
}

TEST(LayoutIo, DistributedFromGluonNames) {
  const auto f = swz::parse_layout_text(R"({"reg_bases": [[0,2],[0,4],[0,8],[0,16]],
      "lane_bases": [[1,0],[2,0],[4,0],[8,0],[0,1]], "warp_bases": [], "block_bases": [],
      "shape": [16, 32], "element_bits": 32})");
  EXPECT_EQ(f.kind, LayoutKind::Distributed);
  EXPECT_EQ(f.element_bits, 32);
  const LinearLayout want = swz::distributed({16, 32}, {{0, 2}, {0, 4}, {0, 8}, {0, 16}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}});
  EXPECT_EQ(f.layout, want);
}

TEST(LayoutIo, SharedFromGluonNames) {
  // The seed's XOR 2m layout: offset bit -> (m, n) coordinates, dim0 first.
  const auto f = swz::parse_layout_text(R"({"offset_bases": [[0,1],[0,2],[0,4],[0,8],[0,16],[1,2],[2,4],[4,8],[8,16]],
      "block_bases": [], "shape": [16, 32]})");
  EXPECT_EQ(f.kind, LayoutKind::Shared);
  EXPECT_FALSE(f.element_bits.has_value());
  const swz::SharedLayout s = swz::SharedLayout::from_linear(f.layout, "file");
  EXPECT_EQ(s, swz::toggle_grid({16, 32}, {2, 4, 8, 16}));
}

TEST(LayoutIo, RoundTripsEveryKind) {
  std::vector<LinearLayout> layouts{
      swz::blocked({1, 8}, {4, 8}, {4, 1}, {1, 0}, {64, 64}),
      swz::blocked({2, 1, 1}, {1, 8, 4}, {1, 2, 1}, {0, 2, 1}, {4, 16, 8}),
      swz::mma_m16n8k16(swz::MmaOperand::A, {64, 32}, {4, 1}),
      swz::mma_m16n8k16(swz::MmaOperand::C, {64, 64}, {2, 2}),
      swz::ldmatrix(4, false, {64, 64}).addresses,
      swz::toggle_grid({16, 32}, {2, 4, 8, 16}).linear().with_in_dim("block", {}),
      swz::tma_swizzle(128, {64, 64}, 16).linear().with_in_dim("block", {}),
      swz::row_major({8, 4, 2}).linear().with_in_dim("block", {}),
  };
  for (const LinearLayout& l : layouts) {
    for (std::optional<int> bits : {std::optional<int>{}, std::optional<int>{16}}) {
      const json j = swz::layout_to_json(l, bits);
      const auto back = swz::layout_from_json(j);
      EXPECT_EQ(back.layout, l) << j.dump();
      EXPECT_EQ(back.element_bits, bits);
      EXPECT_EQ(back.kind, l.has_in_dim("offset") ? LayoutKind::Shared : LayoutKind::Distributed);
      // And through text.
      EXPECT_EQ(swz::parse_layout_text(j.dump()).layout, l);
    }
  }
}

TEST(LayoutIo, WritesGluonKeysDimZeroFirst) {
  const LinearLayout b = swz::distributed({16, 32}, {{0, 2}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}});
  const json j = swz::layout_to_json(b, 32);
  EXPECT_EQ(j.dump(),
            R"({"block_bases":[],"element_bits":32,"lane_bases":[[1,0],[2,0],[4,0],[8,0],[0,1]],"reg_bases":[[0,2]],)"
            R"("shape":[16,32],"warp_bases":[]})");
  const json s = swz::layout_to_json(swz::row_major({2, 4}).linear());
  EXPECT_EQ(s.dump(), R"({"block_bases":[],"offset_bases":[[0,1],[0,2],[1,0]],"shape":[2,4]})");
}

TEST(LayoutIo, AcceptsTritonExtrasAndMissingLists) {
  // alignment and name are tolerated; absent base lists are empty.
  const auto f = swz::parse_layout_text(R"({"offset_bases": [[1]], "alignment": 16, "name": "x", "shape": [2]})");
  EXPECT_EQ(f.layout.in_dim_bits("offset"), 1);
  EXPECT_EQ(f.layout.in_dim_bits("block"), 0);
  const auto d = swz::parse_layout_text(R"({"lane_bases": [[1],[2]], "shape": [4]})");
  EXPECT_EQ(d.layout.in_dim_bits("register"), 0);
  EXPECT_EQ(d.layout.in_dim_bits("lane"), 2);
}

TEST(LayoutIo, EachBadInputGetsOneClearLine) {
  struct Case { const char* text; const char* says; };
  const std::vector<Case> cases{
      {R"({"offset_bases": [[0,1]], "shape": [16, 32])", "not valid JSON"},
      {"", "not a layout"},
      {"{\n\"shape\": [4,\n", "not valid JSON"},
      {R"([1, 2])", "not a layout"},
      {R"({"offset_bases": []})", "no 'shape'"},
      {R"({"offset_bases": [], "shape": []})", "non-empty list"},
      {R"({"offset_bases": [], "shape": "16x32"})", "non-empty list"},
      {R"({"offset_bases": [], "shape": [16, 2.5]})", "non-integer size"},
      {R"({"offset_bases": [], "shape": [16, 24]})", "powers of two"},
      {R"({"offset_bases": [], "shape": [0]})", "powers of two"},
      {R"({"offset_bases": [], "shape": [-8]})", "powers of two"},
      {R"({"shape": [16]})", "needs offset_bases"},
      {R"({"offset_bases": [[1]], "lane_bases": [[1]], "shape": [2]})", "mixes"},
      {R"({"offset_bases": [[1]], "shape": [2], "swizzle": 3})", "unknown key 'swizzle'"},
      {R"({"offset_bases": [[0,1,0]], "shape": [16, 32]})", "has 3 coordinates; the shape has 2"},
      {R"({"offset_bases": [1, 2], "shape": [16, 32]})", "must be a list of 2 coordinates"},
      {R"({"offset_bases": {"a": 1}, "shape": [16]})", "must be a list of bases"},
      {R"({"offset_bases": [[0,32]], "shape": [16, 32]})", "outside 0..31"},
      {R"({"lane_bases": [[16,0]], "shape": [16, 32]})", "outside 0..15"},
      {R"({"lane_bases": [[-1,0]], "shape": [16, 32]})", "outside 0..15"},
      {R"({"lane_bases": [[0.5,0]], "shape": [16, 32]})", "non-integer coordinate"},
      {R"({"lane_bases": [[1,0]], "shape": [16, 32], "element_bits": 12})", "not one of 4, 8, 16, 32, 64"},
      {R"({"lane_bases": [[1,0]], "shape": [16, 32], "element_bits": "fp16"})", "must be an integer"},
  };
  for (const Case& c : cases) {
    const std::string msg = parse_error(c.text);
    EXPECT_NE(msg.find(c.says), std::string::npos) << c.text << " -> " << msg;
    EXPECT_EQ(msg.rfind("in.json: ", 0), 0u) << msg;  // names the source
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;  // one line
  }
}

TEST(LayoutIo, JsonValueMustBeAnObject) {
  EXPECT_NE(error_of([] { swz::layout_from_json(json::array({1, 2})); }).find("one JSON object"), std::string::npos);
  EXPECT_NE(error_of([] { swz::layout_from_json(json(3)); }).find("one JSON object"), std::string::npos);
}

TEST(LayoutIo, NonInvertibleSharedLayoutIsRefusedWhenUsed) {
  // Parsing succeeds (it is a well-formed linear layout); building the shared layout says why it cannot be one.
  const auto dup = swz::parse_layout_text(R"({"offset_bases": [[0,1],[0,1],[1,0]], "shape": [2, 4]})");
  const std::string msg = error_of([&] { swz::SharedLayout::from_linear(dup.layout, "s.json"); });
  EXPECT_NE(msg.find("not invertible"), std::string::npos) << msg;
  const auto few = swz::parse_layout_text(R"({"offset_bases": [[0,1],[1,0]], "shape": [2, 4]})");
  EXPECT_NE(error_of([&] { swz::SharedLayout::from_linear(few.layout, "s.json"); }).find("2 offset bits for a tensor of 8 elements"), std::string::npos);
}

TEST(LayoutIo, Files) {
  const std::string path = ::testing::TempDir() + "swz_layout_io_test.json";
  {
    std::ofstream out(path);
    out << swz::layout_to_json(swz::toggle_grid({16, 32}, {1, 2, 4, 8}).linear()).dump(2);
  }
  const auto f = swz::load_layout_file(path);
  EXPECT_EQ(swz::SharedLayout::from_linear(f.layout, path), swz::toggle_grid({16, 32}, {1, 2, 4, 8}));
  std::remove(path.c_str());
  const std::string missing = error_of([&] { swz::load_layout_file(path); });
  EXPECT_NE(missing.find("cannot open"), std::string::npos) << missing;
  EXPECT_NE(error_of([] { swz::read_text_file("/proc/self/status", 4); }).find("larger than"), std::string::npos);
}

// A named text comes from what the caller holds under that name, else from the file of that name,
// whose errors name it; every reader (layouts, --spec, --solved) goes through read_text.
TEST(LayoutIo, NamedTextFromMemoryOrFile) {
  const std::string path = ::testing::TempDir() + "swz_layout_io_named.txt";
  const swz::TextSource held = [](const std::string& name) { return "held " + name; };
  EXPECT_EQ(swz::read_text(path, held), "held " + path);
  std::remove(path.c_str());
  EXPECT_EQ(error_of([&] { swz::read_text(path, {}); }).rfind("cannot open '" + path + "'", 0), 0u);
  {
    std::ofstream out(path);
    out << "on disk";
  }
  EXPECT_EQ(swz::read_text(path, {}), "on disk");
  std::remove(path.c_str());
}

}  // namespace
