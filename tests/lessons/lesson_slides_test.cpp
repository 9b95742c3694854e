// PNG slides (lesson_pages.h): the font draws every character a shipped lesson shows,
// a lesson gives one PNG per step, the same bytes each time, and every step's slide and page
// draw the figures of that step's own view.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "swz/error.h"
#include "swz/export/font.h"
#include "swz/teach/claim_words.h"
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
      for (const LessonClaim& c : s.claims) shown += claim_in_words(c.quantity, c.expected, MathStyle::Unicode);
    }
    for (const char32_t cp : decode_utf8(shown))
      EXPECT_TRUE(type.has_glyph(cp)) << file.filename().string() << ": U+" << std::hex << static_cast<unsigned>(cp);
  }
  EXPECT_GE(lessons, 4);
}

// Code on slides is drawn in DejaVu Sans Mono, found beside DejaVu Sans: every character one width.
TEST(LessonSlides, CodeHasAMonospacedFace) {
  const FontSearch found = find_fonts();
  ASSERT_TRUE(found.mono) << "no DejaVuSansMono.ttf beside " << (found.regular ? found.regular->string() : "nothing");
  EXPECT_EQ(found.mono->filename(), "DejaVuSansMono.ttf");
  const Typeface type = Typeface::load();
  EXPECT_TRUE(type.has_mono());
  EXPECT_DOUBLE_EQ(type.width("iiii", 20, FontFace::Mono), type.width("MMMM", 20, FontFace::Mono));
  EXPECT_LT(type.width("iiii", 20, FontFace::Regular), type.width("MMMM", 20, FontFace::Regular));
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

// The figure kinds (an SVG root's data-view) a panel's figure may have.
std::vector<std::string> kinds_for_panel(const std::string& panel) {
  if (panel == "layouts") return {"writer", "reader"};
  if (panel == "matrix") return {"matrix-m|matrix-a"};
  return {panel};
}

// Every data-view="..." in a text, in order.
std::vector<std::string> data_views(const std::string& text) {
  std::vector<std::string> out;
  const std::string key = "data-view=\"";
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
    const std::size_t begin = at + key.size();
    out.push_back(text.substr(begin, text.find('"', begin) - begin));
  }
  return out;
}

bool kind_matches(const std::string& expected, const std::string& actual) {
  return expected == actual || (expected == "matrix-m|matrix-a" && (actual == "matrix-m" || actual == "matrix-a"));
}

TEST(LessonSlides, EveryStepsSlideAndPageDrawItsOwnView) {
  int steps = 0, figures = 0;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    const std::vector<LessonPage> pages = lesson_pages(lesson);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const LessonStep& s = lesson.steps[i];
      const std::string where = fmt::format("{} step {}", lesson.name, i + 1);
      // What the workbench shows at this step, as figure kinds.
      std::vector<std::string> expected;
      for (const std::string& id : lesson_panel_ids())
        if (s.view.shows(id))
          for (const std::string& k : kinds_for_panel(id)) expected.push_back(k);
      std::set<std::string> tables;
      for (const LessonClaim& c : s.claims) {
        int r = 0, cols = 0;
        if (std::sscanf(c.quantity.c_str(), "xor_table(%d,%d)", &r, &cols) == 2 && tables.insert(fmt::format("{}x{}", r, cols)).second)
          expected.push_back("xor-table");
      }
      const std::vector<StepFigure> drawn = step_figures(s);
      std::vector<std::string> kinds;
      for (const StepFigure& f : drawn) {
        const std::vector<std::string> v = data_views(f.svg);
        ASSERT_FALSE(v.empty()) << where << ": a figure without data-view";
        kinds.push_back(v.front());
        if (v.front() == "tensor") {
          EXPECT_NE(f.svg.find(s.view.cells == CellNumbers::Offset ? "number = offset" : "number = bank"), std::string::npos) << where;
          bool tensor_target = false;
          for (const std::string& t : s.highlight) tensor_target |= t.rfind("tensor.", 0) == 0;
          EXPECT_EQ(f.svg.find("class=\"mark\"") != std::string::npos, tensor_target) << where << ": highlighted cells ringed";
        }
      }
      ASSERT_EQ(kinds.size(), expected.size()) << where << ": " << fmt::format("{}", fmt::join(kinds, ", "));
      for (std::size_t k = 0; k < kinds.size(); ++k) EXPECT_TRUE(kind_matches(expected[k], kinds[k])) << where << ": " << kinds[k];
      // The page inlines the same figures, in the same order.
      EXPECT_EQ(data_views(pages[i].contents), kinds) << where;
      ++steps;
      figures += static_cast<int>(kinds.size());
    }
  }
  std::printf("slides: %d steps, %d figures, each of its step's view\n", steps, figures);
  EXPECT_GE(steps, 69);
}

// A slide's tensor keeps at most 16 rows and 32 columns (cells of 22 SVG px, >= 24 px on a slide),
// and among them every cell the traced instruction touches that fits the window.
TEST(LessonSlides, LargeTensorsAreCutToTheStepsRowsAndColumns) {
  int large = 0;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const LessonStep& s = lesson.steps[i];
      const Problem p = problem_for_step(s);
      if (!s.view.shows("tensor") || (p.shared.shape().back() <= 32 && p.shared.elements() / p.shared.shape().back() <= 16)) continue;
      ++large;
      for (const StepFigure& f : step_figures(s, TensorCut{})) {
        if (data_views(f.svg).front() != "tensor") continue;
        std::set<std::string> rows, cols;
        const std::string key = "class=\"cell\"";
        for (std::size_t at = f.svg.find(key); at != std::string::npos; at = f.svg.find(key, at + 1)) {
          const std::size_t c = f.svg.find("data-coords=\"", at) + 13;
          const std::string coords = f.svg.substr(c, f.svg.find('"', c) - c);
          rows.insert(coords.substr(0, coords.rfind(',')));
          cols.insert(coords.substr(coords.rfind(',') + 1));
        }
        EXPECT_LE(rows.size(), 16u) << file.filename().string() << " step " << i + 1;
        EXPECT_LE(cols.size(), 32u) << file.filename().string() << " step " << i + 1;
        EXPECT_NE(f.svg.find("width=\"22\""), std::string::npos) << file.filename().string() << " step " << i + 1 << ": cells of 22 px";
      }
    }
  }
  EXPECT_GE(large, 1);
}

// Readable from the back of a room: on every shipped step's 1920x1080 slide the tensor's and the
// XOR tables' cells are kSlideCellPx (24 px) or more, and every figure lies inside the slide. The
// ownership and matrix figures are not cut to a window: beside a tensor on a 16x32 tile
// (swizzle-by-hand steps 17 and 23) they stay smaller; the smallest is printed.
TEST(LessonSlides, EverySlidesTensorAndTableCellsAreAtLeast24PxAt1920x1080) {
  const Typeface type = Typeface::load();
  int steps = 0, pictures = 0;
  double smallest = 1e9;
  std::string smallest_at;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const std::string where = fmt::format("{} step {}", lesson.name, i + 1);
      const std::vector<SlideFigureBox> boxes = slide_figure_boxes(lesson, i, type);
      EXPECT_EQ(boxes.size(), step_figures(lesson.steps[i]).size()) << where;
      for (const SlideFigureBox& b : boxes) {
        EXPECT_GE(b.x, 0) << where << " " << b.kind;
        EXPECT_GE(b.y, 0) << where << " " << b.kind;
        EXPECT_LE(b.x + b.width, kSlideWidth + 0.5) << where << " " << b.kind;
        EXPECT_LE(b.y + b.height, kSlideHeight + 0.5) << where << " " << b.kind;
        if (b.cell_px == 0) continue;
        ++pictures;
        if (b.kind == "tensor" || b.kind == "xor-table")
          EXPECT_GE(b.cell_px, kSlideCellPx) << where << ": " << b.kind << " cells of " << b.cell_px << " px";
        if (b.cell_px < smallest) {
          smallest = b.cell_px;
          smallest_at = where + " " + b.kind;
        }
      }
      ++steps;
    }
  }
  std::printf("slides: %d steps, %d figures with cells, the smallest cell of any %.1f px (%s)\n", steps, pictures, smallest,
              smallest_at.c_str());
  EXPECT_GE(steps, 70);
  EXPECT_GE(pictures, 60);
}

// The TMA lesson's first slide: its 64x64 tile cut to the rows and columns its copy touches, so
// the cells are no longer 22 px.
TEST(LessonSlides, TheTmaTilesSlideZoomsPast22PxCells) {
  const Typeface type = Typeface::load();
  const Lesson lesson = load_lesson_file(std::string(SWZ_LESSONS_DIR) + "/tma-swizzle.json");
  bool tensor = false;
  for (const SlideFigureBox& b : slide_figure_boxes(lesson, 0, type))
    if (b.kind == "tensor") {
      tensor = true;
      EXPECT_GE(b.cell_px, kSlideCellPx);
    }
  EXPECT_TRUE(tensor);
  try {
    (void)slide_figure_boxes(lesson, lesson.steps.size(), type);
    ADD_FAILURE() << "a step past the lesson's end";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              fmt::format("tma-swizzle: no step {} (the lesson has {})", lesson.steps.size() + 1, lesson.steps.size()));
  }
}

}  // namespace
}  // namespace swz
