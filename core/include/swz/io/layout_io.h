// layout_io.h: layout files. JSON uses Gluon's names, so a layout moves
// between Triton and this tool without translation:
//   distributed: {"reg_bases": [[0,1], ...], "lane_bases": [...], "warp_bases": [...],
//                 "block_bases": [], "shape": [16, 32], "element_bits": 32}
//   shared:      {"offset_bases": [...], "block_bases": [], "shape": [16, 32]}
// Each basis lists coordinates in dim order (dim0 first). A `swizzle solve --json`
// result reads as its "shared" layout.
//
// A layout file may also hold any text form of formats.h: Triton's LinearLayout text,
// CuTe, or a Triton layout attribute (#ttg.blocked, #ttg.nvmma_shared, ...) bare or in
// its tensor / memdesc type. A bare attribute other than #ttg.linear / #ttg.shared_linear
// has no shape of its own: it takes LayoutHints::shape (the command line's --shape).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "swz/io/limits.h"
#include "swz/layout/layout.h"

namespace swz {

enum class LayoutKind { Distributed, Shared };

struct LayoutFile {
  LayoutKind kind = LayoutKind::Distributed;
  LinearLayout layout;              // distributed: register, lane, warp, block; shared: offset, block
  std::optional<int> element_bits;
};

// What a layout's text may leave out, from elsewhere (the command line, a problem spec).
struct LayoutHints {
  std::vector<std::int64_t> shape;  // the tensor a bare Triton attribute lays out; empty: none given
  std::optional<int> element_bits;  // element width for a bare shared attribute that needs one (nvmma_shared)
};

LayoutFile layout_from_json(const nlohmann::json& j);
nlohmann::json layout_to_json(const LinearLayout& layout, std::optional<int> element_bits = std::nullopt);
// Any supported text form; `origin` names the source in messages.
LayoutFile parse_layout_text(const std::string& text, const std::string& origin = "layout", const LayoutHints& hints = {});
LayoutFile load_layout_file(const std::string& path, const LayoutHints& hints = {});
// Where a named layout's text comes from: the file of that name (an empty TextSource), or what a
// caller already holds under that name (the Python module's Layout objects, no file written).
using TextSource = std::function<std::string(const std::string& name)>;
LayoutFile load_layout_file(const std::string& path, const LayoutHints& hints, const TextSource& files);
// Fails naming `origin` when `hints` give a shape the layout does not cover, or an element width
// other than the one the layout states (its element_bits, its type's element, its elementBitWidth).
void check_given_shape(const LayoutFile& file, const LayoutHints& hints, const std::string& origin);
// The whole text of the file at `path` ("-": standard input), at most `max_bytes` of it: a longer
// file or stream is refused once that much is read (limits.h). A UTF-8 byte-order mark is dropped.
std::string read_text_file(const std::string& path, std::size_t max_bytes = kMaxInputBytes);
// The text named `path`: what `files` holds under that name, else the file's (read_text_file, whose
// errors name the file).
std::string read_text(const std::string& path, const TextSource& files);

}  // namespace swz
