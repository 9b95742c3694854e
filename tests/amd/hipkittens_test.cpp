// HipKittens' measured gfx950 tables (tests/data/amd/hipkittens, SOURCE.md): read back, checked for
// coherence, and set beside Triton's phases (triton_lds.h).
#include <gtest/gtest.h>

#include <string>

#include "hipkittens_tables.h"
#include "triton_lds.h"

namespace {

std::string hipkittens_file(const std::string& name) { return std::string(SWZ_TEST_DATA_DIR) + "/amd/hipkittens/" + name; }

// Phase of each lane in a measured table.
std::vector<int> measured_phase_of_lane(const swz::hipkittens::PhaseTable& table) {
  std::vector<int> phase(64, -1);
  for (std::size_t p = 0; p < table.phases.size(); ++p)
    for (int lane : table.phases[p]) phase.at(lane) = static_cast<int>(p);
  return phase;
}

TEST(HipKittensTables, PhasesPartitionTheWavefrontAndMatchTheirConflictMatrix) {
  for (const char* kind : {"ds_read_b64", "ds_read_b128", "ds_write_b64"}) {
    const auto table = swz::hipkittens::read_phase_table(hipkittens_file(std::string(kind) + "/phase_results.txt"));
    const auto phase = measured_phase_of_lane(table);
    for (int lane = 0; lane < 64; ++lane) ASSERT_NE(phase[lane], -1) << kind << ": lane " << lane << " in no phase";
    for (int a = 0; a < 64; ++a)
      for (int b = 0; b < 64; ++b)
        EXPECT_EQ(table.conflicts[a][b] == 1, a != b && phase[a] == phase[b]) << kind << ": lanes " << a << ", " << b;
  }
}

TEST(HipKittensTables, BankCounts) {
  EXPECT_EQ(swz::hipkittens::read_bank_count(hipkittens_file("ds_read_b64/bank_results.txt")), 64);
  EXPECT_EQ(swz::hipkittens::read_bank_count(hipkittens_file("ds_read_b128/bank_results.txt")), 64);
  EXPECT_EQ(swz::hipkittens::read_bank_count(hipkittens_file("ds_write_b64/bank_results.txt")), 32);
}

TEST(HipKittensTables, TritonsGfx950ReadPhasesEqualTheMeasuredOnes) {
  for (const auto& [kind, bits] : {std::pair{"ds_read_b64", 64}, std::pair{"ds_read_b128", 128}}) {
    const auto phase =
        measured_phase_of_lane(swz::hipkittens::read_phase_table(hipkittens_file(std::string(kind) + "/phase_results.txt")));
    for (int a = 0; a < 64; ++a)
      for (int b = 0; b < 64; ++b)
        EXPECT_EQ(phase[a] == phase[b],
                  swz::triton_lds::triton_phase_of(a, bits, 64) == swz::triton_lds::triton_phase_of(b, bits, 64))
            << kind << ": lanes " << a << ", " << b;
  }
}

TEST(HipKittensTables, TritonsGfx950WritePhasesDifferFromTheMeasuredOnes) {
  // Triton prices every gfx950 access on 64 banks (numBanks from the target, reads and writes
  // alike): 64-bit writes in 2 phases of 32 lanes. HipKittens measured ds_write_b64 on gfx950 in 4
  // phases of 16 lanes over 32 banks: lanes 0 and 16 are apart, which Triton puts together.
  const auto phase = measured_phase_of_lane(swz::hipkittens::read_phase_table(hipkittens_file("ds_write_b64/phase_results.txt")));
  EXPECT_NE(phase[0], phase[16]);
  EXPECT_EQ(swz::triton_lds::triton_phase_of(0, 64, 64), swz::triton_lds::triton_phase_of(16, 64, 64));
  EXPECT_EQ(phase[0], phase[15]);
}

TEST(HipKittensTables, MalformedTableNamesTheFile) {
  EXPECT_THROW(swz::hipkittens::read_phase_table(hipkittens_file("SOURCE.md")), std::runtime_error);
  EXPECT_THROW(swz::hipkittens::read_bank_count(hipkittens_file("no-such-file.txt")), std::runtime_error);
}

}  // namespace
