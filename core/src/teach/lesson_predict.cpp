#include "swz/teach/lesson_predict.h"

#include <fmt/format.h>

#include <charconv>

#include "swz/error.h"

namespace swz {

namespace {

std::string trimmed(const std::string& typed) {
  const std::size_t first = typed.find_first_not_of(" \t"), last = typed.find_last_not_of(" \t");
  return first == std::string::npos ? "" : typed.substr(first, last - first + 1);
}

// A learner's text in a message: at most 24 characters of it.
std::string quoted(const std::string& text) { return fmt::format("'{}'", text.size() > 24 ? text.substr(0, 24) + "..." : text); }

}  // namespace

std::int64_t prediction_answer(const LessonStep& step) {
  if (!step.predict) fail("step '{}' asks for no prediction", step.title);
  const Problem p = problem_for_step(step);
  const nlohmann::json value = measure(step.predict->quantity, p, analyze(p), step.step);
  if (!value.is_number_integer()) fail("step '{}': '{}' is not a whole number here", step.title, step.predict->quantity);
  return value.get<std::int64_t>();
}

PredictionCheck check_prediction(const LessonStep& step, const std::string& typed) {
  PredictionCheck out;
  out.expected = prediction_answer(step);
  const std::string text = trimmed(typed);
  if (text.empty()) {
    out.problem = "type a whole number";
    return out;
  }
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    out.problem = quoted(text) + " is too large a number";
    return out;
  }
  if (ec != std::errc() || end != text.data() + text.size()) {
    out.problem = quoted(text) + " is not a whole number";
    return out;
  }
  out.typed = value;
  out.correct = value == out.expected;
  return out;
}

PredictionVeil prediction_veil(const LessonStep& step) {
  PredictionVeil veil;
  if (!step.predict) return veil;
  const std::string& q = step.predict->quantity;
  for (const auto& [prefix, access] : {std::pair{"store.", LessonAccess::Store}, std::pair{"read.", LessonAccess::Read}}) {
    if (q.rfind(prefix, 0) != 0 || q.find(".offset_of(") != std::string::npos) continue;
    veil.access = access;
    for (const char* panel : {"problem", "algebra", "solver"})  // each prints both accesses' wavefronts
      if (step.view.shows(panel)) veil.panels.emplace_back(panel);
  }
  return veil;
}

std::string prediction_id(const Lesson& lesson, std::size_t step_from_0) {
  return fmt::format("{}/step-{}", lesson.name, step_from_0 + 1);
}

ExerciseAnswerRecord prediction_record(const Lesson& lesson, std::size_t step, const std::string& typed,
                                       const PredictionCheck& check) {
  const LessonStep& s = lesson.steps.at(step);
  return {prediction_id(lesson, step), s.predict ? s.predict->ask : "", trimmed(typed), check.correct, utc_timestamp()};
}

}  // namespace swz
