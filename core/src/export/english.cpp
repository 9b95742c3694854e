// english.cpp: plurals and articles for generated sentences (english.h).
#include "swz/export/english.h"

#include <cctype>

namespace swz {

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_upper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }

// Whether the number written by `digits` (no sign, no leading zeros) is spoken starting with a
// vowel: eight..., eighty..., eight hundred..., eleven, eighteen, eleven thousand, eighteen million.
bool number_starts_with_vowel(std::string_view digits) {
  if (digits.empty()) return false;
  if (digits[0] == '8') return true;
  // The leading group of digits (thousands, millions) is spoken as its own number: 11 and 18 in
  // a group of two are "eleven" and "eighteen".
  const std::size_t group = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
  return group == 2 && (digits.substr(0, 2) == "11" || digits.substr(0, 2) == "18");
}

}  // namespace

std::string plural(std::int64_t n, std::string_view singular, std::string_view plural_form) {
  if (n == 1 || n == -1) return std::string(singular);
  return plural_form.empty() ? std::string(singular) + "s" : std::string(plural_form);
}

std::string counted(std::int64_t n, std::string_view singular, std::string_view plural_form) {
  return std::to_string(n) + " " + plural(n, singular, plural_form);
}

std::string_view indefinite_article(std::string_view phrase) {
  if (phrase.empty()) return "a";
  if (is_digit(phrase[0])) {
    std::size_t end = 0;
    while (end < phrase.size() && is_digit(phrase[end])) ++end;
    return number_starts_with_vowel(phrase.substr(0, end)) ? "an" : "a";
  }
  // An initialism (two capitals, or a capital and a digit) is read letter by letter: the letters
  // whose names start with a vowel sound.
  if (phrase.size() >= 2 && is_upper(phrase[0]) && (is_upper(phrase[1]) || is_digit(phrase[1])))
    return std::string_view("AEFHILMNORSX").find(phrase[0]) != std::string_view::npos ? "an" : "a";
  const char first = static_cast<char>(std::tolower(static_cast<unsigned char>(phrase[0])));
  for (const std::string_view exception : {"uni", "use", "usu", "one"})
    if (phrase.size() >= exception.size()) {
      bool same = true;
      for (std::size_t i = 0; i < exception.size(); ++i)
        same = same && std::tolower(static_cast<unsigned char>(phrase[i])) == exception[i];
      if (same) return "a";
    }
  return std::string_view("aeiou").find(first) != std::string_view::npos ? "an" : "a";
}

std::string with_article(std::string_view phrase) { return std::string(indefinite_article(phrase)) + " " + std::string(phrase); }

}  // namespace swz
