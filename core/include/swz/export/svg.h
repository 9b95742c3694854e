// svg.h: figures for slides and papers, drawn from the core's own data.
//
// Views (the pictures of the article, one per call):
//   tensor     the tensor, one cell per element, colored by the bank it lands in
//              (hue = bank / 2, darker = odd bank; number = bank); optionally the
//              elements one store or read instruction touches, outlined
//   writer     who stores what: colored by owning thread (hue walks t0..t31, odd
//   reader     threads darker), number = the register holding it
//   matrix-a   the store layout A as a 0/1 matrix: columns = input bits
//   matrix-b   (register, lane, warp), rows = coordinate bits
//   matrix-m   the shared layout M: columns = offset bits (word / bank / segment),
//              rows = coordinate bits; blue = the row-major structure, dark =
//              what the swizzle folds in
//
// Every element (or matrix entry) is one <rect class="cell ..."> with data-*
// attributes (data-row, data-col, data-bank, data-thread, ...), so a test or a
// script can count and read the cells. Output is well-formed XML, SVG 1.1
// colors (#rrggbb), integer coordinates: the same problem gives the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "swz/problem/problem.h"

namespace swz {

enum class FigureView { Tensor, Writer, Reader, MatrixA, MatrixB, MatrixM };

enum class TracedAccess { None, Store, Read };

struct FigureOptions {
  int highlight_thread = -1;  // writer/reader: ring this thread's elements (-1: none)
  bool labels = true;         // numbers in the cells, where the cells are large enough
  std::string title;          // "" = a title naming the problem and the view
  // tensor: outline the elements one instruction touches (solid: lower half-warp, dashed:
  // upper), and give its wavefronts in the caption, as the simulator counts them.
  TracedAccess trace = TracedAccess::None;
  int trace_step = 0;  // register step of that instruction
  int trace_warp = 0;
  bool offset_numbers = false;  // tensor: the number in a cell is its offset, not its bank
  // tensor: cells ringed in red, (row, column) as drawn (a lesson step's highlights)
  std::vector<std::pair<std::int64_t, std::int64_t>> marked;
  // tensor: only rows [first_row, first_row + row_count) and columns [first_col, first_col +
  // col_count) as drawn (0: every one), for a slide that zooms in on the cells a step is about
  std::int64_t first_row = 0, row_count = 0;
  std::int64_t first_col = 0, col_count = 0;
  // A slide's figure (0: a page's): title, caption and legend words at this size (SVG units),
  // wrapped at the grid's width, each caption part ("  |  " between them) on lines of its own, so
  // the figure is about as wide as its cells and its words as large as its cells. Text bound to a
  // cell (its number, an axis index, a bit's name) has class="label" and stays as the cells allow.
  int text_size = 0;
};

// Throws swz::Error when the view cannot be drawn (matrix-m of a non-linear layout).
std::string figure_svg(const Problem& problem, FigureView view, const FigureOptions& options = {});

// A panel that is words and numbers (a solver's steps, an access's wavefronts): a bold title,
// then one <text> per line in a fixed-width face (DejaVu Sans Mono), so columns of numbers line
// up; data-view = `view`.
std::string text_figure_svg(std::string_view view, std::string_view title, const std::vector<std::string>& lines);
// "XOR by the row" on a rows x cols tile: cell (m, n) holds n ^ m, red where it falls outside
// the tile; data-view = "xor-table".
// text_size: as FigureOptions::text_size (0: a page's two short lines).
std::string xor_table_svg(int rows, int cols, int text_size = 0);
// The table's labels, the same on the card and in the figure: row m is "m=3" (m3 in a lesson is a
// bit of m, never a row), the columns are numbered after "n=".
std::string xor_table_row_label(std::int64_t row);
std::string_view xor_table_column_axis();

FigureView parse_figure_view(std::string_view text);  // throws naming the known views
std::string_view figure_view_name(FigureView view);
std::vector<std::string_view> figure_view_names();

// A figure file's format follows its name: ".svg" is the SVG text, ".png" the picture
// drawn from it (raster.h). Any letter case; throws swz::Error naming the file and
// the two endings for any other name.
enum class FigureFormat { Svg, Png };
FigureFormat figure_format_for_file(std::string_view path);
std::string_view figure_format_name(FigureFormat format);  // "svg" / "png"

// The palette of banks and threads: hue = (index / 2) spread over the circle,
// odd indices darker, so neighbours 2k, 2k+1 share a hue.
struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};
Rgb palette_color(int index, int count);
std::string hex_color(Rgb color);  // "#rrggbb"

// Text for XML content and attribute values: markup characters escaped,
// control characters and invalid UTF-8 replaced by '?'.
std::string xml_escape(std::string_view text);

}  // namespace swz
