#include "open_link.h"

#include <fmt/format.h>
#include <imgui.h>

#include "classroom.h"
#include "swz/error.h"
#include "workbench.h"

namespace swz::gui {

namespace {

std::string& link_base_storage() {
  static std::string base;
  return base;
}

}  // namespace

void set_link_base(std::string base) { link_base_storage() = std::move(base); }
const std::string& link_base() { return link_base_storage(); }

WorkbenchLink current_link(const Workbench& bench) {
  const Classroom& c = classroom();
  WorkbenchLink link;
  const LessonStep* step = c.current_step();
  if (const Lesson* lesson = c.lesson(); lesson && step) {
    link.lesson = lesson->name;
    link.step = c.step + 1;
  }
  // The step brings its own problem; a link names the problem only when it differs (the learner changed it).
  if (!step || bench.session().problem != state_for_step(*step)) link.problem = bench.session().problem;
  if (c.quiz_open && c.quiz_set) link.quiz_set = c.quiz_set->name;
  return link;
}

std::string missing_link_targets(const WorkbenchLink& link) {
  std::string why;
  if (!link.lesson.empty() && !check_lesson(link.lesson, link.step, why)) return fmt::format("link: lesson: {}", why);
  if (!link.quiz_set.empty() && !load_quiz_set(link.quiz_set, why)) return fmt::format("link: quiz: {}", why);
  return "";
}

bool apply_link(Workbench& bench, const std::string& url, std::string& error) {
  const auto refuse = [&](std::string why) {
    error = std::move(why);
    bench.show_error(fmt::format("Cannot open the link: {}", error));
    return false;
  };
  WorkbenchLink link;
  try {
    link = parse_link(url);
  } catch (const Error& e) {
    return refuse(e.what());
  }
  // Everything is checked before anything changes.
  if (std::string missing = missing_link_targets(link); !missing.empty()) return refuse(std::move(missing));
  std::string why;
  std::optional<QuizSet> set;
  if (!link.quiz_set.empty() && !(set = load_quiz_set(link.quiz_set, why))) return refuse(fmt::format("link: quiz: {}", why));

  Classroom& c = classroom();
  if (!link.lesson.empty()) {
    if (!open_lesson(bench, link.lesson, link.step, why)) return refuse(fmt::format("link: lesson: {}", why));
  } else if (c.open_lesson >= 0) {
    close_lesson(bench);
  }
  if (link.problem)  // after the lesson's step, whose access and register step it keeps
    bench.post({"Open link", [problem = *link.problem, own_trace = link.lesson.empty()](Session& s) {
                  s.problem = problem;
                  if (own_trace) s.trace = TraceState{};
                }});
  if (set)
    start_quiz(bench, std::move(set));
  else
    c.quiz_open = false;
  bench.show_status("Opened the link");
  error.clear();
  return true;
}

std::string copy_link(Workbench& bench) {
  const std::string url = make_link(current_link(bench), link_base());
  ImGui::SetClipboardText(url.c_str());
  bench.show_status(fmt::format("Copied the link: {}", url));
  return url;
}

}  // namespace swz::gui
