// session.h: the workbench's whole state as plain data, and its JSON file.
//
//   Session
//   ├── problem  (ProblemSpec)  what undo/redo records: preset, types, layouts, masks (core)
//   ├── trace    (TraceState)    which access, warp and register step is shown
//   └── view     (ViewState)     UI scale, visible panels, zoom, chosen threads
//
// The file is versioned JSON ("format": "swizzle-workbench-session", "version": 1).
// Reading validates everything and throws swz::Error naming the first problem;
// writing is atomic (temporary file, flush, rename), so a crash never leaves a
// half-written session behind.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "swz/layout/layout.h"
#include "swz/problem/problem.h"
#include "swz/problem/problem_spec.h"
#include "swz/problem/views.h"

namespace swz::gui {

inline constexpr int kSessionVersion = 1;

enum class Side { Store, Read };
const char* side_name(Side side);  // "store" / "read"

// Everything that defines the problem is the core's ProblemSpec (problem_spec.h): each edit
// is a named command, and undo restores the previous spec.

struct TraceState {
  Side side = Side::Read;         // access shown in the tensor view, trace and algebra
  int warp = 0;                   // warp of the traced instruction
  int step = 0;                   // register step r
  bool playing = false;           // advance r over time
  float seconds_per_step = 0.6f;  // play speed
  bool operator==(const TraceState&) const = default;
};

enum class MemoryColoring { Column, Row, Bank };

struct ViewState {
  float ui_scale = 1.0f;                           // multiplies font and spacing sizes
  std::map<std::string, bool> panels;              // visibility by panel id; missing = visible
  float tensor_zoom = 0.0f;                        // cell size in px at scale 1; 0 = fit the panel
  float tensor_pan_x = 0.0f, tensor_pan_y = 0.0f;  // view offset in cells
  int ring_lane_a = 9, ring_warp_a = 0;            // thread whose elements are ringed in A's picture
  int ring_lane_b = 9, ring_warp_b = 0;            // ... and in B's
  MemoryColoring memory_coloring = MemoryColoring::Column;
  CellNumbers cell_numbers = CellNumbers::None;  // numbers in the tensor's cells
  int solver_step = 0;                           // replayed solver step
  bool operator==(const ViewState&) const = default;
};

struct Session {
  ProblemSpec problem;
  TraceState trace;
  ViewState view;
  bool operator==(const Session&) const = default;
};

nlohmann::json to_json(const Session& session);
// Throws swz::Error naming the first missing or malformed field.
Session session_from_json(const nlohmann::json& j);

// Reads and validates a session file; throws swz::Error, never touches the file.
Session load_session_file(const std::filesystem::path& path);
// Writes atomically: `path`.tmp, flushed and synced, then renamed over `path`.
void save_session_file(const std::filesystem::path& path, const Session& session);
// Same atomic write for any text.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

// $XDG_CONFIG_HOME/swizzle-workbench, or ~/.config/swizzle-workbench.
std::filesystem::path config_dir();
std::filesystem::path last_session_path();

}  // namespace swz::gui
