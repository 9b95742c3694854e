// Practice that counts: the lesson card's "predict the count", checked by the core and recorded in
// the student's sitting record beside their quiz answers (quiz_record.h).
#include <fmt/format.h>

#include "classroom.h"
#include "swz/error.h"
#include "workbench.h"

namespace swz::gui {

PredictionCheck answer_prediction(Workbench& bench, const std::string& typed) {
  Classroom& c = classroom();
  const Lesson* lesson = c.lesson();
  const LessonStep* step = c.current_step();
  if (!lesson || !step || !step->predict) throw Error("answer_prediction: the step on show asks for no prediction");
  const PredictionCheck check = check_prediction(*step, typed);
  if (check.typed) c.prediction_checked_at = {c.open_lesson, c.step};  // the card shows the count now: unveil it
  if (!check.typed || c.student.empty()) return check;
  try {
    sitting_record(c).exercises.push_back(prediction_record(*lesson, static_cast<std::size_t>(c.step), typed, check));
    save_quiz_record(c.record_path, *c.record);
    c.record_error.clear();
  } catch (const Error& e) {
    c.record_error = e.what();
    bench.show_error(fmt::format("Your answer was not recorded: {}", e.what()));
  }
  return check;
}

}  // namespace swz::gui
