// Lesson steps rendered by the real program: --lesson NAME --step K --screenshot.
// Runs the workbench through tests/gui/run-with-display.sh (xvfb-run when there
// is no display) and skips when neither a display nor xvfb-run is available.
#if defined(SWZ_WORKBENCH_EXE)
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#pragma GCC diagnostic pop
#include <unistd.h>

namespace {

bool have_display() {
  if (const char* d = std::getenv("DISPLAY"); d && *d) return true;
  return std::system("command -v xvfb-run >/dev/null 2>&1") == 0;
}

struct RunResult {
  int code = -1;
  std::string output;
};

RunResult workbench(const std::string& args, const std::string& env = {}) {
  const auto out = std::filesystem::temp_directory_path() / ("swz-lesson-" + std::to_string(::getpid()) + ".log");
  // Under AddressSanitizer the window's GL driver keeps blocks until exit that no suppression can
  // name; the program's own leaks are checked by the tests that do not open a window.
  const std::string cmd = "ASAN_OPTIONS=detect_leaks=0 " + env + " " + SWZ_RUN_WITH_DISPLAY + " " + SWZ_WORKBENCH_EXE + " " + args + " > " +
                          out.string() + " 2>&1";
  RunResult r;
  const int status = std::system(cmd.c_str());
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (FILE* f = std::fopen(out.c_str(), "rb")) {
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) r.output.append(buf, n);
    std::fclose(f);
  }
  std::filesystem::remove(out);
  return r;
}

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
  int count(int r, int g, int b, int tolerance) const {
    int n = 0;
    for (std::size_t i = 0; i + 2 < rgb.size(); i += 3)
      if (std::abs(rgb[i] - r) <= tolerance && std::abs(rgb[i + 1] - g) <= tolerance && std::abs(rgb[i + 2] - b) <= tolerance) ++n;
    return n;
  }
};

Image load_png(const std::filesystem::path& p) {
  Image img;
  int channels = 0;
  unsigned char* data = stbi_load(p.c_str(), &img.w, &img.h, &channels, 3);
  if (data) {
    img.rgb.assign(data, data + static_cast<std::size_t>(img.w) * static_cast<std::size_t>(img.h) * 3);
    stbi_image_free(data);
  }
  return img;
}

class LessonScreenshot : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_display()) GTEST_SKIP() << "no display and no xvfb-run";
    dir_ = std::filesystem::temp_directory_path() / ("swz-lesson-shots-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  // Renders one step; returns the image (empty when the program failed).
  Image shot(const std::string& lesson, int step, const std::string& extra = {}) {
    const auto png = dir_ / (lesson + "-" + std::to_string(step) + ".png");
    const RunResult r = workbench("--lesson " + lesson + " --step " + std::to_string(step) + " --size 1600x1000 --screenshot " + png.string() + " " + extra,
                            "XDG_CONFIG_HOME=" + dir_.string());
    if (r.output.find("no display") != std::string::npos || r.output.find("OpenGL") != std::string::npos) {
      skipped_ = true;
      return {};
    }
    EXPECT_EQ(r.code, 0) << r.output;
    return load_png(png);
  }
  std::filesystem::path dir_;
  bool skipped_ = false;
};

// The highlight outline color (classroom.cpp kHighlight) at full or pulsing alpha over light panels.
int highlight_pixels(const Image& img) { return img.count(255, 110, 0, 40); }

TEST_F(LessonScreenshot, GuidedLessonStepsRenderWithTheirHighlights) {
  for (int step : {1, 3, 9, 14}) {
    const Image img = shot("swizzle-by-hand", step);
    if (skipped_) GTEST_SKIP() << "no OpenGL window could be opened";
    ASSERT_EQ(img.w, 1600) << "step " << step;
    ASSERT_EQ(img.h, 1000);
    EXPECT_GT(highlight_pixels(img), 200) << "step " << step << ": no highlight outline drawn";
  }
}

TEST_F(LessonScreenshot, EveryLessonOpensAtItsFirstStepAndHighContrastIsBlackOnWhite) {
  for (const char* lesson : {"toy-gpu", "tma-swizzle", "cute-swizzle"}) {
    const Image img = shot(lesson, 1);
    if (skipped_) GTEST_SKIP() << "no OpenGL window could be opened";
    EXPECT_EQ(img.w, 1600) << lesson;
  }
  const Image plain = shot("toy-gpu", 5);
  const Image contrast = shot("toy-gpu", 5, "--high-contrast --scale 1.6");
  if (skipped_) GTEST_SKIP() << "no OpenGL window could be opened";
  ASSERT_EQ(contrast.w, 1600);
  // The light theme's window background (0.985, 0.985, 0.98) gives way to pure white.
  EXPECT_GT(contrast.count(255, 255, 255, 0), plain.count(255, 255, 255, 0));
  EXPECT_GT(contrast.count(0, 0, 0, 10), plain.count(0, 0, 0, 10));
}

// The toy lesson's 4x6 step draws its XOR table on the card: the four cells past
// the sixth column (rows 2 and 3, columns 4 and 5) in the out-of-bounds red.
TEST_F(LessonScreenshot, ToyLessonShowsTheXorTableWithItsOutOfBoundsCells) {
  const Image with_table = shot("toy-gpu", 3);
  const Image without = shot("toy-gpu", 1);  // a 2x2 tile: nothing out of bounds
  if (skipped_) GTEST_SKIP() << "no OpenGL window could be opened";
  const int red = with_table.count(232, 76, 61, 6), none = without.count(232, 76, 61, 6);
  EXPECT_GT(red, 4 * 200) << "four red cells of at least 15x15 px";
  EXPECT_LT(none, red / 4);
}

TEST_F(LessonScreenshot, BadLessonFlagsExitWithOneLine) {
  RunResult r = workbench("--lesson no-such-lesson --screenshot " + (dir_ / "x.png").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("no lesson 'no-such-lesson'"), std::string::npos) << r.output;
  r = workbench("--lesson toy-gpu --step 99 --screenshot " + (dir_ / "x.png").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("lesson 'toy-gpu' has steps 1 to"), std::string::npos) << r.output;
  r = workbench(std::string("--lesson ") + SWZ_LESSON_TEST_DATA + "/claims-on-nothing.json --screenshot " + (dir_ / "x.png").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("claims-on-nothing.json: step 2 (\"Bad claim\"): unknown quantity 'store.happiness'"), std::string::npos) << r.output;
  r = workbench("--lesson broken --screenshot " + (dir_ / "x.png").string(), std::string("SWZ_LESSONS_DIR=") + SWZ_LESSON_TEST_DATA);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("broken.json: not valid JSON"), std::string::npos) << r.output;
}

}  // namespace
#endif
