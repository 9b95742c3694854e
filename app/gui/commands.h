// commands.h: every change to the session is a small named command.
//
// Panels never write the session directly: they post commands, the workbench
// applies them after the frame's panels are drawn. Problem edits (preset,
// types, layouts, masks) are undoable: the history keeps the problem state
// before and after each one under the command's name ("Fold m0 into n1").
// Trace and view changes (step, zoom, panel visibility) are not recorded.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "session.h"

namespace swz::gui {

struct Command {
  std::string name;                     // shown in Edit > Undo / Redo
  std::function<void(Session&)> apply;  // may throw swz::Error: the session is then left unchanged
  bool undoable = true;                 // false for trace and view changes
};

class History {
 public:
  void record(std::string name, ProblemSpec before, ProblemSpec after);
  bool can_undo() const { return next_ > 0; }
  bool can_redo() const { return next_ < entries_.size(); }
  const std::string& undo_name() const { return entries_[next_ - 1].name; }
  const std::string& redo_name() const { return entries_[next_].name; }
  // The state to restore; call only when can_undo() / can_redo().
  const ProblemSpec& undo() { return entries_[--next_].before; }
  const ProblemSpec& redo() { return entries_[next_++].after; }
  void clear() {
    entries_.clear();
    next_ = 0;
  }
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::string name;
    ProblemSpec before, after;
  };
  static constexpr std::size_t kLimit = 1000;
  std::vector<Entry> entries_;
  std::size_t next_ = 0;  // entries_[0, next_) are done, the rest undone
};

enum class LayoutRole { Writer, Reader, Shared };
const char* role_name(LayoutRole role);  // "writer (A)", ...

// [SECTION] Problem edits (undoable)
namespace cmd {
Command select_preset(const std::string& preset);
Command toggle_cell(int row_bit, int col_bit, const std::string& row_name, const std::string& col_name);
Command set_masks(const std::string& name, std::vector<std::uint32_t> masks);
Command use_variant(const std::string& variant);
// A preset's named layout: masks go to the grid (so toggles start from them), layouts replace it.
Command variant_command(const Variant& variant);
Command set_element_bits(int bits);
Command set_bank_model(int banks, int warp_size);
// The GPU whose model prices the problem (gpu.h), its own bank and lane counts with it.
Command set_gpu(std::string name);
Command set_shape(std::vector<std::int64_t> shape);
Command load_layout(LayoutRole role, SpecLayout layout);
Command set_problem(std::string name, ProblemSpec problem);  // the whole problem at once (a kernel's access)
Command clear_layout(LayoutRole role);

// [SECTION] Trace and view (not recorded)
Command set_side(Side side);
Command set_step(int step);
Command set_warp(int warp);
Command set_playing(bool playing);
Command set_speed(float seconds_per_step);
Command set_ui_scale(float scale);
Command show_panel(const std::string& panel_id, bool shown);
Command set_tensor_view(float zoom, float pan_x, float pan_y);
Command set_ring(Side side, int lane, int warp);
Command set_memory_coloring(MemoryColoring coloring);
Command set_cell_numbers(CellNumbers numbers);
Command set_solver_step(int step);
}  // namespace cmd

}  // namespace swz::gui
