// The one word wrap (text_wrap.h) that slides' text and figures' captions share: by characters
// (a long word kept whole) and by a typeface's width (a long word cut).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "swz/export/font.h"
#include "swz/export/text_wrap.h"

namespace swz {
namespace {

using Lines = std::vector<std::string>;

TEST(TextWrap, ByCharactersFillsEachLineAndKeepsALongWordWhole) {
  EXPECT_EQ(wrap_text("the quick brown fox", 9, count_characters, LongWords::Keep), (Lines{"the quick", "brown fox"}));
  EXPECT_EQ(wrap_text("the quick brown fox", 10, count_characters, LongWords::Keep), (Lines{"the quick", "brown fox"}));
  EXPECT_EQ(wrap_text("a swizzle<3,4,3>(row-major) b", 8, count_characters, LongWords::Keep),
            (Lines{"a", "swizzle<3,4,3>(row-major)", "b"}));
  // Several spaces are one; no text is no lines.
  EXPECT_EQ(wrap_text("  one   two  ", 20, count_characters, LongWords::Keep), (Lines{"one two"}));
  EXPECT_TRUE(wrap_text("", 20, count_characters, LongWords::Keep).empty());
  // Characters, not bytes: "n ⊕ m" is five.
  EXPECT_EQ(count_characters("n \u2295 m"), 5);
  EXPECT_EQ(wrap_text("n \u2295 m n \u2295 m", 5, count_characters, LongWords::Keep), (Lines{"n \u2295 m", "n \u2295 m"}));
}

TEST(TextWrap, CutsALongWordBetweenCharactersNeverInsideOne) {
  EXPECT_EQ(wrap_text("abcdefghijkl", 5, count_characters, LongWords::Cut), (Lines{"abcde", "fghij", "kl"}));
  EXPECT_EQ(wrap_text("xy abcdefg", 4, count_characters, LongWords::Cut), (Lines{"xy", "abcd", "efg"}));
  const Lines cut = wrap_text("\u2295\u2295\u2295\u2295\u2295", 2, count_characters, LongWords::Cut);
  EXPECT_EQ(cut, (Lines{"\u2295\u2295", "\u2295\u2295", "\u2295"}));
  // Narrower than one character: one character a line, still whole.
  EXPECT_EQ(wrap_text("\u2295a", 0.5, count_characters, LongWords::Cut), (Lines{"\u2295", "a"}));
}

// By a typeface's width, as a slide wraps its text: every line within the width, every word kept.
TEST(TextWrap, ByTypefaceWidthEveryLineFits) {
  const Typeface type = Typeface::load();
  const std::string text = "Every lane reads one 16-byte vector; the XOR moves the column by the row so no bank is hit twice "
                           "0123456789012345678901234567890123456789";
  const auto measure = [&](std::string_view s) { return type.width(s, 24); };
  const Lines lines = wrap_text(text, 300, measure, LongWords::Cut);
  ASSERT_GE(lines.size(), 4u);
  std::string joined;
  for (const std::string& line : lines) {
    EXPECT_LE(measure(line), 300) << line;
    joined += line;
  }
  std::string letters;
  for (char c : text)
    if (c != ' ') letters += c;
  std::string drawn;
  for (char c : joined)
    if (c != ' ') drawn += c;
  EXPECT_EQ(drawn, letters);
}

}  // namespace
}  // namespace swz
