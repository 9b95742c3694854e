// quiz.h: "how many wavefronts?" questions on random swizzles, with the answer
// and the subspace intersection that explains it.
//
// A question is a toggle-grid preset, random masks and one of its two
// accesses. The answer comes from the simulator; the explanation from the
// lemma (lemma.h): the worst instruction's wavefronts per phase are
// 2^dim(span(M_Seg) ∩ span(Thr)), and the intersection's basis names the
// directions along which two lanes of one phase land in one bank.
//
// Questions are drawn so the answers vary: the generator first picks a target
// conflict degree, then draws masks until one produces it (or gives up and
// keeps the last draw). The same seed gives the same question.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "swz/teach/lesson.h"

namespace swz {

struct QuizQuestion {
  std::string preset;
  std::vector<std::uint32_t> masks;
  LessonAccess access = LessonAccess::Read;
  std::vector<int> choices;  // candidate wavefront counts, ascending; the answer is one of them
  // The reveal.
  int wavefronts = 0;        // simulated, worst instruction
  int ideal_wavefronts = 0;
  std::string verdict;       // "2 wavefronts, 2-way conflict"
  bool lemma_applies = false;
  int intersection_dim = 0;
  std::vector<std::string> segment_basis, thread_basis, intersection_basis;  // "m0^n1"
  std::string explanation;   // two or three sentences in words
};

// Presets the quiz draws from (toggle-grid presets whose read can conflict).
const std::vector<std::string>& quiz_presets();

// A question on `preset` (one of quiz_presets()) from `seed`; throws swz::Error for other presets.
QuizQuestion make_quiz_question(std::uint64_t seed, const std::string& preset);
// A question on a preset drawn from quiz_presets().
QuizQuestion make_quiz_question(std::uint64_t seed);

// The problem the question is about (to show it on the workbench after the reveal).
Problem problem_for_question(const QuizQuestion& q);

struct QuizScore {
  int asked = 0, correct = 0;
  int streak = 0, best_streak = 0;
  void record(bool right);
};

}  // namespace swz
