// Padded rows export as CuTe strides and as Triton's padded_shared, and the Triton form, read back
// the way Triton 3.6 places it (the converter is held to Triton's own placement in tests/data/triton),
// puts every element where the padded layout does.
#include <gtest/gtest.h>

#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/layout/factories.h"
#include "swz/kernel/ttgir.h"

namespace swz {
namespace {

std::string mlir_of(const std::string& triton_export) {
  const auto a = triton_export.find("#ttg.padded_shared<");
  const auto b = triton_export.find("}>", a);
  if (a == std::string::npos || b == std::string::npos) return "";
  return triton_export.substr(a, b + 2 - a);
}

TEST(PaddedExport, CuteWritesPaddingAsAStride) {
  const std::string out = export_cute(ExportRequest::from_layout(padded({16, 32}, 1), 32, "pad"));
  EXPECT_NE(out.find("CuTe form: (_16,_32):(_33,_1)"), std::string::npos) << out;
  EXPECT_NE(out.find("cute::Layout<cute::Shape<cute::Int<16>, cute::Int<32>>, cute::Stride<cute::Int<33>, cute::Int<1>>>"),
            std::string::npos);
}

TEST(PaddedExport, TritonPaddedSharedPlacesEveryElementAsThePaddedLayout) {
  struct Case { std::int64_t rows, cols, pad; int bits; };
  for (const Case& c : {Case{16, 32, 1, 32}, Case{32, 32, 4, 16}, Case{64, 64, 8, 16}, Case{32, 64, 2, 8}}) {
    const SharedLayout want = padded({c.rows, c.cols}, c.pad);
    const std::string out = export_triton(ExportRequest::from_layout(want, c.bits, "pad"));
    const std::string attr = mlir_of(out);
    ASSERT_FALSE(attr.empty()) << out;
    EXPECT_EQ(attr, fmt::format("#ttg.padded_shared<[{}:+{}] {{order = [1, 0], shape = [{}, {}]}}>", c.cols, c.pad, c.rows, c.cols));
    const ttgir::Layout got = ttgir::convert(attr, {c.rows, c.cols}, c.bits);
    ASSERT_TRUE(got.shared.has_value());
    EXPECT_EQ(got.shared->offsets(), want.offsets()) << attr;
  }
}

TEST(PaddedExport, OtherNonLinearLayoutsAreStillRefused) {
  const Problem tma = make_preset("tma128_fp16");
  Problem p = tma;
  p.apply_variant("tma-128B-base-0x80");
  EXPECT_THROW(export_cute(ExportRequest::from_problem(p, "x")), Error);
  EXPECT_THROW(export_triton(ExportRequest::from_problem(p, "x")), Error);
}

}  // namespace
}  // namespace swz
