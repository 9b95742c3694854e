#include "swz/io/layout_io.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "swz/error.h"
#include "swz/io/formats.h"
#include "swz/io/mode_text.h"

namespace swz {

namespace {

std::vector<Coords> read_bases(const nlohmann::json& j, const char* key, std::size_t rank) {
  std::vector<Coords> out;
  if (!j.contains(key)) return out;
  const auto& list = j.at(key);
  if (!list.is_array()) fail("'{}' must be a list of bases", key);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto& b = list[i];
    if (!b.is_array()) fail("{}[{}] must be a list of {} coordinates", key, i, rank);
    if (b.size() != rank) fail("{}[{}] has {} coordinates; the shape has {} dimensions", key, i, b.size(), rank);
    Coords c;
    for (const auto& x : b) {
      if (!x.is_number_integer()) fail("{}[{}] holds a non-integer coordinate", key, i);
      c.push_back(x.get<std::int64_t>());
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

LayoutFile layout_from_json(const nlohmann::json& j) {
  if (!j.is_object()) fail("a layout file holds one JSON object");
  if (!j.contains("shape")) fail("layout has no 'shape'");
  const auto& sj = j.at("shape");
  if (!sj.is_array() || sj.empty()) fail("'shape' must be a non-empty list of sizes");
  std::vector<std::int64_t> shape;
  for (const auto& x : sj) {
    if (!x.is_number_integer()) fail("'shape' holds a non-integer size");
    shape.push_back(x.get<std::int64_t>());
  }
  const auto outs = LinearLayout::out_dims_for_shape(shape);
  const bool shared = j.contains("offset_bases");
  const bool dist = j.contains("reg_bases") || j.contains("lane_bases") || j.contains("warp_bases");
  if (shared && dist) fail("layout mixes offset_bases with reg/lane/warp bases");
  if (!shared && !dist) fail("layout needs offset_bases (shared) or reg_bases/lane_bases/warp_bases (distributed)");
  static const char* known[] = {"reg_bases", "lane_bases",   "warp_bases", "block_bases", "offset_bases",
                                "shape",     "element_bits", "alignment",  "name"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(std::begin(known), std::end(known), it.key()) == std::end(known)) fail("unknown key '{}' in layout", it.key());
  LayoutFile f;
  const std::size_t rank = shape.size();
  if (shared) {
    f.kind = LayoutKind::Shared;
    f.layout = LinearLayout::from_coordinates(
        {{"offset", read_bases(j, "offset_bases", rank)}, {"block", read_bases(j, "block_bases", rank)}}, outs);
  } else {
    f.kind = LayoutKind::Distributed;
    f.layout = LinearLayout::from_coordinates({{"register", read_bases(j, "reg_bases", rank)},
                                               {"lane", read_bases(j, "lane_bases", rank)},
                                               {"warp", read_bases(j, "warp_bases", rank)},
                                               {"block", read_bases(j, "block_bases", rank)}},
                                              outs);
  }
  if (j.contains("element_bits")) {
    const auto& e = j.at("element_bits");
    if (!e.is_number_integer()) fail("'element_bits' must be an integer");
    const int bits = e.get<int>();
    if (bits != 4 && bits != 8 && bits != 16 && bits != 32 && bits != 64)
      fail("element_bits {} is not one of 4, 8, 16, 32, 64", bits);
    f.element_bits = bits;
  }
  return f;
}

nlohmann::json layout_to_json(const LinearLayout& layout, std::optional<int> element_bits) {
  nlohmann::json j = nlohmann::json::object();
  auto bases = [&](const std::string& in) {
    nlohmann::json list = nlohmann::json::array();
    for (BitVec b : layout.bases(in)) list.push_back(layout.unflatten(b));
    return list;
  };
  if (layout.has_in_dim("offset")) {
    j["offset_bases"] = bases("offset");
  } else {
    j["reg_bases"] = bases("register");
    j["lane_bases"] = bases("lane");
    j["warp_bases"] = bases("warp");
  }
  j["block_bases"] = bases("block");
  j["shape"] = layout.shape();
  if (element_bits) j["element_bits"] = *element_bits;
  return j;
}

namespace {

LayoutFile parse_any(const std::string& text, const std::string& origin, const LayoutHints& hints);

}  // namespace

LayoutFile parse_layout_text(const std::string& text, const std::string& origin, const LayoutHints& hints) {
  LayoutFile f = parse_any(text, origin, hints);
  check_given_shape(f, hints, origin);
  return f;
}

void check_given_shape(const LayoutFile& file, const LayoutHints& hints, const std::string& origin) {
  // A given shape is a claim about every form, not only the ones that need it; so is a given width.
  if (!hints.shape.empty() && file.layout.shape() != hints.shape)
    fail("{}: the layout covers a {} tensor but the given shape is {}", origin, fmt::join(file.layout.shape(), "x"),
         fmt::join(hints.shape, "x"));
  if (hints.element_bits && file.element_bits && *file.element_bits != *hints.element_bits)
    fail("{}: the layout states {}-bit elements but the given element width is {}", origin, *file.element_bits,
         *hints.element_bits);
}

namespace {

LayoutFile parse_any(const std::string& text, const std::string& origin, const LayoutHints& hints) {
  // A hardware mode by name (mode_text.h): a CuTe sm100 atom, a tcgen05 descriptor mode, a TMA mode.
  try {
    if (std::optional<LayoutFile> named = parse_mode_text(text, hints)) return *named;
  } catch (const Error& e) {
    fail("{}: {}", origin, e.what());
  }
  // Triton text, MLIR attributes and CuTe notation are told apart by their shape (formats.h).
  const auto format = detect_format(text);
  if (!format)
    fail(
        "{}: not a layout (expected JSON, Triton LinearLayout text, a Triton layout attribute such as #ttg.blocked<...>, CuTe "
        "shape:stride, or a mode such as UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t> or CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B)",
        origin);
  if (*format != TextFormat::Json) {
    try {
      switch (*format) {
        case TextFormat::Triton:
          return parse_triton_text(text);
        case TextFormat::Mlir:
          return parse_mlir(text, hints);
        default:
          return parse_cute(text);
      }
    } catch (const Error& e) {
      fail("{}: {}", origin, e.what());
    }
  }
  const nlohmann::json j = parse_json(text, origin);
  try {
    // A `swizzle solve --json` result holds its layout under "shared".
    if (j.is_object() && !j.contains("shape") && j.contains("shared") && j.at("shared").is_object()) {
      LayoutFile f = layout_from_json(j.at("shared"));
      if (!f.element_bits && j.contains("element_bits") && j.at("element_bits").is_number_integer())
        f.element_bits = j.at("element_bits").get<int>();
      return f;
    }
    return layout_from_json(j);
  } catch (const Error& e) {
    fail("{}: {}", origin, e.what());
  }
}

}  // namespace

namespace {
// Reads `in` to its end or to one byte past `max_bytes`, whichever comes first: a stream with no
// end (/dev/zero, a pipe that never closes its writer) stops at the cap, never at memory's end.
std::string read_bounded(std::istream& in, std::size_t max_bytes) {
  std::string s;
  char chunk[1 << 16];
  while (s.size() <= max_bytes && in.read(chunk, sizeof chunk).gcount() > 0) {
    s.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (!in) break;
  }
  return s;
}
}  // namespace

std::string read_text_file(const std::string& path, std::size_t max_bytes) {
  const std::string name = path == "-" ? std::string("<stdin>") : path;
  std::string s;
  if (path == "-") {  // standard input
    s = read_bounded(std::cin, max_bytes);
  } else {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) fail("'{}' is a directory, not a file", path);
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) fail("cannot open '{}': {}", path, errno != 0 ? std::strerror(errno) : "unknown reason");
    // A regular file is read straight into a string of its size (a stream's buffer would hold a
    // large dump about three times over); anything else, as a stream, a chunk at a time.
    const auto size = std::filesystem::is_regular_file(path, ec) ? std::filesystem::file_size(path, ec) : std::uintmax_t{0};
    if (!ec && size > 0) {
      if (size > max_bytes) fail("'{}' is larger than {} bytes", path, max_bytes);
      s.resize(static_cast<std::size_t>(size));
      in.read(s.data(), static_cast<std::streamsize>(size));
      s.resize(static_cast<std::size_t>(in.gcount()));
    } else {
      s = read_bounded(in, max_bytes);
    }
  }
  if (s.size() > max_bytes) fail("'{}' is larger than {} bytes", name, max_bytes);
  if (s.rfind("\xEF\xBB\xBF", 0) == 0) s.erase(0, 3);  // a UTF-8 byte-order mark, as some editors write
  return s;
}

std::string read_text(const std::string& path, const TextSource& files) { return files ? files(path) : read_text_file(path); }

LayoutFile load_layout_file(const std::string& path, const LayoutHints& hints) {
  return parse_layout_text(read_text_file(path), path, hints);
}

LayoutFile load_layout_file(const std::string& path, const LayoutHints& hints, const TextSource& files) {
  return parse_layout_text(read_text(path, files), path, hints);
}

}  // namespace swz
