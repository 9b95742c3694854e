#include "swz/layout/layout.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "swz/error.h"

namespace swz {

namespace {
constexpr int kMaxLayoutBits = 48;

void check_name(const std::string& name, const char* what) {
  if (name.empty()) fail("{} dimension with an empty name", what);
}
}  // namespace

std::string in_dim_short_name(std::string_view name) {
  if (name == "register") return "r";
  if (name == "lane") return "t";
  if (name == "warp") return "w";
  if (name == "block") return "b";
  if (name == "offset") return "o";
  return std::string(name.substr(0, 1));
}

LinearLayout::LinearLayout(std::vector<InDim> ins, std::vector<OutDim> outs)
    : ins_(std::move(ins)), outs_(std::move(outs)) {
  int total_out = 0;
  for (std::size_t d = 0; d < outs_.size(); ++d) {
    check_name(outs_[d].name, "output");
    if (outs_[d].log2_size < 0 || outs_[d].log2_size > 30)
      fail("output dimension '{}' has unsupported size 2^{}", outs_[d].name, outs_[d].log2_size);
    for (std::size_t e = 0; e < d; ++e)
      if (outs_[e].name == outs_[d].name) fail("output dimension '{}' appears twice", outs_[d].name);
    total_out += outs_[d].log2_size;
  }
  if (total_out > kMaxLayoutBits) fail("layout has {} output bits; at most {} are supported", total_out, kMaxLayoutBits);
  int total_in = 0;
  for (std::size_t i = 0; i < ins_.size(); ++i) {
    check_name(ins_[i].name, "input");
    for (std::size_t e = 0; e < i; ++e)
      if (ins_[e].name == ins_[i].name) fail("input dimension '{}' appears twice", ins_[i].name);
    for (std::size_t b = 0; b < ins_[i].bases.size(); ++b)
      if ((ins_[i].bases[b] & ~low_bits(total_out)) != 0)
        fail("basis {} of '{}' is outside the output space", b, ins_[i].name);
    total_in += static_cast<int>(ins_[i].bases.size());
  }
  if (total_in > kMaxLayoutBits) fail("layout has {} input bits; at most {} are supported", total_in, kMaxLayoutBits);
}

std::vector<OutDim> LinearLayout::out_dims_for_shape(const std::vector<std::int64_t>& shape) {
  if (shape.empty()) fail("a tensor shape needs at least one dimension");
  std::vector<OutDim> outs;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const std::int64_t s = shape[d];
    if (s <= 0 || !std::has_single_bit(static_cast<std::uint64_t>(s)))
      fail("shape dimension {} is {}: sizes must be powers of two", d, s);
    if (s > (std::int64_t{1} << 30)) fail("shape dimension {} is {}: too large", d, s);
    outs.push_back({fmt::format("dim{}", d), std::countr_zero(static_cast<std::uint64_t>(s))});
  }
  return outs;
}

LinearLayout LinearLayout::from_coordinates(const std::vector<std::pair<std::string, std::vector<Coords>>>& ins,
                                            const std::vector<OutDim>& outs) {
  LinearLayout shape_only({}, outs);
  std::vector<InDim> flat;
  for (const auto& [name, list] : ins) {
    InDim in{name, {}};
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Coords& c = list[i];
      if (c.size() != outs.size())
        fail("basis {} of '{}' has {} coordinates; the shape has {} dimensions", i, name, c.size(), outs.size());
      for (std::size_t d = 0; d < c.size(); ++d)
        if (c[d] < 0 || c[d] >= (std::int64_t{1} << outs[d].log2_size))
          fail("basis {} of '{}': coordinate {} = {} is outside 0..{}", i, name, d, c[d],
               (std::int64_t{1} << outs[d].log2_size) - 1);
      in.bases.push_back(shape_only.flatten(c));
    }
    flat.push_back(std::move(in));
  }
  return LinearLayout(std::move(flat), outs);
}

int LinearLayout::in_bits() const {
  int n = 0;
  for (const auto& in : ins_) n += static_cast<int>(in.bases.size());
  return n;
}

int LinearLayout::out_bits() const {
  int n = 0;
  for (const auto& out : outs_) n += out.log2_size;
  return n;
}

bool LinearLayout::has_in_dim(std::string_view name) const {
  return std::any_of(ins_.begin(), ins_.end(), [&](const InDim& d) { return d.name == name; });
}

int LinearLayout::in_dim_bits(std::string_view name) const { return static_cast<int>(bases(name).size()); }

const std::vector<BitVec>& LinearLayout::bases(std::string_view in) const {
  static const std::vector<BitVec> kNone;
  for (const auto& d : ins_)
    if (d.name == in) return d.bases;
  return kNone;
}

int LinearLayout::in_offset(std::string_view in) const {
  int off = 0;
  for (const auto& d : ins_) {
    if (d.name == in) return off;
    off += static_cast<int>(d.bases.size());
  }
  return off;
}

int LinearLayout::out_offset(int d) const {
  int off = 0;
  for (int i = 0; i < d; ++i) off += outs_.at(static_cast<std::size_t>(i)).log2_size;
  return off;
}

std::vector<std::int64_t> LinearLayout::shape() const {
  std::vector<std::int64_t> s;
  for (const auto& o : outs_) s.push_back(std::int64_t{1} << o.log2_size);
  return s;
}

BitVec LinearLayout::apply_flat(BitVec flat_in) const {
  BitVec out = 0;
  for (const auto& d : ins_)
    for (BitVec b : d.bases) {
      if (flat_in & 1u) out ^= b;
      flat_in >>= 1;
    }
  return out;
}

BitVec LinearLayout::apply(std::string_view in, std::uint64_t value) const {
  BitVec out = 0;
  const auto& bs = bases(in);
  for (std::size_t i = 0; i < bs.size() && value != 0; ++i, value >>= 1)
    if (value & 1u) out ^= bs[i];
  return out;
}

BitVec LinearLayout::apply(const std::vector<std::pair<std::string, std::uint64_t>>& ins) const {
  BitVec out = 0;
  for (const auto& [name, value] : ins) {
    if (!has_in_dim(name) && value != 0) fail("layout has no input dimension '{}'", name);
    if (value >> in_dim_bits(name)) fail("input {} = {} is out of range", name, value);
    out ^= apply(name, value);
  }
  return out;
}

Coords LinearLayout::unflatten(BitVec flat_out) const {
  Coords c;
  for (const auto& o : outs_) {
    c.push_back(static_cast<std::int64_t>(flat_out & low_bits(o.log2_size)));
    flat_out >>= o.log2_size;
  }
  return c;
}

BitVec LinearLayout::flatten(const Coords& coords) const {
  if (coords.size() != outs_.size()) fail("{} coordinates given for a {}-D tensor", coords.size(), outs_.size());
  BitVec flat = 0;
  int shift = 0;
  for (std::size_t d = 0; d < outs_.size(); ++d) {
    if (coords[d] < 0 || coords[d] >= (std::int64_t{1} << outs_[d].log2_size))
      fail("coordinate {} = {} is outside 0..{}", d, coords[d], (std::int64_t{1} << outs_[d].log2_size) - 1);
    flat |= static_cast<BitVec>(coords[d]) << shift;
    shift += outs_[d].log2_size;
  }
  return flat;
}

BitMatrix LinearLayout::matrix() const {
  std::vector<BitVec> cols;
  for (const auto& d : ins_) cols.insert(cols.end(), d.bases.begin(), d.bases.end());
  return BitMatrix::from_columns(out_bits(), std::move(cols));
}

Subspace LinearLayout::image() const { return matrix().image(); }

Subspace LinearLayout::image_of(std::string_view in) const { return Subspace::span(bases(in), out_bits()); }

bool LinearLayout::is_injective() const { return matrix().rank() == in_bits(); }
bool LinearLayout::is_surjective() const { return matrix().rank() == out_bits(); }

LinearLayout LinearLayout::compose(const LinearLayout& outer) const {
  if (outs_.size() != outer.ins_.size()) fail("cannot compose: {} outputs feed {} inputs", outs_.size(), outer.ins_.size());
  for (std::size_t d = 0; d < outs_.size(); ++d)
    if (outs_[d].name != outer.ins_[d].name || outs_[d].log2_size != static_cast<int>(outer.ins_[d].bases.size()))
      fail("cannot compose: output '{}' (2^{}) does not match input '{}' (2^{})", outs_[d].name, outs_[d].log2_size,
           outer.ins_[d].name, outer.ins_[d].bases.size());
  std::vector<InDim> ins;
  for (const auto& d : ins_) {
    InDim nd{d.name, {}};
    for (BitVec b : d.bases) nd.bases.push_back(outer.apply_flat(b));
    ins.push_back(std::move(nd));
  }
  return LinearLayout(std::move(ins), outer.outs_);
}

LinearLayout LinearLayout::invert() const {
  if (in_bits() != out_bits())
    fail("layout is not invertible: {} input bits map to {} output bits", in_bits(), out_bits());
  auto inv = matrix().inverse();
  if (!inv) {
    // A kernel vector k = first ^ rest: inputs `first` and `rest` have the same image.
    const BitVec k = matrix().kernel().basis().back();
    const BitVec first = k & (~k + 1);
    auto names = [&](BitVec v) {
      std::string s;
      for (int b = 0; v != 0; ++b, v >>= 1)
        if (v & 1u) s += (s.empty() ? "" : "^") + in_bit_name(b);
      return s;
    };
    if (k == first) fail("layout is not invertible: input {} maps to the same point as input 0", names(first));
    fail("layout is not invertible: inputs {} and {} map to the same point", names(first), names(k ^ first));
  }
  // New in dims = old out dims; new out dims = old in dims.
  std::vector<InDim> ins;
  int col = 0;
  for (const auto& o : outs_) {
    InDim nd{o.name, {}};
    for (int i = 0; i < o.log2_size; ++i) nd.bases.push_back(inv->column(col++));
    ins.push_back(std::move(nd));
  }
  std::vector<OutDim> outs;
  for (const auto& d : ins_) outs.push_back({d.name, static_cast<int>(d.bases.size())});
  return LinearLayout(std::move(ins), std::move(outs));
}

LinearLayout LinearLayout::flatten_ins(const std::string& name) const {
  InDim all{name, matrix().columns()};
  return LinearLayout({all}, outs_);
}

LinearLayout LinearLayout::flatten_outs(const std::string& name) const {
  return LinearLayout(ins_, {OutDim{name, out_bits()}});
}

LinearLayout LinearLayout::with_in_dim(const std::string& name, std::vector<BitVec> new_bases) const {
  std::vector<InDim> ins = ins_;
  auto it = std::find_if(ins.begin(), ins.end(), [&](const InDim& d) { return d.name == name; });
  if (it == ins.end()) ins.push_back({name, std::move(new_bases)});
  else it->bases = std::move(new_bases);
  return LinearLayout(std::move(ins), outs_);
}

std::string LinearLayout::out_bit_name(int flat_bit) const {
  int off = 0;
  for (std::size_t d = 0; d < outs_.size(); ++d) {
    if (flat_bit < off + outs_[d].log2_size) {
      const int i = flat_bit - off;
      if (outs_.size() == 2) return fmt::format("{}{}", d == 0 ? "m" : "n", i);
      if (outs_.size() == 1) return fmt::format("x{}", i);
      return fmt::format("d{}_{}", d, i);
    }
    off += outs_[d].log2_size;
  }
  return fmt::format("?{}", flat_bit);
}

std::string LinearLayout::in_bit_name(int flat_bit) const {
  int off = 0;
  for (const auto& d : ins_) {
    const int n = static_cast<int>(d.bases.size());
    if (flat_bit < off + n) return fmt::format("{}{}", in_dim_short_name(d.name), flat_bit - off);
    off += n;
  }
  return fmt::format("?{}", flat_bit);
}

std::string LinearLayout::describe_out(BitVec v) const {
  if (v == 0) return "0";
  std::string s;
  for (int b = 0; v != 0; ++b, v >>= 1)
    if (v & 1u) {
      if (!s.empty()) s += "^";
      s += out_bit_name(b);
    }
  return s;
}

std::string LinearLayout::format_coords(BitVec flat_out) const {
  const Coords c = unflatten(flat_out);
  std::string s = "(";
  for (std::size_t i = 0; i < c.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", c[i]);
  return s + ")";
}

std::string LinearLayout::to_string() const {
  std::string s;
  for (const auto& d : ins_) {
    if (d.bases.empty()) {
      s += fmt::format(" - {} is a size 1 dimension\n", d.name);
      continue;
    }
    for (std::size_t i = 0; i < d.bases.size(); ++i)
      s += fmt::format(" - {}={} -> {}\n", d.name, std::uint64_t{1} << i, format_coords(d.bases[i]));
  }
  s += "where out dims are: [";
  for (std::size_t d = 0; d < outs_.size(); ++d)
    s += fmt::format("{}{} (size {})", d ? ", " : "", outs_[d].name, std::int64_t{1} << outs_[d].log2_size);
  return s + "]";
}

}  // namespace swz
