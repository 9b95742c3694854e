// quiz_internal.h: what the quiz's source files share (not part of the public header).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "swz/teach/quiz.h"

namespace swz::quiz_detail {

// SplitMix64: a tiny generator whose sequence is the same on every platform (std distributions are not).
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(static_cast<std::uint32_t>(i))]);
  }
};

// FNV-1a of a string: a stable hash, to vary where a right answer sits without a generator.
std::uint64_t stable_hash(const std::string& text);

// Numbers as choices, ascending, with the index of `right`.
void numeric_choices(QuizQuestion& q, std::vector<std::uint64_t> values, std::uint64_t right);

QuizQuestion build_swizzle(const QuizParams& p);
QuizQuestion build_tma(const QuizParams& p);
QuizParams draw_swizzle(Random& rng);
QuizParams draw_tma(Random& rng);

}  // namespace swz::quiz_detail
