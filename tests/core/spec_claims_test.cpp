// What a problem states is checked where it is built (problem_spec.h), so that no face prices an
// answer the inputs contradict: a writer covering half the tile, a layout stating another element
// width than the problem's, a second shared layout beside the first. Each was once priced without
// a word; each is now one line naming the field.
#include <gtest/gtest.h>

#include <string>

#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/io/layout_io.h"
#include "swz/io/link.h"
#include "swz/problem/problem_spec.h"
#include "swz/solve/solver.h"
#include "test_support.h"

namespace swz {
namespace {

// The seed's writer with register 8 broadcast: it holds rows 0..7 only, half the 16x32 tile.
LinearLayout half_tile_writer() {
  return layout_from_json(nlohmann::json::parse(
                              R"({"reg_bases": [[1,0],[2,0],[4,0],[0,0]], "lane_bases": [[0,1],[0,2],[0,4],[0,8],[0,16]],
                                  "warp_bases": [], "block_bases": [], "shape": [16, 32]})"))
      .layout;
}
LinearLayout xor2m_shared() {
  return layout_from_json(
             nlohmann::json::parse(
                 R"({"offset_bases": [[0,1],[0,2],[0,4],[0,8],[0,16],[1,2],[2,4],[4,8],[8,16]], "shape": [16, 32]})"))
      .layout;
}

TEST(SpecClaims, WriterCoveringHalfTheTileIsRefusedInTheSolversWords) {
  ProblemSpec s;
  s.writer = SpecLayout{half_tile_writer(), "half.json"};
  EXPECT_EQ(test::error_of([&] { build_problem(s); }),
            "writer (--src): the writer does not cover the tensor: its bases reach 2^8 of the 2^9 elements");
  const Problem seed = make_preset("transpose16x32");
  const Access writer{half_tile_writer(), AccessKind::Store, 0, 0};
  EXPECT_EQ(test::error_of([&] { solve(writer, seed.read, 32, seed.bank); }),
            "the writer does not cover the tensor: its bases reach 2^8 of the 2^9 elements");
  EXPECT_EQ(coverage_gap(seed.store.layout), "");
}

TEST(SpecClaims, StatedElementWidthMustBeTheProblems) {
  ProblemSpec s;  // transpose16x32: 32-bit elements
  s.shared = SpecLayout{xor2m_shared(), "s.json", 32};
  s.element_bits = 16;
  EXPECT_EQ(test::error_of([&] { build_problem(s); }),
            "shared (--shared): s.json states 32-bit elements but element_bits (--bits) is 16");
  // Without --bits, the width the layouts state is the problem's (as the writer's and reader's files always were).
  s.element_bits = 0;
  s.shared->element_bits = 16;
  EXPECT_EQ(build_problem(s).element_bits, 16);
  s.writer = SpecLayout{make_preset("transpose16x32").store.layout, "w.json", 32};
  EXPECT_EQ(test::error_of([&] { build_problem(s); }),
            "shared (--shared): s.json states 16-bit elements but writer (--src) states 32-bit ones");
  // The claim travels with the spec's JSON form (sessions, links).
  s.writer.reset();
  EXPECT_EQ(spec_from_json(to_json(s), "").shared->element_bits, 16);
}

TEST(SpecClaims, AttributeWidthIsItsOwnNotTheGivenOne) {
  const std::string nvmma = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>";
  EXPECT_NE(test::error_of([&] {
              parse_layout_text(nvmma, "a.mlir", LayoutHints{{64, 64}, 8});
            }).find("a.mlir: #ttg.nvmma_shared: elementBitWidth = 16 but the given element width is 8 (--bits)"),
            std::string::npos);
  EXPECT_EQ(parse_layout_text(nvmma, "a.mlir", LayoutHints{{64, 64}, std::nullopt}).element_bits, 16);
  EXPECT_EQ(parse_layout_text(nvmma, "a.mlir", LayoutHints{{64, 64}, 16}).element_bits, 16);
  EXPECT_NE(test::error_of([&] {
              parse_layout_text(
                  "!ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                  "elementBitWidth = 8}>, #ttg.shared_memory>",
                  "m.mlir");
            }).find("elementBitWidth = 8 but the type's elements (f16) are 16-bit"),
            std::string::npos);
  EXPECT_NE(test::error_of([&] {
              parse_layout_text(R"({"offset_bases": [[0,1],[1,0]], "shape": [2, 2], "element_bits": 32})", "s.json",
                                LayoutHints{{}, 16});
            }).find("s.json: the layout states 32-bit elements but the given element width is 16"),
            std::string::npos);
}

TEST(SpecClaims, OneSharedLayoutAtATime) {
  ProblemSpec s;
  s.variant = "xor-2m";
  s.masks = {1, 2, 4, 8};
  EXPECT_EQ(test::error_of([&] { build_problem(s); }),
            "masks (--mask) 1,2,4,8 given beside variant (--layout) 'xor-2m': the shared layout is one of shared (--shared), "
            "variant (--layout) and masks (--mask)");
  s.variant.clear();
  s.shared = SpecLayout{xor2m_shared(), "s.json"};
  EXPECT_NE(test::error_of([&] { build_problem(s); }).find("masks (--mask) 1,2,4,8 given beside shared (--shared) s.json"),
            std::string::npos);
  EXPECT_EQ(test::error_of([] { parse_link("#v=1&preset=transpose16x32&layout=xor-2m&masks=1,2,4,8"); }),
            "link: masks: given beside layout 'xor-2m': the shared layout is one of them (a named layout, or masks)");
  ProblemSpec shared_only;
  shared_only.shared = SpecLayout{xor2m_shared(), "s.json"};
  const std::string with_masks = link_fragment(WorkbenchLink{shared_only, "", 1, ""}) + "&masks=1,2,4,8";
  EXPECT_NE(test::error_of([&] { parse_link("#" + with_masks); }).find("masks (--mask) 1,2,4,8 given beside shared (--shared)"),
            std::string::npos);
}

TEST(SpecClaims, DefaultPresetIsNamedWhereItsTensorIs) {
  ProblemSpec s;
  s.writer = SpecLayout{make_preset("tma128_fp16").store.layout, "w.json"};
  EXPECT_NE(
      test::error_of([&] { build_problem(s); }).find("but the problem's tensor is 16x32 (preset transpose16x32, the default)"),
      std::string::npos);
  s.preset = "toy8x8";
  EXPECT_NE(test::error_of([&] { build_problem(s); }).find("but the problem's tensor is 8x8 (preset toy8x8)"), std::string::npos);
}

TEST(SpecClaims, PresetsRedrawnUpTo32768) {
  EXPECT_EQ(parse_shape("32768x32768"), (std::vector<std::int64_t>{32768, 32768}));
  EXPECT_EQ(test::error_of([] { parse_shape("2x65536"); }), "shape (--shape): 65536 is not a power of two from 2 to 32768");
  ProblemSpec s;
  s.shape = {32768, 32768};
  s.element_bits = 16;
  const Problem p = build_problem(s);
  EXPECT_EQ(p.shape, s.shape);
  EXPECT_EQ(p.store.layout.out_bits(), 30);
}

TEST(SpecClaims, ExportSaysWhenItsLayoutHasConflicts) {
  ProblemSpec s;  // the seed, unswizzled: the read is 16-way
  EXPECT_EQ(export_conflict_warning(ExportRequest::from_spec(s, "t")),
            "the layout written has bank conflicts: the read takes 16 wavefronts per instruction (ideal 1); `swizzle solve` with "
            "the same problem flags finds the least, and `swizzle export --solved RESULT.json` writes it");
  s.masks = {2, 4, 8, 16};
  EXPECT_EQ(export_conflict_warning(ExportRequest::from_spec(s, "t")), "");
  const SharedLayout alone = SharedLayout::from_linear(xor2m_shared(), "s.json");
  EXPECT_EQ(export_conflict_warning(ExportRequest::from_layout(alone, 32, "t")), "") << "a layout on its own has no accesses";
}

}  // namespace
}  // namespace swz
