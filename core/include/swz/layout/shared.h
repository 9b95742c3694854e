// shared.h: shared-memory layouts as the simulator runs them.
//
// A shared layout answers one question: at which element offset does tensor
// element (dim0, dim1, ...) live? Triton writes linear ones as maps from
// offset bits to coordinates (`offset_bases`); its inverse is the address
// function. Not every layout people use is linear: padding (offset =
// m*(N+pad) + n) and a TMA swizzle on a buffer whose base is not aligned to
// the pattern's repeat add with carries. So the simulator runs a table
// (flat coordinate -> element offset) that every layout has, and the algebra
// runs `linear`, which only linear, invertible layouts have.
//
//   offset_of[flatten(m, n)] = element offset of (m, n)
//   linear:  offset -> (m, n), the Triton / Gluon `SharedLinearLayout`
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "swz/layout/layout.h"

namespace swz {

// Tables (a layout that is not linear, the simulator's full runs, views) stop at
// 2^24 elements; a linear layout keeps no table past 2^kTableBits elements and
// answers from its address function, up to 2^30 elements (a whole 32768x32768
// tile): its coverage and injectivity are rank questions, not enumerations.
inline constexpr int kMaxAddressBits = 24;
inline constexpr int kMaxLinearAddressBits = 30;
inline constexpr int kTableBits = 20;

class SharedLayout {
 public:
  SharedLayout() = default;
  // From offset -> coords (Triton's direction). Needs an "offset" in dim, optional
  // "block" (ignored: each CTA has its own shared memory); must be invertible.
  static SharedLayout from_linear(const LinearLayout& offset_to_coords, std::string description);
  // From any address function; recognised as linear when it is one.
  static SharedLayout from_function(const std::vector<std::int64_t>& shape,
                                    const std::function<std::uint64_t(const Coords&)>& offset_of,
                                    std::string description, std::string nonlinear_reason = {});

  const std::string& description() const { return description_; }
  const std::vector<std::int64_t>& shape() const { return shape_; }
  int coord_bits() const { return coord_bits_; }
  std::int64_t elements() const { return std::int64_t{1} << coord_bits_; }
  // Offsets used span [0, extent): the allocation size in elements.
  std::uint64_t extent() const { return extent_; }
  std::uint32_t offset(BitVec flat_coord) const {
    return has_table() ? offsets_[flat_coord] : static_cast<std::uint32_t>(address_.apply(flat_coord));
  }
  // The whole table; throws swz::Error for a linear layout over 2^kMaxAddressBits elements.
  const std::vector<std::uint32_t>& offsets() const;
  // False for linear layouts over 2^kTableBits elements: offset() and coord_at() use the
  // address function, offsets() builds the table on demand.
  bool has_table() const { return !offsets_.empty(); }
  // The tensor out dims (dim0, dim1, ...), for formatting coordinates.
  const LinearLayout& coords() const { return coords_; }

  bool is_linear() const { return linear_.has_value(); }
  // offset -> coords; throws swz::Error saying why when not linear.
  const LinearLayout& linear() const;
  const std::optional<LinearLayout>& linear_if_any() const { return linear_; }
  const std::string& nonlinear_reason() const { return nonlinear_reason_; }
  // Coordinate (flattened) stored at element offset `off`, if any.
  std::optional<BitVec> coord_at(std::uint64_t off) const;

  bool operator==(const SharedLayout& o) const;

 private:
  std::string description_;
  std::vector<std::int64_t> shape_;
  int coord_bits_ = 0;
  std::uint64_t extent_ = 0;
  std::vector<std::uint32_t> offsets_;
  std::vector<std::int32_t> coord_at_;  // coord_at_[offset] = flat coordinate, -1 for padding
  BitMatrix address_;                   // linear: flat coordinate -> offset (the inverse of linear_)
  mutable std::shared_ptr<const std::vector<std::uint32_t>> built_;  // offsets() of a table-less layout
  void build_reverse();
  LinearLayout coords_;
  std::optional<LinearLayout> linear_;
  std::string nonlinear_reason_;
};

// The linear map through the points 0 and unit vectors of `table`, if it
// reproduces every entry (a linear function over F2), else nullopt.
std::optional<std::vector<BitVec>> fit_linear(const std::vector<std::uint32_t>& table, int in_bits);

}  // namespace swz
