// The solver under AMD's LDS phases (gpu.h): ds_read_b128 serves cosets of lane bits, not runs
// (Triton PR #11365), and the answers are conflict-free as serve() counts them there.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "swz/algebra/lemma.h"
#include "swz/layout/factories.h"
#include "swz/sim/gpu.h"
#include "swz/solve/solver.h"

namespace swz {
namespace {

struct AmdTile {
  std::string name;
  Access writer, reader;
  int element_bits;
};

// 64-lane tiles in several widths and shapes: 128-bit row copies in with lanes along the rows,
// 128-bit row reads out with lanes down the columns (a thread order an MFMA operand read has),
// so the reads are ds_read_b128, whose phases are the cosets.
std::vector<AmdTile> amd_tiles() {
  std::vector<AmdTile> tiles;
  for (int ebits : {8, 16, 32})
    for (auto [rows, cols, warps] :
         {std::tuple<std::int64_t, std::int64_t, std::int64_t>{64, 64, 1}, {128, 128, 4}, {32, 128, 2}}) {
      const std::int64_t v = 128 / ebits;
      const std::vector<std::int64_t> shape{rows, cols};
      const std::int64_t along_row = std::min<std::int64_t>(64, cols / v), down_column = std::min<std::int64_t>(64, rows);
      Access writer{blocked({1, v}, {64 / along_row, along_row}, {warps, 1}, {1, 0}, shape), AccessKind::Store, 0, 128};
      Access reader{blocked({1, v}, {down_column, 64 / down_column}, {1, warps}, {0, 1}, shape), AccessKind::Load, 0, 128};
      tiles.push_back({fmt::format("{}x{} {}-bit, {} warps", rows, cols, ebits, warps), writer, reader, ebits});
    }
  // A 32x64 fp16 read whose lane 16 moves four 16-byte chunks along the row where lane 4 moves
  // four rows down: gfx942's phase span(l0, l1, l2^l4) holds rows 0-3 and rows 4-7 four chunks
  // over, so the usual swizzle (chunk ^= row mod 8) serves lanes 4 and 16 from one bank.
  const std::vector<std::int64_t> shape{32, 64};
  Access writer{distributed(shape, {{0, 1}, {0, 2}, {0, 4}, {8, 0}, {16, 0}}, {{0, 8}, {0, 16}, {0, 32}, {1, 0}, {2, 0}, {4, 0}}),
                AccessKind::Store, 0, 128};
  Access reader{distributed(shape, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 32}, {16, 0}}),
                AccessKind::Load, 0, 128};
  tiles.push_back({"32x64 16-bit, lane 16 along the row", writer, reader, 16});
  return tiles;
}

// chunk ^= row mod 8 on a 32x64 fp16 tile (8 chunks of 8 elements a 128-byte row).
SharedLayout row_xor_swizzle() { return triton_swizzled(/*vec=*/8, /*per_phase=*/1, /*max_phase=*/8, {1, 0}, {32, 64}); }

TEST(AmdPhasesSolver, AnswersAreConflictFreeUnderCosetPhases) {
  int solved = 0;
  for (const char* gpu : {"gfx942", "gfx950"}) {
    const BankModel model = gpu_named(gpu).bank;
    for (const AmdTile& t : amd_tiles()) {
      SCOPED_TRACE(fmt::format("{} {}", gpu, t.name));
      const SolveResult r = solve(t.writer, t.reader, t.element_bits, model);
      const AccessResult wa = simulate(r.writer, r.shared, t.element_bits, model);
      const AccessResult rb = simulate(r.reader, r.shared, t.element_bits, model);
      EXPECT_EQ(rb.vector.bits, 128);
      EXPECT_EQ(r.read_cost.instruction, "DS_READ_B128");
      EXPECT_EQ(r.write_cost.instruction, "DS_WRITE_B128");
      EXPECT_TRUE(r.conflict_free);
      EXPECT_EQ(wa.wavefronts, wa.ideal_wavefronts);
      EXPECT_EQ(rb.wavefronts, rb.ideal_wavefronts);
      EXPECT_EQ(rb.ideal_wavefronts, std::string(gpu) == "gfx942" ? 8 : 4);
      // The lemma, on the table, agrees with serve().
      EXPECT_EQ(predict(r.reader, r.shared, t.element_bits, model, 128).predicted_wavefronts, rb.wavefronts);
      ++solved;
    }
  }
  EXPECT_GE(solved, 12);
}

// The last tile under the usual swizzle: conflict-free in runs of 8 lanes, 2-way on gfx942's
// cosets. A solver that assumed runs could answer with it; the test above holds the solver to the cosets.
TEST(AmdPhasesSolver, RunsAssumedWouldConflictOnGfx942) {
  const AmdTile t = amd_tiles().back();
  BankModel runs;  // NVIDIA's rule at 32 banks and 64 lanes: ds_read_b128 in runs of 8 lanes
  runs.warp_size = 64;
  const AccessResult in_runs = simulate(t.reader, row_xor_swizzle(), 16, runs);
  EXPECT_EQ(in_runs.wavefronts, in_runs.ideal_wavefronts);
  const AccessResult on_gfx942 = simulate(t.reader, row_xor_swizzle(), 16, gpu_named("gfx942").bank);
  EXPECT_EQ(on_gfx942.ideal_wavefronts, 8);
  EXPECT_EQ(on_gfx942.wavefronts, 16);
}

// gfx950's ds_write_b64 is served on 32 banks in 4 phases of 16 lanes (HipKittens'
// ds_write_b64 tables, measured; gpu.cpp). A writer held to 64-bit vectors is priced there by
// the solver, and its price is what serve() counts and what the lemma predicts: 4 phases, not
// the 2 of 32 lanes Triton's 64-bank rule gives.
TEST(AmdPhasesSolver, Gfx950EightByteWritesArePricedOnThirtyTwoBanks) {
  const BankModel model = gpu_named("gfx950").bank;
  SolveOptions options;
  options.write_vec_bits = 64;
  for (const AmdTile& t : amd_tiles()) {
    SCOPED_TRACE(t.name);
    Access writer = t.writer;
    writer.vec_bits = 64;
    const SolveResult r = solve(writer, t.reader, t.element_bits, model, options);
    const AccessResult wa = simulate(r.writer, r.shared, t.element_bits, model);
    EXPECT_EQ(r.write_cost.instruction, "DS_WRITE_B64");
    EXPECT_EQ(wa.ideal_wavefronts, 4);
    EXPECT_EQ(r.write_cost.wavefronts, wa.wavefronts);
    EXPECT_EQ(r.claimed_write_wavefronts, wa.wavefronts);
    EXPECT_EQ(predict(r.writer, r.shared, t.element_bits, model, 64).predicted_wavefronts, wa.wavefronts);
  }
}

}  // namespace
}  // namespace swz
