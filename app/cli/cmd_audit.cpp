// swizzle audit: every shared-memory access of a Triton kernel's TTGIR (audit.h).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <iterator>

#include "command.h"
#include "swz/error.h"
#include "swz/io/atomic_file.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"

namespace swz::cli {
namespace {

struct Options {
  std::vector<std::string> inputs;  // .ttgir / .mlir files, directories of them, or - for stdin
  bool json = false;
  bool bench = false;
  bool fix = false;
  std::string output;  // --fix: where the patched module goes
  bool fail_on_conflict = false;
};

// The files named: a directory stands for its .ttgir / .mlir files, in name order.
std::vector<std::string> expand(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (in != "-" && std::filesystem::is_directory(in, ec)) {
      std::vector<std::string> found;
      for (const auto& e : std::filesystem::directory_iterator(in, ec)) {
        const std::string ext = e.path().extension().string();
        if (e.is_regular_file(ec) && (ext == ".ttgir" || ext == ".mlir")) found.push_back(e.path().string());
      }
      if (ec) fail("cannot list '{}': {}", in, ec.message());
      if (found.empty()) fail("'{}' holds no .ttgir or .mlir file", in);
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(in);
    }
  }
  return files;
}

Register reg{{"audit", "Bank conflicts of every shared-memory access in a Triton TTGIR module", 25, [](CLI::App& sub) {
                auto o = std::make_shared<Options>();
                sub.add_option("kernel", o->inputs,
                               "TTGIR modules (.ttgir or .mlir), directories of them; - reads stdin")
                    ->required();
                sub.add_flag("--json", o->json, "One JSON object on stdout: {\"accesses\": [...], \"suggestions\": [...]}");
                sub.add_flag("--bench", o->bench, "Also print how long reading and auditing took (stderr)");
                sub.add_flag("--fix", o->fix, "Write the module with every suggestion applied to -o (one input)");
                sub.add_option("-o,--output", o->output, "--fix: the patched module's path");
                sub.add_flag("--fail-on-conflict", o->fail_on_conflict, "Exit 1 when a modelled access has bank conflicts");
                sub.callback([o] {
                  const std::vector<std::string> files = expand(o->inputs);
                  if (o->fix && (files.size() != 1 || o->output.empty()))
                    fail("--fix takes one module and -o OUT");
                  if (!o->fix && !o->output.empty()) fail("-o goes with --fix");
                  if (o->fix) {
                    std::error_code ec;
                    if (std::filesystem::is_directory(o->output, ec)) fail("cannot write '{}': it is a directory", o->output);
                  }
                  nlohmann::json reports = nlohmann::json::array();
                  int conflicted = 0;
                  for (const std::string& file : files) {
                    const auto start = std::chrono::steady_clock::now();
                    std::string text;
                    std::string path = file;
                    if (file == "-") {
                      text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
                      path = "<stdin>";
                    } else {
                      text = read_text_file(file, std::size_t{1} << 30);
                    }
                    const ttgir::Module module = ttgir::read_module(text, path);
                    const auto read = std::chrono::steady_clock::now();
                    const AuditReport report = audit(module);
                    const auto done = std::chrono::steady_clock::now();
                    conflicted += count_accesses(report).conflicted;
                    if (o->fix) {
                      const std::string fixed = fix_module(text, report);
                      std::size_t applied = 0;
                      for (const auto& s : report.suggestions) applied += s.chosen ? 1 : 0;
                      write_file_atomically(o->output, fixed);
                      if (!o->json)
                        fmt::print("{}: {} suggestion{} applied, written to {}\n", path, applied, applied == 1 ? "" : "s",
                                   o->output);
                    }
                    if (o->json)
                      reports.push_back(to_json(report));
                    else if (!o->fix)
                      fmt::print("{}", format_audit(report));
                    if (o->bench) {
                      auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
                      fmt::print(stderr, "bench: {} lines read in {:.1f} ms, audited in {:.1f} ms\n", module.lines, ms(start, read),
                                 ms(read, done));
                    }
                  }
                  if (o->json) print_json(reports.size() == 1 ? reports[0] : nlohmann::json{{"modules", reports}});
                  if (o->fail_on_conflict && conflicted > 0)
                    throw Failure(1, fmt::format("{} modelled access{} with bank conflicts", conflicted, conflicted == 1 ? "" : "es"));
                });
              }}};

}  // namespace
}  // namespace swz::cli
