// Golden files: the exact bytes of each format for a few layouts, so any change to
// the output is seen in review. The tool version is written as @VERSION@ in the
// goldens. To accept a deliberate change: SWZ_UPDATE_GOLDEN=1 ./swz_export_tests
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "export_support.h"
#include "swz/export/svg.h"

namespace swz::test {
namespace {

std::string without_version(std::string text) {
  const std::string version = SWZ_VERSION;
  for (std::size_t at = 0; (at = text.find(version, at)) != std::string::npos;) text.replace(at, version.size(), "@VERSION@");
  return text;
}

void expect_golden(const std::string& file, const std::string& generated) {
  const std::filesystem::path path = std::filesystem::path(SWZ_EXPORT_GOLDEN_DIR) / file;
  const std::string text = without_version(generated);
  if (const char* update = std::getenv("SWZ_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    write_text(path, text);
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing; run with SWZ_UPDATE_GOLDEN=1 to create it";
  const std::string golden = read_text(path);
  if (golden == text) return;
  // Point at the first differing line.
  std::size_t line = 1, i = 0;
  while (i < golden.size() && i < text.size() && golden[i] == text[i]) line += golden[i++] == '\n';
  ADD_FAILURE() << file << " differs from the golden file at line " << line << "\n--- golden\n"
                << golden.substr(golden.rfind('\n', i) + 1, 200) << "\n--- generated\n"
                << text.substr(text.rfind('\n', i) + 1, 200);
}

Problem seed(std::vector<std::uint32_t> masks) {
  Problem p = make_preset("transpose16x32");
  p.set_masks(masks);
  return p;
}

TEST(Golden, SeedSwizzleInEveryFormat) {
  const ExportRequest r = ExportRequest::from_problem(seed({2, 4, 8, 16}), "tile_swizzle");
  expect_golden("transpose16x32_xor_2m.h", export_header(r));
  expect_golden("transpose16x32_xor_2m.py", export_triton(r));
  expect_golden("transpose16x32_xor_2m.hpp", export_cute(r));
  expect_golden("transpose16x32_xor_2m.json", export_json(r));
}

TEST(Golden, TmaHeader) {
  Problem p = make_preset("tma128_fp16");
  p.apply_variant("tma-128B");
  expect_golden("tma128_fp16_tma_128B.h", export_header(ExportRequest::from_problem(p, "tma_tile")));
}

TEST(Golden, Rank3HeaderWithoutAProblem) {
  for (const ExportCase& c : all_export_cases())
    if (c.id == "rank3_xor") expect_golden("rank3_xor.h", export_header(c.request));
}

TEST(Golden, Figures) {
  const Problem toy = make_preset("toy8x8");
  expect_golden("toy8x8_tensor.svg", figure_svg(toy, FigureView::Tensor));
  expect_golden("toy8x8_reader.svg", figure_svg(toy, FigureView::Reader, FigureOptions{3, true, ""}));
  expect_golden("transpose16x32_xor_2m_matrix_m.svg", figure_svg(seed({2, 4, 8, 16}), FigureView::MatrixM));
}

// A slide's figures (text_size > 0): the bold title over the wrapped caption that the tensor
// (each "  |  " part of its caption on lines of its own), the matrices and the XOR table share.
TEST(Golden, SlideFigureHeadings) {
  FigureOptions slide;
  slide.text_size = 22;  // a lesson slide's (lesson_figures.cpp)
  FigureOptions traced = slide;
  traced.trace = TracedAccess::Store;
  expect_golden("toy8x8_tensor_slide.svg", figure_svg(make_preset("toy8x8"), FigureView::Tensor, traced));
  expect_golden("transpose16x32_xor_2m_matrix_m_slide.svg", figure_svg(seed({2, 4, 8, 16}), FigureView::MatrixM, slide));
  expect_golden("xor_table_4x8_slide.svg", xor_table_svg(4, 8, /*text_size=*/22));
}

}  // namespace
}  // namespace swz::test
