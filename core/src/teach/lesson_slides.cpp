// lesson_slides.cpp: a lesson's steps as 1920x1080 PNG slides (lesson_pages.h).
//
//   +--------------------------------------------------------------+
//   | lesson title · step 3 of 8                                   |
//   | The step's title                                             |
//   | paragraphs, word-wrapped   |  the figures of the step's view |
//   | ✓ claim, in words          |  (step_figures), scaled to fill |
//   +--------------------------------------------------------------+
//
// The text column's width is chosen from a few candidates (or the text goes above
// the figure) so the text stays at a readable size and the figure is as large as fits.
// Code paragraphs keep their lines and are drawn in the monospaced face; claims are
// sentences (claim_words.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "swz/error.h"
#include "swz/export/font.h"
#include "swz/export/raster.h"
#include "swz/export/svg.h"
#include "swz/teach/claim_words.h"
#include "swz/teach/lesson_pages.h"
#include "swz/teach/math_text.h"

namespace swz {

namespace {

constexpr Rgb kInk{0x1b, 0x1b, 0x1b}, kMuted{0x66, 0x66, 0x66}, kHolds{0x2d, 0x6a, 0x2d}, kOff{0xb2, 0x22, 0x22};
constexpr Rgb kWhite{0xff, 0xff, 0xff};
constexpr double kMargin = 64, kGap = 48, kCrumbPx = 24;
constexpr double kLargestText = 30, kSmallestText = 16, kReadableText = 22;
constexpr double kLargestFigureScale = 2.5;
constexpr double kReferenceCell = 22;  // svg.h's tensor cell: pictures are weighed against it

// A paragraph or a claim: one color, wrapped as a unit.
struct Block {
  std::string text;
  Rgb color = kInk;
  bool claim = false;  // claims sit closer together than paragraphs
  bool code = false;   // one line of a code paragraph: kept as written, never wrapped
};

struct Line {
  std::string text;
  Rgb color;
  double y = 0;  // baseline, from the top of the text area
  bool code = false;  // drawn in the monospaced face
};

// Greedy word wrap; a word longer than the width is cut between characters.
std::vector<std::string> wrap(const Typeface& type, const std::string& text, double px, double width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = text.find(' ', i);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(i, end - i);
    i = end + 1;
    const std::string candidate = line.empty() ? word : line + " " + word;
    if (type.width(candidate, px) <= width) {
      line = candidate;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    line.clear();
    // Cut a word wider than the line at character boundaries (UTF-8 continuation bytes stay).
    while (type.width(word, px) > width) {
      std::size_t cut = word.size();
      while (cut > 1 && type.width(word.substr(0, cut), px) > width) {
        --cut;
        while (cut > 1 && (static_cast<unsigned char>(word[cut]) & 0xc0) == 0x80) --cut;
      }
      lines.push_back(word.substr(0, cut));
      word.erase(0, cut);
    }
    line = word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

// The blocks laid out in a column `width` wide at `px`; returns the height used, or infinity when
// a code line (never wrapped) is wider than the column.
double lay_out(const Typeface& type, const std::vector<Block>& blocks, double px, double width, std::vector<Line>* out) {
  const double line = type.line_height(px) * 1.12;
  double y = 0;
  bool first = true;
  bool after_code = false;
  for (const Block& b : blocks) {
    if (!first && !(b.code && after_code)) y += b.claim ? 0.15 * line : 0.55 * line;
    first = false;
    after_code = b.code;
    if (b.code && !out && type.width(b.text, px, FontFace::Mono) > width) return std::numeric_limits<double>::infinity();
    for (const std::string& text : b.code ? std::vector<std::string>{b.text} : wrap(type, b.text, px, width)) {
      if (out) out->push_back({text, b.color, y + type.ascent(px), b.code});
      y += line;
    }
  }
  return y;
}

// Where the text and the figures go, and at what size.
struct Layout {
  PixelBox text, figure;
  double text_px = 0;  // 0: the text does not fit even at kSmallestText
  double figure_scale = 0;  // the pictures (tensor, layouts, matrices, XOR tables), all at one scale
  std::size_t per_row = 1;  // the pictures in rows of this many side by side (all of them: one row)
  double words_scale = 0;   // the text panels (trace, solver, ...), side by side under the pictures
  double words_height = 0;
};

constexpr double kFigureGap = 24;
constexpr double kLargestWordsScale = 1.6;  // a text panel's 14 px lines at about 22 px

// The one scale at which the figures fit the box side by side (across) or stacked.
double group_scale(const std::vector<SvgSize>& figures, const PixelBox& box, bool across, double largest) {
  if (figures.empty()) return 0;
  double along = 0, widest = 0;
  for (const SvgSize& f : figures) {
    along += across ? f.width : f.height;
    widest = std::max(widest, static_cast<double>(across ? f.height : f.width));
  }
  const double gaps = kFigureGap * static_cast<double>(figures.size() - 1);
  const double box_along = across ? box.x1 - box.x0 : box.y1 - box.y0, box_across = across ? box.y1 - box.y0 : box.x1 - box.x0;
  return std::max(0.0, std::min({(box_along - gaps) / along, box_across / widest, largest}));
}

// The pictures' rows of `per_row`, in order: [first, end) of each.
std::vector<std::pair<std::size_t, std::size_t>> picture_rows(std::size_t count, std::size_t per_row) {
  std::vector<std::pair<std::size_t, std::size_t>> rows;
  for (std::size_t first = 0; first < count; first += per_row) rows.emplace_back(first, std::min(count, first + per_row));
  return rows;
}

// The one scale at which the figures fit the box in rows of `per_row` side by side (gaps stay unscaled).
double grid_scale(const std::vector<SvgSize>& figures, const PixelBox& box, std::size_t per_row, double largest) {
  if (figures.empty()) return 0;
  double scale = largest, height = 0;
  const auto rows = picture_rows(figures.size(), per_row);
  for (const auto& [first, end] : rows) {
    double width = 0, tallest = 0;
    for (std::size_t i = first; i < end; ++i) {
      width += figures[i].width;
      tallest = std::max(tallest, static_cast<double>(figures[i].height));
    }
    scale = std::min(scale, (box.x1 - box.x0 - kFigureGap * static_cast<double>(end - first - 1)) / width);
    height += tallest;
  }
  scale = std::min(scale, (box.y1 - box.y0 - kFigureGap * static_cast<double>(rows.size() - 1)) / height);
  return std::max(0.0, scale);
}

// The step's figures, measured: pictures and text panels apart.
struct SlideFigures {
  std::vector<std::string> pictures, words;
  std::vector<SvgSize> picture_sizes, words_sizes;  // pictures: as drawn at scale 1, weighted
  // Each picture's weight: its scale against the others', so every picture's cells come out the
  // same size (a tensor's 22-unit cells and an XOR table's 26 alike).
  std::vector<double> picture_weights;
};

// The text panels across the bottom of the figure box, the pictures as large as fit above them.
void place_figures(Layout& l, const SlideFigures& f) {
  PixelBox pictures = l.figure;
  l.words_scale = 0;
  l.words_height = 0;
  if (!f.words.empty()) {
    const bool alone = f.pictures.empty();
    // Beside pictures the text panels take at most 40% of the height.
    PixelBox room = l.figure;
    if (!alone) room.y1 = room.y0 + 0.4 * (room.y1 - room.y0);
    l.words_scale = group_scale(f.words_sizes, room, /*across=*/!alone, kLargestWordsScale);
    for (const SvgSize& s : f.words_sizes)
      l.words_height = alone ? l.words_height + s.height * l.words_scale + kFigureGap : std::max(l.words_height, s.height * l.words_scale);
    pictures.y1 -= l.words_height + kFigureGap;
  }
  l.figure_scale = 0;
  for (std::size_t per_row = f.picture_sizes.size(); per_row >= 1; --per_row)
    if (const double scale = grid_scale(f.picture_sizes, pictures, per_row, kLargestFigureScale); scale > l.figure_scale + 1e-9) {
      l.figure_scale = scale;
      l.per_row = per_row;
    }
}

double largest_fitting_text(const Typeface& type, const std::vector<Block>& blocks, const PixelBox& box) {
  for (double px = kLargestText; px >= kSmallestText; px -= 1)
    if (lay_out(type, blocks, px, box.x1 - box.x0, nullptr) <= box.y1 - box.y0) return px;
  return 0;
}

Layout choose_layout(const Typeface& type, const std::vector<Block>& blocks, const SlideFigures& figures, double top) {
  const double bottom = kSlideHeight - kMargin, right = kSlideWidth - kMargin;
  std::vector<Layout> candidates;
  for (double text_width : {560.0, 680.0, 800.0, 920.0}) {
    Layout l;
    l.text = {kMargin, top, kMargin + text_width, bottom};
    l.figure = {kMargin + text_width + kGap, top, right, bottom};
    candidates.push_back(l);
  }
  // Text across the page, the figure under it: try a few splits of the height.
  for (double text_height : {220.0, 320.0, 420.0}) {
    Layout l;
    l.text = {kMargin, top, right, top + text_height};
    l.figure = {kMargin, top + text_height + kGap / 2, right, bottom};
    candidates.push_back(l);
  }
  for (Layout& l : candidates) {
    l.text_px = largest_fitting_text(type, blocks, l.text);
    place_figures(l, figures);
  }
  // The largest figure among layouts whose text is readable; else the largest text.
  const auto better = [](const Layout& a, const Layout& b) {
    const bool ra = a.text_px >= kReadableText, rb = b.text_px >= kReadableText;
    if (ra != rb) return ra;
    // The pictures' scale, else (only text panels) theirs.
    const double sa = a.figure_scale > 0 ? a.figure_scale : a.words_scale, sb = b.figure_scale > 0 ? b.figure_scale : b.words_scale;
    if (ra) return sa > sb + 1e-9 || (std::fabs(sa - sb) <= 1e-9 && a.text_px > b.text_px);
    return a.text_px > b.text_px || (a.text_px == b.text_px && sa > sb);
  };
  return *std::min_element(candidates.begin(), candidates.end(), [&](const Layout& a, const Layout& b) { return better(a, b); });
}

std::string slide_file(std::size_t i) { return fmt::format("step-{:02}.png", i + 1); }

// The side of a figure's cells in SVG units (its first <rect class="cell ...">), 0 for one without cells.
double svg_cell_width(const std::string& svg) {
  const std::size_t cell = svg.find("class=\"cell");
  if (cell == std::string::npos) return 0;
  const std::size_t at = svg.find(" width=\"", cell);
  return at == std::string::npos ? 0 : std::stod(svg.substr(at + 8));
}

// The figure kind an SVG's root names (data-view="tensor").
std::string svg_kind(const std::string& svg) {
  const std::size_t at = svg.find("data-view=\"");
  if (at == std::string::npos) return "";
  const std::size_t begin = at + 11;
  return svg.substr(begin, svg.find('"', begin) - begin);
}

// Everything a slide draws, placed: the title's lines, the text blocks, the figures and their boxes.
struct SlidePlan {
  double title_px = 48;
  std::vector<std::string> title_lines;
  std::vector<Block> blocks;
  SlideFigures figures;
  Layout layout;
  std::vector<SlideFigureBox> pictures, words;  // in the order of figures.pictures / figures.words
};

// The boxes a row of figures fills: centred across the figure box, from `top`, on whole pixels.
std::vector<SlideFigureBox> place_row(const std::vector<SvgSize>& sizes, const PixelBox& box, double scale, bool across,
                                      double top) {
  double row_width = 0;
  for (const SvgSize& size : sizes)
    row_width = across ? row_width + size.width * scale + kFigureGap : std::max(row_width, size.width * scale);
  if (across && !sizes.empty()) row_width -= kFigureGap;
  double fx = std::round(box.x0 + (box.x1 - box.x0 - row_width) / 2), fy = std::round(top);
  std::vector<SlideFigureBox> out;
  for (const SvgSize& size : sizes) {
    SlideFigureBox b;
    b.x = fx;
    b.y = fy;
    b.width = size.width * scale;
    b.height = size.height * scale;
    out.push_back(b);
    if (across)
      fx = std::round(fx + size.width * scale + kFigureGap);
    else
      fy = std::round(fy + size.height * scale + kFigureGap);
  }
  return out;
}

// The smallest cells a slide's pictures have, all of them and its tensor's (infinity: none).
struct SlideCells {
  double smallest = std::numeric_limits<double>::infinity(), smallest_tensor = std::numeric_limits<double>::infinity();
};

// Lays out `drawn` on the plan (text blocks set, figures from `top`), every picture but the tensor
// weighed by `others` more.
SlideCells place_slide_figures(SlidePlan& plan, const std::vector<StepFigure>& drawn, double others, const Typeface& type,
                               double top) {
  SlideFigures figures;
  for (const StepFigure& f : drawn) {
    const SvgSize size = svg_size(f.svg);
    if (f.words) {
      figures.words_sizes.push_back(size);
      figures.words.push_back(f.svg);
      continue;
    }
    const double cell = svg_cell_width(f.svg);
    const double weight = (cell > 0 ? kReferenceCell / cell : 1.0) * (svg_kind(f.svg) == "tensor" ? 1.0 : others);
    figures.picture_sizes.push_back(
        {static_cast<int>(std::lround(size.width * weight)), static_cast<int>(std::lround(size.height * weight))});
    figures.picture_weights.push_back(weight);
    figures.pictures.push_back(f.svg);
  }
  plan.figures = std::move(figures);
  plan.layout = choose_layout(type, plan.blocks, plan.figures, top);
  const Layout& l = plan.layout;
  // The pictures row by row, each row centred; the text panels under them.
  double row_top = l.figure.y0;
  plan.pictures.clear();
  for (const auto& [first, end] : picture_rows(plan.figures.picture_sizes.size(), l.per_row)) {
    const std::vector<SvgSize> row(plan.figures.picture_sizes.begin() + static_cast<std::ptrdiff_t>(first),
                                   plan.figures.picture_sizes.begin() + static_cast<std::ptrdiff_t>(end));
    double tallest = 0;
    for (SlideFigureBox& b : place_row(row, l.figure, l.figure_scale, /*across=*/true, row_top)) {
      tallest = std::max(tallest, b.height);
      plan.pictures.push_back(std::move(b));
    }
    row_top = std::round(row_top + tallest + kFigureGap);
  }
  const double words_top = plan.figures.pictures.empty() ? l.figure.y0 : row_top;
  plan.words = place_row(plan.figures.words_sizes, l.figure, l.words_scale, !plan.figures.pictures.empty(), words_top);
  std::size_t picture = 0, words = 0;
  SlideCells cells;
  for (const StepFigure& f : drawn) {
    SlideFigureBox& b = f.words ? plan.words[words++] : plan.pictures[picture++];
    b.panel = f.panel;
    b.kind = svg_kind(f.svg);
    b.cell_px = svg_cell_width(f.svg) * (f.words ? l.words_scale : l.figure_scale * plan.figures.picture_weights[picture - 1]);
    if (f.words || b.cell_px == 0) continue;
    cells.smallest = std::min(cells.smallest, b.cell_px);
    if (b.kind == "tensor") cells.smallest_tensor = std::min(cells.smallest_tensor, b.cell_px);
  }
  return cells;
}

SlidePlan plan_slide(const Lesson& lesson, std::size_t index, const Typeface& type) {
  const LessonStep& s = lesson.steps[index];
  SlidePlan plan;
  const double width = kSlideWidth - 2 * kMargin;
  // The crumb, then the title.
  double y = kMargin + type.line_height(kCrumbPx) + 8;
  const std::string title = render_math(s.title, MathStyle::Unicode);
  while (plan.title_px > 28 && type.width(title, plan.title_px, true) > width) plan.title_px -= 2;
  plan.title_lines = wrap(type, title, plan.title_px, width);
  y += type.line_height(plan.title_px) * static_cast<double>(plan.title_lines.size()) + 20;
  // The text and the claims.
  for (const std::string& p : s.paragraphs) {
    if (!is_code_paragraph(p)) {
      plan.blocks.push_back({render_math(p, MathStyle::Unicode)});
      continue;
    }
    for (const std::string& code : code_lines(p)) plan.blocks.push_back({code, kInk, false, true});
  }
  const Problem problem = problem_for_step(s);
  bool first_claim = true;
  for (const ClaimCheck& c : check_claims(s, problem, analyze(problem))) {
    std::string text = fmt::format("{} {}", c.holds ? "\u2713" : "\u2717", claim_in_words(c.claim.quantity, c.actual, MathStyle::Unicode));
    if (!c.holds) text += " The lesson says: " + claim_in_words(c.claim.quantity, c.claim.expected, MathStyle::Unicode);
    plan.blocks.push_back({text, c.holds ? kHolds : kOff, !first_claim});
    first_claim = false;
  }
  // The figures of the step's view, as in the HTML pages: a large tensor cut tighter until every
  // picture's cells are readable; where they cannot all be, the other pictures drawn smaller so
  // the tensor's are, else the plan with the largest cells.
  std::optional<std::vector<std::string>> previous;
  std::optional<SlidePlan> best;
  double best_smallest = -1;
  bool best_tensor_readable = false;
  for (const TensorCut& cut : slide_tensor_cuts()) {
    const std::vector<StepFigure> drawn = step_figures(s, cut);
    std::vector<std::string> pictures;
    bool tensor = false;
    for (const StepFigure& f : drawn)
      if (!f.words) {
        pictures.push_back(f.svg);
        tensor |= svg_kind(f.svg) == "tensor";
      }
    if (pictures == previous) continue;  // this cut leaves the tensor as it was
    previous = pictures;
    for (const double others : {1.0, 0.8, 0.65, 0.5}) {
      if (others < 1 && (!tensor || pictures.size() < 2)) break;
      SlidePlan candidate = plan;
      const SlideCells cells = place_slide_figures(candidate, drawn, others, type, y);
      if (cells.smallest >= kSlideCellPx) return candidate;
      const bool tensor_readable = cells.smallest_tensor >= kSlideCellPx;
      if (!best || (tensor_readable && !best_tensor_readable) ||
          (tensor_readable == best_tensor_readable && cells.smallest > best_smallest)) {
        best = std::move(candidate);
        best_smallest = cells.smallest;
        best_tensor_readable = tensor_readable;
      }
      if (tensor_readable) break;  // the other pictures no smaller than the tensor needs
    }
  }
  return best ? std::move(*best) : plan;
}

std::string slide(const Lesson& lesson, std::size_t index, const Typeface& type) {
  const SlidePlan plan = plan_slide(lesson, index, type);
  const PixelBox page{0, 0, kSlideWidth, kSlideHeight};
  Image image(kSlideWidth, kSlideHeight, kWhite);
  double y = kMargin;
  type.draw(image, kMargin, y + type.ascent(kCrumbPx), kCrumbPx,
            fmt::format("{} \u00b7 step {} of {}", lesson.title, index + 1, lesson.steps.size()), kMuted, false, page);
  y += type.line_height(kCrumbPx) + 8;
  for (const std::string& line : plan.title_lines) {
    type.draw(image, kMargin, y + type.ascent(plan.title_px), plan.title_px, line, kInk, true, page);
    y += type.line_height(plan.title_px);
  }
  const Layout& l = plan.layout;
  const double px = l.text_px > 0 ? l.text_px : kSmallestText;
  std::vector<Line> lines;
  lay_out(type, plan.blocks, px, l.text.x1 - l.text.x0, &lines);
  for (const Line& line : lines) type.draw(image, l.text.x0, l.text.y0 + line.y, px, line.text, line.color, line.code ? FontFace::Mono : FontFace::Regular, l.text);
  for (std::size_t i = 0; i < plan.pictures.size(); ++i)
    draw_svg(image, plan.figures.pictures[i], type, plan.pictures[i].x, plan.pictures[i].y,
             l.figure_scale * plan.figures.picture_weights[i]);
  for (std::size_t i = 0; i < plan.words.size(); ++i)
    draw_svg(image, plan.figures.words[i], type, plan.words[i].x, plan.words[i].y, l.words_scale);
  return encode_png(image);
}

}  // namespace

std::vector<LessonPage> lesson_slides_png(const Lesson& lesson, const Typeface& type) {
  std::vector<LessonPage> pages;
  for (std::size_t i = 0; i < lesson.steps.size(); ++i) pages.push_back({slide_file(i), slide(lesson, i, type)});
  return pages;
}

std::vector<SlideFigureBox> slide_figure_boxes(const Lesson& lesson, std::size_t step, const Typeface& type) {
  if (step >= lesson.steps.size()) fail("{}: no step {} (the lesson has {})", lesson.name, step + 1, lesson.steps.size());
  SlidePlan plan = plan_slide(lesson, step, type);
  std::vector<SlideFigureBox> out = std::move(plan.pictures);
  out.insert(out.end(), plan.words.begin(), plan.words.end());
  return out;
}

}  // namespace swz
