// Links: every state round-trips through its link, and each malformed part is named.
#include "swz/io/link.h"

#include <gtest/gtest.h>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/problem/problem.h"

namespace swz {
namespace {

std::string link_error_of(std::string_view url) {
  try {
    parse_link(url);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Link, Base64UrlRoundTripsEveryLengthAndByte) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  for (std::size_t n = 0; n <= bytes.size(); ++n) {
    const std::string part = bytes.substr(0, n);
    const std::string text = base64url_encode(part);
    EXPECT_EQ(text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"), std::string::npos);
    EXPECT_EQ(base64url_decode(text), part) << n;
  }
  EXPECT_EQ(base64url_encode("any carnal pleas"), "YW55IGNhcm5hbCBwbGVhcw");  // RFC 4648's example, unpadded
}

TEST(Link, PresetWithMasksIsReadable) {
  WorkbenchLink link;
  link.problem = ProblemSpec{};
  link.problem->masks = {2, 4, 8, 16};
  EXPECT_EQ(make_link(link), "#v=1&preset=transpose16x32&masks=2,4,8,16");
  EXPECT_EQ(make_link(link, "https://example.org/workbench/"), "https://example.org/workbench/#v=1&preset=transpose16x32&masks=2,4,8,16");
  EXPECT_EQ(parse_link("https://example.org/workbench/#v=1&preset=transpose16x32&masks=2,4,8,16"), link);
}

TEST(Link, EveryPartRoundTrips) {
  std::vector<WorkbenchLink> links;
  links.push_back({});  // nothing but the version
  WorkbenchLink lesson;
  lesson.lesson = "swizzle-by-hand";
  lesson.step = 4;
  links.push_back(lesson);
  WorkbenchLink quiz;
  quiz.quiz_set = "first-class";
  links.push_back(quiz);
  for (const PresetInfo& preset : list_presets()) {
    const Problem p = make_preset(preset.name);
    for (const auto& variant : p.variants) {
      WorkbenchLink l;
      l.problem = ProblemSpec{};
      l.problem->preset = preset.name;
      set_named_layout(*l.problem, variant.name);
      l.lesson = "toy-gpu";
      l.step = 2;
      l.quiz_set = "tma-and-cute";
      links.push_back(l);
    }
  }
  // A problem the preset form cannot say: another tile size, bank count and a writer given inline.
  WorkbenchLink custom;
  custom.problem = ProblemSpec{};
  custom.problem->shape = {64, 64};
  custom.problem->banks = 16;
  custom.problem->masks = {1, 2};
  links.push_back(custom);
  WorkbenchLink inline_writer;
  inline_writer.problem = ProblemSpec{};
  inline_writer.problem->writer = SpecLayout{build_problem(*inline_writer.problem).store.layout, "A.json"};
  links.push_back(inline_writer);
  for (const WorkbenchLink& l : links) {
    const std::string url = make_link(l);
    EXPECT_EQ(url.find_first_of(" \"'<>\\^`{|}"), std::string::npos) << url;
    EXPECT_EQ(parse_link(url), l) << url;
  }
  EXPECT_NE(make_link(custom).find("&problem="), std::string::npos);
  EXPECT_NE(make_link(custom).find("&masks=1,2"), std::string::npos);
}

TEST(Link, PercentEncodedValuesAreRead) {
  const WorkbenchLink l = parse_link("#v=1&preset=transpose16x32&masks=2%2C4%2c8,16&lesson=toy-gpu");
  ASSERT_TRUE(l.problem.has_value());
  EXPECT_EQ(l.problem->masks, (std::vector<std::uint32_t>{2, 4, 8, 16}));
  EXPECT_EQ(l.lesson, "toy-gpu");
  EXPECT_EQ(l.step, 1);
}

TEST(Link, EachWrongPartIsNamed) {
  const std::string problem_of_array = base64url_encode("[1,2]");
  const std::string problem_bad_key = base64url_encode(R"({"preset":"transpose16x32","bankz":16})");
  const std::string problem_with_masks = base64url_encode(R"({"preset":"transpose16x32","masks":[2]})");
  const std::pair<std::string, std::string> cases[] = {
      {"swizzle-workbench:v=1", "link: no '#'"},
      {"#preset=transpose16x32", "link: v: missing"},
      {"#v=2", "link: v: version '2' is not one this workbench reads (it reads version 1)"},
      {"#v=1&colour=red", "link: unknown part 'colour' (known: v, preset, layout, problem, masks, lesson, step, quiz)"},
      {"#v=1&lesson", "link: part 'lesson' has no '='"},
      {"#v=1&v=1", "link: v: given twice"},
      {"#v=1&preset=nope", "link: preset: "},
      {"#v=1&preset=../etc", "link: preset: '../etc' is not a plain name"},
      {"#v=1&preset=transpose16x32&problem=e30", "link: preset and problem: give one of them"},
      {"#v=1&layout=padded", "link: layout: names a layout of a preset"},
      {"#v=1&preset=transpose16x32&layout=nope", "link: preset: "},
      {"#v=1&masks=2,4", "link: masks: give the preset or problem"},
      {"#v=1&preset=transpose16x32&masks=2,x", "link: masks: mask list '2,x': 'x' is not a non-negative integer"},
      {"#v=1&preset=transpose16x32&masks=2%4", "link: masks: '%' must be followed by two hex digits"},
      {"#v=1&problem=e3*", "link: problem: character 3 ('*') is not base64url"},
      {"#v=1&problem=e30xx", "link: problem: 5 characters cannot be base64url"},
      {"#v=1&problem=e30x", "link: problem: not the JSON of a problem"},
      {"#v=1&problem=" + problem_of_array, "link: 'problem' must be one JSON object"},
      {"#v=1&problem=" + problem_bad_key, "link: 'problem."},
      {"#v=1&problem=" + problem_with_masks + "&masks=4", "link: masks: given twice"},
      {"#v=1&step=3", "link: step: a step of which lesson?"},
      {"#v=1&lesson=toy-gpu&step=0", "link: step: '0' is not a step number"},
      {"#v=1&lesson=toy-gpu&step=2x", "link: step: '2x' is not a step number"},
      {"#v=1&lesson=a/b", "link: lesson: 'a/b' is not a plain name"},
      {"#v=1&quiz=", "link: quiz: '' is not a plain name"},
      {"#v=1&quiz=.hidden", "link: quiz: '.hidden' is not a plain name"},
      {"#v=1&lesson=mine.json", "link: lesson: 'mine.json' is not a plain name"},
  };
  for (const auto& [url, expected] : cases) {
    const std::string error = link_error_of(url);
    EXPECT_EQ(error.rfind(expected, 0), 0u) << url << "\n  gave: " << error << "\n  expected it to start: " << expected;
  }
}

}  // namespace
}  // namespace swz
