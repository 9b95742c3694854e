#include "commands.h"

#include <fmt/format.h>

#include <algorithm>

namespace swz::gui {

void History::record(std::string name, ProblemSpec before, ProblemSpec after) {
  entries_.resize(next_);  // a new edit drops what was undone
  entries_.push_back({std::move(name), std::move(before), std::move(after)});
  if (entries_.size() > kLimit) entries_.erase(entries_.begin());
  next_ = entries_.size();
}

const char* role_name(LayoutRole role) {
  switch (role) {
    case LayoutRole::Writer:
      return "writer (A)";
    case LayoutRole::Reader:
      return "reader (B)";
    case LayoutRole::Shared:
      break;
  }
  return "shared layout";
}

namespace cmd {

namespace {
// The shared layout becomes the grid's again.
void back_to_grid(ProblemSpec& p) {
  p.shared.reset();
  p.variant.clear();
}
}  // namespace

Command select_preset(const std::string& preset) {
  return {fmt::format("Preset {}", preset), [preset](Session& s) {
            s.problem = ProblemSpec{};
            s.problem.preset = preset;
            s.trace.step = 0;
            s.trace.warp = 0;
            s.view.solver_step = 0;
          }};
}

Command toggle_cell(int row_bit, int col_bit, const std::string& row_name, const std::string& col_name) {
  return {fmt::format("Toggle {} into {}", row_name, col_name), [row_bit, col_bit](Session& s) {
            auto& p = s.problem;
            back_to_grid(p);
            if (p.masks.size() <= static_cast<std::size_t>(row_bit)) p.masks.resize(static_cast<std::size_t>(row_bit) + 1, 0);
            p.masks[static_cast<std::size_t>(row_bit)] ^= std::uint32_t{1} << col_bit;
            trim_masks(p.masks);
          }};
}

Command set_masks(const std::string& name, std::vector<std::uint32_t> masks) {
  return {name, [masks = std::move(masks)](Session& s) {
            back_to_grid(s.problem);
            s.problem.masks = masks;
            trim_masks(s.problem.masks);
          }};
}

Command use_variant(const std::string& variant) {
  return {fmt::format("Layout {}", variant), [variant](Session& s) {
            s.problem.shared.reset();
            s.problem.masks.clear();
            s.problem.variant = variant;
          }};
}

Command variant_command(const Variant& v) {
  if (v.masks) return set_masks(fmt::format("Layout {}", v.name), *v.masks);
  return use_variant(v.name);
}

Command set_element_bits(int bits) {
  return {fmt::format("Element type {}-bit", bits), [bits](Session& s) { s.problem.element_bits = bits; }};
}

Command set_bank_model(int banks, int warp_size) {
  return {fmt::format("{} banks, {}-lane warps", banks, warp_size), [banks, warp_size](Session& s) {
            s.problem.banks = banks;
            s.problem.warp_size = warp_size;
          }};
}

Command set_gpu(std::string name) {
  return {fmt::format("GPU {}", name), [name = std::move(name)](Session& s) {
            s.problem.gpu = name;
            s.problem.banks = 0;  // the GPU's own
            s.problem.warp_size = 0;
          }};
}

Command set_shape(std::vector<std::int64_t> shape) {
  return {fmt::format("Tile {}", fmt::join(shape, "x")), [shape = std::move(shape)](Session& s) {
            auto& p = s.problem;
            p.shape = shape;
            p.writer.reset();
            p.reader.reset();
            p.write_matrix.clear();  // stmatrix / ldmatrix rows belong to the layouts that give them
            p.read_matrix.clear();
            p.shared.reset();
            p.variant.clear();
            p.masks.clear();
          }};
}

Command load_layout(LayoutRole role, SpecLayout layout) {
  return {fmt::format("Load {} {}", role_name(role), layout.origin), [role, layout = std::move(layout)](Session& s) {
            auto& p = s.problem;
            switch (role) {
              case LayoutRole::Writer:
                p.writer = layout;
                p.write_matrix.clear();  // a register layout: st.shared until a matrix form is given
                break;
              case LayoutRole::Reader:
                p.reader = layout;
                p.read_matrix.clear();
                break;
              case LayoutRole::Shared:
                p.shared = layout;
                p.variant.clear();
                p.masks.clear();
                break;
            }
          }};
}

Command set_problem(std::string name, ProblemSpec problem) {
  return {std::move(name), [problem = std::move(problem)](Session& s) {
            s.problem = problem;
            s.trace.step = 0;
            s.trace.warp = 0;
            s.view.solver_step = 0;
          }};
}

Command clear_layout(LayoutRole role) {
  return {fmt::format("Back to the preset's {}", role_name(role)), [role](Session& s) {
            auto& p = s.problem;
            switch (role) {
              case LayoutRole::Writer:
                p.writer.reset();
                p.write_matrix.clear();
                break;
              case LayoutRole::Reader:
                p.reader.reset();
                p.read_matrix.clear();
                break;
              case LayoutRole::Shared:
                p.shared.reset();
                break;
            }
          }};
}

Command set_side(Side side) {
  return {fmt::format("Show {}", side_name(side)), [side](Session& s) { s.trace.side = side; }, false};
}
Command set_step(int step) {
  return {fmt::format("Step {}", step), [step](Session& s) { s.trace.step = std::max(0, step); }, false};
}
Command set_warp(int warp) {
  return {fmt::format("Warp {}", warp), [warp](Session& s) { s.trace.warp = std::max(0, warp); }, false};
}
Command set_playing(bool playing) {
  return {playing ? "Play" : "Pause", [playing](Session& s) { s.trace.playing = playing; }, false};
}
Command set_speed(float seconds) {
  return {"Play speed", [seconds](Session& s) { s.trace.seconds_per_step = std::clamp(seconds, 0.02f, 10.0f); }, false};
}
Command set_ui_scale(float scale) {
  return {"UI scale", [scale](Session& s) { s.view.ui_scale = std::clamp(scale, 0.5f, 4.0f); }, false};
}
Command show_panel(const std::string& id, bool shown) {
  return {fmt::format("{} {}", shown ? "Show" : "Hide", id), [id, shown](Session& s) { s.view.panels[id] = shown; }, false};
}
Command set_tensor_view(float zoom, float pan_x, float pan_y) {
  return {"Tensor view",
          [=](Session& s) {
            s.view.tensor_zoom = std::clamp(zoom, 0.0f, 512.0f);
            s.view.tensor_pan_x = pan_x;
            s.view.tensor_pan_y = pan_y;
          },
          false};
}
Command set_ring(Side side, int lane, int warp) {
  return {"Ringed thread",
          [=](Session& s) {
            if (side == Side::Store) {
              s.view.ring_lane_a = lane;
              s.view.ring_warp_a = warp;
            } else {
              s.view.ring_lane_b = lane;
              s.view.ring_warp_b = warp;
            }
          },
          false};
}
Command set_memory_coloring(MemoryColoring c) {
  return {"Memory coloring", [c](Session& s) { s.view.memory_coloring = c; }, false};
}
Command set_cell_numbers(CellNumbers numbers) {
  return {"Cell numbers", [numbers](Session& s) { s.view.cell_numbers = numbers; }, false};
}
Command set_solver_step(int step) {
  return {"Solver step", [step](Session& s) { s.view.solver_step = std::max(0, step); }, false};
}

}  // namespace cmd

}  // namespace swz::gui
