// triton_convert.h: the scratch layout and the shared-memory instructions that
// Triton 3.6 picks for a ttg.convert_layout whose data leaves its warp, or
// stays in it but would need too many shuffles (triton_warp_exchanges below).
//
// How Triton 3.6 builds it (lib/Tools/GenericSwizzling.cpp and the NVIDIA
// convert_layout lowering, retold in our terms). Both layouts are flattened to
// one output index, dim0 lowest; registers that repeat data are dropped first.
//
//  1. Candidate instruction pairs. Each side may use plain ld/st.shared, and on
//     the H100 also stmatrix (writer) / ldmatrix (reader) for elements of at
//     most 32 bits, plus their .trans forms for 16-bit elements. Every
//     instruction moves a contiguous 16-byte "tile" per group of lanes; a pair
//     is possible when one set of index bits can serve as both sides' tile:
//     registers common to both sides first, then the lane bits the instruction
//     makes contiguous (ldmatrix: lanes 0-1; .trans: lanes 2-4), which must be
//     the same lanes of the other side or registers there.
//  2. For each possible pair, a scratch layout. Its offset bits are, from the
//     lowest: the "vector" (the tile), the "bank" bits that complete one
//     128-byte row of banks, and the "segment" bits above. Segment bits are
//     chosen among unit coordinates neither side's 8 address lanes touch;
//     when too few exist, XORs of a writer-only and a reader-only direction
//     (an XOR swizzle). Segment bits that are registers on both sides become
//     "reps": the conversion runs once per rep through a buffer that only
//     holds one rep, with a barrier between rounds. When both sides use a
//     matrix instruction, the first two such bits stay in the segment, so that
//     one round still holds enough registers for .x4 on both sides.
//  3. The pair with the fewest predicted conflicts wins, ties to the most reps.
//  4. No pair possible (the two sides share less than 128 bits of registers):
//     plain ld/st with a vector of the common registers, filled up to 32 bits
//     with registers of one side that are warps of the other (the side with
//     more such registers, ties to the lower coordinate), then with warp bits.
//     Never more than 32 bits there: a wider vector on one side would conflict
//     on the other.
//  5. Each round is lowered per side: ld/st takes the longest run of
//     registers at offsets 1, 2, 4, ... (at most 128 bits) as its vector;
//     ldmatrix / stmatrix take .x4 when there are enough registers, with the
//     lanes addressing the matrix rows as the tile dictates.
//
// What this gives is checked against Triton 3.6 on the H100 in
// tests/triton/triton_convert_test.cpp. The wavefronts come from the bank
// rules of warp_access.h, one warp request per issued instruction.
#pragma once

#include <cstdint>
#include <string>

#include "swz/sim/bank.h"
#include "swz/layout/layout.h"
#include "swz/sim/warp_access.h"

namespace swz {

// One side of the conversion: what each warp issues, all rounds, one CTA.
struct TritonSide {
  InstructionKind kind;           // STS.128, STSM.x4, LDSM.x4.trans, LDS.U8, ...
  std::string instruction;        // kind.name()
  std::int64_t instructions = 0;  // per CTA
  std::int64_t wavefronts = 0;    // total per CTA
  std::int64_t ideal_total = 0;   // total with no conflict
  int ideal = 0;                  // of the worst instruction
  int worst = 0;                  // wavefronts of the worst instruction
  double mean() const { return instructions ? static_cast<double>(wavefronts) / static_cast<double>(instructions) : 0; }
  // The side as the bank simulator takes it (bank.h): simulate() of it over the buffer's offsets
  // (the scratch's, for a conversion) serves exactly these instructions at these wavefronts. Its
  // registers come in the order the instruction takes them (repeated registers are gone): ld/st's
  // vector first, which Triton reaches by renumbering registers where the layout as numbered does
  // not allow it, then one bit per further instruction and per round; vec_bits is the width.
  // ldmatrix / stmatrix: registers start with the 16-byte row, lanes 0..8N-1 address the rows
  // (the rest are idle), `ldmatrix` = N and `trans` as issued.
  Access access;
};

struct TritonConversion {
  TritonSide store, load;
  // offset -> coords (out dims of the conversion); offset bits from the lowest: vector, bank,
  // segment, then the round bits (`rounds` = 2^their count), which reuse one round's buffer.
  LinearLayout scratch;
  int rounds = 1;
  int element_bits = 0;  // as moved: sub-byte elements travel as bytes
};

// What the target offers besides ld/st.shared: ldmatrix from sm_75, stmatrix from sm_90 (the
// H100 has both); AMD targets have neither.
struct TritonTarget {
  bool ldmatrix = true, stmatrix = true;
};
// From a module's target string ("cuda:90", "hip:gfx942"); an empty or unknown one is an H100.
TritonTarget triton_target(const std::string& target);

// `src` and `dst`: register, lane, warp (block, if present, must be trivial) -> coords, same out
// dims. Throws swz::Error when Triton 3.6 would not lower it this way (element wider than 128
// bits, layouts of different shapes, data split across CTAs).
TritonConversion triton_convert_layout(const LinearLayout& src, const LinearLayout& dst, int element_bits,
                                       const BankModel& model = {}, const TritonTarget& target = {});

// A conversion whose data stays in each warp (same register and lane span on both sides): how
// many register-lane exchanges its permutation of index bits needs, as Triton 3.6 counts them
// (lib/Analysis/Utility.cpp, the warp decomposition behind cvtNeedsWarpShuffle). Both sides'
// register and lane bits, less the registers that repeat data and padded to equal counts, are
// matched up: a source bit goes to the destination bit holding the same data (bits holding
// nothing on one side go, in order, to the other side's empty bits). In each cycle of that
// permutation that mixes registers and lanes, each run of consecutive lanes counts one exchange.
// Triton moves the data with warp shuffles only when there is at most one; from two on it goes
// through shared memory as a warp-crossing conversion would (triton_convert_layout).
// Throws swz::Error when the two sides do not hold the same data in their registers and lanes.
int triton_warp_exchanges(const LinearLayout& src, const LinearLayout& dst);

// A ttg.local_store / local_alloc (load = false) or ttg.local_load (load = true) between the
// registers of `regs` (register, lane, warp -> coords) and a buffer whose element offsets map
// linearly onto the same coords (`offsets`: offset -> coords), lowered as Triton 3.6 does on
// NVIDIA targets: stmatrix / ldmatrix where the registers hold its 16-byte tile (plain, then
// .trans), else ld/st.shared of the longest register run (step 5 above, on the buffer's own
// layout). Throws swz::Error when the buffer does not cover the tensor one to one.
TritonSide triton_local_access(const LinearLayout& regs, const LinearLayout& offsets, int element_bits, bool load,
                               const BankModel& model = {}, const TritonTarget& target = {});

}  // namespace swz
