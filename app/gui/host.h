// host.h: what differs between the desktop and the browser, behind one small interface.
// The workbench, its panels and the core are the same code in both builds; only this and
// the platform layer (platform.h, gl_api.h) know which one they run in.
//
//                 desktop (g++ / clang)              browser (emcc, WebAssembly)
//   frames        a loop until the window closes     one per animation frame, never returning
//   files in      File > Open's dialog               the page's file picker or a drop onto the canvas:
//                                                    written into the in-memory file system, then
//                                                    opened by Workbench::open_file
//   files out     where the user asked               the same, then downloaded by the browser
//   CUDA          app/gpu's backend, when built      none (the GPU panel says why)
//   test hook     GuiTest drives the Workbench       swz_web_state(): what the page shows, as JSON
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace swz::gui {

class Workbench;

// Calls frame() until it returns false. In the browser: once per animation frame, waiting for the
// next one without returning to the caller (the page's hooks run between frames).
void run_frames(std::function<bool()> frame);

// The workbench the page's calls (open a file, read the state) act on; null detaches.
void attach_host(Workbench* bench);

// A file the user just saved: the browser downloads it; on the desktop it is already where asked.
void hand_over_saved_file(const std::filesystem::path& path);

// What the workbench shows now, as one JSON object: the problem and masks, each side's wavefronts
// and verdict, the open lesson and step, the kernel audit's rows, the status line and error, and
// every probe rectangle of the last frame (where a test's mouse clicks a cell).
std::string shown_state_json(const Workbench& bench);

}  // namespace swz::gui
