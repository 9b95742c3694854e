// The Export and GPU tool windows: the preview is the core's export, Copy puts
// it on the clipboard, Save writes it (and refuses a bad name), figures come out
// as SVG from the core and as PNG from the frame; the GPU window says why it
// cannot run where there is no GPU.
#include <fstream>
#include <iterator>

#include <GLFW/glfw3.h>

#include "gui_fixture.h"
#include "swz/export/export.h"
#include "swz/gpu.h"

namespace swz::gui::test {

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Width and height from a PNG's IHDR chunk.
std::pair<int, int> png_size(const std::string& bytes) {
  if (bytes.size() < 24 || bytes.compare(1, 3, "PNG") != 0) return {0, 0};
  auto be32 = [&](std::size_t at) {
    return (static_cast<int>(static_cast<unsigned char>(bytes[at])) << 24) | (static_cast<int>(static_cast<unsigned char>(bytes[at + 1])) << 16) |
           (static_cast<int>(static_cast<unsigned char>(bytes[at + 2])) << 8) | static_cast<int>(static_cast<unsigned char>(bytes[at + 3]));
  };
  return {be32(16), be32(20)};
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

ProblemSpec seed_xor2m() {
  ProblemSpec s;
  s.masks = {2, 4, 8, 16};
  return s;
}

}  // namespace

TEST_F(GuiTest, ExportPreviewIsTheCoresHeaderAndSaves) {
  Workbench& b = open(seed_xor2m());
  EXPECT_FALSE(b.panel_visible("export"));  // tool windows start hidden
  b.apply(cmd::show_panel("export", true));
  frames(2);
  ASSERT_TRUE(b.probe("export.preview").has_value());

  std::string why;
  const std::string preview = b.export_preview(why);
  EXPECT_TRUE(why.empty()) << why;
  ExportRequest r = ExportRequest::from_problem(b.model().problem, "tile_swizzle");
  r.command = default_command(r, ExportFormat::Header, "tile_swizzle.h");
  EXPECT_EQ(preview, export_header(r));
  EXPECT_NE(preview.find("namespace tile_swizzle"), std::string::npos);
  EXPECT_NE(preview.find("--mask 2,4,8,16"), std::string::npos);

  // Copy to clipboard.
  click("export.copy");
  const char* clip = ImGui::GetClipboardText();
  ASSERT_NE(clip, nullptr);
  EXPECT_EQ(std::string(clip), preview);

  // Save writes the same bytes (the command names the file written).
  const auto dir = temp_dir("export");
  ASSERT_TRUE(b.save_export(dir / "tile_swizzle.h"));
  EXPECT_EQ(read_file(dir / "tile_swizzle.h"), preview);

  // Another format: the preview follows.
  click("export.format.triton");
  EXPECT_EQ(b.export_settings().format, ExportFormat::Triton);
  EXPECT_NE(b.export_preview(why).find("SharedLinearLayout"), std::string::npos);
}

TEST_F(GuiTest, ExportRefusesABadNameAndKeepsTheFile) {
  Workbench& b = open(seed_xor2m());
  b.apply(cmd::show_panel("export", true));
  b.export_settings().name = "class";  // a C++ keyword
  frames(2);
  std::string why;
  EXPECT_TRUE(b.export_preview(why).empty());
  EXPECT_NE(why.find("keyword"), std::string::npos) << why;
  EXPECT_TRUE(b.probe("export.error").has_value());
  const auto dir = temp_dir("badname");
  const auto file = dir / "out.h";
  { std::ofstream(file) << "previous contents\n"; }
  EXPECT_FALSE(b.save_export(file));
  EXPECT_FALSE(b.error().empty());
  EXPECT_EQ(read_file(file), "previous contents\n");
}

TEST_F(GuiTest, ExportOfAPaddedLayoutSaysWhy) {
  ProblemSpec s;
  s.variant = "padded";
  Workbench& b = open(s);
  std::string why;
  EXPECT_TRUE(b.export_preview(why).empty());
  EXPECT_FALSE(why.empty());  // the padded layout is not linear: no header of XORs
}

TEST_F(GuiTest, CtrlEOpensTheExportAndItsSaveDialog) {
  Workbench& b = open(seed_xor2m());
  key(GLFW_KEY_E, /*ctrl=*/true);
  EXPECT_TRUE(b.panel_visible("export"));
  EXPECT_EQ(b.file_dialog().title, "Export header as");
  EXPECT_TRUE(b.file_dialog().saving);
  EXPECT_EQ(std::filesystem::path(b.file_dialog().path_text).filename(), "tile_swizzle.h");
}

TEST_F(GuiTest, FiguresAsSvgAndPng) {
  Workbench& b = open(seed_xor2m());
  const auto dir = temp_dir("figures");

  // SVG from the core: one cell per element of the 16x32 tile.
  b.export_settings().figure = FigureView::Tensor;
  ASSERT_TRUE(b.save_figure_svg(dir / "tensor.svg"));
  const std::string svg = read_file(dir / "tensor.svg");
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_EQ(count(svg, "<rect class=\"cell"), 16u * 32u);

  // PNG of the tensor panel: the panel's rectangle, taken from the next frame.
  b.apply(cmd::show_panel("export", true));  // a tool window over the tiles stays out of the picture
  frames(2);
  const auto panel = b.probe("panel.tensor");
  ASSERT_TRUE(panel.has_value());
  b.request_capture({dir / "tensor.png", "tensor"});
  frames(3);
  EXPECT_FALSE(b.capture_due());
  EXPECT_TRUE(b.error().empty()) << b.error();
  const auto [w, h] = png_size(read_file(dir / "tensor.png"));
  EXPECT_EQ(w, static_cast<int>(std::lround(panel->max.x - panel->min.x)));
  EXPECT_EQ(h, static_cast<int>(std::lround(panel->max.y - panel->min.y)));
  EXPECT_FALSE(std::filesystem::exists(dir / "tensor.png.tmp"));
  EXPECT_TRUE(b.panel_visible("export"));  // shown again after the capture frame

  // The whole window.
  b.request_capture({dir / "window.png", ""});
  frames(3);
  const auto [ww, wh] = png_size(read_file(dir / "window.png"));
  EXPECT_EQ(ww, static_cast<int>(ImGui::GetIO().DisplaySize.x));
  EXPECT_EQ(wh, static_cast<int>(ImGui::GetIO().DisplaySize.y));

  // A hidden panel cannot be photographed: an error, no file.
  b.apply(cmd::show_panel("memory", false));
  b.request_capture({dir / "memory.png", "memory"});
  frames(3);
  EXPECT_NE(b.error().find("hidden"), std::string::npos) << b.error();
  EXPECT_FALSE(std::filesystem::exists(dir / "memory.png"));
}

TEST_F(GuiTest, GpuWindowSaysWhyItCannotRun) {
  Workbench& b = open();
  b.apply(cmd::show_panel("gpu", true));
  frames(2);
  ASSERT_TRUE(b.probe("gpu.run").has_value());
  const gpu::DeviceInfo d = gpu::device_info();
  if (d.available) GTEST_SKIP() << "a GPU is present (" << d.name << "): the greyed-out state cannot be shown";
  EXPECT_TRUE(b.probe("gpu.reason").has_value());
  EXPECT_FALSE(d.reason.empty());
  // Clicking the greyed-out Run does nothing.
  click("gpu.run");
  frames(2);
  EXPECT_FALSE(b.probe("gpu.correct").has_value());
}

}  // namespace swz::gui::test
