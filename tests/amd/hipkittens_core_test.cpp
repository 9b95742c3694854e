// HipKittens' measured gfx950 experiments replayed through the core's model: each pair of lanes
// the phase solver ran (two lanes at lane * 256 bytes, one bank) conflicts in serve() exactly when
// it conflicted on the GPU, and the bank solver's wrap-around is where it was measured: the reads
// (ds_read_b64, ds_read_b128) on 64 banks, ds_write_b64 on 32.
#include <gtest/gtest.h>

#include <string>

#include "hipkittens_tables.h"
#include "swz/sim/gpu.h"
#include "swz/sim/warp_access.h"

namespace {

std::string hipkittens_core_file(const std::string& name) { return std::string(SWZ_TEST_DATA_DIR) + "/amd/hipkittens/" + name; }

// Two active lanes of one instruction; true when serve() needs a pass beyond the ideal.
bool two_lanes_conflict(const swz::GpuModel& gpu, swz::InstructionKind kind, int lane_a, std::int64_t at_a, int lane_b,
                        std::int64_t at_b) {
  swz::WarpRequest request;
  request.kind = kind;
  request.address.assign(64, -1);
  request.address[lane_a] = at_a;
  request.address[lane_b] = at_b;
  const swz::Service s = swz::serve(request, gpu.bank);
  return s.wavefronts > s.ideal;
}

struct MeasuredTable {
  const char* directory;
  swz::InstructionKind kind;
};

const MeasuredTable kHipKittensReads[] = {{"ds_read_b64", {swz::WarpOp::Load, 8}}, {"ds_read_b128", {swz::WarpOp::Load, 16}}};
const MeasuredTable kHipKittensWrite = {"ds_write_b64", {swz::WarpOp::Store, 8}};

// Lane pairs whose conflict in serve() differs from the measured matrix.
int pairs_differing(const swz::GpuModel& gpu, const MeasuredTable& measured) {
  const auto table =
      swz::hipkittens::read_phase_table(hipkittens_core_file(std::string(measured.directory) + "/phase_results.txt"));
  int differ = 0;
  for (int a = 0; a < 64; ++a)
    for (int b = a + 1; b < 64; ++b)
      if (two_lanes_conflict(gpu, measured.kind, a, a * 256, b, b * 256) != (table.conflicts[a][b] == 1)) ++differ;
  return differ;
}

// bank_solver.py: lane 0 at byte 0, lane 1 at bank b (byte 4b) for growing b; the first conflict
// is where lane 1's words wrap onto lane 0's.
int first_wrap(const swz::GpuModel& gpu, const MeasuredTable& measured, int up_to) {
  const int words = measured.kind.bytes / 4;
  for (int bank = words; bank <= up_to; bank += words)
    if (two_lanes_conflict(gpu, measured.kind, 0, 0, 1, 4 * bank)) return bank;
  return -1;
}

TEST(HipKittensOnCore, Gfx950ReadPairConflictsEqualTheMeasuredMatrix) {
  const swz::GpuModel& gfx950 = swz::gpu_named("gfx950");
  for (const auto& measured : kHipKittensReads)
    EXPECT_EQ(pairs_differing(gfx950, measured), 0) << measured.directory << ", of 2016 pairs";
}

TEST(HipKittensOnCore, Gfx950ReadBankWrapIsWhereItWasMeasured) {
  const swz::GpuModel& gfx950 = swz::gpu_named("gfx950");
  for (const auto& measured : kHipKittensReads) {
    const int banks =
        swz::hipkittens::read_bank_count(hipkittens_core_file(std::string(measured.directory) + "/bank_results.txt"));
    EXPECT_EQ(first_wrap(gfx950, measured, 2 * banks), banks) << measured.directory;
  }
}

// HipKittens measured gfx950's ds_write_b64 on 32 banks in 4 phases of 16 lanes
// (ds_write_b64/bank_results.txt, phase_results.txt), not on the 64 banks and 2 phases of 32 that
// Triton's rule (PR #9662) and every gfx950 read give: the GPU table states the instruction's own
// banks and phases, so every pair of lanes conflicts as measured and the wrap is at bank 32.
TEST(HipKittensOnCore, Gfx950WriteB64PairConflictsAndBankWrapAreTheMeasuredOnes) {
  const swz::GpuModel& gfx950 = swz::gpu_named("gfx950");
  const int banks = swz::hipkittens::read_bank_count(hipkittens_core_file("ds_write_b64/bank_results.txt"));
  EXPECT_EQ(banks, 32);
  EXPECT_EQ(pairs_differing(gfx950, kHipKittensWrite), 0) << "of 2016 pairs";
  EXPECT_EQ(first_wrap(gfx950, kHipKittensWrite, 2 * banks + 32), banks);
}

}  // namespace
