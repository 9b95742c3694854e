#include "swz/sim/warp_access.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "swz/sim/bank.h"
#include "swz/error.h"

namespace swz {

std::string InstructionKind::name() const {
  switch (op) {
    case WarpOp::Load:
    case WarpOp::Store: {
      const char* base = op == WarpOp::Load ? "LDS" : "STS";
      return bytes < 4 ? fmt::format("{}.U{}", base, bytes * 8) : fmt::format("{}.{}", base, bytes * 8);
    }
    case WarpOp::LoadMatrix:
    case WarpOp::StoreMatrix:
      return fmt::format("{}.x{}{}", op == WarpOp::LoadMatrix ? "LDSM" : "STSM", matrices, trans ? ".trans" : "");
    case WarpOp::AsyncCopy:
      return fmt::format("LDGSTS.{}", bytes * 8);
  }
  return "?";
}

std::vector<InstructionKind> all_instruction_kinds() {
  std::vector<InstructionKind> kinds;
  for (WarpOp op : {WarpOp::Load, WarpOp::Store})
    for (int b : {1, 2, 4, 8, 16}) kinds.push_back({op, b, 0, false});
  for (WarpOp op : {WarpOp::LoadMatrix, WarpOp::StoreMatrix})
    for (int m : {1, 2, 4})
      for (bool t : {false, true}) kinds.push_back({op, 16, m, t});
  for (int b : {4, 8, 16}) kinds.push_back({WarpOp::AsyncCopy, b, 0, false});
  return kinds;
}

std::optional<InstructionKind> parse_instruction_kind(const std::string& name) {
  for (const InstructionKind& k : all_instruction_kinds())
    if (k.name() == name) return k;
  return std::nullopt;
}

int phase_lanes(const InstructionKind& kind, const BankModel& model) {
  if (kind.is_matrix()) return 8;
  const int lane_bytes = std::max(kind.bytes, model.bank_bytes);
  return std::max(1, std::min(model.warp_size, model.wavefront_bytes() / lane_bytes));
}

void check_request(const WarpRequest& r, const BankModel& model, std::int64_t shared_bytes) {
  check_bank_model(model);
  const InstructionKind& k = r.kind;
  const bool sizes_ok = k.is_matrix() ? (k.bytes == 16 && (k.matrices == 1 || k.matrices == 2 || k.matrices == 4))
                        : k.op == WarpOp::AsyncCopy ? (k.bytes == 4 || k.bytes == 8 || k.bytes == 16)
                                                    : std::has_single_bit(static_cast<unsigned>(k.bytes)) && k.bytes <= 16;
  if (!sizes_ok) fail("{} bytes per lane is not an instruction the bank model knows", k.bytes);
  if (k.is_matrix() && model.warp_size != 32) fail("{} needs 32-lane warps", k.name());
  if (static_cast<int>(r.address.size()) != model.warp_size)
    fail("{} lane addresses given; the warp has {} lanes", r.address.size(), model.warp_size);
  for (std::size_t lane = 0; lane < r.address.size(); ++lane) {
    const std::int64_t a = r.address[lane];
    if (a == -1) continue;
    if (a < 0) fail("lane {}: address {} is negative (-1 marks an inactive lane)", lane, a);
    if (a % k.bytes) fail("lane {}: address {} is not aligned to the {}-byte access of {}", lane, a, k.bytes, k.name());
    if (shared_bytes > 0 && a + k.bytes > shared_bytes)
      fail("lane {}: bytes {}..{} are outside the {} bytes of shared memory", lane, a, a + k.bytes - 1, shared_bytes);
  }
}

namespace {

using Words = std::vector<std::uint64_t>;

void add_lane_words(Words& words, std::int64_t address, int bytes, const BankModel& m) {
  const auto first = static_cast<std::uint64_t>(address) / static_cast<std::uint64_t>(m.bank_bytes);
  const auto last = (static_cast<std::uint64_t>(address) + static_cast<std::uint64_t>(bytes) - 1) / static_cast<std::uint64_t>(m.bank_bytes);
  for (std::uint64_t w = first; w <= last; ++w) words.push_back(w);
}

void unique(Words& w) {
  std::sort(w.begin(), w.end());
  w.erase(std::unique(w.begin(), w.end()), w.end());
}

// Distinct words per bank of one pass, added to `bank_words`; returns the largest.
int pass_cost(const Words& words, const BankModel& m, std::vector<int>& bank_words) {
  std::vector<int> per_bank(static_cast<std::size_t>(m.banks), 0);
  for (std::uint64_t w : words) ++per_bank[static_cast<std::size_t>(w % static_cast<std::uint64_t>(m.banks))];
  for (std::size_t b = 0; b < per_bank.size(); ++b) bank_words[b] += per_bank[b];
  return words.empty() ? 0 : *std::max_element(per_bank.begin(), per_bank.end());
}

}  // namespace

namespace {

// True when every lane and its partner lane ^ `mask` read the same address
// (an inactive lane matches anything).
bool partners_share(const WarpRequest& r, int lanes, int mask) {
  for (int lane = 0; lane < lanes; ++lane) {
    const int other = lane ^ mask;
    if (other >= lanes) continue;
    const std::int64_t a = r.address[static_cast<std::size_t>(lane)], b = r.address[static_cast<std::size_t>(other)];
    if (a >= 0 && b >= 0 && a != b) return false;
  }
  return true;
}

}  // namespace

// The rules, as measured on the H100 (tests/data/hardware/, README "The bank model"):
//
//  1. Phases by lane id. A request is cut into groups of consecutive lanes that
//     each move at most one wavefront of data (128 bytes): all 32 lanes for
//     accesses of 32 bits or less, 16 for 64-bit, 8 for 128-bit, and each 8x8
//     matrix (8 row addresses) of ldmatrix / stmatrix.
//  2. A phase costs the largest number of distinct words it needs from one
//     bank; lanes that read the same word share it (broadcast), lanes that
//     write it cost it once.
//  3. Paired lanes widen the phases of wide loads. When every lane reads the
//     same address as its neighbour lane ^ 1, or every lane the same address as
//     lane ^ 2 (inactive lanes match anything), a 64-bit or 128-bit load needs
//     only half the distinct requests, and its phases are twice as wide: one
//     phase of 32 lanes for LDS.64, two half-warps for LDS.128. No wider: a
//     128-bit load of one address for the whole warp still takes 2 wavefronts.
//     Stores, cp.async and ldmatrix / stmatrix never widen.
//  4. cp.async (LDGSTS) is counted but not modelled. Its shared-side counter
//     moves with the global side: 32 consecutive 4- or 8-byte copies cost 4
//     wavefronts when the lanes' global sources are 16 bytes apart, and 32
//     lanes copying 4 or 8 bytes into one shared address cost 32, where the
//     same stores cost 1 or 2.
//     serve() gives the store rules' count and marks it unmodelled.
Service serve(const WarpRequest& r, const BankModel& m) {
  const InstructionKind& k = r.kind;
  Service s;
  s.lanes_per_phase = phase_lanes(k, m);
  s.bank_words.assign(static_cast<std::size_t>(m.banks), 0);
  const int lanes = std::min(static_cast<int>(r.address.size()), k.addressed_lanes(m.warp_size));
  s.rule = "phases by lane id";
  if (k.op == WarpOp::Load && k.bytes > m.bank_bytes && s.lanes_per_phase < lanes &&
      (partners_share(r, lanes, 1) || partners_share(r, lanes, 2))) {
    s.lanes_per_phase *= 2;
    s.merged = true;
    s.rule = "paired lanes: phases twice as wide";
  }
  if (k.op == WarpOp::AsyncCopy) {
    s.modelled = false;
    s.rule = "cp.async: not modelled (its counter follows the global side)";
  }
  s.phases = (lanes + s.lanes_per_phase - 1) / s.lanes_per_phase;
  std::vector<Words> phase_words(static_cast<std::size_t>(s.phases));
  for (int lane = 0; lane < lanes; ++lane) {
    const std::int64_t a = r.address[static_cast<std::size_t>(lane)];
    if (a < 0) continue;
    add_lane_words(phase_words[static_cast<std::size_t>(lane / s.lanes_per_phase)], a, k.bytes, m);
  }
  s.worst_pass_bank_words.assign(static_cast<std::size_t>(m.banks), 0);
  int worst = -1;
  for (Words& words : phase_words) {
    unique(words);
    std::vector<int> this_pass(static_cast<std::size_t>(m.banks), 0);
    const int c = pass_cost(words, m, this_pass);
    for (std::size_t b = 0; b < this_pass.size(); ++b) s.bank_words[b] += this_pass[b];
    if (c > worst) {
      worst = c;
      s.worst_pass_bank_words = this_pass;
    }
    s.pass_wavefronts.push_back(c);
    s.wavefronts += c;
    s.ideal += words.empty() ? 0 : 1;
  }
  return s;
}

}  // namespace swz
