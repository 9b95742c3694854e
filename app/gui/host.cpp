#include "host.h"

#include <nlohmann/json.hpp>

#include "classroom.h"
#include "swz/sim/analysis.h"
#include "swz/sim/gpu.h"
#include "workbench.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>

#include <chrono>

#include "open_link.h"

#include "swz/problem/problem.h"
#include "swz/sim/sweep.h"
#include "swz/solve/solver.h"
#endif

namespace swz::gui {

namespace {

nlohmann::json side_json(const AccessResult& r) {
  const Verdict v = verdict_of(r);
  return {{"wavefronts", r.wavefronts},
          {"ideal", r.ideal_wavefronts},
          {"verdict", v == Verdict::Ideal ? "ideal" : v == Verdict::Minor ? "minor" : "severe"},
          {"text", verdict_text(r)}};
}

}  // namespace

std::string shown_state_json(const Workbench& bench) {
  using nlohmann::json;
  const Model& m = bench.model();
  json state{{"problem", m.problem.name},
             {"gpu", gpu_of(m.problem.bank).name},
             {"banks", m.problem.bank.banks},
             {"masks", bench.session().problem.masks},
             {"store", side_json(m.analysis.store.simulated)},
             {"read", side_json(m.analysis.read.simulated)},
             {"status", bench.status()},
             {"error", bench.error()}};
  const Classroom& room = classroom();
  json lesson = nullptr;
  if (room.open_lesson >= 0 && room.open_lesson < static_cast<int>(room.lessons.size()) &&
      room.lessons[static_cast<std::size_t>(room.open_lesson)].lesson)
    lesson = {{"name", room.lessons[static_cast<std::size_t>(room.open_lesson)].lesson->name}, {"step", room.step + 1}};
  state["lesson"] = lesson;
  json audit = nullptr;
  const Workbench::KernelAudit& kernel = bench.kernel_audit();
  if (!kernel.modules.empty()) {
    const AuditReport* report = &kernel.modules[static_cast<std::size_t>(kernel.module)];
    json rows = json::array();
    for (const AuditAccess& a : report->accesses)
      rows.push_back({{"line", a.line},
                      {"op", a.op},
                      {"wavefronts", a.wavefronts ? json(*a.wavefronts) : json(nullptr)},
                      {"ideal", a.ideal_wavefronts ? json(*a.ideal_wavefronts) : json(nullptr)}});
    audit = {{"path", report->path}, {"rows", rows}};
  }
  state["audit"] = audit;
  state["audit_error"] = kernel.error;
  json probes = json::object();
  for (const std::string& id : bench.probe_ids())
    if (const auto p = bench.probe(id)) probes[id] = {p->min.x, p->min.y, p->max.x, p->max.y};
  state["probes"] = probes;
  return state.dump();
}

#ifndef __EMSCRIPTEN__

void run_frames(std::unique_ptr<FrameLoop> loop) {
  while (loop->frame()) {
  }
}

void hand_over_saved_file(const std::filesystem::path&) {}

bool start_despite_bad_link(const std::string&) { return false; }

#else

namespace {
// The running loop, for the whole page (until the workbench quits); null before and after.
FrameLoop*& page_loop() {
  static FrameLoop* loop = nullptr;
  return loop;
}
Workbench* attached() { return page_loop() ? &page_loop()->workbench() : nullptr; }
std::string& returned_text() {  // what the last exported call returned, alive until the next
  static std::string text;
  return text;
}
const char* give(std::string text) {
  returned_text() = std::move(text);
  return returned_text().c_str();
}
void draw_page_frame(void* loop) {
  if (static_cast<FrameLoop*>(loop)->frame()) {
    static bool drawn_before = false;  // the page's time to first frame (Module.firstFrameAt)
    if (!drawn_before) EM_ASM({ Module.firstFrameAt = performance.now(); });
    drawn_before = true;
    return;
  }
  emscripten_cancel_main_loop();
  page_loop() = nullptr;
  delete static_cast<FrameLoop*>(loop);
}
}  // namespace

void run_frames(std::unique_ptr<FrameLoop> loop) {
  // simulate_infinite_loop: main unwinds here (its stack is released) and the browser calls
  // draw_page_frame once per animation frame; everything a frame needs is in the loop, on the heap.
  page_loop() = loop.release();
  emscripten_set_main_loop_arg(draw_page_frame, page_loop(), /*fps=*/0, /*simulate_infinite_loop=*/1);
}

void hand_over_saved_file(const std::filesystem::path& path) {
  // The bytes leave the in-memory file system as a Blob the browser saves under the file's name.
  EM_ASM(
      {
        const path = UTF8ToString($0);
        const bytes = FS.readFile(path);
        const link = document.createElement('a');
        link.href = URL.createObjectURL(new Blob([bytes]));
        link.download = path.split('/').pop();
        document.body.appendChild(link);
        link.click();
        setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 0);
      },
      path.string().c_str());
}

bool start_despite_bad_link(const std::string& reason) {
  EM_ASM(
      {
        if (Module.showLinkError) Module.showLinkError(UTF8ToString($0));
      },
      reason.c_str());
  return true;
}

extern "C" {

// The page's file picker and drop handler wrote a file here: open it as File > Open would.
EMSCRIPTEN_KEEPALIVE const char* swz_web_open_file(const char* path) {
  Workbench* bench = attached();
  if (!bench) return give(R"({"ok":false,"error":"the workbench is not running"})");
  const bool ok = bench->open_file(path);
  return give(nlohmann::json{{"ok", ok}, {"error", ok ? std::string() : bench->error()}}.dump());
}

// The page's address changed its fragment (hashchange): open the state the link describes.
EMSCRIPTEN_KEEPALIVE const char* swz_web_open_link(const char* url) {
  Workbench* bench = attached();
  if (!bench) return give(R"({"ok":false,"error":"the workbench is not running"})");
  std::string error;
  const bool ok = apply_link(*bench, url, error);
  return give(nlohmann::json{{"ok", ok}, {"error", error}}.dump());
}

// The test hook: what the workbench shows now (shown_state_json).
EMSCRIPTEN_KEEPALIVE const char* swz_web_state() {
  Workbench* bench = attached();
  return give(bench ? shown_state_json(*bench) : std::string(R"({"error":"the workbench is not running"})"));
}

// The core's 2^20-configuration sweep and the solver on the seed problem, timed in the page.
EMSCRIPTEN_KEEPALIVE const char* swz_web_time_core() {
  using clock = std::chrono::steady_clock;
  const Problem seed = make_preset("transpose16x32");
  const auto t0 = clock::now();
  const SweepResult swept = sweep(seed);
  const auto t1 = clock::now();
  const SolveResult solved = solve(seed);
  const auto t2 = clock::now();
  return give(nlohmann::json{{"sweep_configs", swept.configs},
                             {"sweep_both_conflict_free", swept.conflict_free_both},
                             {"sweep_ms", std::chrono::duration<double, std::milli>(t1 - t0).count()},
                             {"solve_ms", std::chrono::duration<double, std::milli>(t2 - t1).count()},
                             {"solve_conflict_free", solved.conflict_free}}
                  .dump());
}

}  // extern "C"

#endif

}  // namespace swz::gui
