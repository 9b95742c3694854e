// global_side.h: the global side of a cp.async copy, as the simulator places it.
//
// A cp.async lane copies 4, 8 or 16 bytes from global memory into shared memory. Two things
// follow from where those bytes are in global memory:
//
//   the shared side's cost: a .ca copy's words come through the 32 banks by their *source*
//     address (warp_access.h, rule 4), so a shared bank waits for the lanes its source banks
//     serve first. A row pitch that is a multiple of 128 bytes puts column c of every row in
//     the same source bank; any other pitch shifts each row by pitch mod 128 bytes.
//
//       pitch 128 (rows 0..3, 4-byte columns 0..3):   pitch 136:
//         row 0: banks  0  1  2  3                      banks  0  1  2  3
//         row 1: banks  0  1  2  3                      banks  2  3  4  5
//         row 2: banks  0  1  2  3                      banks  4  5  6  7
//
//   the global side's cost: the 32-byte sectors and 128-byte lines one instruction reads
//     (sectors per request; the ideal is the bytes it moves / 32).
//
// And a vector: one cp.async copies consecutive bytes on both sides, so a lane's registers
// vectorise only as far as they are consecutive and aligned in global memory too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "swz/sim/bank.h"

namespace swz {

// The bytes between a pitch-placed global tensor's rows (Access::global_pitch_bytes):
// `pitch_bytes` when given (> 0), else the smallest multiple of 128 bytes that holds a row of
// `row_bytes`, and 128 at least.
std::int64_t global_row_pitch(std::int64_t row_bytes, std::int64_t pitch_bytes);

// The widest vector (log2 elements, at most `most_log2`) whose registers 0..k-1 are consecutive,
// aligned bytes of global memory for every lane and warp: what a cp.async can copy at once.
int global_vector_log2(const Access& access, int element_bits, int most_log2);
// The same in bits, up to 128: the widest cp.async the global side allows.
int global_vector_bits(const Access& access, int element_bits);

// What one copy reads from global memory, over its instructions.
struct GlobalRequests {
  int instructions = 0;
  double sectors_per_request = 0;  // mean distinct 32-byte sectors one instruction reads
  int worst_sectors = 0;           // of the instruction reading the most
  double lines_per_request = 0;    // mean distinct 128-byte lines
  int ideal_sectors = 0;           // bytes one instruction moves / 32 (at least 1)
  std::int64_t total_sectors = 0;  // over every instruction
};
// Throws swz::Error for an access that is no cp.async.
GlobalRequests global_requests(const Access& access, const SharedLayout& shared, int element_bits, const BankModel& model);

// One cp.async instruction, lane by lane, as rule 4 serves it: where each lane reads, and the
// turns its shared bank waits. The core computes it; front ends draw it.
struct CopyLane {
  int lane = 0;
  std::int64_t global = -1;  // byte address read; -1: inactive or a copy that moves no data
  std::int64_t line = -1;    // global / 128
  std::int64_t sector = -1;  // global / 32
  int source_bank = -1;      // (global / 4) mod banks, of its first word
  int shared_bank = -1;      // of its first word
  int phase = 0;
  int read_turn = 0;         // 1-based: its place among its phase's lanes of the same source bank
  int reads_of_source = 0;   // lanes of its phase reading that source bank
};
struct CopyBankTurns {
  int phase = 0, shared_bank = 0;
  int writes = 0;        // words written to the bank in the phase
  int wait = 0;          // turns a feeding source bank serves first (lanes bound for other banks)
  int waited_on = -1;    // that source bank; -1 when none waits
  int cost() const { return writes + wait; }
};
struct CopyTrace {
  std::vector<CopyLane> lanes;
  std::vector<CopyBankTurns> banks;    // each written bank of each phase
  std::vector<int> phase_wavefronts;   // max cost over its banks: serve()'s count for a .ca copy
  int lines = 0, sectors = 0;          // distinct ones the instruction reads
  bool modelled = true;                // false for .cg: the turns are shown, the count is the store rule's
};
CopyTrace copy_trace(const WarpRequest& request, const BankModel& model);

// The copy's global side and its reads, for the JSON outputs: {"cache", "contiguous_dim",
// "pitch_bytes" | "layout", "sectors_per_request", ...}. `placement`: how the problem states it.
nlohmann::json global_side_json(const Access& access, const SharedLayout& shared, int element_bits, const BankModel& model,
                                const std::string& placement);
// One line for the text outputs: "global side: rows 272 bytes apart, contiguous along dim1; .ca;
// 8.0 sectors per request (ideal 8), 2.0 lines".
std::string global_side_text(const Access& access, const SharedLayout& shared, int element_bits, const BankModel& model,
                             const std::string& placement);
// ".ca", ".cg" as the access issues at `vec_bits`.
std::string copy_cache_name(const Access& access, int vec_bits);

}  // namespace swz
