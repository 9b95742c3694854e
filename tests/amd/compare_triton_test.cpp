// The core's AMD LDS model (serve() on gfx942 and gfx950) against Triton's own computation
// (triton_lds.h) on random cases. Every disagreement must carry an explanation that is checked on
// the case itself (the case recomputed under the rule the explanation names gives the core's
// count), else the test fails and prints the case.
//
// Cases: 2 GPUs x 3 widths (32/64/128 bits) x reads and writes x 100 = 1,200; half are linear
// layouts (random lane bases, priced by Triton's F2 formula, ds_read_b128 with PR #11365's lane
// tiles), half raw lane addresses (Triton's phase grouping, some lanes inactive). Two other
// readings of Triton for ds_read_b128 are tallied beside: the unit test's laneAddr indices and the
// default contiguous tile (bankConflictsMemDesc without a tile).
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <random>
#include <string>

#include "swz/sim/gpu.h"
#include "swz/sim/warp_access.h"
#include "triton_lds.h"

namespace {

struct AmdComparison {
  int cases = 0, agree = 0;
  std::map<std::string, int> explained;  // reason -> cases
  std::map<std::string, int> variants;   // other reading of Triton -> cases where it differs from the core, all explained
  std::vector<std::string> unexplained;
};

constexpr int kCompareLdsBytes = 65536;  // both GPUs have at least 64 KiB of LDS

std::int64_t aligned_random(std::mt19937_64& rng, int bytes) {
  return static_cast<std::int64_t>(rng() % (kCompareLdsBytes / bytes)) * bytes;
}

// Why the core's count differs from Triton's, when a stated rule reproduces the core on this case.
std::string explain(const swz::WarpRequest& request, const swz::GpuModel& gpu, int bits, int core) {
  const bool read = request.kind.op == swz::WarpOp::Load;
  if (bits == 128 && read && swz::triton_lds::phase_wavefronts(request.address, 128, gpu.bank.banks, true) == core)
    return "ds_read_b128 priced in contiguous lanes or at `lane & mask`; the hardware serves cosets of "
           "span(l0, l1, l2^l4) (gfx942) / span(l0, l1, l2^l3, l2^l4) (gfx950): Triton PR #11365's phase lists, "
           "HipKittens' measured gfx950 table";
  if (gpu.name == "gfx950" && bits == 64 && !read && swz::triton_lds::phase_wavefronts(request.address, 64, 32, false) == core)
    return "gfx950 ds_write_b64: Triton prices every access on 64 banks; HipKittens measured 32 banks and 4 phases of 16 lanes";
  return "";
}

void compare_case(AmdComparison& tally, const swz::GpuModel& gpu, swz::WarpOp op, int bits, std::mt19937_64& rng, bool linear) {
  const int bytes = bits / 8;
  const int banks = gpu.bank.banks;
  const bool b128_read = bits == 128 && op == swz::WarpOp::Load;
  swz::WarpRequest request;
  request.kind.op = op;
  request.kind.bytes = bytes;
  int triton = 0;
  std::map<std::string, int> variant_counts;
  if (linear) {
    swz::triton_lds::TritonAccess access{{}, bits, banks, {}};
    for (int i = 0; i < 6; ++i)  // under 32 KiB, so XORs with the offset stay under 64 KiB
      access.lane_bases.push_back(rng() % 6 == 0 ? 0 : aligned_random(rng, bytes) % (kCompareLdsBytes / 2));
    const std::int64_t offset = aligned_random(rng, bytes) % (kCompareLdsBytes / 2);
    for (int lane = 0; lane < 64; ++lane)
      request.address.push_back(swz::triton_lds::linear_address(access.lane_bases, lane) ^ offset);
    if (b128_read) {
      variant_counts["Triton without a lane tile (contiguous runs)"] = swz::triton_lds::triton_wavefronts(access);
      access.lane_tile = swz::triton_lds::unit_test_b128_tile(banks);
      variant_counts["Triton's unit-test laneAddr {l0, l1, l4} / {l0, l1, l3, l4}"] = swz::triton_lds::triton_wavefronts(access);
      access.lane_tile = swz::triton_lds::pr11365_b128_tile(banks);
    }
    triton = swz::triton_lds::triton_wavefronts(access);
  } else {
    const int distinct = 1 + static_cast<int>(rng() % 64);
    std::vector<std::int64_t> pool;
    for (int i = 0; i < distinct; ++i) pool.push_back(aligned_random(rng, bytes));
    for (int lane = 0; lane < 64; ++lane) request.address.push_back(rng() % 8 == 0 ? -1 : pool[rng() % pool.size()]);
    triton = swz::triton_lds::phase_wavefronts(request.address, bits, banks, op == swz::WarpOp::Load);
  }
  const int core = swz::serve(request, gpu.bank).wavefronts;
  ++tally.cases;
  for (const auto& [variant, count] : variant_counts)
    if (count != core) {
      if (explain(request, gpu, bits, core).empty())
        tally.unexplained.push_back(gpu.name + " " + variant + ": core " + std::to_string(core) + ", " + std::to_string(count));
      ++tally.variants[variant];
    }
  if (core == triton) {
    ++tally.agree;
    return;
  }
  if (const std::string reason = explain(request, gpu, bits, core); !reason.empty()) {
    ++tally.explained[reason];
    return;
  }
  std::string addresses;
  for (auto a : request.address) addresses += std::to_string(a) + " ";
  tally.unexplained.push_back(gpu.name + " " + gpu.instruction_name(request.kind) + (linear ? " (linear)" : " (raw)") +
                              ": core " + std::to_string(core) + ", Triton " + std::to_string(triton) + "; addresses " +
                              addresses);
}

TEST(AmdVersusTriton, TwelveHundredRandomCasesAgreeOrAreExplained) {
  std::mt19937_64 rng(43);
  AmdComparison tally;
  for (const char* name : {"gfx942", "gfx950"}) {
    const swz::GpuModel& gpu = swz::gpu_named(name);
    for (int bits : {32, 64, 128})
      for (swz::WarpOp op : {swz::WarpOp::Load, swz::WarpOp::Store})
        for (int i = 0; i < 100; ++i) compare_case(tally, gpu, op, bits, rng, /*linear=*/i % 2 == 0);
  }
  std::cout << "AMD vs Triton: " << tally.cases << " cases, " << tally.agree << " agree";
  for (const auto& [reason, count] : tally.explained) std::cout << "\n  explained (" << count << "): " << reason;
  for (const auto& [variant, count] : tally.variants)
    std::cout << "\n  " << variant << " differs on " << count << " linear ds_read_b128 cases";
  std::cout << "\n  unexplained: " << tally.unexplained.size() << "\n";
  for (const auto& line : tally.unexplained) ADD_FAILURE() << line;
  EXPECT_EQ(tally.cases, 1200);
  EXPECT_GE(tally.agree, tally.cases / 2);
}

}  // namespace
