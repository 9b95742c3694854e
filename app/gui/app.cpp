#include "app.h"

#include <signal.h>

#include <algorithm>
#include <cfloat>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <ctime>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "capture.h"
#include "host.h"
#include "model.h"
#include "open_link.h"
#include "platform.h"
#include "presenter.h"
#include "swz/error.h"
#include "classroom.h"
#include "workbench.h"

namespace swz::gui {

namespace {

volatile std::sig_atomic_t g_stop_signal = 0;

void on_stop_signal(int signal_number) { g_stop_signal = signal_number; }

// Without SA_RESTART the signal interrupts the event poll, so the loop sees the flag at once.
void install_stop_signals() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
}

bool stop_requested() { return g_stop_signal != 0; }

// A link at start: everything it names checked before any window opens (bad: one line, exit 2).
void check_launch_link(const LaunchOptions& o) {
  if (o.start || !o.session_file.empty() || !o.lesson.empty() || !o.quiz_set.empty())
    fail("a link says the problem, lesson and quiz set itself: give it without --session, --lesson, --quiz-set or the problem's flags");
  if (const std::string missing = missing_link_targets(parse_link(o.link)); !missing.empty()) fail("{}", missing);
}

}  // namespace

int parse_launch_options(int argc, char** argv, LaunchOptions& o, bool& exit_now) {
  exit_now = false;
  CLI::App cli{"swizzle-workbench: design bank-conflict-free shared-memory layouts"};
  std::string size;
  // The problem to start on: the same flags as the command line's (core reads them, problem_spec.h).
  ProblemArguments problem;
  for (const ProblemFlag& f : problem_flags())
    cli.add_option_function<std::string>(f.flag, [slot = &problem.slot(f.flag)](const std::string& v) { *slot = v; }, f.help);
  cli.add_option("--session", o.session_file, "Open this session file");
  cli.add_option("--screenshot", o.screenshot, "Render a few frames, write this PNG and exit");
  cli.add_option("--size", size, "Window size WxH (default 1600x1000)");
  cli.add_option("--frames", o.frames, "Frames rendered before the screenshot (default 5)")->check(CLI::Range(1, 1000));
  cli.add_option("--bench-frames", o.bench_frames, "Render N frames and print mean and p95 CPU frame time")->check(CLI::Range(1, 1000000));
  cli.add_option("--scale", o.scale, "UI scale (1 = 15 px text)")->check(CLI::Range(0.5, 4.0));
  cli.add_option("--lesson", o.lesson, "Open this lesson (a name from assets/lessons, or a lesson .json file)");
  cli.add_option("--step", o.lesson_step, "Lesson step to open, from 1 (default 1)");
  cli.add_flag("--high-contrast", o.high_contrast, "High-contrast theme for projectors");
  cli.add_flag("--presentation", o.presentation, "Presentation mode: large text, the card's claims hidden until asked for");
  cli.add_flag("--fullscreen", o.fullscreen, "Full screen on the monitor the window opens on (F11 toggles)");
  cli.add_flag("--presenter", o.presenter, "Open the presenter view (notes, claims, next step, clock) in a second window");
  cli.add_option("--presenter-screenshot", o.presenter_screenshot, "With --presenter: write the presenter window as this PNG and exit");
  cli.add_option("--show", o.show, "Show these panels or tool windows at start (comma-separated ids: export, gpu, quiz, tensor, ...)")
      ->delimiter(',');
  cli.add_option("--quiz-set", o.quiz_set, "Open the quiz on this fixed question set (a .json file or a name in assets/quizzes)");
  cli.add_option("--focus", o.focus, "Start with this panel filling the window (tensor, trace, algebra, ...)");
  std::string open_link_flag;
  cli.add_option("link", o.link, "A workbench link (#v=1&preset=...&lesson=...): open the state it describes");
  cli.add_option("--open-link", open_link_flag, "The same, as a flag");
  cli.add_option("--link-base", o.link_base, "What copied links start with, before '#' (default: nothing, a relative link)");
  cli.add_option("--quiz-records", o.quiz_records,
                 "Folder where a student's quiz answers are recorded (default $SWZ_QUIZ_RECORDS, else ~/.local/share/swizzle-workbench/quiz-records)");
  bool no_first_run_hint = false;
  cli.add_flag("--no-first-run-hint", no_first_run_hint,
               "Do not offer the first lesson on a first start (headless runs never do)");
  cli.set_version_flag("--version", std::string("swizzle-workbench ") + SWZ_VERSION);
  try {
    cli.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    exit_now = true;
    return cli.exit(e);
  } catch (const CLI::CallForVersion& e) {
    exit_now = true;
    return cli.exit(e);
  } catch (const CLI::ParseError& e) {
    exit_now = true;
    std::fprintf(stderr, "swizzle-workbench: error: %s (see --help)\n", e.what());
    return 2;
  }
  o.first_run_hint = !no_first_run_hint;
  try {
    if (!size.empty()) {
      int w = 0, h = 0;
      char x = 0, extra = 0;
      if (std::sscanf(size.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X') || w < 320 || h < 240 || w > 8192 ||
          h > 8192)
        fail("--size '{}' must be WIDTHxHEIGHT between 320x240 and 8192x8192", size);
      o.width = w;
      o.height = h;
    }
    const ProblemArguments none;
    if (problem != none) {
      if (!o.session_file.empty()) fail("give either --session or the problem's flags (--preset, --mask, ...)");
      o.start = parse_problem_arguments(problem);  // bad flags: one line and exit 2, before any window opens
    }
    if (!o.lesson.empty()) {
      std::string why;
      if (!check_lesson(o.lesson, o.lesson_step, why)) fail("{}", why);
    }
    if (!o.quiz_set.empty()) {
      std::string why;
      if (!load_quiz_set(o.quiz_set, why)) fail("--quiz-set: {}", why);
    }
    if (!open_link_flag.empty()) {
      if (!o.link.empty()) fail("give the link once: as the argument or as --open-link");
      o.link = open_link_flag;
    }
    if (!o.link.empty()) {
      try {
        check_launch_link(o);
      } catch (const Error& e) {
        if (!start_despite_bad_link(e.what())) throw;
      }
    }
  } catch (const Error& e) {
    exit_now = true;
    std::fprintf(stderr, "swizzle-workbench: error: %s\n", e.what());
    return 2;
  }
  return 0;
}

FrameStats frame_stats(std::vector<double> ms) {
  FrameStats s;
  s.frames = static_cast<int>(ms.size());
  if (ms.empty()) return s;
  double sum = 0;
  for (double v : ms) sum += v;
  s.mean_ms = sum / static_cast<double>(ms.size());
  std::sort(ms.begin(), ms.end());
  const std::size_t idx = std::min(ms.size() - 1, static_cast<std::size_t>(0.95 * static_cast<double>(ms.size() - 1) + 0.5));
  s.p95_ms = ms[idx];
  return s;
}

WorkbenchOptions workbench_options(const LaunchOptions& o) {
  WorkbenchOptions wo;
  if (!o.session_file.empty()) wo.session_file = o.session_file;
  wo.start = o.start;
  wo.restore_last = !o.headless();
  wo.autosave = !o.headless();
  wo.first_run_hint = o.first_run_hint && !o.headless() && o.lesson.empty() && o.link.empty();  // a lesson asked for needs no hint
  return wo;
}

namespace {

// Everything the frames keep: the window, the workbench and the presenter's capture. On the heap
// (host.h's FrameLoop): in the browser run()'s stack is gone before the first frame is drawn.
class WorkbenchLoop final : public FrameLoop {
 public:
  WorkbenchLoop(const LaunchOptions& o, std::unique_ptr<Platform> window)
      : options(o), platform(std::move(window)), bench(workbench_options(o)) {}
  // Before the members go: the presenter's window shares the main window's GL objects.
  ~WorkbenchLoop() override { close_presenter(); }
  WorkbenchLoop(const WorkbenchLoop&) = delete;
  WorkbenchLoop& operator=(const WorkbenchLoop&) = delete;

  Workbench& workbench() override { return bench; }

  // One frame of the interactive run; false once the window closes or the workbench quits.
  bool frame() override {
    if (platform->should_close() || bench.quit_requested() || stop_requested()) return false;
    draw(/*swap=*/true);
    if (const std::string t = bench.window_title(); t != title) {
      platform->set_title(t);
      title = t;
    }
    return true;
  }

  void draw(bool swap, bool capture_presenter = false) {
    // PNGs (captures and --screenshot) are taken from frames without hover highlights or tooltips.
    InjectedInput away;
    const bool capture = bench.capture_due() || options.headless();
    if (capture) away.mouse_pos = ImVec2(-FLT_MAX, -FLT_MAX);
    platform->begin_frame(bench.ui_scale(), capture ? &away : nullptr);
    bench.draw();
    platform->render();
    service_capture(*platform, bench);
    if (swap) platform->present();
    Classroom& room = classroom();
    if (platform->fullscreen() != room.fullscreen) platform->set_fullscreen(room.fullscreen);
    service_presenter(*platform, bench, capture_presenter ? &presenter_pixels : nullptr);
  }

  const LaunchOptions options;
  std::unique_ptr<Platform> platform;
  Workbench bench;
  PresenterCapture presenter_pixels;
  std::string title;  // the window's title as last set
};

}  // namespace

int run(const LaunchOptions& o) {
  PlatformOptions po;
  po.width = o.width;
  po.height = o.height;
  po.vsync = !o.headless();
  std::string error;
  auto window = Platform::create(po, error);
  if (!window) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  auto loop = std::make_unique<WorkbenchLoop>(o, std::move(window));
  Platform* platform = loop->platform.get();
  Workbench& bench = loop->bench;
  if (o.scale > 0) bench.apply(cmd::set_ui_scale(o.scale));
  Classroom& room = classroom();
  if (!o.quiz_records.empty()) room.records_dir = o.quiz_records;
  if (!o.link_base.empty()) set_link_base(o.link_base);
  room.high_contrast = o.high_contrast;
  room.fullscreen = o.fullscreen;
  room.presenter = o.presenter || !o.presenter_screenshot.empty();
  if (o.presentation) {
    room.presentation = true;
    room.scale_before = bench.ui_scale();
    bench.apply(cmd::set_ui_scale(std::max(kPresentationScale, bench.ui_scale())));
  }
  for (const std::string& id : o.show) {
    if (id == "quiz") {  // the classroom's quiz card, for a class that starts with it
      if (o.quiz_set.empty()) start_quiz(bench, std::nullopt);
      continue;
    }
    const auto tiles = bench.tile_panels();
    if (!bench.is_tool(id) && std::none_of(tiles.begin(), tiles.end(), [&](const auto& t) { return t.first == id; })) {
      std::string known = "export, gpu, quiz";
      for (const auto& t : tiles) known += ", " + t.first;
      std::fprintf(stderr, "swizzle-workbench: error: --show: no panel '%s' (panels: %s)\n", id.c_str(), known.c_str());
      return 2;
    }
    bench.apply(cmd::show_panel(id, true));
  }
  if (!o.quiz_set.empty() && !open_quiz_set(bench, o.quiz_set, error)) {  // checked above; the file may have changed since
    std::fprintf(stderr, "swizzle-workbench: error: --quiz-set: %s\n", error.c_str());
    return 2;
  }
  if (!o.focus.empty()) {
    bench.set_focus(o.focus);
    if (bench.focus() != o.focus) {
      std::string known;
      for (const auto& t : bench.tile_panels()) known += (known.empty() ? "" : ", ") + t.first;
      std::fprintf(stderr, "swizzle-workbench: error: --focus: no panel '%s' (panels: %s)\n", o.focus.c_str(), known.c_str());
      return 2;
    }
  }
  if (!o.lesson.empty()) {
    if (!open_lesson(bench, o.lesson, o.lesson_step, error)) {
      std::fprintf(stderr, "swizzle-workbench: error: %s\n", error.c_str());
      return 2;
    }
    bench.apply_pending();
  }
  if (!o.link.empty()) {
    // Checked above; a lesson file may have changed since.
    if (!apply_link(bench, o.link, error) && !start_despite_bad_link(error)) {
      std::fprintf(stderr, "swizzle-workbench: error: %s\n", error.c_str());
      return 2;
    }
    bench.apply_pending();
  }
  if (o.headless() && !o.session_file.empty() && !bench.error().empty()) {
    std::fprintf(stderr, "swizzle-workbench: error: %s\n", bench.error().c_str());
    return 2;
  }

  using clock = std::chrono::steady_clock;
  PresenterCapture& presenter_pixels = loop->presenter_pixels;
  auto frame = [drawn = loop.get()](bool swap, bool capture_presenter = false) { drawn->draw(swap, capture_presenter); };

  if (o.headless()) {
    if (!o.presenter_screenshot.empty()) {
      for (int i = 0; i + 1 < o.frames; ++i) frame(true);
      frame(true, /*capture_presenter=*/true);
      if (!room.presenter_window) {
        std::fprintf(stderr, "swizzle-workbench: error: --presenter-screenshot: no second window opened (%s)\n", bench.error().c_str());
        return 1;
      }
      if (!write_png(o.presenter_screenshot, presenter_pixels.pixels, presenter_pixels.width, presenter_pixels.height, error)) {
        std::fprintf(stderr, "swizzle-workbench: error: %s\n", error.c_str());
        return 1;
      }
      std::printf("wrote %s (%dx%d)\n", o.presenter_screenshot.c_str(), presenter_pixels.width, presenter_pixels.height);
    }
    if (!o.screenshot.empty()) {
      for (int i = 0; i + 1 < o.frames; ++i) frame(true);
      frame(false);
      platform->finish();
      int w = 0, h = 0;
      const auto pixels = platform->read_pixels(w, h);
      platform->present();
      if (!write_png(o.screenshot, pixels, w, h, error)) {
        std::fprintf(stderr, "swizzle-workbench: error: %s\n", error.c_str());
        return 1;
      }
      std::printf("wrote %s (%dx%d)\n", o.screenshot.c_str(), w, h);
    }
    if (o.bench_frames > 0) {
      for (int i = 0; i < 10; ++i) frame(true);  // warm up: fonts, first layouts, GL buffers
      // CPU frame time: input, the whole UI, and handing the draw lists to GL. The
      // rasterization that follows (on the GPU, or on the CPU with llvmpipe) is reported apart.
      // The same span is also taken as the main thread's own CPU time, which a busy
      // machine's other processes do not inflate.
      auto thread_ms = [] {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
      };
      std::vector<double> ui, cpu, total, thread;
      cpu.reserve(static_cast<std::size_t>(o.bench_frames));
      for (int i = 0; i < o.bench_frames; ++i) {
        const double c0 = thread_ms();
        const auto t0 = clock::now();
        platform->begin_frame(bench.ui_scale());
        bench.draw();
        platform->end_frame();
        const auto t1 = clock::now();
        platform->submit();
        const auto t2 = clock::now();
        thread.push_back(thread_ms() - c0);
        platform->finish();
        const auto t3 = clock::now();
        platform->present();
        ui.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        cpu.push_back(std::chrono::duration<double, std::milli>(t2 - t0).count());
        total.push_back(std::chrono::duration<double, std::milli>(t3 - t0).count());
      }
      const FrameStats u = frame_stats(ui), c = frame_stats(cpu), t = frame_stats(total), th = frame_stats(thread);
      int draw_calls = 0;
      if (const ImDrawData* dd = ImGui::GetDrawData())
        for (int i = 0; i < dd->CmdListsCount; ++i) draw_calls += dd->CmdLists[i]->CmdBuffer.Size;
      std::printf("%s %dx%d, %d frames: CPU frame time mean %.3f ms, p95 %.3f ms (UI alone: mean %.3f ms; "
                  "main thread's CPU time: mean %.3f ms, p95 %.3f ms; with rasterization: mean %.3f ms, p95 %.3f ms; "
                  "%d vertices, %d draw calls)\n",
                  bench.model().problem.name.c_str(), o.width, o.height, c.frames, c.mean_ms, c.p95_ms, u.mean_ms, th.mean_ms, th.p95_ms,
                  t.mean_ms, t.p95_ms, ImGui::GetIO().MetricsRenderVertices, draw_calls);
    }
    return 0;
  }

  // SIGTERM / SIGINT (a closed terminal, kill, Ctrl+C) end the run like closing the window:
  // the session is saved and the crash-recovery marker removed, so the next start offers nothing.
  install_stop_signals();
  run_frames(std::move(loop));  // in the browser: never returns, the page draws frames from here on
  return 0;
}

}  // namespace swz::gui
