// triton_warp.cpp: when Triton 3.6 keeps a conversion within a warp as shuffles
// (triton_convert.h: triton_warp_exchanges).
#include <algorithm>
#include <bit>
#include <vector>

#include "bits.h"
#include "swz/error.h"
#include "swz/kernel/triton_convert.h"

namespace swz {

namespace {
using Bases = std::vector<BitVec>;
using kernel_bits::log2_of;
using kernel_bits::lowest_bit;
}  // namespace

int triton_warp_exchanges(const LinearLayout& src, const LinearLayout& dst) {
  if (src.out_dims() != dst.out_dims()) fail("the two layouts cover different tensors");
  // Register bases that repeat data (zero) are left out; lanes keep theirs. The shorter side is
  // padded with zero bases so that both number the same register and lane bits.
  auto registers = [](const LinearLayout& l) {
    Bases kept;
    for (BitVec b : l.bases("register"))
      if (b) kept.push_back(b);
    return kept;
  };
  const Bases s_reg = registers(src), d_reg = registers(dst);
  const Bases &s_lane = src.bases("lane"), &d_lane = dst.bases("lane");
  const std::size_t n_reg = std::max(s_reg.size(), d_reg.size());
  const std::size_t n_lane = std::max(s_lane.size(), d_lane.size());
  const std::size_t n = n_reg + n_lane;
  if (n > 62) fail("too many register and lane bits");
  // Index bits: registers 0 .. n_reg-1, then lanes.
  Bases s(n, 0), d(n, 0);
  std::copy(s_reg.begin(), s_reg.end(), s.begin());
  std::copy(d_reg.begin(), d_reg.end(), d.begin());
  std::copy(s_lane.begin(), s_lane.end(), s.begin() + static_cast<std::ptrdiff_t>(n_reg));
  std::copy(d_lane.begin(), d_lane.end(), d.begin() + static_cast<std::ptrdiff_t>(n_reg));

  // Where each source bit goes among the destination's bits. A source basis is written with the
  // destination's nonzero bases (elimination that keeps track of which bases were combined);
  // were it a sum, the highest index bit of the sum stands for it.
  struct Row {
    BitVec value;
    std::uint64_t used;
  };
  std::vector<Row> rows;
  for (std::size_t j = 0; j < n; ++j) {
    if (!d[j]) continue;
    Row r{d[j], std::uint64_t{1} << j};
    for (const Row& e : rows)
      if ((r.value >> lowest_bit(e.value)) & 1u) r.value ^= e.value, r.used ^= e.used;
    if (!r.value) continue;
    for (Row& e : rows)
      if ((e.value >> lowest_bit(r.value)) & 1u) e.value ^= r.value, e.used ^= r.used;
    rows.push_back(r);
  }
  std::vector<int> next(n, -1);
  std::vector<std::size_t> src_free, dst_free;
  for (std::size_t i = 0; i < n; ++i) {
    if (!s[i] && !d[i]) {
      next[i] = static_cast<int>(i);
    } else if (!s[i]) {
      src_free.push_back(i);
    } else if (!d[i]) {
      dst_free.push_back(i);
    }
    if (!s[i]) continue;
    BitVec v = s[i];
    std::uint64_t used = 0;
    for (const Row& e : rows)
      if ((v >> lowest_bit(e.value)) & 1u) v ^= e.value, used ^= e.used;
    if (v || !used) fail("a source register or lane holds data the destination's registers and lanes do not");
    next[i] = log2_of(static_cast<std::int64_t>(used));
  }
  // Source bits that hold nothing take the destination bits that hold nothing, in order.
  for (std::size_t k = 0; k < std::min(src_free.size(), dst_free.size()); ++k) next[src_free[k]] = static_cast<int>(dst_free[k]);

  // Walk the cycles, each from its lowest register bit: every run of lanes inside a cycle that
  // also holds registers is one register-lane exchange.
  std::vector<bool> seen(n, false);
  int exchanges = 0;
  for (std::size_t start = 0; start < n; ++start) {
    if (seen[start]) continue;
    std::size_t at = start;
    for (std::size_t steps = 0;; ++steps) {
      if (steps > n || next[at] < 0) fail("the conversion is not a permutation of register and lane bits");
      seen[at] = true;
      const auto to = static_cast<std::size_t>(next[at]);
      if (at >= n_reg && to < n_reg) ++exchanges;
      at = to;
      if (at == start) break;
    }
  }
  if (std::find(seen.begin(), seen.end(), false) != seen.end())
    fail("the conversion is not a permutation of register and lane bits");
  return exchanges;
}

}  // namespace swz
