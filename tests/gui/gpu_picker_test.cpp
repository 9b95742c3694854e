// The Problem panel's GPU picker: choosing gfx950 prices every panel with gfx950's model (the
// core's count, drawn), the session saved and reopened keeps it, and `swizzle analyze --gpu gfx950
// --json` gives the same count: one answer on every face.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "gui_fixture.h"
#include "panel_cli.h"
#include "swz/sim/analysis.h"
#include "swz/sim/gpu.h"

namespace swz::gui::test {

namespace {

// The Problem panel's read line, as its probe carries it ("" when not drawn).
std::string picker_read_line(const Workbench& b) { return probe_line(b, "problem.issues.read="); }

// The line the panel draws for a read side the core analysed.
std::string expected_read_line(const AccessAnalysis& side) {
  return fmt::format("Read: {} x{}, {:.2f} wavefronts", side.instruction, side.simulated.instructions(),
                     side.simulated.mean_wavefronts);
}

}  // namespace

TEST_F(GuiTest, GpuPickerPricesThePanelsWithTheGpusModel) {
  ProblemSpec start;
  start.preset = "transpose16x32";
  start.shape = {64, 64};  // redrawn for 64-lane wavefronts when the GPU has them
  Workbench& b = open(start);
  b.apply(cmd::show_panel("problem", true));
  frames(3);
  ASSERT_TRUE(b.probe("problem.gpu=sm_90").has_value()) << "the H100 is the default";
  const std::string before = picker_read_line(b);
  EXPECT_EQ(before, expected_read_line(analyze(build_problem(start)).read));

  click("problem.gpu=sm_90");  // opens the list
  click("problem.gpu.gfx950");
  frames(2);
  EXPECT_EQ(b.session().problem.gpu, "gfx950");
  ASSERT_TRUE(b.probe("problem.gpu=gfx950").has_value()) << "the picker names the GPU";
  ProblemSpec gfx950 = start;
  gfx950.gpu = "gfx950";
  const ProblemAnalysis core = analyze(build_problem(gfx950));
  EXPECT_EQ(picker_read_line(b), expected_read_line(core.read));
  EXPECT_NE(picker_read_line(b), before);  // gfx950 issues the reads otherwise (DS_READ_B32, 64 lanes each)
  EXPECT_EQ(b.model().problem.bank.gpu, GpuId::gfx950);
  screenshot_if_asked("SWZ_GPU_PICKER_PNG");

  // Saved and reopened: the same GPU and count; the CLI says the same.
  const auto dir = temp_dir("gpu");
  ASSERT_TRUE(b.save_session(dir / "gfx950.swz.json")) << b.error();
  Workbench& again = open(ProblemSpec{});
  ASSERT_TRUE(again.open_session(dir / "gfx950.swz.json")) << again.error();
  frames(2);
  EXPECT_EQ(again.session().problem.gpu, "gfx950");
  EXPECT_EQ(again.model().analysis.read.simulated.wavefronts, core.read.simulated.wavefronts);
  EXPECT_EQ(again.model().analysis.store.simulated.wavefronts, core.store.simulated.wavefronts);
  const nlohmann::json cli = cli_json("analyze", "--preset transpose16x32 --shape 64x64 --gpu gfx950");
  ASSERT_FALSE(cli.is_discarded());
  EXPECT_EQ(cli["read"]["wavefronts"], core.read.simulated.wavefronts) << cli["read"].dump();
  EXPECT_EQ(cli["store"]["wavefronts"], core.store.simulated.wavefronts) << cli["store"].dump();
}

}  // namespace swz::gui::test
