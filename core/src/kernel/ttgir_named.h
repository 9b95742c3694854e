// ttgir_named.h (private to core/src/kernel): the small layouts with named, ordered out
// dims that Triton builds its layouts from, and the attribute field readers the
// distributed and shared conversions share (ttgir_distributed.cpp, ttgir_shared.cpp).
// The order of out dims matters: a layout too small for its tensor repeats along
// its out dims in that order.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "swz/error.h"
#include "swz/kernel/ttgir.h"

namespace swz::ttgir::detail {

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

inline std::string dim_name(std::size_t d) { return fmt::format("dim{}", d); }

inline std::vector<std::string> standard_outs(std::size_t rank) {
  std::vector<std::string> names;
  for (std::size_t d = 0; d < rank; ++d) names.push_back(dim_name(d));
  return names;
}

inline int log2_of(std::int64_t v, const char* what) {
  if (v <= 0 || !std::has_single_bit(static_cast<std::uint64_t>(v))) fail("{} {} is not a power of two", what, v);
  return std::countr_zero(static_cast<std::uint64_t>(v));
}

inline Named identity1d(std::int64_t size, const std::string& in, const std::string& out) {
  Named n{{out}, {std::max<std::int64_t>(size, 1)}, {{in, {}}}};
  for (std::int64_t v = 1; v < size; v *= 2) n.ins[0].second.push_back({v});
  return n;
}

inline Named zeros1d(std::int64_t size, const std::string& in, const std::string& out) {
  Named n{{out}, {1}, {{in, {}}}};
  for (std::int64_t v = 1; v < size; v *= 2) n.ins[0].second.push_back({0});
  return n;
}

// Triton's product: inner's bases, then outer's scaled by inner's size along each shared out dim.
inline Named operator*(const Named& inner, const Named& outer) {
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

inline Named& operator*=(Named& a, const Named& b) { return a = a * b; }

inline Named transpose_outs(const Named& n, const std::vector<std::string>& order) {
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

inline Named identity_nd(const std::string& in, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& order) {
  Named r;
  for (auto d : order) r *= identity1d(shape[static_cast<std::size_t>(d)], in, dim_name(static_cast<std::size_t>(d)));
  return r;
}

using Shape = std::map<std::string, std::int64_t>;

inline Shape shape_map(const std::vector<std::int64_t>& shape) {
  Shape m;
  for (std::size_t d = 0; d < shape.size(); ++d) m[dim_name(d)] = shape[d];
  return m;
}

// Smallest power of two above every value along each out dim.
inline void infer_sizes(Named& n) {
  for (std::size_t i = 0; i < n.outs.size(); ++i) {
    std::int64_t top = 0;
    for (const auto& [_, list] : n.ins)
      for (const auto& b : list) top |= b[i];
    n.sizes[i] = top ? static_cast<std::int64_t>(std::bit_floor(static_cast<std::uint64_t>(top))) * 2 : 1;
  }
}

// Too large along a dim: its largest bases become zero (broadcast), largest first.
inline Named not_larger_than(Named n, const Shape& shape) {
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
inline Named not_smaller_than(Named n, const Shape& shape, const std::vector<std::string>& order) {
  const std::string first = n.ins.empty() ? "register" : n.ins.front().first;
  for (const auto& out : order) {
    const std::int64_t want = shape.at(out), have = n.size(out);
    if (have < want) n *= identity1d(want / have, first, out);
  }
  return n;
}
inline Named not_smaller_than(const Named& n, const Shape& shape) { return not_smaller_than(n, shape, n.outs); }

// The CGA layout (block bases) from the attribute's fields; the trivial one when absent.
inline Named cga_layout(const AttrNode& attr, std::size_t rank) {
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
inline Named combine(Named cta, const Named& cga_in, const std::vector<std::int64_t>& shape) {
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

inline std::vector<std::int64_t> shape_per_cta(const Named& cga, const std::vector<std::int64_t>& shape) {
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

inline LinearLayout to_linear(const Named& n, const std::vector<std::string>& in_names) {
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

inline const std::vector<std::string> kDistributedIns{"register", "lane", "warp", "block"};
inline const std::vector<std::string> kSharedIns{"offset", "block"};

// -- field access ---------------------------------------------------------------
inline std::int64_t int_field(const AttrNode& a, const char* key, std::optional<std::int64_t> fallback = std::nullopt) {
  const AttrNode* f = a.field(key);
  if (!f) {
    if (fallback) return *fallback;
    fail("#ttg.{} has no '{}'", a.layout_kind(), key);
  }
  if (f->kind != AttrNode::Kind::Integer && f->kind != AttrNode::Kind::Bool)
    fail("'{}' of #ttg.{} is not a number", key, a.layout_kind());
  return f->integer;
}

inline std::vector<std::int64_t> list_field(const AttrNode& a, const char* key,
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

inline void check_rank(const std::vector<std::int64_t>& v, std::size_t rank, const char* what, const AttrNode& a) {
  if (v.size() != rank) fail("#ttg.{}: {} has {} entries; the tensor has rank {}", a.layout_kind(), what, v.size(), rank);
}

inline void check_order(const std::vector<std::int64_t>& order, std::size_t rank, const AttrNode& a) {
  check_rank(order, rank, "order", a);
  std::vector<std::int64_t> s = order;
  std::sort(s.begin(), s.end());
  for (std::size_t i = 0; i < rank; ++i)
    if (s[i] != static_cast<std::int64_t>(i)) fail("#ttg.{}: order is not a permutation of 0..{}", a.layout_kind(), rank - 1);
}

// getMatrixOrder: the last two dims as a matrix (row-major: last dim fastest), batch dims slowest.
inline std::vector<std::int64_t> matrix_order(std::size_t rank, bool row_major) {
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
inline std::vector<std::int64_t> dot_operand_order(int op_idx, std::size_t rank, bool k_contig) {
  const auto r = static_cast<std::int64_t>(rank);
  const std::int64_t k = op_idx == 0 ? r - 1 : r - 2, non_k = op_idx == 0 ? r - 2 : r - 1;
  std::vector<std::int64_t> order = k_contig ? std::vector<std::int64_t>{k, non_k} : std::vector<std::int64_t>{non_k, k};
  for (std::int64_t d = r - 3; d >= 0; --d) order.push_back(d);
  return order;
}

// The conversions of each family (ttgir_distributed.cpp, ttgir_shared.cpp).
Named convert_distributed(const AttrNode& a, const std::vector<std::int64_t>& shape, const Aliases& aliases);
struct SharedResult {
  Named linear;  // offset, block
  std::vector<std::pair<std::int64_t, std::int64_t>> padding;
};
SharedResult convert_shared(const AttrNode& a, const std::vector<std::int64_t>& shape, int element_bits);
bool is_shared_kind(const std::string& kind);

}  // namespace swz::ttgir::detail
