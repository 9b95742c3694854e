// svg.cpp: the figures of svg.h.
//
// [SECTION] Colors and text
// [SECTION] Canvas
// [SECTION] Tensor and ownership views
// [SECTION] Matrix views
// [SECTION] Entry points
// (the canvas: svg_canvas.h; text panels and XOR tables: svg_tables.cpp)
#include "swz/export/svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cmath>
#include <optional>

#include "svg_canvas.h"
#include "swz/error.h"
#include "swz/export/english.h"
#include "swz/export/text_wrap.h"
#include "swz/problem/views.h"

namespace swz {

// [SECTION] Colors and text

Rgb palette_color(int index, int count) {
  const int hues = std::max(1, count / 2);
  const double hue = 360.0 * static_cast<double>((index / 2) % hues) / static_cast<double>(hues);
  const double saturation = 0.70;
  const double lightness = index % 2 == 0 ? 0.72 : 0.50;
  // HSL -> RGB (CSS Color 3), computed here so the file needs only SVG 1.1 colors.
  const double c = (1.0 - std::fabs(2.0 * lightness - 1.0)) * saturation;
  const double h = hue / 60.0;
  const double x = c * (1.0 - std::fabs(std::fmod(h, 2.0) - 1.0));
  double r = 0, g = 0, b = 0;
  if (h < 1)
    r = c, g = x;
  else if (h < 2)
    r = x, g = c;
  else if (h < 3)
    g = c, b = x;
  else if (h < 4)
    g = x, b = c;
  else if (h < 5)
    r = x, b = c;
  else
    r = c, b = x;
  const double m = lightness - c / 2.0;
  const auto channel = [m](double v) { return static_cast<std::uint8_t>(std::lround(std::clamp(v + m, 0.0, 1.0) * 255.0)); };
  return {channel(r), channel(g), channel(b)};
}

std::string hex_color(Rgb color) { return fmt::format("#{:02x}{:02x}{:02x}", color.r, color.g, color.b); }

std::string xml_escape(std::string_view text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      switch (c) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&apos;";
          break;
        default:
          out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // A well-formed UTF-8 sequence passes through; anything else becomes '?'.
    const int length = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    bool ok = length > 0 && i + static_cast<std::size_t>(length) <= text.size();
    for (int k = 1; ok && k < length; ++k)
      ok = (static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]) & 0xc0) == 0x80;
    if (ok && length == 3) {
      const auto c1 = static_cast<unsigned char>(text[i + 1]);
      ok = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);  // overlong, surrogates
    }
    if (ok && length == 4) {
      const auto c1 = static_cast<unsigned char>(text[i + 1]);
      ok = !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);  // overlong, beyond U+10FFFF
    }
    if (ok) {
      out.append(text.substr(i, static_cast<std::size_t>(length)));
      i += static_cast<std::size_t>(length);
    } else {
      out += '?';
      ++i;
    }
  }
  return out;
}

namespace {

using namespace svg_canvas;

// [SECTION] Canvas

// Where element (coordinates) sits in the picture: rows = all dims but the last (dim0
// slowest), columns = the last dim; a 1-D tensor is one row.
// A tensor with a side past 256 cells is drawn as a window (tensor_window, views.h), and the caption says so.
struct TensorGrid {
  std::vector<std::int64_t> shape;
  std::int64_t rows = 1, cols = 1;
  std::int64_t shown_rows = 1, shown_cols = 1;  // the drawn window: all of it, or the top-left corner
  std::int64_t first_row = 0;  // the drawn rows' first (row labels count from it)
  std::int64_t first_col = 0;  // the drawn columns' first (column labels count from it)
  explicit TensorGrid(const std::vector<std::int64_t>& s) : shape(s) {
    cols = s.back();
    for (std::size_t d = 0; d + 1 < s.size(); ++d) rows *= s[d];
    const TensorWindow window = tensor_window(rows, cols);
    shown_rows = window.shown_rows;
    shown_cols = window.shown_cols;
  }
  bool windowed() const { return first_row != 0 || first_col != 0 || shown_rows != rows || shown_cols != cols; }
  std::pair<std::int64_t, std::int64_t> place(const Coords& c) const {
    std::int64_t row = 0;
    for (std::size_t d = 0; d + 1 < c.size(); ++d) row = row * shape[d] + c[d];
    return {row, c.back()};
  }
  // The flat coordinates drawn, in `coords`' flattening: every element, or the window's row by row.
  std::vector<BitVec> shown(const LinearLayout& coords) const {
    std::vector<BitVec> out;
    if (!windowed()) {
      for (BitVec flat = 0; flat < static_cast<BitVec>(rows * cols); ++flat) out.push_back(flat);
      return out;
    }
    for (std::int64_t r = first_row; r < first_row + shown_rows; ++r)
      for (std::int64_t c = first_col; c < first_col + shown_cols; ++c) {
        Coords at(shape.size(), 0);
        at.back() = c;
        std::int64_t rest = r;
        for (std::size_t d = shape.size() - 1; d-- > 0;) {
          at[d] = rest % shape[d];
          rest /= shape[d];
        }
        out.push_back(coords.flatten(at));
      }
    return out;
  }
  std::string window_note() const {
    if (!windowed()) return "";
    return "  |  " + TensorWindow{rows, cols, first_row, first_col, shown_rows, shown_cols}.note();
  }
};

int cell_size(std::int64_t rows, std::int64_t cols) {
  const std::int64_t longest = std::max(rows, cols);
  return longest <= 32 ? 22 : longest <= 64 ? 14 : longest <= 128 ? 7 : 4;
}

// Whether the drawn cells carry numbers: asked for, and large enough to read.
bool cells_numbered(const TensorGrid& grid, const FigureOptions& options) {
  return options.labels && cell_size(grid.shown_rows, grid.shown_cols) >= 14;
}

// One figure's frame: title, caption, axis labels around a rows x cols grid of cells.
struct GridFrame {
  int cell = 22;
  int left = 40, top = 0;
  bool labels = true;
};

GridFrame draw_tensor_axes(Canvas& canvas, const TensorGrid& grid, const FigureOptions& options, std::string_view title,
                           std::string_view caption) {
  GridFrame f;
  f.cell = cell_size(grid.shown_rows, grid.shown_cols);
  f.labels = cells_numbered(grid, options);
  f.top = 58;
  if (options.text_size > 0) {
    // Title and caption wrapped at the grid's width (at least 24 sizes), each "  |  " part of the
    // caption on lines of its own.
    const int size = options.text_size;
    const int width = std::max(24 * size, f.left + static_cast<int>(grid.shown_cols) * f.cell);
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (start <= caption.size()) {
      const std::size_t end = std::min(caption.find("  |  ", start), caption.size());
      parts.push_back(caption.substr(start, end - start));
      start = end + 5;
    }
    f.top = canvas.heading(size, width, title, parts) + 4;
  } else {
    canvas.text(8, 20, 14, title, "start", kInk, " font-weight=\"bold\"");
    canvas.text(8, 38, 11, caption, "start", kMuted);
  }
  // Axis indices: every one when they fit, else every 8th.
  const int font = std::max(7, f.cell / 2);
  const std::int64_t step = f.cell >= 14 ? 1 : 8;
  for (std::int64_t c = 0; c < grid.shown_cols; c += step)
    canvas.text(f.left + static_cast<int>(c) * f.cell + f.cell / 2, f.top - 5, font, std::to_string(c + grid.first_col), "middle", kMuted,
                canvas.label);
  for (std::int64_t r = 0; r < grid.shown_rows; r += step)
    canvas.text(f.left - 5, f.top + static_cast<int>(r) * f.cell + f.cell / 2 + font / 3, font, std::to_string(r + grid.first_row), "end",
                kMuted, canvas.label);
  canvas.fit(f.left + static_cast<int>(grid.shown_cols) * f.cell + 12, f.top + static_cast<int>(grid.shown_rows) * f.cell + 12);
  return f;
}

// A row of swatches under the grid: 0..count-1 in palette colors.
void draw_legend(Canvas& canvas, int count, std::string_view what, int x, int y, int text_size) {
  const int swatch = count <= 32 ? 16 : 8;
  const int size = text_size > 0 ? text_size : 11;
  canvas.text(x, y + std::max(12, size), size, what, "start", kMuted);
  if (text_size > 0) y += size - 12;  // the swatches' tops level with the taller word's
  const int x0 = x + 8 + (text_size > 0 ? static_cast<int>(std::ceil(estimated_width(what, size))) : static_cast<int>(what.size()) * 6);
  for (int i = 0; i < count; ++i) {
    const int sx = x0 + i * swatch;
    canvas.body += fmt::format("<rect class=\"legend\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", sx, y,
                               swatch, swatch, hex_color(palette_color(i, count)));
    if (swatch >= 16 && (i % 4 == 0 || i == count - 1))
      canvas.text(sx + swatch / 2, y + swatch + 11, 9, std::to_string(i), "middle", kMuted, canvas.label);
  }
  canvas.fit(x0 + count * swatch + 12, y + swatch + 18);
}

// [SECTION] Tensor and ownership views

std::string tensor_view(const Problem& p, const FigureOptions& options) {
  const SharedLayout& shared = p.shared;
  const TensorGrid grid(shared.shape());
  Canvas canvas;
  if (options.text_size > 0) canvas.label = kLabel;
  const std::string title =
      !options.title.empty() ? options.title : fmt::format("{}: the tensor in shared memory, colored by bank", p.name);
  std::string caption = fmt::format("layout: {}  |  hue = bank / 2, darker = odd bank", shared.description()), window_caption;
  // The traced instruction: the cells each active lane's vector covers.
  std::vector<TracedCell> touched;
  if (options.trace != TracedAccess::None) {
    const bool store = options.trace == TracedAccess::Store;
    const Access& access = store ? p.store : p.read;
    const AccessResult sim = simulate(access, shared, p.element_bits, p.bank);
    if (options.trace_step < 0 || options.trace_step >= sim.steps) fail("step {} is outside 0..{}", options.trace_step, sim.steps - 1);
    if (options.trace_warp < 0 || options.trace_warp >= sim.warps) fail("warp {} is outside 0..{}", options.trace_warp, sim.warps - 1);
    const StepTrace trace = trace_step(p, access.kind, sim, options.trace_warp, options.trace_step);
    touched = trace.cells;
    const InstructionResult& ir = trace.instruction;
    window_caption +=
        fmt::format("  |  {} step {}{}: {} (ideal {}); solid = lanes 0-{}, dashed = the rest", store ? "store" : "read",
                    options.trace_step, options.trace_warp ? fmt::format(", warp {}", options.trace_warp) : std::string(),
                    counted(ir.wavefronts, "wavefront"), ir.ideal, p.bank.warp_size / 2 - 1);
  }
  // The drawn rows and columns: all (or the large tile's window), or the ranges asked for.
  TensorGrid drawn = grid;
  const auto cut = [&](const char* what, std::int64_t first, std::int64_t count, std::int64_t total, std::int64_t& drawn_first,
                       std::int64_t& drawn_count) {
    if (count <= 0) return;
    if (first < 0 || first + count > total) fail("{} {}..{} are outside the tensor's 0..{}", what, first, first + count - 1, total - 1);
    drawn_first = first;
    drawn_count = count;
    window_caption += fmt::format("  |  {} {}-{} of {}", what, first, first + count - 1, total);
  };
  cut("rows", options.first_row, options.row_count, grid.rows, drawn.first_row, drawn.shown_rows);
  cut("columns", options.first_col, options.col_count, grid.cols, drawn.first_col, drawn.shown_cols);
  if (options.row_count <= 0 && options.col_count <= 0) window_caption += grid.window_note();
  // The caption names the cells' numbers only where cells are large enough to carry them.
  if (cells_numbered(drawn, options)) caption += options.offset_numbers ? ", number = offset" : ", number = bank";
  caption += window_caption;
  const auto shown = [&](std::int64_t row, std::int64_t col) {
    return row >= drawn.first_row && row < drawn.first_row + drawn.shown_rows && col >= drawn.first_col &&
           col < drawn.first_col + drawn.shown_cols;
  };
  const GridFrame f = draw_tensor_axes(canvas, drawn, options, title, caption);
  for (BitVec flat : drawn.shown(shared.coords())) {
    const Coords c = shared.coords().unflatten(flat);
    auto [row, col] = grid.place(c);
    if (!shown(row, col)) continue;
    row -= drawn.first_row;
    col -= drawn.first_col;
    const std::uint32_t offset = shared.offset(flat);
    const int bank = p.bank.bank_of(byte_address_of(offset, p.element_bits));
    const Rgb fill = palette_color(bank, p.bank.banks);
    const int x = f.left + static_cast<int>(col) * f.cell, y = f.top + static_cast<int>(row) * f.cell;
    canvas.body += fmt::format(
        "<rect class=\"cell\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"0.5\" "
        "data-coords=\"{}\" data-offset=\"{}\" data-bank=\"{}\"/>\n",
        x, y, f.cell, f.cell, hex_color(fill), fmt::join(c, ","), offset, bank);
    if (f.labels) canvas.body += cell_label_text(x, y, f.cell, std::to_string(options.offset_numbers ? offset : bank), fill, canvas.label);
  }
  for (const auto& [marked_row, col] : options.marked) {
    if (marked_row < 0 || marked_row >= grid.rows || col < 0 || col >= grid.cols)
      fail("marked cell [{}, {}] is outside the tensor", marked_row, col);
    if (!shown(marked_row, col)) continue;
    const std::int64_t row = marked_row - drawn.first_row, drawn_col = col - drawn.first_col;
    canvas.body += fmt::format(
        "<rect class=\"mark\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#d01c1c\" stroke-width=\"3\" "
        "data-row=\"{}\" data-col=\"{}\"/>\n",
        f.left + static_cast<int>(drawn_col) * f.cell, f.top + static_cast<int>(row) * f.cell, f.cell, f.cell, marked_row, col);
  }
  for (const auto& [flat, lane, group] : touched) {
    auto [row, col] = grid.place(shared.coords().unflatten(flat));
    if (!shown(row, col)) continue;  // outside the drawn window
    row -= drawn.first_row;
    col -= drawn.first_col;
    const int x = f.left + static_cast<int>(col) * f.cell, y = f.top + static_cast<int>(row) * f.cell;
    canvas.body += fmt::format(
        "<rect class=\"access\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} "
        "data-lane=\"{}\" data-coords=\"{}\"/>\n",
        x + 1, y + 1, f.cell - 2, f.cell - 2, kInk, lane < p.bank.warp_size / 2 ? "" : " stroke-dasharray=\"3,2\"", lane,
        fmt::join(shared.coords().unflatten(flat), ","));
  }
  draw_legend(canvas, p.bank.banks, "bank", 8, canvas.height, options.text_size);
  return canvas.finish("tensor", title, shared.elements());
}

std::string ownership_view(const Problem& p, bool writer, const FigureOptions& options) {
  const Access& access = writer ? p.store : p.read;
  const SharedLayout& shared = p.shared;
  const TensorGrid grid(shared.shape());
  if (access.layout.out_dims() != shared.coords().out_dims()) fail("the access layout's shape does not match the tensor's");
  const std::vector<BitVec> drawn = grid.shown(shared.coords());
  const std::vector<ElementOwner> owners = owners_of(access, drawn);
  const int warps = 1 << access.layout.in_dim_bits("warp");
  Canvas canvas;
  if (options.text_size > 0) canvas.label = kLabel;
  const std::string role = writer ? "A, the store" : "B, the read";
  const std::string title = !options.title.empty() ? options.title : fmt::format("{}: {} - who holds each element", p.name, role);
  std::string caption = "color = owning thread (hue walks the lanes, odd lanes darker)";
  if (cells_numbered(grid, options)) caption += ", number = register";
  if (warps > 1) caption += fmt::format("; {} warps share the lane colors", warps);
  if (options.highlight_thread >= 0) caption += fmt::format("; thread {}'s elements ringed", options.highlight_thread);
  caption += grid.window_note();
  const GridFrame f = draw_tensor_axes(canvas, grid, options, title, caption);
  std::string rings;
  for (std::size_t i = 0; i < drawn.size(); ++i) {
    const Coords c = shared.coords().unflatten(drawn[i]);
    const auto [row, col] = grid.place(c);
    const ElementOwner& o = owners[i];
    const std::int64_t thread = o.thread(p.bank.warp_size);
    const int x = f.left + static_cast<int>(col) * f.cell, y = f.top + static_cast<int>(row) * f.cell;
    if (o.holders == 0) {
      canvas.body += fmt::format(
          "<rect class=\"cell unowned\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"{}\" "
          "stroke-width=\"0.5\" "
          "data-coords=\"{}\" data-holders=\"0\"/>\n",
          x, y, f.cell, f.cell, kEmpty, kGrid, fmt::join(c, ","));
      continue;
    }
    const Rgb fill = palette_color(o.lane, p.bank.warp_size);
    canvas.body += fmt::format(
        "<rect class=\"cell\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"0.5\" "
        "data-coords=\"{}\" data-thread=\"{}\" data-lane=\"{}\" data-warp=\"{}\" data-register=\"{}\" data-holders=\"{}\"/>\n",
        x, y, f.cell, f.cell, hex_color(fill), fmt::join(c, ","), thread, o.lane, o.warp, o.reg, o.holders);
    if (f.labels) canvas.body += cell_label_text(x, y, f.cell, std::to_string(o.reg), fill, canvas.label);
    if (thread == options.highlight_thread)
      rings += fmt::format(
          "<rect class=\"ring\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n",
          x + 1, y + 1, f.cell - 2, f.cell - 2, kInk);
  }
  canvas.body += rings;  // on top of every cell
  draw_legend(canvas, p.bank.warp_size, "lane", 8, canvas.height, options.text_size);
  return canvas.finish(writer ? "writer" : "reader", title, shared.elements());
}

// [SECTION] Matrix views

struct ColumnGroup {
  std::string name;
  int count = 0;
  const char* color;
};

// rows = out bits, columns = the given groups of input bits; one cell per entry.
// `dark(col, row)` marks the entries drawn dark instead of in their group's color.
template <typename Dark>
std::string matrix_figure(std::string_view view, const std::string& title, const std::string& caption, const LinearLayout& names,
                          const std::vector<BitVec>& columns, const std::vector<std::string>& column_names,
                          const std::vector<ColumnGroup>& groups, Dark dark, std::string_view dark_note, int text_size) {
  constexpr int kCell = 22;
  Canvas canvas;
  if (text_size > 0) canvas.label = kLabel;
  const int rows = names.out_bits();
  const int cols = static_cast<int>(columns.size());
  const int left = 48;
  int top = 100;
  // A slide's matrix: title and caption wrapped at the matrix's width (at least 24 sizes).
  const int words_width = std::max(24 * text_size, left + cols * kCell);
  if (text_size > 0) {
    top = canvas.heading(text_size, words_width, title, {caption}) + 62 - text_size;
  } else {
    canvas.text(8, 20, 14, title, "start", kInk, " font-weight=\"bold\"");
    canvas.text(8, 38, 11, caption, "start", kMuted);
  }
  // Group names over their columns, bit names over each column, coordinate bits down the side.
  int col0 = 0;
  for (const ColumnGroup& g : groups) {
    if (g.count == 0) continue;
    const int x = left + col0 * kCell;
    canvas.body += fmt::format("<rect class=\"group\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"4\" fill=\"{}\"/>\n", x + 1,
                               top - 34, g.count * kCell - 2, g.color);
    canvas.text(x + g.count * kCell / 2, top - 38, 11, g.name, "middle", kInk, canvas.label);
    col0 += g.count;
  }
  for (int j = 0; j < cols; ++j)
    canvas.text(left + j * kCell + kCell / 2, top - 8, 10, column_names[static_cast<std::size_t>(j)], "middle", kMuted, canvas.label);
  for (int i = 0; i < rows; ++i)
    canvas.text(left - 6, top + i * kCell + kCell / 2 + 4, 11, names.out_bit_name(i), "end", kMuted, canvas.label);
  int group_index = 0, group_end = groups.empty() ? 0 : groups[0].count;
  for (int j = 0; j < cols; ++j) {
    while (j >= group_end && group_index + 1 < static_cast<int>(groups.size()))
      group_end += groups[static_cast<std::size_t>(++group_index)].count;
    const char* color = groups[static_cast<std::size_t>(group_index)].color;
    for (int i = 0; i < rows; ++i) {
      const bool one = (columns[static_cast<std::size_t>(j)] >> i) & 1u;
      const bool is_dark = one && dark(j, i);
      canvas.body += fmt::format(
          "<rect class=\"cell {}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.5\" "
          "data-row=\"{}\" data-col=\"{}\" data-value=\"{}\"/>\n",
          one ? (is_dark ? "one fold" : "one") : "zero", left + j * kCell, top + i * kCell, kCell, kCell,
          one ? (is_dark ? kInk : color) : kEmpty, kGrid, names.out_bit_name(i), column_names[static_cast<std::size_t>(j)],
          one ? 1 : 0);
    }
  }
  canvas.fit(left + cols * kCell + 16, top + rows * kCell + 16);
  if (!dark_note.empty() && text_size > 0) {
    canvas.fit(0, canvas.words(8, canvas.height + text_size, text_size, dark_note, words_width, kMuted) - text_size + 8);
  } else if (!dark_note.empty()) {
    canvas.text(8, canvas.height + 4, 11, dark_note, "start", kMuted);
    canvas.fit(0, canvas.height + 12);
  }
  return canvas.finish(view, title, static_cast<std::int64_t>(rows) * cols);
}

std::string access_matrix_view(const Problem& p, bool writer, const FigureOptions& options) {
  const Access& access = writer ? p.store : p.read;
  const LinearLayout& l = access.layout;
  std::vector<BitVec> columns;
  std::vector<std::string> column_names;
  std::vector<ColumnGroup> groups;
  static constexpr std::array<std::pair<const char*, const char*>, 4> kDims{
      {{"register", "#e07b39"}, {"lane", "#3b6fd4"}, {"warp", "#5a9a3a"}, {"block", "#888888"}}};
  int flat = 0;
  for (const auto& d : l.in_dims()) {
    const char* color = "#888888";
    for (const auto& [name, c] : kDims)
      if (d.name == name) color = c;
    groups.push_back({d.name, static_cast<int>(d.bases.size()), color});
    for (BitVec b : d.bases) {
      columns.push_back(b);
      column_names.push_back(l.in_bit_name(flat++));
    }
  }
  const std::string title = !options.title.empty()
                                ? options.title
                                : fmt::format("{}: {} as a matrix over F2", p.name, writer ? "A, the store" : "B, the read");
  return matrix_figure(
      writer ? "matrix-a" : "matrix-b", title,
      "column = where one input bit lands (register, lane, warp); row = coordinate bit; filled = 1", l, columns, column_names,
      groups, [](int, int) { return false; }, "", options.text_size);
}

std::string shared_matrix_view(const Problem& p, const FigureOptions& options) {
  const LinearLayout& lin = p.shared.linear();  // throws with the reason for non-linear layouts
  const std::vector<BitVec>& columns = lin.bases("offset");
  // Offset bit k is bit k + log2(element_bits) of the bit address; bank-word bits start at log2(bank_bytes * 8).
  const int element_shift = std::countr_zero(static_cast<unsigned>(p.element_bits));
  const int word_shift = std::countr_zero(static_cast<unsigned>(p.bank.bank_bytes * 8));
  const int bank_bits = std::countr_zero(static_cast<unsigned>(p.bank.banks));
  int word = 0, bank = 0, segment = 0;
  std::vector<std::string> column_names;
  for (int k = 0; k < static_cast<int>(columns.size()); ++k) {
    const int word_bit = k + element_shift - word_shift;  // position in the bank-word address
    (word_bit < 0 ? word : word_bit < bank_bits ? bank : segment)++;
    column_names.push_back(fmt::format("o{}", k));
  }
  // Row-major (last dim fastest) sends offset bit k to one coordinate bit; anything else is folded in.
  std::vector<int> row_major_bit;
  for (int d = lin.rank() - 1; d >= 0; --d)
    for (int i = 0; i < lin.out_dims()[static_cast<std::size_t>(d)].log2_size; ++i)
      row_major_bit.push_back(lin.out_offset(d) + i);
  const std::vector<ColumnGroup> groups{{"word", word, "#888888"}, {"bank", bank, "#3b6fd4"}, {"segment", segment, "#3b6fd4"}};
  const std::string title =
      !options.title.empty() ? options.title : fmt::format("{}: M, the shared layout, as a matrix over F2", p.name);
  return matrix_figure(
      "matrix-m", title,
      fmt::format("column = the coordinates at offset 2\u1d4f ({}); row = coordinate bit", p.shared.description()), lin, columns,
      column_names, groups, [&](int col, int row) { return row_major_bit[static_cast<std::size_t>(col)] != row; },
      "blue = the row-major structure (banks -> columns, segments -> rows); dark = folded in by the swizzle", options.text_size);
}

}  // namespace

// [SECTION] Entry points

namespace {
constexpr std::array<std::string_view, 6> kViewNames{"tensor", "writer", "reader", "matrix-a", "matrix-b", "matrix-m"};
}

FigureView parse_figure_view(std::string_view text) {
  for (std::size_t i = 0; i < kViewNames.size(); ++i)
    if (text == kViewNames[i]) return static_cast<FigureView>(i);
  fail("unknown view '{}' (known: {})", xml_escape(text), fmt::join(kViewNames, ", "));
}

std::string_view figure_view_name(FigureView view) { return kViewNames[static_cast<std::size_t>(view)]; }

std::vector<std::string_view> figure_view_names() { return {kViewNames.begin(), kViewNames.end()}; }

FigureFormat figure_format_for_file(std::string_view path) {
  const auto ends_with = [&](std::string_view ending) {
    if (path.size() < ending.size()) return false;
    const std::string_view tail = path.substr(path.size() - ending.size());
    return std::equal(tail.begin(), tail.end(), ending.begin(),
                      [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
  };
  if (ends_with(".svg")) return FigureFormat::Svg;
  if (ends_with(".png")) return FigureFormat::Png;
  fail("'{}': a figure file's name ends in .svg (SVG) or .png (PNG)", path);
}

std::string_view figure_format_name(FigureFormat format) { return format == FigureFormat::Png ? "png" : "svg"; }

std::string figure_svg(const Problem& problem, FigureView view, const FigureOptions& options) {
  check_bank_model(problem.bank);
  if (problem.shared.shape().empty()) fail("nothing to draw: the problem has no shared layout");
  switch (view) {
    case FigureView::Tensor:
      return tensor_view(problem, options);
    case FigureView::Writer:
      return ownership_view(problem, true, options);
    case FigureView::Reader:
      return ownership_view(problem, false, options);
    case FigureView::MatrixA:
      return access_matrix_view(problem, true, options);
    case FigureView::MatrixB:
      return access_matrix_view(problem, false, options);
    case FigureView::MatrixM:
      return shared_matrix_view(problem, options);
  }
  fail("unknown view");
}

}  // namespace swz
