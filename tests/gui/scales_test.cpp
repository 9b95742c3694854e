// Every panel laid out and readable at UI scales 1.0, 1.6 and 2.0, on 1920x1080 and 1600x1000,
// for several presets (a toggle grid, TMA 128B with an ldmatrix reader, an MMA layout, ldmatrix A).
//
// For each case a few frames are drawn and then every window active this frame is read back
// through imgui_internal.h:
//   - no window's content is wider than its inner width unless it shows a horizontal scrollbar,
//     and none is taller than its inner height unless it shows a vertical scrollbar;
//   - no two tiled panels overlap;
//   - no glyph in the draw lists is cut: a glyph quad reaching past its draw command's clip rect
//     sideways (in a window without a horizontal scrollbar), or a glyph shortened by ImGui's
//     CPU clipping (a combo preview or a button label too long for its frame), is clipped text;
//   - no glyph is drawn smaller than 0.75 x the UI font size (a glyph quad's height against the
//     glyph's height in the font it was baked from gives the size it was drawn at).
// The screenshot of each case is written to <build>/tests/gui/scales/<preset>-<w>x<h>-<scale>.png
// for a person to look at (SWZ_GUI_SCALES_DIR).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <imgui_internal.h>

#include "getting_started.h"
#include "gui_fixture.h"
#include "screen_checks.h"

#ifndef SWZ_GUI_SCALES_DIR
#define SWZ_GUI_SCALES_DIR "scales"
#endif

namespace swz::gui::test {

namespace {

// Problems found in the windows active this frame; `panels` are the tiled panel ids.
std::vector<std::string> inspect(const std::vector<std::string>& panel_ids) {
  std::vector<std::string> out;
  const GlyphIndex glyphs(*ImGui::GetIO().Fonts);
  for (ImGuiWindow* w : active_windows()) {
    const std::string name = w->Name;
    // Content against the inner rectangle, as ImGui decides its scrollbars.
    const float inner_w = w->InnerRect.GetWidth(), inner_h = w->InnerRect.GetHeight();
    const float need_w = w->ContentSize.x + w->WindowPadding.x * 2.0f, need_h = w->ContentSize.y + w->WindowPadding.y * 2.0f;
    if (need_w > inner_w + 1.0f && !w->ScrollbarX)
      out.push_back(fmt::format("{}: content {:.0f} px wide in {:.0f} px, no horizontal scrollbar", name, need_w, inner_w));
    // (The main menu bar is all menu bar: its inner rectangle is empty.)
    if (inner_h > 0.0f && need_h > inner_h + 1.0f && !w->ScrollbarY && !(w->Flags & ImGuiWindowFlags_ChildMenu) &&
        !(w->Flags & ImGuiWindowFlags_Tooltip))
      out.push_back(fmt::format("{}: content {:.0f} px tall in {:.0f} px, no vertical scrollbar", name, need_h, inner_h));

    for (std::string& p : text_faults(*w, glyphs)) out.push_back(std::move(p));
  }

  // Tiled panels never overlap.
  std::vector<std::pair<std::string, ImRect>> tiles;
  for (const std::string& id : panel_ids) {
    ImGuiWindow* w = ImGui::FindWindowByName(("###" + id).c_str());
    if (w && w->WasActive) tiles.emplace_back(id, w->Rect());
  }
  for (std::size_t i = 0; i < tiles.size(); ++i)
    for (std::size_t j = i + 1; j < tiles.size(); ++j) {
      ImRect r = tiles[i].second;
      r.ClipWithFull(tiles[j].second);
      if (r.GetWidth() > 0.5f && r.GetHeight() > 0.5f)
        out.push_back(fmt::format("panels {} and {} overlap by {:.0f}x{:.0f} px", tiles[i].first, tiles[j].first, r.GetWidth(), r.GetHeight()));
    }
  return out;
}

}  // namespace

TEST_F(GuiTest, EveryPanelFitsAndIsReadableAtScales) {
  const std::filesystem::path shots = SWZ_GUI_SCALES_DIR;
  std::filesystem::create_directories(shots);
  const char* presets[] = {"transpose16x32", "tma128_fp16", "mma_to_blocked_fp16", "ldmatrix_a_fp16", "cute8x8"};
  const std::pair<int, int> sizes[] = {{1920, 1080}, {1600, 1000}};
  int cases = 0, failing = 0;
  std::string report;
  for (const auto& [width, height] : sizes) {
    std::string error;
    if (!reopen(width, height, error)) GTEST_SKIP() << "no display: " << error;
    for (const char* preset : presets) {
      ProblemSpec spec;
      spec.preset = preset;
      Workbench& b = open(spec);
      ASSERT_TRUE(b.error().empty()) << preset << ": " << b.error();
      std::vector<std::string> ids;
      for (const auto& [id, title] : b.tile_panels()) ids.push_back(id);
      for (const float scale : {1.0f, 1.6f, 2.0f}) {
        b.apply(cmd::set_ui_scale(scale));
        frames(5);
        int w = 0, h = 0;
        const auto px = capture(w, h);
        std::vector<std::string> problems = inspect(ids);
        const std::string file = fmt::format("{}-{}x{}-{:.1f}.png", preset, width, height, scale);
        std::string png_error;
        EXPECT_TRUE(write_png((shots / file).string(), px, w, h, png_error)) << png_error;
        if (const auto bar = b.probe("tiles.scroll")) {
          // The tile area scrolls: the wheel over its scrollbar brings the lowest panels into view.
          InjectedInput in;
          in.mouse_pos = bar->center();
          in.wheel = -100.0f;
          frame(&in);
          frames(3);
          const auto scrolled = capture(w, h);
          for (const auto& p : inspect(ids)) problems.push_back("scrolled: " + p);
          EXPECT_TRUE(write_png((shots / fmt::format("{}-{}x{}-{:.1f}-scrolled.png", preset, width, height, scale)).string(), scrolled, w, h,
                                png_error));
          float lowest = 0.0f;
          for (const auto& id : ids)
            if (const auto p = b.probe("panel." + id)) lowest = std::max(lowest, p->max.y);
          if (lowest > ImGui::GetIO().DisplaySize.y)
            problems.push_back(fmt::format("scrolled to the end, the lowest panel still ends below the window ({:.0f} px)", lowest));
          in.wheel = 100.0f;  // back to the top for the next scale
          frame(&in);
        }
        ++cases;
        if (!problems.empty()) {
          ++failing;
          report += fmt::format("{} at {}x{}, scale {:.1f} ({}):\n", preset, width, height, scale, file);
          for (const auto& p : problems) report += "  " + p + "\n";
        }
      }
    }
  }
  std::printf("scales: %d cases, %d with problems; screenshots in %s\n%s", cases, failing, shots.string().c_str(), report.c_str());
  EXPECT_EQ(cases, 30);
  EXPECT_EQ(failing, 0) << report;
}

// Help > Getting started and the first-run hint, each over the workbench, at every scale: the same
// checks, and screenshots <build>/tests/gui/scales/{getting-started,first-run-hint}-<w>x<h>-<scale>.png.
TEST_F(GuiTest, GettingStartedAndFirstRunHintFitAtScales) {
  const std::filesystem::path shots = SWZ_GUI_SCALES_DIR;
  std::filesystem::create_directories(shots);
  const std::pair<int, int> sizes[] = {{1920, 1080}, {1600, 1000}};
  int cases = 0;
  std::string report;
  for (const auto& [width, height] : sizes) {
    std::string error;
    if (!reopen(width, height, error)) GTEST_SKIP() << "no display: " << error;
    for (const char* window : {"getting-started", "first-run-hint"}) {
      for (const float scale : {1.0f, 1.6f, 2.0f}) {
        const bool hint = std::string_view(window) == "first-run-hint";
        std::filesystem::remove(first_run_hint_path());  // a first start each time
        WorkbenchOptions o;
        o.start = ProblemSpec{};
        o.restore_last = false;
        o.autosave = false;
        o.first_run_hint = hint;
        bench_ = std::make_unique<Workbench>(o);
        bench_->apply(cmd::set_ui_scale(scale));
        bench_->show_getting_started(!hint);
        frames(5);
        const std::string probe = hint ? "panel.first_run_hint" : "panel.getting_started";
        ASSERT_TRUE(bench_->probe(probe)) << window << " not drawn at scale " << scale;
        std::vector<std::string> ids;
        for (const auto& [id, title] : bench_->tile_panels()) ids.push_back(id);
        int w = 0, h = 0;
        const auto px = capture(w, h);
        const auto problems = inspect(ids);
        const auto rect = *bench_->probe(probe);
        const std::string file = fmt::format("{}-{}x{}-{:.1f}.png", window, width, height, scale);
        std::string png_error;
        EXPECT_TRUE(write_png((shots / file).string(), px, w, h, png_error)) << png_error;
        ++cases;
        for (const auto& p : problems) report += fmt::format("{}: {}\n", file, p);
        if (rect.min.x < 0 || rect.min.y < 0 || rect.max.x > static_cast<float>(w) || rect.max.y > static_cast<float>(h))
          report += fmt::format("{}: the window ({:.0f},{:.0f})-({:.0f},{:.0f}) is off the screen\n", file, rect.min.x, rect.min.y,
                                rect.max.x, rect.max.y);
      }
    }
  }
  std::printf("help windows: %d cases; screenshots in %s\n%s", cases, shots.string().c_str(), report.c_str());
  EXPECT_EQ(cases, 12);
  EXPECT_TRUE(report.empty()) << report;
}

}  // namespace swz::gui::test
