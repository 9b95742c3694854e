// The solver's speed: one construction on layouts up to 16 address bits (< 100 us),
// the same with the simulator's check, and the seed's family count (< 10 ms).
#include <benchmark/benchmark.h>

#include "swz/factories.h"
#include "swz/solver.h"

namespace {

// A 128-bit row copy against a 128-bit column read of a 2^bits-element fp16 tile, 4 warps.
std::pair<swz::Access, swz::Access> transpose(int bits) {
  const std::int64_t rows = std::int64_t{1} << (bits / 2), cols = std::int64_t{1} << (bits - bits / 2);
  const std::vector<std::int64_t> shape{rows, cols};
  const std::int64_t t1 = std::min<std::int64_t>(32, cols / 8), t0 = 32 / t1;
  const std::int64_t u1 = std::min<std::int64_t>(32, rows / 8), u0 = 32 / u1;
  return {swz::Access{swz::blocked({1, 8}, {t0, t1}, {4, 1}, {1, 0}, shape), swz::AccessKind::Store, 0, 0},
          swz::Access{swz::blocked({8, 1}, {u1, u0}, {1, 4}, {0, 1}, shape), swz::AccessKind::Load, 0, 0}};
}

void BM_Construct(benchmark::State& state) {
  const auto [a, b] = transpose(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(swz::construct(a, b, 16, swz::BankModel{}));
}
BENCHMARK(BM_Construct)->Arg(12)->Arg(14)->Arg(16)->Unit(benchmark::kMicrosecond);

void BM_ConstructSeed(benchmark::State& state) {
  const auto p = swz::make_preset("transpose16x32");
  for (auto _ : state) benchmark::DoNotOptimize(swz::construct(p.store, p.read, p.element_bits, p.bank));
}
BENCHMARK(BM_ConstructSeed)->Unit(benchmark::kMicrosecond);

void BM_SolveChecked(benchmark::State& state) {
  const auto [a, b] = transpose(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(swz::solve(a, b, 16, swz::BankModel{}));
}
BENCHMARK(BM_SolveChecked)->Arg(12)->Arg(16)->Unit(benchmark::kMicrosecond);

void BM_SeedFamilySize(benchmark::State& state) {
  const auto p = swz::make_preset("transpose16x32");
  for (auto _ : state) benchmark::DoNotOptimize(swz::family_size(p));
}
BENCHMARK(BM_SeedFamilySize)->Unit(benchmark::kMillisecond);

}  // namespace
