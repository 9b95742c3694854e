// Lesson files (parse_lesson), then every claim of every step checked against the
// core (check_claims). Bad input must end in swz::Error, nothing else.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "swz/error.h"
#include "swz/teach/lesson.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Each step builds and analyses its problem twice (load, then claims): a few steps of a few KB
  // keep the executions fast enough for a million of them; the seeds are single steps of the
  // shipped lessons.
  if (size > 4096) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    return 0;  // broken JSON: load_lesson_file reports it before the lesson reader runs
  }
  if (j.is_object() && j.contains("steps") && j["steps"].is_array() && j["steps"].size() > 4) return 0;
  try {
    const swz::Lesson lesson = swz::parse_lesson(j, "fuzz", "fuzz.json");
    for (const swz::LessonStep& step : lesson.steps) (void)swz::check_claims(step);
  } catch (const swz::Error&) {
  }
  return 0;
}
