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
// the figure) so the text is kSlideTextPx or more and the figure is as large as fits.
// Where the step's figures do not all fit at kSlideCellPx cells and kSlideTextPx words,
// the step takes more slides: its panels in order, as many on each as fit (a panel's
// figures, the writer and the reader, stay together), the text on the first.
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
#include "swz/export/text_wrap.h"
#include "swz/teach/claim_words.h"
#include "swz/teach/lesson_pages.h"
#include "swz/teach/math_text.h"

namespace swz {

namespace {

constexpr Rgb kInk{0x1b, 0x1b, 0x1b}, kMuted{0x66, 0x66, 0x66}, kHolds{0x2d, 0x6a, 0x2d}, kOff{0xb2, 0x22, 0x22};
constexpr Rgb kWhite{0xff, 0xff, 0xff};
constexpr double kMargin = 64, kGap = 48, kCrumbPx = 24;
constexpr double kLargestText = 30, kSmallestText = kSlideTextPx;
constexpr double kLargestFigureScale = 2.5;
constexpr double kReferenceCell = 22;  // svg.h's tensor cell: pictures are weighed against it
constexpr double kPanelLineUnits = 14;  // a text panel's lines (svg.h's text_figure_svg), in SVG units

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

// Lines of `text` within `width` at `px` in the regular face; a word longer than the width is cut.
std::vector<std::string> wrap(const Typeface& type, const std::string& text, double px, double width) {
  std::vector<std::string> lines =
      wrap_text(text, width, [&](std::string_view s) { return type.width(s, px); }, LongWords::Cut);
  if (lines.empty()) lines.emplace_back();  // an empty paragraph still takes its line
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
  double text_px = 0;       // 0: no text on this slide
  double figure_scale = 0;  // the pictures (tensor, layouts, matrices, XOR tables), all at one scale
  std::size_t per_row = 1;  // the pictures in rows of this many side by side (all of them: one row)
  double words_scale = 0;   // the text panels (trace, solver, ...), under the pictures
  bool words_across = true;  // the text panels side by side (else one above the other)
  double words_height = 0;
  bool fits = false;  // every cell kSlideCellPx or more, every panel's line kSlideTextPx or more
};

constexpr double kFigureGap = 24;
constexpr double kSmallestWordsScale = kSlideTextPx / kPanelLineUnits;
constexpr double kLargestWordsScale = 30 / kPanelLineUnits;

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

// One slide's figures, measured: pictures and text panels apart.
struct SlideFigures {
  std::vector<std::string> pictures, words;
  std::vector<SvgSize> picture_sizes, words_sizes;  // pictures: as drawn at scale 1, weighted
  // Each picture's weight: its scale against the others', so every picture's cells come out the
  // same size (a tensor's 22-unit cells and an XOR table's 26 alike).
  std::vector<double> picture_weights;
  std::vector<std::string> picture_panels, words_panels;  // the panel each one stands for
};

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

// One of the step's figures, measured once: pack_slides tries it in many groups of figures.
struct MeasuredFigure {
  const StepFigure* figure = nullptr;
  SvgSize size;         // as drawn at scale 1; a picture's weighted
  double weight = 1.0;  // a picture's weight (SlideFigures::picture_weights); 1 for a text panel
};

MeasuredFigure measure_figure(const StepFigure& f) {
  MeasuredFigure m;
  m.figure = &f;
  const SvgSize size = svg_size(f.svg);
  if (f.words) {
    m.size = size;
    return m;
  }
  const double cell = svg_cell_width(f.svg);
  m.weight = cell > 0 ? kReferenceCell / cell : 1.0;
  m.size = {static_cast<int>(std::lround(size.width * m.weight)), static_cast<int>(std::lround(size.height * m.weight))};
  return m;
}

// One slide's figures, from the step's measured ones.
SlideFigures collect_slide_figures(const std::vector<const MeasuredFigure*>& chosen) {
  SlideFigures figures;
  for (const MeasuredFigure* m : chosen) {
    const StepFigure& f = *m->figure;
    if (f.words) {
      figures.words_sizes.push_back(m->size);
      figures.words.push_back(f.svg);
      figures.words_panels.push_back(f.panel);
      continue;
    }
    figures.picture_sizes.push_back(m->size);
    figures.picture_weights.push_back(m->weight);
    figures.pictures.push_back(f.svg);
    figures.picture_panels.push_back(f.panel);
  }
  return figures;
}

// The text panels across the bottom of the figure box (else stacked), the pictures as large as
// fit above them. Beside pictures the panels' lines are kSlideTextPx; alone, as large as fit.
void place_figures(Layout& l, const SlideFigures& f) {
  PixelBox pictures = l.figure;
  l.words_scale = 0;
  l.words_height = 0;
  bool words_fit = true;
  if (!f.words.empty()) {
    const bool alone = f.pictures.empty();
    words_fit = false;
    for (const bool across : {true, false}) {
      const double scale = group_scale(f.words_sizes, l.figure, across, alone ? kLargestWordsScale : kSmallestWordsScale);
      if (scale + 1e-9 < kSmallestWordsScale || scale <= l.words_scale) continue;
      l.words_scale = scale;
      l.words_across = across;
      words_fit = true;
    }
    if (!words_fit) l.words_scale = group_scale(f.words_sizes, l.figure, /*across=*/false, kSmallestWordsScale);
    l.words_height = 0;
    for (const SvgSize& s : f.words_sizes)
      l.words_height = l.words_across ? std::max(l.words_height, s.height * l.words_scale) : l.words_height + s.height * l.words_scale;
    if (!l.words_across) l.words_height += kFigureGap * static_cast<double>(f.words_sizes.size() - 1);
    pictures.y1 -= l.words_height + kFigureGap;
  }
  l.figure_scale = 0;
  for (std::size_t per_row = f.picture_sizes.size(); per_row >= 1; --per_row)
    if (const double scale = grid_scale(f.picture_sizes, pictures, per_row, kLargestFigureScale); scale > l.figure_scale + 1e-9) {
      l.figure_scale = scale;
      l.per_row = per_row;
    }
  l.fits = words_fit && (f.pictures.empty() || l.figure_scale * kReferenceCell + 1e-9 >= kSlideCellPx);
}

double largest_fitting_text(const Typeface& type, const std::vector<Block>& blocks, const PixelBox& box) {
  for (double px = kLargestText; px >= kSmallestText; px -= 1)
    if (lay_out(type, blocks, px, box.x1 - box.x0, nullptr) <= box.y1 - box.y0) return px;
  return 0;
}

// The places a slide's text can take (a column beside the figures, or a band above them), with
// the largest size its text fits at there (0: it does not fit at kSmallestText).
std::vector<Layout> text_places(const Typeface& type, const std::vector<Block>& blocks, double top) {
  const double bottom = kSlideHeight - kMargin, right = kSlideWidth - kMargin;
  std::vector<Layout> places;
  if (blocks.empty()) {
    Layout l;
    l.figure = {kMargin, top, right, bottom};
    places.push_back(l);
    return places;
  }
  for (double text_width : {560.0, 680.0, 800.0, 920.0}) {
    Layout l;
    l.text = {kMargin, top, kMargin + text_width, bottom};
    l.figure = {kMargin + text_width + kGap, top, right, bottom};
    places.push_back(l);
  }
  // Text across the page, the figure under it: a few splits of the height.
  for (double text_height : {180.0, 200.0, 220.0, 260.0, 320.0, 420.0}) {
    Layout l;
    l.text = {kMargin, top, right, top + text_height};
    l.figure = {kMargin, top + text_height + kGap / 2, right, bottom};
    places.push_back(l);
  }
  for (Layout& l : places) l.text_px = largest_fitting_text(type, blocks, l.text);
  return places;
}

// The best of the places for these figures: one where everything fits, the largest cells, then
// the largest text; where none fits, the largest text, then the largest cells.
Layout choose_layout(std::vector<Layout> places, const SlideFigures& figures, bool has_text) {
  for (Layout& l : places) place_figures(l, figures);
  const auto better = [&](const Layout& a, const Layout& b) {
    const bool fa = a.fits && (!has_text || a.text_px > 0), fb = b.fits && (!has_text || b.text_px > 0);
    if (fa != fb) return fa;
    const double sa = a.figure_scale > 0 ? a.figure_scale : a.words_scale, sb = b.figure_scale > 0 ? b.figure_scale : b.words_scale;
    if (fa) return sa > sb + 1e-9 || (std::fabs(sa - sb) <= 1e-9 && a.text_px > b.text_px);
    return a.text_px > b.text_px || (a.text_px == b.text_px && sa > sb);
  };
  return *std::min_element(places.begin(), places.end(), [&](const Layout& a, const Layout& b) { return better(a, b); });
}

// Everything one slide draws, placed: the title's lines, the text blocks, the figures and their boxes.
struct SlidePlan {
  std::size_t part = 0, parts = 1;  // which of the step's slides (0: the first, with the text)
  double title_px = 48;
  std::vector<std::string> title_lines;
  std::vector<Block> blocks;
  SlideFigures figures;
  Layout layout;
  std::vector<SlideFigureBox> pictures, words;  // in the order of figures.pictures / figures.words
  bool fits() const { return layout.fits && (blocks.empty() || layout.text_px > 0); }
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

// The plan's figures placed by its layout: the pictures row by row, each row centred; the text
// panels under them.
void place_boxes(SlidePlan& plan) {
  const Layout& l = plan.layout;
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
  plan.words = place_row(plan.figures.words_sizes, l.figure, l.words_scale, l.words_across, words_top);
  const SlideFigures& f = plan.figures;
  for (std::size_t i = 0; i < plan.pictures.size(); ++i) {
    SlideFigureBox& b = plan.pictures[i];
    b.panel = f.picture_panels[i];
    b.kind = svg_kind(f.pictures[i]);
    b.slide = plan.part;
    b.cell_px = svg_cell_width(f.pictures[i]) * l.figure_scale * f.picture_weights[i];
  }
  for (std::size_t i = 0; i < plan.words.size(); ++i) {
    plan.words[i].panel = f.words_panels[i];
    plan.words[i].kind = svg_kind(f.words[i]);
    plan.words[i].slide = plan.part;
  }
}

// The step's figures in groups that share a slide: a panel's figures together (the writer and
// the reader), each XOR table alone.
// Groups of pictures (cells) come before groups of words, each kind in the view's order: a
// slide's room goes to the step's picture first.
std::vector<std::vector<const MeasuredFigure*>> panel_groups(const std::vector<MeasuredFigure>& drawn) {
  std::vector<std::vector<const MeasuredFigure*>> groups;
  for (const MeasuredFigure& m : drawn) {
    const std::string& panel = m.figure->panel;
    if (groups.empty() || panel == "card" || groups.back().front()->figure->panel != panel) groups.emplace_back();
    groups.back().push_back(&m);
  }
  std::stable_partition(groups.begin(), groups.end(), [](const std::vector<const MeasuredFigure*>& g) {
    return std::any_of(g.begin(), g.end(), [](const MeasuredFigure* m) { return !m->figure->words; });
  });
  return groups;
}

// The step's slides for one set of figures, each taking, in order, every remaining panel group
// that still fits beside what it holds: the first slide holds the text and what fits beside it
// (possibly nothing); a group that fits nowhere gets a slide of its own, as large as it can be.
std::vector<SlidePlan> pack_slides(const SlidePlan& first, const SlidePlan& rest, const std::vector<StepFigure>& drawn,
                                   const std::vector<Layout>& first_places, const std::vector<Layout>& rest_places) {
  std::vector<MeasuredFigure> measured;  // each figure measured once, whatever groups it is tried in
  measured.reserve(drawn.size());
  for (const StepFigure& f : drawn) measured.push_back(measure_figure(f));
  const auto groups = panel_groups(measured);
  std::vector<SlidePlan> slides;
  std::vector<bool> placed(groups.size(), false);
  const auto make = [&](const std::vector<std::size_t>& chosen) {
    const bool opening = slides.empty();
    std::vector<const MeasuredFigure*> figures;
    for (const std::size_t g : chosen) figures.insert(figures.end(), groups[g].begin(), groups[g].end());
    SlidePlan plan = opening ? first : rest;
    plan.figures = collect_slide_figures(figures);
    plan.layout = choose_layout(opening ? first_places : rest_places, plan.figures, !plan.blocks.empty());
    return plan;
  };
  const auto left = [&] { return std::find(placed.begin(), placed.end(), false) != placed.end(); };
  while (left() || slides.empty()) {
    std::vector<std::size_t> chosen;
    std::optional<SlidePlan> plan;
    if (slides.empty()) plan = make(chosen);  // the text alone
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (placed[g]) continue;
      chosen.push_back(g);
      if (SlidePlan more = make(chosen); more.fits()) {
        plan = std::move(more);
      } else {
        chosen.pop_back();
      }
    }
    if (chosen.empty() && left() && (!plan || !plan->fits())) {
      chosen.push_back(static_cast<std::size_t>(std::find(placed.begin(), placed.end(), false) - placed.begin()));
      plan = make(chosen);
    }
    for (const std::size_t g : chosen) placed[g] = true;
    slides.push_back(std::move(*plan));
  }
  for (std::size_t i = 0; i < slides.size(); ++i) {
    slides[i].part = i;
    slides[i].parts = slides.size();
    place_boxes(slides[i]);
  }
  return slides;
}

// Whether the step's first slide shows a picture of cells beside its text.
bool opens_with_picture(const std::vector<SlidePlan>& slides) {
  if (slides.empty()) return false;
  return !slides.front().figures.pictures.empty();
}

// The step's slides: the text and claims on the first, the figures of its view on as few slides as
// hold them with every cell kSlideCellPx or more and every word kSlideTextPx or more, a large tensor
// cut tighter where that saves a slide (the widest cut of those with the fewest slides).
std::vector<SlidePlan> plan_step(const Lesson& lesson, std::size_t index, const Typeface& type) {
  const LessonStep& s = lesson.steps[index];
  SlidePlan plan;
  const double width = kSlideWidth - 2 * kMargin;
  // The crumb, then the title.
  double y = kMargin + type.line_height(kCrumbPx) + 8;
  const std::string title = render_math(s.title, MathStyle::Unicode);
  while (plan.title_px > 28 && type.width(title, plan.title_px, true) > width) plan.title_px -= 2;
  plan.title_lines = wrap(type, title, plan.title_px, width);
  y += type.line_height(plan.title_px) * static_cast<double>(plan.title_lines.size()) + 20;
  const SlidePlan rest = plan;  // the step's later slides: its title over more of its figures
  // The text and the claims.
  for (const std::string& p : s.paragraphs) {
    if (!is_code_paragraph(p)) {
      plan.blocks.push_back({render_math(p, MathStyle::Unicode)});
      continue;
    }
    for (const std::string& code : code_lines(p)) plan.blocks.push_back({code, kInk, false, true});
  }
  for (const std::string& line : step_practice_lines(s)) plan.blocks.push_back({render_math(line, MathStyle::Unicode)});
  const Problem problem = problem_for_step(s);
  bool first_claim = true;
  for (const ClaimCheck& c : check_claims(s, problem, analyze(problem))) {
    std::string text = fmt::format("{} {}", c.holds ? "\u2713" : "\u2717", claim_in_words(c.claim.quantity, c.actual, MathStyle::Unicode));
    if (!c.holds) text += " The lesson says: " + claim_in_words(c.claim.quantity, c.claim.expected, MathStyle::Unicode);
    plan.blocks.push_back({text, c.holds ? kHolds : kOff, !first_claim});
    first_claim = false;
  }
  const std::vector<Layout> first_places = text_places(type, plan.blocks, y), rest_places = text_places(type, {}, y);
  std::optional<std::vector<std::string>> previous;
  std::vector<SlidePlan> best;
  std::size_t best_misfits = 0;
  bool best_pictured = false;
  for (const TensorCut& cut : slide_tensor_cuts()) {
    const std::vector<StepFigure> drawn = step_figures(s, cut);
    std::vector<std::string> svgs;
    for (const StepFigure& f : drawn) svgs.push_back(f.svg);
    if (svgs == previous) continue;  // this cut leaves the tensor as it was
    previous = svgs;
    std::vector<SlidePlan> slides = pack_slides(plan, rest, drawn, first_places, rest_places);
    std::size_t misfits = 0;
    for (const SlidePlan& p : slides) misfits += p.fits() ? 0 : 1;
    // Fewest slides that do not fit; then a picture beside the step's text where one can be; then
    // fewest slides.
    const bool pictured = opens_with_picture(slides);
    if (best.empty() || misfits < best_misfits ||
        (misfits == best_misfits && (pictured > best_pictured || (pictured == best_pictured && slides.size() < best.size())))) {
      best = std::move(slides);
      best_misfits = misfits;
      best_pictured = pictured;
    }
    // Only the tensor is cut: without one every cut draws the same figures.
    if (std::none_of(drawn.begin(), drawn.end(), [](const StepFigure& f) { return f.panel == "tensor"; })) break;
  }
  return best;
}

// The slide's file: step-17.png for a step's first slide, step-17b.png, step-17c.png for the
// slides that carry on its figures (they sort between step-17.png and step-18.png).
std::string slide_file(std::size_t step, std::size_t part) {
  return part == 0 ? fmt::format("step-{:02}.png", step + 1) : fmt::format("step-{:02}{}.png", step + 1, static_cast<char>('a' + part));
}

// Each line of text a slide draws itself (the crumb, the title, the text column), with its size,
// face and box; `draw` draws it.
template <typename Draw>
void each_slide_line(const Lesson& lesson, std::size_t index, const SlidePlan& plan, const Typeface& type, Draw draw) {
  const PixelBox page{0, 0, kSlideWidth, kSlideHeight};
  double y = kMargin;
  std::string crumb = fmt::format("{} \u00b7 step {} of {}", lesson.title, index + 1, lesson.steps.size());
  if (plan.parts > 1) crumb += fmt::format(" \u00b7 slide {} of {}", plan.part + 1, plan.parts);
  draw(crumb, kMargin, y + type.ascent(kCrumbPx), kCrumbPx, kMuted, FontFace::Regular, page);
  y += type.line_height(kCrumbPx) + 8;
  for (const std::string& line : plan.title_lines) {
    draw(line, kMargin, y + type.ascent(plan.title_px), plan.title_px, kInk, FontFace::Bold, page);
    y += type.line_height(plan.title_px);
  }
  const Layout& l = plan.layout;
  if (plan.blocks.empty()) return;
  const double px = l.text_px > 0 ? l.text_px : kSmallestText;
  std::vector<Line> lines;
  lay_out(type, plan.blocks, px, l.text.x1 - l.text.x0, &lines);
  for (const Line& line : lines)
    draw(line.text, l.text.x0, l.text.y0 + line.y, px, line.color, line.code ? FontFace::Mono : FontFace::Regular, l.text);
}

std::string slide_png(const Lesson& lesson, std::size_t index, const SlidePlan& plan, const Typeface& type) {
  Image image(kSlideWidth, kSlideHeight, kWhite);
  each_slide_line(lesson, index, plan, type,
                  [&](const std::string& text, double x, double baseline, double px, Rgb color, FontFace face, const PixelBox& clip) {
                    type.draw(image, x, baseline, px, text, color, face, clip);
                  });
  const Layout& l = plan.layout;
  for (std::size_t i = 0; i < plan.pictures.size(); ++i)
    draw_svg(image, plan.figures.pictures[i], type, plan.pictures[i].x, plan.pictures[i].y,
             l.figure_scale * plan.figures.picture_weights[i]);
  for (std::size_t i = 0; i < plan.words.size(); ++i)
    draw_svg(image, plan.figures.words[i], type, plan.words[i].x, plan.words[i].y, l.words_scale);
  return encode_png(image);
}

std::vector<SlidePlan> checked_plan(const Lesson& lesson, std::size_t step, const Typeface& type) {
  if (step >= lesson.steps.size()) fail("{}: no step {} (the lesson has {})", lesson.name, step + 1, lesson.steps.size());
  return plan_step(lesson, step, type);
}

}  // namespace

std::vector<LessonPage> lesson_slides_png(const Lesson& lesson, const Typeface& type) {
  std::vector<LessonPage> pages;
  for (std::size_t i = 0; i < lesson.steps.size(); ++i)
    for (const SlidePlan& plan : plan_step(lesson, i, type)) pages.push_back({slide_file(i, plan.part), slide_png(lesson, i, plan, type)});
  return pages;
}

std::vector<SlideFigureBox> slide_figure_boxes(const Lesson& lesson, std::size_t step, const Typeface& type) {
  std::vector<SlideFigureBox> out;
  for (SlidePlan& plan : checked_plan(lesson, step, type)) {
    out.insert(out.end(), plan.pictures.begin(), plan.pictures.end());
    out.insert(out.end(), plan.words.begin(), plan.words.end());
  }
  return out;
}

std::vector<SlideText> slide_texts(const Lesson& lesson, std::size_t step, const Typeface& type) {
  std::vector<SlideText> out;
  for (const SlidePlan& plan : checked_plan(lesson, step, type)) {
    each_slide_line(lesson, step, plan, type,
                    [&](const std::string& text, double x, double baseline, double px, Rgb, FontFace face, const PixelBox& clip) {
                      const double top = baseline - type.ascent(px);
                      out.push_back({text, plan.part, "", px, false,
                                     {x, top, x + type.width(text, px, face), top + type.line_height(px)}, clip});
                    });
    const auto figure_texts = [&](const std::string& svg, const SlideFigureBox& b, double scale) {
      for (SvgTextBox& t : svg_text_boxes(svg, type, b.x, b.y, scale))
        out.push_back({std::move(t.text), plan.part, b.kind, t.px, t.label, t.box, t.clip});
    };
    for (std::size_t i = 0; i < plan.pictures.size(); ++i)
      figure_texts(plan.figures.pictures[i], plan.pictures[i], plan.layout.figure_scale * plan.figures.picture_weights[i]);
    for (std::size_t i = 0; i < plan.words.size(); ++i) figure_texts(plan.figures.words[i], plan.words[i], plan.layout.words_scale);
  }
  return out;
}

std::size_t slide_count(const Lesson& lesson, std::size_t step, const Typeface& type) { return checked_plan(lesson, step, type).size(); }

}  // namespace swz
