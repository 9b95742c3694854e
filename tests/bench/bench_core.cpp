// Benchmarks of the core engine: analyze, conflicts (one access), sweep.
#include <filesystem>

#include <benchmark/benchmark.h>

#include "swz/sim/analysis.h"
#include "swz/sim/corpus.h"
#include "swz/layout/factories.h"
#include "swz/sim/sweep.h"

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

// The whole 2^20 sweep of the seed's toggle grid: brute force + lemma for every configuration, both sides.
void BM_SweepSeed(benchmark::State& state) {
  const swz::Problem p = swz::make_preset("transpose16x32");
  const int threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    const swz::SweepResult r = swz::sweep(p, {}, threads);
    if (r.read.lemma_agrees != r.configs || r.write.lemma_agrees != r.configs) state.SkipWithError("lemma disagreed");
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_SweepSeed)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

// The same sweep on one thread with the bank-counting kernel capped: 0 scalar, 1 AVX2, 2 AVX-512
// (a kernel the CPU lacks is reported as skipped).
void BM_SweepSeedKernel(benchmark::State& state) {
  const swz::Problem p = swz::make_preset("transpose16x32");
  const auto kernel = static_cast<swz::SweepKernel>(state.range(0));
  swz::set_sweep_kernel(kernel);
  if (swz::sweep_kernel() != kernel) {
    swz::set_sweep_kernel(swz::SweepKernel::Auto);
    state.SkipWithError("kernel not supported by this CPU");
    return;
  }
  for (auto _ : state) {
    const swz::SweepResult r = swz::sweep(p, {}, 1);
    if (r.read.lemma_agrees != r.configs || r.write.lemma_agrees != r.configs) state.SkipWithError("lemma disagreed");
    benchmark::DoNotOptimize(r);
  }
  swz::set_sweep_kernel(swz::SweepKernel::Auto);
}
BENCHMARK(BM_SweepSeedKernel)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

// Replaying the measured corpus: every case through serve() (target: 5,000 cases well under a second).
void BM_ReplayCorpus(benchmark::State& state) {
  std::vector<swz::CorpusCase> cases;
  for (const auto& e : std::filesystem::directory_iterator(SWZ_BENCH_CORPUS_DIR))
    if (e.path().extension() == ".jsonl")
      for (auto& c : swz::read_corpus_file(e.path().string())) cases.push_back(std::move(c));
  cases.resize(std::min<std::size_t>(cases.size(), 5000));
  for (auto _ : state) {
    swz::ReplayReport r;
    swz::replay_into(r, cases, swz::BankModel{});
    benchmark::DoNotOptimize(r.all.agree);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(cases.size()));
}
BENCHMARK(BM_ReplayCorpus)->Unit(benchmark::kMillisecond);

}  // namespace
