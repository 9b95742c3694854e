// text_wrap.cpp: the word wrap of text_wrap.h.
#include "swz/export/text_wrap.h"

namespace swz {

namespace {

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

// The longest head of `word` (at least one character) within `limit`.
std::size_t cut_point(std::string_view word, double limit, const TextMeasure& measure) {
  std::size_t cut = word.size();
  while (cut > 0 && measure(word.substr(0, cut)) > limit) {
    --cut;
    while (cut > 0 && is_continuation_byte(word[cut])) --cut;
  }
  if (cut > 0) return cut;
  cut = 1;  // not even one character fits: take one anyway
  while (cut < word.size() && is_continuation_byte(word[cut])) ++cut;
  return cut;
}

}  // namespace

double count_characters(std::string_view utf8) {
  double count = 0;
  for (const char c : utf8) count += is_continuation_byte(c) ? 0 : 1;
  return count;
}

std::vector<std::string> wrap_text(std::string_view text, double limit, const TextMeasure& measure, LongWords long_words) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = text.find(' ', i);
    if (end == std::string_view::npos) end = text.size();
    std::string_view word = text.substr(i, end - i);
    i = end + 1;
    if (word.empty()) continue;
    const std::string candidate = line.empty() ? std::string(word) : line + " " + std::string(word);
    if (measure(candidate) <= limit) {
      line = candidate;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    line.clear();
    if (long_words == LongWords::Cut)
      while (measure(word) > limit) {
        const std::size_t cut = cut_point(word, limit, measure);
        lines.emplace_back(word.substr(0, cut));
        word.remove_prefix(cut);
      }
    line = std::string(word);
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace swz
