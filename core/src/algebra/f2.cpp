#include "swz/algebra/f2.h"

#include <algorithm>
#include <bit>

#include "swz/error.h"

namespace swz {

namespace {
int pivot_of(BitVec v) { return 63 - std::countl_zero(v); }
}  // namespace

void check_width(BitVec v, int width) {
  if (width < 0 || width > kMaxBits) fail("bit width {} is outside 0..{}", width, kMaxBits);
  if ((v & ~low_bits(width)) != 0) fail("vector 0x{:x} does not fit in {} bits", v, width);
}

int rank(std::span<const BitVec> vectors) {
  Subspace s(kMaxBits);
  for (BitVec v : vectors) s.insert(v);
  return s.dim();
}

Subspace::Subspace(int width) : width_(width) {
  if (width < 0 || width > kMaxBits) fail("bit width {} is outside 0..{}", width, kMaxBits);
}

Subspace Subspace::span(std::span<const BitVec> vectors, int width) {
  Subspace s(width);
  for (BitVec v : vectors) s.insert(v);
  return s;
}

Subspace Subspace::span(std::initializer_list<BitVec> vectors, int width) {
  return span(std::span<const BitVec>(vectors.begin(), vectors.size()), width);
}

Subspace Subspace::whole(int width) {
  Subspace s(width);
  for (int i = 0; i < width; ++i) s.insert(BitVec{1} << i);
  return s;
}

BitVec Subspace::reduce(BitVec v) const {
  // Basis pivots decrease, so one pass clears each pivot once.
  for (BitVec b : basis_)
    if ((v >> pivot_of(b)) & 1u) v ^= b;
  return v;
}

bool Subspace::contains(BitVec v) const {
  check_width(v, width_);
  return reduce(v) == 0;
}

bool Subspace::insert(BitVec v) {
  check_width(v, width_);
  v = reduce(v);
  if (v == 0) return false;
  const int p = pivot_of(v);
  // Keep the basis reduced: clear the new pivot from the others, and the
  // others' pivots from the new vector (already done by reduce()).
  for (BitVec& b : basis_)
    if ((b >> p) & 1u) b ^= v;
  auto at = std::find_if(basis_.begin(), basis_.end(), [&](BitVec b) { return pivot_of(b) < p; });
  basis_.insert(at, v);
  return true;
}

Subspace Subspace::sum(const Subspace& other) const {
  Subspace s(std::max(width_, other.width_));
  for (BitVec b : basis_) s.insert(b);
  for (BitVec b : other.basis_) s.insert(b);
  return s;
}

Subspace Subspace::intersect(const Subspace& other) const {
  // Zassenhaus: eliminate rows (u | u) for u in U and (v | 0) for v in V on the
  // left half; rows whose left half vanishes carry a basis of U ∩ V on the right.
  struct Row { BitVec left, right; };
  std::vector<Row> rows;
  for (BitVec u : basis_) rows.push_back({u, u});
  for (BitVec v : other.basis_) rows.push_back({v, 0});
  std::vector<Row> echelon;
  Subspace result(std::max(width_, other.width_));
  for (Row r : rows) {
    for (const Row& e : echelon)
      if ((r.left >> pivot_of(e.left)) & 1u) { r.left ^= e.left; r.right ^= e.right; }
    if (r.left != 0) {
      const int p = pivot_of(r.left);
      for (Row& e : echelon)
        if ((e.left >> p) & 1u) { e.left ^= r.left; e.right ^= r.right; }
      auto at = std::find_if(echelon.begin(), echelon.end(), [&](const Row& e) { return pivot_of(e.left) < p; });
      echelon.insert(at, r);
    } else if (r.right != 0) {
      result.insert(r.right);
    }
  }
  return result;
}

std::vector<BitVec> Subspace::standard_complement() const {
  std::vector<BitVec> out;
  Subspace grow = *this;
  for (int i = 0; i < width_; ++i)
    if (grow.insert(BitVec{1} << i)) out.push_back(BitVec{1} << i);
  return out;
}

std::vector<BitVec> Subspace::elements() const {
  if (dim() > 24) fail("refusing to list 2^{} elements of a subspace", dim());
  std::vector<BitVec> out;
  out.reserve(std::size_t{1} << dim());
  BitVec x = 0;
  out.push_back(0);
  for (std::size_t i = 1; i < (std::size_t{1} << dim()); ++i) {
    x ^= basis_[static_cast<std::size_t>(std::countr_zero(i))];
    out.push_back(x);
  }
  return out;
}

std::vector<BitVec> extend_basis(const Subspace& base, std::span<const BitVec> candidates) {
  Subspace grow = base;
  std::vector<BitVec> out;
  for (BitVec c : candidates)
    if (grow.insert(c)) out.push_back(c);
  return out;
}

BitMatrix::BitMatrix(int rows, int cols) : rows_(rows), columns_(static_cast<std::size_t>(cols), 0) {
  if (rows < 0 || rows > kMaxBits) fail("matrix with {} rows: at most {} supported", rows, kMaxBits);
}

BitMatrix BitMatrix::identity(int n) {
  BitMatrix m(n, n);
  for (int i = 0; i < n; ++i) m.columns_[static_cast<std::size_t>(i)] = BitVec{1} << i;
  return m;
}

BitMatrix BitMatrix::from_columns(int rows, std::vector<BitVec> columns) {
  BitMatrix m(rows, 0);
  for (BitVec c : columns) check_width(c, rows);
  m.columns_ = std::move(columns);
  return m;
}

void BitMatrix::set(int row, int col, bool value) {
  if (row < 0 || row >= rows_ || col < 0 || col >= cols()) fail("matrix cell ({}, {}) out of range", row, col);
  BitVec& c = columns_[static_cast<std::size_t>(col)];
  c = value ? (c | (BitVec{1} << row)) : (c & ~(BitVec{1} << row));
}

BitVec BitMatrix::apply(BitVec x) const {
  BitVec y = 0;
  for (std::size_t j = 0; x != 0 && j < columns_.size(); ++j, x >>= 1)
    if (x & 1u) y ^= columns_[j];
  return y;
}

BitMatrix BitMatrix::operator*(const BitMatrix& right) const {
  if (cols() != right.rows()) fail("matrix product of {}x{} by {}x{}", rows_, cols(), right.rows(), right.cols());
  BitMatrix out(rows_, right.cols());
  for (int j = 0; j < right.cols(); ++j) out.columns_[static_cast<std::size_t>(j)] = apply(right.column(j));
  return out;
}

BitMatrix BitMatrix::transpose() const {
  BitMatrix t(cols(), rows_);
  for (int j = 0; j < cols(); ++j)
    for (int i = 0; i < rows_; ++i)
      if (at(i, j)) t.set(j, i, true);
  return t;
}

int BitMatrix::rank() const { return swz::rank(columns_); }

Subspace BitMatrix::image() const { return Subspace::span(columns_, rows_); }

Subspace BitMatrix::kernel() const {
  // Track which input combination produced each reduced column.
  struct Row { BitVec value, combo; };
  std::vector<Row> echelon;
  Subspace ker(cols());
  for (int j = 0; j < cols(); ++j) {
    Row r{column(j), BitVec{1} << j};
    for (const Row& e : echelon)
      if ((r.value >> pivot_of(e.value)) & 1u) { r.value ^= e.value; r.combo ^= e.combo; }
    if (r.value == 0) {
      ker.insert(r.combo);
    } else {
      const int p = pivot_of(r.value);
      for (Row& e : echelon)
        if ((e.value >> p) & 1u) { e.value ^= r.value; e.combo ^= r.combo; }
      auto at = std::find_if(echelon.begin(), echelon.end(), [&](const Row& e) { return pivot_of(e.value) < p; });
      echelon.insert(at, r);
    }
  }
  return ker;
}

std::optional<BitMatrix> BitMatrix::inverse() const {
  if (rows_ != cols()) return std::nullopt;
  const int n = rows_;
  // Gauss-Jordan on columns: find, for each unit output e_i, the input combo producing it.
  struct Row { BitVec value, combo; };
  std::vector<Row> echelon;
  for (int j = 0; j < n; ++j) {
    Row r{column(j), BitVec{1} << j};
    for (const Row& e : echelon)
      if ((r.value >> pivot_of(e.value)) & 1u) { r.value ^= e.value; r.combo ^= e.combo; }
    if (r.value == 0) return std::nullopt;
    const int p = pivot_of(r.value);
    for (Row& e : echelon)
      if ((e.value >> p) & 1u) { e.value ^= r.value; e.combo ^= r.combo; }
    auto at = std::find_if(echelon.begin(), echelon.end(), [&](const Row& e) { return pivot_of(e.value) < p; });
    echelon.insert(at, r);
  }
  // Fully reduced: each row's value is a unit vector e_p; inverse column p = combo.
  BitMatrix inv(n, n);
  for (const Row& e : echelon) inv.columns_[static_cast<std::size_t>(pivot_of(e.value))] = e.combo;
  return inv;
}

std::string BitMatrix::to_string() const {
  std::string s;
  for (int i = 0; i < rows_; ++i) {
    for (int j = 0; j < cols(); ++j) s += at(i, j) ? '1' : '0';
    s += '\n';
  }
  return s;
}

}  // namespace swz
