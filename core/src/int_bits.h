// int_bits.h: integer bit helpers several core sources share (private to core/src).
#pragma once

#include <bit>
#include <cstdint>

namespace swz::int_bits {

// log2 of a power of two (the index of its one set bit).
inline int ilog2(std::int64_t v) { return std::countr_zero(static_cast<std::uint64_t>(v)); }
inline bool pow2(std::int64_t v) { return v > 0 && std::has_single_bit(static_cast<std::uint64_t>(v)); }

}  // namespace swz::int_bits
