// formats.cpp: readers and writers for formats.h.
//
// Index:
//   [SECTION] Cursor     a tiny character cursor for the three grammars
//   [SECTION] Triton     toString() text
//   [SECTION] MLIR       #ttg.linear / #ttg.shared_linear; every other Triton attribute via ttgir::convert
//   [SECTION] CuTe       [Swizzle<B,M,S> o] shape:stride [; bytes] [; element_bits=N]
//   [SECTION] Dispatch   detect, write
#include "swz/io/formats.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <map>

#include "swz/error.h"
#include "swz/kernel/ttgir.h"
#include "swz/layout/factories.h"
#include "swz/layout/shared.h"

namespace swz {

namespace {

// [SECTION] Cursor

struct Cursor {
  std::string_view text;
  std::size_t pos = 0;
  const char* what;  // "Triton layout text", ... for messages

  void skip_ws() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  }
  bool at_end() {
    skip_ws();
    return pos >= text.size();
  }
  bool accept(std::string_view token) {
    skip_ws();
    if (text.substr(pos, token.size()) != token) return false;
    pos += token.size();
    return true;
  }
  void expect(std::string_view token) {
    if (!accept(token)) fail("{}: expected '{}' at column {}, found '{}'", what, token, pos + 1, excerpt());
  }
  std::string excerpt() const {
    if (pos >= text.size()) return "end of text";
    std::string s(text.substr(pos, 12));
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
  }
  std::int64_t integer() {
    skip_ws();
    const std::size_t start = pos;
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) ++pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos == start || (pos == start + 1 && !std::isdigit(static_cast<unsigned char>(text[start]))))
      fail("{}: expected a number at column {}, found '{}'", what, start + 1, excerpt());
    const std::string digits(text.substr(start, pos - start));
    if (digits.size() > 12) fail("{}: number '{}' is too large", what, digits);
    return std::stoll(digits);
  }
  std::string identifier() {
    skip_ws();
    const std::size_t start = pos;
    while (pos < text.size() && (std::isalnum(static_cast<unsigned char>(text[pos])) || text[pos] == '_')) ++pos;
    if (pos == start) fail("{}: expected a name at column {}, found '{}'", what, start + 1, excerpt());
    return std::string(text.substr(start, pos - start));
  }
};

std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

bool is_distributed_dim(const std::string& n) { return n == "register" || n == "lane" || n == "warp" || n == "block"; }

// Builds the file from named bases, in the same dim order JSON files get.
LayoutFile make_file(const std::map<std::string, std::vector<Coords>>& bases, const std::vector<std::int64_t>& shape,
                     const char* what) {
  bool shared = false, distributed = false;
  for (const auto& [name, _] : bases) {
    if (name == "offset")
      shared = true;
    else if (name == "register" || name == "lane" || name == "warp")
      distributed = true;
    else if (name != "block")
      fail("{}: unknown input dim '{}' (distributed: register, lane, warp, block; shared: offset, block)", what, name);
  }
  if (shared && distributed) fail("{}: mixes offset with register/lane/warp input dims", what);
  if (!shared && !distributed) fail("{}: needs offset (shared) or register/lane/warp (distributed) bases", what);
  auto get = [&](const char* n) {
    auto it = bases.find(n);
    return it == bases.end() ? std::vector<Coords>{} : it->second;
  };
  const auto outs = LinearLayout::out_dims_for_shape(shape);
  LayoutFile f;
  if (shared) {
    f.kind = LayoutKind::Shared;
    f.layout = LinearLayout::from_coordinates({{"offset", get("offset")}, {"block", get("block")}}, outs);
  } else {
    f.kind = LayoutKind::Distributed;
    f.layout = LinearLayout::from_coordinates(
        {{"register", get("register")}, {"lane", get("lane")}, {"warp", get("warp")}, {"block", get("block")}}, outs);
  }
  return f;
}

void check_coords(const Coords& c, std::size_t rank, const std::string& in, const char* what) {
  if (c.size() != rank) fail("{}: a {} basis has {} coordinates; the layout has {} out dims", what, in, c.size(), rank);
  for (auto x : c)
    if (x < 0) fail("{}: a {} basis has a negative coordinate {}", what, in, x);
}

}  // namespace

// [SECTION] Triton

LayoutFile parse_triton_text(const std::string& text) {
  const char* what = "Triton layout text";
  std::map<std::string, std::vector<Coords>> bases;
  std::vector<std::int64_t> shape;
  bool have_outs = false;
  std::size_t start = 0;
  int line_no = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = trim(std::string_view(text).substr(start, end - start));
    start = end + 1;
    ++line_no;
    if (line.empty()) continue;
    if (have_outs) fail("{}: line {} comes after the 'where out dims are' line", what, line_no);
    Cursor c{line, 0, what};
    if (c.accept("where out dims are:")) {
      c.expect("[");
      int d = 0;
      while (!c.accept("]")) {
        if (d > 0) c.expect(",");
        const std::string name = c.identifier();
        if (name != fmt::format("dim{}", d)) fail("{}: out dim {} is named '{}'; expected dim{}", what, d, name, d);
        c.expect("(");
        c.expect("size");
        shape.push_back(c.integer());
        c.expect(")");
        ++d;
      }
      if (!c.at_end()) fail("{}: unexpected '{}' after the out dims", what, c.excerpt());
      have_outs = true;
      continue;
    }
    if (line == "(empty layout)") continue;
    c.accept("-");
    const std::string name = c.identifier();
    if (c.accept("is a size 1 dimension")) {
      if (bases.count(name)) fail("{}: input dim '{}' appears twice", what, name);
      bases[name];
      continue;
    }
    c.expect("=");
    const std::int64_t value = c.integer();
    auto& list = bases[name];
    if (value != (std::int64_t{1} << list.size()))
      fail("{}: line {}: expected {}={}, found {}={}", what, line_no, name, std::int64_t{1} << list.size(), name, value);
    c.expect("->");
    c.expect("(");
    Coords coords;
    while (!c.accept(")")) {
      if (!coords.empty()) c.expect(",");
      coords.push_back(c.integer());
    }
    if (!c.at_end()) fail("{}: line {}: unexpected '{}'", what, line_no, c.excerpt());
    list.push_back(std::move(coords));
    if (list.size() > 30) fail("{}: input dim '{}' has more than 30 bases", what, name);
  }
  if (!have_outs) fail("{}: missing the 'where out dims are: [...]' line", what);
  for (const auto& [name, list] : bases)
    for (const auto& co : list) check_coords(co, shape.size(), name, what);
  return make_file(bases, shape, what);
}

std::string to_triton_text(const LinearLayout& layout) {
  std::string s;
  for (const auto& d : layout.in_dims()) {
    if (d.bases.empty()) {
      s += fmt::format(" - {} is a size 1 dimension\n", d.name);
      continue;
    }
    for (std::size_t i = 0; i < d.bases.size(); ++i)
      s += fmt::format("{}{}={} -> ({})\n", i == 0 ? " - " : "   ", d.name, std::uint64_t{1} << i,
                       fmt::join(layout.unflatten(d.bases[i]), ", "));
  }
  std::vector<std::string> outs;
  for (const auto& o : layout.out_dims()) outs.push_back(fmt::format("{} (size {})", o.name, std::int64_t{1} << o.log2_size));
  return s + fmt::format("where out dims are: [{}]\n", fmt::join(outs, ", "));
}

// [SECTION] MLIR

namespace {

int element_bits_of_type(const std::string& type, const char* what) {
  std::string digits;
  std::size_t i = 0;
  while (i < type.size() && !std::isdigit(static_cast<unsigned char>(type[i]))) ++i;
  while (i < type.size() && std::isdigit(static_cast<unsigned char>(type[i]))) digits += type[i++];
  // More than two digits is no supported width (and would overflow stoi past nine).
  const int bits = digits.empty() || digits.size() > 2 ? 0 : std::stoi(digits);
  if (bits != 4 && bits != 8 && bits != 16 && bits != 32 && bits != 64)
    fail("{}: element type '{}' is not 4, 8, 16, 32 or 64 bits wide", what, type);
  return bits;
}

const char* mlir_type_for(int bits) {
  switch (bits) {
    case 4:
      return "i4";
    case 8:
      return "i8";
    case 16:
      return "f16";
    case 64:
      return "f64";
    default:
      return "f32";
  }
}

// The whole attribute name at the start of `text` ("#ttg.nvmma_shared"), for messages.
std::string attribute_name(std::string_view text) {
  std::size_t end = text.empty() || text[0] != '#' ? 0 : 1;
  while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_' || text[end] == '.')) ++end;
  return end == 0 ? trim(text.substr(0, text.find_first_of("<\n"))) : std::string(text.substr(0, end));
}

std::vector<std::int64_t> inferred_shape(const std::map<std::string, std::vector<Coords>>& bases, std::size_t rank) {
  std::vector<std::int64_t> shape(rank, 1);
  for (const auto& [_, list] : bases)
    for (const auto& c : list)
      for (std::size_t d = 0; d < rank; ++d)
        shape[d] =
            std::max<std::int64_t>(shape[d], static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(c[d]) + 1)));
  return shape;
}


// #ttg.linear / #ttg.shared_linear written inline: their bases give the shape when no type
// (or hint) does, which ttgir::convert cannot do.
LayoutFile parse_linear_mlir(const std::string& text, const LayoutHints& hints) {
  const char* what = "MLIR layout attribute";
  const std::string t = trim(text);
  std::size_t at = t.find("#ttg.");
  if (at == std::string::npos) fail("{}: expected #ttg.linear<...> or #ttg.shared_linear<...>", what);
  std::optional<std::vector<std::int64_t>> type_shape;
  std::optional<int> element_bits;
  // A type around the attribute: tensor<16x32xf32, #ttg...> or !ttg.memdesc<16x32xf16, #ttg...>.
  for (const char* opener : {"tensor<", "!ttg.memdesc<"}) {
    const std::size_t o = t.find(opener);
    if (o == std::string::npos || o > at) continue;
    Cursor c{std::string_view(t).substr(o + std::string_view(opener).size(), at - o - std::string_view(opener).size()), 0, what};
    std::vector<std::int64_t> shape;
    for (;;) {
      c.skip_ws();
      if (c.pos < c.text.size() && std::isdigit(static_cast<unsigned char>(c.text[c.pos]))) {
        shape.push_back(c.integer());
        c.expect("x");
      } else {
        break;
      }
    }
    std::string type = c.identifier();
    c.expect(",");
    if (!c.at_end()) fail("{}: unexpected '{}' before the attribute", what, c.excerpt());
    if (shape.empty()) fail("{}: the {} type has no shape", what, opener);
    type_shape = shape;
    element_bits = element_bits_of_type(type, what);
  }
  Cursor c{t, at, what};
  bool shared = false;
  if (c.accept("#ttg.shared_linear<"))
    shared = true;
  else if (!c.accept("#ttg.linear<"))
    fail("{}: expected #ttg.linear<...> or #ttg.shared_linear<...>, found '{}'", what, attribute_name(t.substr(at)));
  c.expect("{");
  std::map<std::string, std::vector<Coords>> bases;
  std::size_t rank = 0;
  bool first = true;
  while (!c.accept("}")) {
    if (!first) c.expect(",");
    first = false;
    const std::string name = c.identifier();
    if (shared ? (name != "offset" && name != "block") : !is_distributed_dim(name))
      fail("{}: '{}' is not an input dim of #ttg.{}", what, name, shared ? "shared_linear" : "linear");
    if (bases.count(name)) fail("{}: '{}' appears twice", what, name);
    c.expect("=");
    c.expect("[");
    auto& list = bases[name];
    while (!c.accept("]")) {
      if (!list.empty()) c.expect(",");
      c.expect("[");
      Coords co;
      while (!c.accept("]")) {
        if (!co.empty()) c.expect(",");
        co.push_back(c.integer());
      }
      if (co.empty()) fail("{}: a basis of '{}' has no coordinates", what, name);
      if (rank == 0) rank = co.size();
      check_coords(co, rank, name, what);
      list.push_back(std::move(co));
      if (list.size() > 30) fail("{}: '{}' has more than 30 bases", what, name);
    }
  }
  if (shared && c.accept(",")) {
    c.expect("alignment");
    c.expect("=");
    const auto alignment = c.integer();
    if (alignment <= 0 || !std::has_single_bit(static_cast<std::uint64_t>(alignment)))
      fail("{}: alignment {} is not a power of two", what, alignment);
  }
  c.expect(">");
  if (type_shape && !hints.shape.empty() && *type_shape != hints.shape)
    fail("{}: the type gives the shape {} but the given shape is {}", what, fmt::join(*type_shape, "x"), fmt::join(hints.shape, "x"));
  if (!type_shape && !hints.shape.empty()) {
    type_shape = hints.shape;
    element_bits = hints.element_bits;
  }
  if (type_shape) {
    if (rank != 0 && type_shape->size() != rank)
      fail("{}: the type has {} dims but the bases have {} coordinates", what, type_shape->size(), rank);
    rank = type_shape->size();
  }
  if (rank == 0) fail("{}: no bases to infer the shape from; wrap it in a tensor<...> type", what);
  const std::vector<std::int64_t> shape = type_shape ? *type_shape : inferred_shape(bases, rank);
  LayoutFile f = make_file(bases, shape, what);
  f.element_bits = element_bits;
  return f;
}

bool is_width(int bits) { return bits == 4 || bits == 8 || bits == 16 || bits == 32 || bits == 64; }

}  // namespace

LayoutFile parse_mlir(const std::string& text, const LayoutHints& hints) {
  const char* what = "MLIR layout attribute";
  // Alias lines of a TTGIR dump (#blocked = #ttg.blocked<...>), then the layout.
  ttgir::Aliases aliases;
  ttgir::AliasPlaces places;  // each alias's line, for messages
  std::string body;
  std::size_t start = 0;
  int line_no = 0;
  while (start < text.size()) {
    ++line_no;
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = trim(std::string_view(text).substr(start, end - start));
    start = end + 1;
    const std::size_t eq = line.find('=');
    const std::string name = line.empty() || line[0] != '#' ? "" : attribute_name(line);
    if (eq != std::string::npos && !name.empty() && name.find('.') == std::string::npos && trim(line.substr(name.size(), eq - name.size())).empty()) {
      aliases[name.substr(1)] = trim(line.substr(eq + 1));
      places.lines[name.substr(1)] = line_no;
      continue;
    }
    body += line + "\n";
  }
  body = trim(body);
  if (body.empty()) fail("{}: only alias definitions; add the layout (an attribute, or a tensor<...> / !ttg.memdesc<...> type)", what);
  std::optional<ttgir::Type> type;
  ttgir::AttrNode attribute;
  try {
    if (body.rfind("tensor<", 0) == 0 || body.rfind("!ttg.memdesc<", 0) == 0 || body.rfind("!triton_gpu.memdesc<", 0) == 0) {
      type = ttgir::parse_type(body);
      if (!type->encoding) fail("the type {} has no layout attribute", body);
      attribute = *type->encoding;
    } else {
      attribute = ttgir::parse_attribute(body);
    }
    attribute = ttgir::resolve(attribute, aliases, places);
  } catch (const Error& e) {
    fail("{}: {}", what, e.what());
  }
  if (attribute.kind != ttgir::AttrNode::Kind::Dialect)
    fail("{}: expected a layout attribute such as #ttg.blocked<...>, found '{}'", what, attribute_name(body));
  const std::string name = "#" + attribute.text;
  // Inline #ttg.linear / #ttg.shared_linear may infer their shape from their bases.
  if ((attribute.text == "ttg.linear" || attribute.text == "ttg.shared_linear") && aliases.empty())
    return parse_linear_mlir(body, hints);
  std::vector<std::int64_t> shape = hints.shape;
  std::optional<int> element_bits;  // what the text states (its type's element, its elementBitWidth), over a given width
  if (type) {
    if (!hints.shape.empty() && hints.shape != type->shape)
      fail("{}: the type gives the shape {} but the given shape is {}", name, fmt::join(type->shape, "x"), fmt::join(hints.shape, "x"));
    shape = type->shape;
    if (!is_width(type->element_bits))
      fail("{}: element type '{}' is not 4, 8, 16, 32 or 64 bits wide", name, type->element);
    element_bits = type->element_bits;
  }
  if (const ttgir::AttrNode* width = attribute.field("elementBitWidth")) {
    if (element_bits && *element_bits != width->integer)
      fail("{}: elementBitWidth = {} but the type's elements ({}) are {}-bit", name, width->integer, type->element,
           *element_bits);
    element_bits = static_cast<int>(width->integer);
  }
  if (element_bits && hints.element_bits && *element_bits != *hints.element_bits)
    fail("{}: {} {} but the given element width is {} (--bits)", name, type ? "the type's elements are" : "elementBitWidth =",
         type ? fmt::format("{}-bit", *element_bits) : std::to_string(*element_bits), *hints.element_bits);
  if (!element_bits) element_bits = hints.element_bits;
  if (shape.empty())
    fail("{} carries no shape: give the tensor's shape (--shape ROWSxCOLS) or write the attribute inside its type, e.g. "
         "tensor<64x64xf16, {}<...>> or !ttg.memdesc<64x64xf16, {}<...>, #ttg.shared_memory>",
         name, name, name);
  const std::string kind = attribute.layout_kind();
  if ((kind == "nvmma_shared" || kind == "shared") && !element_bits)
    fail("{} needs the element width: its elementBitWidth, an element type (!ttg.memdesc<64x64xf16, ...>) or --bits", name);
  ttgir::Layout l;
  try {
    l = ttgir::convert(attribute, shape, element_bits.value_or(0), aliases);
  } catch (const Error& e) {
    const std::string why = e.what();
    // The audit's messages mostly name the attribute; say which when they do not.
    fail("{}", why.find(name) != std::string::npos || why.find("#ttg.") != std::string::npos ? why : name + ": " + why);
  }
  if (l.shared && !l.shared->is_linear())
    fail("{}: {} adds padding, so it is no linear layout and has no form here (swizzle audit reads it in a kernel)", name,
         l.shared->description());
  LayoutFile f;
  f.kind = l.kind;
  f.layout = std::move(l.linear);
  if (element_bits && is_width(*element_bits)) f.element_bits = element_bits;
  return f;
}

std::string to_mlir(const LinearLayout& layout, std::optional<int> element_bits, int alignment) {
  auto list = [&](const std::string& in) {
    std::vector<std::string> items;
    for (BitVec b : layout.bases(in)) items.push_back(fmt::format("[{}]", fmt::join(layout.unflatten(b), ", ")));
    return fmt::format("[{}]", fmt::join(items, ", "));
  };
  const bool shared = layout.has_in_dim("offset");
  std::string attr;
  if (shared) {
    attr = "#ttg.shared_linear<{offset = " + list("offset");
    if (!layout.bases("block").empty()) attr += ", block = " + list("block");
    attr += fmt::format("}}, alignment = {}>", alignment);
  } else {
    attr = fmt::format("#ttg.linear<{{register = {}, lane = {}, warp = {}, block = {}}}>", list("register"), list("lane"),
                       list("warp"), list("block"));
  }
  std::map<std::string, std::vector<Coords>> bases;
  for (const auto& d : layout.in_dims())
    for (BitVec b : d.bases) bases[d.name].push_back(layout.unflatten(b));
  if (inferred_shape(bases, static_cast<std::size_t>(layout.rank())) == layout.shape()) return attr;
  const std::string type = fmt::format("{}x{}", fmt::join(layout.shape(), "x"), mlir_type_for(element_bits.value_or(32)));
  return shared ? fmt::format("!ttg.memdesc<{}, {}, #ttg.shared_memory>", type, attr) : fmt::format("tensor<{}, {}>", type, attr);
}

// [SECTION] CuTe

namespace {

// One side of shape:stride: an int, or a tuple whose items are ints or tuples of ints.
struct CuteTuple {
  bool is_tuple = false;
  std::int64_t value = 0;
  std::vector<CuteTuple> items;
};

CuteTuple parse_cute_tuple(Cursor& c, int depth) {
  CuteTuple t;
  if (c.accept("(")) {
    if (depth >= 2) fail("{}: modes nest at most two deep here, at column {}", c.what, c.pos);
    t.is_tuple = true;
    do t.items.push_back(parse_cute_tuple(c, depth + 1));
    while (c.accept(","));
    c.expect(")");
  } else {
    c.skip_ws();
    c.accept("_");  // CuTe prints static integers as _8
    t.value = c.integer();
  }
  return t;
}

std::vector<CuteMode> modes_of(const CuteTuple& shape, const CuteTuple& stride, const char* what) {
  if (shape.is_tuple != stride.is_tuple || shape.items.size() != stride.items.size())
    fail("{}: the stride does not have the shape's structure", what);
  if (!shape.is_tuple) return {{shape.value, stride.value}};
  std::vector<CuteMode> out;
  for (std::size_t i = 0; i < shape.items.size(); ++i) {
    if (shape.items[i].is_tuple) fail("{}: modes nest at most two deep here", what);
    out.push_back({shape.items[i].value, stride.items[i].value});
  }
  return out;
}

}  // namespace

LayoutFile parse_cute(const std::string& text) { return parse_cute(text, std::nullopt, /*strict=*/false); }

LayoutFile parse_cute(const std::string& text, std::optional<SwizzleUnits> given_units, bool strict) {
  const char* what = "CuTe layout";
  std::string main = text;
  std::vector<std::string> options;
  if (const std::size_t semi = text.find(';'); semi != std::string::npos) {
    main = text.substr(0, semi);
    std::size_t start = semi + 1;
    while (start <= text.size()) {
      const std::size_t end = std::min(text.find(';', start), text.size());
      const std::string opt = trim(std::string_view(text).substr(start, end - start));
      if (!opt.empty()) options.push_back(opt);
      start = end + 1;
    }
  }
  bool bytes = false, elements = false;
  std::optional<int> element_bits;
  for (const auto& opt : options) {
    if (opt == "bytes") {
      bytes = true;
    } else if (opt == "elements") {
      elements = true;
    } else if (opt.rfind("element_bits", 0) == 0) {
      Cursor c{opt, 0, what};
      c.identifier();
      c.expect("=");
      const auto b = c.integer();
      if (b != 4 && b != 8 && b != 16 && b != 32 && b != 64) fail("{}: element_bits {} is not one of 4, 8, 16, 32, 64", what, b);
      element_bits = static_cast<int>(b);
    } else {
      fail("{}: unknown option '{}' (known: bytes, elements, element_bits=N)", what, opt);
    }
  }
  if (bytes && elements) fail("{}: '; bytes' and '; elements' contradict each other", what);
  Cursor c{main, 0, what};
  std::optional<std::array<int, 3>> swizzle;
  std::optional<SwizzleUnits> printed_units;  // what CuTe's printout says: smem_ptr -> bytes, _0 -> elements
  std::string swizzle_name;
  auto compose = [&] {
    if (!c.accept("o") && !c.accept("∘")) fail("{}: expected 'o' (composition) after the swizzle, found '{}'", what, c.excerpt());
  };
  const bool long_name = c.accept("Swizzle<");
  if (long_name || c.accept("Sw<")) {
    std::array<int, 3> bms{};
    for (int i = 0; i < 3; ++i) {
      if (i) c.expect(",");
      bms[static_cast<std::size_t>(i)] = static_cast<int>(c.integer());
    }
    c.expect(">");
    compose();
    swizzle = bms;
    swizzle_name = fmt::format("{}<{},{},{}>", long_name ? "Swizzle" : "Sw", bms[0], bms[1], bms[2]);
    c.skip_ws();
    if (c.accept("smem_ptr[")) {
      const auto bits = c.integer();
      c.expect("b]");
      if (bits != 4 && bits != 8 && bits != 16 && bits != 32 && bits != 64) fail("{}: smem_ptr[{}b]: element width not one of 4, 8, 16, 32, 64", what, bits);
      if (c.accept("(")) {
        while (c.pos < c.text.size() && c.text[c.pos] != ')') ++c.pos;
        c.expect(")");
      }
      if (element_bits && *element_bits != bits) fail("{}: smem_ptr[{}b] but element_bits={}", what, bits, *element_bits);
      element_bits = static_cast<int>(bits);
      printed_units = SwizzleUnits::Bytes;
      compose();
    } else if (c.text.substr(c.pos, 2) == "_0") {
      c.pos += 2;
      printed_units = SwizzleUnits::Elements;
      compose();
    }
  }
  const CuteTuple shape = parse_cute_tuple(c, 0);
  c.expect(":");
  const CuteTuple stride = parse_cute_tuple(c, 0);
  if (!c.at_end()) fail("{}: unexpected '{}' after the layout", what, c.excerpt());
  CuteLayout layout;
  if (shape.is_tuple) {
    if (!stride.is_tuple || shape.items.size() != stride.items.size())
      fail("{}: the stride does not have the shape's structure", what);
    for (std::size_t i = 0; i < shape.items.size(); ++i) layout.dims.push_back(modes_of(shape.items[i], stride.items[i], what));
  } else {
    layout.dims.push_back(modes_of(shape, stride, what));
  }
  for (const auto& modes : layout.dims)
    for (const auto& m : modes)
      if (m.size <= 0 || !std::has_single_bit(static_cast<std::uint64_t>(m.size)))
        fail("{}: mode size {} is not a power of two", what, m.size);
  if ((bytes || elements) && !swizzle) fail("{}: '{}' describes a swizzle's units, but there is no swizzle", what, bytes ? "bytes" : "elements");
  // Units: the printout's own, the options', the caller's; all that are given must agree.
  std::optional<SwizzleUnits> units = printed_units;
  auto agree = [&](std::optional<SwizzleUnits> u, const char* source) {
    if (!u) return;
    if (units && *units != *u)
      fail("{}: {} says the swizzle acts on {}, but the layout says {}", what, source, *u == SwizzleUnits::Bytes ? "bytes" : "elements",
           *units == SwizzleUnits::Bytes ? "bytes (smem_ptr)" : "elements (_0)");
    units = u;
  };
  agree(bytes ? std::optional<SwizzleUnits>(SwizzleUnits::Bytes) : elements ? std::optional<SwizzleUnits>(SwizzleUnits::Elements) : std::nullopt,
        "the option");
  if (swizzle) agree(given_units, "--units");
  if (swizzle && !units && strict) {
    const auto& b = *swizzle;
    fail("{}: {} does not say what it acts on. On element offsets it is CuTe's Sw<{},{},{}> o _0 o {}; on byte addresses "
         "(CuTe's smem atoms, TMA) it is Sw<{},{},{}> o smem_ptr[Nb] o {}, which for 16-bit elements equals {} on elements. "
         "Say which: --units elements|bytes (or '; elements' / '; bytes')",
         what, swizzle_name, b[0], b[1], b[2], layout.to_string(), b[0], b[1], b[2], layout.to_string(),
         b[1] >= 1 ? fmt::format("Swizzle<{},{},{}>", b[0], b[1] - 1, b[2]) : std::string("no swizzle"));
  }
  const bool on_bytes = units == SwizzleUnits::Bytes;
  if (on_bytes && !element_bits) fail("{}: a swizzle on byte addresses needs the element width (element_bits=N or smem_ptr[Nb])", what);
  const SharedLayout s = swizzle ? cute_swizzle((*swizzle)[0], (*swizzle)[1], (*swizzle)[2], layout,
                                                on_bytes ? SwizzleUnits::Bytes : SwizzleUnits::Elements, element_bits.value_or(32))
                                 : cute_plain(layout);
  if (!s.is_linear()) fail("{}: {} is not a linear layout: {}", what, trim(main), s.nonlinear_reason());
  LayoutFile f;
  f.kind = LayoutKind::Shared;
  f.layout = LinearLayout({InDim{"offset", s.linear().bases("offset")}, InDim{"block", {}}}, s.linear().out_dims());
  f.element_bits = element_bits;
  return f;
}

std::optional<std::string> to_cute(const LinearLayout& shared_layout) {
  if (!shared_layout.has_in_dim("offset")) return std::nullopt;
  const LinearLayout offsets({InDim{"offset", shared_layout.bases("offset")}}, shared_layout.out_dims());
  if (!offsets.is_invertible()) return std::nullopt;
  const auto inverse = offsets.matrix().inverse();
  const int bits = offsets.in_bits();
  // coordinate bit i -> offset f_i; a plain layout needs every g_i = swizzle(f_i) a distinct power of two.
  auto describe = [&](int b, int m, int s) -> std::optional<std::string> {
    std::vector<std::uint64_t> g;
    for (int i = 0; i < bits; ++i) {
      const std::uint64_t f = inverse->column(i);
      const std::uint64_t v = b ? cute_swizzle_apply(b, m, s, f) : f;
      if (!std::has_single_bit(v)) return std::nullopt;
      g.push_back(v);
    }
    CuteLayout layout;
    int flat = 0;
    for (const auto& out : shared_layout.out_dims()) {
      std::vector<CuteMode> modes;
      for (int i = 0; i < out.log2_size; ++i, ++flat) {
        const auto stride = static_cast<std::int64_t>(g[static_cast<std::size_t>(flat)]);
        if (!modes.empty() && modes.back().stride * modes.back().size == stride)
          modes.back().size *= 2;
        else
          modes.push_back({2, stride});
      }
      if (modes.empty()) modes.push_back({1, 0});
      layout.dims.push_back(std::move(modes));
    }
    const std::string base = layout.to_string();
    return b ? fmt::format("Swizzle<{},{},{}> o {}", b, m, s, base) : base;
  };
  if (auto plain = describe(0, 0, 0)) return plain;
  for (int b = 1; b <= bits / 2; ++b)
    for (int m = 0; m + b <= bits; ++m)
      for (int s = b; m + s + b <= bits; ++s)
        if (auto found = describe(b, m, s)) return found;
  return std::nullopt;
}

// [SECTION] Dispatch

TextFormat parse_text_format(const std::string& name) {
  if (name == "json") return TextFormat::Json;
  if (name == "triton") return TextFormat::Triton;
  if (name == "mlir") return TextFormat::Mlir;
  if (name == "cute") return TextFormat::Cute;
  fail("unknown format '{}' (known: json, triton, mlir, cute)", name);
}

const char* format_name(TextFormat f) {
  switch (f) {
    case TextFormat::Json:
      return "json";
    case TextFormat::Triton:
      return "triton";
    case TextFormat::Mlir:
      return "mlir";
    case TextFormat::Cute:
      return "cute";
  }
  return "?";
}

std::optional<TextFormat> detect_format(const std::string& text) {
  const std::string t = trim(text);
  if (t.empty()) return std::nullopt;
  if (t.front() == '{') return TextFormat::Json;
  if (t.find("#ttg.") != std::string::npos || t.find("#triton_gpu.") != std::string::npos || t.rfind("tensor<", 0) == 0 ||
      t.rfind("!ttg.memdesc<", 0) == 0 || t.rfind("!triton_gpu.memdesc<", 0) == 0)
    return TextFormat::Mlir;
  if (t.find("->") != std::string::npos || t.find("where out dims are") != std::string::npos) return TextFormat::Triton;
  if (t.find(':') != std::string::npos && (t.front() == '(' || t.front() == '_' || std::isdigit(static_cast<unsigned char>(t.front())) ||
                                            t.rfind("Swizzle<", 0) == 0 || t.rfind("Sw<", 0) == 0))
    return TextFormat::Cute;
  return std::nullopt;
}

std::string write_layout(const LayoutFile& file, TextFormat format) {
  switch (format) {
    case TextFormat::Json:
      return layout_to_json(file.layout, file.element_bits).dump(2) + "\n";
    case TextFormat::Triton:
      return to_triton_text(file.layout);
    case TextFormat::Mlir:
      return to_mlir(file.layout, file.element_bits) + "\n";
    case TextFormat::Cute: {
      if (file.kind != LayoutKind::Shared)
        fail("a distributed layout (register/lane/warp) has no CuTe shared-layout form; write it as json, triton or mlir");
      const auto cute = to_cute(file.layout);
      if (!cute)
        fail(
            "this shared layout is not a CuTe Swizzle<B,M,S> of a power-of-two shape:stride layout; write it as json, triton or "
            "mlir");
      // A swizzle here acts on element offsets: say so, so strict readers take it back.
      const bool swizzled = cute->rfind("Swizzle<", 0) == 0;
      return *cute + (swizzled ? " ; elements" : "") +
             (file.element_bits ? fmt::format(" ; element_bits={}", *file.element_bits) : std::string{}) + "\n";
    }
  }
  return {};
}

}  // namespace swz
