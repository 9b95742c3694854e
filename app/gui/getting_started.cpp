// getting_started.cpp: Help > Getting started, the first-run hint and the panels'
// plain sentences (getting_started.h).
#include "getting_started.h"

#include <fmt/format.h>

#include <algorithm>
#include <cfloat>
#include <string>

#include "classroom.h"
#include "swz/error.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

// [SECTION] Sentences

const char* panel_summary(std::string_view id) {
  struct Entry {
    std::string_view id;
    const char* sentence;
  };
  static constexpr Entry kSentences[] = {
      {"problem", "Which tile is on the bench: its shape, element type, bank model and the writer, reader and shared layouts."},
      {"grid", "Switches that XOR row bits into column bits: each set cell moves a row's elements to other banks."},
      {"tensor", "Every element of the tile colored by its bank; the outlined cells are the ones the current step touches."},
      {"trace", "One instruction at a time (store or read, register step r): which banks it hits and how many wavefronts it costs."},
      {"layouts", "Which thread and register holds each element when the tile is written (A) and read (B)."},
      {"matrix", "The shared layout as a matrix of bits: which address bits make up each row and column bit."},
      {"algebra",
       "Lanes of one phase conflict when they reach one bank in different rows: every independent direction in both M_Seg "
       "(moves that keep the bank, change the row) and span(Thr) (moves between lanes) doubles the wavefronts."},
      {"memory", "The shared memory itself: one row per segment, one column per bank, and which element sits in each word."},
      {"solver",
       "The solver picks the address bits that change the row of banks (Seg) so that they avoid the lanes' directions of "
       "both the store and the read: conflict-free both ways when the bound allows, else the fewest conflicts."},
      {"export", "The layout as a C++ header, Triton, CuTe or JSON to paste into a kernel, and figures as SVG or PNG."},
      {"gpu", "The same problem run on this machine's GPU: its wavefront counters beside the simulator's count."},
      {"kernel", "A Triton kernel's dump (.ttgir): every shared-memory access, its wavefronts, and a better layout."},
  };
  for (const Entry& e : kSentences)
    if (e.id == id) return e.sentence;
  return "";
}

void draw_panel_summary(PanelContext& ctx, const char* panel_id) {
  // A lesson's card speaks in plain words itself, and its steps need the panels' whole height.
  if (classroom().lesson()) return;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(kTextDim));
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(panel_summary(panel_id));
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  ctx.probe(fmt::format("{}.summary", panel_id), at, ImGui::GetItemRectMax());
  ImGui::Separator();
}

// [SECTION] First start

std::filesystem::path first_run_hint_path() { return config_dir() / "first-run-hint.json"; }

bool first_start() {
  std::error_code ec;
  return !std::filesystem::exists(last_session_path(), ec) && !std::filesystem::exists(first_run_hint_path(), ec);
}

bool remember_first_run_hint_answered() {
  try {
    write_file_atomically(first_run_hint_path(), "{\"first_run_hint\": \"answered\"}\n");
    return true;
  } catch (const Error&) {
    return false;
  }
}

bool open_first_lesson(Workbench& bench, std::string& error) {
  Classroom& c = classroom();
  if (!c.scanned) scan_lessons(c);
  for (const LessonEntry& e : c.lessons)  // in the Classroom menu's order
    if (e.lesson) return open_lesson(bench, e.path.string(), 1, error);
  error = lessons_dir().empty() ? lessons_not_found() : fmt::format("no lesson in {} loads", lessons_dir().string());
  return false;
}

// [SECTION] Getting started

namespace {

void open_first_lesson_or_say_why(Workbench& bench) {
  std::string error;
  if (!open_first_lesson(bench, error)) bench.show_error(error);
}

// A button registered as probe `probe`.
bool probed_button(Workbench& bench, const char* label, const std::string& probe) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const bool pressed = ImGui::Button(label);
  bench.add_probe(probe, at, ImGui::GetItemRectMax());
  return pressed;
}

// One numbered step: its number, then its sentence wrapped beside it (its control goes under it, indented).
void step_text(int number, const char* text) {
  ImGui::PushFont(fonts().heading);
  ImGui::Text("%d.", number);
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::TextUnformatted(text);
}

}  // namespace

void draw_getting_started(Workbench& bench, bool& open) {
  if (!open) return;
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 room(io.DisplaySize.x - em() * 2.0f, io.DisplaySize.y - ImGui::GetFrameHeight() * 2.0f - em() * 2.0f);
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(em() * 44.0f, room.x), std::min(em() * 40.0f, room.y)), ImGuiCond_Appearing);
  ImGui::SetNextWindowSizeConstraints(ImVec2(std::min(em() * 20.0f, room.x), std::min(em() * 12.0f, room.y)), room);
  if (!ImGui::Begin("Getting started###getting_started", &open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  bench.add_probe("panel.getting_started", ImGui::GetWindowPos(),
                  ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowSize().x, ImGui::GetWindowPos().y + ImGui::GetWindowSize().y));
  ImGui::PushTextWrapPos(0.0f);
  heading("What the workbench is for");
  ImGui::TextUnformatted(
      "A GPU kernel often writes a tile into shared memory with one pattern of threads and reads it back with another. "
      "Shared memory is split into banks; when two threads of one step need different words of the same bank, they wait "
      "in turn (a bank conflict). The workbench shows, for a tile of your choice, which bank every element lands in, how "
      "many turns (wavefronts) each access takes, why, and how to rearrange (swizzle) the tile so that neither the write "
      "nor the read waits.");
  ImGui::Spacing();

  heading("How to start");
  step_text(1, "Take the first lesson: a toy GPU with 8 banks and 8 threads, small enough to see every bank.");
  ImGui::Indent(em() * 1.5f);
  if (probed_button(bench, "Open the first lesson", "getting_started.first_lesson")) open_first_lesson_or_say_why(bench);
  ImGui::Unindent(em() * 1.5f);

  step_text(2, "Or pick a tile of your own: a preset is a ready-made problem (a transpose, a TMA copy, an mma operand...).");
  ImGui::Indent(em() * 1.5f);
  {
    static const std::vector<PresetInfo> presets = list_presets();
    const std::string& current = bench.session().problem.preset;
    ImGui::SetNextItemWidth(std::min(em() * 18.0f, std::max(em() * 6.0f, ImGui::GetContentRegionAvail().x)));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (ImGui::BeginCombo("##getting_started_preset", fit_text(current, combo_preview_width(std::min(em() * 18.0f, ImGui::GetContentRegionAvail().x))).c_str(),
                          ImGuiComboFlags_HeightLarge)) {
      for (const PresetInfo& info : presets) {
        if (ImGui::Selectable(info.name.c_str(), info.name == current)) bench.post(cmd::select_preset(info.name));
        if (ImGui::IsItemHovered() && !info.description.empty()) ImGui::SetTooltip("%s", info.description.c_str());
      }
      ImGui::EndCombo();
    }
    bench.add_probe("getting_started.preset", at, ImGui::GetItemRectMax());
  }
  ImGui::Unindent(em() * 1.5f);

  step_text(3, "Toggle masks: each cell of the Toggle grid XORs a row bit into a column bit. Watch the Tensor view's colors "
               "and the verdicts in Access trace change.");
  ImGui::Indent(em() * 1.5f);
  const bool grid = bench.model().problem.grid.has_value();
  if (!grid) ImGui::BeginDisabled();
  if (probed_button(bench, "Show the Toggle grid", "getting_started.grid")) {
    bench.post(cmd::show_panel("grid", true));
    if (!bench.focus().empty()) bench.set_focus("");
  }
  if (!grid) {
    ImGui::EndDisabled();
    same_line_if_fits(ImGui::CalcTextSize("(this problem has no grid: try transpose16x32)").x);
    ImGui::TextDisabled("(this problem has no grid: try transpose16x32)");
  }
  ImGui::Unindent(em() * 1.5f);

  step_text(4, "Run the solver: it builds the layout with the fewest wavefronts for both accesses and proves it; its "
               "panel replays the construction step by step.");
  ImGui::Indent(em() * 1.5f);
  {
    const SolverAnswer& answer = bench.solver_answer();
    const auto command = solver_command(answer);
    const char* locked = answers_locked(bench);  // a lesson's exercise asks the learner to find it
    ImGui::BeginDisabled(!command || locked);
    if (probed_button(bench, "Apply the solver's answer", "getting_started.solver") && command) {
      bench.post(cmd::show_panel("solver", true));
      bench.post(*command);
    }
    ImGui::EndDisabled();
    answers_locked_tooltip(locked);
  }
  ImGui::Unindent(em() * 1.5f);

  step_text(5, "Audit a Triton kernel: open the .ttgir dump Triton writes (TRITON_KERNEL_DUMP=1 or MLIR_ENABLE_DUMP=1) and see "
               "every shared-memory access with its wavefronts and a better layout.");
  ImGui::Indent(em() * 1.5f);
  if (probed_button(bench, "Open the Kernel audit", "getting_started.kernel")) bench.post(cmd::show_panel("kernel", true));
  ImGui::Unindent(em() * 1.5f);
  ImGui::Spacing();

  heading("What each panel shows");
  if (ImGui::BeginTable("panels", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
    float title_w = 0.0f;
    const auto tiles = bench.tile_panels();
    for (const auto& [id, title] : tiles) title_w = std::max(title_w, ImGui::CalcTextSize(title.c_str()).x);
    ImGui::TableSetupColumn("panel", ImGuiTableColumnFlags_WidthFixed, title_w);
    ImGui::TableSetupColumn("shows", ImGuiTableColumnFlags_WidthStretch);
    auto row = [](const std::string& title, const char* id) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(title.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(panel_summary(id));
    };
    for (const auto& [id, title] : tiles) row(title, id.c_str());
    row("Tools > Export", "export");
    row("Tools > GPU", "gpu");
    row("Tools > Kernel audit", "kernel");
    ImGui::EndTable();
  }
  ImGui::Spacing();
  ImGui::TextDisabled("Help > Shortcuts lists the keys; View > Larger UI (Ctrl+=) makes everything bigger.");
  ImGui::PopTextWrapPos();
  ImGui::End();
}

// [SECTION] First-run hint

void draw_first_run_hint(Workbench& bench, bool& open) {
  if (!open) return;
  const ImVec2 center = ImGui::GetMainViewport()->GetCenter();
  ImGui::SetNextWindowPos(center, ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(ImGui::GetIO().DisplaySize.x - em() * 2.0f, FLT_MAX));
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove;
  bool shown = true;
  if (ImGui::Begin("Welcome to Swizzle Workbench###first_run_hint", &shown, flags)) {
    bench.add_probe("panel.first_run_hint", ImGui::GetWindowPos(),
                    ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowSize().x, ImGui::GetWindowPos().y + ImGui::GetWindowSize().y));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::min(em() * 26.0f, ImGui::GetIO().DisplaySize.x - em() * 4.0f));
    ImGui::TextUnformatted("New here? The first lesson shows what a bank conflict is on a toy GPU small enough to see "
                           "every bank, in a few minutes. Getting started says what each panel shows.");
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    bool answered = false;
    if (probed_button(bench, "Open the first lesson", "first_run_hint.first_lesson")) {
      open_first_lesson_or_say_why(bench);
      answered = true;
    }
    same_line_if_fits(button_width("Getting started"));
    if (probed_button(bench, "Getting started", "first_run_hint.getting_started")) {
      bench.show_getting_started(true);
      answered = true;
    }
    same_line_if_fits(button_width("No, thanks"));
    if (probed_button(bench, "No, thanks", "first_run_hint.dismiss")) answered = true;
    ImGui::TextDisabled("This hint does not come back; Help > Getting started does.");
    if (answered || !shown) {
      open = false;
      if (!remember_first_run_hint_answered())
        bench.show_status(fmt::format("Could not write {}: the hint may show again", first_run_hint_path().string()));
    }
  }
  ImGui::End();
}

}  // namespace swz::gui
