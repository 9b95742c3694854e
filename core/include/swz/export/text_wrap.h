// text_wrap.h: greedy word wrap, one algorithm for every place text is wrapped.
//
// The caller says how wide a string is (`measure`): characters for an SVG caption whose
// glyphs are estimated, the typeface's advance width for a slide's lines. Words are runs
// between spaces (several spaces count as one); each line takes words while the line
// stays within `limit`. A word wider than the limit on its own either stays whole on a
// line of its own (LongWords::Keep: nothing is lost, the line is wider) or is cut between
// characters (LongWords::Cut: every line fits; UTF-8 sequences are never split).
//
//   "the quick brown fox", limit 9 characters   ->  "the quick" / "brown fox"
//   "abcdefghijkl",        limit 5, Cut         ->  "abcde" / "fghij" / "kl"
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace swz {

enum class LongWords { Keep, Cut };

// The width of a piece of text, in the caller's units.
using TextMeasure = std::function<double(std::string_view)>;

// Lines of `text`, each at most `limit` wide by `measure` (but see LongWords). No text: no lines.
std::vector<std::string> wrap_text(std::string_view text, double limit, const TextMeasure& measure, LongWords long_words);

// The number of characters (code points) in UTF-8 text: the measure of a fixed-width estimate.
double count_characters(std::string_view utf8);

}  // namespace swz
