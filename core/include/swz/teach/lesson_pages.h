// lesson_pages.h: a lesson as handout or slide pages, one per step.
//
// Each page holds the step's title, its text (powers and XOR as math_text.h
// renders them for HTML), the figures of the step's own view (step_figures()),
// and its claims with the core's values. An index page links them in order.
//
// The same pages as PNG slides (1920x1080): the title across the top, the text
// and claims word-wrapped (powers as superscripts, XOR as ⊕) beside or above the
// figure, each scaled as large as fits; the figure is the same SVG, rasterised
// by raster.h. No index: the files sort in step order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "swz/teach/lesson.h"

namespace swz {

// One figure of a step's view: the panel it stands for ("card" for the card's XOR tables) and
// its SVG, whose root's data-view names the figure kind (svg.h).
struct StepFigure {
  std::string panel;
  std::string svg;
  bool words = false;  // a text panel (svg.h's text_figure_svg), not a picture of cells
};
// The panels whose figures a step's slide and page draw: the ones its view shows (its focus
// alone when it has one), in the workbench's order.
std::vector<std::string> step_figure_panels(const LessonStep& step);
// Those figures, each drawn from the facts its panel shows:
//   problem  the tensor, the bank model, the instructions       (text)
//   grid     the toggle grid's masks                             (text)
//   tensor   bank or offset numbers as the view's cells say, the traced instruction outlined,
//            the highlighted rows, columns and cells ringed     (tensor)
//   trace    each side's instruction, wavefronts, per step      (text)
//   layouts  who stores and who reads each element              (writer, reader)
//   matrix   the shared layout as a matrix (A when not linear)  (matrix-m or matrix-a)
//   algebra  each side's bad directions, predicted vs simulated (text)
//   memory   the element at each offset                         (text)
//   solver   the construction's steps up to the view's solver step, and its answer (text)
// then one XOR table for each xor_table(R,C) the claims name, as the card draws them.
// `cut` (slides): a tensor over `cut.rows` rows or `cut.cols` columns keeps only the rows and
// columns the step is about (the traced instruction's and the highlighted ones: half to all of
// cut.rows rows, half to all of cut.cols columns), so its cells can be drawn large on a slide.
// Throws swz::Error when a step's problem cannot be drawn.
struct TensorCut {
  std::int64_t rows = 16, cols = 32;
};
std::vector<StepFigure> step_figures(const LessonStep& step, std::optional<TensorCut> cut = std::nullopt);
// The cuts a slide tries, widest first, until its pictures' cells are kSlideCellPx or more.
const std::vector<TensorCut>& slide_tensor_cuts();

struct LessonPage {
  std::string file;      // "step-01.html", ..., "index.html"; "step-01.png", ...
  std::string contents;  // a complete HTML document, or the bytes of a PNG file
};

// The step pages in order, then the index. Throws swz::Error when a step's problem cannot be drawn.
std::vector<LessonPage> lesson_pages(const Lesson& lesson);

// The whole lesson as one printable HTML document: every step (title, text, figures, claims in
// words, speaker notes, its exercise with hints), the lesson's quiz, and an answer key at the end:
// each exercise's solution as solve_exercise() finds it, with its goal checked on that state, and
// each quiz answer with its explanation. Throws swz::Error like lesson_pages(), or when the
// lesson's quiz set cannot be found.
std::string lesson_handout_html(const Lesson& lesson);

class Typeface;
inline constexpr int kSlideWidth = 1920, kSlideHeight = 1080;
// The smallest cell a slide draws, in px of the 1920x1080 slide: readable from the back of a room.
inline constexpr double kSlideCellPx = 24;
// One PNG slide per step, in order. Throws swz::Error like lesson_pages().
std::vector<LessonPage> lesson_slides_png(const Lesson& lesson, const Typeface& type);

// Where a step's slide draws each figure: its panel, its kind (the SVG's data-view), the box it
// fills on the 1920x1080 slide, and a cell's side there (the SVG's cell times the scale; 0 for a
// text panel, which has no cells). The slide tries slide_tensor_cuts() in order and keeps the
// first whose pictures' cells are all kSlideCellPx or more (else the last).
struct SlideFigureBox {
  std::string panel, kind;
  double x = 0, y = 0, width = 0, height = 0;
  double cell_px = 0;
};
std::vector<SlideFigureBox> slide_figure_boxes(const Lesson& lesson, std::size_t step, const Typeface& type);

}  // namespace swz
