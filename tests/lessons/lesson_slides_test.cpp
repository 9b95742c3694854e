// PNG slides (lesson_pages.h): the font draws every character a shipped lesson shows,
// and a lesson gives one PNG per step, the same bytes each time.
#include <gtest/gtest.h>

#include <string>

#include "swz/export/font.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_pages.h"
#include "swz/teach/math_text.h"

namespace swz {
namespace {

TEST(LessonSlides, TheFontHasEveryCharacterTheShippedLessonsShow) {
  const Typeface type = Typeface::load();
  int lessons = 0;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    ++lessons;
    // The slide's own marks: the crumb's middle dot, a claim's check or cross.
    std::string shown = lesson.title + "\u00b7\u2713\u2717";
    for (const LessonStep& s : lesson.steps) {
      shown += render_math(s.title, MathStyle::Unicode);
      for (const std::string& p : s.paragraphs) {
        if (!is_code_paragraph(p)) shown += render_math(p, MathStyle::Unicode);
        else
          for (const std::string& line : code_lines(p)) shown += line;  // one drawn line each, as written
      }
      for (const LessonClaim& c : s.claims) shown += c.quantity + render_math(c.expected.dump(), MathStyle::Unicode);
    }
    for (const char32_t cp : decode_utf8(shown))
      EXPECT_TRUE(type.has_glyph(cp)) << file.filename().string() << ": U+" << std::hex << static_cast<unsigned>(cp);
  }
  EXPECT_GE(lessons, 4);
}

TEST(LessonSlides, OnePngPerStepSameBytesEachTime) {
  const Typeface type = Typeface::load();
  const Lesson lesson = load_lesson_file(std::string(SWZ_LESSONS_DIR) + "/toy-gpu.json");
  const std::vector<LessonPage> pages = lesson_slides_png(lesson, type);
  ASSERT_EQ(pages.size(), lesson.steps.size());
  EXPECT_EQ(pages.front().file, "step-01.png");
  for (const LessonPage& p : pages) EXPECT_EQ(p.contents.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << p.file;
  const std::vector<LessonPage> again = lesson_slides_png(lesson, type);
  for (std::size_t i = 0; i < pages.size(); ++i) EXPECT_EQ(pages[i].contents, again[i].contents) << pages[i].file;
}

}  // namespace
}  // namespace swz
