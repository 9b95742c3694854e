// quiz_score.cpp: the scoring rule of quiz_score.h.
#include "swz/teach/quiz_score.h"

#include <fmt/format.h>

#include <algorithm>

namespace swz {

void QuizScore::record_skip() {
  ++skipped;
  streak = 0;
}

void QuizScore::record(bool right) {
  ++asked;
  if (right) {
    ++correct;
    best_streak = std::max(best_streak, ++streak);
  } else {
    streak = 0;
  }
}

std::string QuizScore::text() const { return fmt::format("{} / {}", correct, passed()); }

QuizScore score_answers(const std::vector<QuizAnswerRecord>& answers) {
  QuizScore score;
  for (const QuizAnswerRecord& a : answers) {
    if (a.skipped)
      score.record_skip();
    else
      score.record(a.correct);
  }
  return score;
}

}  // namespace swz
