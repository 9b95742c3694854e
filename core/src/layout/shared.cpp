#include "swz/layout/shared.h"

#include <algorithm>
#include <bit>
#include <mutex>
#include <unordered_map>

#include "swz/error.h"

namespace swz {

namespace {
int total_bits(const std::vector<OutDim>& outs) {
  int n = 0;
  for (const auto& o : outs) n += o.log2_size;
  return n;
}
// Gray-code walk over coordinates applying coords -> offset.
std::vector<std::uint32_t> table_of(const BitMatrix& address, int bits) {
  std::vector<std::uint32_t> offsets(std::size_t{1} << bits);
  BitVec x = 0, off = 0;
  for (std::size_t k = 1; k < offsets.size(); ++k) {
    const int i = std::countr_zero(k);
    x ^= BitVec{1} << i;
    off ^= address.column(i);
    offsets[x] = static_cast<std::uint32_t>(off);
  }
  return offsets;
}

std::mutex& table_mutex() {
  static std::mutex m;
  return m;
}
}  // namespace

std::optional<std::vector<BitVec>> fit_linear(const std::vector<std::uint32_t>& table, int in_bits) {
  if (table.empty() || table[0] != 0) return std::nullopt;
  std::vector<BitVec> bases;
  for (int i = 0; i < in_bits; ++i) bases.push_back(table[std::size_t{1} << i]);
  // Gray-code walk: value(x ^ 2^i) must be value(x) ^ basis_i.
  BitVec x = 0, v = 0;
  for (std::size_t k = 1; k < table.size(); ++k) {
    const int i = std::countr_zero(k);
    x ^= BitVec{1} << i;
    v ^= bases[static_cast<std::size_t>(i)];
    if (table[x] != v) return std::nullopt;
  }
  return bases;
}

SharedLayout SharedLayout::from_linear(const LinearLayout& layout, std::string description) {
  for (const auto& d : layout.in_dims())
    if (d.name != "offset" && d.name != "block")
      fail("a shared layout has input dims 'offset' and 'block', not '{}'", d.name);
  if (!layout.has_in_dim("offset")) fail("a shared layout needs offset_bases");
  const int bits = layout.out_bits();
  if (bits > kMaxLinearAddressBits)
    fail("tensor has {} address bits; at most {} are supported", bits, kMaxLinearAddressBits);
  LinearLayout offsets_only({InDim{"offset", layout.bases("offset")}}, layout.out_dims());
  if (offsets_only.in_bits() != bits)
    fail("shared layout is not invertible: {} offset bits for a tensor of {} elements (2^{})",
         offsets_only.in_bits(), std::int64_t{1} << bits, bits);
  // Coverage and injectivity by rank: a square matrix over F2 is a bijection iff it inverts.
  const auto inverse = offsets_only.matrix().inverse();
  if (!inverse) {
    const Subspace ker = offsets_only.matrix().kernel();
    fail("shared layout is not invertible: offset 0x{:x} maps to the same element as offset 0", ker.basis().back());
  }
  SharedLayout s;
  s.description_ = std::move(description);
  s.shape_ = layout.shape();
  s.coord_bits_ = bits;
  s.coords_ = LinearLayout({}, layout.out_dims());
  s.extent_ = std::uint64_t{1} << bits;
  s.address_ = *inverse;
  s.linear_ = offsets_only;
  if (bits <= kTableBits) {
    s.offsets_ = table_of(s.address_, bits);
    s.build_reverse();
  }
  return s;
}

SharedLayout SharedLayout::from_function(const std::vector<std::int64_t>& shape,
                                         const std::function<std::uint64_t(const Coords&)>& offset_of,
                                         std::string description, std::string nonlinear_reason) {
  const auto outs = LinearLayout::out_dims_for_shape(shape);
  const int bits = total_bits(outs);
  if (bits > kMaxAddressBits) fail("tensor has {} address bits; at most {} are supported", bits, kMaxAddressBits);
  SharedLayout s;
  s.description_ = std::move(description);
  s.shape_ = shape;
  s.coord_bits_ = bits;
  s.coords_ = LinearLayout({}, outs);
  s.offsets_.resize(std::size_t{1} << bits);
  std::uint64_t max_off = 0;
  for (BitVec flat = 0; flat < s.offsets_.size(); ++flat) {
    const std::uint64_t o = offset_of(s.coords_.unflatten(flat));
    if (o > 0xFFFFFFFFu) fail("offset {} of element {} is too large", o, s.coords_.format_coords(flat));
    s.offsets_[flat] = static_cast<std::uint32_t>(o);
    max_off = std::max(max_off, o);
  }
  s.extent_ = max_off + 1;
  // Offsets far beyond the element count (huge strides or padding) would make the
  // physical-memory tables explode: refuse them with the numbers.
  if (s.extent_ > 16 * s.offsets_.size() + 65536 || s.extent_ > (std::uint64_t{1} << 25))
    fail("layout '{}' spreads {} elements over {} slots: strides or padding too large", s.description_, s.offsets_.size(), s.extent_);
  // Two elements at one offset would lose data: reject.
  {
    std::vector<std::uint32_t> sorted = s.offsets_;
    std::sort(sorted.begin(), sorted.end());
    auto dup = std::adjacent_find(sorted.begin(), sorted.end());
    if (dup != sorted.end()) {
      BitVec a = 0, b = 0;
      bool first = true;
      for (BitVec f = 0; f < s.offsets_.size(); ++f)
        if (s.offsets_[f] == *dup) { (first ? a : b) = f; if (!first) break; first = false; }
      fail("layout '{}' puts elements {} and {} at the same offset {}", s.description_, s.coords_.format_coords(a),
           s.coords_.format_coords(b), *dup);
    }
  }
  if (s.extent_ == s.offsets_.size()) {
    if (auto bases = fit_linear(s.offsets_, bits)) {
      // coords -> offset is linear and a bijection; keep Triton's direction (offset -> coords).
      LinearLayout forward({InDim{"coords", *bases}}, {OutDim{"offset", bits}});
      LinearLayout inv = forward.invert();  // in: offset, out: coords
      s.linear_ = LinearLayout({InDim{"offset", inv.bases("offset")}}, outs);
      s.address_ = BitMatrix::from_columns(bits, *bases);
      s.build_reverse();
      return s;
    }
  }
  s.nonlinear_reason_ = !nonlinear_reason.empty() ? std::move(nonlinear_reason)
                        : s.extent_ != s.offsets_.size()
                            ? fmt::format("offsets span {} slots for {} elements (not a permutation)", s.extent_, s.offsets_.size())
                            : std::string("offset is not an XOR-linear function of the coordinate bits");
  s.build_reverse();
  return s;
}

const LinearLayout& SharedLayout::linear() const {
  if (!linear_) fail("layout '{}' is not linear over F2: {}", description_, nonlinear_reason_);
  return *linear_;
}

const std::vector<std::uint32_t>& SharedLayout::offsets() const {
  if (has_table()) return offsets_;
  if (coord_bits_ > kMaxAddressBits)
    fail("layout '{}' has 2^{} elements: a table of its offsets stops at 2^{}", description_, coord_bits_, kMaxAddressBits);
  const std::lock_guard<std::mutex> lock(table_mutex());
  if (!built_) built_ = std::make_shared<const std::vector<std::uint32_t>>(table_of(address_, coord_bits_));
  return *built_;
}

bool SharedLayout::operator==(const SharedLayout& o) const {
  if (shape_ != o.shape_) return false;
  if (linear_ && o.linear_) return linear_->bases("offset") == o.linear_->bases("offset");
  if (linear_.has_value() != o.linear_.has_value()) return false;
  return offsets_ == o.offsets_;
}

void SharedLayout::build_reverse() {
  coord_at_.assign(extent_, -1);
  for (BitVec f = 0; f < offsets_.size(); ++f) coord_at_[offsets_[f]] = static_cast<std::int32_t>(f);
}

std::optional<BitVec> SharedLayout::coord_at(std::uint64_t off) const {
  if (!has_table()) return off < extent_ ? std::optional<BitVec>(linear_->apply_flat(off)) : std::nullopt;
  if (off >= coord_at_.size() || coord_at_[off] < 0) return std::nullopt;
  return static_cast<BitVec>(coord_at_[off]);
}

}  // namespace swz
