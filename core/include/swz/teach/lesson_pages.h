// lesson_pages.h: a lesson as handout or slide pages, one per step.
//
// Each page holds the step's title, its text (powers and XOR as math_text.h
// renders them for HTML), the tensor figure of the step's problem drawn by
// svg.h with the instruction the step shows outlined, and its claims with the
// core's values. An index page links them in order.
#pragma once

#include <string>
#include <vector>

#include "swz/teach/lesson.h"

namespace swz {

struct LessonPage {
  std::string file;      // "step-01.html", ..., "index.html"
  std::string contents;  // a complete HTML document
};

// The step pages in order, then the index. Throws swz::Error when a step's problem cannot be drawn.
std::vector<LessonPage> lesson_pages(const Lesson& lesson);

}  // namespace swz
