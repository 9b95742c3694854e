// Screenshots: every preset rendered, written as PNG, and its pixels checked
// against the core (a cell's bank color, the verdict colors).
#include <array>
#include <cstdio>
#include <fstream>

#include <stb_image.h>

#include "gui_fixture.h"
#include "swz/problem/problem.h"
#include "theme.h"

namespace swz::gui::test {

namespace {

// Center of a cell of the tensor view that the current step does not outline.
ImVec2 untraced_cell_center(const Workbench& b, BitVec& coord) {
  const Model& m = b.model();
  std::vector<bool> traced(static_cast<std::size_t>(m.problem.shared.elements()), false);
  for (const auto& c : b.trace().cells) traced[c.coord] = true;
  const auto grid = b.probe("tensor.grid");
  const float cell = (grid->max.x - grid->min.x) / static_cast<float>(m.cols());
  for (int r = 0; r < m.rows(); ++r)
    for (int c = 0; c < m.cols(); ++c)
      if (!traced[m.cell_coord(r, c)]) {
        coord = m.cell_coord(r, c);
        return ImVec2(grid->min.x + (static_cast<float>(c) + 0.5f) * cell, grid->min.y + (static_cast<float>(r) + 0.5f) * cell);
      }
  coord = 0;
  return grid->center();
}

std::pair<int, int> png_size(const std::string& path) {
  int w = 0, h = 0, n = 0;
  unsigned char* data = stbi_load(path.c_str(), &w, &h, &n, 4);
  if (!data) return {0, 0};
  stbi_image_free(data);
  return {w, h};
}

int run_workbench(const std::string& args, std::string& output, const std::string& env = "") {
  const std::string cmd = env + " '" + std::string(SWZ_WORKBENCH_EXE) + "' " + args + " 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return -1;
  char buf[512];
  output.clear();
  while (std::fgets(buf, sizeof(buf), pipe)) output += buf;
  const int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_F(GuiTest, ScreenshotOfEveryPresetShowsBankColors) {
  const auto dir = temp_dir("shots");
  for (const auto& info : list_presets()) {
    SCOPED_TRACE(info.name);
    ProblemSpec s;
    s.preset = info.name;
    Workbench& b = open(s);
    ASSERT_TRUE(b.error().empty()) << b.error();
    int w = 0, h = 0;
    const auto px = capture(w, h);
    ASSERT_EQ(w, 1600);
    ASSERT_EQ(h, 1000);
    const std::string path = (dir / (info.name + ".png")).string();
    std::string error;
    ASSERT_TRUE(write_png(path, px, w, h, error)) << error;
    EXPECT_EQ(png_size(path), std::make_pair(1600, 1000));

    // A cell's color is the bank color of the bank the core puts it in.
    BitVec coord = 0;
    const ImVec2 at = untraced_cell_center(b, coord);
    const Problem& p = b.model().problem;
    const int bank = p.bank.bank_of(byte_address_of(p.shared.offset(coord), p.element_bits));
    EXPECT_TRUE(near(pixel(px, w, at), rgba_of(bank_color(bank, p.bank.banks))))
        << "cell " << b.model().format_coord(coord) << " bank " << bank;

    // Both verdict badges carry their verdict's color.
    const auto store = b.probe("trace.verdict.store");
    const auto read = b.probe("trace.verdict.read");
    ASSERT_TRUE(store && read);
    EXPECT_TRUE(near(pixel(px, w, store->center()), rgba_of(verdict_color(verdict_of(b.model().analysis.store.simulated)))));
    EXPECT_TRUE(near(pixel(px, w, read->center()), rgba_of(verdict_color(verdict_of(b.model().analysis.read.simulated)))));
  }
  std::filesystem::remove_all(dir);
}

TEST_F(GuiTest, VerdictColorIsRedUnswizzledAndGreenForXor2m) {
  int w = 0, h = 0;
  Workbench& b = open();
  auto px = capture(w, h);
  const Rgba red = rgba_of(verdict_color(Verdict::Severe)), green = rgba_of(verdict_color(Verdict::Ideal));
  EXPECT_TRUE(near(pixel(px, w, b.probe("trace.verdict.read")->center()), red));
  EXPECT_TRUE(near(pixel(px, w, b.probe("trace.verdict.store")->center()), green));

  ProblemSpec x;
  x.masks = {2, 4, 8, 16};
  Workbench& b2 = open(x);
  px = capture(w, h);
  EXPECT_TRUE(near(pixel(px, w, b2.probe("trace.verdict.read")->center()), green));
  EXPECT_TRUE(near(pixel(px, w, b2.probe("trace.verdict.store")->center()), green));
  // Classic XOR m: a 2-way conflict, amber.
  ProblemSpec m;
  m.masks = {1, 2, 4, 8};
  Workbench& b3 = open(m);
  px = capture(w, h);
  EXPECT_TRUE(near(pixel(px, w, b3.probe("trace.verdict.read")->center()), rgba_of(verdict_color(Verdict::Minor))));
}

TEST_F(GuiTest, ExecutableWritesScreenshot) {
  const auto dir = temp_dir("exe");
  const std::string out = (dir / "seed.png").string();
  std::string text;
  const int code = run_workbench("--preset transpose16x32 --mask 2,4,8,16 --screenshot '" + out + "' --size 1280x800", text);
  EXPECT_EQ(code, 0) << text;
  EXPECT_EQ(png_size(out), std::make_pair(1280, 800));
  std::filesystem::remove_all(dir);
}

TEST_F(GuiTest, ExecutableBenchPrintsFrameTimes) {
  std::string text;
  const int code = run_workbench("--preset transpose16x32 --bench-frames 20", text);
  EXPECT_EQ(code, 0) << text;
  EXPECT_NE(text.find("mean"), std::string::npos) << text;
  EXPECT_NE(text.find("p95"), std::string::npos) << text;
}

// Flags are checked before any window opens: these need no display.
TEST(GuiFlags, BadPresetIsOneLineAndExit2) {
  std::string text;
  EXPECT_EQ(run_workbench("--preset nope --screenshot /dev/null", text), 2);
  EXPECT_NE(text.find("unknown preset 'nope'"), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
}

TEST(GuiFlags, BadMaskIsOneLineAndExit2) {
  std::string text;
  EXPECT_EQ(run_workbench("--mask 2,x --screenshot /dev/null", text), 2);
  EXPECT_NE(text.find("not a non-negative integer"), std::string::npos) << text;
  EXPECT_EQ(run_workbench("--mask 64 --screenshot /dev/null", text), 2);
  EXPECT_NE(text.find("wider"), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
}

TEST(GuiFlags, UnknownFlagIsOneLineAndExit2) {
  std::string text;
  EXPECT_EQ(run_workbench("--frobnicate", text), 2);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
}

TEST(GuiFlags, NoDisplayPointsAtXvfbAndTheCli) {
  std::string text;
  EXPECT_EQ(run_workbench("--screenshot /dev/null", text, "env -u DISPLAY -u WAYLAND_DISPLAY"), 2);
  EXPECT_NE(text.find("xvfb-run"), std::string::npos) << text;
  EXPECT_NE(text.find("swizzle analyze"), std::string::npos) << text;
}

}  // namespace swz::gui::test
