#include "swz/warp_access.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "swz/bank.h"
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

Service serve(const WarpRequest& r, const BankModel& m) {
  const InstructionKind& k = r.kind;
  Service s;
  s.lanes_per_phase = phase_lanes(k, m);
  s.bank_words.assign(static_cast<std::size_t>(m.banks), 0);
  const int lanes = std::min(static_cast<int>(r.address.size()), k.addressed_lanes(m.warp_size));
  s.phases = (lanes + s.lanes_per_phase - 1) / s.lanes_per_phase;
  std::vector<Words> phase_words(static_cast<std::size_t>(s.phases));
  for (int lane = 0; lane < lanes; ++lane) {
    const std::int64_t a = r.address[static_cast<std::size_t>(lane)];
    if (a < 0) continue;
    add_lane_words(phase_words[static_cast<std::size_t>(lane / s.lanes_per_phase)], a, k.bytes, m);
  }
  for (Words& w : phase_words) unique(w);

  // The LDS.128 merge: two quarter-warps of a half-warp, each touching at most
  // half the banks' worth of words, are served in one pass.
  const bool can_merge = k.op == WarpOp::Load && k.bytes == 16 && s.lanes_per_phase * 2 <= lanes;
  const std::size_t half = static_cast<std::size_t>(m.banks / 2);
  s.rule = "phases by lane id";
  for (std::size_t p = 0; p < phase_words.size(); ++p) {
    Words words = phase_words[p];
    if (can_merge && p % 2 == 0 && p + 1 < phase_words.size() && phase_words[p].size() <= half && phase_words[p + 1].size() <= half) {
      words.insert(words.end(), phase_words[p + 1].begin(), phase_words[p + 1].end());
      unique(words);
      s.merged = true;
      s.rule = "LDS.128 half-warp merge";
      ++p;
    }
    const int c = pass_cost(words, m, s.bank_words);
    s.pass_wavefronts.push_back(c);
    s.wavefronts += c;
    s.ideal += words.empty() ? 0 : 1;
  }
  return s;
}

}  // namespace swz
