// layout.h: linear layouts, the data model shared with Triton.
//
// A linear layout L maps named input dimensions to named output dimensions,
// every size a power of two, and is linear over F2: L(a ^ b) = L(a) ^ L(b).
// So L is fixed by the images of single bits. Input dim I of size 2^k has k
// bases, basis i = L(I = 2^i); applying L XORs the bases of the set bits.
//
//   Distributed layouts (who holds what):  register, lane, warp, block -> dim0, dim1, ...
//   Shared-memory layouts (where it lives): offset (in elements), block -> dim0, dim1, ...
//
// Example, the read of the 16x32 transpose (out dims dim0 = m, size 16;
// dim1 = n, size 32): lane bases (1,0) (2,0) (4,0) (8,0) (0,1), register bases
// (0,2) (0,4) (0,8) (0,16). Lane 17 = 0b10001 -> (1,0) ^ (0,1) = (1, 1):
// thread 17 reads m = 1, n = 1 at register 0, as "t mod 16, floor(t/16)" says.
//
// Representation: an output point is one flattened bit vector; out dim d
// occupies bits [out_offset(d), out_offset(d) + log2 size_d), dim0 lowest
// (Triton's "first dimension is most minor"). Inputs flatten the same way,
// first input dim lowest. A zero basis is allowed: it means broadcast (two
// inputs share one output).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "swz/algebra/f2.h"

namespace swz {

struct OutDim {
  std::string name;
  int log2_size = 0;
  bool operator==(const OutDim&) const = default;
};

struct InDim {
  std::string name;
  std::vector<BitVec> bases;  // bases[i] = L(this dim = 2^i), flattened over the out dims
  bool operator==(const InDim&) const = default;
};

// Coordinates per out dim, in out-dim order.
using Coords = std::vector<std::int64_t>;

class LinearLayout {
 public:
  LinearLayout() = default;
  // Validates widths and names; throws swz::Error with the reason.
  LinearLayout(std::vector<InDim> ins, std::vector<OutDim> outs);
  // Bases given as coordinates (dim0 first), as in layout files.
  static LinearLayout from_coordinates(
      const std::vector<std::pair<std::string, std::vector<Coords>>>& ins, const std::vector<OutDim>& outs);
  // Standard out dims dim0, dim1, ... for a shape of powers of two (checked).
  static std::vector<OutDim> out_dims_for_shape(const std::vector<std::int64_t>& shape);

  const std::vector<InDim>& in_dims() const { return ins_; }
  const std::vector<OutDim>& out_dims() const { return outs_; }
  int in_bits() const;
  int out_bits() const;
  int rank() const { return static_cast<int>(outs_.size()); }  // number of out dims
  bool has_in_dim(std::string_view name) const;
  int in_dim_bits(std::string_view name) const;  // 0 when absent
  const std::vector<BitVec>& bases(std::string_view in) const;  // empty when absent
  int in_offset(std::string_view in) const;  // first flat bit of that in dim
  int out_offset(int d) const;
  std::vector<std::int64_t> shape() const;  // out dim sizes
  std::int64_t out_size() const { return std::int64_t{1} << out_bits(); }

  // Applying.
  BitVec apply_flat(BitVec flat_in) const;
  BitVec apply(std::string_view in, std::uint64_t value) const;  // other dims zero
  BitVec apply(const std::vector<std::pair<std::string, std::uint64_t>>& ins) const;
  Coords unflatten(BitVec flat_out) const;
  BitVec flatten(const Coords& coords) const;  // checked against the shape
  Coords coords_of(BitVec flat_out) const { return unflatten(flat_out); }

  // Algebra.
  BitMatrix matrix() const;  // out_bits x in_bits, columns = bases in flat order
  Subspace image() const;
  Subspace image_of(std::string_view in) const;
  bool is_injective() const;
  bool is_surjective() const;
  bool is_invertible() const { return in_bits() == out_bits() && is_surjective(); }
  // outer(this(x)); this layout's out dims must match outer's in dims (names and sizes).
  LinearLayout compose(const LinearLayout& outer) const;
  // The inverse: in dims become the out dims and vice versa. Throws swz::Error when not invertible.
  LinearLayout invert() const;
  // One in dim `name` holding all input bits (flat order) / one out dim.
  LinearLayout flatten_ins(const std::string& name) const;
  LinearLayout flatten_outs(const std::string& name) const;
  // The same layout restricted to the first `bits` bases of `in` (others dropped).
  LinearLayout with_in_dim(const std::string& name, std::vector<BitVec> bases) const;

  bool operator==(const LinearLayout&) const = default;

  // Human names of output bits: m0.. for dim0, n0.. for dim1 in 2-D; d<k>_<i> otherwise.
  std::string out_bit_name(int flat_bit) const;
  // Short names of input bits: r0.. register, t0.. lane, w0.. warp, b0.. block, o0.. offset.
  std::string in_bit_name(int flat_bit) const;
  // A vector of output bits as "m0^n1" ("0" when zero).
  std::string describe_out(BitVec flat_out) const;
  // Coordinates as "(1, 2)".
  std::string format_coords(BitVec flat_out) const;
  // Triton's LinearLayout::toString() text.
  std::string to_string() const;

 private:
  std::vector<InDim> ins_;
  std::vector<OutDim> outs_;
};

// Short name letter for an input dim ("register" -> "r").
std::string in_dim_short_name(std::string_view name);

}  // namespace swz
