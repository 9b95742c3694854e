// english.h: the few rules of English the program's generated sentences need, in one place.
//
//   counted(1, "wavefront")        "1 wavefront"         counted(2, "wavefront")   "2 wavefronts"
//   counted(3, "matrix", "matrices")  "3 matrices"       plural(1, "bank")         "bank"
//   with_article("8-way conflict") "an 8-way conflict"   with_article("11-way")    "an 11-way"
//   with_article("16-way")         "a 16-way"            with_article("LDS.128")   "an LDS.128"
//
// a/an follows the sound: numbers as spoken (8, 11, 18, 80-89, 800-899, 8000, 11000, 18000 ...
// start with a vowel), initialisms as spelled (an LDS, an STS, an F2 ..., a TMA), words by
// their first letter (a unit, a use, a one-way street are the exceptions kept).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace swz {

// `singular` when n is 1 (or -1), else `plural_form` (empty: singular + "s").
std::string plural(std::int64_t n, std::string_view singular, std::string_view plural_form = {});
// "n noun(s)".
std::string counted(std::int64_t n, std::string_view singular, std::string_view plural_form = {});
// "a" or "an" for the phrase that follows it.
std::string_view indefinite_article(std::string_view phrase);
// "a phrase" or "an phrase".
std::string with_article(std::string_view phrase);

}  // namespace swz
