// lesson_html.h: the HTML pieces the step pages (lesson_pages.cpp), the student handout and the
// teacher's key (lesson_handout.cpp) share.
#pragma once

#include <cstddef>
#include <string>

#include "swz/teach/lesson.h"

namespace swz {

// A complete HTML document with the lessons' style sheet (screen and print).
std::string html_page(const std::string& title, const std::string& body);
// A step's card text (code as <pre><code>), the figures of its view and its claims in words.
std::string step_content_html(const LessonStep& step);
// What the step asks the learner to do, as the learner sees it: its exercise (the task, the moves
// allowed and the first `hints` hints) and its prediction (the question and a blank for the
// number). No answers. "" when it asks nothing.
std::string practice_html(const LessonStep& step, std::size_t hints);

}  // namespace swz
