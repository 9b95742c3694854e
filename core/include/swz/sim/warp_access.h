// warp_access.h: one warp instruction on raw byte addresses, and how the
// hardware serves it.
//
// Everything the bank model knows lives here. A layout access (bank.h) turns
// each instruction into 32 lane addresses and asks serve(); the measured
// corpus (corpus.h) replays the hardware's own cases through the same serve().
//
// An instruction is a kind (LDS/STS of 1..16 bytes per lane, ldmatrix and
// stmatrix .x1/.x2/.x4 with or without .trans, cp.async of 4/8/16 bytes) and
// one byte address per lane (-1: the lane does not take part); a cp.async also
// carries each lane's global source address, because what it costs depends on it. The shared
// memory is `banks` banks of `bank_bytes`; a *wavefront* is one pass through
// the banks that serves at most one distinct word per bank:
//
//   bank(address) = (address / 4) % 32          word(address) = address / 4
//
//   lanes  0..7   8..15   16..23   24..31        (128-bit: quarter-warps)
//          \_ phase 0 _/  \_ phase 1 _/          (64-bit: half-warps)
//
// A request is cut into phases by lane id (all lanes for <= 32 bits, half-warps
// for 64-bit, quarter-warps for 128-bit and for each 8x8 matrix of ldmatrix /
// stmatrix); a phase costs the largest number of distinct words it needs from
// one bank. The rules for merging phases were measured on the H100 and are
// spelled out at serve() in warp_access.cpp with the evidence for each.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace swz {

struct BankModel;

// What a warp instruction does to shared memory.
enum class WarpOp {
  Load,         // LDS
  Store,        // STS
  LoadMatrix,   // ldmatrix (LDSM): 8 lanes give the row addresses of each 8x8 b16 matrix
  StoreMatrix,  // stmatrix (STSM)
  AsyncCopy,    // cp.async (LDGSTS): global -> shared, through L1 (.ca) or around it (.cg: BYPASS)
};

struct InstructionKind {
  WarpOp op = WarpOp::Load;
  int bytes = 4;     // per lane: 1, 2, 4, 8, 16 (LDS/STS); 4, 8, 16 (LDGSTS); 16 per row (matrices)
  int matrices = 0;  // ldmatrix / stmatrix: 1, 2 or 4
  bool trans = false;
  bool bypass = false;  // cp.async.cg (16 bytes only): LDGSTS.BYPASS.128, the data does not stay in L1
  // cp.async only: issued with the src-size operand (SASS .ZFILL: what compilers emit for a masked
  // copy, every copy Triton pipelines, and what `swizzle calibrate` measures); false: the plain form
  // (SASS LDGSTS.E.BYPASS.128 without .ZFILL), named with ".NOZFILL". Only .cg's count depends on it.
  bool src_size = true;

  bool is_matrix() const { return op == WarpOp::LoadMatrix || op == WarpOp::StoreMatrix; }
  bool writes_shared() const { return op == WarpOp::Store || op == WarpOp::StoreMatrix || op == WarpOp::AsyncCopy; }
  // Lanes whose address the instruction uses: 8 per matrix, else every lane.
  int addressed_lanes(int warp_size) const { return is_matrix() ? 8 * matrices : warp_size; }
  // The SASS name: LDS.U8, LDS.U16, LDS.32, LDS.64, LDS.128, STS.*, LDSM.x4, LDSM.x4.trans, STSM.x2,
  // LDGSTS.32, LDGSTS.64, LDGSTS.128 (cp.async.ca), LDGSTS.BYPASS.128 (cp.async.cg); a cp.async
  // without the src-size operand ends in .NOZFILL (LDGSTS.BYPASS.128.NOZFILL).
  std::string name() const;
  bool operator==(const InstructionKind&) const = default;
};
// Reads a name as name() writes it (a cp.async's src-size form also as SASS spells it, with .ZFILL:
// LDGSTS.BYPASS.128.ZFILL); nullopt when it is not one.
std::optional<InstructionKind> parse_instruction_kind(const std::string& name);
// The same, throwing swz::Error naming the known instructions when it is not one.
InstructionKind instruction_kind_named(const std::string& name);
// Every kind the probe measures, in a fixed order (cp.async in the src-size form).
std::vector<InstructionKind> all_instruction_kinds();

struct WarpRequest {
  InstructionKind kind;
  // Per lane: byte address, -1 = lane inactive (or not addressed). A cp.async without src-size only:
  // -2 - X = the lane sits the copy out (its branch skips it) holding shared offset X in its register,
  // with `global` its pointer; a .cg copy counts such a lane as copying from there to X (rule 5).
  std::vector<std::int64_t> address;
  // cp.async only: per lane, the global byte address it copies from; for a copy that moves no data
  // (src-size 0: a masked-off copy that only zero-fills its shared bytes) -1 when where its pointer
  // points is not known, -2 - X when it points at X (.cg counts such a lane as reading X).
  // Empty: not known.
  std::vector<std::int64_t> global;
};

// Throws swz::Error naming the lane when an address is misaligned for the kind,
// negative other than -1 (or -2 - X on a cp.async without src-size), or at or past `shared_bytes`
// (0: no limit).
void check_request(const WarpRequest& request, const BankModel& model, std::int64_t shared_bytes = 0);

struct Service {
  int wavefronts = 0;
  int ideal = 0;   // passes needed with no conflict at all
  int phases = 0;  // lane groups before any merge
  int lanes_per_phase = 32;
  bool merged = false;                     // phases were served together (see serve())
  bool modelled = true;                    // false: the model does not predict this request (see serve())
  // A .cg copy with src-size whose lanes that move no data either read at their pointers (counted in
  // `wavefronts`) or only write their zeros (this count, never more): the compiled code decides
  // (serve()). -1 without such lanes. Known also where their pointers are not (modelled false).
  int write_only_wavefronts = -1;
  std::string rule;                        // which rule decided the count, in a few words
  std::vector<int> pass_wavefronts;        // per pass after merging
  std::vector<int> bank_words;             // distinct words per bank, summed over passes
  std::vector<int> worst_pass_bank_words;  // distinct words per bank of the costliest pass (its cost is the tallest)
};

// Which lanes an instruction serves together (gpu.h states them per GPU). A lane id is a vector
// of bits l0, l1, ..; the lanes of one phase are a coset of a subspace S of lane ids, so phase 0
// is S and every other phase is lane ^ S. Runs of 2^k consecutive lanes: S = span(l0, .., l(k-1)).
struct LanePhases {
  int lanes_per_phase = 32;
  // A basis of S, each vector an XOR of lane bits: {1, 2, .., 2^(k-1)} for runs of 2^k lanes.
  std::vector<std::uint32_t> span;
  bool contiguous() const;
  // The phase a lane is served in, phases numbered by their smallest lane (runs: lane / run length).
  int phase_of(int lane) const;
  // The lanes of phase `phase` among `lanes` lanes, ascending.
  std::vector<int> lanes_of(int phase, int lanes) const;
  // A lane numbering under which the phases are runs: column i of the map (new lane bit i -> old
  // lane id), for `lane_bits` lane bits. Its first log2(lanes_per_phase) columns span S, and
  // new lane / lanes_per_phase = phase_of(old lane). The identity for runs.
  std::vector<std::uint32_t> run_order(int lane_bits) const;
};
// Runs of `lanes_per_phase` consecutive lanes (a power of two).
LanePhases contiguous_phases(int lanes_per_phase);
// The lanes `kind` serves together under `model`: instruction_banks(kind, model).phases (gpu.h).
LanePhases phases_of(const InstructionKind& kind, const BankModel& model);

// The wavefronts the hardware spends on one warp instruction.
Service serve(const WarpRequest& request, const BankModel& model);

// Two active lanes of a `lanes`-wide warp: `first` at byte 0, `second` at byte `apart`; the others
// sit out. The experiment that reads a GPU's phases and bank count lane by lane (amd_designed_cases,
// the amd-lds lesson's lane_pair claims).
WarpRequest lane_pair_request(const InstructionKind& kind, int lanes, int first, int second, std::int64_t apart);

// Lanes per phase for `bytes` per lane (ldmatrix / stmatrix: 8).
int phase_lanes(const InstructionKind& kind, const BankModel& model);

}  // namespace swz
