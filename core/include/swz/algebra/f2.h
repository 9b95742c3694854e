// f2.h: bit vectors, subspaces and matrices over F2 = {0, 1}.
//
// Over F2, addition is XOR and multiplication is AND. A vector of w bits is
// stored in one 64-bit word, bit i = coordinate i, so adding two vectors is
// one XOR. A subspace is the set of all XOR-combinations of some vectors; we
// keep it as a reduced echelon basis: every basis vector has a distinct
// highest set bit (its pivot), and no other basis vector has that bit set.
// That form makes membership a single pass ("reduce v; is anything left?")
// and gives every subspace one canonical basis, so two subspaces are equal
// exactly when their bases are equal.
//
// A worked example, width 4:  span{0b0110, 0b0011, 0b0101}
//   0b0110, 0b0011 -> pivots 2 and 1; 0b0101 = 0b0110 ^ 0b0011 is dependent.
//   Reduced: {0b0101 (pivot 2, bit 1 cleared), 0b0011 (pivot 1)}; dim = 2.
//
// A matrix is a list of columns (column j = image of unit vector e_j), which
// is how layouts are written down: "input bit j lands on these output bits".
// Widths are checked: every vector must fit the declared width (<= 64).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace swz {

using BitVec = std::uint64_t;
inline constexpr int kMaxBits = 64;

// Mask of the low `width` bits.
constexpr BitVec low_bits(int width) { return width >= 64 ? ~BitVec{0} : (BitVec{1} << width) - 1; }

// Throws swz::Error when a vector has bits at or above `width`, or width is out of range.
void check_width(BitVec v, int width);

// Rank of a family of vectors (dimension of their span).
int rank(std::span<const BitVec> vectors);

class Subspace {
 public:
  Subspace() = default;
  explicit Subspace(int width);
  static Subspace span(std::span<const BitVec> vectors, int width);
  static Subspace span(std::initializer_list<BitVec> vectors, int width);
  static Subspace whole(int width);

  int width() const { return width_; }
  int dim() const { return static_cast<int>(basis_.size()); }
  std::size_t size_log2() const { return basis_.size(); }
  // Reduced echelon basis, pivots (highest bits) strictly decreasing.
  const std::vector<BitVec>& basis() const { return basis_; }

  bool contains(BitVec v) const;
  // v with every pivot bit of the basis cleared: zero exactly when v is in the span.
  BitVec reduce(BitVec v) const;
  // Adds v; returns true when the dimension grew.
  bool insert(BitVec v);

  Subspace sum(const Subspace& other) const;
  Subspace intersect(const Subspace& other) const;
  // Unit vectors completing this subspace to the whole space (the non-pivot bits).
  std::vector<BitVec> standard_complement() const;
  bool operator==(const Subspace& other) const { return width_ == other.width_ && basis_ == other.basis_; }

  // Every element (dim <= 24 checked), in Gray-code order starting at 0.
  std::vector<BitVec> elements() const;

 private:
  int width_ = 0;
  std::vector<BitVec> basis_;
};

// Vectors of `candidates`, in order, that are independent of `base` and of each other:
// a greedy basis of span(base + candidates) modulo span(base).
std::vector<BitVec> extend_basis(const Subspace& base, std::span<const BitVec> candidates);

class BitMatrix {
 public:
  BitMatrix() = default;
  BitMatrix(int rows, int cols);  // zero matrix
  static BitMatrix identity(int n);
  static BitMatrix from_columns(int rows, std::vector<BitVec> columns);

  int rows() const { return rows_; }
  int cols() const { return static_cast<int>(columns_.size()); }
  // columns_[j] = M * e_j
  const std::vector<BitVec>& columns() const { return columns_; }
  BitVec column(int j) const { return columns_.at(static_cast<std::size_t>(j)); }
  bool at(int row, int col) const { return (column(col) >> row) & 1u; }
  void set(int row, int col, bool value);

  BitVec apply(BitVec x) const;       // M * x
  BitMatrix operator*(const BitMatrix& right) const;  // (this * right)
  BitMatrix transpose() const;
  int rank() const;
  Subspace image() const;
  Subspace kernel() const;
  std::optional<BitMatrix> inverse() const;  // none when not square or singular
  bool operator==(const BitMatrix&) const = default;

  std::string to_string() const;  // rows of 0/1, row 0 first

 private:
  int rows_ = 0;
  std::vector<BitVec> columns_;
};

}  // namespace swz
