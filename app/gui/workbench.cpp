#include "workbench.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <fstream>

#include <signal.h>
#include <unistd.h>

#include <GLFW/glfw3.h>  // key codes only: the platform layer feeds GLFW keys to ImGui
#include <fmt/format.h>
#include <imgui_internal.h>

#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/io/layout_io.h"
#include "swz/layout/recognize.h"
#include "swz/export/svg.h"
#include "classroom.h"
#include "theme.h"

namespace swz::gui {

// [SECTION] PanelContext

void PanelContext::post(Command command) const { bench.post(std::move(command)); }
void PanelContext::probe(const std::string& id, ImVec2 min, ImVec2 max) const { bench.add_probe(id, min, max); }

// [SECTION] Construction

Workbench::Workbench(WorkbenchOptions options) : options_(std::move(options)) {
  panels_ = make_panels();
  tools_ = make_tools();
  std::error_code cwd_ec;
  export_dir_ = std::filesystem::current_path(cwd_ec);
  model_ = std::make_unique<Model>(build_model(session_.problem));
  if (options_.autosave) check_for_crash();
  if (options_.session_file) {
    open_session(*options_.session_file);
  } else if (options_.start) {
    if (rebuild(*options_.start)) session_.problem = *options_.start;
  } else if (options_.restore_last && !recovery_) {
    std::error_code ec;
    const auto last = last_session_path();
    if (std::filesystem::exists(last, ec)) {
      try {
        Session s = load_session_file(last);
        if (rebuild(s.problem)) {
          session_ = std::move(s);
          show_status("Reopened the last session");
        } else {
          options_.autosave = false;  // the file is left as it is, not replaced by this run's session
        }
      } catch (const Error& e) {
        options_.autosave = false;  // e.g. written by a newer version: left as it is, not replaced by this run's session
        show_error(fmt::format("Could not reopen the last session (left as it is; this run does not replace it): {}", e.what()));
      }
    }
  }
  session_.trace.playing = false;
  retrace();
  if (options_.autosave) write_running_marker();
}

Workbench::~Workbench() {
  if (!options_.autosave) return;
  // Work a crash left behind and nobody answered for stays where it is.
  if (!recovery_) save_last_session();
  std::error_code ec;
  std::filesystem::remove(running_marker_path(), ec);
}

// [SECTION] Crash recovery

std::filesystem::path Workbench::running_marker_path() { return config_dir() / "running.json"; }

namespace {
bool process_alive(long pid) {
  if (pid <= 0) return false;
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}
}  // namespace

void Workbench::check_for_crash() {
  std::error_code ec;
  const auto marker = running_marker_path();
  if (!std::filesystem::exists(marker, ec)) return;
  long pid = 0;
  std::optional<std::filesystem::path> file;
  try {
    std::ifstream in(marker);
    const nlohmann::json j = nlohmann::json::parse(in);
    pid = j.value("pid", 0L);
    if (j.contains("session_file") && j.at("session_file").is_string()) file = j.at("session_file").get<std::string>();
  } catch (const std::exception&) {
    pid = 0;  // a torn marker: its process is gone all the same
  }
  if (pid == static_cast<long>(::getpid()) || process_alive(pid)) return;  // another workbench is running
  const auto last = last_session_path();
  if (!std::filesystem::exists(last, ec)) {
    std::filesystem::remove(marker, ec);
    return;
  }
  RecoveryOffer offer{last, file, pid, {}};
  try {
    const Session s = load_session_file(last);
    offer.summary = s.problem.preset;
    if (!s.problem.masks.empty()) offer.summary += ", masks " + format_masks(s.problem.masks);
    if (!s.problem.variant.empty()) offer.summary += ", " + s.problem.variant;
    if (s.problem.shared) offer.summary += ", shared layout " + s.problem.shared->origin;
  } catch (const Error& e) {
    show_error(fmt::format("The last run did not close normally and its autosave cannot be read: {}", e.what()));
    std::filesystem::remove(marker, ec);
    return;
  }
  recovery_ = std::move(offer);
}

void Workbench::write_running_marker() {
  nlohmann::json j;
  j["pid"] = static_cast<long>(::getpid());
  if (session_path_) {
    std::error_code ec;
    j["session_file"] = std::filesystem::absolute(*session_path_, ec).string();
  }
  try {
    write_file_atomically(running_marker_path(), j.dump(2) + "\n");
  } catch (const Error&) {
    // Without the marker a crash is not detected; the autosave itself still happens.
  }
}

bool Workbench::recover() {
  if (!recovery_) return false;
  const RecoveryOffer offer = *recovery_;
  recovery_.reset();
  try {
    Session s = load_session_file(offer.autosave);
    if (!rebuild(s.problem)) return false;
    s.trace.playing = false;
    session_ = std::move(s);
    history_.clear();
    session_path_ = offer.session_file;
    saved_.reset();  // recovered work is unsaved work: the title shows it
    if (offer.session_file) {
      try {
        saved_ = load_session_file(*offer.session_file);  // dirty only where it differs from the file
      } catch (const Error&) {
        saved_.reset();
      }
    }
    error_.clear();
    show_status(offer.session_file ? fmt::format("Recovered the work on {} from the last run", offer.session_file->filename().string())
                                   : std::string("Recovered the work of the last run"));
    retrace();
    write_running_marker();
    return true;
  } catch (const Error& e) {
    show_error(fmt::format("Could not recover the last run's work: {}", e.what()));
  }
  return false;
}

void Workbench::discard_recovery() {
  if (!recovery_) return;
  const RecoveryOffer offer = *recovery_;
  recovery_.reset();
  // Kept aside with a time stamp, never deleted: "start fresh" must not lose anything.
  const auto stamp = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  const auto kept = offer.autosave.parent_path() / fmt::format("crashed-session-{}.json", stamp);
  std::error_code ec;
  std::filesystem::rename(offer.autosave, kept, ec);
  show_status(ec ? std::string("Started fresh") : fmt::format("Started fresh; the last run's work is kept in {}", kept.string()));
}

void Workbench::recovery_window() {
  if (!recovery_) return;
  const char* title = "Recover the last session?";
  if (!recovery_popup_opened_) {
    ImGui::OpenPopup(title);
    recovery_popup_opened_ = true;
  }
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    recovery_popup_opened_ = false;  // closed some other way: ask again next frame
    return;
  }
  const RecoveryOffer& r = *recovery_;
  ImGui::TextUnformatted("Swizzle Workbench did not close normally last time.");
  ImGui::Text("Its work was autosaved: %s", r.summary.c_str());
  if (r.session_file) ImGui::Text("It had %s open.", r.session_file->string().c_str());
  ImGui::TextDisabled("Start fresh keeps the autosave aside in %s.", r.autosave.parent_path().string().c_str());
  ImGui::Spacing();
  if (ImGui::Button("Recover")) {
    ImGui::CloseCurrentPopup();
    defer([this] { recover(); });
  }
  add_probe("recovery.recover", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  ImGui::SameLine();
  if (ImGui::Button("Start fresh")) {
    ImGui::CloseCurrentPopup();
    defer([this] { discard_recovery(); });
  }
  add_probe("recovery.discard", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  ImGui::EndPopup();
}

// [SECTION] Commands

void Workbench::post(Command command) { pending_.push_back(std::move(command)); }

void Workbench::apply_pending() {
  std::vector<Command> todo;
  todo.swap(pending_);
  for (const Command& c : todo) apply(c);
  std::vector<std::function<void()>> actions;
  actions.swap(deferred_);
  for (const auto& a : actions) a();
}

bool Workbench::rebuild(const ProblemSpec& state) {
  try {
    model_ = std::make_unique<Model>(build_model(state));
    return true;
  } catch (const Error& e) {
    show_error(e.what());
  } catch (const std::bad_alloc&) {
    show_error("out of memory building this problem");
  }
  return false;
}

bool Workbench::apply(const Command& command) {
  Session next = session_;
  try {
    command.apply(next);
  } catch (const Error& e) {
    show_error(e.what());
    return false;
  }
  if (next.problem != session_.problem) {
    if (!rebuild(next.problem)) return false;
    if (command.undoable) history_.record(command.name, session_.problem, next.problem);
    error_.clear();
  }
  session_ = std::move(next);
  retrace();
  return true;
}

bool Workbench::undo() {
  if (!history_.can_undo()) return false;
  const std::string name = history_.undo_name();
  const ProblemSpec state = history_.undo();
  if (!rebuild(state)) {
    history_.redo();
    return false;
  }
  session_.problem = state;
  show_status("Undid: " + name);
  retrace();
  return true;
}

bool Workbench::redo() {
  if (!history_.can_redo()) return false;
  const std::string name = history_.redo_name();
  const ProblemSpec state = history_.redo();
  if (!rebuild(state)) {
    history_.undo();
    return false;
  }
  session_.problem = state;
  show_status("Redid: " + name);
  retrace();
  return true;
}

void Workbench::retrace() {
  TraceState& t = session_.trace;
  t.step = std::clamp(t.step, 0, std::max(0, model_->steps(t.side) - 1));
  t.warp = std::clamp(t.warp, 0, std::max(0, model_->warps(t.side) - 1));
  try {
    trace_ = trace_step(*model_, t.side, t.warp, t.step);
  } catch (const Error& e) {
    trace_ = StepTrace{};
    show_error(e.what());
  }
}

// [SECTION] Files

bool Workbench::open_session(const std::filesystem::path& path) {
  try {
    Session s = load_session_file(path);
    if (!rebuild(s.problem)) {
      error_ = fmt::format("{}: {}", path.string(), error_);
      return false;
    }
    s.trace.playing = false;
    session_ = std::move(s);
    session_path_ = path;
    saved_ = session_;
    history_.clear();
    if (options_.autosave) write_running_marker();
    error_.clear();
    show_status("Opened " + path.string());
    retrace();
    return true;
  } catch (const Error& e) {
    show_error(e.what());
  }
  return false;
}

bool Workbench::save_session(const std::filesystem::path& path) {
  try {
    save_session_file(path, session_);
    session_path_ = path;
    saved_ = session_;
    if (options_.autosave) write_running_marker();
    show_status("Saved " + path.string());
    return true;
  } catch (const Error& e) {
    show_error(e.what());
  }
  return false;
}

bool Workbench::save_last_session() {
  try {
    save_session_file(last_session_path(), session_);
    return true;
  } catch (const Error&) {
    return false;  // the last-session file is a convenience; failing to write it is not worth a dialog
  }
}

bool Workbench::dirty() const { return !saved_ || saved_->problem != session_.problem; }

bool Workbench::load_layout_file(LayoutRole role, const std::filesystem::path& path) {
  try {
    LayoutFile f = swz::load_layout_file(path.string());
    const bool want_shared = role == LayoutRole::Shared;
    if ((f.kind == LayoutKind::Shared) != want_shared)
      fail("{}: expected a {} layout, found a {} one", path.string(), want_shared ? "shared (offset_bases)" : "distributed (register/lane/warp)",
           f.kind == LayoutKind::Shared ? "shared" : "distributed");
    // Normalised through the JSON form, so a session round trip gives back the same layout.
    SpecLayout loaded{layout_from_json(layout_to_json(f.layout)).layout, path.filename().string()};
    return apply(cmd::load_layout(role, std::move(loaded)));
  } catch (const Error& e) {
    show_error(e.what());
  }
  return false;
}

void Workbench::request_open(LayoutRole role) {
  ask_file(role == LayoutRole::Writer ? FileAction::LoadWriter : role == LayoutRole::Reader ? FileAction::LoadReader : FileAction::LoadShared);
}

void Workbench::ask_file(FileAction action) {
  dialog_action_ = action;
  std::error_code ec;
  std::filesystem::path start = session_path_ ? *session_path_ : std::filesystem::current_path(ec);
  switch (action) {
    case FileAction::OpenSession: dialog_.open("Open session", false, start); break;
    case FileAction::SaveSession:
      dialog_.open("Save session as", true, session_path_ ? *session_path_ : start / "session.json");
      break;
    case FileAction::LoadWriter: dialog_.open("Open writer (A) layout", false, start); break;
    case FileAction::LoadReader: dialog_.open("Open reader (B) layout", false, start); break;
    case FileAction::LoadShared: dialog_.open("Open shared layout", false, start); break;
    case FileAction::SaveExport:
      dialog_.open(fmt::format("Export {} as", export_format_name(export_.format)), true,
                   export_dir_ / (export_.name + std::string(export_extension(export_.format))));
      break;
    case FileAction::SaveSvg:
      dialog_.open("Save figure as SVG", true,
                   export_dir_ / fmt::format("{}-{}.svg", model_->problem.name, figure_view_name(export_.figure)));
      break;
    case FileAction::SavePng:
      dialog_.open("Save PNG as", true,
                   export_dir_ / fmt::format("{}-{}.png", model_->problem.name, export_.png_panel.empty() ? "window" : export_.png_panel));
      break;
  }
}

// [SECTION] Export

namespace {
// The command that regenerates an export written to `file` (its name only: the
// command runs in the folder the file is in).
ExportRequest export_request(const Problem& problem, const ProblemSpec& spec, const ExportSettings& s,
                             const std::filesystem::path& file) {
  ExportRequest r = ExportRequest::from_problem(problem, s.name);
  r.spec = spec;  // the command is printed from what the user chose (a custom shape, loaded layouts, masks)
  r.output = file.filename().string();
  return r;
}
}  // namespace

const std::string& Workbench::export_preview(std::string& why) {
  ExportCache& c = export_cache_;
  if (!c.valid || c.problem != session_.problem || c.name != export_.name || c.format != export_.format) {
    c = ExportCache{session_.problem, export_.name, export_.format, {}, {}, true};
    try {
      check_export_name(export_.name, export_.format);
      c.text = export_text(export_request(model_->problem, session_.problem, export_, export_.name + std::string(export_extension(export_.format))),
                           export_.format);
    } catch (const Error& e) {
      c.why = e.what();
    }
  }
  why = c.why;
  return c.text;
}

const std::vector<std::string>& Workbench::export_aliases() {
  if (!aliases_ || aliases_->first != session_.problem) {
    std::vector<std::string> names;
    const Problem& p = model_->problem;
    if (p.shared.is_linear())
      for (const LayoutMatch& m : recognize(p.shared, p.element_bits)) names.push_back(m.name);
    aliases_.emplace(session_.problem, std::move(names));
  }
  return aliases_->second;
}

bool Workbench::save_export(const std::filesystem::path& path) {
  try {
    check_export_name(export_.name, export_.format);
    const std::string text = export_text(export_request(model_->problem, session_.problem, export_, path), export_.format);
    swz::write_file_atomically(path.string(), text);
    export_dir_ = path.parent_path();
    show_status(fmt::format("Exported the {} to {}", export_format_name(export_.format), path.string()));
    return true;
  } catch (const Error& e) {
    show_error(e.what());
  }
  return false;
}

void Workbench::request_save_export() {
  session_.view.panels["export"] = true;
  std::string why;
  export_preview(why);
  if (!why.empty()) {
    show_error("Nothing to export: " + why);
    return;
  }
  ask_file(FileAction::SaveExport);
}

bool Workbench::save_figure_svg(const std::filesystem::path& path) {
  try {
    FigureOptions o;
    const TraceState& t = session_.trace;
    if (export_.figure == FigureView::Tensor) {
      o.trace = t.side == Side::Store ? TracedAccess::Store : TracedAccess::Read;
      o.trace_step = t.step;
      o.trace_warp = t.warp;
    } else if (export_.figure == FigureView::Writer) {
      o.highlight_thread = session_.view.ring_warp_a * model_->problem.bank.warp_size + session_.view.ring_lane_a;
    } else if (export_.figure == FigureView::Reader) {
      o.highlight_thread = session_.view.ring_warp_b * model_->problem.bank.warp_size + session_.view.ring_lane_b;
    }
    swz::write_file_atomically(path.string(), figure_svg(model_->problem, export_.figure, o));
    export_dir_ = path.parent_path();
    show_status(fmt::format("Wrote the {} figure to {}", figure_view_name(export_.figure), path.string()));
    return true;
  } catch (const Error& e) {
    show_error(e.what());
  }
  return false;
}

void Workbench::request_figure(bool png) { ask_file(png ? FileAction::SavePng : FileAction::SaveSvg); }

void Workbench::request_capture(CaptureRequest request) {
  capture_ = std::move(request);
  capture_wait_ = 1;  // the frame that asked may still show a menu or a dialog
}

std::optional<CaptureRequest> Workbench::take_capture() {
  std::optional<CaptureRequest> c;
  c.swap(capture_);
  return c;
}

void Workbench::capture_finished(const std::filesystem::path& path, const std::string& error) {
  if (!error.empty()) {
    show_error(error);
    return;
  }
  export_dir_ = path.parent_path();
  show_status("Wrote " + path.string());
}

// [SECTION] Messages and probes

void Workbench::show_error(std::string message) { error_ = std::move(message); }
void Workbench::show_status(std::string message) { status_ = std::move(message); }

std::optional<Probe> Workbench::probe(const std::string& id) const {
  auto it = probes_.find(id);
  if (it == probes_.end()) return std::nullopt;
  return it->second;
}

bool Workbench::panel_visible(const std::string& id) const {
  auto it = session_.view.panels.find(id);
  return it == session_.view.panels.end() ? !is_tool(id) : it->second;
}

bool Workbench::is_tool(const std::string& id) const {
  return std::any_of(tools_.begin(), tools_.end(), [&](const auto& t) { return id == t->id(); });
}

void Workbench::set_focus(const std::string& panel_id) {
  const bool known = std::any_of(panels_.begin(), panels_.end(), [&](const PanelSlot& p) { return panel_id == p.panel->id(); });
  focus_ = known ? panel_id : std::string();
  if (known) session_.view.panels[panel_id] = true;
}

std::vector<std::pair<std::string, std::string>> Workbench::tile_panels() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const PanelSlot& s : panels_) out.emplace_back(s.panel->id(), s.panel->title());
  return out;
}

std::string Workbench::window_title() const {
  std::string name = session_path_ ? session_path_->filename().string() : session_.problem.preset;
  return fmt::format("Swizzle Workbench - {}{}", name, session_path_ && dirty() ? " *" : "");
}

// [SECTION] Frame

void Workbench::draw() {
  probes_.clear();
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
    ImGui::SetNextWindowSize(wide ? ImVec2(em() * 54.0f, em() * 38.0f) : ImVec2(em() * 44.0f, em() * 20.0f), ImGuiCond_FirstUseEver);
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
      if (shift || !session_path_) ask_file(FileAction::SaveSession);
      else save_session(*session_path_);
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
      if (session_path_) save_session(*session_path_);
      else ask_file(FileAction::SaveSession);
    }
    if (ImGui::MenuItem("Save As...", "Ctrl+Shift+S")) ask_file(FileAction::SaveSession);
    ImGui::Separator();
    if (ImGui::MenuItem("Open writer (A) layout...")) ask_file(FileAction::LoadWriter);
    if (ImGui::MenuItem("Open reader (B) layout...")) ask_file(FileAction::LoadReader);
    if (ImGui::MenuItem("Open shared layout...")) ask_file(FileAction::LoadShared);
    if (ImGui::MenuItem("Open kernel...")) post(cmd::show_panel("kernel", true));  // the Kernel audit tool asks for the file
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) quit_ = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Edit")) {
    const std::string undo_label = history_.can_undo() ? "Undo " + history_.undo_name() : std::string("Undo");
    const std::string redo_label = history_.can_redo() ? "Redo " + history_.redo_name() : std::string("Redo");
    if (ImGui::MenuItem(undo_label.c_str(), "Ctrl+Z", false, history_.can_undo())) undo();
    if (ImGui::MenuItem(redo_label.c_str(), "Ctrl+Shift+Z", false, history_.can_redo())) redo();
    ImGui::EndMenu();
  }
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
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("Shortcuts")) show_shortcuts_ = true;
    if (ImGui::MenuItem("About")) show_about_ = true;
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

void Workbench::tiles(float top, float bottom) {
  const float width = ImGui::GetIO().DisplaySize.x;
  const float height = std::max(1.0f, bottom - top);
  if (!focus_.empty() && !panel_visible(focus_)) focus_.clear();
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  // Double-clicking a title bar focuses that panel, or returns from focus.
  auto title_double_clicked = [] {
    if (!ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows) || !ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) return false;
    const float y = ImGui::GetIO().MousePos.y - ImGui::GetWindowPos().y;
    return y >= 0.0f && y < ImGui::GetFrameHeight();
  };
  if (!focus_.empty()) {
    for (PanelSlot& s : panels_) {
      if (focus_ != s.panel->id()) continue;
      ImGui::SetNextWindowPos(ImVec2(0.0f, top), ImGuiCond_Always);
      ImGui::SetNextWindowSize(ImVec2(width, height), ImGuiCond_Always);
      bool open = true;
      const std::string title = fmt::format("{}  (focused: double-click here or Esc to see every panel)###{}", s.panel->title(), s.panel->id());
      if (ImGui::Begin(title.c_str(), &open, flags)) {
        add_probe(std::string("panel.") + s.panel->id(), ImVec2(0.0f, top), ImVec2(width, top + height));
        PanelContext ctx{session_, *model_, trace_, *this};
        s.panel->draw(ctx);
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
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoFocusOnAppearing |
                     ImGuiWindowFlags_AlwaysVerticalScrollbar | ImGuiWindowFlags_NoNav);
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
      PanelContext ctx{session_, *model_, trace_, *this};
      s.panel->draw(ctx);
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

// The wheel over a panel that has nothing (more) to scroll in that direction scrolls the tile area.
void Workbench::forward_wheel_to_tiles(float scroll) {
  const ImGuiIO& io = ImGui::GetIO();
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  const float wheel = io.MouseWheel;
  if (wheel == 0.0f || io.KeyCtrl || !g.HoveredWindow) return;
  if (g.HoveredIdUsingMouseWheel || g.HoveredIdPreviousFrameUsingMouseWheel || (g.ActiveId != 0 && g.ActiveIdUsingMouseWheel)) return;
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
    const std::string right = fmt::format("{} | {} | {}-bit | {} banks{}", p.name, fmt::join(p.shape, "x"), p.element_bits, p.bank.banks,
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
  if (show_about_) {
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::Begin("About Swizzle Workbench", &show_about_, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
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
    case FileAction::OpenSession: open_session(*chosen); break;
    case FileAction::SaveSession: save_session(*chosen); break;
    case FileAction::LoadWriter: load_layout_file(LayoutRole::Writer, *chosen); break;
    case FileAction::LoadReader: load_layout_file(LayoutRole::Reader, *chosen); break;
    case FileAction::LoadShared: load_layout_file(LayoutRole::Shared, *chosen); break;
    case FileAction::SaveExport: save_export(*chosen); break;
    case FileAction::SaveSvg: save_figure_svg(*chosen); break;
    case FileAction::SavePng: request_capture({*chosen, export_.png_panel}); break;
  }
}

}  // namespace swz::gui
