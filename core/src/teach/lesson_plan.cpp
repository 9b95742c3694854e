// lesson_plan.cpp: the lecture's planned minutes, summed from the steps (lesson.h).
#include <fmt/format.h>

#include <cmath>

#include "swz/teach/lesson.h"

namespace swz {

double planned_lecture_minutes(const std::vector<Lesson>& lessons) {
  double total = 0;
  for (const Lesson& l : lessons) total += planned_minutes_before(l, l.steps.size());
  return total;
}

std::string minutes_text(double minutes) {
  const double tenths = std::round(minutes * 10.0);
  return std::fmod(tenths, 10.0) == 0.0 ? fmt::format("{:.0f}", tenths / 10.0) : fmt::format("{:.1f}", tenths / 10.0);
}

}  // namespace swz
