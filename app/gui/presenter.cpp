// presenter.cpp: the presenter's view and its second window (presenter.h).
//
// [SECTION] The view
// [SECTION] The second window
#include "presenter.h"

#include <GLFW/glfw3.h>
#include <fmt/format.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <ctime>
#include <memory>

#include "classroom.h"
#include "platform.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

// [SECTION] The view

namespace {

ClaimList& presenter_claims() {
  static ClaimList claims;
  return claims;
}

// "12:05" now, and "23:41" since the first lesson opened (or the last reset).
void clock_line() {
  Classroom& c = classroom();
  const std::time_t now = std::time(nullptr);
  char wall[16] = "";
  if (const std::tm* local = std::localtime(&now)) std::strftime(wall, sizeof wall, "%H:%M", local);
  int seconds = 0;
  if (c.lecture_started)
    seconds = static_cast<int>(
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - *c.lecture_started).count());
  ImGui::Text("%s", wall);
  ImGui::SameLine(0, em() * 1.5f);
  ImGui::TextDisabled("elapsed");
  ImGui::SameLine();
  ImGui::Text("%d:%02d", seconds / 60, seconds % 60);
  ImGui::SameLine();
  if (ImGui::SmallButton("Reset")) c.lecture_started = std::chrono::steady_clock::now();
}

// The lecture's plan (the steps' "minutes"): this step's minutes, and where the clock should be by
// its end, counting the lessons before this one in the Classroom menu's order.
void plan_line(Workbench& bench) {
  const Classroom& c = classroom();
  const Lesson* lesson = c.lesson();
  const LessonStep* step = c.current_step();
  if (!lesson || !step || step->minutes <= 0) return;
  double before = 0;
  std::vector<Lesson> all;
  for (std::size_t i = 0; i < c.lessons.size(); ++i) {
    if (!c.lessons[i].lesson) continue;
    const Lesson& l = *c.lessons[i].lesson;
    all.push_back(l);
    if (static_cast<int>(i) < c.open_lesson) before += planned_minutes_before(l, l.steps.size());
  }
  const double by_end = before + planned_minutes_before(*lesson, static_cast<std::size_t>(c.step) + 1);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::TextDisabled("plan");
  ImGui::SameLine();
  // The total as every face gives it (planned_lecture_minutes, minutes_text): the steps' sum, not rounded to a whole minute.
  ImGui::Text("%s min on this step; %d:%02d by its end, of %s min", minutes_text(step->minutes).c_str(), static_cast<int>(by_end),
              static_cast<int>((by_end - static_cast<int>(by_end)) * 60.0 + 0.5),
              minutes_text(planned_lecture_minutes(all)).c_str());
  bench.add_probe("presenter.plan", p, ImGui::GetItemRectMax());
}

void paragraphs(const std::vector<std::string>& text) {
  for (const std::string& para : text) {
    ImGui::TextWrapped("%s", pretty_xor(para).c_str());
    ImGui::Spacing();
  }
}

// The first lines of a step: its first paragraph, cut at a word near 240 characters.
std::string opening(const LessonStep& step) {
  std::string text = step.paragraphs.empty() ? std::string() : pretty_xor(step.paragraphs.front());
  constexpr std::size_t kLimit = 240;
  if (text.size() > kLimit) {
    const std::size_t cut = text.rfind(' ', kLimit);
    text = text.substr(0, cut == std::string::npos ? kLimit : cut) + " ...";
  }
  return text;
}

void lesson_chooser(Workbench& bench) {
  Classroom& c = classroom();
  if (!c.scanned) scan_lessons(c);
  ImGui::TextWrapped("No lesson is open. Choose one:");
  for (const LessonEntry& e : c.lessons) {
    if (!e.lesson) continue;
    if (ImGui::Selectable(e.lesson->title.c_str())) {
      std::string error;
      if (!open_lesson(bench, e.path.string(), 1, error)) bench.show_error(error);
    }
  }
}

}  // namespace

void draw_presenter_view(Workbench& bench) {
  Classroom& c = classroom();
  const Lesson* lesson = c.lesson();
  const LessonStep* step = c.current_step();
  clock_line();
  plan_line(bench);
  ImGui::Separator();
  if (!lesson || !step) {
    lesson_chooser(bench);
    return;
  }
  const int steps = static_cast<int>(lesson->steps.size());

  // Left: the step list. Right: this step, its notes and claims, then what comes next.
  const float list_w = std::clamp(ImGui::GetContentRegionAvail().x * 0.34f, em() * 10.0f, em() * 28.0f);
  const float nav_h = ImGui::GetFrameHeightWithSpacing() * 1.3f;
  ImGui::BeginChild("steps", ImVec2(list_w, -nav_h), true);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", lesson->title.c_str());
  ImGui::PopTextWrapPos();
  for (int k = 0; k < steps; ++k) {
    const std::string title = pretty_xor(lesson->steps[static_cast<std::size_t>(k)].title);
    const std::string label = fmt::format("{}. {}##step{}", k + 1, title, k);
    if (ImGui::Selectable(label.c_str(), k == c.step) && k != c.step) go_to_step(bench, k);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", title.c_str());  // a long title is cut at the list's edge
  }
  ImGui::EndChild();
  ImGui::SameLine();

  ImGui::BeginChild("step", ImVec2(0, -nav_h), true);
  ImGui::TextDisabled("Step %d of %d", c.step + 1, steps);
  step_title(step->title);
  ImGui::Separator();
  ImGui::TextDisabled("Speaker notes");
  if (step->notes.empty()) ImGui::TextDisabled("(none for this step; the card says:)");
  paragraphs(step->notes.empty() ? step->paragraphs : step->notes);
  presenter_claims().draw(*step);
  if (claims_hidden()) ImGui::TextDisabled("(hidden on the projector's card)");
  if (step->exercise) {  // the teacher sees every hint; the card reveals them one at a time
    ImGui::Spacing();
    ImGui::TextDisabled("Exercise");
    ImGui::TextWrapped("%s", pretty_xor(step->exercise->task).c_str());
    for (std::size_t i = 0; i < step->exercise->hints.size(); ++i)
      ImGui::TextWrapped("Hint %zu: %s", i + 1, pretty_xor(step->exercise->hints[i]).c_str());
  }
  ImGui::Spacing();
  ImGui::Separator();
  if (c.step + 1 < steps) {
    const LessonStep& next = lesson->steps[static_cast<std::size_t>(c.step + 1)];
    ImGui::TextDisabled("Next:");
    ImGui::SameLine();
    ImGui::PushFont(fonts().heading);
    ImGui::TextWrapped("%s", pretty_xor(next.title).c_str());
    ImGui::PopFont();
    ImGui::TextWrapped("%s", opening(next).c_str());
  } else {
    const int after = next_lesson_index();
    ImGui::TextDisabled("The last step.");
    ImGui::TextWrapped("Next lesson: %s", after >= 0 ? c.lessons[static_cast<std::size_t>(after)].lesson->title.c_str()
                                                     : "(none; this is the last)");
  }
  ImGui::EndChild();

  ImGui::BeginDisabled(c.step == 0);
  if (ImGui::Button("< Back")) go_to_step(bench, c.step - 1);
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (c.step + 1 < steps) {
    if (ImGui::Button("Next >")) go_to_step(bench, c.step + 1);
  } else {
    if (next_lesson_index() >= 0) {
      if (ImGui::Button("Next lesson >")) open_next_lesson(bench);
      ImGui::SameLine();
    }
    if (ImGui::Button("Take the quiz")) take_quiz(bench);
  }
  ImGui::SameLine();
  if (claims_hidden()) {
    if (ImGui::Button("Show claims on the card")) c.show_claims = true;
  } else if (students_watching()) {
    if (ImGui::Button("Hide claims on the card")) c.show_claims = false;
  }
  if (same_line_if_fits(ImGui::CalcTextSize("Page Up / Page Down").x)) ImGui::TextDisabled("Page Up / Page Down");
}

// [SECTION] The second window

namespace {

std::unique_ptr<Platform>& presenter_window() {
  static std::unique_ptr<Platform> window;
  return window;
}

}  // namespace

Platform* presenter_platform() { return presenter_window().get(); }

void close_presenter() {
  presenter_window().reset();
  classroom().presenter_window = false;
}

void service_presenter(Platform& main, Workbench& bench, PresenterCapture* capture) {
  Classroom& c = classroom();
  std::unique_ptr<Platform>& window = presenter_window();
  if (!c.presenter) {
    close_presenter();
    c.presenter_in_main = false;
    return;
  }
  if (!window && !c.presenter_in_main) {
    PlatformOptions o;
    glfwGetWindowSize(main.window(), &o.width, &o.height);
    o.title = "Swizzle Workbench: presenter view";
    o.vsync = false;
    std::string error;
    window = Platform::create_secondary(main, o, error);
    if (!window) {
      c.presenter_in_main = true;
      bench.show_error(error + ": the presenter view floats over the workbench instead");
      return;
    }
  }
  if (!window) return;
  if (window->should_close()) {  // its own close button: the main window stays as it is
    close_presenter();
    c.presenter = false;
    return;
  }
  c.presenter_window = true;
  InjectedInput away;
  away.mouse_pos = ImVec2(-FLT_MAX, -FLT_MAX);  // a captured frame has no hover highlights
  window->begin_frame(bench.ui_scale(), capture ? &away : nullptr);
  if (c.high_contrast)
    apply_high_contrast_theme();
  else
    apply_theme(bench.ui_scale());
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(display);
  if (ImGui::Begin("###presenter", nullptr,
                   ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                       ImGuiWindowFlags_NoBringToFrontOnFocus))
    draw_presenter_view(bench);
  ImGui::End();
  window->render();
  if (capture) {
    window->finish();
    capture->pixels = window->read_pixels(capture->width, capture->height);
  }
  window->present();
  main.activate();
}

}  // namespace swz::gui
