// mode_text.cpp: layouts named by their hardware mode (mode_text.h).
#include "swz/io/mode_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "swz/error.h"
#include "swz/layout/sm100.h"
#include "swz/sim/gpu.h"

namespace swz {

namespace {

std::string mode_text_trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::string mode_text_lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A whole unsigned number, decimal or 0x-hexadecimal.
std::uint64_t mode_text_number(const std::string& text, const std::string& what) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  std::uint64_t v = 0;
  const char* first = text.data() + (hex ? 2 : 0);
  const auto [end, ec] = std::from_chars(first, text.data() + text.size(), v, hex ? 16 : 10);
  if (ec != std::errc() || end != text.data() + text.size() || first == end)
    fail("{}: '{}' is not a whole number (decimal or 0x...)", what, text);
  return v;
}

// `key=value` -> value, when `item` has that key.
std::optional<std::string> mode_text_value(const std::string& item, std::string_view key) {
  const std::size_t eq = item.find('=');
  if (eq == std::string::npos || mode_text_trim(item.substr(0, eq)) != key) return std::nullopt;
  return mode_text_trim(item.substr(eq + 1));
}

// What the head names: a descriptor mode (with the base offset a descriptor gave), a TMA mode or an atom.
struct NamedMode {
  const UmmaMode* umma = nullptr;
  int base_offset = 0;
  const TmaMode* tma = nullptr;
  std::optional<CuteAtom> atom;
};

std::optional<NamedMode> named_mode(const std::string& head) {
  NamedMode n;
  if (auto atom = parse_cute_atom(head)) {
    n.atom = atom;
    return n;
  }
  const std::string lower = mode_text_lower(head);
  if (lower.rfind("tcgen05 ", 0) == 0) {
    const std::string rest = mode_text_trim(std::string_view(head).substr(8));
    if (auto v = mode_text_value(rest, "layout_type")) {
      n.umma = &umma_mode_of_field(static_cast<int>(std::min<std::uint64_t>(mode_text_number(*v, "layout_type"), 8)));
    } else if (auto d = mode_text_value(rest, "descriptor")) {
      const UmmaDescriptorSwizzle fields = umma_descriptor_swizzle(mode_text_number(*d, "descriptor"));
      n.umma = fields.mode;
      n.base_offset = fields.base_offset;
    } else {
      n.umma = &umma_mode_named(rest);
    }
    return n;
  }
  if (lower.rfind("tma ", 0) == 0) {
    const std::string rest = mode_text_trim(std::string_view(head).substr(4));
    if (auto v = mode_text_value(rest, "value"))
      n.tma = &tma_mode_of_value(static_cast<int>(std::min<std::uint64_t>(mode_text_number(*v, "value"), 99)));
    else
      n.tma = &tma_mode_named(rest);
    return n;
  }
  if (lower.rfind("cu_tensor_map_swizzle_", 0) == 0) {
    n.tma = &tma_mode_named(head);
    return n;
  }
  return std::nullopt;
}

}  // namespace

std::optional<LayoutFile> parse_mode_text(const std::string& text, const LayoutHints& hints) {
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const std::size_t semi = text.find(';', start);
    parts.push_back(
        mode_text_trim(std::string_view(text).substr(start, semi == std::string::npos ? std::string::npos : semi - start)));
    if (semi == std::string::npos) break;
    start = semi + 1;
  }
  const std::optional<NamedMode> named = named_mode(parts[0]);
  if (!named) return std::nullopt;
  const std::string& what = parts[0];
  std::optional<Major> major;
  std::optional<int> bits;
  const GpuModel* gpu = nullptr;  // gpu=NAME: refuse a mode that GPU lacks
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string option = mode_text_lower(parts[i]);
    if (option == "k" || option == "k-major")
      major = Major::K;
    else if (option == "mn" || option == "mn-major")
      major = Major::MN;
    else if (auto g = mode_text_value(parts[i], "gpu"))
      gpu = &gpu_named(*g);
    else if (auto v = mode_text_value(option, "element_bits"))
      bits = static_cast<int>(std::min<std::uint64_t>(mode_text_number(*v, what), 1024));
    else
      fail("{}: unknown option '{}' (K, MN, element_bits=N, gpu=NAME)", what, parts[i]);
  }
  if (gpu) {
    const std::optional<std::string> fault =
        named->tma ? tma_mode_fault(*named->tma, *gpu) : umma_mode_fault(named->atom ? *named->atom->mode : *named->umma, *gpu);
    if (fault) fail("{}: {}", what, *fault);
  }
  if (named->atom) {
    if (major && *major != named->atom->major)
      fail("{}: the atom is {}-major; '{}' says otherwise", what, major_name(named->atom->major), major_name(*major));
    if (bits && *bits != named->atom->element_bits)
      fail("{}: the atom's elements are {} bits, not {}", what, named->atom->element_bits, *bits);
    bits = named->atom->element_bits;
    major = named->atom->major;
  }
  if (!bits) bits = hints.element_bits;
  if (!bits) fail("{}: give the element width (element_bits=N)", what);
  if (named->tma && major == Major::MN) fail("{}: a TMA box is K-major here (its inner dimension contiguous, dim1)", what);
  const Major m = major.value_or(Major::K);
  // The pattern's own tile: one atom (tcgen05), the rows of one repeat (TMA).
  const int span = named->tma ? named->tma->span_bytes : named->atom ? named->atom->mode->span_bytes : named->umma->span_bytes;
  const int rows = named->tma    ? static_cast<int>(named->tma->swizzle.repeat_bytes()) / std::max(span, 1)
                   : named->atom ? named->atom->mode->atom_rows
                                 : named->umma->atom_rows;
  if (*bits < 8 || *bits % 8) fail("{}: the swizzle moves bytes; {}-bit elements are not whole bytes", what, *bits);
  std::vector<std::int64_t> shape = hints.shape;
  if (shape.empty()) {
    const std::int64_t along = std::int64_t{span} * 8 / *bits;
    shape = m == Major::K ? std::vector<std::int64_t>{rows, along} : std::vector<std::int64_t>{along, rows};
  }
  SharedLayout s;
  try {
    if (named->atom)
      s = cute_atom_layout(*named->atom, shape);
    else if (named->tma)
      s = tma_mode_layout(*named->tma, shape, *bits);
    else
      s = umma_layout(*named->umma, m, shape, *bits, std::uint64_t{128} * static_cast<std::uint64_t>(named->base_offset));
  } catch (const Error& e) {
    fail("{}: {}", what, e.what());
  }
  if (!s.is_linear())
    fail(
        "{}: base offset {} starts the pattern mid-repeat, so the tile is not linear over F2 ({}); a layout file needs base "
        "offset 0",
        what, named->base_offset, s.nonlinear_reason());
  LayoutFile f;
  f.kind = LayoutKind::Shared;
  f.layout = LinearLayout({InDim{"offset", s.linear().bases("offset")}, InDim{"block", {}}}, s.linear().out_dims());
  f.element_bits = *bits;
  return f;
}

}  // namespace swz
