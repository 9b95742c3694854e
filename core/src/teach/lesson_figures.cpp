// lesson_figures.cpp: the figures of a step's own view, for its slide and its page (lesson_pages.h).
//
// One figure per panel the view shows, each drawn from the same facts the panel shows: the
// tensor through svg.h's tensor view, the layouts and the shared matrix through its ownership
// and matrix views, and the panels that are words and numbers (problem, toggle grid, trace,
// algebra, memory, solver) as text panels whose lines are the core's values (measure(), solve()).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <tuple>

#include "swz/error.h"
#include "swz/export/english.h"
#include "swz/export/svg.h"
#include "swz/export/text_wrap.h"
#include "swz/problem/views.h"
#include "swz/solve/solver.h"
#include "swz/teach/lesson_pages.h"
#include "swz/teach/math_text.h"

namespace swz {

namespace {

// Words wrapped at `columns` characters, continuation lines indented (a text panel's lines stay
// short enough to read scaled up).
std::vector<std::string> figure_wrap(const std::string& text, std::size_t columns, const std::string& indent = "  ") {
  std::vector<std::string> out = wrap_text(text, static_cast<double>(columns), count_characters, LongWords::Keep);
  for (std::size_t i = 1; i < out.size(); ++i) out[i] = indent + out[i];
  return out;
}

std::string json_words(const nlohmann::json& v) {
  if (v.is_string()) return render_math(v.get<std::string>(), MathStyle::Unicode);
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_array()) {
    std::vector<std::string> parts;
    for (const auto& e : v) parts.push_back(json_words(e));
    return parts.empty() ? "none" : fmt::format("{}", fmt::join(parts, ", "));
  }
  if (v.is_null()) return "none";
  return render_math(v.dump(), MathStyle::Unicode);
}

struct FigureFacts {
  const LessonStep& step;
  const Problem& problem;
  const ProblemAnalysis& analysis;
  std::string value(const std::string& quantity) const {
    return json_words(measure(quantity, problem, analysis, step.step));
  }
};

std::vector<std::string> problem_lines(const FigureFacts& f) {
  const Problem& p = f.problem;
  std::vector<std::string> lines;
  lines.push_back(fmt::format("tensor {} of {}-bit elements", fmt::join(p.shared.shape(), "x"), p.element_bits));
  for (const std::string& l : figure_wrap("shared layout: " + p.shared.description(), 64)) lines.push_back(l);
  lines.push_back(fmt::format("{} banks of {} bytes, {} lanes a warp", p.bank.banks, p.bank.bank_bytes, p.bank.warp_size));
  lines.push_back(fmt::format("store: {} ({} instructions)", f.analysis.store.instruction, f.analysis.store.simulated.instructions()));
  lines.push_back(fmt::format("read: {} ({} instructions)", f.analysis.read.instruction, f.analysis.read.simulated.instructions()));
  return lines;
}

std::vector<std::string> grid_lines(const FigureFacts& f) {
  const Problem& p = f.problem;
  if (!p.grid || p.masks.empty()) return {"no toggle grid: the layout is " + p.shared.description()};
  std::vector<std::string> lines{"row bit -> the column bits it flips (XOR mask)"};
  for (std::size_t i = 0; i < p.masks.size(); ++i) {
    std::string bits;
    for (int b = 7; b >= 0; --b) bits += ((p.masks[i] >> b) & 1u) ? '1' : '0';
    lines.push_back(fmt::format("m{}: {:>3} = 0b{}", i, p.masks[i], bits));
  }
  return lines;
}

std::vector<std::string> trace_lines(const FigureFacts& f) {
  std::vector<std::string> lines;
  for (const auto& [side, a] : {std::pair<std::string, const AccessAnalysis&>{"store", f.analysis.store}, {"read", f.analysis.read}}) {
    const AccessResult& r = a.simulated;
    lines.push_back(fmt::format("{}: {} x {}: {} (ideal {})", side, a.instruction, r.instructions(), verdict_text(r), r.ideal_wavefronts));
    if (!r.per_instruction.empty()) {
      std::string steps;
      const int shown = std::min(r.steps, 16);
      for (int s = 0; s < shown; ++s) steps += fmt::format(" {}", r.per_instruction[static_cast<std::size_t>(s)]);
      if (r.steps > shown) steps += " ...";
      lines.push_back("  wavefronts per register step:" + steps);
    }
  }
  return lines;
}

std::vector<std::string> algebra_lines(const FigureFacts& f) {
  std::vector<std::string> lines;
  for (const std::string side : {"store", "read"}) {
    const AccessAnalysis& a = side == "store" ? f.analysis.store : f.analysis.read;
    if (!a.lemma.applies) {
      for (const std::string& l : figure_wrap(side + ": the lemma does not apply: " + a.lemma.reason, 64)) lines.push_back(l);
      continue;
    }
    lines.push_back(
        fmt::format("{}: bad directions (dim {}): {}", side, a.lemma.intersection_dim, f.value(side + ".intersection_basis")));
    lines.push_back(fmt::format("  predicted {}, simulated {}: {}", counted(a.lemma.predicted_wavefronts, "wavefront"),
                                a.simulated.wavefronts, a.agrees() ? "they agree" : a.difference));
  }
  return lines;
}

std::vector<std::string> memory_lines(const FigureFacts& f) {
  const SharedLayout& shared = f.problem.shared;
  const auto slots = std::min<std::int64_t>(static_cast<std::int64_t>(shared.extent()), 32);
  std::vector<std::string> lines{"offset: the element stored there"};
  std::string line;
  for (std::int64_t o = 0; o < slots; ++o) {
    line += fmt::format("{:>4}: {:<9}", o, f.value(fmt::format("element_at({})", o)));
    if (o % 4 == 3) {
      lines.push_back(line);
      line.clear();
    }
  }
  if (!line.empty()) lines.push_back(line);
  if (static_cast<std::int64_t>(shared.extent()) > slots) lines.push_back(fmt::format("... {} offsets in all", static_cast<std::int64_t>(shared.extent())));
  return lines;
}

// As the Solver panel shows it: the steps' titles (the view's step marked), that step's sentence
// (as written: the solver's '^' is both XOR and a power, so it is not rendered), the answer.
std::vector<std::string> solver_lines(const FigureFacts& f) {
  const SolveResult r = solve(f.problem);
  std::vector<std::string> lines;
  if (r.trace.empty()) return {"the construction has no steps for this problem"};
  const int shown = std::clamp(f.step.view.solver_step, 0, static_cast<int>(r.trace.size()) - 1);
  for (int i = 0; i < static_cast<int>(r.trace.size()); ++i)
    lines.push_back(fmt::format("{} {}. {}", i == shown ? ">" : " ", i + 1, r.trace[static_cast<std::size_t>(i)].title));
  lines.emplace_back();
  for (const std::string& l : figure_wrap(r.trace[static_cast<std::size_t>(shown)].sentence, 72)) lines.push_back(l);
  lines.emplace_back();
  lines.push_back(fmt::format("answer: write {} ({}), read {} ({}){}", r.write_cost.instruction,
                              counted(r.write_cost.wavefronts, "wavefront"), r.read_cost.instruction,
                              counted(r.read_cost.wavefronts, "wavefront"),
                              r.conflict_free ? ", conflict-free"
                              : r.fallback    ? ", padded (conflict-free is impossible)"
                                              : ""));
  return lines;
}

// The tensor's cells a step's highlights name: rows, columns and single cells.
std::vector<std::pair<std::int64_t, std::int64_t>> marked_cells(const LessonStep& s, const Problem& p) {
  const auto& shape = p.shared.shape();
  const std::int64_t cols = shape.back(), rows = p.shared.elements() / std::max<std::int64_t>(1, cols);
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (const std::string& target : s.highlight) {
    long long a = 0, b = 0;
    if (std::sscanf(target.c_str(), "tensor.cell.%lld.%lld", &a, &b) == 2) out.emplace_back(a, b);
    else if (std::sscanf(target.c_str(), "tensor.row.%lld", &a) == 1)
      for (std::int64_t n = 0; n < cols; ++n) out.emplace_back(a, n);
    else if (std::sscanf(target.c_str(), "tensor.col.%lld", &a) == 1)
      for (std::int64_t m = 0; m < rows; ++m) out.emplace_back(m, a);
  }
  return out;
}

// The cells a step's words name: its highlights, and the cells, rows and columns its claims are
// about (bank(m,n), offset(m,n), chunk(m,n), row_banks(m), column_banks(n)).
std::vector<std::pair<std::int64_t, std::int64_t>> named_cells(const LessonStep& s, const Problem& p) {
  auto out = marked_cells(s, p);
  const std::int64_t cols = p.shared.shape().back(), rows = p.shared.elements() / std::max<std::int64_t>(1, cols);
  for (const LessonClaim& c : s.claims) {
    long long a = 0, b = 0;
    if (std::sscanf(c.quantity.c_str(), "bank(%lld,%lld)", &a, &b) == 2 ||
        std::sscanf(c.quantity.c_str(), "offset(%lld,%lld)", &a, &b) == 2 ||
        std::sscanf(c.quantity.c_str(), "chunk(%lld,%lld)", &a, &b) == 2) {
      if (a < rows && b < cols) out.emplace_back(a, b);
    } else if (std::sscanf(c.quantity.c_str(), "row_banks(%lld)", &a) == 1 && a < rows) {
      for (std::int64_t n = 0; n < cols; ++n) out.emplace_back(a, n);
    } else if (std::sscanf(c.quantity.c_str(), "column_banks(%lld)", &a) == 1 && a < cols) {
      for (std::int64_t m = 0; m < rows; ++m) out.emplace_back(m, a);
    }
  }
  return out;
}

// The window a slide's tensor keeps: a tensor over the cut's rows (columns) is cut to the rows
// (columns) its words name (highlights and claims: always kept, even past the cut, since the
// text counts them), then the ones its traced instruction touches as far as the cut allows, half
// to all of the cut's rows (columns), so its cells stay large on a slide (>= 24 px at 1920x1080).
struct SlideWindow {
  std::int64_t first_row = 0, rows = 0, first_col = 0, cols = 0;  // 0 rows (cols): every one
};

// Cells from `lo` to `hi` (named: kept whole; hi < lo for none), the traced ones from `traced_lo`
// to `traced_hi` added when the cut's `most` allows, widened to at least `fewest` of `count`;
// {first, n}, n = 0 for all of them.
struct Span {
  std::int64_t lo, hi;
};
std::pair<std::int64_t, std::int64_t> slide_range(Span named, Span traced, std::int64_t count, std::int64_t fewest,
                                                  std::int64_t most) {
  if (count <= most) return {0, 0};
  Span s = named;
  if (s.hi < s.lo) {
    s = traced.hi < traced.lo ? Span{0, 0} : traced;
    s.hi = std::min(s.hi, s.lo + most - 1);
  } else if (s.hi - s.lo + 1 > most) {
    s.hi = s.lo + most - 1;  // the cut holds: cells stay legible on a slide; the page figure shows them all
  } else if (traced.hi >= traced.lo && std::max(s.hi, traced.hi) - std::min(s.lo, traced.lo) + 1 <= most) {
    s = {std::min(s.lo, traced.lo), std::max(s.hi, traced.hi)};
  }
  while (s.hi - s.lo + 1 < fewest) {
    if (s.hi + 1 < count)
      ++s.hi;
    else
      --s.lo;
  }
  if (s.hi - s.lo + 1 >= count) return {0, 0};
  return {s.lo, s.hi - s.lo + 1};
}

SlideWindow slide_window(const LessonStep& s, const Problem& p, const TensorCut& cut) {
  const SharedLayout& shared = p.shared;
  const std::int64_t cols = shared.shape().back(), rows = shared.elements() / std::max<std::int64_t>(1, cols);
  if (rows <= cut.rows && cols <= cut.cols) return {};
  const auto place = [&](BitVec flat) {
    const Coords c = shared.coords().unflatten(flat);
    std::int64_t row = 0;
    for (std::size_t d = 0; d + 1 < c.size(); ++d) row = row * shared.shape()[d] + c[d];
    return std::pair{row, c.back()};
  };
  Span named_rows{rows, -1}, named_cols{cols, -1}, traced_rows{rows, -1}, traced_cols{cols, -1};
  const auto take = [](Span& r, Span& c, std::int64_t row, std::int64_t col) {
    r = {std::min(r.lo, row), std::max(r.hi, row)};
    c = {std::min(c.lo, col), std::max(c.hi, col)};
  };
  const Access& access = s.access == LessonAccess::Read ? p.read : p.store;
  const AccessResult sim = simulate(access, shared, p.element_bits, p.bank);
  if (s.step >= 0 && s.step < sim.steps)
    for (const TracedCell& cell : trace_step(p, access.kind, sim, /*warp=*/0, s.step).cells) {
      const auto at = place(cell.coord);
      take(traced_rows, traced_cols, at.first, at.second);
    }
  for (const auto& cell : named_cells(s, p)) take(named_rows, named_cols, cell.first, cell.second);
  SlideWindow w;
  std::tie(w.first_row, w.rows) =
      slide_range(named_rows, traced_rows, rows, /*fewest=*/std::max<std::int64_t>(1, cut.rows / 2), cut.rows);
  std::tie(w.first_col, w.cols) =
      slide_range(named_cols, traced_cols, cols, /*fewest=*/std::max<std::int64_t>(1, cut.cols / 2), cut.cols);
  return w;
}

}  // namespace

std::vector<std::string> step_figure_panels(const LessonStep& step) {
  std::vector<std::string> out;
  for (const std::string& id : lesson_panel_ids())
    if (step.view.shows(id)) out.push_back(id);
  return out;
}

const std::vector<TensorCut>& slide_tensor_cuts() {
  static const std::vector<TensorCut> cuts{{16, 32}, {16, 16}, {8, 16}, {8, 8}};
  return cuts;
}

std::vector<StepFigure> step_figures(const LessonStep& step, std::optional<TensorCut> cut) {
  const Problem problem = problem_for_step(step);
  const ProblemAnalysis analysis = analyze(problem);
  const FigureFacts facts{step, problem, analysis};
  // A slide's pictures: words as large as the 22-unit cells of a tensor, a layout or a matrix
  // (the XOR table's are 26), so they are as readable as the cells are (>= kSlideCellPx).
  constexpr int kFigureCell = 22, kXorTableCell = 26;
  const int slide_text = cut ? kFigureCell : 0;
  std::vector<StepFigure> out;
  const auto text = [&](const std::string& panel, const std::string& title, const std::vector<std::string>& lines) {
    out.push_back({panel, text_figure_svg(panel, title, lines), /*words=*/true});
  };
  for (const std::string& panel : step_figure_panels(step)) {
    if (panel == "problem") {
      text(panel, "Problem: " + problem.name, problem_lines(facts));
    } else if (panel == "grid") {
      text(panel, "Toggle grid: the swizzle's masks", grid_lines(facts));
    } else if (panel == "tensor") {
      FigureOptions o;
      o.trace = step.access == LessonAccess::Read ? TracedAccess::Read : TracedAccess::Store;
      o.trace_step = step.step;
      o.labels = step.view.cells != CellNumbers::None;
      o.offset_numbers = step.view.cells == CellNumbers::Offset;
      o.marked = marked_cells(step, problem);
      o.text_size = slide_text;  // on a slide the cells, not the caption, set the figure's width
      if (cut) {
        const SlideWindow w = slide_window(step, problem, *cut);
        o.first_row = w.first_row;
        o.row_count = w.rows;
        o.first_col = w.first_col;
        o.col_count = w.cols;
      }
      out.push_back({panel, figure_svg(problem, FigureView::Tensor, o)});
    } else if (panel == "trace") {
      text(panel, "Trace: wavefronts per instruction", trace_lines(facts));
    } else if (panel == "layouts") {
      FigureOptions o;
      o.text_size = slide_text;
      out.push_back({panel, figure_svg(problem, FigureView::Writer, o)});
      out.push_back({panel, figure_svg(problem, FigureView::Reader, o)});
    } else if (panel == "matrix") {
      FigureOptions o;
      o.text_size = slide_text;
      out.push_back({panel, figure_svg(problem, problem.shared.is_linear() ? FigureView::MatrixM : FigureView::MatrixA, o)});
    } else if (panel == "algebra") {
      text(panel, "Algebra: the bad directions, predicted and simulated", algebra_lines(facts));
    } else if (panel == "memory") {
      text(panel, "Memory: offsets in order", memory_lines(facts));
    } else if (panel == "solver") {
      text(panel, "Solver: the construction", solver_lines(facts));
    }
  }
  // The card's XOR tables (claims "xor_table(R,C)..."), each size once.
  std::set<std::pair<int, int>> tables;
  for (const LessonClaim& c : step.claims) {
    int r = 0, cols = 0;
    if (std::sscanf(c.quantity.c_str(), "xor_table(%d,%d)", &r, &cols) == 2 && tables.insert({r, cols}).second)
      out.push_back({"card", xor_table_svg(r, cols, cut ? kXorTableCell : 0)});
  }
  return out;
}

}  // namespace swz
