// sm_100's swizzle forms (sm100.h) against their sources. Each expected value below is computed
// here from the source's own definition, not from the code under test:
//   [desc]   CuTe include/cute/arch/mma_sm100_desc.hpp: UMMA::LayoutType {NONE 0, 128B_BASE32B 1,
//            128B 2, 64B 4, 32B 6}, SmemDescriptor base_offset_ bits [49,52), layout_type_ [61,64),
//            layout_type(): Swizzle<B,4,3> (B 0..3 -> NONE, 32B, 64B, 128B), Swizzle<2,5,2> -> 128B_BASE32B
//            (NVIDIA/cutlass 7107b05, 2026-08-20)
//   [atoms]  CuTe include/cute/atom/mma_traits_sm90_gmma.hpp Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom_Bits and
//            include/cute/atom/mma_traits_sm100.hpp Layout_MN_SW128_32B_Atom_Bits = Swizzle<2,5,2> o
//            smem_ptr_flag o (1024,4):(1,1024), upcast to elements
//   [driver] CUDA driver API, cuTensorMapEncodeTiled / CUtensorMapSwizzle: values 0..6 in enum order,
//            "Swizzle 32B chunks within 128B span", "..., additionally swap lower 8B with upper 8B within
//            each 16B for every alternate row", "Swizzle 64B chunks within 128B span"
//   [select] cutlass/gemm/collective/builders/sm100_common.inl sm100_smem_selector: "for mn-major tf32
//            operands, SW128_32B is the only available smem layout"
#include "swz/layout/sm100.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "swz/error.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"
#include "swz/layout/factories.h"
#include "swz/layout/recognize.h"
#include "swz/sim/gpu.h"

namespace swz {
namespace {

// CuTe's Swizzle<B,M,S>::apply (cute/swizzle.hpp) for S > 0: offset ^ ((offset & (mask << (M+S))) >> S).
std::uint64_t sm100_cute_swizzle(int b, int m, int s, std::uint64_t offset) {
  const std::uint64_t yyy = ((std::uint64_t{1} << b) - 1) << (m + s);
  return offset ^ ((offset & yyy) >> s);
}

// One CuTe atom as its _Bits definition writes it: shape and stride in bits, K-major (rows, width)
// with stride (width, 1), MN-major (width, rows) with stride (1, width).
struct Sm100AtomBits {
  const char* k_name;
  const char* mn_name;
  int b, m, s;
  int width_bits;  // 128 (INTER), 256 (SW32), 512 (SW64), 1024 (SW128, SW128_32B)
  int rows;        // 8, or 4 for the 32-byte atom
  int layout_type;
};
const Sm100AtomBits kSm100Atoms[] = {{"Layout_K_INTER_Atom", "Layout_MN_INTER_Atom", 0, 4, 3, 128, 8, 0},
                                     {"Layout_K_SW32_Atom", "Layout_MN_SW32_Atom", 1, 4, 3, 256, 8, 6},
                                     {"Layout_K_SW64_Atom", "Layout_MN_SW64_Atom", 2, 4, 3, 512, 8, 4},
                                     {"Layout_K_SW128_Atom", "Layout_MN_SW128_Atom", 3, 4, 3, 1024, 8, 2},
                                     {"", "Layout_MN_SW128_32B_Atom", 2, 5, 2, 1024, 4, 1}};

// The atom's element offset of [mn, k], upcast to `bits`-bit elements: the bit offset from the
// shape:stride layout, the swizzle on its byte address (smem_ptr_flag: CuTe swizzles the pointer).
std::uint64_t sm100_cute_atom_offset(const Sm100AtomBits& a, Major major, int bits, std::int64_t mn, std::int64_t k) {
  const std::uint64_t bit_offset = major == Major::K ? static_cast<std::uint64_t>(mn * a.width_bits + k * bits)
                                                     : static_cast<std::uint64_t>(mn * bits + k * a.width_bits);
  return sm100_cute_swizzle(a.b, a.m, a.s, bit_offset / 8) * 8 / static_cast<std::uint64_t>(bits);
}

TEST(Sm100, DescriptorModesAreCutesLayoutType) {  // [desc]
  const std::vector<std::pair<int, std::string>> expected = {
      {0, "SWIZZLE_NONE"}, {1, "SWIZZLE_128B_BASE32B"}, {2, "SWIZZLE_128B"}, {4, "SWIZZLE_64B"}, {6, "SWIZZLE_32B"}};
  ASSERT_EQ(umma_modes().size(), expected.size());
  for (const auto& [field, name] : expected) {
    EXPECT_EQ(umma_mode_of_field(field).name, name);
    EXPECT_EQ(umma_mode_named(name).layout_type, field);
    EXPECT_EQ(umma_mode_named("UMMA::LayoutType::" + name).layout_type, field);
  }
  EXPECT_EQ(umma_mode_named("128b_base32b").layout_type, 1);
  for (int na : {3, 5, 7}) EXPECT_THROW(umma_mode_of_field(na), Error) << na;
  EXPECT_THROW(umma_mode_named("SWIZZLE_256B"), Error);
  // layout_type(): the swizzle each field stands for.
  for (const Sm100AtomBits& a : kSm100Atoms) {
    const ByteSwizzle& z = umma_mode_of_field(a.layout_type).swizzle;
    EXPECT_EQ(std::vector<int>({z.b, z.m, z.s}), std::vector<int>({a.b, a.m, a.s})) << a.layout_type;
  }
}

TEST(Sm100, DescriptorBitsRoundTrip) {  // [desc]: base_offset_ bits 49-51, layout_type_ bits 61-63
  for (const UmmaMode& mode : umma_modes())
    for (int base = 0; base < 8; ++base) {
      const std::uint64_t bits = umma_descriptor_swizzle_bits(mode, base);
      EXPECT_EQ(bits, (std::uint64_t(mode.layout_type) << 61) | (std::uint64_t(base) << 49));
      // Other fields (start address, LBO, SBO, version) do not disturb the reading.
      const UmmaDescriptorSwizzle read = umma_descriptor_swizzle(bits | 0x0000'4000'0040'0100ull | 0x3fff);
      EXPECT_EQ(read.mode->layout_type, mode.layout_type);
      EXPECT_EQ(read.base_offset, base);
    }
  EXPECT_THROW(umma_descriptor_swizzle(std::uint64_t{3} << 61), Error);
  EXPECT_THROW(umma_descriptor_swizzle_bits(umma_mode_of_field(2), 8), Error);
  EXPECT_EQ(umma_base_offset(0x1380), 7);  // (0x1380 >> 7) & 7
}

TEST(Sm100, AtomsEqualCutesCompositionAtEveryElement) {  // [atoms]
  for (const Sm100AtomBits& a : kSm100Atoms)
    for (Major major : {Major::K, Major::MN})
      for (int bits : {8, 16, 32}) {
        const char* name = major == Major::K ? a.k_name : a.mn_name;
        if (!*name) continue;
        if (bits / 8 > (1 << a.m)) continue;
        const std::int64_t width = a.width_bits / bits;
        const CuteAtom atom{&umma_mode_of_field(a.layout_type), major, bits, {}};
        EXPECT_EQ(cute_atom_name(atom).find(name), 6u) << cute_atom_name(atom);
        // The atom, and the atom repeated 4 times along the other dimension (tile_to_shape stacks atoms there).
        for (std::int64_t repeat : {1, 4}) {
          const std::vector<std::int64_t> shape = major == Major::K ? std::vector<std::int64_t>{a.rows * repeat, width}
                                                                    : std::vector<std::int64_t>{width, a.rows * repeat};
          const SharedLayout s = cute_atom_layout(atom, shape);
          ASSERT_TRUE(s.is_linear()) << name;
          for (std::int64_t mn = 0; mn < shape[0]; ++mn)
            for (std::int64_t k = 0; k < shape[1]; ++k)
              ASSERT_EQ(s.offset(s.coords().flatten({mn, k})), sm100_cute_atom_offset(a, major, bits, mn, k))
                  << name << "<" << bits << "b> at (" << mn << ", " << k << ")";
        }
        // CuTe's printout of the atom reads back as the same layout.
        const LayoutFile printed = parse_cute(cute_atom_printout(atom));
        EXPECT_EQ(printed.layout.bases("offset"), cute_atom_layout(atom).linear().bases("offset")) << cute_atom_printout(atom);
      }
}

TEST(Sm100, AtomNamesAndPrintouts) {  // [atoms]
  const auto atom = parse_cute_atom("cute::UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>");
  ASSERT_TRUE(atom);
  EXPECT_EQ(atom->mode->layout_type, 1);
  EXPECT_EQ(atom->major, Major::MN);
  EXPECT_EQ(atom->element_bits, 32);
  EXPECT_EQ(cute_atom_shape(*atom), (std::vector<std::int64_t>{32, 4}));
  EXPECT_EQ(cute_atom_printout(*atom), "Sw<2,5,2> o smem_ptr[32b](unset) o (_32,_4):(_1,_32)");
  const auto k128 = parse_cute_atom("GMMA::Layout_K_SW128_Atom<half_t>");
  ASSERT_TRUE(k128);
  EXPECT_EQ(cute_atom_printout(*k128), "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
  EXPECT_FALSE(parse_cute_atom("(8,8):(1,8)"));
  EXPECT_THROW(parse_cute_atom("UMMA::Layout_K_SW128_32B_Atom<float>"), Error);  // CuTe has no K-major 32-byte atom
  EXPECT_THROW(parse_cute_atom("GMMA::Layout_MN_SW128_32B_Atom<float>"), Error);
  EXPECT_THROW(parse_cute_atom("UMMA::Layout_K_SW128_Atom<quad_t>"), Error);
}

// [driver]'s words as bit operations on a byte address a within a 128-byte row r = a >> 7.
std::uint64_t sm100_driver_definition(int value, std::uint64_t a) {
  const std::uint64_t r = a >> 7;
  switch (value) {
    case 4:
      return a ^ ((r & 3) << 5);  // 32-byte chunk ^= row mod 4
    case 5:
      return (a ^ ((r & 3) << 5)) ^ ((r & 1) << 3);  // and on odd rows the 8-byte halves swap
    case 6:
      return a ^ ((r & 1) << 6);  // 64-byte half ^= row mod 2
    default:
      return a ^ ((r & ((128u >> 4) - 1)) << 4);  // 128B: 16-byte chunk ^= row mod 8
  }
}

TEST(Sm100, TmaModesAreTheDriversEnum) {  // [driver]
  const char* names[] = {"CU_TENSOR_MAP_SWIZZLE_NONE",          "CU_TENSOR_MAP_SWIZZLE_32B",
                         "CU_TENSOR_MAP_SWIZZLE_64B",           "CU_TENSOR_MAP_SWIZZLE_128B",
                         "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B", "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B",
                         "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B"};
  for (int v = 0; v < 7; ++v) {
    EXPECT_STREQ(tma_mode_of_value(v).driver_name, names[v]);
    EXPECT_EQ(tma_mode_named(names[v]).value, v);
    EXPECT_EQ(tma_mode_named(std::string(names[v]).substr(22)).value, v);  // "128B_ATOM_32B"
    EXPECT_EQ(tma_mode_of_value(v).sm100_only, v >= 4);
  }
  EXPECT_THROW(tma_mode_of_value(7), Error);
  EXPECT_THROW(tma_mode_named("128B_ATOM_16B"), Error);
  // The Hopper modes equal the factory the tool had (seed 002's 16-byte chunks).
  for (int v = 1; v <= 3; ++v) {
    const int width = tma_mode_of_value(v).span_bytes;
    EXPECT_TRUE(tma_mode_layout(tma_mode_of_value(v), {16, width / 2}, 16) == tma_swizzle(width, {16, width / 2}, 16)) << v;
  }
}

TEST(Sm100, TmaAtomModesFollowTheDriversWords) {  // [driver]
  for (int value : {3, 4, 5, 6})
    for (int bits : {8, 16, 32, 64}) {
      const std::int64_t rows = 16, cols = 128 * 8 / bits;
      const std::uint64_t eb = static_cast<std::uint64_t>(bits / 8);
      const SharedLayout s = tma_mode_layout(tma_mode_of_value(value), {rows, cols}, bits);
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c) {
          const std::uint64_t a = static_cast<std::uint64_t>(r * 128 + c * static_cast<std::int64_t>(eb));
          ASSERT_EQ(s.offset(s.coords().flatten({r, c})), sm100_driver_definition(value, a) / eb)
              << tma_mode_of_value(value).driver_name << " " << bits << "b (" << r << ", " << c << ")";
        }
    }
  // 128B_ATOM_32B is tcgen05's 32-byte-atom swizzle on a K-major tile ([desc]: both Swizzle<2,5,2>).
  EXPECT_TRUE(tma_mode_layout(tma_mode_of_value(4), {8, 32}, 32) == umma_layout(umma_mode_of_field(1), Major::K, {8, 32}, 32));
  // Whole 16-byte elements would be split by the 8-byte flip.
  EXPECT_THROW(byte_swizzled_tile(tma_mode_of_value(5).swizzle, 128, Major::K, {8, 8}, 128, 0, "flip"), Error);
}

TEST(Sm100, OperandRuleFollowsCutesSelector) {  // [select], [desc] a_major / b_major
  const auto tf32_mn = tcgen05_operand_modes("tf32", Major::MN);
  ASSERT_EQ(tf32_mn.size(), 1u);
  EXPECT_EQ(tf32_mn[0]->layout_type, 1);
  EXPECT_EQ(tcgen05_operand_modes("f32", Major::MN), tf32_mn);  // an f32 operand is read as tf32
  EXPECT_EQ(tcgen05_operand_modes("tf32", Major::K).front()->layout_type, 2);
  EXPECT_EQ(tcgen05_operand_modes("f16", Major::MN).front()->layout_type, 2);
  EXPECT_EQ(tcgen05_operand_modes("f8E4M3FN", Major::MN).size(), 4u);
  EXPECT_THROW(tcgen05_operand_modes("e2m1", Major::MN), Error);
  EXPECT_THROW(tcgen05_operand_modes("f64", Major::K), Error);
  EXPECT_NE(tcgen05_operand_rule("tf32", Major::MN).find("cannot express"), std::string::npos);
  // The #9252 answer as a tile: the 32-byte-atom swizzle on the MN-major atom.
  const SharedLayout answer = tcgen05_operand_layout("tf32", Major::MN);
  EXPECT_EQ(answer.shape(), (std::vector<std::int64_t>{32, 4}));
  for (std::int64_t mn = 0; mn < 32; ++mn)
    for (std::int64_t k = 0; k < 4; ++k)
      EXPECT_EQ(answer.offset(answer.coords().flatten({mn, k})),
                sm100_cute_swizzle(2, 5, 2, static_cast<std::uint64_t>(mn * 4 + k * 128)) / 4);
}

TEST(Sm100, ModeTextReadsNamesFieldsAndDescriptors) {
  const auto read = [](const std::string& text, const LayoutHints& hints = {}) {
    return parse_layout_text(text, "mode.txt", hints).layout.bases("offset");
  };
  const auto atom = read("UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>");
  EXPECT_EQ(atom, read("tcgen05 SWIZZLE_128B_BASE32B ; MN ; element_bits=32"));
  EXPECT_EQ(atom, read("tcgen05 layout_type=1 ; mn ; element_bits=32"));
  EXPECT_EQ(atom, read("tcgen05 descriptor=0x2000000000000000 ; MN", {{}, 32}));
  EXPECT_EQ(parse_layout_text("UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>").element_bits, 32);
  // A TMA mode by name and by value, in the shape the hints give.
  const auto tma = read("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B ; element_bits=32", {{16, 32}, std::nullopt});
  EXPECT_EQ(tma, read("tma value=4 ; element_bits=32", {{16, 32}, std::nullopt}));
  EXPECT_EQ(tma, tma_mode_layout(tma_mode_of_value(4), {16, 32}, 32).linear().bases("offset"));
  // Faults name the place and the fault.
  const auto fault = [](const std::string& text) {
    try {
      parse_layout_text(text, "mode.txt");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(fault("tcgen05 layout_type=3 ; element_bits=16").find("mode.txt: tcgen05 descriptor layout type 3 is not one"),
            std::string::npos);
  EXPECT_NE(fault("tcgen05 SWIZZLE_128B").find("give the element width"), std::string::npos);
  EXPECT_NE(fault("tcgen05 descriptor=0x4002000000000000 ; element_bits=16").find("base offset 1"), std::string::npos);
  EXPECT_NE(fault("CU_TENSOR_MAP_SWIZZLE_128B ; element_bits=16 ; sideways").find("unknown option 'sideways'"),
            std::string::npos);
  EXPECT_NE(fault("CU_TENSOR_MAP_SWIZZLE_128B ; MN ; element_bits=16").find("K-major"), std::string::npos);
  EXPECT_NE(fault("UMMA::Layout_K_SW128_Atom<half_t> ; MN").find("K-major"), std::string::npos);
}

// gpu.h's table: TMA on sm_90 and sm_100, tcgen05 on sm_100 alone; the 128B_ATOM modes with it.
TEST(Sm100, ModesNeedTheGpusThatHaveThem) {
  const GpuModel &h100 = gpu_named("h100"), &b200 = gpu_named("b200"), &mi300x = gpu_named("gfx942");
  EXPECT_FALSE(tma_mode_fault(tma_mode_of_value(3), h100));
  const auto atom_on_h100 = tma_mode_fault(tma_mode_of_value(4), h100);
  ASSERT_TRUE(atom_on_h100);
  EXPECT_NE(atom_on_h100->find("has no CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B: that TMA mode is sm_100's"), std::string::npos)
      << *atom_on_h100;
  for (int v = 0; v < 7; ++v) EXPECT_FALSE(tma_mode_fault(tma_mode_of_value(v), b200)) << v;
  EXPECT_TRUE(tma_mode_fault(tma_mode_of_value(3), mi300x));
  for (const UmmaMode& mode : umma_modes()) {
    EXPECT_TRUE(umma_mode_fault(mode, h100)) << mode.name;
    EXPECT_FALSE(umma_mode_fault(mode, b200)) << mode.name;
  }
  // The text form refuses a mode its gpu= lacks, in one line naming both.
  try {
    parse_layout_text("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B ; element_bits=32 ; gpu=h100", "mode.txt");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mode.txt: CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B: sm_90"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(parse_layout_text("UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t> ; gpu=b200"));
  EXPECT_THROW(parse_layout_text("UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t> ; gpu=mi300x"), Error);
}

TEST(Sm100, RecognizeNamesTheModes) {
  auto families = [](const SharedLayout& s, int bits) {
    std::vector<std::string> out;
    for (const LayoutMatch& m : recognize(s, bits)) out.push_back(m.family + ": " + m.name);
    return out;
  };
  const auto has = [](const std::vector<std::string>& names, const std::string& part) {
    for (const auto& n : names)
      if (n.find(part) != std::string::npos) return true;
    return false;
  };
  const auto mn = families(tcgen05_operand_layout("tf32", Major::MN), 32);
  EXPECT_TRUE(has(mn, "tcgen05: tcgen05 SWIZZLE_128B_BASE32B (MN-major, UMMA::LayoutType 1")) << ::testing::PrintToString(mn);
  EXPECT_TRUE(has(mn, "UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>"));
  const auto k = families(tma_mode_layout(tma_mode_of_value(4), {8, 32}, 32), 32);
  EXPECT_TRUE(has(k, "tma: TMA 128B_ATOM_32B (sm_100")) << ::testing::PrintToString(k);
  EXPECT_TRUE(has(k, "tcgen05: tcgen05 SWIZZLE_128B_BASE32B (K-major"));
  const auto flip = families(tma_mode_layout(tma_mode_of_value(5), {8, 64}, 16), 16);
  EXPECT_TRUE(has(flip, "TMA 128B_ATOM_32B_FLIP_8B")) << ::testing::PrintToString(flip);
  const auto h128 = families(tma_swizzle(128, {8, 64}, 16), 16);
  EXPECT_TRUE(has(h128, "tma: TMA 128B swizzle (= Swizzle<3,4,3> on byte addresses)"));
  EXPECT_TRUE(has(h128, "UMMA::Layout_K_SW128_Atom<half_t>"));
}

}  // namespace
}  // namespace swz
