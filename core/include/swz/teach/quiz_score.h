// quiz_score.h: the one rule a quiz sitting is scored by, for the Quiz card, its final score,
// the record a student leaves and `swizzle quiz summary`.
//
// The score is the questions answered right out of the questions put to the student: answered
// or skipped. A skip is not a free pass (a set of 9 with 1 right, 2 wrong and 6 skipped scores
// 1 / 9), and a record keeps its skips (quiz_record.h) so a summary of the file says the same.
#pragma once

#include <string>
#include <vector>

#include "swz/teach/quiz_record.h"

namespace swz {

struct QuizScore {
  int asked = 0, correct = 0;  // asked: answered
  int skipped = 0;             // passed without an answer
  int streak = 0, best_streak = 0;
  void record(bool right);
  void record_skip();
  int passed() const { return asked + skipped; }  // what the score counts against
  std::string text() const;                       // "1 / 9"
};

// The score of a record's lines, in order (answers and skips).
QuizScore score_answers(const std::vector<QuizAnswerRecord>& answers);

}  // namespace swz
