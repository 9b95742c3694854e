// ttgir.h: Triton's layout attributes, as its 3.x dumps print them, turned
// into our linear layouts the way Triton's LinearLayoutConversions.cpp does.
//
// An attribute in a TTGIR module is MLIR text:
//
//   #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
//   tensor<128x64xf16, #ttg.slice<{dim = 1, parent = #blocked}>>
//   !ttg.memdesc<3x128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #smem,
//   mutable>
//
// It carries no shape: the shape comes from the type around it, and the
// linear layout depends on both (a layout smaller than the tensor repeats in
// registers; a larger one broadcasts). The conversion follows Triton's rules:
//
//   CTA tile       built per kind (blocked: register x lane x warp, each an
//                  identity in `order`; mma: the instruction's fragment, ...)
//   fit to shape   too small: more register (or offset) bases, out dims in
//                  the tile's own order; too large: the largest bases along
//                  that dim become zero, i.e. broadcast
//   CGA            `block` bases: CTAsPerCGA / CTASplitNum / CTAOrder (older
//                  dumps) or CGALayout = [[...]] (newer ones)
//
// Kinds: blocked, slice, nvidia_mma (versionMajor 2 and 3), dot_op (over
// nvidia_mma, amd_mfma, amd_wmma), amd_mfma, amd_wmma, linear (distributed);
// swizzled_shared, nvmma_shared, padded_shared, shared_linear (shared). The
// older `#triton_gpu.` spelling is the same dialect. Anything else throws
// swz::Error naming the kind ("not modelled").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "swz/io/layout_io.h"
#include "swz/layout/shared.h"

namespace swz::ttgir {

// -- MLIR attribute text ------------------------------------------------------
// One attribute value, parsed generically.
struct AttrField;

struct AttrNode {
  enum class Kind { Integer, Bool, Word, String, List, Dict, Dialect, Alias };
  Kind kind = Kind::Word;
  std::int64_t integer = 0;
  std::string text;             // Word / String: the text; Alias: name without '#'; Dialect: "ttg.blocked"
  std::vector<AttrNode> items;  // List items; Dialect: positional items
  std::vector<AttrField> fields;                               // Dict; Dialect: every key = value of its body
  std::vector<std::pair<std::int64_t, std::int64_t>> padding;  // padded_shared: [interval:+pad, ...]

  const AttrNode* field(const std::string& key) const;
  // "blocked" for #ttg.blocked / #triton_gpu.blocked; the full name for other dialects.
  std::string layout_kind() const;
};

// One `key = value` of a dictionary. A pair's members by name (first, second), as a struct so
// that AttrNode can hold a vector of them before it is complete.
struct AttrField {
  std::string first;
  AttrNode second;
  AttrField(std::string key, AttrNode value) : first(std::move(key)), second(std::move(value)) {}
};

// Parses one attribute value (throws swz::Error "expected ... at column N").
AttrNode parse_attribute(const std::string& text);

// What Triton's verifier refuses in a layout attribute before any shape is known: an unknown key
// (swizzlingBytWidth), a value no layout of its kind can have (swizzlingByteWidth = 96, a blocked
// layout whose threadsPerWarp holds other than `threads_per_warp` lanes), a misspelled kind.
// Inline parents are checked too. `key` names the field at fault ("" for the attribute's name).
struct AttrProblem {
  std::string key;
  std::string message;
};
std::optional<AttrProblem> check_attribute(const AttrNode& attribute, int threads_per_warp);
// For a ttg attribute name Triton does not have but that is within two edits of one it has
// ("nvma_shared"), that name; otherwise nothing (known names, and names too far from any).
std::optional<std::string> misspelled_attribute_kind(std::string_view kind);

// Alias name (without '#') -> its definition text.
using Aliases = std::map<std::string, std::string>;

// -- conversion ---------------------------------------------------------------
struct Layout {
  LayoutKind kind = LayoutKind::Distributed;
  std::string kind_name;  // "blocked", "nvmma_shared", ...
  // Distributed: register, lane, warp, block -> dim0..; shared: offset, block -> dim0..
  // (for padded_shared: the linear part, before padding).
  LinearLayout linear;
  // Shared only: where each element of one CTA's tile lives (padding included).
  std::optional<SharedLayout> shared;
};

// The layout of `attribute` (text, alias reference "#name", or parsed) over a
// tensor of `shape` whose elements are `element_bits` wide. Throws swz::Error.
Layout convert(const AttrNode& attribute, const std::vector<std::int64_t>& shape, int element_bits, const Aliases& aliases = {});
Layout convert(const std::string& attribute, const std::vector<std::int64_t>& shape, int element_bits,
               const Aliases& aliases = {});

// Where aliases are defined, for messages: "path:line: ..." (either may be empty).
struct AliasPlaces {
  std::string path;
  std::map<std::string, int> lines;  // alias name -> 1-based line of its definition
};

// The attribute with every alias reference in it replaced by its definition, at any depth: the one
// place references resolve. An undefined alias, a cycle (#a = #a; #a = #ttg.slice<{dim = 0, parent
// = #a}>; #a -> #b -> #a), nesting deeper than kMaxNesting (limits.h) or an expansion past a
// million values throws swz::Error naming the alias and, with `places`, the line of the definition
// that closes the cycle.
AttrNode resolve(const AttrNode& node, const Aliases& aliases, const AliasPlaces& places = {});
// Throws as resolve() would for any of `aliases` that is part of a cycle or nests too deep; an
// alias whose text is no attribute we read (debug info) is opaque. Each alias is visited once.
void check_aliases(const Aliases& aliases, const AliasPlaces& places);

// -- types -------------------------------------------------------------------
//   tensor<128x64xf16, #blocked>
//   !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable[, 3x128x64]>
struct Type {
  enum class Kind { Tensor, MemDesc, Other };
  Kind kind = Kind::Other;
  std::vector<std::int64_t> shape;
  std::string element;   // "f16", "!tt.ptr<f32>", ...
  int element_bits = 0;  // bits one element takes in memory (pointers 64, i1 8); 0 when unknown
  std::optional<AttrNode> encoding;
  std::optional<AttrNode> memory_space;  // memdesc: #smem / #ttng.tensor_memory
  bool is_mutable = false;
  std::vector<std::int64_t> alloc_shape;  // memdesc: the allocation's shape when printed
  std::string text;                       // the type as written
};
// Parses a tensor or memdesc type (throws swz::Error "expected ... at column N"); other types give Kind::Other.
Type parse_type(const std::string& text);
int element_bits_of(const std::string& element);  // 0 when unknown

// Shared layouts written back as Triton attributes.
std::string shared_linear_attribute(const LinearLayout& offset_to_coords, int alignment = 16);

}  // namespace swz::ttgir
