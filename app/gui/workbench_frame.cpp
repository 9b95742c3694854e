// workbench_frame.cpp: one frame of the Workbench: panels and tool windows, shortcuts, menus, tiles, status bar, help and dialogs
// (workbench.h).
#include <GLFW/glfw3.h>  // key codes only: the platform layer feeds GLFW keys to ImGui
#include <fmt/format.h>
#include <imgui_internal.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <fstream>

#include "classroom.h"
#include "getting_started.h"
#include "open_link.h"
#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/export/svg.h"
#include "swz/io/layout_io.h"
#include "swz/layout/recognize.h"
#include "theme.h"
#include "workbench.h"

namespace swz::gui {

// [SECTION] Frame

void Workbench::draw() {
  probes_.clear();
  reserved_right_ = 0.0f;
  capturing_ = capture_due();
  ImGuiIO& io = ImGui::GetIO();
  shortcuts();
  play(io.DeltaTime);
  menus();
  const float top = ImGui::GetFrameHeight();
  const float status_h = ImGui::GetFrameHeight() + 2.0f;
  tiles(top, io.DisplaySize.y - status_h);
  status_bar(status_h);
  if (!capturing_) tool_windows();
  help_windows();
  recovery_window();
  dialogs();
  apply_pending();
  autosave();
  if (capture_ && capture_wait_ > 0) --capture_wait_;
}

void Workbench::tool_windows() {
  const ImVec2 center = ImGui::GetMainViewport()->GetCenter();
  for (const auto& tool : tools_) {
    if (!panel_visible(tool->id())) continue;
    ImGui::SetNextWindowPos(center, ImGuiCond_FirstUseEver, ImVec2(0.5f, 0.5f));
    const bool wide = std::string_view(tool->id()) == "export";  // the header preview wants width
    const bool table = std::string_view(tool->id()) == "kernel";  // the audit's rows: nine columns and their suggestions
    ImGui::SetNextWindowSize(table  ? ImVec2(std::min(em() * 72.0f, ImGui::GetIO().DisplaySize.x * 0.95f), em() * 30.0f)
                             : wide ? ImVec2(em() * 54.0f, em() * 38.0f)
                                    : ImVec2(em() * 44.0f, em() * 20.0f),
                             ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSizeConstraints(ImVec2(em() * 24.0f, em() * 12.0f), ImGui::GetIO().DisplaySize);
    bool open = true;
    const std::string title = fmt::format("{}###{}", tool->title(), tool->id());
    if (ImGui::Begin(title.c_str(), &open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
      add_probe(std::string("panel.") + tool->id(), ImGui::GetWindowPos(),
                ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowSize().x, ImGui::GetWindowPos().y + ImGui::GetWindowSize().y));
      PanelContext ctx{session_, *model_, trace_, *this};
      tool->draw(ctx);
    }
    ImGui::End();
    if (!open) post(cmd::show_panel(tool->id(), false));
  }
}

// The last session follows the work a couple of seconds behind, not only at exit.
void Workbench::autosave() {
  if (!options_.autosave || session_.trace.playing || recovery_) return;  // never over a crash's work before it is answered
  if (autosaved_ && *autosaved_ == session_) {
    changed_at_ = -1.0;
    return;
  }
  const double now = ImGui::GetTime();
  if (changed_at_ < 0) changed_at_ = now;
  if (now - changed_at_ < 2.0) return;
  if (save_last_session()) autosaved_ = session_;
  changed_at_ = -1.0;
}

void Workbench::play(float dt) {
  if (!session_.trace.playing) {
    play_clock_ = 0.0f;
    return;
  }
  play_clock_ += dt;
  const float period = std::max(0.02f, session_.trace.seconds_per_step);
  if (play_clock_ < period) return;
  play_clock_ = std::fmod(play_clock_, period);
  const int steps = std::max(1, model_->steps(session_.trace.side));
  post(cmd::set_step((session_.trace.step + 1) % steps));
}

void Workbench::shortcuts() {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId)) return;
  const bool ctrl = io.KeyCtrl, shift = io.KeyShift;
  auto pressed = [](int key, bool repeat = false) { return ImGui::IsKeyPressed(key, repeat); };
  if (ctrl) {
    if (pressed(GLFW_KEY_O)) ask_file(FileAction::OpenSession);
    if (pressed(GLFW_KEY_S)) {
      if (shift || !session_path_)
        ask_file(FileAction::SaveSession);
      else
        save_session(*session_path_);
    }
    if (pressed(GLFW_KEY_Z, true)) shift ? redo() : undo();
    if (pressed(GLFW_KEY_Y, true)) redo();
    if (pressed(GLFW_KEY_EQUAL) || pressed(GLFW_KEY_KP_ADD)) post(cmd::set_ui_scale(session_.view.ui_scale + 0.125f));
    if (pressed(GLFW_KEY_MINUS) || pressed(GLFW_KEY_KP_SUBTRACT)) post(cmd::set_ui_scale(session_.view.ui_scale - 0.125f));
    if (pressed(GLFW_KEY_0)) post(cmd::set_ui_scale(1.0f));
    if (pressed(GLFW_KEY_Q)) quit_ = true;
    if (pressed(GLFW_KEY_E)) request_save_export();
    return;
  }
  if (ImGui::IsAnyItemActive()) return;
  const int steps = std::max(1, model_->steps(session_.trace.side));
  if (pressed(GLFW_KEY_RIGHT, true)) post(cmd::set_step((session_.trace.step + 1) % steps));
  if (pressed(GLFW_KEY_LEFT, true)) post(cmd::set_step((session_.trace.step + steps - 1) % steps));
  if (pressed(GLFW_KEY_HOME)) post(cmd::set_step(0));
  if (pressed(GLFW_KEY_END)) post(cmd::set_step(steps - 1));
  if (pressed(GLFW_KEY_SPACE)) post(cmd::set_playing(!session_.trace.playing));
  if (pressed(GLFW_KEY_ESCAPE)) focus_.clear();
}

void Workbench::menus() {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open session...", "Ctrl+O")) ask_file(FileAction::OpenSession);
    if (ImGui::MenuItem("Save", "Ctrl+S")) {
      if (session_path_)
        save_session(*session_path_);
      else
        ask_file(FileAction::SaveSession);
    }
    if (ImGui::MenuItem("Save As...", "Ctrl+Shift+S")) ask_file(FileAction::SaveSession);
    ImGui::Separator();
    if (ImGui::MenuItem("Open writer (A) layout...")) ask_file(FileAction::LoadWriter);
    if (ImGui::MenuItem("Open reader (B) layout...")) ask_file(FileAction::LoadReader);
    if (ImGui::MenuItem("Open shared layout...")) ask_file(FileAction::LoadShared);
    if (ImGui::MenuItem("Open kernel...")) request_open_kernel();
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) quit_ = true;
    ImGui::EndMenu();
  }
  const ImVec2 edit_at = ImGui::GetCursorScreenPos();
  if (ImGui::BeginMenu("Edit")) {
    const std::string undo_label = history_.can_undo() ? "Undo " + history_.undo_name() : std::string("Undo");
    const std::string redo_label = history_.can_redo() ? "Redo " + history_.redo_name() : std::string("Redo");
    if (ImGui::MenuItem(undo_label.c_str(), "Ctrl+Z", false, history_.can_undo())) undo();
    if (ImGui::MenuItem(redo_label.c_str(), "Ctrl+Shift+Z", false, history_.can_redo())) redo();
    ImGui::Separator();
    const ImVec2 copy_at = ImGui::GetCursorScreenPos();
    if (ImGui::MenuItem("Copy link")) copy_link(*this);
    add_probe("menu.edit.copy_link", copy_at, ImGui::GetItemRectMax());
    const ImVec2 open_at = ImGui::GetCursorScreenPos();
    if (ImGui::MenuItem("Open link from clipboard")) {
      const char* text = ImGui::GetClipboardText();
      defer([this, url = std::string(text ? text : "")] {
        std::string why;
        apply_link(*this, url, why);  // a bad link is shown as the error
      });
    }
    add_probe("menu.edit.open_link", open_at, ImGui::GetItemRectMax());
    ImGui::EndMenu();
  }
  add_probe("menu.edit", edit_at, ImVec2(edit_at.x + ImGui::CalcTextSize("Edit").x, edit_at.y + ImGui::GetFrameHeight()));
  if (ImGui::BeginMenu("View")) {
    for (const PanelSlot& slot : panels_) {
      const bool shown = panel_visible(slot.panel->id());
      if (ImGui::MenuItem(slot.panel->title(), nullptr, shown)) post(cmd::show_panel(slot.panel->id(), !shown));
    }
    if (ImGui::BeginMenu("Focus")) {
      if (ImGui::MenuItem("Every panel", "Esc", focus_.empty())) focus_.clear();
      for (const PanelSlot& slot : panels_)
        if (ImGui::MenuItem(slot.panel->title(), nullptr, focus_ == slot.panel->id())) set_focus(slot.panel->id());
      ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Larger UI", "Ctrl+=")) post(cmd::set_ui_scale(session_.view.ui_scale + 0.125f));
    if (ImGui::MenuItem("Smaller UI", "Ctrl+-")) post(cmd::set_ui_scale(session_.view.ui_scale - 0.125f));
    if (ImGui::MenuItem("Reset UI scale", "Ctrl+0")) post(cmd::set_ui_scale(1.0f));
    ImGui::TextDisabled("UI scale %.0f%%", session_.view.ui_scale * 100.0f);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Tools")) {
    for (const auto& tool : tools_) {
      const bool shown = panel_visible(tool->id());
      if (ImGui::MenuItem(tool->title(), nullptr, shown)) post(cmd::show_panel(tool->id(), !shown));
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Save export...", "Ctrl+E")) request_save_export();
    if (ImGui::MenuItem("Save figure as SVG...")) request_figure(false);
    if (ImGui::MenuItem("Save panel as PNG...")) request_figure(true);
    ImGui::EndMenu();
  }
  classroom_menu(*this);
  const ImVec2 help_at = ImGui::GetCursorScreenPos();
  if (ImGui::BeginMenu("Help")) {
    const ImVec2 item_at = ImGui::GetCursorScreenPos();
    if (ImGui::MenuItem("Getting started")) show_getting_started_ = true;
    add_probe("menu.help.getting_started", item_at, ImGui::GetItemRectMax());
    if (ImGui::MenuItem("Shortcuts")) show_shortcuts_ = true;
    if (ImGui::MenuItem("About")) show_about_ = true;
    ImGui::EndMenu();
  }
  add_probe("menu.help", help_at, ImVec2(help_at.x + ImGui::CalcTextSize("Help").x, help_at.y + ImGui::GetFrameHeight()));
  ImGui::EndMainMenuBar();
}

void Workbench::tiles(float top, float bottom) {
  const float width = std::max(em() * 10.0f, ImGui::GetIO().DisplaySize.x - reserved_right_);
  const float height = std::max(1.0f, bottom - top);
  if (!focus_.empty() && !panel_visible(focus_)) focus_.clear();
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  // Double-clicking a title bar focuses that panel, or returns from focus.
  auto title_double_clicked = [] {
    if (!ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows) || !ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
      return false;
    const float y = ImGui::GetIO().MousePos.y - ImGui::GetWindowPos().y;
    return y >= 0.0f && y < ImGui::GetFrameHeight();
  };
  if (!focus_.empty()) {
    for (PanelSlot& s : panels_) {
      if (focus_ != s.panel->id()) continue;
      ImGui::SetNextWindowPos(ImVec2(0.0f, top), ImGuiCond_Always);
      ImGui::SetNextWindowSize(ImVec2(width, height), ImGuiCond_Always);
      bool open = true;
      const std::string title =
          fmt::format("{}  (focused: double-click here or Esc to see every panel)###{}", s.panel->title(), s.panel->id());
      if (ImGui::Begin(title.c_str(), &open, flags)) {
        add_probe(std::string("panel.") + s.panel->id(), ImVec2(0.0f, top), ImVec2(width, top + height));
        draw_panel_or_veil(*s.panel);
        if (title_double_clicked()) focus_.clear();
      }
      ImGui::End();
      if (!open) focus_.clear();
    }
    return;
  }
  // Columns adapt to the UI scale (arrange_tiles); when the panels' least heights do not
  // fit, the tile area scrolls as a whole, its scrollbar at the right edge.
  std::vector<bool> visible;
  for (const PanelSlot& s : panels_) visible.push_back(panel_visible(s.panel->id()));
  TileArrangement layout = arrange_tiles(panels_, visible, width, height, em());
  tiles_scroll_ = layout.height > height + 0.5f;
  float scroll = 0.0f;
  if (tiles_scroll_) {
    const float bar = ImGui::GetStyle().ScrollbarSize;
    layout = arrange_tiles(panels_, visible, width - bar, height, em());
    ImGui::SetNextWindowPos(ImVec2(0.0f, top), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(width, height), ImGuiCond_Always);
    ImGui::SetNextWindowContentSize(ImVec2(0.0f, layout.height));
    if (tiles_scroll_to_ >= 0.0f) ImGui::SetNextWindowScroll(ImVec2(-1.0f, tiles_scroll_to_));
    tiles_scroll_to_ = -1.0f;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0.0f, 0.0f));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
    ImGui::Begin("##tiles", nullptr,
                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_AlwaysVerticalScrollbar | ImGuiWindowFlags_NoNav);
    scroll = ImGui::GetScrollY();
    tiles_scroll_max_ = ImGui::GetScrollMaxY();
    ImGui::End();
    ImGui::PopStyleVar(3);
    add_probe("tiles.scroll", ImVec2(width - bar, top), ImVec2(width, top + height));
  } else {
    tiles_scroll_to_ = 0.0f;  // back at the top when scrolling is needed again
  }
  for (const TileRect& t : layout.tiles) {
    PanelSlot& s = panels_[t.slot];
    const ImVec2 pos(t.x, std::round(top + t.y - scroll));
    ImGui::SetNextWindowPos(pos, ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(t.w, t.h), ImGuiCond_Always);
    bool open = true;
    const std::string title = fmt::format("{}###{}", s.panel->title(), s.panel->id());
    if (ImGui::Begin(title.c_str(), &open, flags)) {
      add_probe(std::string("panel.") + s.panel->id(), pos, ImVec2(pos.x + t.w, pos.y + t.h));
      draw_panel_or_veil(*s.panel);
      if (title_double_clicked()) focus_ = s.panel->id();
    }
    ImGui::End();
    if (!open) post(cmd::show_panel(s.panel->id(), false));
  }
  if (tiles_scroll_) {
    forward_wheel_to_tiles(scroll);
    // Panels scrolled under the menu bar stay under it.
    if (ImGuiWindow* menu = ImGui::FindWindowByName("##MainMenuBar")) ImGui::BringWindowToDisplayFront(menu);
  }
}

// A veiled panel keeps its tile (nothing moves when the quiz question or the prediction closes) but draws
// none of its content.
void Workbench::draw_panel_or_veil(Panel& panel) {
  if (!veiled(panel.id())) {
    PanelContext ctx{session_, *model_, trace_, *this};
    panel.draw(ctx);
    return;
  }
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::TextDisabled("%s", veil_reason_.c_str());
  add_probe(std::string("panel.") + panel.id() + ".veiled", p, ImGui::GetItemRectMax());
}

// The wheel over a panel that has nothing (more) to scroll in that direction scrolls the tile area.
void Workbench::forward_wheel_to_tiles(float scroll) {
  const ImGuiIO& io = ImGui::GetIO();
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  const float wheel = io.MouseWheel;
  if (wheel == 0.0f || io.KeyCtrl || !g.HoveredWindow) return;
  if (g.HoveredIdUsingMouseWheel || g.HoveredIdPreviousFrameUsingMouseWheel || (g.ActiveId != 0 && g.ActiveIdUsingMouseWheel))
    return;
  const ImGuiWindow* root = g.HoveredWindow->RootWindow;
  const std::string_view name = root->Name;
  const bool panel = std::any_of(panels_.begin(), panels_.end(), [&](const PanelSlot& s) {
    const std::string id = std::string("###") + s.panel->id();
    return name.size() >= id.size() && name.substr(name.size() - id.size()) == id;
  });
  if (!panel || ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId)) return;
  for (const ImGuiWindow* w = g.HoveredWindow; w; w = w->ParentWindow) {
    const bool can = w->ScrollMax.y > 0.0f && !(w->Flags & ImGuiWindowFlags_NoScrollWithMouse);
    if (can && (wheel > 0.0f ? w->Scroll.y > 0.0f : w->Scroll.y < w->ScrollMax.y)) return;  // that window scrolls
    if (w == root) break;
  }
  const float step = std::floor(5.0f * em());
  tiles_scroll_to_ = std::clamp(scroll - wheel * step, 0.0f, tiles_scroll_max_);
}

void Workbench::status_bar(float height) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0, io.DisplaySize.y - height), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, height), ImGuiCond_Always);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(em() * 0.5f, 1.0f));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, error_.empty() ? ImVec4(0.90f, 0.91f, 0.93f, 1) : ImVec4(0.98f, 0.86f, 0.86f, 1));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse;
  if (ImGui::Begin("##status", nullptr, flags)) {
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    if (!error_.empty()) {
      if (ImGui::SmallButton("Dismiss")) error_.clear();
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(0.65f, 0.05f, 0.05f, 1), "Error: %s", error_.c_str());
      add_probe("status.error", p0, ImVec2(p0.x + io.DisplaySize.x * 0.6f, p0.y + height));
    } else {
      ImGui::TextUnformatted(status_.c_str());
    }
    const Problem& p = model_->problem;
    const std::string right =
        fmt::format("{} | {} | {}-bit | {} banks{}", p.name, fmt::join(p.shape, "x"), p.element_bits, p.bank.banks,
                    p.grid && std::any_of(p.masks.begin(), p.masks.end(), [](std::uint32_t x) { return x != 0; })
                        ? " | masks " + format_masks(p.masks)
                        : std::string());
    // The problem's summary at the right edge, when it fits beside the message.
    const float rw = ImGui::CalcTextSize(right.c_str()).x;
    const float x = io.DisplaySize.x - rw - em();
    if (ImGui::GetItemRectMax().x + em() <= x) {
      ImGui::SameLine(x);
      ImGui::TextDisabled("%s", right.c_str());
    }
    if (tiles_scroll_) ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());  // over panels scrolled under it
  }
  ImGui::End();
  ImGui::PopStyleColor();
  ImGui::PopStyleVar();
}

void Workbench::help_windows() {
  const ImVec2 center = ImGui::GetMainViewport()->GetCenter();
  draw_getting_started(*this, show_getting_started_);
  if (!recovery_ && !capturing_) draw_first_run_hint(*this, show_first_run_hint_);  // a crash's offer first
  if (show_about_) {
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::Begin("About Swizzle Workbench", &show_about_,
                     ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
      ImGui::PushFont(fonts().heading);
      ImGui::Text("Swizzle Workbench %s", SWZ_VERSION);
      ImGui::PopFont();
      ImGui::TextUnformatted("Design bank-conflict-free shared-memory layouts for GPU kernels.");
      ImGui::TextUnformatted("Toggle a swizzle, watch every bank and wavefront of the store and the read,");
      ImGui::TextUnformatted("see the conflict as a subspace intersection (Lemma 9.4), and replay the");
      ImGui::TextUnformatted("construction of an optimal layout step by step.");
      ImGui::Spacing();
      ImGui::TextDisabled("Session file: %s", last_session_path().string().c_str());
      ImGui::TextDisabled("Scripts and CI: the `swizzle` command-line tool shares this core.");
    }
    ImGui::End();
  }
  if (show_shortcuts_) {
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::Begin("Shortcuts", &show_shortcuts_, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
      static const char* rows[][2] = {{"Ctrl+O", "Open a session"},
                                      {"Ctrl+S / Ctrl+Shift+S", "Save / Save as"},
                                      {"Ctrl+Z / Ctrl+Shift+Z", "Undo / Redo"},
                                      {"Ctrl+E", "Save the export (header, Triton, CuTe or JSON)"},
                                      {"Ctrl+= / Ctrl+- / Ctrl+0", "Larger / smaller / default UI scale"},
                                      {"Left / Right", "Previous / next register step r"},
                                      {"Home / End", "First / last step"},
                                      {"Space", "Play / pause the trace"},
                                      {"Double-click a title / Esc", "Focus one panel / see every panel"},
                                      {"Mouse wheel, drag", "Zoom and pan the tensor view"},
                                      {"Ctrl+Q", "Quit"}};
      if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
        for (const auto& r : rows) {
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(r[0]);
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(r[1]);
        }
        ImGui::EndTable();
      }
    }
    ImGui::End();
  }
}

void Workbench::dialogs() {
  const auto chosen = dialog_.draw();
  if (!chosen) return;
  switch (dialog_action_) {
    case FileAction::OpenSession:
      open_session(*chosen);
      break;
    case FileAction::SaveSession:
      save_session(*chosen);
      break;
    case FileAction::LoadWriter:
      load_layout_file(LayoutRole::Writer, *chosen);
      break;
    case FileAction::LoadReader:
      load_layout_file(LayoutRole::Reader, *chosen);
      break;
    case FileAction::LoadShared:
      load_layout_file(LayoutRole::Shared, *chosen);
      break;
    case FileAction::SaveExport:
      save_export(*chosen);
      break;
    case FileAction::SaveSvg:
      save_figure_svg(*chosen);
      break;
    case FileAction::SavePng:
      request_capture({*chosen, export_.png_panel});
      break;
    case FileAction::OpenKernel:
      open_kernel(*chosen);
      break;
    case FileAction::SaveKernelFix:
      save_kernel_fix(*chosen);
      break;
    case FileAction::OpenKernelSass:
      set_kernel_sass(*chosen);
      break;
  }
}

}  // namespace swz::gui
