// Lesson notation: '^' is XOR, '^{...}' a power; every lesson and quiz string says which.
#include "swz/teach/math_text.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "swz/teach/quiz.h"

namespace swz {
namespace {

TEST(MathText, PowersAndXorRenderApart) {
  EXPECT_EQ(render_math("2^{d} = 2 wavefronts", MathStyle::Unicode), "2\u1d48 = 2 wavefronts");
  EXPECT_EQ(render_math("2^{1}", MathStyle::Unicode), "2\u00b9");
  EXPECT_EQ(render_math("F2^{9}", MathStyle::Unicode), "F2\u2079");
  EXPECT_EQ(render_math("n ^ 2m", MathStyle::Unicode), "n \u2295 2m");
  EXPECT_EQ(render_math("m0^n1", MathStyle::Unicode), "m0\u2295n1");
  EXPECT_EQ(render_math("2^{M}", MathStyle::Unicode), "2\u1d39");
  // No superscript form: spelled out, never an XOR sign.
  EXPECT_EQ(render_math("2^{Q}", MathStyle::Unicode), "2 to the power (Q)");
  EXPECT_EQ(render_math("2^{d} and n ^ m", MathStyle::Ascii), "2**d and n ^ m");  // '^' is only ever XOR
  EXPECT_EQ(render_math("2^{d-1}", MathStyle::Ascii), "2**(d-1)");
  EXPECT_EQ(render_math("2^{d} < n ^ m", MathStyle::Html), "2<sup>d</sup> &lt; n &oplus; m");
  EXPECT_EQ(render_math("x ^= row", MathStyle::Unicode), "x \u2295= row");
  EXPECT_EQ(render_math("unclosed 2^{d", MathStyle::Ascii), "unclosed 2^{d");
}

TEST(MathText, IndicesInBracesAreSubscripts) {
  EXPECT_EQ(render_math("m_{j} ^ n_{j+1}", MathStyle::Unicode), "m\u2c7c \u2295 n\u2c7c\u208a\u2081");
  EXPECT_EQ(render_math("m_{j} ^ n_{j+1}", MathStyle::Ascii), "m_j ^ n_(j+1)");
  EXPECT_EQ(render_math("e_{i} < 2", MathStyle::Html), "e<sub>i</sub> &lt; 2");
  EXPECT_EQ(render_math("x_{Q}", MathStyle::Unicode), "x_(Q)");         // no subscript Q: kept readable
  EXPECT_EQ(render_math("offset_bases", MathStyle::Unicode), "offset_bases");  // a name, not an index
}

TEST(MathText, AmbiguousPowersAreFound) {
  EXPECT_TRUE(has_ambiguous_power("so 2^1 = 2 wavefronts"));
  EXPECT_TRUE(has_ambiguous_power("2^dim(span(M_Seg))"));
  EXPECT_TRUE(has_ambiguous_power("in F2^9 the largest"));
  EXPECT_TRUE(has_ambiguous_power("2^M consecutive"));
  EXPECT_FALSE(has_ambiguous_power("2^{M} consecutive"));
  EXPECT_FALSE(has_ambiguous_power("m0^n1, m1^n2"));
  EXPECT_FALSE(has_ambiguous_power("(0 ^ 1 = 1, 1 ^ 1 = 0)"));
  EXPECT_FALSE(has_ambiguous_power("column n ^ m"));
}

TEST(MathText, CodeParagraphsKeepTheirLinesAndCaret) {
  EXPECT_TRUE(is_code_paragraph("    int slot = row ^ t;"));
  EXPECT_FALSE(is_code_paragraph("   three spaces are prose"));
  EXPECT_FALSE(is_code_paragraph("int slot;"));
  EXPECT_EQ(code_lines("    for (;;) {\n      x ^= y;\n    }\n    "), (std::vector<std::string>{"for (;;) {", "  x ^= y;", "}"}));
  EXPECT_EQ(code_lines("    a\n  b"), (std::vector<std::string>{"a", "b"}));
}

void collect_strings(const nlohmann::json& j, std::vector<std::string>& out) {
  if (j.is_string()) out.push_back(j.get<std::string>());
  else if (j.is_array() || j.is_object())
    for (const auto& v : j) collect_strings(v, out);
}

TEST(MathText, NoLessonWritesARawSubscript) {
  // "m_j" would show its underscore on the card; lessons write m_{j}.
  static const std::regex raw(R"((^|[^A-Za-z0-9_])[a-zA-Z]_[a-z0-9(])");
  for (const auto& e : std::filesystem::directory_iterator(SWZ_LESSON_ASSETS_DIR)) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    std::vector<std::string> all;
    collect_strings(nlohmann::json::parse(in), all);
    for (const std::string& s : all)
      if (!is_code_paragraph(s)) EXPECT_FALSE(std::regex_search(s, raw)) << e.path().filename() << ": " << s;
  }
}

TEST(MathText, EveryLessonStringSaysPowerOrXor) {
  int files = 0, strings = 0, powers = 0;
  for (const auto& e : std::filesystem::directory_iterator(SWZ_LESSON_ASSETS_DIR)) {
    if (e.path().extension() != ".json") continue;
    ++files;
    std::ifstream in(e.path());
    std::vector<std::string> all;
    collect_strings(nlohmann::json::parse(in), all);
    for (const std::string& s : all) {
      ++strings;
      EXPECT_FALSE(has_ambiguous_power(s)) << e.path().filename() << ": " << s;
      if (s.find("^{") != std::string::npos) ++powers;
    }
  }
  EXPECT_GE(files, 4);
  EXPECT_GT(strings, 100);
  EXPECT_GE(powers, 4);  // the lessons do write powers, and now say so
}

TEST(MathText, QuizExplanationsSayPowerOrXor) {
  int conflicted = 0;
  for (std::uint64_t seed = 2; seed < 202; ++seed) {
    const QuizQuestion q = make_quiz_question(seed);
    EXPECT_FALSE(has_ambiguous_power(q.explanation)) << q.explanation;
    if (q.explanation.find("^{") != std::string::npos) {
      ++conflicted;
      const std::string shown = render_math(q.explanation, MathStyle::Unicode);
      EXPECT_EQ(shown.find("so 2\u2295"), std::string::npos) << shown;  // the power is not an XOR
      bool superscript = false;
      for (const char* digit : {"\u00b9", "\u00b2", "\u00b3", "\u2074", "\u2075"})
        superscript = superscript || shown.find(std::string("so 2") + digit) != std::string::npos;
      EXPECT_TRUE(superscript) << shown;
    }
  }
  EXPECT_GT(conflicted, 0);
}

}  // namespace
}  // namespace swz

#include "swz/teach/lesson.h"
#include "swz/teach/lesson_pages.h"
#include "swz/teach/lesson_paths.h"

namespace swz {
namespace {

TEST(LessonPages, OnePagePerStepWithItsFigureForEveryShippedLesson) {
  int lessons = 0;
  for (const auto& file : lesson_files(SWZ_LESSON_ASSETS_DIR)) {
    const Lesson l = load_lesson_file(file);
    const std::vector<LessonPage> pages = lesson_pages(l);
    ASSERT_EQ(pages.size(), l.steps.size() + 1) << l.name;
    for (std::size_t i = 0; i < l.steps.size(); ++i) {
      EXPECT_NE(pages[i].contents.find("<svg"), std::string::npos) << l.name << " step " << i + 1;
      EXPECT_NE(pages[i].contents.find(fmt::format("step {} of {}", i + 1, l.steps.size())), std::string::npos);
      EXPECT_EQ(pages[i].contents.find("<?xml"), std::string::npos);
      EXPECT_EQ(pages[i].contents.find("class=\"off\""), std::string::npos) << "a claim is off in " << l.name;
    }
    EXPECT_EQ(pages.back().file, "index.html");
    ++lessons;
  }
  EXPECT_GE(lessons, 4);
}

// A code paragraph is a <pre> block with its caret as written; prose around it renders XOR as before.
TEST(LessonPages, CodeParagraphsArePreformattedAndKeepTheCaret) {
  const Lesson l = load_lesson_file(std::filesystem::path(SWZ_LESSON_ASSETS_DIR) / "toy-gpu.json");
  const std::vector<LessonPage> pages = lesson_pages(l);
  int code_pages = 0;
  for (std::size_t i = 0; i < l.steps.size(); ++i) {
    const std::string& html = pages[i].contents;
    const auto pre = html.find("<pre class=\"code\"><code>");
    if (pre == std::string::npos) continue;
    ++code_pages;
    const std::string block = html.substr(pre, html.find("</code></pre>", pre) - pre);
    EXPECT_NE(block.find("row ^ t"), std::string::npos) << block;
    EXPECT_EQ(block.find("&oplus;"), std::string::npos) << block;
    EXPECT_NE(block.find("\n  "), std::string::npos) << "indentation kept: " << block;
  }
  EXPECT_GE(code_pages, 3);
}

TEST(LessonPaths, InstalledLayoutBesideBinIsFoundFirst) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(::testing::TempDir()) / "swz-install-layout";
  fs::remove_all(root);
  fs::create_directories(root / "bin");
  fs::create_directories(root / "share" / "swizzle-workbench" / "lessons");
  ::unsetenv("SWZ_LESSONS_DIR");
  const LessonDirSearch s = find_lessons_dir(root / "bin" / "swizzle", "/");
  ASSERT_TRUE(s.found.has_value());
  EXPECT_EQ(*s.found, root / "share" / "swizzle-workbench" / "lessons");
  ::setenv("SWZ_LESSONS_DIR", (root / "missing").c_str(), 1);
  const LessonDirSearch missing = find_lessons_dir(root / "bin" / "swizzle", "/");
  EXPECT_FALSE(missing.found.has_value());
  EXPECT_NE(missing.message().find((root / "missing").string()), std::string::npos);
  EXPECT_NE(missing.message().find("SWZ_LESSONS_DIR"), std::string::npos);
  ::unsetenv("SWZ_LESSONS_DIR");
  // A program built outside the source tree still finds the source tree's lessons.
  const LessonDirSearch elsewhere = find_lessons_dir("/nonexistent/build/app/swizzle", "/");
  ASSERT_TRUE(elsewhere.found.has_value());
  EXPECT_TRUE(fs::exists(*elsewhere.found / "toy-gpu.json"));
  fs::remove_all(root);
}

}  // namespace
}  // namespace swz
