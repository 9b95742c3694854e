// ttgir_attr.cpp: Triton layout attributes -> linear layouts (ttgir.h).
//
// Index:
//   [SECTION] Parser       generic MLIR attribute values
//   [SECTION] Named        a small layout with named, ordered out dims, as
//                          Triton builds them (the order matters: a layout
//                          too small for its tensor repeats along its out dims
//                          in that order)
//   [SECTION] Distributed  blocked, slice, nvidia_mma, dot_op, amd_mfma, amd_wmma, linear
//   [SECTION] Shared       swizzled_shared, nvmma_shared, padded_shared, shared_linear
//   [SECTION] Convert      dispatch
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <numeric>

#include "swz/error.h"
#include "swz/io/formats.h"
#include "swz/kernel/ttgir.h"

namespace swz::ttgir {

// [SECTION] Parser

namespace {

struct Parser {
  std::string_view text;
  std::size_t pos = 0;

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

AttrNode resolve(const AttrNode& node, const Aliases& aliases) {
  AttrNode n = node;
  for (int hops = 0; n.kind == AttrNode::Kind::Alias; ++hops) {
    if (hops > 16) fail("alias #{} refers to itself", node.text);
    auto it = aliases.find(n.text);
    if (it == aliases.end()) fail("#{} is not defined", n.text);
    n = parse_attribute(it->second);
  }
  return n;
}

// [SECTION] Named

namespace {

using Basis = std::vector<std::int64_t>;  // one value per out dim, in the layout's out-dim order

struct Named {
  std::vector<std::string> outs;
  std::vector<std::int64_t> sizes;
  std::vector<std::pair<std::string, std::vector<Basis>>> ins;

  int out_index(const std::string& name) const {
    for (std::size_t i = 0; i < outs.size(); ++i)
      if (outs[i] == name) return static_cast<int>(i);
    return -1;
  }
  std::vector<Basis>* bases(const std::string& in) {
    for (auto& [name, list] : ins)
      if (name == in) return &list;
    return nullptr;
  }
  std::int64_t size(const std::string& out) const {
    const int i = out_index(out);
    return i < 0 ? 1 : sizes[static_cast<std::size_t>(i)];
  }
};

std::string dim_name(std::size_t d) { return fmt::format("dim{}", d); }

std::vector<std::string> standard_outs(std::size_t rank) {
  std::vector<std::string> names;
  for (std::size_t d = 0; d < rank; ++d) names.push_back(dim_name(d));
  return names;
}

int log2_of(std::int64_t v, const char* what) {
  if (v <= 0 || !std::has_single_bit(static_cast<std::uint64_t>(v))) fail("{} {} is not a power of two", what, v);
  return std::countr_zero(static_cast<std::uint64_t>(v));
}

Named identity1d(std::int64_t size, const std::string& in, const std::string& out) {
  Named n{{out}, {std::max<std::int64_t>(size, 1)}, {{in, {}}}};
  for (std::int64_t v = 1; v < size; v *= 2) n.ins[0].second.push_back({v});
  return n;
}

Named zeros1d(std::int64_t size, const std::string& in, const std::string& out) {
  Named n{{out}, {1}, {{in, {}}}};
  for (std::int64_t v = 1; v < size; v *= 2) n.ins[0].second.push_back({0});
  return n;
}

// Triton's product: inner's bases, then outer's scaled by inner's size along each shared out dim.
Named operator*(const Named& inner, const Named& outer) {
  Named r;
  r.outs = inner.outs;
  r.sizes = inner.sizes;
  for (std::size_t i = 0; i < outer.outs.size(); ++i) {
    const int at = r.out_index(outer.outs[i]);
    if (at < 0) {
      r.outs.push_back(outer.outs[i]);
      r.sizes.push_back(outer.sizes[i]);
    } else {
      r.sizes[static_cast<std::size_t>(at)] *= outer.sizes[i];
    }
  }
  auto widen = [&](const Named& from, const Basis& b, bool scale) {
    Basis w(r.outs.size(), 0);
    for (std::size_t i = 0; i < from.outs.size(); ++i) {
      const auto at = static_cast<std::size_t>(r.out_index(from.outs[i]));
      w[at] = b[i] * (scale ? inner.size(from.outs[i]) : 1);
    }
    return w;
  };
  for (const auto& [name, list] : inner.ins) {
    r.ins.emplace_back(name, std::vector<Basis>{});
    for (const auto& b : list) r.ins.back().second.push_back(widen(inner, b, false));
  }
  for (const auto& [name, list] : outer.ins) {
    auto* dst = r.bases(name);
    if (!dst) {
      r.ins.emplace_back(name, std::vector<Basis>{});
      dst = &r.ins.back().second;
    }
    for (const auto& b : list) dst->push_back(widen(outer, b, true));
  }
  return r;
}

Named& operator*=(Named& a, const Named& b) { return a = a * b; }

Named transpose_outs(const Named& n, const std::vector<std::string>& order) {
  Named r;
  r.outs = order;
  for (const auto& o : order) r.sizes.push_back(n.size(o));
  for (const auto& [name, list] : n.ins) {
    r.ins.emplace_back(name, std::vector<Basis>{});
    for (const auto& b : list) {
      Basis w;
      for (const auto& o : order) {
        const int i = n.out_index(o);
        w.push_back(i < 0 ? 0 : b[static_cast<std::size_t>(i)]);
      }
      r.ins.back().second.push_back(std::move(w));
    }
  }
  return r;
}

Named identity_nd(const std::string& in, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& order) {
  Named r;
  for (auto d : order) r *= identity1d(shape[static_cast<std::size_t>(d)], in, dim_name(static_cast<std::size_t>(d)));
  return r;
}

using Shape = std::map<std::string, std::int64_t>;

Shape shape_map(const std::vector<std::int64_t>& shape) {
  Shape m;
  for (std::size_t d = 0; d < shape.size(); ++d) m[dim_name(d)] = shape[d];
  return m;
}

// Smallest power of two above every value along each out dim.
void infer_sizes(Named& n) {
  for (std::size_t i = 0; i < n.outs.size(); ++i) {
    std::int64_t top = 0;
    for (const auto& [_, list] : n.ins)
      for (const auto& b : list) top |= b[i];
    n.sizes[i] = top ? static_cast<std::int64_t>(std::bit_floor(static_cast<std::uint64_t>(top))) * 2 : 1;
  }
}

// Too large along a dim: its largest bases become zero (broadcast), largest first.
Named not_larger_than(Named n, const Shape& shape) {
  for (std::size_t i = 0; i < n.outs.size(); ++i) {
    const std::int64_t want = shape.at(n.outs[i]);
    std::int64_t have = n.sizes[i];
    if (have <= want) continue;
    struct Ref {
      std::size_t in, basis;
      std::int64_t value;
    };
    std::vector<Ref> refs;
    for (std::size_t k = 0; k < n.ins.size(); ++k)
      for (std::size_t j = 0; j < n.ins[k].second.size(); ++j)
        if (n.ins[k].second[j][i]) refs.push_back({k, j, n.ins[k].second[j][i]});
    std::stable_sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) { return a.value > b.value; });
    for (const auto& r : refs) {
      if (have <= want) break;
      n.ins[r.in].second[r.basis][i] = 0;
      have >>= 1;
    }
  }
  infer_sizes(n);
  return n;
}

// Too small along a dim: more bases of the first in dim (register / offset), in out-dim order.
Named not_smaller_than(Named n, const Shape& shape, const std::vector<std::string>& order) {
  const std::string first = n.ins.empty() ? "register" : n.ins.front().first;
  for (const auto& out : order) {
    const std::int64_t want = shape.at(out), have = n.size(out);
    if (have < want) n *= identity1d(want / have, first, out);
  }
  return n;
}
Named not_smaller_than(const Named& n, const Shape& shape) { return not_smaller_than(n, shape, n.outs); }

// The CGA layout (block bases) from the attribute's fields; the trivial one when absent.
Named cga_layout(const AttrNode& attr, std::size_t rank) {
  const auto outs = standard_outs(rank);
  if (const AttrNode* bases = attr.field("CGALayout")) {
    Named n{outs, std::vector<std::int64_t>(rank, 1), {{"block", {}}}};
    for (const auto& b : bases->items) {
      if (b.items.size() != rank) fail("CGALayout basis has {} entries for a rank-{} layout", b.items.size(), rank);
      Basis v;
      for (const auto& x : b.items) v.push_back(x.integer);
      n.ins[0].second.push_back(v);
    }
    infer_sizes(n);
    return n;
  }
  auto list = [&](const char* key, std::int64_t fill) {
    std::vector<std::int64_t> v(rank, fill);
    if (const AttrNode* f = attr.field(key)) {
      if (f->items.size() != rank) fail("{} has {} entries for a rank-{} layout", key, f->items.size(), rank);
      for (std::size_t i = 0; i < rank; ++i) v[i] = f->items[i].integer;
    }
    return v;
  };
  const auto ctas = list("CTAsPerCGA", 1), split = list("CTASplitNum", 1);
  std::vector<std::int64_t> order = list("CTAOrder", 0);
  if (!attr.field("CTAOrder"))
    for (std::size_t i = 0; i < rank; ++i) order[i] = static_cast<std::int64_t>(rank - 1 - i);
  Named n;
  for (auto d : order) {
    const auto du = static_cast<std::size_t>(d);
    if (du >= rank) fail("CTAOrder entry {} is out of range", d);
    log2_of(ctas[du], "CTAsPerCGA entry");
    log2_of(split[du], "CTASplitNum entry");
    if (split[du] > ctas[du]) fail("CTASplitNum {} exceeds CTAsPerCGA {}", split[du], ctas[du]);
    n *= identity1d(split[du], "block", dim_name(du)) * zeros1d(ctas[du] / split[du], "block", dim_name(du));
  }
  return transpose_outs(n, outs);
}

// Fits a CTA layout to the tensor and appends the CGA's block bases (Triton's combineCtaCgaWithShape).
Named combine(Named cta, const Named& cga_in, const std::vector<std::int64_t>& shape) {
  const Shape full = shape_map(shape);
  const Named cga = transpose_outs(not_larger_than(cga_in, full), cta.outs);
  Shape per_cta;
  for (std::size_t i = 0; i < cta.outs.size(); ++i)
    per_cta[cta.outs[i]] = std::max<std::int64_t>(1, full.at(cta.outs[i]) / cga.size(cta.outs[i]));
  cta = not_smaller_than(cta, per_cta);
  cta = not_larger_than(cta, per_cta);
  Named r = transpose_outs(cta * cga, standard_outs(shape.size()));
  for (std::size_t i = 0; i < r.outs.size(); ++i) r.sizes[i] = full.at(r.outs[i]);
  return r;
}

std::vector<std::int64_t> shape_per_cta(const Named& cga, const std::vector<std::int64_t>& shape) {
  const Named fitted = not_larger_than(cga, shape_map(shape));
  std::vector<std::int64_t> s;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    // Only split (non-zero) block bases divide the tensor.
    std::int64_t split = 1;
    for (const auto& [_, list] : fitted.ins)
      for (const auto& b : list)
        if (b[d]) split *= 2;
    s.push_back(std::max<std::int64_t>(1, shape[d] / split));
  }
  return s;
}

LinearLayout to_linear(const Named& n, const std::vector<std::string>& in_names) {
  std::vector<OutDim> outs;
  for (std::size_t d = 0; d < n.outs.size(); ++d) outs.push_back({n.outs[d], log2_of(n.sizes[d], "dimension size")});
  std::vector<std::pair<std::string, std::vector<Coords>>> ins;
  for (const auto& name : in_names) {
    ins.emplace_back(name, std::vector<Coords>{});
    for (const auto& [k, list] : n.ins)
      if (k == name)
        for (const auto& b : list) ins.back().second.push_back(b);
  }
  for (const auto& [k, _] : n.ins)
    if (std::find(in_names.begin(), in_names.end(), k) == in_names.end()) fail("internal: unexpected input dim '{}'", k);
  return LinearLayout::from_coordinates(ins, outs);
}

const std::vector<std::string> kDistributedIns{"register", "lane", "warp", "block"};
const std::vector<std::string> kSharedIns{"offset", "block"};

// -- field access ---------------------------------------------------------------
std::int64_t int_field(const AttrNode& a, const char* key, std::optional<std::int64_t> fallback = std::nullopt) {
  const AttrNode* f = a.field(key);
  if (!f) {
    if (fallback) return *fallback;
    fail("#ttg.{} has no '{}'", a.layout_kind(), key);
  }
  if (f->kind != AttrNode::Kind::Integer && f->kind != AttrNode::Kind::Bool)
    fail("'{}' of #ttg.{} is not a number", key, a.layout_kind());
  return f->integer;
}

std::vector<std::int64_t> list_field(const AttrNode& a, const char* key,
                                     std::optional<std::vector<std::int64_t>> fallback = std::nullopt) {
  const AttrNode* f = a.field(key);
  if (!f) {
    if (fallback) return *fallback;
    fail("#ttg.{} has no '{}'", a.layout_kind(), key);
  }
  if (f->kind != AttrNode::Kind::List) fail("'{}' of #ttg.{} is not a list", key, a.layout_kind());
  std::vector<std::int64_t> v;
  for (const auto& x : f->items) {
    if (x.kind != AttrNode::Kind::Integer) fail("'{}' of #ttg.{} holds a non-number", key, a.layout_kind());
    v.push_back(x.integer);
  }
  return v;
}

void check_rank(const std::vector<std::int64_t>& v, std::size_t rank, const char* what, const AttrNode& a) {
  if (v.size() != rank) fail("#ttg.{}: {} has {} entries; the tensor has rank {}", a.layout_kind(), what, v.size(), rank);
}

void check_order(const std::vector<std::int64_t>& order, std::size_t rank, const AttrNode& a) {
  check_rank(order, rank, "order", a);
  std::vector<std::int64_t> s = order;
  std::sort(s.begin(), s.end());
  for (std::size_t i = 0; i < rank; ++i)
    if (s[i] != static_cast<std::int64_t>(i)) fail("#ttg.{}: order is not a permutation of 0..{}", a.layout_kind(), rank - 1);
}

// getMatrixOrder: the last two dims as a matrix (row-major: last dim fastest), batch dims slowest.
std::vector<std::int64_t> matrix_order(std::size_t rank, bool row_major) {
  std::vector<std::int64_t> order;
  const auto r = static_cast<std::int64_t>(rank);
  if (row_major) {
    order = {r - 1, r - 2};
  } else {
    order = {r - 2, r - 1};
  }
  for (std::int64_t d = r - 3; d >= 0; --d) order.push_back(d);
  return order;
}

// getOrderForDotOperand: operand A is [.., M, K], B is [.., K, N].
std::vector<std::int64_t> dot_operand_order(int op_idx, std::size_t rank, bool k_contig) {
  const auto r = static_cast<std::int64_t>(rank);
  const std::int64_t k = op_idx == 0 ? r - 1 : r - 2, non_k = op_idx == 0 ? r - 2 : r - 1;
  std::vector<std::int64_t> order = k_contig ? std::vector<std::int64_t>{k, non_k} : std::vector<std::int64_t>{non_k, k};
  for (std::int64_t d = r - 3; d >= 0; --d) order.push_back(d);
  return order;
}

}  // namespace

// [SECTION] Distributed

namespace {

Named convert_distributed(const AttrNode& a, const std::vector<std::int64_t>& shape, const Aliases& aliases);

Named blocked_layout(const AttrNode& a, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  const auto spt = list_field(a, "sizePerThread"), tpw = list_field(a, "threadsPerWarp"), wpc = list_field(a, "warpsPerCTA"),
             order = list_field(a, "order");
  check_rank(spt, rank, "sizePerThread", a);
  check_rank(tpw, rank, "threadsPerWarp", a);
  check_rank(wpc, rank, "warpsPerCTA", a);
  check_order(order, rank, a);
  for (std::size_t d = 0; d < rank; ++d) {
    log2_of(spt[d], "sizePerThread entry");
    log2_of(tpw[d], "threadsPerWarp entry");
    log2_of(wpc[d], "warpsPerCTA entry");
  }
  const Named cta = identity_nd("register", spt, order) * identity_nd("lane", tpw, order) * identity_nd("warp", wpc, order);
  return combine(cta, cga_layout(a, rank), shape);
}

// One mma tile: kWidth registers along the inner dim, 4 lanes along it, 8 lanes along the outer dim,
// then register repeats along outer and inner (Triton's nvidiaMmaTile).
Named nvidia_mma_tile(const std::vector<std::int64_t>& tile_shape, std::int64_t k_width, const std::vector<std::int64_t>& order,
                      const std::vector<std::int64_t>& rep_order) {
  Named cta = identity_nd("register", std::vector<std::int64_t>(rep_order.size(), 1), rep_order);
  const std::string inner = dim_name(static_cast<std::size_t>(order[0])), outer = dim_name(static_cast<std::size_t>(order[1]));
  const std::int64_t inner_size = tile_shape[static_cast<std::size_t>(order[0])],
                     outer_size = tile_shape[static_cast<std::size_t>(order[1])];
  if (outer_size % 8 != 0 || inner_size % (4 * k_width) != 0)
    fail("mma tile {}x{} does not fit kWidth {}", outer_size, inner_size, k_width);
  cta *= identity1d(k_width, "register", inner) * identity1d(4, "lane", inner) * identity1d(8, "lane", outer) *
         identity1d(outer_size / 8, "register", outer) * identity1d(inner_size / (k_width * 4), "register", inner);
  return cta;
}

struct NvidiaMma {
  int version = 2;
  std::vector<std::int64_t> warps, instr;
};

NvidiaMma nvidia_mma_params(const AttrNode& a, std::size_t rank) {
  NvidiaMma m;
  m.version = static_cast<int>(int_field(a, "versionMajor"));
  if (m.version != 2 && m.version != 3) fail("#ttg.nvidia_mma versionMajor {} is not modelled (2 and 3 are)", m.version);
  m.warps = list_field(a, "warpsPerCTA");
  check_rank(m.warps, rank, "warpsPerCTA", a);
  m.instr = list_field(a, "instrShape", std::vector<std::int64_t>{16, 8});
  if (m.version == 3 && m.instr.size() < 2) fail("#ttg.nvidia_mma v3 needs instrShape [16, N, K]");
  return m;
}

Named nvidia_mma_layout(const AttrNode& a, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  if (rank < 2) fail("#ttg.nvidia_mma needs a rank-2 (or batched) tensor");
  const NvidiaMma m = nvidia_mma_params(a, rank);
  std::vector<std::int64_t> tile(rank, 1);
  tile[rank - 2] = 16;
  tile[rank - 1] = m.version == 2 ? 8 : m.instr[1];
  const auto order = matrix_order(rank, true);
  Named cta = nvidia_mma_tile(tile, /*k_width=*/2, order, order);
  cta *= transpose_outs(identity_nd("warp", m.warps, matrix_order(rank, /*row_major=*/m.version != 3)), cta.outs);
  return combine(cta, cga_layout(a, rank), shape);
}

// Warps of a dot operand: the parent's warp grid, broadcast along K.
Named broadcast_warps(const std::vector<std::int64_t>& warps, const std::vector<std::int64_t>& warp_order, std::size_t k_dim) {
  Named n;
  for (auto d : warp_order) {
    const auto du = static_cast<std::size_t>(d);
    n *= du == k_dim ? zeros1d(warps[du], "warp", dim_name(du)) : identity1d(warps[du], "warp", dim_name(du));
  }
  return n;
}

Named nvidia_dot_layout(const AttrNode& dot, const AttrNode& parent, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  const NvidiaMma m = nvidia_mma_params(parent, rank);
  const int op = static_cast<int>(int_field(dot, "opIdx"));
  const std::int64_t k_width = int_field(dot, "kWidth", 2);
  log2_of(k_width, "kWidth");
  if (op != 0 && m.version == 3)
    fail("#ttg.dot_op opIdx 1 over an mma v3 parent is read from shared memory; not a register layout");
  std::vector<std::int64_t> tile(rank, 1);
  if (op == 0) {
    tile[rank - 2] = 16;
    tile[rank - 1] = k_width * 8;
  } else {
    tile[rank - 2] = k_width * 8;
    tile[rank - 1] = 8;
  }
  const auto order = dot_operand_order(op, rank, /*k_contig=*/true);
  Named cta = nvidia_mma_tile(tile, k_width, order, order);
  const std::size_t k_dim = op == 0 ? rank - 1 : rank - 2;
  cta *= transpose_outs(broadcast_warps(m.warps, matrix_order(rank, m.version != 3), k_dim), cta.outs);
  return combine(cta, cga_layout(parent, rank), shape);
}

struct Mfma {
  int version = 3;
  std::int64_t m = 32, n = 32;
  bool transposed = false;
  int element_bits = 32;
  std::vector<std::int64_t> warps, tiles_per_warp;
};

Mfma mfma_params(const AttrNode& a, std::size_t rank) {
  Mfma p;
  p.version = static_cast<int>(int_field(a, "version", 3));
  p.warps = list_field(a, "warpsPerCTA");
  check_rank(p.warps, rank, "warpsPerCTA", a);
  std::vector<std::int64_t> instr;
  if (a.field("instrShape")) {
    instr = list_field(a, "instrShape");
  } else {
    instr = {int_field(a, "MDim"), int_field(a, "NDim")};
  }
  if (instr.size() < 2) fail("#ttg.amd_mfma instrShape needs M and N");
  p.m = instr[0];
  p.n = instr[1];
  p.transposed = int_field(a, "isTransposed", 0) != 0;
  p.element_bits = static_cast<int>(int_field(a, "elementBitWidth", 32));
  p.tiles_per_warp = list_field(a, "tilesPerWarp", std::vector<std::int64_t>(rank, 1));
  check_rank(p.tiles_per_warp, rank, "tilesPerWarp", a);
  if (!((p.m == 32 && p.n == 32) || (p.m == 16 && p.n == 16) || (p.m == 64 && p.n == 4) || (p.m == 4 && p.n == 64)))
    fail("#ttg.amd_mfma instrShape {}x{} is not modelled", p.m, p.n);
  return p;
}

Named amd_mfma_layout(const AttrNode& a, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  if (rank < 2 || rank > 3) fail("#ttg.amd_mfma needs a rank-2 or rank-3 tensor");
  const Mfma p = mfma_params(a, rank);
  const bool batch = rank == 3;
  const std::size_t m_index = batch ? 1 : 0, n_index = m_index + 1;
  const std::string dim_m = dim_name(m_index), dim_n = dim_name(n_index);
  const int height = p.element_bits == 64 ? 1 : 4;
  constexpr int warp_size = 64;
  const std::int64_t tiles = (p.m * p.n) / (warp_size * height);
  Named tile;
  if (!p.transposed) {
    tile = identity1d(height, "register", dim_m) * (identity1d(p.n, "lane", dim_n) * identity1d(warp_size / p.n, "lane", dim_m));
    if (tiles > 0) tile *= identity1d(tiles, "register", dim_m);
  } else {
    tile = identity1d(height, "register", dim_n) * (identity1d(p.m, "lane", dim_m) * identity1d(warp_size / p.m, "lane", dim_n));
    if (tiles > 0) tile *= identity1d(tiles, "register", dim_n);
  }
  tile = transpose_outs(tile, {dim_n, dim_m});
  tile *= identity1d(p.tiles_per_warp[n_index], "register", dim_n);
  tile *= identity1d(p.warps[n_index], "warp", dim_n);
  const std::int64_t n_reps = shape[n_index] / (p.n * p.warps[n_index] * p.tiles_per_warp[n_index]);
  tile *= identity1d(std::max<std::int64_t>(n_reps, 1), "register", dim_n);
  tile *= identity1d(p.tiles_per_warp[m_index], "register", dim_m);
  tile *= identity1d(p.warps[m_index], "warp", dim_m);
  if (batch) {
    tile *= identity1d(1, "register", "dim0");
    tile *= identity1d(1, "lane", "dim0");
    tile *= identity1d(p.warps[0], "warp", "dim0");
  }
  return combine(tile, cga_layout(a, rank), shape);
}

Named mfma_dot_layout(const AttrNode& dot, const AttrNode& parent, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  const Mfma p = mfma_params(parent, rank);
  const int op = static_cast<int>(int_field(dot, "opIdx"));
  const std::int64_t k_width = int_field(dot, "kWidth");
  log2_of(k_width, "kWidth");
  const std::size_t k_dim = op == 0 ? rank - 1 : rank - 2;
  const std::int64_t k_size = shape[k_dim];
  const std::int64_t non_k_instr = op == 0 ? p.m : p.n;
  if (non_k_instr != 32 && non_k_instr != 16) fail("#ttg.dot_op over amd_mfma {}x{} is not modelled", p.m, p.n);
  // Bases as (k, non-k) pairs.
  std::vector<Basis> reg, lane;
  for (std::int64_t e = 1; e < k_width; e *= 2) reg.push_back({e, 0});
  for (std::int64_t l = 1; l < non_k_instr; l *= 2) lane.push_back({0, l});
  const std::int64_t k_lanes = 64 / non_k_instr;  // 2 for 32-wide, 4 for 16-wide
  for (std::int64_t l = 1; l < k_lanes; l *= 2) lane.push_back({k_width * l, 0});
  const std::int64_t k_tile = k_width * k_lanes;
  for (std::int64_t r = k_tile; r < k_size; r *= 2) reg.push_back({r, 0});
  const auto order = dot_operand_order(op, rank, /*k_contig=*/true);
  Named tile{{dim_name(static_cast<std::size_t>(order[0])), dim_name(static_cast<std::size_t>(order[1]))},
             {1, 1},
             {{"register", reg}, {"lane", lane}}};
  infer_sizes(tile);
  if (rank == 3) tile *= identity1d(1, "register", "dim0") * identity1d(1, "lane", "dim0");
  const auto outs = standard_outs(rank);
  const Named warps = broadcast_warps(p.warps, matrix_order(rank, true), k_dim);
  Named cta = transpose_outs(tile, outs) * transpose_outs(warps, outs);
  return combine(cta, cga_layout(parent, rank), shape);
}

Named amd_wmma_layout(const AttrNode& a, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  if (rank != 2) fail("#ttg.amd_wmma is modelled for rank-2 tensors");
  const int version = static_cast<int>(int_field(a, "version", 1));
  const bool transposed = int_field(a, "isTranspose", int_field(a, "isTransposed", 0)) != 0;
  const auto warps = list_field(a, "warpsPerCTA");
  check_rank(warps, rank, "warpsPerCTA", a);
  const auto tiles_per_warp = list_field(a, "tilesPerWarp", std::vector<std::int64_t>(rank, 1));
  const std::string dim_m = transposed ? "dim1" : "dim0", dim_n = transposed ? "dim0" : "dim1";
  Named tile;
  if (version == 1) {
    // 16 lanes along N; each holds every other row of M, lanes 16..31 the odd rows.
    tile = Named{
        {dim_m, dim_n}, {16, 16}, {{"register", {{2, 0}, {4, 0}, {8, 0}}}, {"lane", {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}}}}};
  } else if (version == 2 || version == 3) {
    tile = Named{
        {dim_m, dim_n}, {16, 16}, {{"register", {{1, 0}, {2, 0}, {4, 0}}}, {"lane", {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}}}}};
  } else {
    fail("#ttg.amd_wmma version {} is not modelled", version);
  }
  tile = transpose_outs(tile, {"dim1", "dim0"});
  Named cta;
  for (auto d : matrix_order(rank, true)) {
    cta *= identity1d(tiles_per_warp[static_cast<std::size_t>(d)], "register", dim_name(static_cast<std::size_t>(d)));
    cta *= identity1d(warps[static_cast<std::size_t>(d)], "warp", dim_name(static_cast<std::size_t>(d)));
  }
  cta = transpose_outs(cta, standard_outs(rank));
  return combine(tile * cta, cga_layout(a, rank), shape);
}

Named linear_layout(const AttrNode& a, const std::vector<std::int64_t>& shape) {
  Named n{standard_outs(shape.size()), shape, {}};
  for (const char* in : {"register", "lane", "warp", "block"}) {
    n.ins.emplace_back(in, std::vector<Basis>{});
    if (const AttrNode* f = a.field(in))
      for (const auto& b : f->items) {
        if (b.items.size() != shape.size())
          fail("#ttg.linear: a {} basis has {} coordinates for a rank-{} tensor", in, b.items.size(), shape.size());
        Basis v;
        for (const auto& x : b.items) v.push_back(x.integer);
        n.ins.back().second.push_back(v);
      }
  }
  return n;
}

Named slice_layout(const AttrNode& a, const std::vector<std::int64_t>& shape, const Aliases& aliases) {
  const auto dim = static_cast<std::size_t>(int_field(a, "dim"));
  const AttrNode* parent = a.field("parent");
  if (!parent) fail("#ttg.slice has no parent");
  if (dim > shape.size()) fail("#ttg.slice dim {} is out of range", dim);
  std::vector<std::int64_t> parent_shape = shape;
  parent_shape.insert(parent_shape.begin() + static_cast<std::ptrdiff_t>(dim), 1);
  const Named p = convert_distributed(resolve(*parent, aliases), parent_shape, aliases);
  Named r{standard_outs(shape.size()), shape, {}};
  for (const auto& [name, list] : p.ins) {
    r.ins.emplace_back(name, std::vector<Basis>{});
    for (const auto& b : list) {
      Basis v;
      for (std::size_t d = 0; d < b.size(); ++d)
        if (d != dim) v.push_back(b[d]);
      // Registers that no longer move anything are dropped, as Triton does.
      if (name == "register" && std::all_of(v.begin(), v.end(), [](std::int64_t x) { return x == 0; })) continue;
      r.ins.back().second.push_back(v);
    }
  }
  return r;
}

Named convert_distributed(const AttrNode& a, const std::vector<std::int64_t>& shape, const Aliases& aliases) {
  if (a.kind != AttrNode::Kind::Dialect) fail("expected a layout attribute");
  const std::string kind = a.layout_kind();
  for (auto s : shape) log2_of(s, "tensor dimension");
  if (kind == "blocked") return blocked_layout(a, shape);
  if (kind == "slice") return slice_layout(a, shape, aliases);
  if (kind == "nvidia_mma") return nvidia_mma_layout(a, shape);
  if (kind == "amd_mfma") return amd_mfma_layout(a, shape);
  if (kind == "amd_wmma") return amd_wmma_layout(a, shape);
  if (kind == "linear") return linear_layout(a, shape);
  if (kind == "dot_op") {
    const AttrNode* parent = a.field("parent");
    if (!parent) fail("#ttg.dot_op has no parent");
    const AttrNode p = resolve(*parent, aliases);
    const std::string pk = p.layout_kind();
    if (pk == "nvidia_mma") return nvidia_dot_layout(a, p, shape);
    if (pk == "amd_mfma") return mfma_dot_layout(a, p, shape);
    fail("#ttg.dot_op over #{} is not modelled", p.text);
  }
  fail("#{} is not modelled", a.text);
}

}  // namespace

// [SECTION] Shared

namespace {

struct SharedResult {
  Named linear;  // offset, block
  std::vector<std::pair<std::int64_t, std::int64_t>> padding;
};

Named swizzled_shared(const AttrNode& a, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  const Named cga = cga_layout(a, rank);
  const auto per_cta = shape_per_cta(cga, shape);
  if (rank == 1) return combine(identity1d(per_cta[0], "offset", "dim0"), cga, shape);
  const std::int64_t vec = int_field(a, "vec"), per_phase = int_field(a, "perPhase"), max_phase = int_field(a, "maxPhase");
  if (vec < 1 || per_phase < 1 || max_phase < 1) fail("#ttg.swizzled_shared: vec, perPhase and maxPhase must be positive");
  const auto order = list_field(a, "order");
  check_order(order, rank, a);
  const auto col = static_cast<std::size_t>(order[0]), row = static_cast<std::size_t>(order[1]);
  const std::int64_t cols = per_cta[col], rows = per_cta[row];
  Named cta{{dim_name(row), dim_name(col)}, {rows, cols}, {{"offset", {}}}};
  for (std::int64_t c = 1; c < cols; c *= 2) cta.ins[0].second.push_back({0, c});
  for (std::int64_t r = 1; r < rows; r *= 2) cta.ins[0].second.push_back({r, (vec * ((r / per_phase) % max_phase)) % cols});
  for (std::size_t i = 2; i < rank; ++i) {
    const auto d = static_cast<std::size_t>(order[i]);
    cta *= identity1d(per_cta[d], "offset", dim_name(d));
  }
  return combine(cta, cga, shape);
}

// Row-major reshape of the out space (the last dim fastest), Triton's reshapeLayout.
Named reshape_outs(const Named& n, const std::vector<std::int64_t>& shape) {
  auto flat_of = [&](const Basis& b) {
    std::int64_t flat = 0;
    for (std::size_t i = 0; i < n.outs.size(); ++i) flat = flat * n.sizes[i] + b[i];
    return flat;
  };
  Named r{standard_outs(shape.size()), shape, {}};
  for (const auto& [name, list] : n.ins) {
    r.ins.emplace_back(name, std::vector<Basis>{});
    for (const auto& b : list) {
      std::int64_t flat = flat_of(b);
      Basis v(shape.size());
      for (std::size_t i = shape.size(); i-- > 0;) {
        v[i] = flat % shape[i];
        flat /= shape[i];
      }
      r.ins.back().second.push_back(v);
    }
  }
  return r;
}

Named nvmma_shared(const AttrNode& a, const std::vector<std::int64_t>& shape, int element_bits) {
  const std::size_t rank = shape.size();
  const Named cga = cga_layout(a, rank);
  const auto per_cta = shape_per_cta(cga, shape);
  const std::int64_t swizzle = int_field(a, "swizzlingByteWidth");
  const bool transposed = int_field(a, "transposed", 0) != 0;
  const int bits = static_cast<int>(int_field(a, "elementBitWidth", element_bits));
  const bool fp4_padded = int_field(a, "fp4Padded", 0) != 0;
  if (fp4_padded) fail("#ttg.nvmma_shared with fp4Padded is not modelled");
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    fail("#ttg.nvmma_shared swizzlingByteWidth {} is not 0, 32, 64 or 128", swizzle);
  if (rank == 1) return combine(identity1d(per_cta[0], "offset", "dim0"), cga, shape);
  // The TMA box: at most 256 per dim, the contiguous dim at most one swizzle row.
  std::vector<std::int64_t> box = per_cta;
  for (auto& b : box) b = std::min<std::int64_t>(b, 256);
  const std::size_t contig = transposed ? 0 : rank - 1;
  if (swizzle) box[contig] = std::min<std::int64_t>(box[contig], swizzle * 8 / bits);
  const auto outs = standard_outs(rank);
  if (swizzle == 0) {
    Named layout = identity1d(box[rank - 1], "offset", outs[rank - 1]);
    for (std::size_t i = rank - 1; i-- > 0;) layout *= identity1d(box[i], "offset", outs[i]);
    layout = not_smaller_than(layout, shape_map(per_cta), outs);
    return combine(layout, cga, shape);
  }
  // Core matrix: 8 rows of one swizzle width; row r XORs 16-byte chunk (r / perPhase) % maxPhase.
  const std::int64_t per_phase = swizzle == 32 ? 4 : swizzle == 64 ? 2 : 1, max_phase = swizzle / 16;
  const std::int64_t vec = 128 / bits, tile_rows = 8, tile_cols = 8 * std::max<std::int64_t>(16, swizzle) / bits;
  std::array<std::int64_t, 2> collapsed{1, box.back()};
  for (std::size_t i = 0; i + 1 < rank; ++i) collapsed[0] *= box[i];
  if (transposed) std::swap(collapsed[0], collapsed[1]);
  if (collapsed[1] < tile_cols || collapsed[0] < tile_rows)
    fail("#ttg.nvmma_shared: a {}x{} tile is smaller than one {}x{} core matrix of {}-byte swizzle", collapsed[0], collapsed[1],
         tile_rows, tile_cols, swizzle);
  Named tile{{"dim0", "dim1"}, {tile_rows, tile_cols}, {{"offset", {}}}};
  for (std::int64_t c = 1; c < tile_cols; c *= 2) tile.ins[0].second.push_back({0, c});
  for (std::int64_t r = 1; r < tile_rows; r *= 2) tile.ins[0].second.push_back({r, vec * ((r / per_phase) % max_phase)});
  Named layout = not_smaller_than(tile, Shape{{"dim0", collapsed[0]}, {"dim1", collapsed[1]}}, {"dim0", "dim1"});
  std::vector<std::int64_t> box_shape = box;
  if (transposed) std::rotate(box_shape.begin(), box_shape.begin() + 1, box_shape.end());
  layout = reshape_outs(layout, box_shape);
  if (transposed) {
    // Out dim i of the result is dim order[i] of the reshaped layout, order = [rank-1, 0, 1, ...].
    std::vector<std::string> order{dim_name(rank - 1)};
    for (std::size_t i = 0; i + 1 < rank; ++i) order.push_back(dim_name(i));
    Named t = transpose_outs(layout, order);
    t.outs = outs;
    layout = t;
  }
  layout = not_smaller_than(layout, shape_map(per_cta), outs);
  return combine(layout, cga, shape);
}

Named shared_linear(const AttrNode& a, const std::vector<std::int64_t>& shape) {
  Named n{standard_outs(shape.size()), shape, {}};
  for (const char* in : {"offset", "block"}) {
    n.ins.emplace_back(in, std::vector<Basis>{});
    if (const AttrNode* f = a.field(in))
      for (const auto& b : f->items) {
        if (b.items.size() != shape.size())
          fail("#ttg.{}: an {} basis has {} coordinates for a rank-{} tensor", a.layout_kind(), in, b.items.size(), shape.size());
        Basis v;
        for (const auto& x : b.items) v.push_back(x.integer);
        n.ins.back().second.push_back(v);
      }
  }
  return n;
}

SharedResult convert_shared(const AttrNode& a, const std::vector<std::int64_t>& shape, int element_bits) {
  const std::string kind = a.layout_kind();
  for (auto s : shape) log2_of(s, "tensor dimension");
  if (kind == "shared" && int_field(a, "hasLeadingOffset", 0) != 0) {
    // Triton 3.0-3.2's #triton_gpu.shared with hasLeadingOffset: the MMAv3 layout nvmma_shared replaced.
    const std::int64_t per_phase = int_field(a, "perPhase"), max_phase = int_field(a, "maxPhase");
    const std::int64_t width = per_phase == 4 && max_phase == 2   ? 32
                               : per_phase == 2 && max_phase == 4 ? 64
                               : per_phase == 1 && max_phase == 8 ? 128
                                                                  : 0;
    if (!width) fail("#{}: hasLeadingOffset needs (perPhase, maxPhase) of (4, 2), (2, 4) or (1, 8)", a.text);
    const auto order = list_field(a, "order");
    check_order(order, shape.size(), a);
    AttrNode nv = a;
    auto set = [&](const char* key, std::int64_t v) {
      AttrNode n;
      n.kind = AttrNode::Kind::Integer;
      n.integer = v;
      nv.fields.emplace_back(key, n);
    };
    nv.fields.erase(std::remove_if(nv.fields.begin(), nv.fields.end(), [](const auto& f) { return f.first == "transposed"; }),
                    nv.fields.end());
    set("swizzlingByteWidth", width);
    set("transposed", shape.size() >= 2 && order[0] != static_cast<std::int64_t>(shape.size()) - 1);
    set("elementBitWidth", element_bits);
    return {nvmma_shared(nv, shape, element_bits), {}};
  }
  if (kind == "swizzled_shared" || kind == "shared") return {swizzled_shared(a, shape), {}};
  if (kind == "nvmma_shared") return {nvmma_shared(a, shape, element_bits), {}};
  if (kind == "shared_linear") return {shared_linear(a, shape), {}};
  if (kind == "padded_shared") {
    if (a.padding.empty()) fail("#ttg.padded_shared has no [interval:+padding] list");
    for (const auto& [interval, pad] : a.padding) {
      log2_of(interval, "padded_shared interval");
      log2_of(pad, "padded_shared padding");
    }
    Named linear;
    if (a.field("offset")) {
      linear = shared_linear(a, shape);
    } else {
      // Older form: an identity in `order` over `shape`.
      const auto order = list_field(a, "order");
      check_order(order, shape.size(), a);
      linear = combine(identity_nd("offset", shape, order), cga_layout(a, shape.size()), shape);
    }
    return {linear, a.padding};
  }
  fail("#{} is not modelled", a.text);
}

bool is_shared_kind(const std::string& kind) {
  return kind == "swizzled_shared" || kind == "shared" || kind == "nvmma_shared" || kind == "shared_linear" ||
         kind == "padded_shared";
}

}  // namespace

// [SECTION] Convert

Layout convert(const AttrNode& attribute, const std::vector<std::int64_t>& shape, int element_bits, const Aliases& aliases) {
  const AttrNode a = resolve(attribute, aliases);
  if (a.kind != AttrNode::Kind::Dialect) fail("expected a layout attribute such as #ttg.blocked<...>");
  if (shape.empty()) fail("#{}: the tensor has no shape", a.text);
  Layout out;
  out.kind_name = a.layout_kind();
  if (!is_shared_kind(out.kind_name)) {
    out.kind = LayoutKind::Distributed;
    out.linear = to_linear(convert_distributed(a, shape, aliases), kDistributedIns);
    return out;
  }
  out.kind = LayoutKind::Shared;
  const SharedResult r = convert_shared(a, shape, element_bits);
  out.linear = to_linear(r.linear, kSharedIns);
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
