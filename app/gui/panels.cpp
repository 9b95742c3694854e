// The panel list: every panel of the workbench, its column and share of the
// column's height, in View-menu order. A new panel is one line here.
//
//   column 0              column 1          column 2
//   Problem               Tensor view       Layouts A and B
//   Toggle grid           Access trace      Algebra
//   Live M matrix         Solver            Physical memory
//
// When three columns would make a panel narrower than its least width at the UI
// scale (a projector at 160-200 %), two columns take them; one when even two do not fit:
//
//   column 0 of two       column 1 of two
//   Problem               Tensor view
//   Toggle grid           Access trace
//   Live M matrix         Layouts A and B
//   Algebra               Solver
//   Physical memory
//
// Tool windows (Export, GPU) float above the tiles and open from the Tools menu.
#include "panel.h"

#include <algorithm>
#include <cmath>

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
  //          panel                      column  weight  of two  least width, height (em)
  p.push_back({make_problem_panel(),       0,      1.25f,  0,      22.0f, 14.0f});
  p.push_back({make_toggle_grid_panel(),   0,      1.0f,   0,      16.0f, 11.0f});
  p.push_back({make_tensor_panel(),        1,      1.15f,  1,      18.0f, 14.0f});
  p.push_back({make_trace_panel(),         1,      0.9f,   1,      22.0f, 12.0f});
  p.push_back({make_layouts_panel(),       2,      1.35f,  1,      22.0f, 18.0f});
  p.push_back({make_matrix_panel(),        0,      1.05f,  0,      14.0f, 12.0f});
  p.push_back({make_algebra_panel(),       2,      0.95f,  0,      20.0f, 12.0f});
  p.push_back({make_memory_panel(),        2,      0.85f,  0,      22.0f, 10.0f});
  p.push_back({make_solver_panel(),        1,      0.95f,  1,      24.0f, 14.0f});
  return p;
}

namespace {

// Splits `total` by `share`, no part below its `least`: parts that would fall short get
// their least and the rest is split again among the others. The parts add up to
// max(total, the sum of the leasts).
std::vector<float> split(const std::vector<float>& share, const std::vector<float>& least, float total) {
  const std::size_t n = share.size();
  std::vector<float> out(n, 0.0f);
  std::vector<bool> held(n, false);
  for (bool changed = true; changed;) {
    changed = false;
    float rest = total, shares = 0.0f;
    for (std::size_t i = 0; i < n; ++i) {
      if (held[i]) rest -= least[i];
      else shares += share[i];
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (held[i]) {
        out[i] = least[i];
        continue;
      }
      out[i] = shares > 0.0f ? std::max(0.0f, rest) * share[i] / shares : 0.0f;
      if (out[i] < least[i] - 0.01f) {
        held[i] = true;
        changed = true;
      }
    }
  }
  return out;
}

}  // namespace

TileArrangement arrange_tiles(const std::vector<PanelSlot>& slots, const std::vector<bool>& visible, float width, float height, float em) {
  auto shown = [&](std::size_t i) { return i < visible.size() && visible[i]; };
  for (const int columns : {kColumns, 2, 1}) {
    auto column_of = [&](const PanelSlot& s) { return columns == kColumns ? s.column : columns == 2 ? s.column2 : 0; };
    // The columns that hold a visible panel, their shares and least widths.
    std::vector<int> used;
    std::vector<float> share, least;
    for (int c = 0; c < columns; ++c) {
      float need = 0.0f;
      bool any = false;
      for (std::size_t i = 0; i < slots.size(); ++i)
        if (shown(i) && column_of(slots[i]) == c) {
          any = true;
          need = std::max(need, slots[i].min_width_em * em);
        }
      if (!any) continue;
      used.push_back(c);
      share.push_back(columns == kColumns ? kColumnShare[c] : columns == 2 ? kColumnShare2[c] : 1.0f);
      least.push_back(need);
    }
    float need = 0.0f;
    for (float l : least) need += l;
    if (need > width + 0.5f && columns > 1) continue;  // too narrow for this many columns at this scale

    TileArrangement out;
    out.columns = columns;
    const std::vector<float> widths = split(share, least, width);
    float x = 0.0f;
    for (std::size_t k = 0; k < used.size(); ++k) {
      const float col_w = k + 1 == used.size() ? std::max(width, need) - x : std::round(widths[k]);
      std::vector<std::size_t> members;
      std::vector<float> weight, least_h;
      for (std::size_t i = 0; i < slots.size(); ++i)
        if (shown(i) && column_of(slots[i]) == used[k]) {
          members.push_back(i);
          weight.push_back(slots[i].weight);
          least_h.push_back(slots[i].min_height_em * em * (columns < kColumns ? kRoomyHeight : 1.0f));
        }
      const std::vector<float> heights = split(weight, least_h, height);
      float total = 0.0f;
      for (float h : heights) total += h;
      total = std::max(total, height);  // what the rounded heights are cut to
      float y = 0.0f;
      for (std::size_t j = 0; j < members.size(); ++j) {
        const float h = std::round(heights[j]);
        out.tiles.push_back({members[j], x, y, col_w, std::min(h, total - y)});
        y += h;
      }
      out.height = std::max(out.height, std::min(y, total));
      x += col_w;
    }
    return out;
  }
  return {};
}

std::vector<std::unique_ptr<Panel>> make_tools() {
  std::vector<std::unique_ptr<Panel>> t;
  t.push_back(make_export_panel());
  t.push_back(make_gpu_panel());
  t.push_back(make_kernel_panel());
  return t;
}

}  // namespace swz::gui
