// lesson_pages.h: a lesson as step pages, slides, a student handout and a teacher's key.
//
// Each page holds the step's title, its text (powers and XOR as math_text.h
// renders them for HTML), the figures of the step's own view (step_figures()),
// its claims with the core's values, and what it asks of the learner (its
// exercise's task and moves, its question to predict; no hint, no answer). An
// index page links them in order.
//
// The same pages as PNG slides (1920x1080): the title across the top, the text,
// what the step asks and its claims word-wrapped (powers as superscripts, XOR as ⊕) beside or above the
// figure, each scaled as large as fits; the figure is the same SVG with its words
// drawn as large as its cells (FigureOptions::text_size), rasterised by raster.h.
// A step whose figures do not fit one slide at kSlideCellPx cells and kSlideTextPx
// words goes on over more slides. No index: the files sort in step order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "swz/export/raster.h"
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
// The cuts a slide tries, widest first: the widest of those that need the fewest slides is kept.
const std::vector<TensorCut>& slide_tensor_cuts();

struct LessonPage {
  std::string file;      // "step-01.html", ..., "index.html"; "step-01.png", ...
  std::string contents;  // a complete HTML document, or the bytes of a PNG file
};

// The step pages in order, then the index. Throws swz::Error when a step's problem cannot be drawn.
std::vector<LessonPage> lesson_pages(const Lesson& lesson);

// What a step asks of the learner, in words that work on a projected slide and on paper (the
// task and the moves allowed, the question to predict); no hint, no answer. Empty when it asks
// nothing. Step pages and slides show these under the step's text.
std::vector<std::string> step_practice_lines(const LessonStep& step);

// A lesson on paper comes as two documents, printable HTML, each step kept on one page:
// The student handout: every step (title, text, figures, claims in words), its exercise (task,
// moves, the first hint only) and its prediction (the question, a blank for the number), then the
// lesson's quiz without its answers. No speaker note, no hint past the first, no answer.
std::string lesson_student_handout_html(const Lesson& lesson);
// The teacher's key: the plan (each step's minutes and where the clock should be by its end), each
// step's speaker notes, each exercise with every hint and its solution as solve_exercise() finds
// it (its goal checked on that state), each prediction's answer as the core measures it, and each
// quiz answer with its explanation.
// Both throw swz::Error like lesson_pages(), or when the lesson's quiz set cannot be found.
std::string lesson_teacher_key_html(const Lesson& lesson);

class Typeface;
inline constexpr int kSlideWidth = 1920, kSlideHeight = 1080;
// The smallest cell a slide draws, in px of the 1920x1080 slide: readable from the back of a room.
inline constexpr double kSlideCellPx = 24;
// The smallest words a slide draws (text, claims, code, captions, text panels), in px: the same.
// Only text bound to a cell (its number, an axis index, a bit's name: svg.h's class="label") is
// smaller, as large as the cells allow.
inline constexpr double kSlideTextPx = 24;
// A step's slides, in order: step-03.png, then step-03b.png, step-03c.png where its figures go
// on over more slides (the text and claims on the first, each later one under the step's title).
// Throws swz::Error like lesson_pages().
std::vector<LessonPage> lesson_slides_png(const Lesson& lesson, const Typeface& type);

// Where a step's slides draw each figure: its panel, its kind (the SVG's data-view), which of the
// step's slides, the box it fills on that 1920x1080 slide, and a cell's side there (the SVG's cell
// times the scale; 0 for a text panel, which has no cells). Throws swz::Error for a step past the end.
struct SlideFigureBox {
  std::string panel, kind;
  std::size_t slide = 0;  // 0: the step's first slide
  double x = 0, y = 0, width = 0, height = 0;
  double cell_px = 0;
};
std::vector<SlideFigureBox> slide_figure_boxes(const Lesson& lesson, std::size_t step, const Typeface& type);
std::size_t slide_count(const Lesson& lesson, std::size_t step, const Typeface& type);

// Every line of text a step's slides draw, as drawn: the crumb, the title, the text column and
// each figure's <text> (raster.h's svg_text_boxes): its size in px, whether it is a cell's label,
// the box it fills and the box it is clipped to (the page, the text column, the figure's canvas).
struct SlideText {
  std::string text;
  std::size_t slide = 0;
  std::string figure;  // the figure kind it belongs to; "" for the slide's own text
  double px = 0;
  bool label = false;
  PixelBox box, clip;
};
std::vector<SlideText> slide_texts(const Lesson& lesson, std::size_t step, const Typeface& type);

}  // namespace swz
