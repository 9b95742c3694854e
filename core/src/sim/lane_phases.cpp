// lane_phases.cpp: phases as subspaces of lane ids (warp_access.h, LanePhases).
#include <algorithm>
#include <bit>

#include "swz/sim/warp_access.h"

namespace swz {

namespace {

// The span in reduced echelon form: each vector's highest bit (its pivot) is set in no other.
std::vector<std::uint32_t> echelon_lane_span(const std::vector<std::uint32_t>& span) {
  std::vector<std::uint32_t> basis;
  for (std::uint32_t v : span) {
    for (std::uint32_t b : basis)
      if (v & std::bit_floor(b)) v ^= b;
    if (!v) continue;
    for (std::uint32_t& b : basis)
      if (b & std::bit_floor(v)) b ^= v;
    basis.push_back(v);
  }
  return basis;
}

std::uint32_t pivot_bits(const std::vector<std::uint32_t>& echelon) {
  std::uint32_t pivots = 0;
  for (std::uint32_t b : echelon) pivots |= std::bit_floor(b);
  return pivots;
}

}  // namespace

LanePhases contiguous_phases(int lanes_per_phase) {
  LanePhases p;
  p.lanes_per_phase = lanes_per_phase;
  for (int bit = 1; bit < lanes_per_phase; bit <<= 1) p.span.push_back(static_cast<std::uint32_t>(bit));
  return p;
}

bool LanePhases::contiguous() const {
  for (std::size_t i = 0; i < span.size(); ++i)
    if (span[i] != (1u << i)) return false;
  return true;
}

// The smallest lane of a coset has every pivot bit clear (any other member differs from it
// first at a pivot, where it has the one); the phase number is that lane's other bits packed.
int LanePhases::phase_of(int lane) const {
  const std::vector<std::uint32_t> basis = echelon_lane_span(span);
  auto smallest = static_cast<std::uint32_t>(lane);
  for (std::uint32_t b : basis)
    if (smallest & std::bit_floor(b)) smallest ^= b;
  const std::uint32_t pivots = pivot_bits(basis);
  int phase = 0, out_bit = 0;
  for (int bit = 0; bit < 32; ++bit) {
    if (pivots & (1u << bit)) continue;
    if (smallest & (1u << bit)) phase |= 1 << out_bit;
    ++out_bit;
  }
  return phase;
}

std::vector<int> LanePhases::lanes_of(int phase, int lanes) const {
  std::vector<int> out;
  for (int lane = 0; lane < lanes; ++lane)
    if (phase_of(lane) == phase) out.push_back(lane);
  return out;
}

// The span's vectors first, then the lane bits that are no pivot, lowest first: the later
// columns are then exactly the bits phase_of() packs, in its order.
std::vector<std::uint32_t> LanePhases::run_order(int lane_bits) const {
  std::vector<std::uint32_t> columns = echelon_lane_span(span);
  std::sort(columns.begin(), columns.end());
  const std::uint32_t pivots = pivot_bits(columns);
  for (int bit = 0; bit < lane_bits; ++bit)
    if (!(pivots & (1u << bit))) columns.push_back(1u << bit);
  columns.resize(static_cast<std::size_t>(std::max(lane_bits, 0)), 0);
  return columns;
}

}  // namespace swz
