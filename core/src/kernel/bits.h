// bits.h: two bit helpers the Triton lowering models share (private to core/src/kernel).
#pragma once

#include <bit>
#include <cstdint>

#include "swz/algebra/f2.h"

namespace swz::kernel_bits {

// floor(log2(x)) for x > 0.
inline int log2_of(std::int64_t x) { return static_cast<int>(std::bit_width(static_cast<std::uint64_t>(x))) - 1; }
// Index of the lowest set bit of a non-zero vector.
inline int lowest_bit(BitVec v) { return std::countr_zero(v); }

}  // namespace swz::kernel_bits
