// The solver's speed: the construction and its proof (bases only) on transposes
// of 2^12 .. 2^28 elements, the same with the simulator's check (every
// instruction up to 2^16 elements, a sample beyond), and the seed's family
// count. Targets (README): 16 address bits under 100 us, 24 bits under 50 ms
// and 64 MB, 28 bits under 1 s. Peak memory: run one benchmark alone
// (--benchmark_filter) and read its peak_rss_mb counter.
#include <sys/resource.h>

#include <benchmark/benchmark.h>

#include "swz/layout/factories.h"
#include "swz/solve/solver.h"

namespace {

// A 128-bit row copy against a 128-bit column read of a 2^bits-element fp16 tile (row- and
// column-contiguous blocked layouts), `warps` warps.
std::pair<swz::Access, swz::Access> transpose(int bits, std::int64_t warps) {
  const std::int64_t rows = std::int64_t{1} << (bits / 2), cols = std::int64_t{1} << (bits - bits / 2);
  const std::vector<std::int64_t> shape{rows, cols};
  const std::int64_t t1 = std::min<std::int64_t>(32, cols / 8), t0 = 32 / t1;
  const std::int64_t u1 = std::min<std::int64_t>(32, rows / 8), u0 = 32 / u1;
  return {swz::Access{swz::blocked({1, 8}, {t0, t1}, {warps, 1}, {1, 0}, shape), swz::AccessKind::Store, 0, 0},
          swz::Access{swz::blocked({8, 1}, {u1, u0}, {1, warps}, {0, 1}, shape), swz::AccessKind::Load, 0, 0}};
}

void peak_memory(benchmark::State& state) {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  state.counters["peak_rss_mb"] = static_cast<double>(u.ru_maxrss) / 1024.0;
}

void BM_Construct(benchmark::State& state) {
  const auto [a, b] = transpose(static_cast<int>(state.range(0)), 8);
  for (auto _ : state) benchmark::DoNotOptimize(swz::construct(a, b, 16, swz::BankModel{}));
  peak_memory(state);
}
BENCHMARK(BM_Construct)->Arg(12)->Arg(16)->Arg(24)->Arg(28)->Unit(benchmark::kMicrosecond);

void BM_ConstructSeed(benchmark::State& state) {
  const auto p = swz::make_preset("transpose16x32");
  for (auto _ : state) benchmark::DoNotOptimize(swz::construct(p.store, p.read, p.element_bits, p.bank));
}
BENCHMARK(BM_ConstructSeed)->Unit(benchmark::kMicrosecond);

// Solve = construct + the simulator's check (the whole table up to 2^16 elements, a sample beyond).
void BM_Solve(benchmark::State& state) {
  const auto [a, b] = transpose(static_cast<int>(state.range(0)), 8);
  for (auto _ : state) benchmark::DoNotOptimize(swz::solve(a, b, 16, swz::BankModel{}));
  peak_memory(state);
}
BENCHMARK(BM_Solve)->Arg(12)->Arg(16)->Arg(24)->Arg(28)->Unit(benchmark::kMicrosecond);

void BM_SeedFamilySize(benchmark::State& state) {
  const auto p = swz::make_preset("transpose16x32");
  for (auto _ : state) benchmark::DoNotOptimize(swz::family_size(p));
}
BENCHMARK(BM_SeedFamilySize)->Unit(benchmark::kMillisecond);

}  // namespace
