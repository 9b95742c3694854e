// The #9252 answer exported: a transposed (MN-major) tf32 operand of tcgen05.mma needs the 128B
// swizzle with a 32-byte atom, Swizzle<2,5,2> on byte addresses (CuTe, include/cute/atom/
// mma_traits_sm100.hpp Layout_MN_SW128_32B_Atom_Bits; cutlass sm100_common.inl sm100_smem_selector:
// "for mn-major tf32 operands, SW128_32B is the only available smem layout"). The generated header
// is compiled and run against that swizzle, computed in the checking program from its bit formula.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "export_support.h"
#include "swz/layout/sm100.h"

namespace swz::test {
namespace {

TEST(Tcgen05Export, Tf32MnHeaderOffsetsAreSwizzle252) {
  if (!available(SWZ_EXPORT_GXX)) GTEST_SKIP() << "g++ not found";
  // Two atoms along K ([MN, K] = 32x8): tile_to_shape stacks the second 512 bytes on.
  const Tcgen05Answer answer = tcgen05_operand_answer("tf32", Major::MN, {32, 8});
  const std::string header = export_header(ExportRequest::from_layout(answer.layout, 32, "tf32_mn"));
  EXPECT_NE(header.find("std::uint32_t umma_layout_type = 1u;"), std::string::npos) << header;
  EXPECT_NE(header.find("umma_descriptor_swizzle_bits = 0x2000000000000000ull;"), std::string::npos);
  EXPECT_NE(header.find("UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>"), std::string::npos);
  TempDir dir("tcgen05");
  write_text(dir / "tf32_mn.h", header);
  write_text(dir / "check.cpp",
             "#include \"tf32_mn.h\"\n#include <cstdint>\n#include <cstdio>\n"
             "// CuTe's Swizzle<2,5,2>::apply on a byte address: bits 5-6 ^= bits 7-8.\n"
             "static std::uint32_t swizzle_252(std::uint32_t a) { return a ^ ((a & (3u << 7)) >> 2); }\n"
             "int main() {\n  int bad = 0;\n"
             "  for (std::uint32_t mn = 0; mn < 32; ++mn)\n    for (std::uint32_t k = 0; k < 8; ++k) {\n"
             "      // MN-major: MN contiguous in 4-byte elements, K rows of 128 bytes.\n"
             "      const std::uint32_t expected = swizzle_252(mn * 4u + k * 128u) / 4u;\n"
             "      if (tf32_mn::offset(mn, k) != expected) { std::printf(\"(%u, %u)\\n\", mn, k); ++bad; }\n"
             "    }\n"
             "  return bad == 0 && tf32_mn::umma_layout_type == 1u ? 0 : 1;\n}\n");
  std::string output;
  const std::string cmd =
      fmt::format("cd '{}' && '{}' {} check.cpp -o check && ./check", dir.path().string(), SWZ_EXPORT_GXX, kStrict);
  EXPECT_EQ(run_command(cmd, output, dir / "log.txt"), 0) << output;
}

TEST(Tcgen05Export, Tf32MnCuteNamesTheAtom) {
  const Tcgen05Answer answer = tcgen05_operand_answer("tf32", Major::MN);
  const std::string cute = export_cute(ExportRequest::from_layout(answer.layout, 32, "tf32_mn"));
  EXPECT_NE(cute.find("using swizzle_bytes = cute::Swizzle<2, 5, 2>;"), std::string::npos) << cute;
  EXPECT_NE(cute.find("CuTe's sm100 atom: UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t> (tcgen05 SWIZZLE_128B_BASE32B), printed "
                      "Sw<2,5,2> o smem_ptr[32b](unset) o (_32,_4):(_1,_32)"),
            std::string::npos)
      << cute;
  EXPECT_EQ(answer.tma, &tma_mode_of_value(4));  // CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B fills it
  EXPECT_FALSE(answer.nvmma_expressible);
}

}  // namespace
}  // namespace swz::test
