// corpus.h: warp instructions measured on real GPUs, and their replay.
//
// A corpus file holds one JSON object per line, each one warp instruction as a
// GPU ran it and what its counters said:
//
//   {"device": "NVIDIA H100 80GB HBM3", "cc": "9.0", "date": "2026-11-23", "seed": 7, "case": 12,
//    "kind": "LDS.64", "pattern": "few", "shared_bytes": 49152,
//    "addresses": [0, 8, -1, ...32 lanes, -1 = inactive], "wavefronts": 2, "instructions": 1}
//
// A cp.async line may add "global": [32 source addresses; -1 = the copy moves no data, its pointer
// not known; -2 - X = it moves no data, its pointer at X]. Its kind names its form: LDGSTS.BYPASS.128
// issued with the src-size operand, LDGSTS.BYPASS.128.NOZFILL without it (warp_access.h).
//
// `swizzle calibrate` writes such files on a GPU machine (cases from
// generate_cases(), measured by the CUDA backend); `swizzle replay` and the
// tests read them back and hold serve() (warp_access.h) to every line.
#pragma once

#include <cstdint>
#include <fstream>
#include <functional>
#include <iosfwd>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "swz/sim/bank.h"
#include "swz/sim/warp_access.h"

namespace swz {

struct CorpusCase {
  WarpRequest request;
  std::string pattern;                // how the addresses were drawn (generate_cases)
  std::int64_t shared_bytes = 49152;  // the probe's shared-memory size
  std::uint64_t seed = 0;
  int index = 0;  // case number within its calibration run
  int line = 0;   // 1-based line in the corpus file it was read from (0: not read)
  // measured
  std::string device, compute_capability, date;
  std::int64_t wavefronts = -1;    // counter total over the kernel (one warp, one instruction)
  std::int64_t instructions = -1;  // SASS instructions the counters saw
};

// One line, no trailing newline.
std::string to_jsonl(const CorpusCase& c);
// Reads every line of a corpus; throws swz::Error "name:line: what is wrong" at the first bad line.
std::vector<CorpusCase> read_corpus(std::istream& in, const std::string& name);
std::vector<CorpusCase> read_corpus_file(const std::string& path);
// What every corpus reader shares: each non-blank line (a leading BOM dropped) with its 1-based
// number; a swz::Error from `take` becomes "name:line: what"; and opening a file with the reason
// it cannot be read.
void for_each_corpus_line(std::istream& in, const std::string& name, const std::function<void(const std::string&, int)>& take);
std::ifstream open_corpus_file(const std::string& path);
// One corpus line as a JSON object with exactly the `required` keys and any of the `optional`
// ones; its string and bounded integer fields. Each throws swz::Error naming the key.
nlohmann::json corpus_object(const std::string& text, const std::vector<std::string>& required,
                             const std::vector<std::string>& optional);
std::string corpus_string(const nlohmann::json& line, const char* key);
std::int64_t corpus_integer(const nlohmann::json& line, const char* key, std::int64_t lo, std::int64_t hi);

// Random cases for a calibration run: `count` instructions of the given kinds
// (round robin, so every kind gets its share), addresses drawn from a mix of
// patterns (linear maps over F2, a few distinct addresses shared by many lanes,
// strides, random rows, partial warps), deterministic in `seed`. `model` gives the lanes (32 on
// NVIDIA, 64 on AMD); the default, the H100's, draws what every kept corpus was drawn with.
std::vector<CorpusCase> generate_cases(int count, std::uint64_t seed, const std::vector<InstructionKind>& kinds,
                                       std::int64_t shared_bytes = 49152, const BankModel& model = BankModel{});

// Designed cp.async cases: every kind in `kinds` that is a cp.async (LDGSTS), each shared pattern
// (contiguous lanes, one address for all, pairs of lanes on one address, rows 128 bytes apart, rows
// of 8 lanes XOR-swizzled, lanes walking the rows of 8-lane columns) copied from each source pattern
// (contiguous, 16 or 128 bytes apart by lane, rows of 8 lanes 4 KB apart, a fixed scatter over 1 MB,
// every copy moving no data, every other one moving none): the families the bank model's cp.async
// rule was read from, for `swizzle calibrate --designed` to measure on any GPU. The same cases every
// run; "pattern" names each ("pairs <- l128").
std::vector<CorpusCase> designed_copy_cases(const std::vector<InstructionKind>& kinds, std::int64_t shared_bytes = 65536);

struct ReplayTally {
  int cases = 0, agree = 0;
  int write_only = 0;    // of `agree`: .cg copies at the count where lanes that move no data only write (serve())
  int not_modelled = 0;  // cases the model does not predict (serve(): modelled false), neither agree nor disagree
  int disagree() const { return cases - agree - not_modelled; }
};
struct ReplayMismatch {
  std::string device;
  int line = 0;  // 1-based line in its file (0 when not from a file)
  std::string file;
  CorpusCase measured;
  int predicted = 0;  // wavefronts per instruction
  std::string rule;
};
struct ReplayReport {
  ReplayTally all;
  std::map<std::string, ReplayTally> by_instruction;
  std::map<std::string, std::map<std::string, ReplayTally>> by_device;  // device -> instruction -> tally
  std::vector<ReplayMismatch> disagree;                                 // the first `keep`
};
// Serves every case and tallies it against its measurement; keeps the first `keep` disagreements.
void replay_into(ReplayReport& report, const std::vector<CorpusCase>& cases, const BankModel& model, const std::string& file = "",
                 std::size_t keep = 20);
nlohmann::json to_json(const ReplayReport& report);
// One device's (or GPU's) block of a text report: its name, then a row per instruction.
std::string tally_table(const std::string& title, const std::map<std::string, ReplayTally>& by_instruction);
std::string to_text(const ReplayReport& report);

}  // namespace swz
