// The sweep: every toggle grid of a preset, its own fast evaluation held against
// swz::simulate and swz::predict, and the exact counts of the seed and the toy GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "swz/sim/analysis.h"
#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/problem/problem.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/sweep.h"
#include "swz/solve/solver.h"

namespace {

TEST(Sweep, SeedPresetEveryGrid) {
  const swz::Problem p = swz::make_preset("transpose16x32");
  std::int64_t last_done = -1, last_total = -1;
  bool monotone = true;
  const swz::SweepResult r = swz::sweep(p, [&](std::int64_t done, std::int64_t total) {
    monotone = monotone && done >= last_done && done <= total;
    last_done = done;
    last_total = total;
  });
  EXPECT_EQ(r.configs, std::int64_t{1} << 20);
  EXPECT_EQ(r.read.lemma_agrees, std::int64_t{1} << 20);
  EXPECT_EQ(r.read.conflict_free, 322560);
  const std::map<int, std::int64_t> want{{1, 322560}, {2, 604800}, {4, 117600}, {8, 3600}, {16, 16}};
  EXPECT_EQ(r.read.histogram, want);
  EXPECT_TRUE(r.read.first_disagreement.empty());
  EXPECT_TRUE(r.read.path.fast);
  EXPECT_GE(r.threads, 1);
  EXPECT_TRUE(monotone);
  if (last_total >= 0) EXPECT_EQ(last_total, r.configs);
}

TEST(Sweep, ToyGpuEveryGrid) {
  // Column reads of the 8x8 toy tile are conflict-free iff the three masks are independent:
  // |GL(3, 2)| = 168; otherwise 2^(3 - rank).
  const swz::SweepResult r = swz::sweep(swz::make_preset("toy8x8"), {}, 1);
  EXPECT_EQ(r.configs, 512);
  EXPECT_EQ(r.read.conflict_free, 168);
  EXPECT_EQ(r.read.lemma_agrees, 512);
  EXPECT_EQ(r.read.histogram, (std::map<int, std::int64_t>{{1, 168}, {2, 294}, {4, 49}, {8, 1}}));
}

TEST(Sweep, ThreadCountDoesNotChangeTheAnswer) {
  const swz::Problem p = swz::make_preset("ldmatrix_a_fp16");
  const swz::SweepResult one = swz::sweep(p, {}, 1);
  const swz::SweepResult two = swz::sweep(p, {}, 2);
  EXPECT_EQ(one.configs, std::int64_t{1} << p.grid->configs_log2());
  EXPECT_EQ(one.configs, two.configs);
  EXPECT_EQ(one.read.histogram, two.read.histogram);
  EXPECT_EQ(one.read.conflict_free, two.read.conflict_free);
  EXPECT_EQ(one.read.lemma_agrees, one.configs);
  EXPECT_EQ(two.read.lemma_agrees, two.configs);
}

TEST(Sweep, MasksOfConfigAreRowMajorAboveTheVectorBits) {
  const swz::Problem seed = swz::make_preset("transpose16x32");
  // Row bit j owns index bits 5j..5j+4.
  EXPECT_EQ(swz::masks_of_config(*seed.grid, 0), (std::vector<std::uint32_t>{0, 0, 0, 0}));
  EXPECT_EQ(swz::masks_of_config(*seed.grid, 0x8A3C1), (std::vector<std::uint32_t>{0x8A3C1 & 31, (0x8A3C1 >> 5) & 31,
                                                                                    (0x8A3C1 >> 10) & 31, (0x8A3C1 >> 15) & 31}));
  // tma128_fp16: 6 row bits, columns 3..5 toggleable (the 8-element vector stays put).
  const swz::Problem tma = swz::make_preset("tma128_fp16");
  const auto m = swz::masks_of_config(*tma.grid, 0b000'000'000'100'010'001);
  EXPECT_EQ(m, (std::vector<std::uint32_t>{8, 16, 32, 0, 0, 0}));
  EXPECT_EQ(tma.layout_for_masks(m), swz::tma_swizzle(128, {64, 64}, 16));
}

// Random configurations of a grid preset: the sweep's evaluation equals swz::simulate and
// swz::predict on the layout those masks describe.
void expect_evaluation_matches(const char* preset, int samples) {
  const swz::Problem p = swz::make_preset(preset);
  ASSERT_TRUE(p.grid.has_value()) << preset;
  std::mt19937_64 rng(99);
  const std::uint64_t configs = std::uint64_t{1} << p.grid->configs_log2();
  for (int i = 0; i < samples; ++i) {
    const std::uint64_t index = i == 0 ? 0 : i == 1 ? configs - 1 : rng() % configs;
    const auto masks = swz::masks_of_config(*p.grid, index);
    const swz::SharedLayout s = p.layout_for_masks(masks);
    const swz::AccessAnalysis a = swz::analyze_access(p.read, s, p.element_bits, p.bank);
    const auto [wavefronts, predicted] = swz::sweep_evaluate(p, masks);
    ASSERT_EQ(wavefronts, a.simulated.wavefronts) << preset << " " << swz::format_masks(masks);
    ASSERT_EQ(predicted, a.lemma.applies ? a.lemma.predicted_wavefronts : -1) << preset << " " << swz::format_masks(masks);
  }
}

TEST(Sweep, EvaluationEqualsSimulatorOnSeed) { expect_evaluation_matches("transpose16x32", 3000); }
TEST(Sweep, EvaluationEqualsSimulatorOnToy) { expect_evaluation_matches("toy8x8", 512); }
TEST(Sweep, EvaluationEqualsSimulatorOnLdmatrixPresets) {
  expect_evaluation_matches("tma128_fp16", 200);
  expect_evaluation_matches("ldmatrix_a_fp16", 200);
}
TEST(Sweep, EvaluationEqualsSimulatorOnProductionPresets) {
  // The production presets whose grids a sweep enumerates (at most 2^24 configurations).
  for (const char* preset : {"transpose128_fp8_4w", "mma_to_blocked_fp16", "blocked_to_mma_a_fp16"}) {
    ASSERT_LE(swz::make_preset(preset).grid->configs_log2(), swz::kMaxSweepBits) << preset;
    expect_evaluation_matches(preset, 12);
  }
}

// The bank-counting kernels the CPU has (the scalar one always) give the same sweep.
TEST(Sweep, EveryKernelGivesTheSameSweep) {
  const swz::SweepKernel widest = swz::sweep_kernel();
  for (const char* preset : {"toy8x8", "ldmatrix_a_fp16", "tma128_fp16", "transpose16x32"}) {
    const swz::Problem p = swz::make_preset(preset);
    swz::set_sweep_kernel(swz::SweepKernel::Auto);
    const swz::SweepResult want = swz::sweep(p, {}, 2);
    for (const swz::SweepKernel k : {swz::SweepKernel::Scalar, swz::SweepKernel::Avx2, swz::SweepKernel::Avx512}) {
      if (k > widest) continue;
      swz::set_sweep_kernel(k);
      EXPECT_EQ(swz::sweep_kernel(), k);
      for (int threads : {1, 3}) {
        const swz::SweepResult got = swz::sweep(p, {}, threads);
        EXPECT_EQ(got.read.histogram, want.read.histogram)
            << preset << " kernel " << static_cast<int>(k) << " threads " << threads;
        EXPECT_EQ(got.read.conflict_free, want.read.conflict_free) << preset;
        EXPECT_EQ(got.read.lemma_agrees, got.configs) << preset;
        EXPECT_EQ(got.read.first_disagreement, want.read.first_disagreement) << preset;
      }
    }
  }
  swz::set_sweep_kernel(swz::SweepKernel::Auto);
  EXPECT_EQ(swz::sweep_kernel(), widest);
}

TEST(Sweep, EvaluationEqualsSimulatorWithEveryKernel) {
  const swz::SweepKernel widest = swz::sweep_kernel();
  for (const swz::SweepKernel k : {swz::SweepKernel::Scalar, swz::SweepKernel::Avx2, swz::SweepKernel::Avx512}) {
    if (k > widest) continue;
    swz::set_sweep_kernel(k);
    expect_evaluation_matches("transpose16x32", 300);
    expect_evaluation_matches("toy8x8", 64);
    expect_evaluation_matches("tma128_fp16", 40);
    expect_evaluation_matches("mma_to_blocked_fp16", 4);
  }
  swz::set_sweep_kernel(swz::SweepKernel::Auto);
}

// Other bank counts: up to 32 banks each instruction's banks are one 32-bit word of every
// kernel's vectors, with 64 one 64-bit word. Every kernel the CPU has (the portable one
// always) gives the counts the first version of the sweep gave.
TEST(Sweep, EveryKernelOnOtherBankCounts) {
  struct Case {
    const char* preset;
    int banks;
    std::int64_t conflict_free;
    std::map<int, std::int64_t> histogram;
  };
  const std::vector<Case> cases{
      {"transpose16x32", 64, 645120, {{1, 645120}, {2, 376320}, {4, 26880}, {8, 256}}},
      {"transpose16x32", 16, 322560, {{2, 322560}, {4, 604800}, {8, 117600}, {16, 3600}, {32, 16}}},
      {"transpose16x32", 8, 344064, {{4, 344064}, {8, 602112}, {16, 100352}, {32, 2048}}},
      // ldmatrix.x4 on 64 banks: a wavefront moves 256 bytes, two 8x8 matrices, so the ideal is
      // 512 / 256 = 2 (it was 4 when a phase was one matrix whatever the banks).
      {"ldmatrix_a_fp16", 64, 1536, {{2, 1536}, {4, 2304}, {8, 256}}},
      {"toy8x8", 64, 512, {{1, 512}}},
  };
  const swz::SweepKernel widest = swz::sweep_kernel();
  for (const Case& c : cases) {
    swz::ProblemSpec spec;
    spec.preset = c.preset;
    spec.banks = c.banks;
    const swz::Problem p = swz::build_problem(spec);
    for (const swz::SweepKernel k : {swz::SweepKernel::Scalar, swz::SweepKernel::Avx2, swz::SweepKernel::Avx512}) {
      if (k > widest) continue;
      swz::set_sweep_kernel(k);
      const swz::SweepResult r = swz::sweep(p, {}, 2);
      EXPECT_TRUE(r.read.path.fast) << c.preset << " banks " << c.banks;
      EXPECT_EQ(r.read.conflict_free, c.conflict_free) << c.preset << " banks " << c.banks << " kernel " << static_cast<int>(k);
      EXPECT_EQ(r.read.histogram, c.histogram) << c.preset << " banks " << c.banks << " kernel " << static_cast<int>(k);
      EXPECT_EQ(r.read.lemma_agrees, r.configs) << c.preset << " banks " << c.banks << " kernel " << static_cast<int>(k);
    }
  }
  swz::set_sweep_kernel(swz::SweepKernel::Auto);
}

// The preset's writer and reader given as layouts, as `--src A.json --dst B.json` gives them:
// a custom problem (no ldmatrix: a reader given as a layout is a plain LDS).
swz::Problem custom_of(const swz::Problem& preset) {
  swz::ProblemSpec spec;
  spec.preset = "";
  spec.element_bits = preset.element_bits;
  spec.banks = preset.bank.banks;
  spec.warp_size = preset.bank.warp_size;
  spec.writer = swz::SpecLayout{preset.store.layout, "writer"};
  spec.reader = swz::SpecLayout{preset.read.layout, "reader"};
  return swz::build_problem(spec);
}

// What "conflict-free" counts is one definition (AccessSides) in the sweep and the family
// count: reads, writes, both. Where the lemma agrees with the simulator on every
// configuration, the simulated counts equal the algebra's, side by side, on presets and on
// custom problems.
TEST(Sweep, ConflictFreeCountsAgreeWithFamilySize) {
  for (const char* preset : {"toy8x8", "transpose16x32", "ldmatrix_a_fp16", "tma128_fp16", "mma_to_blocked_fp16"}) {
    const swz::Problem base = swz::make_preset(preset);
    for (const swz::Problem& p : {base, custom_of(base)}) {
      SCOPED_TRACE(std::string(preset) + (p.name == "custom" ? " as a custom problem" : ""));
      ASSERT_TRUE(p.grid.has_value());
      const swz::SweepResult r = swz::sweep(p, {}, 2);
      ASSERT_EQ(r.read.lemma_agrees, r.configs);
      ASSERT_EQ(r.write.lemma_agrees, r.configs);
      EXPECT_LE(r.conflict_free_both, std::min(r.read.conflict_free, r.write.conflict_free));
      for (const swz::AccessSides sides : {swz::AccessSides::Read, swz::AccessSides::Write, swz::AccessSides::Both})
        EXPECT_EQ(static_cast<std::uint64_t>(r.conflict_free(sides)), swz::family_size(p, sides)) << swz::sides_name(sides);
    }
  }
}

// Both sides are counted: the seed's writer (row by row) is conflict-free under every mask
// set, so both = the reads'; the family of `swizzle solve` is that count.
TEST(Sweep, SeedCountsBothSides) {
  const swz::SweepResult r = swz::sweep(swz::make_preset("transpose16x32"), {}, 2);
  EXPECT_EQ(r.write.conflict_free, r.configs);
  EXPECT_EQ(r.write.histogram, (std::map<int, std::int64_t>{{1, r.configs}}));
  EXPECT_EQ(r.write.ideal_wavefronts, 1);
  EXPECT_EQ(r.conflict_free_both, 322560);
  EXPECT_EQ(r.conflict_free(swz::AccessSides::Both), 322560);
}

// The fast path's preconditions are the access's geometry, not the preset: the same layouts
// given as a custom problem take the same path (the 128-bit LDS reader of the custom
// problem pairs no lanes, so no phase can widen) and count the same.
TEST(Sweep, CustomProblemTakesThePresetsPath) {
  for (const char* preset : {"transpose16x32", "tma128_fp16", "ldmatrix_a_fp16", "mma_to_blocked_fp16"}) {
    SCOPED_TRACE(preset);
    const swz::Problem base = swz::make_preset(preset);
    const swz::Problem custom = custom_of(base);
    const swz::SweepProjection want = swz::sweep_projection(base), got = swz::sweep_projection(custom);
    EXPECT_TRUE(got.read.fast) << got.read.reason;
    EXPECT_TRUE(got.write.fast) << got.write.reason;
    EXPECT_EQ(got.read.fast, want.read.fast);
    EXPECT_EQ(got.write.fast, want.write.fast);
    EXPECT_EQ(got.seconds, 0.0);  // nothing projected: the fast path is not timed ahead
    const swz::SweepResult a = swz::sweep(base, {}, 2), b = swz::sweep(custom, {}, 2);
    EXPECT_TRUE(b.fast_path);
    EXPECT_EQ(a.fast_path, b.fast_path);
    EXPECT_EQ(a.read.histogram, b.read.histogram);
    EXPECT_EQ(a.write.histogram, b.write.histogram);
    EXPECT_EQ(a.conflict_free_both, b.conflict_free_both);
  }
}

// Each side's evaluation equals swz::simulate on that side, on a custom problem's fast path too.
TEST(Sweep, EvaluationEqualsSimulatorOnBothSidesOfCustomProblems) {
  for (const char* preset : {"tma128_fp16", "mma_to_blocked_fp16", "transpose16x32"}) {
    const swz::Problem p = custom_of(swz::make_preset(preset));
    std::mt19937_64 rng(7);
    const std::uint64_t configs = std::uint64_t{1} << p.grid->configs_log2();
    for (int i = 0; i < 40; ++i) {
      const auto masks = swz::masks_of_config(*p.grid, rng() % configs);
      const swz::SharedLayout s = p.layout_for_masks(masks);
      EXPECT_EQ(swz::sweep_evaluate(p, masks, swz::AccessSides::Read).first,
                swz::simulate(p.read, s, p.element_bits, p.bank).wavefronts) << preset << " " << swz::format_masks(masks);
      EXPECT_EQ(swz::sweep_evaluate(p, masks, swz::AccessSides::Write).first,
                swz::simulate(p.store, s, p.element_bits, p.bank).wavefronts) << preset << " " << swz::format_masks(masks);
    }
  }
  EXPECT_THROW(swz::sweep_evaluate(swz::make_preset("toy8x8"), {}, swz::AccessSides::Both), swz::Error);
}

// A problem that truly cannot take the fast path (sub-word read vectors) says why, and its
// time is projected before it starts from a sample of configurations.
TEST(Sweep, ProjectionOfASlowProblem) {
  swz::ProblemSpec spec;
  spec.preset = "transpose16x32";
  spec.shape = {8, 16};
  spec.element_bits = 16;
  const swz::Problem p = swz::build_problem(spec);
  ASSERT_TRUE(p.grid.has_value());
  const swz::SweepProjection pr = swz::sweep_projection(p, 1);
  EXPECT_FALSE(pr.read.fast);
  EXPECT_NE(pr.read.reason.find("16-bit vectors"), std::string::npos) << pr.read.reason;
  EXPECT_EQ(pr.threads, 1);
  EXPECT_EQ(pr.configs, std::int64_t{1} << p.grid->configs_log2());
  EXPECT_GT(pr.seconds, 0.0);
}

TEST(Sweep, RefusesWhatItCannotEnumerate) {
  EXPECT_THROW(swz::sweep(swz::make_preset("cute8x8")), swz::Error);
  // 128x128 transposes have 7 row bits x 7 columns: 2^49 grids, past the limit.
  const swz::Problem big = swz::make_preset("transpose128_fp32_4w");
  ASSERT_GT(big.grid->configs_log2(), swz::kMaxSweepBits);
  EXPECT_THROW(swz::sweep(big), swz::Error);
}

}  // namespace

// gfx950's ds_write_b64 is served on 32 banks in 4 phases of 16 lanes (HipKittens'
// ds_write_b64 tables, measured; gpu.cpp): the sweep counts its writes there, as the simulator
// does. Ideal: 4 phases (2 on 64 banks in phases of 32, Triton's rule). Unswizzled, the row copies
// put row bit m0 among a phase's lanes, and on 32 banks a 128-byte row is a whole segment: 2
// passes a phase, 8 in all.
TEST(Sweep, Gfx950WritesOfEightBytesCountOnThirtyTwoBanks) {
  swz::ProblemSpec spec;
  spec.shape = {64, 64};
  spec.element_bits = 16;
  spec.write_vec_bits = 64;
  spec.gpu = "gfx950";
  const swz::Problem p = swz::build_problem(spec);
  ASSERT_TRUE(p.grid.has_value());
  const swz::SharedLayout plain = p.layout_for_masks(std::vector<std::uint32_t>(static_cast<std::size_t>(p.grid->row_bits), 0));
  const swz::AccessResult write = swz::simulate(p.store, plain, p.element_bits, p.bank);
  EXPECT_EQ(write.vector.bits, 64);
  EXPECT_EQ(write.ideal_wavefronts, 4);
  EXPECT_EQ(write.wavefronts, 8);
  std::mt19937_64 rng(950);
  const std::uint64_t configs = std::uint64_t{1} << p.grid->configs_log2();
  for (int i = 0; i < 40; ++i) {
    const auto masks = swz::masks_of_config(*p.grid, i == 0 ? 0 : rng() % configs);
    EXPECT_EQ(swz::sweep_evaluate(p, masks, swz::AccessSides::Write).first,
              swz::simulate(p.store, p.layout_for_masks(masks), p.element_bits, p.bank).wavefronts)
        << swz::format_masks(masks);
  }
}
