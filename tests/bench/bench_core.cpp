// Benchmarks of the core engine: analyze, conflicts (one access), sweep.
#include <benchmark/benchmark.h>

#include "swz/analysis.h"
#include "swz/factories.h"
#include "swz/sweep.h"

namespace {

void BM_AnalyzeSeed(benchmark::State& state) {
  swz::Problem p = swz::make_preset("transpose16x32");
  p.set_masks({2, 4, 8, 16});
  for (auto _ : state) benchmark::DoNotOptimize(swz::analyze(p));
}
BENCHMARK(BM_AnalyzeSeed)->Unit(benchmark::kMicrosecond);

void BM_AnalyzeTransposeFp16_4Warps(benchmark::State& state) {
  const swz::Problem p = swz::make_preset("transpose128_fp16_4w");
  for (auto _ : state) benchmark::DoNotOptimize(swz::analyze(p));
}
BENCHMARK(BM_AnalyzeTransposeFp16_4Warps)->Unit(benchmark::kMillisecond);

// `swizzle conflicts`: one access against one shared layout (ldmatrix.x4 under TMA 128B).
void BM_ConflictsLdmatrixTma128(benchmark::State& state) {
  const swz::Problem p = swz::make_preset("tma128_fp16");
  const swz::SharedLayout s = swz::tma_swizzle(128, {64, 64}, 16);
  for (auto _ : state) benchmark::DoNotOptimize(swz::analyze_access(p.read, s, 16, p.bank));
}
BENCHMARK(BM_ConflictsLdmatrixTma128)->Unit(benchmark::kMicrosecond);

// The whole 2^20 sweep of the seed's toggle grid: brute force + lemma for every configuration.
void BM_SweepSeed(benchmark::State& state) {
  const swz::Problem p = swz::make_preset("transpose16x32");
  const int threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    const swz::SweepResult r = swz::sweep(p, {}, threads);
    if (r.lemma_agrees != r.configs) state.SkipWithError("lemma disagreed");
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_SweepSeed)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace
