// mode_text.h: a shared layout named by the hardware mode that makes it, as one line of text
// (a layout file, `--shared`, `swizzle.Layout(...)`), read beside formats.h's forms:
//
//   UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>            a CuTe sm100 atom (cute:: and GMMA:: too)
//   tcgen05 SWIZZLE_128B_BASE32B ; MN ; element_bits=32    a tcgen05 descriptor mode by name
//   tcgen05 layout_type=1 ; MN ; element_bits=32           ... by its 3-bit field value (bits 61-63)
//   tcgen05 descriptor=0x2000000000000000 ; element_bits=16 ... from a descriptor's bits 61-63 and 49-51
//   CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B ; element_bits=32  a TMA mode by name (SWIZZLE_..., 128B_ATOM_32B)
//   tma value=4 ; element_bits=32                          ... by its CUtensorMapSwizzle value
//
// Options after ';': K or MN (the major; K by default; TMA boxes are K-major, their inner dimension
// contiguous), element_bits=N (or the hints' width), gpu=NAME (refuse a mode that GPU lacks, one
// line: `CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B ; gpu=h100` is sm_100's alone). The tile is [MN, K]: the hints' shape, else
// the pattern's own (the atom; a TMA mode's repeat). sm100.h says what each mode does.
#pragma once

#include <optional>
#include <string>

#include "swz/io/layout_io.h"

namespace swz {

// The layout, or nullopt when `text` names no mode (another form then reads it); an error naming
// the fault for a mode text that is wrong.
std::optional<LayoutFile> parse_mode_text(const std::string& text, const LayoutHints& hints = {});

}  // namespace swz
