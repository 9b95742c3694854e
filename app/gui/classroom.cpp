// classroom.cpp: lesson files, the Classroom menu, the floating lesson and quiz
// panels, the highlight overlay and the high-contrast theme.
//
// [SECTION] Lessons on disk
// [SECTION] The quiz
// [SECTION] Applying a step
// [SECTION] Highlights
// [SECTION] Floating panels and the menu
// [SECTION] High-contrast theme
#include "classroom.h"

#include <fmt/format.h>
#include <imgui_internal.h>  // FindWindowByName: where a tiled panel is this frame

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "presenter.h"
#include "swz/error.h"
#include "swz/teach/lesson_paths.h"
#include "theme.h"
#include "workbench.h"

namespace swz::gui {

Classroom& classroom() {
  static Classroom c;
  return c;
}

const Lesson* Classroom::lesson() const {
  if (open_lesson < 0 || open_lesson >= static_cast<int>(lessons.size())) return nullptr;
  const auto& e = lessons[static_cast<std::size_t>(open_lesson)];
  return e.lesson ? &*e.lesson : nullptr;
}

const LessonStep* Classroom::current_step() const {
  const Lesson* l = lesson();
  if (!l || step < 0 || step >= static_cast<int>(l->steps.size())) return nullptr;
  return &l->steps[static_cast<std::size_t>(step)];
}

// [SECTION] Lessons on disk

namespace {
// Where lessons were found, searched once and again on each rescan (the menu asks every frame).
std::optional<LessonDirSearch>& lesson_search() {
  static std::optional<LessonDirSearch> search;
  if (!search) search = find_lessons_dir();
  return search;
}
}  // namespace

std::filesystem::path lessons_dir() {
  const LessonDirSearch& s = *lesson_search();
  return s.found ? *s.found : std::filesystem::path();
}

std::string lessons_not_found() { return lesson_search()->message(); }

void scan_lessons(Classroom& c) {
  lesson_search() = find_lessons_dir();
  std::string open_name;
  if (const Lesson* l = c.lesson()) open_name = l->name;
  c.lessons.clear();
  const std::filesystem::path dir = lessons_dir();
  for (const auto& path : dir.empty() ? std::vector<std::filesystem::path>{} : lesson_files(dir)) {
    LessonEntry e{path, std::nullopt, {}};
    try {
      e.lesson = load_lesson_file(path);
    } catch (const Error& err) {
      e.error = err.what();
    }
    c.lessons.push_back(std::move(e));
  }
  std::stable_sort(c.lessons.begin(), c.lessons.end(), [](const LessonEntry& a, const LessonEntry& b) {
    if (a.lesson.has_value() != b.lesson.has_value()) return a.lesson.has_value();
    if (a.lesson && b.lesson && a.lesson->order != b.lesson->order) return a.lesson->order < b.lesson->order;
    return a.path.filename() < b.path.filename();
  });
  c.scanned = true;
  c.open_lesson = -1;
  for (std::size_t i = 0; i < c.lessons.size(); ++i)
    if (c.lessons[i].lesson && c.lessons[i].lesson->name == open_name) c.open_lesson = static_cast<int>(i);
  if (const Lesson* l = c.lesson()) c.step = std::clamp(c.step, 0, static_cast<int>(l->steps.size()) - 1);
}

namespace {

// The index of lesson NAME in c.lessons (a file outside the directory is added), or -1 with `error`.
int find_lesson(Classroom& c, const std::string& name, int step, std::string& error) {
  if (!c.scanned) scan_lessons(c);
  int index = -1;
  const std::filesystem::path as_path(name);
  if (as_path.extension() == ".json") {  // a teacher's own file, wherever it is
    for (std::size_t i = 0; i < c.lessons.size(); ++i)
      if (c.lessons[i].path == as_path && c.lessons[i].lesson) index = static_cast<int>(i);
    if (index < 0) {
      LessonEntry e{as_path, std::nullopt, {}};
      try {
        e.lesson = load_lesson_file(as_path);
      } catch (const Error& err) {
        error = err.what();
        return -1;
      }
      c.lessons.push_back(std::move(e));
      index = static_cast<int>(c.lessons.size()) - 1;
    }
  } else {
    std::vector<std::string> known;
    for (std::size_t i = 0; i < c.lessons.size(); ++i) {
      const LessonEntry& e = c.lessons[i];
      if (e.path.stem() == name) {
        if (!e.lesson) {
          error = e.error;
          return -1;
        }
        index = static_cast<int>(i);
      }
      if (e.lesson) known.push_back(e.lesson->name);
    }
    if (index < 0) {
      const std::string where = lessons_dir().empty() ? lessons_not_found() : "in " + lessons_dir().string();
      error = fmt::format("no lesson '{}' {} (lessons: {})", name, where,
                          known.empty() ? std::string("none") : fmt::format("{}", fmt::join(known, ", ")));
      return -1;
    }
  }
  const Lesson& lesson = *c.lessons[static_cast<std::size_t>(index)].lesson;
  const int steps = static_cast<int>(lesson.steps.size());
  if (step < 1 || step > steps) {
    error = fmt::format("lesson '{}' has steps 1 to {}, not {}", lesson.name, steps, step);
    return -1;
  }
  return index;
}

}  // namespace

bool check_lesson(const std::string& name, int step, std::string& error) {
  return find_lesson(classroom(), name, step, error) >= 0;
}

bool open_lesson(Workbench& bench, const std::string& name, int step, std::string& error) {
  Classroom& c = classroom();
  const int index = find_lesson(c, name, step, error);
  if (index < 0) return false;
  if (c.open_lesson < 0)
    c.view_before = ViewBeforeLesson{bench.session().view.panels, bench.focus(), bench.session().view.cell_numbers};
  c.open_lesson = index;
  c.step = step - 1;
  c.lesson_error.clear();
  c.show_claims = false;
  if (!c.lecture_started) c.lecture_started = std::chrono::steady_clock::now();
  apply_lesson_step(bench);
  return true;
}

// [SECTION] The quiz

std::optional<QuizSet> load_quiz_set(const std::string& what, std::string& error) {
  try {
    return load_quiz_set_file(resolve_quiz_set(what));
  } catch (const Error& e) {
    error = e.what();
    return std::nullopt;
  }
}

void start_quiz(Workbench& bench, std::optional<QuizSet> set) {
  (void)bench;  // the quiz changes the workbench only when the learner asks to see a question's problem
  Classroom& c = classroom();
  c.quiz_open = true;
  c.score = {};
  c.answer.reset();
  c.set_index = 0;
  c.record.reset();  // a new sitting: a new file at its first answer
  c.record_path.clear();
  c.record_error.clear();
  c.quiz_set = std::move(set);
  if (c.quiz_set)
    c.question = c.quiz_set->questions.front();
  else
    c.question.reset();  // the panel draws a random one
}

QuizRecord& sitting_record(Classroom& c) {
  const std::filesystem::path dir = c.records_dir.empty() ? quiz_records_dir() : c.records_dir;
  if (!c.record || c.record->student != c.student || c.record_path.parent_path() != dir) {  // another student or folder: a new sitting
    c.record_path = new_quiz_record_path(dir, c.student);
    c.record = QuizRecord{c.student, c.quiz_open && c.quiz_set ? c.quiz_set->name : "", utc_timestamp(), {}, {}};
  }
  return *c.record;
}

namespace {
// One line of the sitting's record (an answer or a skip), written at once when a student is named.
void record_quiz_line(Workbench& bench, QuizAnswerRecord line) {
  Classroom& c = classroom();
  if (c.student.empty()) return;
  try {
    QuizRecord& record = sitting_record(c);
    line.question = c.quiz_set ? quiz_set_question_id(c.quiz_set->name, c.set_index) : quiz_seed_question_id(c.question_seed);
    line.time = utc_timestamp();
    record.answers.push_back(std::move(line));
    save_quiz_record(c.record_path, *c.record);
    c.record_error.clear();
  } catch (const Error& e) {
    c.record_error = e.what();
    bench.show_error(fmt::format("Your answer was not recorded: {}", e.what()));
  }
}
}  // namespace

void answer_quiz(Workbench& bench, int choice) {
  Classroom& c = classroom();
  if (!c.question || c.answer) return;
  const QuizQuestion& q = *c.question;
  c.answer = choice;
  c.score.record(choice == q.answer);
  record_quiz_line(bench, {"", q.prompt, choice, q.choices[static_cast<std::size_t>(choice)], choice == q.answer, ""});
}

void skip_quiz_question(Workbench& bench) {
  Classroom& c = classroom();
  if (!c.question || c.answer) return;
  c.score.record_skip();  // the one rule (quiz_score.h): a skip counts against the score, and the record keeps it
  QuizAnswerRecord skip;
  skip.prompt = c.question->prompt;
  skip.skipped = true;
  record_quiz_line(bench, std::move(skip));
}

bool open_quiz_set(Workbench& bench, const std::string& what, std::string& error) {
  std::optional<QuizSet> set = load_quiz_set(what, error);
  if (!set) return false;
  start_quiz(bench, std::move(set));
  return true;
}

// [SECTION] Applying a step

Side side_for(LessonAccess access) { return access == LessonAccess::Store ? Side::Store : Side::Read; }

ProblemSpec state_for_step(const LessonStep& s) {
  ProblemSpec p = s.problem;
  trim_masks(p.masks);
  return p;
}

void apply_lesson_step(Workbench& bench) {
  const Classroom& c = classroom();
  const LessonStep* s = c.current_step();
  if (!s) return;
  const ProblemSpec state = state_for_step(*s);
  const Side side = side_for(s->access);
  const int step = s->step;
  const LessonView view = s->view;
  bench.post({fmt::format("Lesson step: {}", s->title), [state, side, step, view](Session& session) {
                session.problem = state;
                session.trace.side = side;
                session.trace.step = step;
                session.trace.warp = 0;
                session.trace.playing = false;
                // The step's exercise starts again once its state is back (before, the old state may still solve it).
                classroom().exercise_outcome = ExerciseOutcome::Open;
                classroom().exercise_answer.reset();
                for (const std::string& id : lesson_panel_ids())
                  session.view.panels[id] = view.panels.empty() || std::count(view.panels.begin(), view.panels.end(), id) > 0;
                session.view.cell_numbers = view.cells;
                session.view.solver_step = view.solver_step;
              }});
  // After the command: the focused panel is visible by then.
  bench.defer([&bench, focus = view.focus] { bench.set_focus(focus); });
}

void close_lesson(Workbench& bench) {
  Classroom& c = classroom();
  c.open_lesson = -1;
  c.lesson_error.clear();
  if (!c.view_before) return;
  const ViewBeforeLesson before = *c.view_before;
  c.view_before.reset();
  bench.post({"End of lesson", [before](Session& session) {
                session.view.panels = before.panels;
                session.view.cell_numbers = before.cells;
              }});
  bench.defer([&bench, focus = before.focus] { bench.set_focus(focus); });
}

// [SECTION] Highlights

namespace {

std::optional<ImRect> panel_rect(const std::string& id) {
  ImGuiWindow* w = ImGui::FindWindowByName(("###" + id).c_str());
  if (!w || !w->WasActive) return std::nullopt;
  return ImRect(w->Pos, ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y));
}

// Indices after a prefix: "tensor.cell.3.5" -> {3, 5}.
std::vector<int> indices(const std::string& target, std::size_t prefix) {
  std::vector<int> out;
  std::size_t pos = prefix;
  while (pos < target.size()) {
    const auto dot = target.find('.', pos);
    out.push_back(std::atoi(target.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos).c_str()));
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  return out;
}

// The screen rectangle of one highlight target this frame, if it is on screen.
std::optional<ImRect> target_rect(const Workbench& bench, const std::string& target) {
  if (target.rfind("panel:", 0) == 0) return panel_rect(target.substr(6));
  if (target.rfind("tensor.", 0) == 0) {
    const auto grid = bench.probe("tensor.grid");
    const auto window = panel_rect("tensor");
    if (!grid || !window) return std::nullopt;
    const Model& m = bench.model();
    const float cell = (grid->max.x - grid->min.x) / static_cast<float>(m.cols());
    ImRect r;
    if (target.rfind("tensor.cell.", 0) == 0) {
      const auto v = indices(target, 12);
      if (v.size() != 2) return std::nullopt;
      r = ImRect(ImVec2(grid->min.x + static_cast<float>(v[1]) * cell, grid->min.y + static_cast<float>(v[0]) * cell),
                 ImVec2(grid->min.x + static_cast<float>(v[1] + 1) * cell, grid->min.y + static_cast<float>(v[0] + 1) * cell));
    } else if (target.rfind("tensor.row.", 0) == 0) {
      const auto v = indices(target, 11);
      if (v.size() != 1) return std::nullopt;
      r = ImRect(ImVec2(grid->min.x, grid->min.y + static_cast<float>(v[0]) * cell),
                 ImVec2(grid->max.x, grid->min.y + static_cast<float>(v[0] + 1) * cell));
    } else if (target.rfind("tensor.col.", 0) == 0) {
      const auto v = indices(target, 11);
      if (v.size() != 1) return std::nullopt;
      r = ImRect(ImVec2(grid->min.x + static_cast<float>(v[0]) * cell, grid->min.y),
                 ImVec2(grid->min.x + static_cast<float>(v[0] + 1) * cell, grid->max.y));
    } else {
      return std::nullopt;
    }
    r.ClipWithFull(*window);
    if (r.GetWidth() <= 0 || r.GetHeight() <= 0) return std::nullopt;
    return r;
  }
  if (const auto p = bench.probe(target)) return ImRect(p->min, p->max);
  return std::nullopt;
}

constexpr ImU32 kHighlight = IM_COL32(255, 110, 0, 255);
constexpr ImU32 kHighlightHalo = IM_COL32(20, 20, 20, 200);

// The step's highlight targets on screen this frame.
struct Highlight {
  ImRect rect;
  bool panel = false;  // a whole panel (outlined inside its edge) or an item (outlined around it)
};
std::vector<Highlight> highlights_of(const Workbench& bench, const LessonStep& step) {
  std::vector<Highlight> out;
  for (const std::string& target : step.highlight)
    if (const auto r = target_rect(bench, target)) out.push_back({*r, target.rfind("panel:", 0) == 0});
  return out;
}
// Draws the outlines everywhere except over `card`: the card's text is never struck through.
void draw_highlights(const Workbench& bench, const std::vector<Highlight>& highlights, const std::optional<ImRect>& card) {
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const float s = bench.ui_scale();
  const float pulse = 0.75f + 0.25f * std::sin(static_cast<float>(ImGui::GetTime()) * 4.0f);
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  // The screen less the card, as up to four rectangles (above, below, left and right of it).
  std::vector<ImRect> clips;
  if (!card) {
    clips.emplace_back(ImVec2(0, 0), display);
  } else {
    const ImRect c = *card;
    clips.emplace_back(ImVec2(0, 0), ImVec2(display.x, c.Min.y));
    clips.emplace_back(ImVec2(0, c.Max.y), display);
    clips.emplace_back(ImVec2(0, c.Min.y), ImVec2(c.Min.x, c.Max.y));
    clips.emplace_back(ImVec2(c.Max.x, c.Min.y), ImVec2(display.x, c.Max.y));
  }
  for (const Highlight& h : highlights) {
    const ImRect& r = h.rect;
    const bool panel = h.panel;
    const float pad = panel ? -2.0f * s : 2.0f * s;
    const ImVec2 a(r.Min.x - pad, r.Min.y - pad), b(r.Max.x + pad, r.Max.y + pad);
    const float thick = (panel ? 4.0f : 3.0f) * s;
    ImU32 color = kHighlight;
    color = (color & ~IM_COL32_A_MASK) | (static_cast<ImU32>(255.0f * pulse) << IM_COL32_A_SHIFT);
    for (const ImRect& clip : clips) {
      if (clip.GetWidth() <= 0 || clip.GetHeight() <= 0) continue;
      dl->PushClipRect(clip.Min, clip.Max, false);
      dl->AddRect(ImVec2(a.x - thick * 0.5f, a.y - thick * 0.5f), ImVec2(b.x + thick * 0.5f, b.y + thick * 0.5f), kHighlightHalo,
                  3.0f * s, 0, thick * 0.6f);
      dl->AddRect(a, b, color, 3.0f * s, 0, thick);
      dl->PopClipRect();
    }
  }
}

// [SECTION] Floating panels and the menu

// The lesson card docks at the right, between the menu bar and the status bar; the tiles take
// the rest of the width, so the card covers no panel and no highlight.
float card_width() {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  return std::floor(std::min(display.x * 0.32f, em() * 34.0f));
}
ImRect card_rect() {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float top = ImGui::GetFrameHeight();
  const float bottom = display.y - (ImGui::GetFrameHeight() + 2.0f);
  return ImRect(ImVec2(display.x - card_width(), top), ImVec2(display.x, bottom));
}
bool card_shown() {
  const Classroom& c = classroom();
  return c.open_lesson >= 0 || !c.lesson_error.empty();
}

void floating(Workbench& bench, Panel& panel, ImVec2 pos, ImVec2 size, bool& open, ImGuiWindowFlags flags) {
  ImGui::SetNextWindowPos(pos, flags & ImGuiWindowFlags_NoMove ? ImGuiCond_Always : ImGuiCond_Appearing);
  ImGui::SetNextWindowSize(size, flags & ImGuiWindowFlags_NoResize ? ImGuiCond_Always : ImGuiCond_Appearing);
  ImGui::SetNextWindowBgAlpha(1.0f);  // opaque: text of the panels below must not show through on a projector
  const std::string title = fmt::format("{}###{}", panel.title(), panel.id());
  if (ImGui::Begin(title.c_str(), &open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | flags)) {
    PanelContext ctx{bench.session(), bench.model(), bench.trace(), bench};
    panel.draw(ctx);
  }
  ImGui::End();
}

void end_of_frame(Workbench& bench) {
  Classroom& c = classroom();
  lecture_keys(bench);
  const LessonStep* step = c.current_step();
  const std::vector<Highlight> highlights = step ? highlights_of(bench, *step) : std::vector<Highlight>{};
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  std::optional<ImRect> card;
  if (card_shown()) {
    if (!c.lesson_panel) c.lesson_panel = make_lesson_panel();
    bool open = true;
    const ImRect r = card_rect();
    floating(bench, *c.lesson_panel, r.Min, r.GetSize(), open, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize);
    card = r;
    if (!open) close_lesson(bench);
  }
  draw_highlights(bench, highlights, card);
  if (c.presenter && c.presenter_in_main) {  // no second window: the presenter's view floats here
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.04f, display.y * 0.08f), ImGuiCond_Appearing);
    ImGui::SetNextWindowSize(ImVec2(display.x * 0.5f, display.y * 0.6f), ImGuiCond_Appearing);
    ImGui::SetNextWindowBgAlpha(1.0f);
    if (ImGui::Begin("Presenter view###presenter", &c.presenter, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings))
      draw_presenter_view(bench);
    ImGui::End();
  }
  if (const auto chosen = c.quiz_dialog.draw()) {
    std::string error;
    if (!open_quiz_set(bench, chosen->string(), error)) bench.show_error(error);
  }
  if (c.quiz_open) {
    if (!c.quiz_panel) c.quiz_panel = make_quiz_panel();
    const ImVec2 size(std::min(display.x * 0.4f, em() * 40.0f), std::min(display.y * 0.7f, em() * 32.0f));
    floating(bench, *c.quiz_panel, ImVec2(display.x * 0.5f - size.x * 0.5f, display.y * 0.5f - size.y * 0.5f), size, c.quiz_open,
             false);
  }
}

}  // namespace

std::vector<std::pair<std::string, std::optional<ImRect>>> lesson_targets(const Workbench& bench) {
  std::vector<std::pair<std::string, std::optional<ImRect>>> out;
  if (const LessonStep* step = classroom().current_step())
    for (const std::string& target : step->highlight) out.emplace_back(target, target_rect(bench, target));
  return out;
}

std::optional<ImRect> lesson_card_rect() {
  ImGuiWindow* w = ImGui::FindWindowByName("###lesson");
  if (!w || !(w->Active || w->WasActive)) return std::nullopt;
  return ImRect(w->Pos, ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y));
}

void classroom_menu(Workbench& bench) {
  Classroom& c = classroom();
  // Before the tiles are drawn: an open question hides every panel that could show its answer (quiz.h),
  // an open prediction the counts that would answer it (lesson_predict.h).
  if (quiz_question_open()) {
    bench.veil(quiz_revealing_panels(*c.question), "Hidden while the quiz question is open.");
    bench.veil_counts(std::nullopt);
  } else if (const LessonStep* s = c.current_step();
             s && s->predict && c.prediction_checked_at != std::make_pair(c.open_lesson, c.step)) {
    const PredictionVeil v = prediction_veil(*s);
    bench.veil(v.panels, "Hidden until your prediction is checked on the lesson card.");
    bench.veil_counts(v.access ? std::optional<Side>(side_for(*v.access)) : std::nullopt);
  } else {
    bench.veil({}, "");
    bench.veil_counts(std::nullopt);
  }
  if (c.high_contrast)
    apply_high_contrast_theme();  // every frame: a UI-scale change reloads the light theme
  else if (c.was_high_contrast)
    apply_theme(bench.ui_scale());
  c.was_high_contrast = c.high_contrast;

  if (ImGui::BeginMenu("Classroom")) {
    if (!c.scanned) scan_lessons(c);
    if (lessons_dir().empty()) {
      ImGui::PushTextWrapPos(em() * 30.0f);
      ImGui::TextColored(ImVec4(0.82f, 0.16f, 0.16f, 1), "%s", lessons_not_found().c_str());
      ImGui::PopTextWrapPos();
    } else {
      ImGui::TextDisabled("Lessons (%s)", lessons_dir().string().c_str());
    }
    for (std::size_t i = 0; i < c.lessons.size(); ++i) {
      const LessonEntry& e = c.lessons[i];
      if (e.lesson) {
        if (ImGui::MenuItem(e.lesson->title.c_str(), nullptr, c.open_lesson == static_cast<int>(i))) {
          std::string error;
          if (!open_lesson(bench, e.lesson->name, 1, error)) bench.show_error(error);
        }
        if (ImGui::IsItemHovered() && !e.lesson->summary.empty()) ImGui::SetTooltip("%s", e.lesson->summary.c_str());
      } else {
        const std::string label = fmt::format("{} (does not load)", e.path.filename().string());
        if (ImGui::MenuItem(label.c_str())) {
          close_lesson(bench);
          c.lesson_error = e.error;
          bench.show_error(e.error);
        }
      }
    }
    if (c.lessons.empty()) ImGui::TextDisabled("no lesson files found");
    if (ImGui::MenuItem("Reload lesson files")) scan_lessons(c);
    ImGui::Separator();
    if (ImGui::MenuItem("Quiz (random questions)", nullptr, c.quiz_open && !c.quiz_set)) {
      if (c.quiz_open && !c.quiz_set)
        c.quiz_open = false;
      else
        start_quiz(bench, std::nullopt);
    }
    std::string why;
    const auto quizzes = find_quizzes_dir(why);
    for (const auto& path : quizzes ? lesson_files(*quizzes) : std::vector<std::filesystem::path>{}) {
      const std::string label = fmt::format("Quiz set: {}", path.stem().string());
      if (ImGui::MenuItem(label.c_str(), nullptr, c.quiz_open && c.quiz_set && c.quiz_set->name == path.stem().string())) {
        std::string error;
        if (!open_quiz_set(bench, path.string(), error)) bench.show_error(error);
      }
    }
    if (ImGui::MenuItem("Open quiz set..."))
      c.quiz_dialog.open("Open quiz set", false, quizzes ? *quizzes : std::filesystem::current_path());
    ImGui::Separator();
    if (ImGui::MenuItem("Presentation mode (large text)", nullptr, c.presentation)) {
      c.presentation = !c.presentation;
      if (c.presentation) c.scale_before = bench.ui_scale();
      bench.post(cmd::set_ui_scale(c.presentation ? std::max(kPresentationScale, bench.ui_scale()) : c.scale_before));
    }
    if (ImGui::MenuItem("High-contrast theme", nullptr, c.high_contrast)) c.high_contrast = !c.high_contrast;
    if (ImGui::MenuItem("Full screen", "F11", c.fullscreen)) c.fullscreen = !c.fullscreen;
    if (ImGui::MenuItem("Presenter view (second window)", nullptr, c.presenter)) c.presenter = !c.presenter;
    ImGui::EndMenu();
  }
  if (card_shown()) bench.reserve_right(card_width());
  bench.defer([&bench] { end_of_frame(bench); });
}

// [SECTION] High-contrast theme

void apply_high_contrast_theme() {
  ImGuiStyle& s = ImGui::GetStyle();
  s.WindowBorderSize = 2.0f;
  s.FrameBorderSize = 1.0f;
  s.PopupBorderSize = 2.0f;
  ImVec4* c = s.Colors;
  const ImVec4 black(0, 0, 0, 1), white(1, 1, 1, 1);
  c[ImGuiCol_Text] = black;
  c[ImGuiCol_TextDisabled] = ImVec4(0.22f, 0.22f, 0.22f, 1);
  c[ImGuiCol_WindowBg] = white;
  c[ImGuiCol_ChildBg] = ImVec4(1, 1, 1, 0);
  c[ImGuiCol_PopupBg] = white;
  c[ImGuiCol_Border] = black;
  c[ImGuiCol_FrameBg] = white;
  c[ImGuiCol_FrameBgHovered] = ImVec4(1.0f, 0.93f, 0.55f, 1);
  c[ImGuiCol_FrameBgActive] = ImVec4(1.0f, 0.85f, 0.20f, 1);
  c[ImGuiCol_TitleBg] = ImVec4(0.82f, 0.82f, 0.82f, 1);
  c[ImGuiCol_TitleBgActive] = ImVec4(1.0f, 0.85f, 0.20f, 1);
  c[ImGuiCol_TitleBgCollapsed] = ImVec4(0.82f, 0.82f, 0.82f, 1);
  c[ImGuiCol_MenuBarBg] = ImVec4(0.90f, 0.90f, 0.90f, 1);
  c[ImGuiCol_Button] = ImVec4(0.88f, 0.88f, 0.88f, 1);
  c[ImGuiCol_ButtonHovered] = ImVec4(1.0f, 0.93f, 0.55f, 1);
  c[ImGuiCol_ButtonActive] = ImVec4(1.0f, 0.85f, 0.20f, 1);
  c[ImGuiCol_Header] = ImVec4(1.0f, 0.90f, 0.40f, 1);
  c[ImGuiCol_HeaderHovered] = ImVec4(1.0f, 0.93f, 0.55f, 1);
  c[ImGuiCol_HeaderActive] = ImVec4(1.0f, 0.85f, 0.20f, 1);
  c[ImGuiCol_CheckMark] = black;
  c[ImGuiCol_SliderGrab] = black;
  c[ImGuiCol_SliderGrabActive] = black;
  c[ImGuiCol_Separator] = black;
  c[ImGuiCol_ScrollbarBg] = ImVec4(0.92f, 0.92f, 0.92f, 1);
  c[ImGuiCol_ScrollbarGrab] = ImVec4(0.30f, 0.30f, 0.30f, 1);
  c[ImGuiCol_TableBorderStrong] = black;
  c[ImGuiCol_TableBorderLight] = ImVec4(0.35f, 0.35f, 0.35f, 1);
  c[ImGuiCol_TableRowBgAlt] = ImVec4(0.93f, 0.93f, 0.93f, 1);
}

}  // namespace swz::gui
