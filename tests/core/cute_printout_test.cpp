// CuTe's own printouts: static integers, nested modes, Sw<B,M,S> o smem_ptr[Nb] o L (byte
// addresses) and Sw<B,M,S> o _0 o L (element offsets), checked on every GMMA shared-memory
// atom against CuTe's definitions (cute/atom/mma_traits_sm90_gmma.hpp):
//
//   Layout_K_{INTER,SW32,SW64,SW128}_Atom_Bits  = Swizzle<B,4,3> o smem_ptr_flag o (8, W):(W, 1)   bits
//   Layout_MN_{INTER,SW32,SW64,SW128}_Atom_Bits = Swizzle<B,4,3> o smem_ptr_flag o (W, 8):(1, W)   bits
//   W = 128, 256, 512, 1024 bits for B = 0, 1, 2, 3;  Layout_*_Atom<T> = upcast<sizeof_bits<T>>(...)
//
// The swizzle of an smem_ptr-flagged layout acts on byte addresses whatever the element type.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/io/formats.h"
#include "swz/layout/shared.h"
#include "swz/kernel/ttgir.h"

namespace {

swz::SharedLayout read(const std::string& text, std::optional<swz::SwizzleUnits> units = std::nullopt) {
  const swz::LayoutFile f = swz::parse_cute(text, units, /*strict=*/true);
  return swz::SharedLayout::from_linear(f.layout, text);
}

std::string error_of(const std::string& text, std::optional<swz::SwizzleUnits> units = std::nullopt) {
  try {
    swz::parse_cute(text, units, /*strict=*/true);
  } catch (const swz::Error& e) {
    return e.what();
  }
  return "";
}

struct Atom {
  bool k_major;
  int b;  // swizzle bits: 0 INTER, 1 SW32, 2 SW64, 3 SW128
  int element_bits;
  std::int64_t width_bits() const { return std::int64_t{128} << b; }
  std::int64_t width() const { return width_bits() / element_bits; }  // elements along the contiguous dim
  std::string printout() const {
    const auto w = width();
    const std::string layout = k_major ? fmt::format("(_8,_{}):(_{},_1)", w, w) : fmt::format("(_{},_8):(_1,_{})", w, w);
    return fmt::format("Sw<{},4,3> o smem_ptr[{}b](unset) o {}", b, element_bits, layout);
  }
  // CuTe's definition, evaluated directly: bit offset of the element, to bytes, swizzled, back to elements.
  std::uint64_t offset(std::int64_t contiguous, std::int64_t row) const {
    const std::uint64_t bits = static_cast<std::uint64_t>(row * width_bits() + contiguous * element_bits);
    const std::uint64_t byte = swz::cute_swizzle_apply(b, 4, 3, bits / 8);
    return byte * 8 / static_cast<std::uint64_t>(element_bits);
  }
};

TEST(CutePrintout, EveryGmmaAtomReadsAsCuteDefinesIt) {
  int atoms = 0;
  for (bool k_major : {true, false})
    for (int b = 0; b <= 3; ++b)
      for (int bits : {8, 16, 32}) {
        const Atom atom{k_major, b, bits};
        SCOPED_TRACE(atom.printout());
        const swz::SharedLayout s = read(atom.printout());
        ASSERT_EQ(s.shape(),
                  k_major ? (std::vector<std::int64_t>{8, atom.width()}) : (std::vector<std::int64_t>{atom.width(), 8}));
        for (std::int64_t row = 0; row < 8; ++row)
          for (std::int64_t c = 0; c < atom.width(); ++c) {
            const swz::Coords coords = k_major ? swz::Coords{row, c} : swz::Coords{c, row};
            ASSERT_EQ(s.offset(s.coords().flatten(coords)), atom.offset(c, row)) << "row " << row << " col " << c;
          }
        ++atoms;
      }
  EXPECT_EQ(atoms, 24);
}

TEST(CutePrintout, KMajorAtomsAreTheTmaSwizzlesAndTritonsNvmmaShared) {
  for (int b = 1; b <= 3; ++b)
    for (int bits : {8, 16, 32}) {
      const Atom atom{true, b, bits};
      SCOPED_TRACE(atom.printout());
      const int bytes = 16 << b;
      EXPECT_EQ(read(atom.printout()), swz::tma_swizzle(bytes, {8, atom.width()}, bits));
      const auto nvmma = swz::ttgir::convert(
          fmt::format("#ttg.nvmma_shared<{{swizzlingByteWidth = {}, transposed = false, elementBitWidth = {}}}>", bytes, bits),
          {8, atom.width()}, bits);
      EXPECT_EQ(read(atom.printout()), *nvmma.shared);
    }
}

TEST(CutePrintout, StaticIntegersAndNestedModes) {
  EXPECT_EQ(read("(_8,_64):(_64,_1)"), swz::row_major({8, 64}));
  EXPECT_EQ(read("((_8,_2),_64):((_64,_512),_1)"), swz::row_major({16, 64}));
  EXPECT_EQ(read("_64:_1"), swz::row_major({64}));
}

TEST(CutePrintout, OffsetZeroMeansElementUnits) {
  // 128-byte swizzle of fp16: Swizzle<3,4,3> on bytes is Swizzle<3,3,3> on elements.
  EXPECT_EQ(read("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"), read("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"));
  EXPECT_EQ(read("Swizzle<3,3,3> o (8,64):(64,1)", swz::SwizzleUnits::Elements), read("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"));
  EXPECT_EQ(read("Swizzle<3,4,3> o (8,64):(64,1) ; element_bits=16", swz::SwizzleUnits::Bytes),
            read("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"));
}

TEST(CutePrintout, ABareSwizzleNamesBothReadings) {
  const std::string e = error_of("Swizzle<3,4,3> o (8,64):(64,1)");
  EXPECT_NE(e.find("On element offsets it is CuTe's Sw<3,4,3> o _0 o (8,64):(64,1)"), std::string::npos) << e;
  EXPECT_NE(e.find("on byte addresses"), std::string::npos) << e;
  EXPECT_NE(e.find("--units elements|bytes"), std::string::npos) << e;
  // Lenient readers (older files) keep reading element offsets.
  EXPECT_NO_THROW(swz::parse_cute("Swizzle<3,4,3> o (8,64):(64,1)"));
}

TEST(CutePrintout, ContradictionsAreRefused) {
  EXPECT_NE(error_of("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1) ; elements").find("the layout says bytes"),
            std::string::npos);
  EXPECT_NE(error_of("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1) ; element_bits=32")
                .find("smem_ptr[16b] but element_bits=32"),
            std::string::npos);
  EXPECT_NE(error_of("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", swz::SwizzleUnits::Bytes).find("--units says"), std::string::npos);
  EXPECT_NE(error_of("Swizzle<3,4,3> o (8,64):(64,1)", swz::SwizzleUnits::Bytes).find("needs the element width"),
            std::string::npos);
}

}  // namespace
