// gui_fixture.h: a real window and workbench per test, frames driven by hand.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "capture.h"
#include "platform.h"
#include "presenter.h"
#include "workbench.h"

namespace swz::gui::test {

// A private config dir, so no test reads or writes the user's last session.
inline std::filesystem::path temp_dir(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path d = std::filesystem::temp_directory_path() / ("swz-gui-" + std::to_string(::getpid()) + "-" +
                                                                      (info ? std::string(info->name()) : "x") + "-" + name);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

struct Rgba {
  int r = 0, g = 0, b = 0, a = 0;
};
inline Rgba rgba_of(ImU32 c) {
  return {static_cast<int>(c & 0xff), static_cast<int>((c >> 8) & 0xff), static_cast<int>((c >> 16) & 0xff),
          static_cast<int>(c >> 24)};
}
inline bool near(const Rgba& a, const Rgba& b, int tolerance = 3) {
  return std::abs(a.r - b.r) <= tolerance && std::abs(a.g - b.g) <= tolerance && std::abs(a.b - b.b) <= tolerance;
}

class GuiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = temp_dir("config");
    ::setenv("XDG_CONFIG_HOME", config_.c_str(), 1);
    PlatformOptions o;
    o.vsync = false;
    std::string error;
    platform_ = Platform::create(o, error);
    if (!platform_) GTEST_SKIP() << "no display: " << error;
  }
  void TearDown() override {
    close_presenter();  // its window shares the fixture window's GL objects
    bench_.reset();
    platform_.reset();
    std::error_code ec;
    std::filesystem::remove_all(config_, ec);
  }

  // A new window of this size in place of the fixture's. Xvfb resets when its last client
  // leaves, so the next window may take a moment to open. False when none opens.
  bool reopen(int width, int height, std::string& error) {
    bench_.reset();
    platform_.reset();
    PlatformOptions o;
    o.width = width;
    o.height = height;
    o.vsync = false;
    for (int attempt = 0; attempt < 20 && !platform_; ++attempt) {
      if (attempt) std::this_thread::sleep_for(std::chrono::milliseconds(250));
      platform_ = Platform::create(o, error);
    }
    return platform_ != nullptr;
  }

  Workbench& open(std::optional<ProblemSpec> start = ProblemSpec{}) {
    WorkbenchOptions o;
    o.start = std::move(start);
    o.restore_last = false;
    o.autosave = false;
    bench_ = std::make_unique<Workbench>(o);
    frames(3);
    return *bench_;
  }

  void frame(const InjectedInput* in = nullptr) {
    platform_->begin_frame(bench_->ui_scale(), in);
    bench_->draw();
    platform_->render();
    service_capture(*platform_, *bench_);
    platform_->present();
  }
  void frames(int n) {
    for (int i = 0; i < n; ++i) frame();
  }

  // Moves to the probe's center, presses and releases the left button. `hover_first`: one frame
  // over the item before the press (a tooltip or a hover state in between); without it, three frames.
  void click(const std::string& probe_id, bool hover_first = true) {
    const auto p = bench_->probe(probe_id);
    ASSERT_TRUE(p.has_value()) << "no probe " << probe_id;
    InjectedInput in;
    in.mouse_pos = p->center();
    if (hover_first) frame(&in);
    in.mouse_down[0] = true;
    frame(&in);
    in.mouse_down[0] = false;
    frame(&in);
    in.mouse_pos = ImVec2(-1000, -1000);
    frame(&in);
  }

  void key(int glfw_key, bool ctrl = false, bool shift = false) {
    InjectedInput in;
    in.mouse_pos = ImVec2(-1000, -1000);
    in.keys = {glfw_key};
    in.ctrl = ctrl;
    in.shift = shift;
    frame(&in);
    InjectedInput up;
    up.mouse_pos = ImVec2(-1000, -1000);
    frame(&up);
  }

  // Renders one frame and returns its pixels (RGBA, top row first).
  std::vector<unsigned char> capture(int& w, int& h) {
    InjectedInput in;
    in.mouse_pos = ImVec2(-1000, -1000);  // no hover highlights or tooltips
    platform_->begin_frame(bench_->ui_scale(), &in);
    bench_->draw();
    platform_->render();
    platform_->finish();
    auto px = platform_->read_pixels(w, h);
    platform_->present();
    return px;
  }
  // Writes one frame as a PNG where the environment variable names a file (a screenshot to look
  // at by hand; nothing is written otherwise).
  void screenshot_if_asked(const char* env_var) {
    const char* path = std::getenv(env_var);
    if (!path) return;
    int w = 0, h = 0;
    const auto px = capture(w, h);
    std::string error;
    EXPECT_TRUE(write_png(path, px, w, h, error)) << error;
  }
  static Rgba pixel(const std::vector<unsigned char>& px, int w, ImVec2 at) {
    const std::size_t i = (static_cast<std::size_t>(at.y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(at.x)) * 4;
    return {px[i], px[i + 1], px[i + 2], px[i + 3]};
  }

  std::filesystem::path config_;
  std::unique_ptr<Platform> platform_;
  std::unique_ptr<Workbench> bench_;
};

}  // namespace swz::gui::test
