// AMD inputs: measured LDS corpus lines (swizzle replay on rocprofv3 counters) read strictly and
// replayed, and the calibration plan's instruction list (swizzle calibrate --gpu gfx9xx --kinds),
// whose every instruction then plans its designed cases. Bad input must end in swz::Error.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "swz/error.h"
#include "swz/sim/amd_corpus.h"
#include "swz/sim/gpu.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > 1 << 16) return 0;
  // The first byte picks the GPU the instruction list is read for; the rest is the input.
  const swz::GpuModel& gpu = swz::gpu_named(data[0] & 1 ? "gfx950" : "gfx942");
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    std::istringstream in(text);
    const std::vector<swz::AmdCorpusCase> cases = swz::read_amd_corpus(in, "fuzz.jsonl");
    swz::AmdReplayReport report;
    swz::replay_amd_into(report, cases);
    if (report.all.cases != static_cast<int>(cases.size()) || report.examples > report.all.cases) __builtin_trap();
    (void)swz::to_text(report);
    (void)swz::to_json(report).dump();
  } catch (const swz::Error&) {
  }
  if (text.size() > 256 || text.find('\n') != std::string::npos) return 0;  // a --kinds value is one short line
  try {
    const std::vector<swz::InstructionKind> kinds = swz::amd_probe_instructions_named(gpu, text);
    if (kinds.empty()) __builtin_trap();  // an empty list means every instruction; a list names at least one
    for (const swz::AmdCorpusCase& c : swz::amd_designed_cases(gpu, kinds)) (void)swz::to_plan_jsonl(c);
  } catch (const swz::Error&) {
  }
  return 0;
}
