// workbench_kernel.cpp: the Kernel audit's state (workbench.h, KernelAudit). The core reads and
// audits the module, makes an access a problem and writes the fix; this file keeps what was read
// and asks where files go.
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "swz/error.h"
#include "swz/io/atomic_file.h"
#include "swz/io/layout_io.h"
#include "workbench.h"

namespace swz::gui {

namespace {

// The file's modules audited with these arguments, and with the kernel's SASS when given (one module).
std::vector<AuditReport> audit_kernel(const std::string& text, const std::filesystem::path& path, const std::string& arguments,
                                      const sass::Listing* listing) {
  if (!listing) return audit_modules(text, path.string(), "", read_argument_values(arguments));
  return {audit_module(text, path.string(), "", read_argument_values(arguments), listing)};
}

}  // namespace

bool Workbench::open_kernel(const std::filesystem::path& path) {
  try {
    std::string text = read_text_file(path.string(), kMaxKernelBytes);
    std::vector<AuditReport> modules = audit_modules(text, path.string());
    kernel_ = KernelAudit{path, std::move(text), std::move(modules), 0, -1, "", {}, {}, "", {}, nullptr};
  } catch (const Error& e) {
    kernel_.error = e.what();
    show_error(e.what());
    return false;
  }
  session_.view.panels["kernel"] = true;
  show_kernel_module(0);
  return true;
}

bool Workbench::set_kernel_arguments(const std::string& text) {
  if (kernel_.modules.empty()) {
    show_error("No kernel is open");
    return false;
  }
  try {
    std::vector<AuditReport> modules = audit_kernel(kernel_.text, kernel_.path, text, kernel_.sass.get());
    if (modules.size() != kernel_.modules.size()) fail("the file changed its modules");
    kernel_.modules = std::move(modules);  // the same ops in the same order: the loaded access keeps its index
    kernel_.arguments = text;
    kernel_.error.clear();
  } catch (const Error& e) {
    kernel_.error = fmt::format("Arguments: {}", e.what());
    show_error(kernel_.error);
    return false;
  }
  show_status(text.empty() ? std::string("Kernel audited with its arguments assumed")
                           : fmt::format("Kernel audited with {}", text));
  return true;
}

bool Workbench::set_kernel_sass(const std::filesystem::path& path) {
  if (kernel_.modules.empty()) {
    show_error("No kernel is open");
    return false;
  }
  try {
    std::shared_ptr<const sass::Listing> listing;
    if (!path.empty())
      listing = std::make_shared<const sass::Listing>(sass::read_listing(read_text_file(path.string()), path.string(), "LDGSTS"));
    std::vector<AuditReport> modules = audit_kernel(kernel_.text, kernel_.path, kernel_.arguments, listing.get());
    kernel_.modules = std::move(modules);  // one module with a listing: audit_module refuses more
    kernel_.module = std::min(kernel_.module, static_cast<int>(kernel_.modules.size()) - 1);
    kernel_.sass_path = path;
    kernel_.sass = std::move(listing);
    kernel_.error.clear();
  } catch (const Error& e) {
    kernel_.error = fmt::format("SASS: {}", e.what());
    show_error(kernel_.error);
    return false;
  }
  show_status(path.empty() ? std::string("Kernel audited without its SASS")
                           : fmt::format("Kernel audited with its SASS, {}", path.filename().string()));
  return true;
}

void Workbench::show_kernel_module(int module) {
  if (module < 0 || module >= static_cast<int>(kernel_.modules.size())) return;
  kernel_.module = module;
  kernel_.selected = -1;
  // The kernel's own problem in the workbench: its first conflicted access that loads, else its first that loads.
  const auto& accesses = kernel_.modules[static_cast<std::size_t>(module)].accesses;
  int first = -1;
  for (int i = 0; i < static_cast<int>(accesses.size()); ++i) {
    const AuditAccess& a = accesses[static_cast<std::size_t>(i)];
    if (!a.writer || !a.reader || !a.shared_offsets) continue;
    if (first < 0) first = i;
    if (a.wavefronts && a.ideal_wavefronts && *a.wavefronts > *a.ideal_wavefronts + 1e-9) {
      first = i;
      break;
    }
  }
  if (first >= 0) load_kernel_access(first);
}

bool Workbench::load_kernel_access(int index) {
  if (kernel_.modules.empty()) return false;
  const AuditReport& report = kernel_.modules[static_cast<std::size_t>(kernel_.module)];
  try {
    ProblemSpec spec = audit_problem(report, static_cast<std::size_t>(index));
    ProblemSpec question = audit_layouts(report, static_cast<std::size_t>(index));
    const int line = report.accesses.at(static_cast<std::size_t>(index)).line;
    if (!apply(cmd::set_problem(fmt::format("Load kernel line {}", line), spec))) return false;
    kernel_.selected = index;
    kernel_.loaded = std::move(spec);
    kernel_.question = std::move(question);
    return true;
  } catch (const Error& e) {
    show_error(e.what());
  }
  return false;
}

ProblemSpec Workbench::solver_question() const {
  if (kernel_.selected < 0) return session_.problem;
  const auto layouts = [](ProblemSpec s) {  // the solver finds the shared layout: any one asks the same
    s.shared.reset();
    s.variant.clear();
    s.masks.clear();
    return s;
  };
  return layouts(session_.problem) == layouts(kernel_.loaded) ? kernel_.question : session_.problem;
}

std::filesystem::path Workbench::proposed_fix_path() const {
  const std::filesystem::path& p = kernel_.path;
  return p.parent_path() / (p.stem().string() + ".fixed" + p.extension().string());
}

bool Workbench::save_kernel_fix(const std::filesystem::path& path) {
  if (kernel_.modules.empty()) {
    show_error("No kernel is open");
    return false;
  }
  const AuditReport& report = kernel_.modules[static_cast<std::size_t>(kernel_.module)];
  try {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) fail("cannot write '{}': it is a directory", path.string());
    const std::string fixed = fix_module(kernel_.text, report);  // the module shown, alone
    swz::write_file_atomically(path.string(), fixed);
    std::size_t applied = 0;
    for (const auto& s : report.suggestions) applied += s.chosen ? 1 : 0;
    show_status(fmt::format("{} suggestion{} applied, written to {}", applied, applied == 1 ? "" : "s", path.string()));
    return true;
  } catch (const Error& e) {
    show_error(e.what());
  }
  return false;
}

void Workbench::request_open_kernel() {
  session_.view.panels["kernel"] = true;
  ask_file(FileAction::OpenKernel);
}

void Workbench::request_kernel_sass() {
  if (kernel_.modules.empty()) {
    show_error("No kernel is open");
    return;
  }
  ask_file(FileAction::OpenKernelSass);
}

void Workbench::request_kernel_fix() {
  if (kernel_.modules.empty()) {
    show_error("No kernel is open");
    return;
  }
  ask_file(FileAction::SaveKernelFix);
}

}  // namespace swz::gui
