// app.h: the swizzle-workbench program: flags, then the interactive loop or a
// headless run (screenshot, frame-time benchmark).
//
//   swizzle-workbench [--preset NAME] [--mask 2,4,8,16] [--layout NAME] [--session FILE]
//                     [--screenshot out.png] [--size 1600x1000] [--frames N] [--bench-frames N] [--scale S]
//                     [--lesson NAME [--step K]] [--high-contrast] [--show export,gpu] [--focus ID]
//                     [--presentation] [--fullscreen] [--presenter] [--presenter-screenshot out.png]
//                     [--show quiz [--quiz-set FILE]] [--quiz-records DIR] [--no-first-run-hint]
//                     [--link-base URL] [--open-link URL | URL]
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "session.h"

namespace swz::gui {

struct LaunchOptions {
  std::optional<ProblemSpec> start;  // from the problem flags (--preset, --mask, --src, ...)
  std::string session_file;           // --session
  std::string screenshot;             // --screenshot PATH
  int width = 1600, height = 1000;    // --size WxH
  int frames = 5;                     // frames rendered before the screenshot
  int bench_frames = 0;               // --bench-frames N
  float scale = 0.0f;                 // --scale (0: the session's)
  std::string lesson;                 // --lesson NAME: open this lesson (assets/lessons/NAME.json or a path)
  int lesson_step = 1;                // --step K: at its K-th step
  bool high_contrast = false;         // --high-contrast
  std::vector<std::string> show;      // --show export,gpu: panels or tool windows to show at start
  std::string quiz_set;               // --quiz-set FILE: open the quiz on this fixed set (a .json file or a name)
  std::string focus;                  // --focus ID: this panel fills the window
  bool first_run_hint = true;         // --no-first-run-hint: never offer the first start's hint (scripts, tests)
  std::string link;                   // URL or --open-link URL: open the state this link describes (open_link.h)
  std::string link_base;              // --link-base URL: what copied links start with (default: none, "#v=1&...")
  std::string quiz_records;           // --quiz-records DIR: where students' quiz answers are recorded

  bool presentation = false;         // --presentation: large text, claims hidden on the card
  bool fullscreen = false;           // --fullscreen: on the monitor the window opens on
  bool presenter = false;            // --presenter: the presenter view in a second window
  std::string presenter_screenshot;  // --presenter-screenshot PATH: also write the presenter window
  bool headless() const { return !screenshot.empty() || !presenter_screenshot.empty() || bench_frames > 0; }
};

// Parses flags. Returns 0 to run, else the exit code (help: 0 with `exit_now`, bad flags: 2)
// after printing one line.
int parse_launch_options(int argc, char** argv, LaunchOptions& options, bool& exit_now);

// What the workbench starts with for these flags: headless runs neither restore, autosave nor
// show the first-run hint.
struct WorkbenchOptions;
WorkbenchOptions workbench_options(const LaunchOptions& options);

// Runs the program; returns the exit code.
int run(const LaunchOptions& options);

// Frame-time statistics of a benchmark run.
struct FrameStats {
  int frames = 0;
  double mean_ms = 0, p95_ms = 0;
};
FrameStats frame_stats(std::vector<double> samples_ms);

}  // namespace swz::gui
