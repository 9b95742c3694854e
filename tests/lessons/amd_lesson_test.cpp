// The AMD lesson (assets/lessons/amd-lds.json) and its quantities (core/src/teach/lesson_gpu_facts.cpp):
// each claim the lesson makes is the published fact, transcribed here from its source, so the lesson
// cannot teach the model's constant where the sources say otherwise.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "swz/error.h"
#include "swz/teach/lesson.h"

namespace swz {
namespace {

Lesson amd_lesson() { return load_lesson_file(std::filesystem::path(SWZ_LESSONS_DIR) / "amd-lds.json"); }

std::vector<int> amd_lane_run(int first, int count) {
  std::vector<int> lanes(static_cast<std::size_t>(count));
  std::iota(lanes.begin(), lanes.end(), first);
  return lanes;
}

// The value the lesson claims for `quantity` on the step whose problem is on `gpu`.
nlohmann::json amd_claimed(const Lesson& l, const std::string& gpu, const std::string& quantity) {
  for (const LessonStep& s : l.steps) {
    if (s.problem.gpu != gpu) continue;
    for (const auto& c : s.claims)
      if (c.quantity == quantity) return c.expected;
  }
  throw Error("amd-lds claims no " + quantity + " on " + gpu);
}

nlohmann::json amd_measured(const std::string& gpu, const std::string& quantity) {
  ProblemSpec spec;
  spec.preset = "transpose16x32";
  spec.gpu = gpu;
  LessonStep step;
  step.problem = spec;
  const Problem p = problem_for_step(step);
  return measure(quantity, p, analyze(p), 0);
}

// gfx942: 32 banks, wave64 (IREE's target table; Triton PR #9662); 32-bit accesses in two halves of
// 32 lanes, 64-bit in four runs of 16 (PR #9662); ds_read_b128 in phases spanned by l0, l1, l2^l4
// (PR #11365: {0-3, 20-23}); ds_write_b128 in runs of 8 (Composable Kernel's documentation).
TEST(AmdLesson, Gfx942ClaimsAreThePublishedPhases) {
  const Lesson l = amd_lesson();
  EXPECT_EQ(amd_claimed(l, "gfx942", "banks"), 32);
  EXPECT_EQ(amd_claimed(l, "gfx942", "lanes"), 64);
  EXPECT_EQ(amd_claimed(l, "gfx942", "phase(4,32).read_lanes"), amd_lane_run(32, 32));
  EXPECT_EQ(amd_claimed(l, "gfx942", "phase(8,0).read_lanes"), amd_lane_run(0, 16));
  EXPECT_EQ(amd_claimed(l, "gfx942", "phase(16,0).read_lanes"), (std::vector<int>{0, 1, 2, 3, 20, 21, 22, 23}));
  EXPECT_EQ(amd_claimed(l, "gfx942", "phase(16,0).write_lanes"), amd_lane_run(0, 8));
  EXPECT_EQ(amd_claimed(l, "gfx942", "lane_pair(16,0,20,256).read_conflict"), true);
  EXPECT_EQ(amd_claimed(l, "gfx942", "lane_pair(16,0,4,256).write_conflict"), true);
}

// gfx950: 64 banks (PR #9662; HipKittens measured the wrap at 64 on reads), 32-bit reads in one
// phase of 64, ds_read_b128 in phases spanned by l0, l1, l2^l3, l2^l4 (PR #11365, HipKittens' table).
TEST(AmdLesson, Gfx950ClaimsAreThePublishedPhases) {
  const Lesson l = amd_lesson();
  EXPECT_EQ(amd_claimed(l, "gfx950", "banks"), 64);
  EXPECT_EQ(amd_claimed(l, "gfx950", "phase(4,0).read_lanes"), amd_lane_run(0, 64));
  EXPECT_EQ(amd_claimed(l, "gfx950", "phase(16,0).read_lanes"),
            (std::vector<int>{0, 1, 2, 3, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 26, 27}));
  EXPECT_EQ(amd_claimed(l, "gfx950", "lane_pair(4,0,1,128).read_conflict"), false);
}

// The last step's prediction: lanes 0 and 12 share a gfx950 ds_read_b128 phase (PR #11365) and 128
// bytes apart are two banks of 64: one pass. On gfx942 lane 12 is in another phase: two passes.
TEST(AmdLesson, ThePredictionIsOnePassOnGfx950AndTwoOnGfx942) {
  const Lesson l = amd_lesson();
  const LessonStep& last = l.steps.back();
  ASSERT_TRUE(last.predict);
  EXPECT_EQ(last.predict->quantity, "lane_pair(16,0,12,128).read_passes");
  EXPECT_EQ(last.problem.gpu, "gfx950");
  EXPECT_EQ(amd_measured("gfx950", last.predict->quantity), 1);
  EXPECT_EQ(amd_measured("gfx942", last.predict->quantity), 2);
  EXPECT_EQ(amd_measured("gfx942", "lane_pair(16,0,12,128).read_conflict"), false);
  EXPECT_EQ(amd_measured("gfx950", "lane_pair(16,0,12,256).read_passes"), 2);
}

// The quantities on the default GPU: the H100's 16-byte accesses go in quarter warps (hardware.md).
TEST(AmdLesson, QuantitiesReadTheStepsGpu) {
  EXPECT_EQ(amd_measured("", "banks"), 32);
  EXPECT_EQ(amd_measured("", "lanes"), 32);
  EXPECT_EQ(amd_measured("", "phase(16,9).read_lanes"), amd_lane_run(8, 8));
  EXPECT_EQ(amd_measured("gfx950", "lanes"), 64);
}

TEST(AmdLesson, MalformedQuantitiesAreOneLine) {
  for (const char* bad : {"phase(3,0).read_lanes", "phase(16,64).read_lanes", "phase(16,0)", "phase(16).read_lanes",
                          "lane_pair(16,0,0,256).read_conflict", "lane_pair(16,0,1,250).read_conflict",
                          "lane_pair(16,0,1,256).wavefronts", "banks.x"}) {
    try {
      (void)amd_measured("gfx942", bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace swz
