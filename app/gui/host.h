// host.h: what differs between the desktop and the browser, behind one small interface.
// The workbench, its panels and the core are the same code in both builds; only this and
// the platform layer (platform.h, gl_api.h) know which one they run in.
//
//                 desktop (g++ / clang)              browser (emcc, WebAssembly)
//   frames        a loop until the window closes     one per animation frame; the loop's state on the heap
//   files in      File > Open's dialog               the page's file picker or a drop onto the canvas:
//                                                    written into the in-memory file system, then
//                                                    opened by Workbench::open_file
//   files out     where the user asked               the same, then downloaded by the browser
//   CUDA          app/gpu's backend, when built      none (the GPU panel says why)
//   test hook     GuiTest drives the Workbench       swz_web_state(): what the page shows, as JSON
//   a bad link    at start: one line, exit 2         shown on the page (and in the error bar), the
//                                                    workbench starts without it; the same on a hash change
#pragma once

#include <filesystem>
#include <memory>
#include <string>

namespace swz::gui {

class Workbench;

// What the frames keep between them: the window and the workbench. The loop owns it on the heap,
// so in the browser it outlives run()'s stack (released before the first frame is drawn), and
// the page's calls reach the workbench through the same object between frames.
class FrameLoop {
 public:
  virtual ~FrameLoop() = default;
  virtual bool frame() = 0;  // draws one frame; false ends the run
  virtual Workbench& workbench() = 0;
};

// Calls loop->frame() until it returns false, then destroys the loop. In the browser: one frame
// per animation frame (emscripten_set_main_loop_arg); this never returns to its caller there.
void run_frames(std::unique_ptr<FrameLoop> loop);

// A file the user just saved: the browser downloads it; on the desktop it is already where asked.
void hand_over_saved_file(const std::filesystem::path& path);

// A link the workbench starts with cannot be opened (malformed, or naming a missing lesson step):
// false on the desktop (the caller says why in one line and exits 2); in the browser the page
// shows `reason` above the canvas and the workbench goes on without the link (true).
bool start_despite_bad_link(const std::string& reason);

// What the workbench shows now, as one JSON object: the problem and masks, each side's wavefronts
// and verdict, the open lesson and step, the kernel audit's rows, the status line and error, and
// every probe rectangle of the last frame (where a test's mouse clicks a cell).
std::string shown_state_json(const Workbench& bench);

}  // namespace swz::gui
