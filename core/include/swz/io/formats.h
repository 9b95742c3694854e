// formats.h: layouts as text, in the forms other tools print.
//
//   json    layout_io.h's Gluon-named object (the tool's own files).
//   triton  LinearLayout::toString() of Triton's C++:
//             - register=1 -> (0, 1)
//               register=2 -> (0, 2)
//             - lane=1 -> (1, 0)
//             ...
//             - block is a size 1 dimension
//           where out dims are: [dim0 (size 16), dim1 (size 32)]
//   mlir    the TritonGPU attributes
//             #ttg.linear<{register = [[0, 1]], lane = [...], warp = [...], block = []}>
//             #ttg.shared_linear<{offset = [[0, 1], ...]}, alignment = 16>
//           The attribute carries no shape: each dim's size is inferred as
//           Triton does (the next power of two above its largest coordinate),
//           unless the attribute sits inside a type that gives it:
//             tensor<16x32xf32, #ttg.linear<...>>, !ttg.memdesc<16x32xf16, #ttg.shared_linear<...>, ...>
//           (the element type then also gives the element width).
//           Every other layout attribute the audit reads (kernel/ttgir.h: blocked, slice,
//           nvidia_mma, dot_op, amd_mfma, amd_wmma, swizzled_shared, nvmma_shared, ...)
//           reads the same way, through the audit's own reader (ttgir::convert), so a
//           layout here is the one the audit computes. Those carry no shape at all: the
//           type around them gives it, or LayoutHints::shape (--shape) for a bare one:
//             tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], ...}>>
//             !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, ...}>, #smem>
//             #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>   with --shape 64x64
//           Alias lines copied from a TTGIR dump may come first:
//             #blocked = #ttg.blocked<{...}>
//             tensor<64x64xf16, #ttg.slice<{dim = 1, parent = #blocked}>>
//           padded_shared is not linear, so it has no form here (the audit reads it).
//   cute    a shared layout in CuTe notation, optionally composed with a swizzle:
//             (8,8):(1,8)
//             ((8,2),(4,4)):((4,32),(1,64))
//             Swizzle<3,2,3> o (8,8):(1,8)             (also "∘"; the swizzle acts on element offsets)
//             Swizzle<3,4,3> o (8,64):(64,1) ; bytes ; element_bits=16
//           Options after ';': "bytes" (the swizzle acts on byte addresses, as in
//           CuTe's smem atoms and TMA), "elements" and "element_bits=N". Mode i is tensor dim i.
//           CuTe's own printouts are read as they are, static integers (_8) included:
//             (_8,_64):(_64,_1)     ((_8,_2),_64):((_64,_512),_1)
//             Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)   the swizzle on byte
//                                   addresses, 16-bit elements (GMMA::Layout_K_SW128_Atom<half_t>)
//             Sw<3,3,3> o _0 o (_8,_64):(_64,_1)                     the swizzle on element offsets
//           A bare Swizzle<B,M,S> o L says neither: strict readers (swizzle convert) refuse
//           it naming both readings unless told the units; others read elements.
//           A CuTe layout must be linear over F2 (power-of-two strides forming a
//           permutation of the offset bits) to become a linear layout.
//
// Writing fails with one line when the layout has no form in the target: a
// distributed layout in CuTe, or a shared layout that is no Swizzle<B,M,S> of a
// power-of-two shape:stride layout.
#pragma once

#include <optional>
#include <string>

#include "swz/layout/factories.h"
#include "swz/io/layout_io.h"

namespace swz {

enum class TextFormat { Json, Triton, Mlir, Cute };

// "json", "triton", "mlir", "cute" (throws swz::Error naming the four).
TextFormat parse_text_format(const std::string& name);
const char* format_name(TextFormat f);
// Which form a text is in, by its shape; nullopt when none fits.
std::optional<TextFormat> detect_format(const std::string& text);

LayoutFile parse_triton_text(const std::string& text);
LayoutFile parse_mlir(const std::string& text, const LayoutHints& hints = {});
LayoutFile parse_cute(const std::string& text);
// `units`: what a bare swizzle acts on (the printout's own smem_ptr / _0, or "; bytes" /
// "; elements", must agree with it). `strict`: with neither, fail naming both readings.
LayoutFile parse_cute(const std::string& text, std::optional<SwizzleUnits> units, bool strict);

std::string to_triton_text(const LinearLayout& layout);
// The bare attribute when the bases give the shape; otherwise wrapped in a
// tensor / memdesc type, whose element type comes from `element_bits` (f32 if unknown).
std::string to_mlir(const LinearLayout& layout, std::optional<int> element_bits = std::nullopt, int alignment = 16);
// The CuTe form of a shared layout (offset -> coords), or nullopt when it has none.
std::optional<std::string> to_cute(const LinearLayout& shared_layout);

// A layout file written in any format (throws swz::Error when there is no such form).
std::string write_layout(const LayoutFile& file, TextFormat format);

}  // namespace swz
