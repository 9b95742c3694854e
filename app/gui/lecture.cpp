// lecture.cpp: what a teacher does while a lesson runs, the same from the card and from the
// presenter view: move a step, jump to one, go on to the next lesson or the quiz, show the claims.
#include <GLFW/glfw3.h>  // key codes only
#include <fmt/format.h>

#include <algorithm>

#include "classroom.h"
#include "platform.h"
#include "swz/error.h"
#include "theme.h"
#include "workbench.h"

namespace swz::gui {

void go_to_step(Workbench& bench, int step) {
  Classroom& c = classroom();
  const Lesson* lesson = c.lesson();
  if (!lesson || step < 0 || step >= static_cast<int>(lesson->steps.size())) return;
  c.step = step;
  c.show_claims = false;  // each step's claims stay hidden until asked for again
  apply_lesson_step(bench);
}

int next_lesson_index() {
  const Classroom& c = classroom();
  if (c.open_lesson < 0) return -1;
  for (int i = c.open_lesson + 1; i < static_cast<int>(c.lessons.size()); ++i)
    if (c.lessons[static_cast<std::size_t>(i)].lesson) return i;
  return -1;
}

bool open_next_lesson(Workbench& bench) {
  const int next = next_lesson_index();
  if (next < 0) return false;
  const LessonEntry& e = classroom().lessons[static_cast<std::size_t>(next)];
  std::string error;
  // By path: a lesson file given on the command line may share its stem with a shipped one.
  if (!open_lesson(bench, e.path.string(), 1, error)) {
    bench.show_error(error);
    return false;
  }
  return true;
}

void take_quiz(Workbench& bench) {
  const Lesson* l = classroom().lesson();
  if (!l || l->quiz.empty()) {
    start_quiz(bench, std::nullopt);
    return;
  }
  std::string error;
  if (!open_quiz_set(bench, l->quiz, error)) bench.show_error(error);
}

bool students_watching() {
  const Classroom& c = classroom();
  return c.presentation || c.presenter_window || (c.presenter && c.presenter_in_main);
}

bool claims_hidden() {
  const Classroom& c = classroom();
  if (quiz_question_open() && c.question) {  // the card's claims may list the value the question asks
    const auto panels = quiz_revealing_panels(*c.question);
    if (std::find(panels.begin(), panels.end(), "lesson") != panels.end()) return true;
  }
  return students_watching() && !c.show_claims;
}

bool quiz_question_open() {
  const Classroom& c = classroom();
  return c.quiz_open && c.question && !c.answer && !(c.quiz_set && c.set_index >= static_cast<int>(c.quiz_set->questions.size()));
}

namespace {

// The last exercise check, kept until the step, the state or the register step changes.
struct LectureExerciseCache {
  const LessonStep* step = nullptr;
  std::optional<ProblemSpec> state;
  int register_step = 0;
  ExerciseCheck check;
  std::string error;
};

LectureExerciseCache& lecture_exercise_cache() {
  static LectureExerciseCache cache;
  return cache;
}

}  // namespace

const ExerciseCheck* exercise_check(const Workbench& bench, std::string* error) {
  Classroom& c = classroom();
  const LessonStep* step = c.current_step();
  if (!step || !step->exercise) return nullptr;
  LectureExerciseCache& cache = lecture_exercise_cache();
  const Session& session = bench.session();
  if (cache.step != step || !cache.state || *cache.state != session.problem || cache.register_step != session.trace.step) {
    cache.step = step;
    cache.state = session.problem;
    cache.register_step = session.trace.step;
    cache.error.clear();
    try {
      cache.check = check_exercise(*step, session.problem, session.trace.step);
    } catch (const Error& e) {
      cache.check = {};
      cache.error = e.what();
    }
  }
  if (cache.check.solved && c.exercise_outcome == ExerciseOutcome::Open) c.exercise_outcome = ExerciseOutcome::Solved;
  if (error) *error = cache.error;
  return &cache.check;
}

const char* answers_locked(const Workbench& bench) {
  if (!exercise_check(bench) || classroom().exercise_outcome != ExerciseOutcome::Open) return nullptr;
  return exercise_lock_words().reason;
}

void answers_locked_tooltip(const char* why) {
  if (why && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", why);
}

void reveal_exercise_answer() {
  Classroom& c = classroom();
  const LessonStep* step = c.current_step();
  if (!step || !step->exercise) return;
  const ExerciseSearch found = solve_exercise(*step);
  c.exercise_answer = found.state ? std::optional<std::string>(exercise_solution_text(*step->exercise, found)) : std::nullopt;
  c.exercise_outcome = ExerciseOutcome::Answered;
}

void lecture_keys(Workbench& bench) {
  Classroom& c = classroom();
  for (const int key : key_presses()) {
    if (key == GLFW_KEY_F11) c.fullscreen = !c.fullscreen;
    if (!c.lesson()) continue;
    if (key == GLFW_KEY_PAGE_DOWN) go_to_step(bench, c.step + 1);
    if (key == GLFW_KEY_PAGE_UP) go_to_step(bench, c.step - 1);
  }
}

bool step_combo(Workbench& bench, const char* id, float width, const std::string& probe) {
  Classroom& c = classroom();
  const Lesson* lesson = c.lesson();
  if (!lesson) return false;
  const int steps = static_cast<int>(lesson->steps.size());
  const std::string preview = fmt::format("Step {} of {}", c.step + 1, steps);
  ImGui::SetNextItemWidth(width);
  bool jumped = false;
  if (ImGui::BeginCombo(id, preview.c_str(), ImGuiComboFlags_HeightLarge)) {
    for (int k = 0; k < steps; ++k) {
      const std::string label = fmt::format("{}. {}", k + 1, pretty_xor(lesson->steps[static_cast<std::size_t>(k)].title));
      if (ImGui::Selectable(label.c_str(), k == c.step) && k != c.step) {
        go_to_step(bench, k);
        jumped = true;
      }
      bench.add_probe(fmt::format("{}.{}", probe, k + 1), ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
      if (k == c.step) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return jumped;
}

std::size_t ClaimList::size(const LessonStep& step, const ProblemSpec* live, int register_step) {
  const bool same_state = live ? checked_live && *checked_live == *live && checked_register_step == register_step : !checked_live;
  if (checked != &step || !same_state) {
    checked = &step;
    checked_live = live ? std::optional<ProblemSpec>(*live) : std::nullopt;
    checked_register_step = register_step;
    checks.clear();
    error.clear();
    try {
      checks = live ? check_claims_on(step, *live, register_step) : check_claims(step);
    } catch (const Error& e) {
      error = e.what();
    }
  }
  return checks.size() + (error.empty() ? 0 : 1);
}

void ClaimList::draw(const LessonStep& step, const ProblemSpec* live, int register_step) {
  if (size(step, live, register_step) == 0) return;
  ImGui::Spacing();
  if (live) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.35f, 0.0f, 1));
    ImGui::TextWrapped("The workbench has changed since this step; on what it shows now:");
    ImGui::PopStyleColor();
  } else {
    ImGui::TextDisabled("The workbench says:");
  }
  for (const ClaimCheck& k : checks) {
    const std::string value = k.actual.is_string() ? k.actual.get<std::string>() : k.actual.dump();
    if (k.holds) {
      ImGui::TextColored(verdict_color_vec(Verdict::Ideal), "%s", sym("\xe2\x9c\x93", "ok"));
      ImGui::SameLine();
      ImGui::TextWrapped("%s = %s", k.claim.quantity.c_str(), pretty_xor(value).c_str());
    } else {
      ImGui::TextColored(verdict_color_vec(Verdict::Severe), "%s", sym("\xe2\x9c\x97", "X"));
      ImGui::SameLine();
      ImGui::TextWrapped("%s = %s, but the lesson says %s", k.claim.quantity.c_str(), pretty_xor(value).c_str(),
                         k.claim.expected.dump().c_str());
    }
  }
  if (!error.empty()) ImGui::TextColored(verdict_color_vec(Verdict::Severe), "%s", error.c_str());
}

}  // namespace swz::gui
