// workbench.cpp: the Workbench's construction, crash recovery, commands, messages and probes (workbench.h);
// files and export: workbench_files.cpp; one frame: workbench_frame.cpp.
#include "workbench.h"

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
#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/export/svg.h"
#include "swz/io/layout_io.h"
#include "swz/layout/recognize.h"
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
  show_first_run_hint_ = options_.first_run_hint && first_start();  // before this run writes a last session
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
    show_status(offer.session_file
                    ? fmt::format("Recovered the work on {} from the last run", offer.session_file->filename().string())
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
  const auto stamp =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
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

// [SECTION] Messages and probes

void Workbench::show_error(std::string message) { error_ = std::move(message); }
void Workbench::show_status(std::string message) { status_ = std::move(message); }

std::optional<Probe> Workbench::probe(const std::string& id) const {
  auto it = probes_.find(id);
  if (it == probes_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> Workbench::probe_ids() const {
  std::vector<std::string> out;
  for (const auto& [id, probe] : probes_) out.push_back(id);
  return out;
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

}  // namespace swz::gui
