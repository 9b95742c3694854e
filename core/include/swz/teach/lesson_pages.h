// lesson_pages.h: a lesson as handout or slide pages, one per step.
//
// Each page holds the step's title, its text (powers and XOR as math_text.h
// renders them for HTML), the tensor figure of the step's problem drawn by
// svg.h with the instruction the step shows outlined, and its claims with the
// core's values. An index page links them in order.
//
// The same pages as PNG slides (1920x1080): the title across the top, the text
// and claims word-wrapped (powers as superscripts, XOR as ⊕) beside or above the
// figure, each scaled as large as fits; the figure is the same SVG, rasterised
// by raster.h. No index: the files sort in step order.
#pragma once

#include <string>
#include <vector>

#include "swz/teach/lesson.h"

namespace swz {

struct LessonPage {
  std::string file;      // "step-01.html", ..., "index.html"; "step-01.png", ...
  std::string contents;  // a complete HTML document, or the bytes of a PNG file
};

// The step pages in order, then the index. Throws swz::Error when a step's problem cannot be drawn.
std::vector<LessonPage> lesson_pages(const Lesson& lesson);

class Typeface;
inline constexpr int kSlideWidth = 1920, kSlideHeight = 1080;
// One PNG slide per step, in order. Throws swz::Error like lesson_pages().
std::vector<LessonPage> lesson_slides_png(const Lesson& lesson, const Typeface& type);

}  // namespace swz
