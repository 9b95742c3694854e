// PNG slides (lesson_pages.h): the font draws every character a shipped lesson shows,
// a lesson gives one PNG per step, the same bytes each time, and every step's slide and page
// draw the figures of that step's own view.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
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

// Each step's slides in order (step-03.png, step-03b.png, ...), the files sorting as they are
// shown, the same bytes each time.
TEST(LessonSlides, EachStepsSlidesInOrderSameBytesEachTime) {
  const Typeface type = Typeface::load();
  const Lesson lesson = load_lesson_file(std::string(SWZ_LESSONS_DIR) + "/toy-gpu.json");
  const std::vector<LessonPage> pages = lesson_slides_png(lesson, type);
  std::vector<std::string> expected;
  for (std::size_t i = 0; i < lesson.steps.size(); ++i)
    for (std::size_t part = 0; part < slide_count(lesson, i, type); ++part)
      expected.push_back(part == 0 ? fmt::format("step-{:02}.png", i + 1) : fmt::format("step-{:02}{}.png", i + 1, static_cast<char>('a' + part)));
  std::vector<std::string> files;
  for (const LessonPage& p : pages) files.push_back(p.file);
  EXPECT_EQ(files, expected);
  std::vector<std::string> sorted = files;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, files);
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
          if (f.svg.find("number = ") != std::string::npos) {  // the caption names numbers only where cells carry them
            EXPECT_NE(f.svg.find(s.view.cells == CellNumbers::Offset ? "number = offset" : "number = bank"), std::string::npos) << where;
          }
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

bool boxes_overlap(const PixelBox& a, const PixelBox& b, double slack = 0.5) {
  return a.x0 + slack < b.x1 && b.x0 + slack < a.x1 && a.y0 + slack < b.y1 && b.y0 + slack < a.y1;
}

bool box_inside(const PixelBox& inner, const PixelBox& outer, double slack = 0.5) {
  return inner.x0 + slack >= outer.x0 && inner.y0 + slack >= outer.y0 && inner.x1 <= outer.x1 + slack && inner.y1 <= outer.y1 + slack;
}

PixelBox box_of(const SlideFigureBox& b) { return {b.x, b.y, b.x + b.width, b.y + b.height}; }

// Readable from the back of a room: on every shipped step's 1920x1080 slides every figure's cells
// (tensor, writer, reader, matrix, XOR table) are kSlideCellPx (24 px) or more.
TEST(LessonSlides, EverySlidesCellsOfEveryFigureKindAreAtLeast24PxAt1920x1080) {
  const Typeface type = Typeface::load();
  int steps = 0, pictures = 0, slides = 0;
  double smallest = 1e9;
  std::string smallest_at;
  std::set<std::string> kinds;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const std::string where = fmt::format("{} step {}", lesson.name, i + 1);
      const std::vector<SlideFigureBox> boxes = slide_figure_boxes(lesson, i, type);
      EXPECT_EQ(boxes.size(), step_figures(lesson.steps[i]).size()) << where;
      slides += static_cast<int>(slide_count(lesson, i, type));
      for (const SlideFigureBox& b : boxes) {
        if (b.cell_px == 0) continue;
        ++pictures;
        kinds.insert(b.kind);
        EXPECT_GE(b.cell_px, kSlideCellPx) << where << " slide " << b.slide + 1 << ": " << b.kind << " cells of " << b.cell_px << " px";
        if (b.cell_px < smallest) {
          smallest = b.cell_px;
          smallest_at = where + " " + b.kind;
        }
      }
      ++steps;
    }
  }
  std::printf("slides: %d steps on %d slides, %d figures with cells, the smallest cell %.1f px (%s)\n", steps, slides, pictures,
              smallest, smallest_at.c_str());
  for (const char* kind : {"tensor", "writer", "reader", "matrix-m", "xor-table"}) EXPECT_TRUE(kinds.count(kind)) << kind;
  EXPECT_GE(steps, 70);
  EXPECT_GE(pictures, 60);
}

// A step that does not fit one slide goes on over more: every later slide holds some of its
// figures, a panel's figures (the writer and the reader) share a slide, and swizzle-by-hand's
// steps 17 and 23 (tensor, layouts, matrix; layouts and solver) are among them.
TEST(LessonSlides, AStepGoesOnOverMoreSlidesWithAPanelsFiguresTogether) {
  const Typeface type = Typeface::load();
  std::set<std::string> continued;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const std::string where = fmt::format("{} step {}", lesson.name, i + 1);
      const std::size_t slides = slide_count(lesson, i, type);
      ASSERT_GE(slides, 1u) << where;
      std::vector<int> figures(slides, 0);
      std::map<std::string, std::size_t> panel_slide;
      for (const SlideFigureBox& b : slide_figure_boxes(lesson, i, type)) {
        ASSERT_LT(b.slide, slides) << where;
        ++figures[b.slide];
        if (b.panel == "card") continue;  // each XOR table is a figure of its own
        const auto [at, first] = panel_slide.emplace(b.panel, b.slide);
        EXPECT_TRUE(first || at->second == b.slide) << where << ": the " << b.panel << " panel split over slides";
      }
      for (std::size_t k = 1; k < slides; ++k) EXPECT_GT(figures[k], 0) << where << ": slide " << k + 1 << " is empty";
      if (slides > 1) continued.insert(where);
    }
  }
  EXPECT_TRUE(continued.count("swizzle-by-hand step 17"));
  EXPECT_TRUE(continued.count("swizzle-by-hand step 23"));
}

// A step whose view has a picture of cells (tensor, layouts, matrix, XOR table) shows one on its
// first slide, beside its text: the continuation slides carry what did not fit, not the picture
// the step is about (TMA step 2 put its conflict tensor on a second slide behind two text panels).
TEST(LessonSlides, AStepsFirstSlideShowsItsPicture) {
  const Typeface type = Typeface::load();
  int pictured = 0;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const std::string where = fmt::format("{} step {}", lesson.name, i + 1);
      bool any = false, first = false;
      for (const StepFigure& f : step_figures(lesson.steps[i], slide_tensor_cuts().front())) any = any || !f.words;
      for (const SlideFigureBox& b : slide_figure_boxes(lesson, i, type)) first = first || (b.slide == 0 && b.cell_px > 0);
      if (!any) continue;
      EXPECT_TRUE(first) << where << ": its picture is not on its first slide";
      pictured += first ? 1 : 0;
    }
  }
  EXPECT_GE(pictured, 50);
}

// Every word on every shipped step's slides (text, claims, code, captions, legends, text panels)
// is kSlideTextPx (24 px) or more; only a cell's own label (its number, an axis index, a bit's
// name) is as small as its cell makes it.
TEST(LessonSlides, EverySlidesWordsAreAtLeast24PxAt1920x1080) {
  const Typeface type = Typeface::load();
  double smallest = 1e9, smallest_label = 1e9;
  std::string smallest_at;
  int texts = 0;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      for (const SlideText& t : slide_texts(lesson, i, type)) {
        const std::string where = fmt::format("{} step {} slide {} {}", lesson.name, i + 1, t.slide + 1, t.figure.empty() ? "text" : t.figure);
        if (t.label) {
          smallest_label = std::min(smallest_label, t.px);
          continue;
        }
        ++texts;
        EXPECT_GE(t.px, kSlideTextPx - 1e-6) << where << ": '" << t.text << "' at " << t.px << " px";
        if (t.px < smallest) {
          smallest = t.px;
          smallest_at = where + ": " + t.text;
        }
      }
    }
  }
  std::printf("slides: %d lines of words, the smallest %.1f px (%s); cells' labels from %.1f px\n", texts, smallest,
              smallest_at.c_str(), smallest_label);
  EXPECT_GE(texts, 1000);
}

// Nothing on a slide is cut off or drawn over something else: every figure lies inside the slide
// and apart from the others; every line of text lies inside the slide and inside what it is
// clipped to (its column, its figure's canvas), no line of words covers another, and the text
// column's lines stay off the figures.
TEST(LessonSlides, NothingOnASlideOverflowsOrOverlaps) {
  const Typeface type = Typeface::load();
  const PixelBox page{0, 0, kSlideWidth, kSlideHeight};
  int checked = 0;
  for (const auto& file : lesson_files(SWZ_LESSONS_DIR)) {
    const Lesson lesson = load_lesson_file(file);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
      const std::string step = fmt::format("{} step {}", lesson.name, i + 1);
      const std::vector<SlideFigureBox> boxes = slide_figure_boxes(lesson, i, type);
      for (std::size_t a = 0; a < boxes.size(); ++a) {
        EXPECT_TRUE(box_inside(box_of(boxes[a]), page)) << step << ": " << boxes[a].kind << " leaves the slide";
        for (std::size_t b = a + 1; b < boxes.size(); ++b)
          if (boxes[a].slide == boxes[b].slide) {
            EXPECT_FALSE(boxes_overlap(box_of(boxes[a]), box_of(boxes[b]))) << step << ": " << boxes[a].kind << " over " << boxes[b].kind;
          }
      }
      const std::vector<SlideText> texts = slide_texts(lesson, i, type);
      for (std::size_t a = 0; a < texts.size(); ++a) {
        const SlideText& t = texts[a];
        const std::string where = fmt::format("{} slide {} {}: '{}'", step, t.slide + 1, t.figure.empty() ? "text" : t.figure, t.text);
        ++checked;
        EXPECT_TRUE(box_inside(t.box, page)) << where << " leaves the slide";
        EXPECT_TRUE(box_inside(t.box, t.clip)) << where << " is clipped";
        if (t.figure.empty())
          for (const SlideFigureBox& b : boxes)
            if (b.slide == t.slide) {
              EXPECT_FALSE(boxes_overlap(t.box, box_of(b))) << where << " over the " << b.kind;
            }
        if (t.label) continue;
        for (std::size_t b = 0; b < texts.size(); ++b)
          if (b != a && texts[b].slide == t.slide && (texts[b].label || b > a)) {
            EXPECT_FALSE(boxes_overlap(t.box, texts[b].box, 1.0)) << where << " over '" << texts[b].text << "'";
          }
      }
    }
  }
  EXPECT_GE(checked, 1000);
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
