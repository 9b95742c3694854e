// widgets.h: drawing pieces several panels share: F2 matrices, cell pictures,
// verdict badges, headings.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "cell_image.h"
#include "panel.h"
#include "swz/sim/analysis.h"

namespace swz::gui {

// An F2 matrix drawn as cells: columns = input bits, rows = output bits.
struct MatrixView {
  std::vector<std::string> row_labels, col_labels;
  std::function<ImU32(int row, int col)> color;     // fill of each cell
  std::function<bool(int row, int col)> clickable;  // null: nothing clickable
  std::vector<int> col_breaks, row_breaks;          // a thicker gap before these indices
  std::vector<std::pair<int, std::string>> col_groups;  // (first column, caption) above the labels
  float cell = 0.0f;                                // cell size in px; 0 = 1.25 em; never below 0.8 of the label font
  std::string probe_prefix;                         // probes "<prefix>.<row>.<col>" when set
};
// Returns the clicked cell (row, col) when one was clicked.
std::optional<std::pair<int, int>> draw_matrix(PanelContext& ctx, const char* id, const MatrixView& view);

// A picture of the tensor: rows x cols cells filled by color(row, col), clipped to
// what is visible. Returns the hovered cell when the mouse is over one.
struct CellPicture {
  int rows = 0, cols = 0;
  float cell = 8.0f;            // px
  ImVec2 origin;                // screen position of cell (0, 0)
  float gap = 1.0f;             // px between cells when cells are large enough
  CellImage* image = nullptr;   // when set, many small cells are drawn as one texture
};
std::optional<std::pair<int, int>> draw_cells(ImDrawList* dl, const CellPicture& pic, const std::function<ImU32(int, int)>& color,
                                              ImVec2 clip_min, ImVec2 clip_max);

// "Read: 2 wavefronts, 2-way conflict" with a colored badge; registers probe `probe_id` on the badge.
void verdict_line(PanelContext& ctx, const char* label, const AccessResult& result, const std::string& probe_id);

// Rows that break instead of running off a panel: call between two items. Keeps the next
// item (`width` px wide) on the current line when it fits before the right edge, else
// lets it start a new line. True when it stays on the line.
bool same_line_if_fits(float width);
// The width of a button or other framed item showing `label`.
float button_width(const char* label);
// `text` when it fits in `width` px, else cut and ended with "..." (a combo's preview, a file name).
std::string fit_text(const std::string& text, float width);
// The space a combo of the next item's width (-1: the rest of the line) has for its preview.
float combo_preview_width(float item_width = -1.0f);

void heading(const char* text);
// Gray helper text that wraps.
void note(const char* text);
// Text drawn with the monospace font.
void mono(const std::string& text);

}  // namespace swz::gui
