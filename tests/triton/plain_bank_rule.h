// The plain bank rule for one warp instruction of at most 4 bytes a lane, written apart from the
// core for the independent computations of audit_scratch_test.cpp and audit_scan_test.cpp: it
// costs the most distinct 4-byte words any of the 32 banks holds among its active lanes (-1: off).
#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace swz::test {

inline int plain_bank_wavefronts(const std::vector<long>& byte_address) {
  std::map<long, std::set<long>> words;
  for (long a : byte_address)
    if (a >= 0) words[(a / 4) % 32].insert(a / 4);
  int most = 0;
  for (const auto& [bank, w] : words) most = std::max(most, static_cast<int>(w.size()));
  return most;
}

}  // namespace swz::test
