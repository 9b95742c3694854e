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
constexpr double kMargin = 64, kGap = 48;
constexpr double kLargestText = 30, kSmallestText = 16, kReadableText = 22;
constexpr double kLargestFigureScale = 2.5;

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
  bool across = true;       // the pictures side by side, else one under the other
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

// The step's figures, measured: pictures and text panels apart.
struct SlideFigures {
  std::vector<std::string> pictures, words;
  std::vector<SvgSize> picture_sizes, words_sizes;
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
  const double across = group_scale(f.picture_sizes, pictures, true, kLargestFigureScale);
  const double down = group_scale(f.picture_sizes, pictures, false, kLargestFigureScale);
  l.across = across >= down;
  l.figure_scale = std::max(across, down);
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

std::string slide(const Lesson& lesson, std::size_t index, const Typeface& type) {
  const LessonStep& s = lesson.steps[index];
  const PixelBox page{0, 0, kSlideWidth, kSlideHeight};
  Image image(kSlideWidth, kSlideHeight, kWhite);
  const double width = kSlideWidth - 2 * kMargin;
  // The crumb and the title.
  double y = kMargin;
  const double crumb_px = 24;
  type.draw(image, kMargin, y + type.ascent(crumb_px), crumb_px,
            fmt::format("{} \u00b7 step {} of {}", lesson.title, index + 1, lesson.steps.size()), kMuted, false, page);
  y += type.line_height(crumb_px) + 8;
  double title_px = 48;
  const std::string title = render_math(s.title, MathStyle::Unicode);
  while (title_px > 28 && type.width(title, title_px, true) > width) title_px -= 2;
  for (const std::string& line : wrap(type, title, title_px, width)) {
    type.draw(image, kMargin, y + type.ascent(title_px), title_px, line, kInk, true, page);
    y += type.line_height(title_px);
  }
  y += 20;
  // The text and the claims.
  std::vector<Block> blocks;
  for (const std::string& p : s.paragraphs) {
    if (!is_code_paragraph(p)) {
      blocks.push_back({render_math(p, MathStyle::Unicode)});
      continue;
    }
    for (const std::string& code : code_lines(p)) blocks.push_back({code, kInk, false, true});
  }
  const Problem problem = problem_for_step(s);
  bool first_claim = true;
  for (const ClaimCheck& c : check_claims(s, problem, analyze(problem))) {
    std::string text = fmt::format("{} {}", c.holds ? "\u2713" : "\u2717", claim_in_words(c.claim.quantity, c.actual, MathStyle::Unicode));
    if (!c.holds) text += " The lesson says: " + claim_in_words(c.claim.quantity, c.claim.expected, MathStyle::Unicode);
    blocks.push_back({text, c.holds ? kHolds : kOff, !first_claim});
    first_claim = false;
  }
  // The figures of the step's view, as in the HTML pages.
  SlideFigures figures;
  for (StepFigure& f : step_figures(s, /*zoom=*/true)) {
    (f.words ? figures.words_sizes : figures.picture_sizes).push_back(svg_size(f.svg));
    (f.words ? figures.words : figures.pictures).push_back(std::move(f.svg));
  }
  const Layout l = choose_layout(type, blocks, figures, y);
  const double px = l.text_px > 0 ? l.text_px : kSmallestText;
  std::vector<Line> lines;
  lay_out(type, blocks, px, l.text.x1 - l.text.x0, &lines);
  for (const Line& line : lines) type.draw(image, l.text.x0, l.text.y0 + line.y, px, line.text, line.color, line.code ? FontFace::Mono : FontFace::Regular, l.text);
  // The pictures centred across their box, at its top; the text panels under them; on whole pixels.
  const auto draw_row = [&](const std::vector<std::string>& svgs, const std::vector<SvgSize>& sizes, double scale, bool across,
                            double top) {
    double width = 0;
    for (const SvgSize& size : sizes) width = across ? width + size.width * scale + kFigureGap : std::max(width, size.width * scale);
    if (across && !sizes.empty()) width -= kFigureGap;
    double fx = std::round(l.figure.x0 + (l.figure.x1 - l.figure.x0 - width) / 2), fy = std::round(top);
    for (std::size_t i = 0; i < svgs.size(); ++i) {
      draw_svg(image, svgs[i], type, fx, fy, scale);
      if (across)
        fx = std::round(fx + sizes[i].width * scale + kFigureGap);
      else
        fy = std::round(fy + sizes[i].height * scale + kFigureGap);
    }
  };
  double pictures_height = 0;
  for (const SvgSize& size : figures.picture_sizes)
    pictures_height = l.across ? std::max(pictures_height, size.height * l.figure_scale)
                               : pictures_height + size.height * l.figure_scale + kFigureGap;
  draw_row(figures.pictures, figures.picture_sizes, l.figure_scale, l.across, l.figure.y0);
  const double words_top = figures.pictures.empty() ? l.figure.y0 : l.figure.y0 + pictures_height + kFigureGap;
  draw_row(figures.words, figures.words_sizes, l.words_scale, !figures.pictures.empty(), words_top);
  return encode_png(image);
}

}  // namespace

std::vector<LessonPage> lesson_slides_png(const Lesson& lesson, const Typeface& type) {
  std::vector<LessonPage> pages;
  for (std::size_t i = 0; i < lesson.steps.size(); ++i) pages.push_back({slide_file(i), slide(lesson, i, type)});
  return pages;
}

}  // namespace swz
