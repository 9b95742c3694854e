// The panel list: every panel of the workbench, its column and share of the
// column's height, in View-menu order. A new panel is one line here.
//
//   column 0              column 1          column 2
//   Problem               Tensor view       Layouts A and B
//   Toggle grid           Access trace      Algebra
//   Live M matrix         Solver            Physical memory
//
// Tool windows (Export, GPU) float above the tiles and open from the Tools menu.
#include "panel.h"

namespace swz::gui {

std::unique_ptr<Panel> make_problem_panel();
std::unique_ptr<Panel> make_toggle_grid_panel();
std::unique_ptr<Panel> make_tensor_panel();
std::unique_ptr<Panel> make_trace_panel();
std::unique_ptr<Panel> make_layouts_panel();
std::unique_ptr<Panel> make_matrix_panel();
std::unique_ptr<Panel> make_algebra_panel();
std::unique_ptr<Panel> make_memory_panel();
std::unique_ptr<Panel> make_solver_panel();
std::unique_ptr<Panel> make_export_panel();
std::unique_ptr<Panel> make_gpu_panel();
std::unique_ptr<Panel> make_kernel_panel();

std::vector<PanelSlot> make_panels() {
  std::vector<PanelSlot> p;
  p.push_back({make_problem_panel(), 0, 1.25f});
  p.push_back({make_toggle_grid_panel(), 0, 1.0f});
  p.push_back({make_tensor_panel(), 1, 1.15f});
  p.push_back({make_trace_panel(), 1, 0.9f});
  p.push_back({make_layouts_panel(), 2, 1.35f});
  p.push_back({make_matrix_panel(), 0, 1.05f});
  p.push_back({make_algebra_panel(), 2, 0.95f});
  p.push_back({make_memory_panel(), 2, 0.85f});
  p.push_back({make_solver_panel(), 1, 0.95f});
  return p;
}

std::vector<std::unique_ptr<Panel>> make_tools() {
  std::vector<std::unique_ptr<Panel>> t;
  t.push_back(make_export_panel());
  t.push_back(make_gpu_panel());
  t.push_back(make_kernel_panel());
  return t;
}

}  // namespace swz::gui
