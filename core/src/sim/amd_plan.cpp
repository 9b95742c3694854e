// The AMD cases `swizzle calibrate --gpu` writes for lds_probe.hip to measure (amd_corpus.h).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "swz/error.h"
#include "swz/sim/amd_corpus.h"
#include "swz/sim/corpus.h"
#include "swz/sim/gpu.h"

namespace swz {

namespace {

// Each case issues its instruction this many times in its one wavefront: enough passes for the
// conflict counter to show one extra pass in every case.
constexpr std::int64_t kPlanRepeat = 8;

AmdCorpusCase plan_case(const GpuModel& gpu, const InstructionKind& kind, std::vector<std::int64_t> address, int index,
                        std::string note) {
  AmdCorpusCase c;
  c.gpu = gpu.name;
  c.instruction = amd_spelling(gpu, kind);
  c.request.kind = kind;
  c.request.address = std::move(address);
  c.repeat = kPlanRepeat;
  c.waves = 1;
  c.index = index;
  c.note = std::move(note);
  check_request(c.request, gpu.bank, gpu.shared_bytes);
  return c;
}

void require_amd_probe_kinds(const GpuModel& gpu, const std::vector<InstructionKind>& kinds) {
  if (gpu.vendor != Vendor::Amd) fail("{} is not an AMD GPU: its cases are measured by `swizzle calibrate` itself", gpu.title());
  if (kinds.empty()) fail("no instructions to measure");
  const std::vector<InstructionKind> probe = amd_probe_instructions(gpu);
  for (const InstructionKind& k : kinds)
    if (std::find(probe.begin(), probe.end(), k) == probe.end())
      fail("lds_probe.hip does not issue {} (it issues {})", amd_spelling(gpu, k), amd_spellings(gpu, probe));
}

}  // namespace

std::vector<InstructionKind> amd_probe_instructions(const GpuModel& gpu) {
  std::vector<InstructionKind> kinds;
  for (const WarpOp op : {WarpOp::Load, WarpOp::Store})
    for (const int bytes : {4, 8, 16}) {
      const InstructionKind k{op, bytes};
      if (gpu.has(k)) kinds.push_back(k);
    }
  return kinds;
}

std::vector<InstructionKind> amd_probe_instructions_named(const GpuModel& gpu, const std::string& list) {
  const std::vector<InstructionKind> probe = amd_probe_instructions(gpu);
  if (list.empty()) return probe;
  std::vector<InstructionKind> kinds;
  std::size_t from = 0;
  while (from <= list.size()) {
    const std::size_t comma = std::min(list.find(',', from), list.size());
    const std::string name = list.substr(from, comma - from);
    const auto kind = amd_spelled(gpu, probe, name);
    if (!kind)
      fail("\"{}\" is not an instruction lds_probe.hip issues on {} (it issues {})", name, gpu.name, amd_spellings(gpu, probe));
    kinds.push_back(*kind);
    from = comma + 1;
  }
  return kinds;
}

std::vector<AmdCorpusCase> amd_random_cases(const GpuModel& gpu, int count, std::uint64_t seed,
                                            const std::vector<InstructionKind>& kinds) {
  require_amd_probe_kinds(gpu, kinds);
  std::vector<AmdCorpusCase> out;
  for (const CorpusCase& r : generate_cases(count, seed, kinds, gpu.shared_bytes, gpu.bank))
    out.push_back(
        plan_case(gpu, r.request.kind, r.request.address, r.index, fmt::format("random (seed {}): {}", seed, r.pattern)));
  return out;
}

std::vector<AmdCorpusCase> amd_designed_cases(const GpuModel& gpu, const std::vector<InstructionKind>& kinds) {
  require_amd_probe_kinds(gpu, kinds);
  const int lanes = gpu.bank.warp_size;
  std::vector<AmdCorpusCase> out;
  for (const InstructionKind& kind : kinds) {
    std::vector<std::int64_t> linear(static_cast<std::size_t>(lanes));
    for (int l = 0; l < lanes; ++l) linear[static_cast<std::size_t>(l)] = std::int64_t{l} * kind.bytes;
    out.push_back(plan_case(gpu, kind, linear, static_cast<int>(out.size()), "linear"));
    const auto pair = [&](int a, int b, std::int64_t apart) {
      out.push_back(plan_case(gpu, kind, lane_pair_request(kind, lanes, a, b, apart).address, static_cast<int>(out.size()),
                              fmt::format("pair {}-{} @{}", a, b, apart)));
    };
    for (int b = 1; b < lanes; ++b) pair(0, b, 256);
    for (int bit = 1; bit < lanes; bit <<= 1)
      for (int a = 1; a < lanes; ++a)
        if (!(a & bit)) pair(a, a | bit, 256);
    for (int b = 1; b < lanes; ++b) pair(0, b, 128);
  }
  return out;
}

std::string to_plan_jsonl(const AmdCorpusCase& c) {
  nlohmann::ordered_json j;
  j["format"] = "amd-lds";
  j["gpu"] = c.gpu;
  j["device"] = c.device;
  j["date"] = c.date;
  j["case"] = c.index;
  j["instruction"] = c.instruction;
  j["repeat"] = c.repeat;
  j["waves"] = c.waves;
  j["addresses"] = c.request.address;
  if (!c.note.empty()) j["note"] = c.note;
  return j.dump();
}

}  // namespace swz
