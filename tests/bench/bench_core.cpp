#include <benchmark/benchmark.h>
#include "swz/analysis.h"
static void BM_AnalyzeSeed(benchmark::State& state) {
  auto p = swz::make_preset("transpose16x32");
  for (auto _ : state) benchmark::DoNotOptimize(swz::analyze(p));
}
BENCHMARK(BM_AnalyzeSeed);
