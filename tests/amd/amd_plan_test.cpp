// The AMD cases `swizzle calibrate --gpu` writes for lds_probe.hip (amd_corpus.h): the designed
// lane pairs read the published phases and bank counts lane by lane; random cases are the GPU's
// own; a line waits for its counters before it replays.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "swz/error.h"
#include "swz/sim/amd_corpus.h"
#include "swz/sim/gpu.h"

namespace {

using swz::AmdCorpusCase;

// The lanes that conflict with lane 0 in the designed family "pair 0-j @apart" of one instruction:
// the model's passes beyond the ideal, per pair.
std::set<int> plan_mates_of_lane0(const char* gpu_name, const char* instruction, int apart) {
  const swz::GpuModel& gpu = swz::gpu_named(gpu_name);
  std::set<int> mates;
  int pairs = 0;
  for (const AmdCorpusCase& c : swz::amd_designed_cases(gpu, swz::amd_probe_instructions_named(gpu, instruction))) {
    int lane = 0;
    if (std::sscanf(c.note.c_str(), "pair 0-%d @", &lane) != 1 ||
        c.note != "pair 0-" + std::to_string(lane) + " @" + std::to_string(apart))
      continue;
    ++pairs;
    const swz::Service s = swz::serve(c.request, gpu.bank);
    if (s.wavefronts > s.ideal) mates.insert(lane);
  }
  EXPECT_EQ(pairs, 63) << gpu_name << " " << instruction;
  return mates;
}

// Triton PR #11365: gfx942 serves ds_read_b128 in 8 phases of 8 lanes, lane 0's is {0-3, 20-23};
// gfx950 in 4 phases of 16 spanned by l0, l1, l2^l3, l2^l4 (lane 0's: 0-3, 12-15, 20-23, 24-27).
TEST(AmdPlan, DesignedPairsFindThePublishedPhaseOfLaneZero) {
  EXPECT_EQ(plan_mates_of_lane0("gfx942", "ds_read_b128", 256), (std::set<int>{1, 2, 3, 20, 21, 22, 23}));
  EXPECT_EQ(plan_mates_of_lane0("gfx950", "ds_read_b128", 256),
            (std::set<int>{1, 2, 3, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 26, 27}));
  // Triton PR #9662: 64-bit accesses in 4 phases of 16 lanes on gfx942 (32 banks).
  std::set<int> first16;
  for (int lane = 1; lane < 16; ++lane) first16.insert(lane);
  EXPECT_EQ(plan_mates_of_lane0("gfx942", "ds_read_b64", 256), first16);
}

// 128 bytes apart is one bank on 32 banks and two banks on 64: gfx942's 32-bit reads (2 phases of
// 32) conflict with every lane of lane 0's half; gfx950's reads wrap at 64 banks (HipKittens'
// measured wrap), so none of the pairs 128 bytes apart conflict there.
TEST(AmdPlan, PairsApartByHalfAWrapTellTheBankCount) {
  std::set<int> first32;
  for (int lane = 1; lane < 32; ++lane) first32.insert(lane);
  EXPECT_EQ(plan_mates_of_lane0("gfx942", "ds_read_b32", 128), first32);
  for (const char* read : {"ds_read_b32", "ds_read_b64", "ds_read_b128"})
    EXPECT_TRUE(plan_mates_of_lane0("gfx950", read, 128).empty()) << read;
}

TEST(AmdPlan, DesignedFamiliesCoverEveryProbeInstructionWithLegalPairs) {
  const swz::GpuModel& gpu = swz::gpu_named("gfx942");
  const auto cases = swz::amd_designed_cases(gpu, swz::amd_probe_instructions(gpu));
  ASSERT_EQ(cases.size(), 6u * 313u);  // linear, 63 + 186 pairs 256 bytes apart, 63 pairs 128 apart
  std::set<std::string> seen;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const AmdCorpusCase& c = cases[i];
    EXPECT_EQ(c.index, static_cast<int>(i));
    EXPECT_TRUE(seen.insert(c.instruction + " " + c.note).second) << c.note;
    ASSERT_EQ(c.request.address.size(), 64u);
    if (c.note == "linear") continue;
    std::vector<std::int64_t> active;
    for (std::int64_t a : c.request.address)
      if (a >= 0) active.push_back(a);
    ASSERT_EQ(active.size(), 2u) << c.note;
    EXPECT_TRUE(active[1] - active[0] == 256 || active[1] - active[0] == 128) << c.note;
  }
  std::set<std::string> instructions;
  for (const AmdCorpusCase& c : cases) instructions.insert(c.instruction);
  EXPECT_EQ(instructions, (std::set<std::string>{"ds_read_b32", "ds_read_b64", "ds_read_b128", "ds_write_b32", "ds_write_b64",
                                                 "ds_write_b128"}));
}

TEST(AmdPlan, RandomCasesAreTheSeedsAndFitTheLds) {
  const swz::GpuModel& gpu = swz::gpu_named("mi355x");
  const auto kinds = swz::amd_probe_instructions(gpu);
  const auto a = swz::amd_random_cases(gpu, 600, 7, kinds);
  const auto b = swz::amd_random_cases(gpu, 600, 7, kinds);
  ASSERT_EQ(a.size(), 600u);
  bool some_inactive = false, some_high_lane = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].request.address, b[i].request.address);
    EXPECT_EQ(a[i].gpu, "gfx950");
    ASSERT_EQ(a[i].request.address.size(), 64u);
    EXPECT_NO_THROW(swz::check_request(a[i].request, gpu.bank, gpu.shared_bytes));
    for (int lane = 0; lane < 64; ++lane) {
      some_inactive |= a[i].request.address[static_cast<std::size_t>(lane)] < 0;
      some_high_lane |= lane >= 32 && a[i].request.address[static_cast<std::size_t>(lane)] >= 0;
    }
  }
  EXPECT_TRUE(some_inactive);
  EXPECT_TRUE(some_high_lane);
  EXPECT_NE(swz::amd_random_cases(gpu, 1, 8, kinds)[0].request.address, a[0].request.address);
}

TEST(AmdPlan, ALineWaitsForItsCountersThenReplays) {
  const swz::GpuModel& gpu = swz::gpu_named("gfx942");
  const auto cases = swz::amd_designed_cases(gpu, swz::amd_probe_instructions_named(gpu, "DS_READ_B128"));
  std::istringstream unmeasured(swz::to_plan_jsonl(cases[4]));
  try {
    swz::read_amd_corpus(unmeasured, "plan.jsonl");
    FAIL() << "a line without counters must not replay";
  } catch (const swz::Error& e) {
    EXPECT_NE(std::string(e.what()).find("plan.jsonl:1: case 4 is not measured yet"), std::string::npos) << e.what();
  }
  // As to_amd_corpus.py fill leaves it: the counters added (pair 0-4 @256 is no conflict: lane 4 is
  // not in lane 0's phase).
  std::string line = swz::to_plan_jsonl(cases[4]);
  line.insert(line.size() - 1, R"(, "SQ_INSTS_LDS": 8, "SQ_LDS_BANK_CONFLICT": 0)");
  std::istringstream measured(line);
  const auto back = swz::read_amd_corpus(measured, "measured.jsonl");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].request.address, cases[4].request.address);
  EXPECT_EQ(back[0].note, "pair 0-4 @256");
  swz::AmdReplayReport report;
  swz::replay_amd_into(report, back);
  EXPECT_EQ(report.all.agree, 1);
}

TEST(AmdPlan, OnlyTheProbesInstructionsOnAnAmdGpu) {
  const swz::GpuModel& gfx950 = swz::gpu_named("gfx950");
  EXPECT_THROW(swz::amd_probe_instructions_named(gfx950, "ds_read_b64_tr_b16"), swz::Error);
  EXPECT_THROW(swz::amd_probe_instructions_named(gfx950, "ds_read_b64,"), swz::Error);
  EXPECT_THROW(swz::amd_designed_cases(swz::gpu_named("sm_90"), {}), swz::Error);
  EXPECT_EQ(swz::amd_probe_instructions_named(gfx950, "DS_READ_B64,ds_write_b128").size(), 2u);
}

}  // namespace
