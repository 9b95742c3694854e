// sm100.cpp: the tcgen05 descriptor modes, TMA's modes and their tiles (sm100.h). CuTe's atom
// names and the operand rule are in sm100_cute.cpp.
#include "swz/layout/sm100.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/sim/gpu.h"

namespace swz {

std::uint64_t ByteSwizzle::apply(std::uint64_t a) const {
  std::uint64_t out = cute_swizzle_apply(b, m, s, a);
  if (flip_8b) out ^= ((a >> 7) & 1) << 3;
  return out;
}

std::uint64_t ByteSwizzle::repeat_bytes() const {
  if (b == 0 && !flip_8b) return 128;
  return std::uint64_t{1} << std::max(m + s + b, 8);
}

const char* major_name(Major major) { return major == Major::K ? "K" : "MN"; }

namespace {

// Upper case, so names read in any case.
std::string sm100_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// `text` without one of the prefixes, when it starts with it.
std::string_view sm100_strip(std::string_view text, std::initializer_list<std::string_view> prefixes) {
  for (std::string_view p : prefixes)
    if (text.substr(0, p.size()) == p) return text.substr(p.size());
  return text;
}

}  // namespace

// Field values and names: CuTe's UMMA::LayoutType (mma_sm100_desc.hpp) and the PTX ISA's tcgen05
// shared-memory descriptor; the swizzles: CuTe's layout_type(), Swizzle<B,4,3> for B = 0..3 and
// Swizzle<2,5,2>; the atoms: mma_traits_sm90_gmma.hpp (reused by UMMA) and mma_traits_sm100.hpp.
const std::vector<UmmaMode>& umma_modes() {
  static const std::vector<UmmaMode> modes = {
      {0, "SWIZZLE_NONE", {0, 4, 3, false}, 16, 8, "Layout_K_INTER_Atom", "Layout_MN_INTER_Atom"},
      {1, "SWIZZLE_128B_BASE32B", {2, 5, 2, false}, 128, 4, "", "Layout_MN_SW128_32B_Atom"},
      {2, "SWIZZLE_128B", {3, 4, 3, false}, 128, 8, "Layout_K_SW128_Atom", "Layout_MN_SW128_Atom"},
      {4, "SWIZZLE_64B", {2, 4, 3, false}, 64, 8, "Layout_K_SW64_Atom", "Layout_MN_SW64_Atom"},
      {6, "SWIZZLE_32B", {1, 4, 3, false}, 32, 8, "Layout_K_SW32_Atom", "Layout_MN_SW32_Atom"},
  };
  return modes;
}

const UmmaMode& umma_mode_named(std::string_view name) {
  const std::string key = sm100_upper(sm100_strip(name, {"cute::UMMA::LayoutType::", "UMMA::LayoutType::", "LayoutType::"}));
  for (const UmmaMode& mode : umma_modes()) {
    const std::string_view full = mode.name;
    if (key == full || key == full.substr(std::string_view("SWIZZLE_").size())) return mode;
  }
  fail(
      "'{}' is no tcgen05 descriptor mode (UMMA::LayoutType): SWIZZLE_NONE, SWIZZLE_128B_BASE32B, SWIZZLE_128B, "
      "SWIZZLE_64B, SWIZZLE_32B",
      name);
}

const UmmaMode& umma_mode_of_field(int layout_type) {
  for (const UmmaMode& mode : umma_modes())
    if (mode.layout_type == layout_type) return mode;
  fail("tcgen05 descriptor layout type {} is not one: 0 none, 1 128B_BASE32B, 2 128B, 4 64B, 6 32B (3, 5 and 7 are N/A)",
       layout_type);
}

UmmaDescriptorSwizzle umma_descriptor_swizzle(std::uint64_t descriptor) {
  return {&umma_mode_of_field(static_cast<int>(descriptor >> 61)), static_cast<int>((descriptor >> 49) & 7)};
}

std::uint64_t umma_descriptor_swizzle_bits(const UmmaMode& mode, int base_offset) {
  if (base_offset < 0 || base_offset > 7) fail("a tcgen05 descriptor's base offset is 3 bits (0..7), not {}", base_offset);
  return (static_cast<std::uint64_t>(mode.layout_type) << 61) | (static_cast<std::uint64_t>(base_offset) << 49);
}

int umma_base_offset(std::uint64_t pattern_start_address) { return static_cast<int>((pattern_start_address >> 7) & 7); }

// CUtensorMapSwizzle (CUDA driver API, cuTensorMapEncodeTiled): values 0..6 in enum order; the
// three 128B_ATOM modes are CUDA 12.8's, for sm_100 (CuTe's to_CUtensorMapSwizzle gates them so).
const std::vector<TmaMode>& tma_modes() {
  static const std::vector<TmaMode> modes = {
      {0, "CU_TENSOR_MAP_SWIZZLE_NONE", {0, 4, 3, false}, 0, false},
      {1, "CU_TENSOR_MAP_SWIZZLE_32B", {1, 4, 3, false}, 32, false},
      {2, "CU_TENSOR_MAP_SWIZZLE_64B", {2, 4, 3, false}, 64, false},
      {3, "CU_TENSOR_MAP_SWIZZLE_128B", {3, 4, 3, false}, 128, false},
      {4, "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B", {2, 5, 2, false}, 128, true},
      {5, "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B", {2, 5, 2, true}, 128, true},
      {6, "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B", {1, 6, 1, false}, 128, true},
  };
  return modes;
}

const TmaMode& tma_mode_named(std::string_view name) {
  const std::string key = sm100_upper(name);
  for (const TmaMode& mode : tma_modes()) {
    const std::string_view full = mode.driver_name;
    const std::string_view tail = full.substr(std::string_view("CU_TENSOR_MAP_SWIZZLE_").size());
    if (key == full || key == full.substr(std::string_view("CU_TENSOR_MAP_").size()) || key == tail) return mode;
  }
  fail(
      "'{}' is no TMA swizzle mode: NONE, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B "
      "(CU_TENSOR_MAP_SWIZZLE_...)",
      name);
}

const TmaMode& tma_mode_of_value(int value) {
  if (value < 0 || value >= static_cast<int>(tma_modes().size()))
    fail("CUtensorMapSwizzle {} is not one: 0..6 (NONE, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B)",
         value);
  return tma_modes()[static_cast<std::size_t>(value)];
}

std::optional<std::string> tma_mode_fault(const TmaMode& mode, const GpuModel& gpu) {
  if (!gpu.tma) return fmt::format("{} has no TMA, so no {}", gpu.title(), mode.driver_name);
  // The 128B_ATOM modes came with sm_100, the generation that brought tcgen05 (the table's flag for it).
  if (mode.sm100_only && !gpu.tcgen05) return fmt::format("{} has no {}: that TMA mode is sm_100's", gpu.title(), mode.driver_name);
  return std::nullopt;
}

std::optional<std::string> umma_mode_fault(const UmmaMode& mode, const GpuModel& gpu) {
  if (!gpu.tcgen05)
    return fmt::format("{} has no tcgen05, so no shared-memory descriptor mode {} (sm_100's)", gpu.title(), mode.name);
  return std::nullopt;
}

SharedLayout byte_swizzled_tile(const ByteSwizzle& swizzle, int span_bytes, Major major, const std::vector<std::int64_t>& shape,
                                int element_bits, std::uint64_t base, const std::string& name) {
  if (shape.size() != 2) fail("{}: the tile is [MN, K], 2-D; this one has {} dimensions", name, shape.size());
  if (element_bits < 8 || element_bits % 8 || !std::has_single_bit(static_cast<unsigned>(element_bits)))
    fail("{}: needs elements of whole bytes (8, 16, 32 or 64 bits), not {} bits", name, element_bits);
  const std::uint64_t eb = static_cast<std::uint64_t>(element_bits / 8);
  // The lowest byte-address bit the swizzle changes: M (S > 0), or 3 with the 8-byte flip.
  const std::uint64_t kept = std::uint64_t{1} << (swizzle.flip_8b ? 3 : swizzle.m);
  if (eb > kept) fail("{}: {}-byte elements would be split (the swizzle moves {}-byte pieces)", name, eb, kept);
  if (base % 16) fail("{}: the buffer must be 16-byte aligned; base 0x{:x} is not", name, base);
  const std::size_t contiguous = major == Major::K ? 1 : 0, other = 1 - contiguous;
  const std::uint64_t row_elements = static_cast<std::uint64_t>(span_bytes) / eb;
  if (shape[contiguous] < 1 || static_cast<std::uint64_t>(shape[contiguous]) != row_elements)
    fail("{}: {}-major rows span {} bytes, {} elements of {} bits along dim{}; the tile has {}", name, major_name(major),
         span_bytes, row_elements, element_bits, contiguous, shape[contiguous]);
  if (shape[other] < 1 || !std::has_single_bit(static_cast<std::uint64_t>(shape[other])))
    fail("{}: dim{} ({} rows) must be a power of two", name, other, shape[other]);
  std::string reason;
  std::string description = name;
  if (base % swizzle.repeat_bytes()) {
    description += fmt::format(" (base 0x{:x})", base);
    reason =
        fmt::format("base address 0x{:x} is not aligned to the {}-byte repeat: the pattern adds the base's row bits with carries",
                    base, swizzle.repeat_bytes());
  }
  const std::uint64_t span = static_cast<std::uint64_t>(span_bytes);
  return SharedLayout::from_function(
      shape,
      [=](const Coords& c) {
        const std::uint64_t row = static_cast<std::uint64_t>(c[other]), col = static_cast<std::uint64_t>(c[contiguous]);
        return (swizzle.apply(base + row * span + col * eb) - base) / eb;
      },
      description, reason);
}

SharedLayout umma_layout(const UmmaMode& mode, Major major, const std::vector<std::int64_t>& shape, int element_bits,
                         std::uint64_t base) {
  const std::string name = fmt::format("tcgen05 {} ({}-major, Swizzle<{},{},{}> on byte addresses)", mode.name, major_name(major),
                                       mode.swizzle.b, mode.swizzle.m, mode.swizzle.s);
  return byte_swizzled_tile(mode.swizzle, mode.span_bytes, major, shape, element_bits, base, name);
}

SharedLayout tma_mode_layout(const TmaMode& mode, const std::vector<std::int64_t>& shape, int element_bits, std::uint64_t base) {
  if (mode.span_bytes == 0) fail("{} does not swizzle: the box is row-major (give a swizzling mode)", mode.driver_name);
  if (base % 128) fail("TMA needs 128-byte aligned shared memory; base 0x{:x} is not", base);
  std::string name =
      fmt::format("TMA {}", std::string_view(mode.driver_name).substr(std::string_view("CU_TENSOR_MAP_SWIZZLE_").size()));
  name += mode.swizzle.flip_8b
              ? fmt::format(" (Swizzle<{},{},{}> and bit 3 ^= bit 7 on byte addresses)", mode.swizzle.b, mode.swizzle.m,
                            mode.swizzle.s)
              : fmt::format(" (Swizzle<{},{},{}> on byte addresses)", mode.swizzle.b, mode.swizzle.m, mode.swizzle.s);
  return byte_swizzled_tile(mode.swizzle, mode.span_bytes, Major::K, shape, element_bits, base, name);
}

}  // namespace swz
