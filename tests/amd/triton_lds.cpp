#include "triton_lds.h"

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <stdexcept>

namespace swz::triton_lds {
namespace {

constexpr int kWaveLanes = 64;
constexpr int kLaneBits = 6;

// Rank over F2 of a set of vectors (Gaussian elimination on the highest set bit).
int f2_rank(std::vector<std::uint64_t> rows) {
  int rank = 0;
  for (int bit = 63; bit >= 0; --bit) {
    const std::uint64_t mask = std::uint64_t{1} << bit;
    auto pivot = std::find_if(rows.begin() + rank, rows.end(), [&](std::uint64_t r) { return (r & mask) != 0; });
    if (pivot == rows.end()) continue;
    std::iter_swap(rows.begin() + rank, pivot);
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (static_cast<int>(i) != rank && (rows[i] & mask)) rows[i] ^= rows[rank];
    ++rank;
  }
  return rank;
}

int dwords_per_lane(int bits) {
  if (bits != 32 && bits != 64 && bits != 128) throw std::invalid_argument("bits per lane must be 32, 64 or 128");
  return bits / 32;
}

int lanes_per_phase(int bits, int banks) { return std::min(kWaveLanes, banks / dwords_per_lane(bits)); }

// The lane ids whose addresses span one phase's tile (getLaneTile).
std::vector<int> tile_lanes(const TritonAccess& access) {
  if (!access.lane_tile.empty()) return access.lane_tile;
  std::vector<int> lanes;
  for (int i = 0; (1 << i) < lanes_per_phase(access.bits, access.banks); ++i) lanes.push_back(1 << i);
  return lanes;
}

// The passes one phase needs: its largest count of distinct dwords in one bank.
int tallest_bank(const std::set<std::int64_t>& phase_words, int banks) {
  std::map<std::int64_t, int> per_bank;
  int tallest = 0;
  for (std::int64_t w : phase_words) tallest = std::max(tallest, ++per_bank[w % banks]);
  return tallest;
}

}  // namespace

std::int64_t linear_address(const std::vector<std::int64_t>& lane_bases, int lane) {
  std::int64_t address = 0;
  for (std::size_t i = 0; i < lane_bases.size(); ++i)
    if (lane & (1 << i)) address ^= lane_bases[i];
  return address;
}

int analytic_conflicts(const TritonAccess& access) {
  // span(tile) ∩ segment = the tile vectors whose bank-row bits cancel: its dimension is
  // rank(tile) - rank(tile projected on the bank-row bits).
  const std::uint64_t row_mask = static_cast<std::uint64_t>(access.banks) - 1;
  std::vector<std::uint64_t> dwords, in_row;
  for (int lane : tile_lanes(access)) {
    const auto dword = static_cast<std::uint64_t>(linear_address(access.lane_bases, lane)) / 4;
    dwords.push_back(dword);
    in_row.push_back(dword & row_mask);
  }
  return (1 << (f2_rank(dwords) - f2_rank(in_row))) - 1;
}

int triton_phase_of(int lane, int bits, int banks) {
  auto bit = [lane](int i) { return (lane >> i) & 1; };
  if (bits == 128 && banks == 32) return bit(5) | ((bit(2) ^ bit(4)) << 1) | (bit(3) << 2);
  if (bits == 128 && banks == 64) return bit(5) | ((bit(2) ^ bit(3) ^ bit(4)) << 1);
  return lane / lanes_per_phase(bits, banks);
}

int brute_force_conflicts(const TritonAccess& access) {
  const int per_phase = lanes_per_phase(access.bits, access.banks);
  const int phases = kWaveLanes / per_phase;
  const bool tiled = access.bits == 128 && !access.lane_tile.empty();
  int mask = 0;
  bool single_bits = true;
  for (int lane : access.lane_tile) {
    mask |= lane;
    single_bits = single_bits && std::has_single_bit(static_cast<unsigned>(lane));
  }
  if (!single_bits) mask = kWaveLanes - 1;
  std::vector<std::set<std::int64_t>> words(phases);
  for (int lane = 0; lane < kWaveLanes; ++lane) {
    const int phase = tiled ? triton_phase_of(lane, access.bits, access.banks) : lane / per_phase;
    const int evaluated = tiled ? (lane & mask) : lane % per_phase;
    const std::int64_t first = linear_address(access.lane_bases, evaluated) / 4;
    for (int k = 0; k < dwords_per_lane(access.bits); ++k) words[phase].insert(first + k);
  }
  int wavefronts = 0;
  for (const auto& phase_words : words) wavefronts += tallest_bank(phase_words, access.banks);
  if (wavefronts % phases != 0) throw std::logic_error("phases are not homogeneous");
  return wavefronts / phases - 1;
}

std::vector<int> pr11365_b128_tile(int banks) {
  return banks == 32 ? std::vector<int>{1, 2, 4 ^ 16} : std::vector<int>{1, 2, 4 ^ 8, 4 ^ 16};
}

std::vector<int> unit_test_b128_tile(int banks) {
  return banks == 32 ? std::vector<int>{1, 2, 16} : std::vector<int>{1, 2, 8, 16};
}

int triton_wavefronts(const TritonAccess& access) {
  return (kWaveLanes / lanes_per_phase(access.bits, access.banks)) * (1 + analytic_conflicts(access));
}

int phase_wavefronts(const std::vector<std::int64_t>& address, int bits, int banks, bool read) {
  const int phases = kWaveLanes / lanes_per_phase(bits, banks);
  std::vector<std::set<std::int64_t>> words(phases);
  for (int lane = 0; lane < static_cast<int>(address.size()) && lane < kWaveLanes; ++lane) {
    if (address[lane] < 0) continue;
    for (int k = 0; k < dwords_per_lane(bits); ++k)
      words[read ? triton_phase_of(lane, bits, banks) : lane / lanes_per_phase(bits, banks)].insert(address[lane] / 4 + k);
  }
  int wavefronts = 0;
  for (const auto& phase_words : words) wavefronts += tallest_bank(phase_words, banks);
  return wavefronts;
}

}  // namespace swz::triton_lds
