// workbench.h: the application without the window: session, model, history,
// panels, menus, shortcuts, dialogs. One call to draw() builds one ImGui frame
// (between ImGui::NewFrame and ImGui::Render); the platform layer owns the
// window and GL. Tests drive it frame by frame.
#pragma once

#include <imgui.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commands.h"
#include "file_dialog.h"
#include "model.h"
#include "panel.h"
#include "session.h"
#include "solver_state.h"
#include "swz/export/export.h"
#include "swz/export/svg.h"
#include "swz/kernel/audit.h"

namespace swz::gui {

struct WorkbenchOptions {
  std::optional<std::filesystem::path> session_file;  // open this session file at start
  std::optional<ProblemSpec> start;                   // else start on this problem
  bool restore_last = true;                           // else, when neither is given, reopen the last session
  bool autosave = true;                               // keep the last-session file current
  bool first_run_hint = false;                        // on a first start (getting_started.h), offer the first lesson
};

// What the Export window hands over: the name, the format and the figure chosen.
struct ExportSettings {
  std::string name = "tile_swizzle";
  ExportFormat format = ExportFormat::Header;
  FigureView figure = FigureView::Tensor;  // SVG figure
  std::string png_panel = "tensor";        // panel written as PNG ("" = the whole window)
};

// A PNG of a panel (or of the whole window), taken from the frame after the request.
struct CaptureRequest {
  std::filesystem::path path;
  std::string panel;  // panel id; "" = the whole window
};

// Work left behind by a run that did not close normally (a crash, a kill): the
// last autosave, and the session file that run had open.
struct RecoveryOffer {
  std::filesystem::path autosave;                     // the last-session file it kept current
  std::optional<std::filesystem::path> session_file;  // the file it had open, if any
  long pid = 0;                                       // the process that did not finish
  std::string summary;                                // "transpose16x32, masks 2,4,8,16"
};

// A screen rectangle a panel registered this frame under a stable id ("grid.cell.0.1").
struct Probe {
  ImVec2 min, max;
  ImVec2 center() const { return ImVec2((min.x + max.x) * 0.5f, (min.y + max.y) * 0.5f); }
};

class Workbench {
 public:
  explicit Workbench(WorkbenchOptions options = {});
  ~Workbench();
  Workbench(const Workbench&) = delete;
  Workbench& operator=(const Workbench&) = delete;

  // One frame of UI. Applies the commands the panels posted at its end.
  void draw();

  // Commands: post() queues for the end of the frame; apply() runs one now.
  void post(Command command);
  bool apply(const Command& command);  // false when it failed (error() says why)
  void apply_pending();
  // Runs `action` after this frame's panels are drawn (for actions that replace the model).
  void defer(std::function<void()> action) { deferred_.push_back(std::move(action)); }
  bool undo();
  bool redo();
  const History& history() const { return history_; }

  const Session& session() const { return session_; }
  const Model& model() const { return *model_; }
  const StepTrace& trace() const { return trace_; }

  // Session files. Failures leave the state and the file as they were, and show the error.
  bool open_session(const std::filesystem::path& path);
  bool save_session(const std::filesystem::path& path);
  bool save_last_session();
  const std::optional<std::filesystem::path>& session_path() const { return session_path_; }
  bool dirty() const;

  // Loads a layout file for one role (any supported text format).
  bool load_layout_file(LayoutRole role, const std::filesystem::path& path);
  void request_open(LayoutRole role);

  // Any file a user hands over whole (the browser's file picker, a drop): a TTGIR module is audited,
  // a session opens, a layout (JSON, Triton text, CuTe printout) loads as the shared layout or, when
  // distributed, as the writer (A). The same calls File > Open makes; false and the error otherwise.
  bool open_file(const std::filesystem::path& path);

  // The solver's answer for the current problem (cached), and the grid family in the background.
  const SolverAnswer& solver_answer() { return solver_.answer(model_->problem, solver_question()); }
  std::optional<FamilyAnswer> solver_family() { return solver_.family(model_->problem, session_.problem); }
  const SolverState& solver() const { return solver_; }

  // Export: the current problem's shared layout in the chosen format. The text is
  // cached per (problem, name, format); `why` says why there is none (a bad name,
  // a layout the format cannot express).
  ExportSettings& export_settings() { return export_; }
  const std::string& export_preview(std::string& why);
  // The names the current shared layout also goes by (CuTe, TMA, Triton), computed once per problem.
  const std::vector<std::string>& export_aliases();
  bool save_export(const std::filesystem::path& path);  // atomic; status or error
  void request_save_export();                           // Ctrl+E: ask where, then save
  bool save_figure_svg(const std::filesystem::path& path);
  void request_figure(bool png);  // ask where, then write the SVG / PNG
  // PNG capture: the platform loop takes the pixels of the frame after the request.
  void request_capture(CaptureRequest request);
  bool capture_due() const { return capture_ && capture_wait_ == 0; }
  std::optional<CaptureRequest> take_capture();
  void capture_finished(const std::filesystem::path& path, const std::string& error);

  // Kernel audit (Tools > Kernel audit): a TTGIR file audited by the core, one report per module
  // (an MLIR_ENABLE_DUMP file holds several), the access loaded into the workbench, and its fix.
  struct KernelAudit {
    std::filesystem::path path;
    std::string text;                  // the file as read: fix_module patches it
    std::vector<AuditReport> modules;  // the file's modules, audited
    int module = 0;                    // the one shown
    int selected = -1;                 // its access loaded into the workbench, or -1
    std::string error;                 // why the last file could not be read
    ProblemSpec loaded;                // the problem that access loaded as (audit_problem)
    ProblemSpec question;              // what the solver answers for it (audit_layouts)
    std::string arguments;             // the Arguments field as last applied ("K=4096 N=96 pid_n=1"), as --arg
    std::filesystem::path sass_path;   // the kernel's SASS listing (`--sass`), or empty
    std::shared_ptr<const sass::Listing> sass;
  };
  const KernelAudit& kernel_audit() const { return kernel_; }
  bool open_kernel(const std::filesystem::path& path);  // reads, audits, loads the first conflicted access
  // Audits the open kernel again with these values of its integer arguments and program ids
  // (`swizzle audit --arg` for each item of "M=128 N=96, pid_n=1"); bad text or a name the kernel
  // lacks is shown and keeps the last audit.
  bool set_kernel_arguments(const std::string& text);
  // Audits the open kernel again with its SASS listing (`swizzle audit --sass`: each cp.async matched
  // to its LDGSTS, a masked 16-byte copy priced by its predicate register); an empty path drops it.
  // A listing that is not SASS or not this kernel's is shown and keeps the last audit.
  bool set_kernel_sass(const std::filesystem::path& path);
  void request_kernel_sass();  // ask which listing
  void show_kernel_module(int module);
  // Makes access `index` of the module shown the workbench's problem (one undoable edit): its
  // shape, element width, writer, reader and shared layout, the vector widths of its instructions.
  bool load_kernel_access(int index);
  // What the Solver answers: the session's problem; while it is a loaded kernel access with its
  // layouts as loaded (any shared layout), the kernel's layouts with no instruction fixed, as
  // `swizzle solve --src --dst` on them answers (audit_layouts), not the instructions it issues now.
  ProblemSpec solver_question() const;
  // The module shown with its chosen suggestions applied (core fix_module), written atomically
  // to `path`; the source file only when `path` names it.
  bool save_kernel_fix(const std::filesystem::path& path);
  void request_open_kernel();  // ask which file
  void request_kernel_fix();   // ask where, proposing <stem>.fixed<ext> beside the source
  std::filesystem::path proposed_fix_path() const;

  const FileDialog& file_dialog() const { return dialog_; }
  const std::string& error() const { return error_; }
  const std::string& status() const { return status_; }
  void show_error(std::string message);
  void show_status(std::string message);

  std::optional<Probe> probe(const std::string& id) const;
  std::vector<std::string> probe_ids() const;  // every probe of the last frame (tests)
  void add_probe(const std::string& id, ImVec2 min, ImVec2 max) { probes_[id] = Probe{min, max}; }

  // Crash recovery: an interactive workbench (autosave on) leaves a marker while it
  // runs; finding one from a process that is gone means the last run crashed, and
  // the next start offers its autosaved work instead of reopening it silently.
  const std::optional<RecoveryOffer>& recovery_offer() const { return recovery_; }
  bool recover();           // reopen the autosaved work (and the file it belonged to)
  void discard_recovery();  // start fresh; the autosave is kept aside, not deleted
  static std::filesystem::path running_marker_path();

  // Help > Getting started, and the hint a first start shows (getting_started.h).
  void show_getting_started(bool shown) { show_getting_started_ = shown; }
  bool getting_started_shown() const { return show_getting_started_; }
  bool first_run_hint_shown() const { return show_first_run_hint_; }

  bool quit_requested() const { return quit_; }
  std::string window_title() const;
  float ui_scale() const { return session_.view.ui_scale; }
  bool panel_visible(const std::string& id) const;
  // Tool windows (Export, GPU) float over the tiles and start hidden.
  bool is_tool(const std::string& id) const;
  // Focus: one tiled panel fills the whole tile area (a projector at a large UI
  // scale); "" = the usual arrangement. Double-click a title bar, View > Focus, Esc.
  void set_focus(const std::string& panel_id);
  const std::string& focus() const { return focus_; }
  // Width kept free at the right of the tile area this frame (the lesson card docks there);
  // set while the menus are drawn, before the tiles.
  void reserve_right(float width) { reserved_right_ = std::max(0.0f, width); }
  float reserved_right() const { return reserved_right_; }
  // Panels drawn as a blank veil this frame (an open quiz question whose answer they show);
  // set while the menus are drawn, before the tiles. Each veiled panel has a probe "panel.ID.veiled".
  void veil(std::vector<std::string> panel_ids, std::string why) {
    veiled_ = std::move(panel_ids);
    veil_reason_ = std::move(why);
  }
  bool veiled(const std::string& id) const { return std::find(veiled_.begin(), veiled_.end(), id) != veiled_.end(); }
  // The access whose counts (verdict, step count, bank bars) the trace hides this frame: a lesson's open
  // prediction asks for them. The trace panel has probes "trace.verdict.store.veiled" / ".read.veiled".
  void veil_counts(std::optional<Side> side) { veiled_counts_ = side; }
  std::optional<Side> veiled_counts() const { return veiled_counts_; }
  // (id, title) of every tiled panel, in View-menu order.
  std::vector<std::pair<std::string, std::string>> tile_panels() const;

 private:
  enum class FileAction {
    OpenSession,
    SaveSession,
    LoadWriter,
    LoadReader,
    LoadShared,
    SaveExport,
    SaveSvg,
    SavePng,
    OpenKernel,
    SaveKernelFix,
    OpenKernelSass
  };
  void menus();
  void shortcuts();
  void tiles(float top, float bottom);
  void forward_wheel_to_tiles(float scroll);
  void draw_panel_or_veil(Panel& panel);
  void tool_windows();
  void recovery_window();
  void check_for_crash();
  void write_running_marker();
  void status_bar(float height);
  void help_windows();
  void dialogs();
  void play(float dt);
  void autosave();
  void ask_file(FileAction action);
  void retrace();
  bool rebuild(const ProblemSpec& state);

  WorkbenchOptions options_;
  Session session_;
  std::unique_ptr<Model> model_;
  StepTrace trace_;
  History history_;
  SolverState solver_;
  std::vector<Command> pending_;
  std::vector<std::function<void()>> deferred_;
  std::vector<PanelSlot> panels_;
  std::vector<std::unique_ptr<Panel>> tools_;
  std::map<std::string, Probe> probes_;
  std::string error_, status_;
  std::optional<std::filesystem::path> session_path_;
  std::optional<Session> saved_;  // the session as last saved or opened, for the dirty mark
  FileDialog dialog_;
  FileAction dialog_action_ = FileAction::OpenSession;
  float play_clock_ = 0.0f;
  std::optional<Session> autosaved_;  // what the last-session file holds
  double changed_at_ = -1.0;          // ImGui time the session first differed from it
  bool show_about_ = false, show_shortcuts_ = false, quit_ = false;
  bool show_getting_started_ = false, show_first_run_hint_ = false;
  ExportSettings export_;
  KernelAudit kernel_;
  std::filesystem::path export_dir_ = ".";  // where the last export or figure went
  struct ExportCache {
    ProblemSpec problem;
    std::string name;
    ExportFormat format = ExportFormat::Header;
    std::string text, why;
    bool valid = false;
  } export_cache_;
  std::optional<std::pair<ProblemSpec, std::vector<std::string>>> aliases_;
  std::string focus_;
  // The tile area scrolls when the panels' least heights at this UI scale do not fit.
  bool tiles_scroll_ = false;
  float tiles_scroll_to_ = -1.0f;  // a scroll position to set next frame (the wheel over a panel)
  float tiles_scroll_max_ = 0.0f;
  float reserved_right_ = 0.0f;
  std::vector<std::string> veiled_;
  std::string veil_reason_;
  std::optional<Side> veiled_counts_;
  std::optional<RecoveryOffer> recovery_;
  bool recovery_popup_opened_ = false;
  std::optional<CaptureRequest> capture_;
  int capture_wait_ = 0;
  bool capturing_ = false;  // this frame is the one captured: tool windows stay hidden
};

}  // namespace swz::gui
