// sm100.h: Blackwell's (sm_100) shared-memory swizzle forms, by name and by field value.
//
// Two descriptors say how a tile lies in shared memory on sm_100:
//   - tcgen05's shared-memory descriptor, which tcgen05.mma reads its A and B operands through
//     (PTX ISA, tcgen05 "shared memory descriptor"; CuTe's UMMA::SmemDescriptor in
//     include/cute/arch/mma_sm100_desc.hpp):
//         bits 61-63  layout type: 0 none, 1 128B with a 32-byte atom, 2 128B, 4 64B, 6 32B (3, 5, 7 N/A)
//         bits 49-51  base offset: (pattern start address >> 7) & 7
//   - TMA's tensor map, which fills the tile (CUDA driver API, CUtensorMapSwizzle): NONE 0, 32B 1,
//     64B 2, 128B 3, and on sm_100 128B_ATOM_32B 4, 128B_ATOM_32B_FLIP_8B 5, 128B_ATOM_64B 6.
//
// Each is a CuTe Swizzle<B,M,S> on byte addresses (CuTe's layout_type() and get_tma_swizzle_base()
// map them so), drawn high bit first ("ZZ ^= YY"):
//
//   128B              Swizzle<3,4,3>   0b YYY ZZZ xxxx      16-byte chunk ^= 128-byte row mod 8 (repeats 1024 B)
//   64B               Swizzle<2,4,3>   0b .YY .ZZ xxxx      (512 B)
//   32B               Swizzle<1,4,3>   0b ..Y ..Z xxxx      (256 B)
//   128B, 32-byte atom Swizzle<2,5,2>  0b YY ZZ xxxxx       32-byte chunk ^= row mod 4 (512 B)
//   128B, 64-byte atom Swizzle<1,6,1>  0b Y Z xxxxxx        64-byte half ^= row mod 2 (256 B)
//   ..._FLIP_8B       Swizzle<2,5,2>, then bit 3 ^= bit 7   the 8-byte halves of each 16-byte chunk
//                                                           swap on odd 128-byte rows
//
// The 64-byte atom and the flip are the driver's one-line definitions ("Swizzle 64B chunks within
// 128B span"; "additionally swap lower 8B with upper 8B within each 16B for every alternate row")
// written as bits: 128B's pattern with a wider chunk, as the 32-byte atom is. CuTe has no atom for
// either; its get_tma_swizzle_base() (copy_traits_sm90_tma_swizzle.hpp) files any Swizzle<2,6,S> as
// 128B_ATOM_64B without checking S ("S-condition as well?"), but a 128-byte span holds two 64-byte
// chunks, so one bit of XOR: Swizzle<1,6,1> here.
//
// A tile here is [MN, K] as CuTe's atoms are: K-major stores K contiguously (dim1), MN-major
// stores MN contiguously (dim0). The contiguous dimension spans exactly one row of the pattern
// (span_bytes); the other repeats the pattern's rows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "swz/layout/shared.h"

namespace swz {

struct GpuModel;  // swz/sim/gpu.h

// Swizzle<B,M,S> on byte addresses, with TMA's 8-byte flip on top when asked.
struct ByteSwizzle {
  int b = 0, m = 4, s = 3;
  bool flip_8b = false;  // then byte-address bit 3 ^= bit 7
  std::uint64_t apply(std::uint64_t byte_address) const;
  // Bytes after which the pattern repeats: 2^(M+S+B), or 128 (8 rows of 16 bytes) for none.
  std::uint64_t repeat_bytes() const;
};

enum class Major { K, MN };
const char* major_name(Major major);  // "K", "MN"

// -- tcgen05 shared-memory descriptor ---------------------------------------------------------
struct UmmaMode {
  int layout_type = 0;    // the descriptor's 3-bit field, UMMA::LayoutType's value
  const char* name = "";  // UMMA::LayoutType's spelling: "SWIZZLE_128B_BASE32B"
  ByteSwizzle swizzle;
  int span_bytes = 16;       // one row of the pattern: 16 (none), 32, 64, 128
  int atom_rows = 8;         // rows in CuTe's atom: 8, or 4 for the 32-byte atom
  const char* k_atom = "";   // CuTe's K-major atom ("Layout_K_SW128_Atom"); "" where CuTe has none
  const char* mn_atom = "";  // CuTe's MN-major atom ("Layout_MN_SW128_32B_Atom")
};
// The five, in field order 0, 1, 2, 4, 6.
const std::vector<UmmaMode>& umma_modes();
// "SWIZZLE_128B_BASE32B", "128B_BASE32B", "UMMA::LayoutType::SWIZZLE_128B", "none", ... (any case).
const UmmaMode& umma_mode_named(std::string_view name);
// The 3-bit field's value: 0, 1, 2, 4 or 6 (3, 5 and 7 are N/A: an error naming the five).
const UmmaMode& umma_mode_of_field(int layout_type);

struct UmmaDescriptorSwizzle {
  const UmmaMode* mode = nullptr;
  int base_offset = 0;  // bits 49-51
};
// Bits 61-63 and 49-51 of a 64-bit descriptor (the other fields are not read).
UmmaDescriptorSwizzle umma_descriptor_swizzle(std::uint64_t descriptor);
// Those bits set, every other bit clear; base_offset 0..7.
std::uint64_t umma_descriptor_swizzle_bits(const UmmaMode& mode, int base_offset);
// The base offset a pattern starting at `address` needs: (address >> 7) & 7.
int umma_base_offset(std::uint64_t pattern_start_address);

// -- TMA (CUtensorMapSwizzle) -----------------------------------------------------------------
struct TmaMode {
  int value = 0;                 // the enum's value, 0..6
  const char* driver_name = "";  // "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B"
  ByteSwizzle swizzle;
  int span_bytes = 0;       // the box's inner dimension spans this many bytes; 0 for NONE
  bool sm100_only = false;  // the three 128B_ATOM modes
};
const std::vector<TmaMode>& tma_modes();
// "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B", "SWIZZLE_128B_ATOM_32B", "128B_ATOM_32B", "128B" (any case).
const TmaMode& tma_mode_named(std::string_view name);
const TmaMode& tma_mode_of_value(int value);

// -- which GPUs have them (swz/sim/gpu.h's table) ---------------------------------------------
// One line naming the GPU and what it lacks, or nullopt: a TMA mode needs TMA (sm_90+), and the
// three 128B_ATOM modes sm_100 (CUDA 12.8 gates them with sm_100's tcgen05, CuTe's
// to_CUtensorMapSwizzle likewise); every tcgen05 descriptor mode needs tcgen05 (sm_100).
std::optional<std::string> tma_mode_fault(const TmaMode& mode, const GpuModel& gpu);
std::optional<std::string> umma_mode_fault(const UmmaMode& mode, const GpuModel& gpu);

// -- tiles --------------------------------------------------------------------------------------
// A [MN, K] tile under `swizzle` (module comment): the contiguous dim spans `span_bytes`, the other
// is a power of two; `base` is the buffer's byte address (16-byte aligned). Element offsets relative
// to the base. Linear when the base is aligned to the repeat.
SharedLayout byte_swizzled_tile(const ByteSwizzle& swizzle, int span_bytes, Major major, const std::vector<std::int64_t>& shape,
                                int element_bits, std::uint64_t base, const std::string& name);
SharedLayout umma_layout(const UmmaMode& mode, Major major, const std::vector<std::int64_t>& shape, int element_bits,
                         std::uint64_t base = 0);
// A TMA box is K-major here: dim1 is the inner (contiguous) dimension.
SharedLayout tma_mode_layout(const TmaMode& mode, const std::vector<std::int64_t>& shape, int element_bits,
                             std::uint64_t base = 0);

// -- CuTe's sm100 atoms (cute/atom/mma_traits_sm100.hpp, mma_traits_sm90_gmma.hpp) --------------
struct CuteAtom {
  const UmmaMode* mode = nullptr;
  Major major = Major::K;
  int element_bits = 16;
  std::string type;  // CuTe's element type as written: "half_t", "tfloat32_t", ...
};
// "UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>", "cute::UMMA::Layout_K_SW128_Atom<half_t>", GMMA:: too;
// nullopt when the text is no atom name; an error for an atom name CuTe lacks or an unknown type.
std::optional<CuteAtom> parse_cute_atom(std::string_view text);
// The element width of a CuTe element type name ("half_t" 16, "tfloat32_t" 32, "float_e4m3_t" 8).
std::optional<int> cute_type_bits(std::string_view type);
// "UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>"; an empty string where CuTe has no such atom.
std::string cute_atom_name(const CuteAtom& atom);
// The atom's [MN, K] shape in elements: K-major (rows, span / element), MN-major (span / element, rows).
std::vector<std::int64_t> cute_atom_shape(const CuteAtom& atom);
// What CuTe's print() writes for the atom: "Sw<2,5,2> o smem_ptr[32b](unset) o (_32,_4):(_1,_32)".
std::string cute_atom_printout(const CuteAtom& atom);
// The atom as a tile (its own shape, or `shape` repeating it along the non-contiguous dim).
SharedLayout cute_atom_layout(const CuteAtom& atom, const std::vector<std::int64_t>& shape = {});

// -- tcgen05 operands ---------------------------------------------------------------------------
// The descriptor modes a tcgen05.mma operand of `type` ("tf32", "f16", "bf16", "e4m3", "e5m2",
// "i8", "u8", "f32" read as tf32, "f8E4M3FN"-style MLIR names too) and major may use, best first,
// as CuTe's sm100 selector (cutlass/gemm/collective/builders/sm100_common.inl) offers them:
//   K-major: 128B, 64B, 32B, none.  MN-major: the same, except 32-bit (tf32) operands, whose only
//   MN-major layout is the 128B swizzle with a 32-byte atom.
// MN-major exists for e4m3, e5m2, i8/u8, f16, bf16 and tf32 only (the instruction descriptor's
// a_major / b_major bits, mma_sm100_desc.hpp): an error for others, naming the type.
std::vector<const UmmaMode*> tcgen05_operand_modes(std::string_view type, Major major);
// One line: which layout that operand needs and why ("tf32 MN-major: SWIZZLE_128B_BASE32B ...").
std::string tcgen05_operand_rule(std::string_view type, Major major);
// The operand type's element width: tf32 32, f16 / bf16 16, e4m3 / e5m2 / i8 8 (f4 / f6 packed: an error).
int tcgen05_operand_bits(std::string_view type);
// The first (best) of tcgen05_operand_modes as CuTe's atom, and as a tile: `shape` ([MN, K]), or the atom's.
CuteAtom tcgen05_operand_atom(std::string_view type, Major major);
SharedLayout tcgen05_operand_layout(std::string_view type, Major major, const std::vector<std::int64_t>& shape = {});
// The TMA mode that writes a descriptor mode's pattern (the same swizzle), or nullptr.
const TmaMode* tma_mode_for(const UmmaMode& mode);

// Everything one operand's question has for an answer (triton issue #9252: which layout a
// transposed tf32 operand needs), for the faces to print.
struct Tcgen05Answer {
  std::string type;  // as asked ("tf32")
  Major major = Major::K;
  std::vector<const UmmaMode*> modes;  // the legal descriptor modes, best first
  CuteAtom atom;                       // the best as CuTe's atom
  std::string atom_name, atom_printout;
  const TmaMode* tma = nullptr;       // the TMA mode that fills it
  std::uint64_t descriptor_bits = 0;  // bits 61-63 (base offset 0)
  bool nvmma_expressible = true;      // #ttg.nvmma_shared has a form for it (16-byte-atom swizzles only)
  std::string rule;                   // tcgen05_operand_rule's line
  SharedLayout layout;                // the tile
};
Tcgen05Answer tcgen05_operand_answer(std::string_view type, Major major, const std::vector<std::int64_t>& shape = {});

}  // namespace swz
