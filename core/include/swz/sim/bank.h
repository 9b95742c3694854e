// bank.h: the bank model and the brute-force simulator.
//
// Shared memory is `banks` banks of `bank_bytes` each, dealt round robin:
//   bank(byte_address) = (byte_address / bank_bytes) % banks
// A warp instruction is served in phases, groups of lanes fixed by lane id
// (all 32 lanes for <= 32-bit accesses, half-warps for 64-bit, quarter-warps
// for 128-bit, one 8x8 matrix per phase for ldmatrix: as many lanes as one
// wavefront of banks x bank_bytes holds, so fewer on fewer banks). A phase costs
//   max over banks of (distinct bank words the phase touches in that bank)
// wavefronts: lanes reading the same word share it (broadcast). An
// instruction's wavefronts are the sum over its phases; its ideal is the
// number of phases; conflicts = wavefronts - ideal.
//
// The rules themselves live in one place, serve() in warp_access.h, measured
// on the H100: a 64- or 128-bit *load* whose lanes all read the same address
// as their partner lane ^ 1 (or lane ^ 2) is served in phases twice as wide.
// The simulator reproduces this; the algebra (lemma.h) counts the narrow
// phases, an upper bound there, and says so.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "swz/layout/layout.h"
#include "swz/layout/shared.h"
#include "swz/sim/warp_access.h"

namespace swz {

// The GPU a bank model is: a row of the table in gpu.h (its phases, instructions and names).
enum class GpuId : std::uint8_t { sm_80, sm_90, sm_100, gfx942, gfx950 };

// The default is the H100 / H200 (sm_90); gpu_named() (gpu.h) gives every other GPU's model.
struct BankModel {
  int banks = 32;       // number of banks
  int bank_bytes = 4;   // width of one bank word
  int warp_size = 32;   // lanes per warp (AMD: per wavefront)
  GpuId gpu = GpuId::sm_90;  // whose phases and instructions serve() uses
  int wavefront_bytes() const { return banks * bank_bytes; }
  // Where a byte lives: its bank, and its segment (the row of all banks it falls in).
  int bank_of(std::uint64_t byte_address) const {
    return static_cast<int>((byte_address / static_cast<std::uint64_t>(bank_bytes)) % static_cast<std::uint64_t>(banks));
  }
  std::uint64_t segment_of(std::uint64_t byte_address) const {
    return byte_address / static_cast<std::uint64_t>(wavefront_bytes());
  }
  bool operator==(const BankModel&) const = default;
};
void check_bank_model(const BankModel& model);  // throws swz::Error

// First byte of the element at element offset `element_offset` (sub-byte elements share a byte).
constexpr std::uint64_t byte_address_of(std::uint64_t element_offset, int element_bits) {
  return element_offset * static_cast<std::uint64_t>(element_bits) / 8;
}

enum class AccessKind { Load, Store };

struct Access {
  LinearLayout layout;                 // register, lane, warp (block ignored) -> tensor coords
  AccessKind kind = AccessKind::Load;
  int ldmatrix = 0;                    // 0: LDS/STS; 1, 2, 4: ldmatrix (a load) or stmatrix (a store) .x1/.x2/.x4
                                       // (layout = the 16-byte rows lanes address)
  int vec_bits = 0;                    // bits per lane per instruction; 0 = widest allowed (<= 128)
  bool trans = false;                  // ldmatrix / stmatrix .trans: who receives which element (same addresses)
  // cp.async (a store from global memory): each lane copies its elements from their place in a
  // row-major global tensor, contiguous along out dim `global_contiguous_dim`, with the other dims'
  // rows `global_pitch_bytes` apart (0: the smallest multiple of 128 bytes that holds a row; any
  // pitch that is a multiple of 128 bytes puts the same columns in the same banks, which is all the
  // bank rule reads). `copy_cache` picks .ca or .cg (global_side.h).
  bool async_copy = false;
  // cp.async issued with the src-size operand (LDGSTS...ZFILL), as compilers emit a copy masked by
  // its size and `swizzle calibrate`'s probe issues every copy. Triton 3.6 masks its pipelined copies
  // (`ttg.async_copy_global_to_local ... mask`) with a predicate instead: plain LDGSTS.E.BYPASS.128 /
  // LDGSTS.E in every kernel of tests/data/triton/copies/h200-20261128 (their SASS); the audit's
  // copies set this false.
  bool src_size = true;
  int global_contiguous_dim = 0;
  std::int64_t global_pitch_bytes = 0;
  enum class CopyCache { Triton, Ca, Cg };
  CopyCache copy_cache = CopyCache::Triton;  // Triton: 16-byte copies .cg (Triton's choice), narrower ones .ca
  // cp.async: each element's global byte address, by flat tensor coordinate, where it is known
  // (the audit reads it from the kernel's pointer arithmetic); null: placed as above.
  std::shared_ptr<const std::vector<std::int64_t>> global_bytes = nullptr;
  // cp.async whose every lane is predicated off (Triton's masked copy, issued with its predicate
  // false: it writes zeros and reads nothing): each lane's global address is given as moving no
  // data at its pointer (WarpRequest::global, -2 - X).
  bool moves_no_data = false;
  // cp.async masked lane by lane (Triton's `mask` at a tile's edge: `rows < M`): by flat tensor
  // coordinate, 1 where the element's lane moves no data (its pointer where global_bytes says);
  // null: every lane moves data (or moves_no_data says none does).
  std::shared_ptr<const std::vector<std::uint8_t>> no_data = nullptr;
  // cp.async as Triton 3.6 lowers it: a lane or warp whose id has a bit on a broadcast (zero) lane
  // or warp basis holds a copy of another's elements and is predicated off. A warp predicated off
  // whole still issues the instruction (Nsight Compute counts it executed) and writes nothing: the
  // H200 (2026-11-29, tests/data/triton/copies/h200-20261129-lanes-walk-k) counts the B copy of
  // a tf32 matmul whose 4 warps all hold its 32 rows at 32 wavefronts per 4 executions, one warp's
  // 32 threads predicated on.
  bool duplicates_predicated_off = false;
};
// "" when `layout` (an access: register, lane, warp -> coords) holds every element of its tensor;
// else how far it reaches: "its bases reach 2^9 of the 2^10 elements". An access that leaves
// elements out is no access to the tensor: build_problem and the solver refuse it, in these words.
std::string coverage_gap(const LinearLayout& layout);
// The bits of `dim`'s ids ("lane", "warp") whose basis is zero (a broadcast): an id with one of
// them set holds a copy of elements an id without it holds (Access::duplicates_predicated_off).
std::uint64_t broadcast_bits(const LinearLayout& layout, const char* dim);

// Where a cp.async lane's element comes from, as `Access::async_copy` places the global tensor
// (`pitch_bytes` 0: the smallest multiple of 128 bytes that holds a row).
std::int64_t global_source_address(const LinearLayout& layout, BitVec coord, int contiguous_dim, int element_bits,
                                   std::int64_t pitch_bytes = 0);
// The same for an access: its `global_bytes` where known, else its contiguous dim and pitch.
std::int64_t global_source_address(const Access& access, BitVec coord, int element_bits);

// The instruction an access issues with `vec_bits` per lane (ldmatrix / stmatrix:
// the access's own .xN and .trans), and its SASS name: STS.128, STS.64, STS.32,
// STS.U16, LDS.U8, LDSM.x4, LDSM.x4.trans, STSM.x2, ... The one place a front
// end, the solver, the audit and the GPU backend get a side's instruction name.
// On AMD GPUs (a model from gpu.h) the name is the GPU's own: DS_READ_B128, DS_WRITE_B64, ...
InstructionKind instruction_kind(const Access& access, int vec_bits);
std::string instruction_name(const Access& access, int vec_bits, const BankModel& model = BankModel{});

// The vector width an access uses, and what stopped it growing.
struct VectorChoice {
  int elements = 1;   // consecutive registers per lane per instruction
  int bits = 0;       // elements * element_bits
  std::string limit;  // why not wider
};
VectorChoice choose_vector(const Access& access, const SharedLayout& shared, int element_bits, const BankModel& model);

struct LaneAccess {
  int lane = 0;
  bool active = true;              // ldmatrix .x1/.x2 leave upper lanes idle
  BitVec coord = 0;                // flat coordinate of the lane's first element
  std::uint32_t offset = 0;        // element offset
  std::uint64_t byte_address = 0;  // offset * element_bits / 8
  int bank = 0;
  int phase = 0;
  int words = 1;                   // bank words the lane's vector spans
  int register_index = 0;          // first register of the vector
};

struct InstructionResult {
  int warp = 0, step = 0;
  int wavefronts = 0, ideal = 0;
  bool merged = false;                  // phases widened by paired lanes (warp_access.h)
  bool modelled = true;                 // false: a copy serve() cannot price (warp_access.h), by the store rule
  int write_only = -1;                  // Service::write_only_wavefronts: a src-size .cg copy's other count
  std::vector<int> phase_wavefronts;    // after merging
  std::vector<int> bank_words;          // distinct words per bank, summed over phases
  std::vector<int> worst_phase_bank_words;  // of the costliest phase: what an "N-way" conflict is, bank by bank
  std::vector<LaneAccess> lanes;        // filled by trace_instruction()
};

struct AccessResult {
  int element_bits = 32;
  VectorChoice vector;
  int lanes_per_phase = 32;
  int phases = 1;                    // before any merge
  int banks = 32;                    // the banks it is served on (instruction_banks(): gfx950's ds_write_b64 has 32 of 64)
  int steps = 1, warps = 1;          // instructions = steps * warps
  int wavefronts = 0;                // worst instruction
  int ideal_wavefronts = 0;          // of the worst instruction
  int conflicts = 0;                 // wavefronts - ideal of the worst instruction
  double mean_wavefronts = 0;
  std::int64_t total_wavefronts = 0, total_ideal = 0;
  std::vector<int> per_instruction;  // index = warp * steps + step; empty when sampled
  std::vector<int> per_instruction_ideal;  // the same instructions' ideal counts
  bool merged = false;
  bool modelled = true;  // false: some instruction priced by the store rule (serve() could not)
  // A src-size .cg copy with lanes that move no data: total_wavefronts with each such instruction at
  // the count where those lanes only write (Service::write_only_wavefronts); -1: no such lane.
  std::int64_t total_write_only = -1;
  // A layout with no table (linear, over 2^kTableBits elements) and more than kFullSimulation
  // instructions: a fixed sample of them is simulated (warp 0's first steps, a spread of the
  // rest, the last), the worst and the mean are the sample's, the totals its mean x instructions.
  bool sampled = false;
  int simulated_instructions = 0;
  static constexpr int kFullSimulation = 1 << 16;
  int instructions() const { return steps * warps; }
};

AccessResult simulate(const Access& access, const SharedLayout& shared, int element_bits, const BankModel& model);
// The instructions a sample simulates: every (warp, step) when there are at most `budget`, else
// warp 0's first steps, a fixed pseudo-random spread and the last instruction (the same every run).
std::vector<std::pair<int, int>> sample_instructions(int warps, int steps, int budget);
InstructionResult trace_instruction(const Access& access, const SharedLayout& shared, int element_bits,
                                    const BankModel& model, int warp, int step);

// The warp instruction the simulator serves for (warp, step): its kind and each
// lane's byte address, as the bank rules (warp_access.h) and a probe take it.
WarpRequest warp_request(const Access& access, const SharedLayout& shared, int element_bits, const BankModel& model,
                         int warp, int step);

// Some instructions of an access under a linear shared layout given as its
// address function (coordinates -> element offset), with no table: how the
// solver checks tensors too large for one. The access uses vectors of
// 2^vector_log2 registers (the caller's choice; not searched). One result per
// (warp, step) pair, in order.
std::vector<InstructionResult> simulate_linear(const Access& access, const BitMatrix& coords_to_offset, int vector_log2,
                                               int element_bits, const BankModel& model,
                                               const std::vector<std::pair<int, int>>& warp_steps);

// [SECTION] Access geometry: every count the simulator, the lemma, the solver,
// the sweep and the pictures take from the bank model, in one place.
//
// How the bank model splits an element offset (32 banks of 4 bytes, 16-bit elements):
//
//   offset bit:  9 8 7 6 | 5 4 3 2 1 | 0
//                segment |   bank    | within word
//                        ^ segment_start = log2(32 banks * 32 bits / 16 bits) = 6
//                                    ^ within_word = log2(32 bits / 16 bits) = 1
//
// and how an instruction's lanes are served: in phases of lanes_per_phase lanes
// (at 32 banks: all 32 for <= 32-bit vectors, 16 for 64-bit, 8 for 128-bit and ldmatrix;
// in general as many lanes as one wavefront, banks x bank_bytes, holds), so one instruction
// costs at least `phases` wavefronts: the bytes it moves over the bytes of one wavefront.
struct OffsetBits {
  int within_word = 0;    // offset bits inside one bank word (0 for elements of a word or more)
  int segment_start = 0;  // the first offset bit that picks the segment (the row of all banks)
  int bank_bits() const { return segment_start - within_word; }
};
OffsetBits offset_bits(const BankModel& model, int element_bits);

struct AccessGeometry {
  BankModel bank;            // the banks the instruction is served on (instruction_banks(): gfx950's ds_write_b64 has 32)
  OffsetBits offset;         // on those banks
  int vector_bits = 32;      // bits per lane per instruction (ldmatrix / stmatrix: 128)
  int active_lanes = 32;     // lanes that carry an address (ldmatrix .xN: 8N)
  int lanes_per_phase = 32;  // lanes served together
  int phases = 1;            // active_lanes / lanes_per_phase: the ideal wavefronts of one instruction
  LanePhases lane_phases;    // which lanes (runs, or cosets of lane bits on AMD's ds_read_b128)
};
// `vector_bits`: the width one lane moves per instruction (0: the access's own, else 8).
AccessGeometry access_geometry(const Access& access, int element_bits, int vector_bits, const BankModel& model);
// The same with the access's lane bits already known (the solver's inner loops).
AccessGeometry access_geometry(const Access& access, int lane_bits, int element_bits, int vector_bits, const BankModel& model);

// The access's lane bases renumbered so that its phases are runs: base i is the XOR of the
// original bases over the lane bits of phases.run_order()[i], so runs of lanes_per_phase new
// lanes are exactly the phases serve() forms. The identity where the phases are runs already.
// The lemma, the solver and the sweep, which read a phase as the first lane bases, read these.
std::vector<BitVec> lane_bases_in_phase_order(const std::vector<BitVec>& lane_bases, const LanePhases& phases);

}  // namespace swz
