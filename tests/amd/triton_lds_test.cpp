// The transcription of Triton's AMD LDS count (triton_lds.h) held to Triton's own unit test.
//
// Source: triton-lang/triton, unittest/Dialect/TritonGPU/SwizzleTest.cpp, BankConflictTest
// .bankConflictsWavefront64, as of PR #11365 ("[AMD][LAYOUTS] Refine segment computation to support
// DS_READ_B128", merged 2026-08) and its predecessor after PR #9662 (numBanks). That test asserts
// analytic count == brute force on each of its cases; the 128-bit phase lists below are quoted from
// the predecessor's brute force (getPhasesB128), the phase ids from the later one.
#include "triton_lds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace {

using swz::triton_lds::TritonAccess;

// getPhasesB128(32): 8 phases of 8 lanes, in Triton's order.
const std::vector<std::vector<int>> kTritonB128Phases32 = {{0, 1, 2, 3, 20, 21, 22, 23},     {32, 33, 34, 35, 52, 53, 54, 55},
                                                           {4, 5, 6, 7, 16, 17, 18, 19},     {36, 37, 38, 39, 48, 49, 50, 51},
                                                           {8, 9, 10, 11, 28, 29, 30, 31},   {40, 41, 42, 43, 60, 61, 62, 63},
                                                           {12, 13, 14, 15, 24, 25, 26, 27}, {44, 45, 46, 47, 56, 57, 58, 59}};
// getPhasesB128(64): 4 phases of 16 lanes.
const std::vector<std::vector<int>> kTritonB128Phases64 = {{0, 1, 2, 3, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 26, 27},
                                                           {32, 33, 34, 35, 44, 45, 46, 47, 52, 53, 54, 55, 56, 57, 58, 59},
                                                           {4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 28, 29, 30, 31},
                                                           {36, 37, 38, 39, 40, 41, 42, 43, 48, 49, 50, 51, 60, 61, 62, 63}};

TEST(TritonLdsTranscription, B128PhaseIdsEqualTritonsPhaseLists) {
  for (const auto& [banks, lists] : {std::pair{32, kTritonB128Phases32}, std::pair{64, kTritonB128Phases64}}) {
    std::vector<int> seen(64, 0);
    for (std::size_t phase = 0; phase < lists.size(); ++phase)
      for (int lane : lists[phase]) {
        EXPECT_EQ(swz::triton_lds::triton_phase_of(lane, 128, banks), static_cast<int>(phase))
            << banks << " banks, lane " << lane;
        ++seen[lane];
      }
    for (int lane = 0; lane < 64; ++lane) EXPECT_EQ(seen[lane], 1) << banks << " banks, lane " << lane;
  }
}

TEST(TritonLdsTranscription, NarrowerAccessesUseContiguousPhases) {
  // PR #9662: phases = 64 lanes x bits / (banks x 32).
  EXPECT_EQ(swz::triton_lds::triton_phase_of(15, 64, 32), 0);
  EXPECT_EQ(swz::triton_lds::triton_phase_of(16, 64, 32), 1);  // gfx942 b64: 4 phases of 16
  EXPECT_EQ(swz::triton_lds::triton_phase_of(31, 64, 64), 0);
  EXPECT_EQ(swz::triton_lds::triton_phase_of(32, 64, 64), 1);  // gfx950 b64: 2 phases of 32
  EXPECT_EQ(swz::triton_lds::triton_phase_of(63, 32, 64), 0);  // gfx950 b32: one phase
  EXPECT_EQ(swz::triton_lds::triton_phase_of(32, 32, 32), 1);  // gfx942 b32: 2 phases of 32
}

// Triton's first two cases: blocked({1, 8}, {4, 16}, {4, 1}, order {1, 0}) read from
// swizzled_shared(vec 8, perPhase 1, maxPhase 16, order {1, 0}), 128x128 fp16, one 128-bit read per
// lane. Lane bits 0-3 step the column by 8, bits 4-5 the row; the swizzle puts element (r, c) at
// r*128 + ((c/8) ^ (r%16))*8 + c%8, so the lane bases in bytes are:
const std::vector<std::int64_t> kBlockedSwizzledLanes = {16, 32, 64, 128, 272, 544};

TEST(TritonLdsTranscription, TritonsBlockedCasesAnalyticEqualsBruteForce) {
  const TritonAccess gfx942{kBlockedSwizzledLanes, 128, 32, swz::triton_lds::unit_test_b128_tile(32)};
  const TritonAccess gfx950{kBlockedSwizzledLanes, 128, 64, swz::triton_lds::unit_test_b128_tile(64)};
  for (const auto& access : {gfx942, gfx950}) {
    EXPECT_EQ(swz::triton_lds::analytic_conflicts(access), swz::triton_lds::brute_force_conflicts(access));
    // Worked by hand: the tile {16, 32, 272} bytes (32 banks) holds 272 ^ 16 = 256 bytes, one bank
    // row apart: one conflict; on 64 banks {16, 32, 128, 272} holds the same 256 (= 64 dwords).
    EXPECT_EQ(swz::triton_lds::analytic_conflicts(access), 1);
  }
  // With PR #11365's stated tiles the same case is conflict-free: 336 = 64 ^ 272 bytes (l2^l4) is
  // 84 dwords, bank 20, and no XOR of the tile cancels the bank bits.
  for (int banks : {32, 64}) {
    const TritonAccess access{kBlockedSwizzledLanes, 128, banks, swz::triton_lds::pr11365_b128_tile(banks)};
    EXPECT_EQ(swz::triton_lds::analytic_conflicts(access), 0) << banks;
    EXPECT_EQ(swz::triton_lds::brute_force_conflicts(access), 0) << banks;
  }
}

TEST(TritonLdsTranscription, Pr11365TilesSpanThePhaseOfLaneZero) {
  // PR #11365: V0 = span(l0, l1, l2^l4) (MI300), span(l0, l1, l2^l3, l2^l4) (MI350); every other
  // phase an affine shift of it. So the span of the tile is exactly the lanes of phase 0.
  for (int banks : {32, 64}) {
    std::vector<int> span = {0};
    for (int basis : swz::triton_lds::pr11365_b128_tile(banks))
      for (std::size_t i = 0, n = span.size(); i < n; ++i) span.push_back(span[i] ^ basis);
    std::sort(span.begin(), span.end());
    const auto& phase0 = banks == 32 ? kTritonB128Phases32[0] : kTritonB128Phases64[0];
    EXPECT_EQ(span, phase0) << banks;
  }
}

TEST(TritonLdsTranscription, AnalyticEqualsBruteForceOnRandomLinearLayouts) {
  std::mt19937_64 rng(20261128);
  int checked = 0;
  for (int bits : {32, 64, 128})
    for (int banks : {32, 64})
      for (int trial = 0; trial < 200; ++trial) {
        TritonAccess access{{}, bits, banks, {}};
        for (int i = 0; i < 6; ++i)  // aligned to the access, up to 64 KiB, sometimes 0 (broadcast)
          access.lane_bases.push_back(rng() % 5 == 0 ? 0 : static_cast<std::int64_t>(rng() % (65536 / (bits / 8))) * (bits / 8));
        if (bits == 128 && trial % 3 == 1) access.lane_tile = swz::triton_lds::unit_test_b128_tile(banks);
        if (bits == 128 && trial % 3 == 2) access.lane_tile = swz::triton_lds::pr11365_b128_tile(banks);
        ASSERT_EQ(swz::triton_lds::analytic_conflicts(access), swz::triton_lds::brute_force_conflicts(access))
            << bits << " bits, " << banks << " banks, trial " << trial;
        ++checked;
      }
  EXPECT_EQ(checked, 1200);
}

TEST(TritonLdsTranscription, ContiguousReadsAreConflictFree) {
  // lane l reads bytes [l*16, l*16+16): a plain contiguous row.
  const TritonAccess rows{{16, 32, 64, 128, 256, 512}, 128, 32, {}};
  EXPECT_EQ(swz::triton_lds::analytic_conflicts(rows), 0);
  EXPECT_EQ(swz::triton_lds::triton_wavefronts(rows), 8);
  // Every lane of a 64-bit gfx942 phase in one bank column (stride 128 bytes): 16 lanes, 16 words.
  const TritonAccess column{{128, 256, 512, 1024, 2048, 4096}, 64, 32, {}};
  EXPECT_EQ(swz::triton_lds::analytic_conflicts(column), 15);
}

}  // namespace
