// ttgir_attr.cpp: Triton layout attributes -> linear layouts (ttgir.h): the MLIR
// attribute parser, types, and the dispatch to the distributed and shared families
// (ttgir_distributed.cpp, ttgir_shared.cpp; their shared pieces in ttgir_named.h).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <numeric>
#include <set>

#include "swz/error.h"
#include "swz/io/formats.h"
#include "swz/io/limits.h"
#include "swz/kernel/ttgir.h"
#include "ttgir_named.h"

namespace swz::ttgir {
// [SECTION] Parser

namespace {

struct Parser {
  std::string_view text;
  std::size_t pos = 0;
  int depth = 0;  // values open around `pos` (bounded by kMaxNesting)

  // One more value open while it lives; deeper than kMaxNesting is an error at its column.
  struct Nested {
    Parser& p;
    explicit Nested(Parser& parser) : p(parser) {
      if (++p.depth > kMaxNesting) check_nesting(p.depth, fmt::format("the attribute at column {}", p.pos + 1));
    }
    ~Nested() { --p.depth; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;
  };

  [[noreturn]] void error(const std::string& expected) const {
    std::string found = pos >= text.size() ? "end of text" : std::string(text.substr(pos, 16));
    std::replace(found.begin(), found.end(), '\n', ' ');
    fail("expected {} at column {}, found '{}'", expected, pos + 1, found);
  }
  void skip_ws() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  }
  bool peek(char c) {
    skip_ws();
    return pos < text.size() && text[pos] == c;
  }
  bool accept(char c) {
    if (!peek(c)) return false;
    ++pos;
    return true;
  }
  void expect(char c) {
    if (!accept(c)) error(fmt::format("'{}'", c));
  }
  static bool word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '$';
  }
  std::string word() {
    skip_ws();
    const std::size_t start = pos;
    while (pos < text.size() && word_char(text[pos])) ++pos;
    if (pos == start) error("a name");
    return std::string(text.substr(start, pos - start));
  }
  std::string quoted() {
    expect('"');
    const std::size_t start = pos;
    while (pos < text.size() && text[pos] != '"') pos += text[pos] == '\\' ? 2 : 1;
    if (pos >= text.size()) error("a closing '\"'");
    std::string s(text.substr(start, pos - start));
    ++pos;
    return s;
  }
  std::int64_t integer() {
    skip_ws();
    const std::size_t start = pos;
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) ++pos;
    const std::size_t digits = pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos == digits || pos - digits > 15) {
      pos = start;
      error("a number");
    }
    return std::stoll(std::string(text.substr(start, pos - start)));
  }

  // key = value | value, where a key may be quoted.
  std::string key() { return peek('"') ? quoted() : word(); }

  void dict_body(std::vector<AttrField>& fields) {
    if (accept('}')) return;
    do {
      std::string k = key();
      AttrNode v;
      if (accept('=')) {
        v = value();
      } else {
        v.kind = AttrNode::Kind::Bool;  // a unit attribute
        v.integer = 1;
      }
      fields.emplace_back(std::move(k), std::move(v));
    } while (accept(','));
    expect('}');
  }

  AttrNode value() {
    const Nested nested(*this);
    skip_ws();
    if (pos >= text.size()) error("a value");
    AttrNode n;
    const char c = text[pos];
    if (c == '[') {
      ++pos;
      n.kind = AttrNode::Kind::List;
      if (!accept(']')) {
        do n.items.push_back(value());
        while (accept(','));
        expect(']');
      }
      return n;
    }
    if (c == '{') {
      ++pos;
      n.kind = AttrNode::Kind::Dict;
      dict_body(n.fields);
      return n;
    }
    if (c == '"') {
      n.kind = AttrNode::Kind::String;
      n.text = quoted();
      return n;
    }
    if (c == '#') {
      ++pos;
      std::string name = word();
      if (name.find('.') == std::string::npos) {
        n.kind = AttrNode::Kind::Alias;
        n.text = std::move(name);
        return n;
      }
      n.kind = AttrNode::Kind::Dialect;
      n.text = std::move(name);
      if (accept('<')) dialect_body(n);
      return n;
    }
    if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c))) {
      n.kind = AttrNode::Kind::Integer;
      n.integer = integer();
      if (accept(':')) word();  // a type suffix: 4 : i32
      return n;
    }
    std::string w = word();
    if (w == "true" || w == "false") {
      n.kind = AttrNode::Kind::Bool;
      n.integer = w == "true";
      return n;
    }
    if (w == "array" && accept('<')) {  // array<i32: 1, 0>
      word();
      expect(':');
      n.kind = AttrNode::Kind::List;
      if (!accept('>')) {
        do n.items.push_back(value());
        while (accept(','));
        expect('>');
      }
      return n;
    }
    n.kind = AttrNode::Kind::Word;
    n.text = std::move(w);
    if (accept('<')) {  // some other parameterised value: keep its items
      n.kind = AttrNode::Kind::Dialect;
      dialect_body(n);
    }
    return n;
  }

  // After '<': items separated by ',' up to '>'.
  void dialect_body(AttrNode& n) {
    if (accept('>')) return;
    do {
      skip_ws();
      if (peek('{')) {
        ++pos;
        dict_body(n.fields);
      } else if (peek('[') && looks_like_padding()) {
        ++pos;
        do {
          const auto interval = integer();
          expect(':');
          expect('+');
          const auto pad = integer();
          n.padding.emplace_back(interval, pad);
        } while (accept(','));
        expect(']');
        // padded_shared puts its dictionary right after the intervals, without a comma.
        if (peek('{')) {
          ++pos;
          dict_body(n.fields);
        }
      } else {
        const std::size_t save = pos;
        if (std::isalpha(static_cast<unsigned char>(text[pos])) || text[pos] == '"') {
          std::string k = key();
          if (accept('=')) {
            n.fields.emplace_back(std::move(k), value());
            continue;
          }
          pos = save;
        }
        n.items.push_back(value());
      }
    } while (accept(','));
    expect('>');
  }
  bool looks_like_padding() const {
    std::size_t p = pos + 1;
    while (p < text.size() && (std::isdigit(static_cast<unsigned char>(text[p])) || text[p] == ' ')) ++p;
    return p < text.size() && text[p] == ':';
  }
};

}  // namespace

const AttrNode* AttrNode::field(const std::string& key) const {
  for (const auto& [k, v] : fields)
    if (k == key) return &v;
  return nullptr;
}

std::string AttrNode::layout_kind() const {
  for (const char* prefix : {"ttg.", "triton_gpu."})
    if (text.rfind(prefix, 0) == 0) return text.substr(std::string_view(prefix).size());
  return text;
}

AttrNode parse_attribute(const std::string& text) {
  Parser p{text};
  AttrNode n = p.value();
  p.skip_ws();
  if (p.pos != text.size()) p.error("the end of the attribute");
  return n;
}

// [SECTION] Aliases: the one place references resolve

namespace {

void collect_references(const AttrNode& node, std::vector<std::string>& out) {
  if (node.kind == AttrNode::Kind::Alias) out.push_back(node.text);
  for (const AttrNode& item : node.items) collect_references(item, out);
  for (const AttrField& field : node.fields) collect_references(field.second, out);
}

// Alias references with the chain being expanded as the visited set: an alias met again inside its
// own expansion is a cycle, named with the place of the definition that closes it. Each definition
// is parsed once. resolve() expands; check() walks the whole graph of references once (each alias
// visited once), as a module is read.
struct Resolver {
  // Aliases referring to each other many times over (#b = #x<{p = #a, q = #a}>, #c = #x<{p = #b, q = #b}>, ...)
  // expand to 2^depth values: the expansion stops here rather than at the end of memory.
  static constexpr std::size_t kMaxAttributeValues = std::size_t{1} << 20;
  const Aliases& aliases;
  const AliasPlaces& places;
  std::map<std::string, std::optional<AttrNode>> parsed;  // nullopt: not attribute syntax we read
  std::vector<std::string> chain;                         // aliases being expanded, outermost first
  std::set<std::string> checked;                          // check(): aliases whose references are known to end
  std::size_t values = 0;

  std::string place_of(const std::string& name) const {
    const auto line = places.lines.find(name);
    if (line != places.lines.end())
      return places.path.empty() ? fmt::format("line {}: ", line->second) : fmt::format("{}:{}: ", places.path, line->second);
    return places.path.empty() ? std::string() : places.path + ": ";
  }
  std::string place() const { return chain.empty() ? place_of("") : place_of(chain.back()); }
  [[noreturn]] void cycle(const std::string& name) const {
    std::vector<std::string> loop(std::find(chain.begin(), chain.end(), name), chain.end());
    loop.push_back(name);
    for (auto& a : loop) a = "#" + a;
    fail("{}#{} refers to itself ({}): a cycle of aliases", place(), name, fmt::join(loop, " -> "));
  }
  void enter(const std::string& name) {
    if (std::find(chain.begin(), chain.end(), name) != chain.end()) cycle(name);
    if (static_cast<int>(chain.size()) >= kMaxNesting) check_nesting(kMaxNesting + 1, place() + "aliases");
    chain.push_back(name);
  }
  // The parsed definition; throws for an undefined alias or one whose text does not parse when `strict`.
  const std::optional<AttrNode>& definition(const std::string& name, bool strict) {
    auto it = parsed.find(name);
    if (it == parsed.end()) {
      const auto text = aliases.find(name);
      if (text == aliases.end()) {
        if (strict) fail("{}#{} is not defined", place(), name);
        return parsed.emplace(name, std::nullopt).first->second;
      }
      try {
        it = parsed.emplace(name, parse_attribute(text->second)).first;
      } catch (const Error& e) {
        if (strict) fail("{}#{}: {}", place_of(name), name, e.what());
        it = parsed.emplace(name, std::nullopt).first;
      }
    }
    return it->second;
  }
  AttrNode expand(const AttrNode& node, int depth) {
    if (depth > kMaxNesting) check_nesting(depth, place() + "the attribute with its aliases");
    if (++values > kMaxAttributeValues)
      fail("{}the aliases expand to more than {} attribute values", place(), kMaxAttributeValues);
    if (node.kind == AttrNode::Kind::Alias) {
      const AttrNode& target = *definition(node.text, /*strict=*/true);
      enter(node.text);
      AttrNode out = expand(target, depth + 1);
      chain.pop_back();
      return out;
    }
    AttrNode out = node;
    for (AttrNode& item : out.items) item = expand(item, depth + 1);
    for (AttrField& field : out.fields) field.second = expand(field.second, depth + 1);
    return out;
  }
  // Every chain of references from `name` ends (no cycle), at most kMaxNesting aliases long.
  void check(const std::string& name) {
    if (checked.count(name)) return;
    enter(name);
    if (const auto& target = definition(name, /*strict=*/false)) {
      std::vector<std::string> references;
      collect_references(*target, references);
      for (const std::string& r : references) check(r);
    }
    chain.pop_back();
    checked.insert(name);
  }
};

}  // namespace

AttrNode resolve(const AttrNode& node, const Aliases& aliases, const AliasPlaces& places) {
  Resolver r{aliases, places, {}, {}, {}, 0};
  return r.expand(node, 1);
}

void check_aliases(const Aliases& aliases, const AliasPlaces& places) {
  Resolver r{aliases, places, {}, {}, {}, 0};
  for (const auto& [name, text] : aliases) r.check(name);
}

// [SECTION] Convert

Layout convert(const AttrNode& attribute, const std::vector<std::int64_t>& shape, int element_bits, const Aliases& aliases) {
  const AttrNode a = resolve(attribute, aliases);
  if (a.kind != AttrNode::Kind::Dialect) fail("expected a layout attribute such as #ttg.blocked<...>");
  if (shape.empty()) fail("#{}: the tensor has no shape", a.text);
  Layout out;
  out.kind_name = a.layout_kind();
  if (!detail::is_shared_kind(out.kind_name)) {
    out.kind = LayoutKind::Distributed;
    out.linear = detail::to_linear(detail::convert_distributed(a, shape, aliases), detail::kDistributedIns);
    return out;
  }
  out.kind = LayoutKind::Shared;
  const detail::SharedResult r = detail::convert_shared(a, shape, element_bits);
  out.linear = detail::to_linear(r.linear, detail::kSharedIns);
  // One CTA's tile: the offset bases alone (block bases only say which CTA holds a piece).
  const LinearLayout offsets({InDim{"offset", out.linear.bases("offset")}}, out.linear.out_dims());
  std::vector<std::int64_t> tile = shape;
  const Subspace image = offsets.image();
  if (!offsets.is_invertible()) {
    // Multi-CTA: the offset bases cover each CTA's part; shrink the dims they do not reach.
    const LinearLayout& l = out.linear;
    for (int d = 0; d < l.rank(); ++d) {
      std::int64_t reach = 1;
      for (BitVec b : offsets.bases("offset"))
        reach = std::max<std::int64_t>(reach, l.unflatten(b)[static_cast<std::size_t>(d)] * 2);
      tile[static_cast<std::size_t>(d)] = std::min(tile[static_cast<std::size_t>(d)], reach);
    }
    std::vector<Coords> bases;
    for (BitVec b : offsets.bases("offset")) bases.push_back(l.unflatten(b));
    const LinearLayout per_cta = LinearLayout::from_coordinates({{"offset", bases}}, LinearLayout::out_dims_for_shape(tile));
    if (!per_cta.is_invertible()) fail("#{}: the offset bases do not cover a CTA's tile once each", a.text);
    if (r.padding.empty()) {
      out.shared = SharedLayout::from_linear(per_cta, "#" + a.text);
      return out;
    }
  }
  (void)image;
  if (r.padding.empty()) {
    out.shared = SharedLayout::from_linear(offsets, "#" + a.text);
    return out;
  }
  // Padding: after every `interval` elements, `pad` more (summed over the list).
  std::vector<OutDim> tile_outs = LinearLayout::out_dims_for_shape(tile);
  std::vector<Coords> bases;
  for (BitVec b : offsets.bases("offset")) bases.push_back(out.linear.unflatten(b));
  const LinearLayout per_cta = LinearLayout::from_coordinates({{"offset", bases}}, tile_outs);
  if (!per_cta.is_invertible()) fail("#{}: the offset bases do not cover the tile once each", a.text);
  const LinearLayout inverse = per_cta.invert();
  const auto padding = r.padding;
  out.shared = SharedLayout::from_function(
      tile,
      [&](const Coords& c) {
        const std::uint64_t off = inverse.apply_flat(per_cta.flatten(c));
        std::uint64_t physical = off;
        for (const auto& [interval, pad] : padding)
          physical += (off / static_cast<std::uint64_t>(interval)) * static_cast<std::uint64_t>(pad);
        return physical;
      },
      "#" + a.text, "padding adds to the offset with carries");
  return out;
}

Layout convert(const std::string& attribute, const std::vector<std::int64_t>& shape, int element_bits, const Aliases& aliases) {
  return convert(parse_attribute(attribute), shape, element_bits, aliases);
}

int element_bits_of(const std::string& element) {
  if (element.rfind("!tt.ptr", 0) == 0) return 64;
  if (element == "i1") return 8;
  if (element == "index") return 64;
  // f16, bf16, i32, f8E4M3FN, f8E5M2, f4E2M1FN, tf32, ...
  std::size_t i = 0;
  while (i < element.size() && std::isalpha(static_cast<unsigned char>(element[i]))) ++i;
  std::size_t j = i;
  while (j < element.size() && std::isdigit(static_cast<unsigned char>(element[j]))) ++j;
  if (j == i || j - i > 3) return 0;
  const int bits = std::stoi(element.substr(i, j - i));
  if (element.rfind("tf32", 0) == 0) return 32;
  return bits;
}

Type parse_type(const std::string& text) {
  Type t;
  t.text = text;
  Parser p{text};
  p.skip_ws();
  std::string_view rest = std::string_view(text).substr(p.pos);
  if (rest.rfind("tensor<", 0) == 0) {
    t.kind = Type::Kind::Tensor;
    p.pos += 7;
  } else if (rest.rfind("!ttg.memdesc<", 0) == 0 || rest.rfind("!triton_gpu.memdesc<", 0) == 0) {
    t.kind = Type::Kind::MemDesc;
    p.pos += rest.find('<') + 1;
  } else {
    return t;
  }
  // Dims: 128x64x..., then the element type (which may itself hold '<...>').
  for (;;) {
    p.skip_ws();
    if (p.pos < text.size() && std::isdigit(static_cast<unsigned char>(text[p.pos]))) {
      t.shape.push_back(p.integer());
      if (p.pos >= text.size() || text[p.pos] != 'x') p.error("'x' after a dimension");
      ++p.pos;
    } else if (p.pos < text.size() && text[p.pos] == '?') {
      p.error("a static dimension");
    } else {
      break;
    }
  }
  const std::size_t start = p.pos;
  int depth = 0;
  while (p.pos < text.size()) {
    const char c = text[p.pos];
    if (c == '<') ++depth;
    if (c == '>') {
      if (depth == 0) break;
      --depth;
    }
    if (c == ',' && depth == 0) break;
    ++p.pos;
  }
  t.element = std::string(text.substr(start, p.pos - start));
  while (!t.element.empty() && std::isspace(static_cast<unsigned char>(t.element.back()))) t.element.pop_back();
  if (t.element.empty()) p.error("an element type");
  t.element_bits = element_bits_of(t.element);
  bool first = true;
  while (p.accept(',')) {
    p.skip_ws();
    if (p.pos < text.size() && std::isdigit(static_cast<unsigned char>(text[p.pos]))) {
      // An allocation shape: 3x128x64
      do t.alloc_shape.push_back(p.integer());
      while (p.pos < text.size() && text[p.pos] == 'x' && ++p.pos);
      continue;
    }
    AttrNode v = p.value();
    if (v.kind == AttrNode::Kind::Word && v.text == "mutable") {
      t.is_mutable = true;
    } else if (first) {
      t.encoding = std::move(v);
      first = false;
    } else {
      t.memory_space = std::move(v);
    }
  }
  p.expect('>');
  return t;
}

std::string shared_linear_attribute(const LinearLayout& offset_to_coords, int alignment) {
  auto list = [&](const char* in) {
    std::vector<std::string> items;
    for (BitVec b : offset_to_coords.bases(in))
      items.push_back(fmt::format("[{}]", fmt::join(offset_to_coords.unflatten(b), ", ")));
    return fmt::format("[{}]", fmt::join(items, ", "));
  };
  return fmt::format("#ttg.shared_linear<{{offset = {}, block = {}}}, alignment = {}>", list("offset"), list("block"), alignment);
}

}  // namespace swz::ttgir
