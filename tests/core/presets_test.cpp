// Presets: every one analyzed with exact numbers, their variants, masks, and the JSON view.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "swz/sim/analysis.h"
#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/problem/problem.h"

#include "test_support.h"

namespace {

using swz::test::error_of;

TEST(Presets, ListAndDefault) {
  std::vector<std::string> names;
  for (const auto& p : swz::list_presets()) {
    names.push_back(p.name);
    EXPECT_FALSE(p.description.empty()) << p.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"transpose16x32", "toy8x8", "cute8x8", "tma128_fp16", "ldmatrix_a_fp16",
                                             "tma32_fp16",          "transpose128_fp8_4w", "transpose128_fp16_4w", "transpose128_fp32_4w",
                                             "transpose128_fp16_8w", "mma_to_blocked_fp16", "blocked_to_mma_a_fp16"}));
  EXPECT_STREQ(swz::kDefaultPreset, "transpose16x32");
}

TEST(Presets, UnknownPresetNamesTheKnownOnes) {
  const std::string msg = error_of([] { swz::make_preset("transpose"); });
  EXPECT_NE(msg.find("unknown preset 'transpose'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("transpose16x32"), std::string::npos) << msg;
  EXPECT_NE(msg.find("blocked_to_mma_a_fp16"), std::string::npos) << msg;
}

struct Expect {
  const char* preset;
  const char* variant;  // nullptr: the default layout
  int store_wavefronts, store_ideal, store_instructions, store_vec_bits;
  int read_wavefronts, read_ideal, read_instructions, read_vec_bits;
  bool lemma_applies;
};

// Numbers per instruction of the worst instruction, one row per (preset, layout).
const std::vector<Expect> kExpected{
    {"transpose16x32", nullptr, 1, 1, 16, 32, 16, 1, 16, 32, true},
    {"transpose16x32", "xor-m", 1, 1, 16, 32, 2, 1, 16, 32, true},
    {"transpose16x32", "xor-2m", 1, 1, 16, 32, 1, 1, 16, 32, true},
    {"transpose16x32", "padded", 1, 1, 16, 32, 2, 1, 16, 32, false},
    {"transpose16x32", "rotated", 1, 1, 16, 32, 2, 1, 16, 32, false},
    {"toy8x8", nullptr, 1, 1, 8, 32, 8, 1, 8, 32, true},
    {"toy8x8", "xor-row", 1, 1, 8, 32, 1, 1, 8, 32, true},
    {"cute8x8", nullptr, 1, 1, 2, 32, 2, 1, 8, 32, true},
    {"cute8x8", "swizzle323", 1, 1, 2, 32, 1, 1, 8, 32, true},
    // 64x64 fp16: 128-bit row copies (4 quarter-warps), ldmatrix.x4 at 128-byte row stride.
    {"tma128_fp16", nullptr, 4, 4, 16, 128, 32, 4, 16, 128, true},
    {"tma128_fp16", "tma-128B", 4, 4, 16, 128, 4, 4, 16, 128, true},
    {"tma128_fp16", "tma-128B-base-0x80", 4, 4, 16, 128, 4, 4, 16, 128, false},
    // 64x32 fp16, 64-byte rows.
    {"ldmatrix_a_fp16", nullptr, 4, 4, 8, 128, 16, 4, 8, 128, true},
    {"ldmatrix_a_fp16", "tma-64B", 4, 4, 8, 128, 4, 4, 8, 128, true},
    // 64x16 fp16, 32-byte rows: the 32B mode's widest box.
    {"tma32_fp16", nullptr, 4, 4, 4, 128, 8, 4, 4, 128, true},
    {"tma32_fp16", "tma-32B", 4, 4, 4, 128, 4, 4, 4, 128, true},
    // 128x128 transposes: reads walk a column of a row-major tile, one element per lane.
    {"transpose128_fp8_4w", nullptr, 4, 4, 32, 128, 8, 1, 512, 8, true},
    {"transpose128_fp16_4w", nullptr, 4, 4, 64, 128, 16, 1, 512, 16, true},
    {"transpose128_fp32_4w", nullptr, 4, 4, 128, 128, 32, 1, 512, 32, true},
    {"transpose128_fp16_8w", nullptr, 4, 4, 64, 128, 16, 1, 512, 16, true},
    // mma C fragments (two fp16 per lane) at 128-byte row stride: 8 rows per bank group.
    {"mma_to_blocked_fp16", nullptr, 8, 1, 64, 32, 4, 4, 16, 128, true},
    {"blocked_to_mma_a_fp16", nullptr, 4, 4, 8, 128, 4, 1, 32, 32, true},
};

TEST(Presets, EveryPresetAndLayoutExactNumbers) {
  for (const Expect& e : kExpected) {
    swz::Problem p = swz::make_preset(e.preset);
    if (e.variant) p.apply_variant(e.variant);
    const std::string what = std::string(e.preset) + (e.variant ? std::string(" / ") + e.variant : std::string());
    const swz::ProblemAnalysis a = swz::analyze(p);
    EXPECT_EQ(a.store.simulated.wavefronts, e.store_wavefronts) << what;
    EXPECT_EQ(a.store.simulated.ideal_wavefronts, e.store_ideal) << what;
    EXPECT_EQ(a.store.simulated.instructions(), e.store_instructions) << what;
    EXPECT_EQ(a.store.simulated.vector.bits, e.store_vec_bits) << what;
    EXPECT_EQ(a.read.simulated.wavefronts, e.read_wavefronts) << what;
    EXPECT_EQ(a.read.simulated.ideal_wavefronts, e.read_ideal) << what;
    EXPECT_EQ(a.read.simulated.instructions(), e.read_instructions) << what;
    EXPECT_EQ(a.read.simulated.vector.bits, e.read_vec_bits) << what;
    EXPECT_EQ(a.read.lemma.applies, e.lemma_applies) << what;
    EXPECT_EQ(a.store.lemma.applies, e.lemma_applies) << what;
    // Wherever the algebra applies it agrees with the simulator on every preset.
    if (e.lemma_applies) {
      EXPECT_TRUE(a.store.agrees()) << what << ": " << a.store.difference;
      EXPECT_TRUE(a.read.agrees()) << what << ": " << a.read.difference;
    } else {
      EXPECT_NE(a.read.difference.find("not linear"), std::string::npos) << what << ": " << a.read.difference;
    }
  }
}

TEST(Presets, EveryPresetHasACoveredTensorAndMatchingShapes) {
  for (const auto& info : swz::list_presets()) {
    const swz::Problem p = swz::make_preset(info.name);
    EXPECT_EQ(p.name, info.name);
    EXPECT_EQ(p.shared.shape(), p.shape) << info.name;
    EXPECT_EQ(p.store.layout.shape(), p.shape) << info.name;
    EXPECT_EQ(p.read.layout.shape(), p.shape) << info.name;
    // Both accesses touch every element of the tensor.
    EXPECT_TRUE(p.store.layout.is_surjective()) << info.name;
    EXPECT_TRUE(p.read.layout.is_surjective()) << info.name;
    EXPECT_EQ(p.store.kind, swz::AccessKind::Store);
    EXPECT_EQ(p.read.kind, swz::AccessKind::Load);
    EXPECT_FALSE(p.variants.empty());
    EXPECT_EQ(p.variants.front().name, "unswizzled");
  }
}

TEST(Presets, GridGeometry) {
  const swz::Problem seed = swz::make_preset("transpose16x32");
  ASSERT_TRUE(seed.grid.has_value());
  EXPECT_EQ(seed.grid->row_bits, 4);
  EXPECT_EQ(seed.grid->col_bits, 5);
  EXPECT_EQ(seed.grid->vec_bits, 0);
  EXPECT_EQ(seed.grid->configs_log2(), 20);
  EXPECT_EQ(seed.masks, (std::vector<std::uint32_t>{0, 0, 0, 0}));
  // 128-bit fp16 vectors keep the low 3 column bits: 6 row bits x 3 toggleable column bits.
  const swz::Problem tma = swz::make_preset("tma128_fp16");
  EXPECT_EQ(tma.grid->vec_bits, 3);
  EXPECT_EQ(tma.grid->configs_log2(), 18);
  EXPECT_FALSE(swz::make_preset("cute8x8").grid.has_value());
  EXPECT_EQ(swz::make_preset("toy8x8").grid->configs_log2(), 9);
}

TEST(Presets, MasksAreChecked) {
  swz::Problem p = swz::make_preset("transpose16x32");
  p.set_masks({2, 4});
  EXPECT_EQ(p.masks, (std::vector<std::uint32_t>{2, 4, 0, 0}));
  EXPECT_EQ(p.shared, swz::toggle_grid({16, 32}, {2, 4}));
  const std::string wide = error_of([&] { p.set_masks({32}); });
  EXPECT_NE(wide.find("wider than the 32 columns"), std::string::npos) << wide;
  EXPECT_NE(error_of([&] { p.set_masks({1, 2, 4, 8, 16}); }).find("row bits"), std::string::npos);
  EXPECT_EQ(p.masks, (std::vector<std::uint32_t>{2, 4, 0, 0}));  // a failed set leaves the problem alone
  swz::Problem c = swz::make_preset("cute8x8");
  EXPECT_NE(error_of([&] { c.set_masks({1}); }).find("no toggle grid"), std::string::npos);
  EXPECT_NE(error_of([&] { c.apply_variant("xor-2m"); }).find("known: unswizzled, swizzle323"), std::string::npos);
  EXPECT_THROW(c.set_shared(swz::row_major({16, 32})), swz::Error);
}

TEST(Presets, ParseAndFormatMasks) {
  EXPECT_EQ(swz::parse_masks("2,4,8,16"), (std::vector<std::uint32_t>{2, 4, 8, 16}));
  EXPECT_EQ(swz::parse_masks("0x10,0"), (std::vector<std::uint32_t>{16, 0}));
  EXPECT_TRUE(swz::parse_masks("").empty());
  for (const char* bad : {"2,,4", "2,", ",2", "-1", "two", "1.5", " 2", "0x", "99999999999"}) {
    const std::string msg = error_of([&] { swz::parse_masks(bad); });
    EXPECT_NE(msg.find("not a non-negative integer"), std::string::npos) << bad << ": " << msg;
  }
  EXPECT_EQ(swz::format_masks({1, 2, 4, 8}), "1,2,4,8");
  EXPECT_EQ(swz::format_masks({}), "");
}

TEST(Presets, JsonViewOfAnalyze) {
  swz::Problem p = swz::make_preset("transpose16x32");
  p.set_masks({1, 2, 4, 8});
  const nlohmann::json j = swz::to_json(swz::analyze(p), p);
  EXPECT_EQ(j["preset"], "transpose16x32");
  EXPECT_EQ(j["masks"], (std::vector<std::uint32_t>{1, 2, 4, 8}));
  EXPECT_EQ(j["store"]["wavefronts"], 1);
  EXPECT_EQ(j["store"]["predicted_wavefronts"], 1);
  EXPECT_EQ(j["read"]["wavefronts"], 2);
  EXPECT_EQ(j["read"]["ideal_wavefronts"], 1);
  EXPECT_EQ(j["read"]["conflicts"], 1);
  EXPECT_EQ(j["read"]["intersection_dim"], 1);
  EXPECT_EQ(j["read"]["intersection_basis"], (std::vector<std::string>{"m0^n0"}));
  EXPECT_EQ(j["read"]["predicted_wavefronts"], 2);
  EXPECT_EQ(j["read"]["per_step"], std::vector<int>(16, 2));
  EXPECT_EQ(j["read"]["agrees"], true);
  EXPECT_EQ(j["read"]["verdict"], "2 wavefronts, 2-way conflict");
  p.apply_variant("padded");
  const nlohmann::json pad = swz::to_json(swz::analyze(p), p);
  EXPECT_TRUE(pad["read"]["predicted_wavefronts"].is_null());
  EXPECT_EQ(pad["read"]["lemma_applies"], false);
  EXPECT_EQ(pad["read"]["agrees"], false);
  EXPECT_NE(pad["read"]["difference"].get<std::string>().find("not linear"), std::string::npos);
}

TEST(Presets, Verdicts) {
  swz::AccessResult r;
  r.wavefronts = 4;
  r.ideal_wavefronts = 4;
  r.conflicts = 0;
  EXPECT_EQ(swz::verdict_text(r), "4 wavefronts");
  EXPECT_EQ(swz::verdict_of(r), swz::Verdict::Ideal);
  r.wavefronts = 8;
  r.conflicts = 4;
  EXPECT_EQ(swz::verdict_text(r), "8 wavefronts, 2-way conflict");
  EXPECT_EQ(swz::verdict_of(r), swz::Verdict::Minor);
  r.wavefronts = 16;
  r.conflicts = 12;
  EXPECT_EQ(swz::verdict_text(r), "16 wavefronts, 4-way conflict");
  EXPECT_EQ(swz::verdict_of(r), swz::Verdict::Severe);
}

}  // namespace
