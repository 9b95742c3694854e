// triton_lds.h: Triton's own count of AMD LDS bank conflicts, transcribed for the tests.
//
// Triton prices a shared-memory access of a linear layout without enumerating lanes
// (lib/Tools/GenericSwizzling.cpp, triton-lang/triton after PR #9662 `numBanks` and PR #11365
// `LocalMemOpTile::laneAddr`): the lanes one phase serves form a *tile* of lane bases, and the
// extra passes a phase needs are
//
//   conflicts = 2^dim( span(tile addresses) ∩ span(segment bits) ) - 1
//
// where the segment bits are the address bits above one row of banks (dword bits >= log2(banks)):
// two tile lanes whose addresses differ only above the bank row hit the same bank. The tile is
//   - a lane tile given (ds_read_b128, PR #11365): those lanes' addresses. The PR states the tile as
//     span(l0, l1, l2^l4) on gfx942 and span(l0, l1, l2^l3, l2^l4) on gfx950 (XORs of lane bits); the
//     unit-test revision read here passes laneAddr indices {l0, l1, l4} and {l0, l1, l3, l4};
//   - else the first log2(banks / dwords per lane) lane bases (contiguous phases: PR #9662,
//     "phases = threads x bits per thread / (banks x 32)").
// Triton's unit test (unittest/Dialect/TritonGPU/SwizzleTest.cpp, BankConflictTest
// .bankConflictsWavefront64) checks that count against a brute force that groups the 64 lanes into
// phases (contiguous runs, or for 128-bit accesses the phase id (t5, t2^t4, t3) on 32 banks and
// (t5, t2^t3^t4) on 64 banks), evaluates each lane at `lane & laneAddr mask`, and takes per phase
// the largest number of distinct dwords in one bank. Both are transcribed here, on byte addresses
// instead of MLIR layouts: lane_bases[i] is the byte address of lane 2^i (lane 0 at address 0),
// the address of lane l the XOR of the bases of its set bits.
//
// The brute force evaluates a 128-bit lane at `lane & mask` when the tile is single lane bits (the
// unit test's laneAddr), else at the lane itself.
#pragma once

#include <cstdint>
#include <vector>

namespace swz::triton_lds {

struct TritonAccess {
  std::vector<std::int64_t> lane_bases;  // 6 for a 64-lane wavefront; byte addresses
  int bits = 32;                         // per lane: 32, 64 or 128
  int banks = 32;                        // 32 (gfx942) or 64 (gfx950)
  // The lane tile as lane ids (each an XOR of lane bits: 20 = l2^l4); empty: contiguous phases.
  std::vector<int> lane_tile;
};

// The byte address of `lane` under a linear layout (XOR of the bases of its set bits).
std::int64_t linear_address(const std::vector<std::int64_t>& lane_bases, int lane);
// Bank conflicts per phase by Triton's F2 formula (bankConflictsMemDesc -> bankConflicts).
int analytic_conflicts(const TritonAccess& access);
// The same by Triton's test-side brute force (bruteforceBankConflictsPerWavefront64).
int brute_force_conflicts(const TritonAccess& access);
// The brute force's phase of `lane` (64 lanes): contiguous runs of banks / dwords lanes, or the
// 128-bit phase ids quoted above.
int triton_phase_of(int lane, int bits, int banks);
// The lane tiles: PR #11365's stated phase-0 subspace, and the unit test's laneAddr indices.
std::vector<int> pr11365_b128_tile(int banks);
std::vector<int> unit_test_b128_tile(int banks);
// Wavefronts (passes over the banks) Triton predicts for one instruction of 64 lanes:
// phases x (1 + conflicts per phase).
int triton_wavefronts(const TritonAccess& access);

// Triton's phase grouping applied to arbitrary lane addresses (-1: inactive), each phase costing
// its largest count of distinct dwords in one bank; no lane masking (it needs a linear layout).
// The 128-bit phase ids are those of reads (Triton sets laneAddr for ds_read_b128 only); writes
// and narrower accesses go in contiguous runs.
int phase_wavefronts(const std::vector<std::int64_t>& address, int bits, int banks, bool read);

}  // namespace swz::triton_lds
