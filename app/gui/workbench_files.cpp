// workbench_files.cpp: the Workbench's files: sessions, layout files, the file dialog's actions, export, figures and captures
// (workbench.h).
#include <GLFW/glfw3.h>  // key codes only: the platform layer feeds GLFW keys to ImGui
#include <fmt/format.h>
#include <imgui_internal.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <fstream>

#include "classroom.h"
#include "host.h"
#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/export/svg.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"
#include "swz/layout/recognize.h"
#include "theme.h"
#include "workbench.h"

namespace swz::gui {

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
    hand_over_saved_file(path);
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
      fail("{}: expected a {} layout, found a {} one", path.string(),
           want_shared ? "shared (offset_bases)" : "distributed (register/lane/warp)",
           f.kind == LayoutKind::Shared ? "shared" : "distributed");
    // Normalised through the JSON form, so a session round trip gives back the same layout.
    SpecLayout loaded{layout_from_json(layout_to_json(f.layout)).layout, path.filename().string()};
    return apply(cmd::load_layout(role, std::move(loaded)));
  } catch (const Error& e) {
    show_error(e.what());
  }
  return false;
}

bool Workbench::open_file(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".ttgir" || ext == ".mlir") return open_kernel(path);  // shows the Kernel audit, or the error
  if (ext == ".json") {
    try {
      const auto text = parse_json_or_discarded(read_text_file(path.string()), path.string());
      if (text.is_object() && text.contains("problem")) return open_session(path);  // a session names its problem
    } catch (const Error& e) {
      show_error(e.what());
      return false;
    }
  }
  try {
    const LayoutFile f = swz::load_layout_file(path.string());
    return load_layout_file(f.kind == LayoutKind::Shared ? LayoutRole::Shared : LayoutRole::Writer, path);
  } catch (const Error& e) {
    show_error(e.what());
  }
  return false;
}

void Workbench::request_open(LayoutRole role) {
  ask_file(role == LayoutRole::Writer   ? FileAction::LoadWriter
           : role == LayoutRole::Reader ? FileAction::LoadReader
                                        : FileAction::LoadShared);
}

void Workbench::ask_file(FileAction action) {
  dialog_action_ = action;
  std::error_code ec;
  std::filesystem::path start = session_path_ ? *session_path_ : std::filesystem::current_path(ec);
  switch (action) {
    case FileAction::OpenSession:
      dialog_.open("Open session", false, start);
      break;
    case FileAction::SaveSession:
      dialog_.open("Save session as", true, session_path_ ? *session_path_ : start / "session.json");
      break;
    case FileAction::LoadWriter:
      dialog_.open("Open writer (A) layout", false, start);
      break;
    case FileAction::LoadReader:
      dialog_.open("Open reader (B) layout", false, start);
      break;
    case FileAction::LoadShared:
      dialog_.open("Open shared layout", false, start);
      break;
    case FileAction::SaveExport:
      dialog_.open(fmt::format("Export {} as", export_format_name(export_.format)), true,
                   export_dir_ / (export_.name + std::string(export_extension(export_.format))));
      break;
    case FileAction::SaveSvg:
      dialog_.open("Save figure as SVG", true,
                   export_dir_ / fmt::format("{}-{}.svg", model_->problem.name, figure_view_name(export_.figure)));
      break;
    case FileAction::OpenKernel:
      dialog_.open("Open kernel (TTGIR)", false, kernel_.path.empty() ? std::filesystem::current_path(ec) : kernel_.path);
      break;
    case FileAction::SaveKernelFix:
      dialog_.open("Save fixed module as", true, proposed_fix_path());
      break;
    case FileAction::OpenKernelSass:
      dialog_.open("Open the kernel's SASS (cuobjdump -sass, Triton's asm[\"sass\"])", false,
                   kernel_.sass_path.empty() ? kernel_.path.parent_path() : kernel_.sass_path);
      break;
    case FileAction::SavePng:
      dialog_.open(
          "Save PNG as", true,
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
      c.text = export_text(export_request(model_->problem, session_.problem, export_,
                                          export_.name + std::string(export_extension(export_.format))),
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
    hand_over_saved_file(path);
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
    hand_over_saved_file(path);
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
  hand_over_saved_file(path);
}

}  // namespace swz::gui
