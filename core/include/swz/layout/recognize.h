// recognize.h: the names a shared layout goes by.
//
// A layout found by the solver, or read from a file, is often a member of a
// family people already use. recognize() tries each family and returns every
// name under which the layout is exactly the same table (offset of every
// element), so a user can write it with the tool they have:
//
//   row_major / column_major   plain tiles
//   cute                       CuTe Swizzle<B,M,S> o (row- or column-major), in element units,
//                              with the byte-unit form when elements are whole bytes
//                              (Swizzle<3,3,3> on fp16 elements == Swizzle<3,4,3> on bytes)
//   tma                        TMA 32B / 64B / 128B swizzle of a row-major box (base aligned), and sm_100's
//                              128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B (param tma_mode: the enum value)
//   tcgen05                    a tcgen05 shared-memory descriptor mode of a K- or MN-major [MN, K] tile
//                              (params layout_type: the 3-bit field, mn_major), with CuTe's sm100 atom
//   triton_swizzled            Triton SwizzledSharedLayout(vec, perPhase, maxPhase, order)
//   nvmma                      Triton NVMMASharedLayout(swizzle_byte_width, element_bitwidth, transposed)
//
// Families that need a 2-D tile are only tried on 2-D tiles.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "swz/layout/shared.h"

namespace swz {

struct LayoutMatch {
  std::string family;  // "row_major", "column_major", "cute", "tma", "tcgen05", "triton_swizzled", "nvmma"
  std::string name;    // display string, e.g. "CuTe Swizzle<4,1,4> o (16,32):(32,1) (element units)"
  // Family parameters by name, e.g. {"B",4},{"M",1},{"S",4} or {"vec",4},{"perPhase",1},...
  std::vector<std::pair<std::string, std::int64_t>> params;
};

std::vector<LayoutMatch> recognize(const SharedLayout& layout, int element_bits);

}  // namespace swz
