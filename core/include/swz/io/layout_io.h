// layout_io.h: layout files. JSON uses Gluon's names, so a layout moves
// between Triton and this tool without translation:
//   distributed: {"reg_bases": [[0,1], ...], "lane_bases": [...], "warp_bases": [...],
//                 "block_bases": [], "shape": [16, 32], "element_bits": 32}
//   shared:      {"offset_bases": [...], "block_bases": [], "shape": [16, 32]}
// Each basis lists coordinates in dim order (dim0 first). A `swizzle solve --json`
// result reads as its "shared" layout.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "swz/layout/layout.h"

namespace swz {

enum class LayoutKind { Distributed, Shared };

struct LayoutFile {
  LayoutKind kind = LayoutKind::Distributed;
  LinearLayout layout;              // distributed: register, lane, warp, block; shared: offset, block
  std::optional<int> element_bits;
};

LayoutFile layout_from_json(const nlohmann::json& j);
nlohmann::json layout_to_json(const LinearLayout& layout, std::optional<int> element_bits = std::nullopt);
// Any supported text form; `origin` names the source in messages.
LayoutFile parse_layout_text(const std::string& text, const std::string& origin = "layout");
LayoutFile load_layout_file(const std::string& path);
std::string read_text_file(const std::string& path, std::size_t max_bytes = std::size_t{64} << 20);

}  // namespace swz
