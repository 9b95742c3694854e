// svg_tables.cpp: the figures of svg.h that are words and small tables: a text panel, the XOR table.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "svg_canvas.h"
#include "swz/error.h"
#include "swz/export/svg.h"

namespace swz {

using namespace svg_canvas;

std::string xor_table_row_label(std::int64_t row) { return fmt::format("m={}", row); }
std::string_view xor_table_column_axis() { return "n="; }

// [SECTION] Text panels and XOR tables

std::string text_figure_svg(std::string_view view, std::string_view title, const std::vector<std::string>& lines) {
  Canvas canvas;
  canvas.text(8, 22, 16, title, "start", kInk, " font-weight=\"bold\"");
  // Lines 1.36 sizes apart: a long panel (the solver's eleven steps and its sentence) still fits
  // a slide with its lines at kSlideTextPx.
  int y = 46;
  for (const std::string& line : lines) {
    canvas.text(8, y, 14, line, "start", kInk, " class=\"line\" font-family=\"DejaVu Sans Mono, monospace\"");
    y += 19;
  }
  canvas.fit(0, y);
  return canvas.finish(view, title, static_cast<std::int64_t>(lines.size()));
}

std::string xor_table_svg(int rows, int cols, int text_size) {
  if (rows < 1 || cols < 1 || rows > 64 || cols > 64) fail("an XOR table is 1..64 rows by 1..64 columns, not {}x{}", rows, cols);
  constexpr int kCell = 26, kLeft = 44;
  int top = 88;
  Canvas canvas;
  if (text_size > 0) canvas.label = kLabel;
  const std::string title = fmt::format("XOR by the row on a {}x{} tile: element (m, n) goes to column n \u2295 m", rows, cols);
  const std::string caption = fmt::format("red = n \u2295 m is outside columns 0..{}", cols - 1);
  if (text_size > 0) {
    const int width = std::max(20 * text_size, kLeft + cols * kCell);
    top = canvas.heading(text_size, width, title, {caption}) + 32 - text_size;
  } else {
    // Two short lines, so the table is about as wide as its cells.
    canvas.text(8, 20, 14, fmt::format("XOR by the row on a {}x{} tile:", rows, cols), "start", kInk, " font-weight=\"bold\"");
    canvas.text(8, 38, 14, "element (m, n) goes to column n \u2295 m", "start", kInk, " font-weight=\"bold\"");
    canvas.text(8, 56, 11, caption, "start", kMuted);
  }
  canvas.text(kLeft - 6, top - 6, 12, xor_table_column_axis(), "end", kMuted, canvas.label);
  for (int n = 0; n < cols; ++n)
    canvas.text(kLeft + n * kCell + kCell / 2, top - 6, 12, std::to_string(n), "middle", kMuted, canvas.label);
  for (int m = 0; m < rows; ++m) {
    canvas.text(kLeft - 6, top + m * kCell + kCell / 2 + 4, 12, xor_table_row_label(m), "end", kMuted, canvas.label);
    for (int n = 0; n < cols; ++n) {
      const int to = n ^ m;
      const Rgb fill = to < cols ? Rgb{0xe6, 0xf0, 0xe6} : Rgb{0xd0, 0x30, 0x30};
      const int x = kLeft + n * kCell, y = top + m * kCell;
      canvas.body += fmt::format(
          "<rect class=\"cell\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"1\" "
          "data-row=\"{}\" data-col=\"{}\" data-value=\"{}\"/>\n",
          x, y, kCell, kCell, hex_color(fill), m, n, to);
      canvas.body += cell_label_text(x, y, kCell, std::to_string(to), fill, canvas.label);
    }
  }
  canvas.fit(kLeft + cols * kCell + 12, top + rows * kCell + 12);
  return canvas.finish("xor-table", title, static_cast<std::int64_t>(rows) * cols);
}

}  // namespace swz
