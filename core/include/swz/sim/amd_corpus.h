// amd_corpus.h: LDS accesses measured on AMD GPUs with rocprofv3, and their replay.
//
// An AMD corpus file holds one JSON object per line, one kernel each: the GPU, the LDS
// instruction, the byte address of each of the 64 lanes of a wavefront (-1: the lane sits it
// out), how many times each wavefront issues it (`repeat`), how many wavefronts ran (`waves`),
// and the kernel's rocprofv3 totals:
//
//   {"format": "amd-lds", "gpu": "gfx950", "device": "AMD Instinct MI355X", "date": "2026-12-01",
//    "case": 0, "instruction": "ds_read_b128", "repeat": 1, "waves": 1,
//    "addresses": [0, 16, 32, ... 64 lanes], "SQ_INSTS_LDS": 1, "SQ_LDS_BANK_CONFLICT": 0}
//
// Optional keys: "example": true and a "note" mark a line that shows the format and measures
// nothing (the replay counts and says so); "cycles_per_extra_pass" (below).
//
// What agrees. SQ_LDS_BANK_CONFLICT counts the cycles the LDS stalled on bank conflicts, summed
// over a shader engine's SIMDs (rocprofiler's counter table); the model counts passes over the
// banks. So a case agrees when SQ_INSTS_LDS is repeat x waves and the counter is zero exactly when
// the model predicts no pass beyond the ideal; a line that states "cycles_per_extra_pass" (from a
// case of its own GPU and instruction with a known conflict) must equal extra passes x repeat x
// waves x that number. tests/gpu/amd/lds_probe.hip and to_amd_corpus.py fill such a file.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "swz/sim/corpus.h"
#include "swz/sim/warp_access.h"

namespace swz {

struct GpuModel;

struct AmdCorpusCase {
  std::string gpu;          // a name gpu_named() knows: gfx942, gfx950, mi300x ...
  std::string instruction;  // as the line spells it: ds_read_b128
  WarpRequest request;      // the instruction as a kind, and the 64 lane addresses
  std::int64_t repeat = 1;  // instructions per wavefront
  std::int64_t waves = 1;   // wavefronts that ran
  int index = 0;            // "case"
  int line = 0;             // 1-based line in its file
  bool example = false;     // a format example, not a measurement
  std::string device, date, note;
  // measured: the kernel's rocprofv3 totals
  std::int64_t lds_instructions = 0;  // SQ_INSTS_LDS
  std::int64_t conflict_cycles = 0;   // SQ_LDS_BANK_CONFLICT
  std::optional<std::int64_t> cycles_per_extra_pass;
};

// True when a corpus line is an AMD one ("format": "amd-lds"); false for anything else.
bool is_amd_corpus_line(const std::string& line);
// Reads every line; throws swz::Error "name:line: what is wrong" at the first bad line.
std::vector<AmdCorpusCase> read_amd_corpus(std::istream& in, const std::string& name);
std::vector<AmdCorpusCase> read_amd_corpus_file(const std::string& path);

struct AmdReplayMismatch {
  std::string file;
  AmdCorpusCase measured;
  int wavefronts = 0, ideal = 0;  // the model's passes per instruction
  std::string why;
};
struct AmdReplayReport {
  ReplayTally all;
  int examples = 0;                                                  // lines marked "example"
  std::map<std::string, std::map<std::string, ReplayTally>> by_gpu;  // gpu -> instruction -> tally
  std::vector<AmdReplayMismatch> disagree;                           // the first `keep`
};
void replay_amd_into(AmdReplayReport& report, const std::vector<AmdCorpusCase>& cases, const std::string& file = "",
                     std::size_t keep = 20);
nlohmann::json to_json(const AmdReplayReport& report);
std::string to_text(const AmdReplayReport& report);

// [SECTION] cases to measure (`swizzle calibrate --gpu gfx942 -o plan.jsonl`)
//
// Lines for an AMD user to measure with tests/gpu/amd/lds_probe.hip: the corpus format with empty
// "device" and "date" and no counters, which `to_amd_corpus.py fill` adds (the reader refuses such
// a line until then, saying so). The instructions are the probe's: ds_read_b32/b64/b128 and
// ds_write_b32/b64/b128. Each line's "note" says how its addresses were chosen ("pair 0-5 @256",
// "linear", or generate_cases' pattern).
// How AMD's tools spell an instruction of `gpu`: lowercase (ds_read_b128).
std::string amd_spelling(const GpuModel& gpu, const InstructionKind& kind);
// The one of `among` spelled `name` in any case; nullopt when none is.
std::optional<InstructionKind> amd_spelled(const GpuModel& gpu, const std::vector<InstructionKind>& among,
                                           const std::string& name);
// `kinds` spelled, comma-separated: what an error message lists.
std::string amd_spellings(const GpuModel& gpu, const std::vector<InstructionKind>& kinds);
// The instructions lds_probe.hip issues, as the GPU's table has them.
std::vector<InstructionKind> amd_probe_instructions(const GpuModel& gpu);
// A comma-separated list of them, any case ("ds_read_b64,DS_WRITE_B128"); empty: all of them.
// Throws swz::Error naming what the probe issues when one is not among them.
std::vector<InstructionKind> amd_probe_instructions_named(const GpuModel& gpu, const std::string& list);
// Random cases: generate_cases' address patterns over the GPU's 64 lanes inside its LDS,
// instructions round robin, deterministic in `seed`.
std::vector<AmdCorpusCase> amd_random_cases(const GpuModel& gpu, int count, std::uint64_t seed,
                                            const std::vector<InstructionKind>& kinds);
// Designed cases, the same every run: per instruction, every lane active and contiguous (no
// conflict anywhere); then two active lanes on the same bank in different rows, 256 bytes apart
// (one bank on 32 and on 64 banks): lane 0 with each other lane, and each lane with the lane one
// lane bit away; and lane 0 with each other lane 128 bytes apart (one bank on 32 banks, two banks
// on 64). A pair conflicts exactly when the instruction serves both lanes in one phase and the
// bytes wrap at that distance, so the counters read the phases and the bank count lane by lane.
std::vector<AmdCorpusCase> amd_designed_cases(const GpuModel& gpu, const std::vector<InstructionKind>& kinds);
// One line, no trailing newline.
std::string to_plan_jsonl(const AmdCorpusCase& c);

}  // namespace swz
