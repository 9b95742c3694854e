// lesson_predict.h: "predict the count", practice the core marks.
//
// A step may ask the learner for a number before they look (the step's "predict" in the lesson
// file, format in assets/lessons/README.md): the wavefronts of an access, the bank of a cell. The
// learner types it; the core measures the quantity on the step's own problem and says whether the
// typed number is that value:
//
//   "predict": {"ask": "How many wavefronts does the column read take?", "quantity": "read.wavefronts"}
//   typed "16"  -> right        typed "8" -> wrong (the core says 16)        typed "lots" -> not a number
//
// Answers are recorded per student beside their quiz answers (quiz_record.h) under the id
// prediction_id(): "LESSON/step-K".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "swz/teach/lesson.h"
#include "swz/teach/quiz_record.h"

namespace swz {

struct PredictionCheck {
  std::optional<std::int64_t> typed;  // the number read from the learner's text; none: it is not one
  std::string problem;                // why the text is not a whole number ("" when it is)
  std::int64_t expected = 0;          // the quantity on the step's problem
  bool correct = false;
};
// The learner's text against the step's prediction (the step must have one). The text is a whole
// number, blanks around it allowed ("16", " 16 "); anything else is not an answer, and says why.
PredictionCheck check_prediction(const LessonStep& step, const std::string& typed);
// The value the core measures for the step's prediction.
std::int64_t prediction_answer(const LessonStep& step);
// What the workbench keeps out of sight while the step's prediction is open (no number checked yet),
// so that no panel shows the answer beside the question:
//   "read.wavefronts" on a step showing the tensor and the trace  ->  access Read: the trace hides the
//   read's verdict, and its step count and bank bars while the read is on show; panels: none
//   "store.conflicts" on a step that also shows the problem panel ->  access Store; panels: {"problem"}
// The quantities of one access (store.*, read.*) veil that access's counts in the trace and the panels
// of the step's view that print counts (problem, algebra, solver); other quantities (the bank of a
// cell, a copy's count) veil nothing: the student reads banks off the tensor to predict.
struct PredictionVeil {
  std::optional<LessonAccess> access;  // whose counts are hidden; none: no access's
  std::vector<std::string> panels;     // panels of the step's view veiled whole
};
PredictionVeil prediction_veil(const LessonStep& step);
// The id its answers are recorded under: "toy-gpu/step-3" (steps from 1).
std::string prediction_id(const Lesson& lesson, std::size_t step_from_0);
// The line a student's record keeps for one checked answer (now, in UTC): the id, the question,
// the text as typed (blanks trimmed) and the verdict.
ExerciseAnswerRecord prediction_record(const Lesson& lesson, std::size_t step_from_0, const std::string& typed,
                                       const PredictionCheck& check);

}  // namespace swz
