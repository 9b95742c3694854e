// export_parts.h (private to core/src/export): what every export form shares: text
// made safe for comments, the layout's known names (CuTe, TMA, Triton), a linear
// map as shift/mask/XOR terms, the problem's comments, and padded rows.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"
#include "swz/layout/recognize.h"
#include "swz/layout/sm100.h"
#include "swz/sim/analysis.h"

namespace swz::export_parts {

// [SECTION] Text helpers

// Input text reduced to printable ASCII for a `//` comment: no newline can end
// the comment, no trailing backslash can splice the next line into it, no "??"
// can form a trigraph in older modes.
std::string comment_safe(std::string_view text);

// Appends each line of `text` as a comment line: `marker` ("//" or "#"), then `prefix`.
void comment_lines(std::string& out, std::string_view text, std::string_view prefix = " ", std::string_view marker = "//");

std::string upper(std::string_view s);

std::string shape_text(const std::vector<std::int64_t>& shape);

inline const LinearLayout& linear_or_fail(const ExportRequest& r, std::string_view what) {
  if (!r.shared.is_linear())
    fail("cannot export '{}' as {}: it is not linear over F2 ({}); only XOR-linear layouts have a shift/XOR form",
         r.shared.description(), what, r.shared.nonlinear_reason());
  return r.shared.linear();
}

void check_request(const ExportRequest& r, ExportFormat format);

// [SECTION] Known forms (CuTe, TMA, Triton)

std::int64_t param(const LayoutMatch& m, std::string_view key);

// The names recognize() finds, turned into what each ecosystem writes.
struct KnownForms {
  std::vector<std::string> names;         // every name the layout goes by
  std::optional<LayoutMatch> cute;        // a CuTe Swizzle<B,M,S> of a row- (preferred) or column-major tile
  std::string tma_mode;                   // CU_TENSOR_MAP_SWIZZLE_*, "" when none
  std::optional<CuteAtom> umma;           // the tcgen05 descriptor mode and major (and CuTe's atom) that read it
  std::int64_t repeat_bytes = 0;          // bytes after which a TMA / NVMMA pattern repeats (0: none)
  std::string triton_mlir, triton_gluon;  // a named Triton shared layout, "" when none
};

KnownForms known_forms(const SharedLayout& shared, int element_bits);

// The base alignment Triton is told: the analysis assumed the tile starts a row of banks,
// and a TMA / NVMMA pattern needs its repeat length; never more than the tile, at least 16.
std::int64_t alignment_bytes(const ExportRequest& r, const KnownForms& known);

// [SECTION] Linear maps as shift/mask/XOR terms

// (argument & mask) moved left by `shift` bits (right when negative).
struct Term {
  int arg = 0;
  int shift = 0;
  BitVec mask = 0;
};

// A linear map whose input bit j belongs to argument arg_of[j] as its bit bit_of[j],
// columns[j] = image of input bit j, as terms grouped by (argument, shift).
std::vector<Term> shift_terms(const std::vector<BitVec>& columns, const std::vector<int>& arg_of, const std::vector<int>& bit_of);

std::string terms_expression(const std::vector<Term>& terms, const std::vector<std::string>& arg_names);

// The pieces of a linear, invertible layout the header is made of.
struct HeaderMaps {
  std::vector<std::string> dim_names;                    // row, col (2-D) or dim0, dim1, ...
  std::vector<int> dim_bits;                             // log2 of each dim
  std::string offset_expr;                               // offset(dims...)
  std::vector<std::string> coord_exprs;                  // per dim, of `off`
  std::vector<BitVec> offset_rows;                       // offset_rows[k] = coordinate bits XORed into offset bit k
  bool has_byte_map = false;                             // false for 4-bit elements whose pairs the layout splits
  std::string swizzle_bytes_expr, unswizzle_bytes_expr;  // of `byte`
};

HeaderMaps header_maps(const LinearLayout& lin, int element_bits);

// [SECTION] Header

std::string access_summary(const char* title, const AccessAnalysis& a);

// Access layouts print register/lane/warp bases; the block dim is irrelevant to one CTA.
std::string access_layout_text(const Access& access);

void append_problem_comments(std::string& out, const Problem& p);

// `qualifiers decl = {items...};`, e.g. qualifiers "TILE_CONSTANT", decl "std::uint32_t shape[2]".
void append_array(std::string& out, const std::string& qualifiers, const std::string& decl,
                  const std::vector<std::string>& items);

// [SECTION] Padded rows

// The row stride S when the layout is offset(m, n) = m*S + n on a 2-D tile with S > n's range:
// rows of padding, the one non-XOR layout CuTe (as strides) and Triton (padded_shared) both write.

std::optional<std::int64_t> padded_row_stride(const SharedLayout& shared);

}  // namespace swz::export_parts
