// swizzle audit: every shared-memory access of a Triton kernel's TTGIR (audit.h).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>

#include "command.h"
#include "swz/error.h"
#include "swz/io/atomic_file.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"
#include "swz/kernel/ttgir_module.h"
#include "swz/sim/gpu.h"

namespace swz::cli {
namespace {

struct Options {
  std::vector<std::string> inputs;  // .ttgir / .mlir files, directories of them, or - for stdin
  bool json = false;
  bool bench = false;
  bool fix = false;
  std::string output;  // --fix: where the patched module goes
  bool fail_on_conflict = false;
  std::string gpu;  // --gpu: price every module on this GPU, not its ttg.target's
  std::vector<std::string> arguments;  // --arg NAME=VALUE: the kernel's integer arguments
  std::string sass;                    // --sass: the kernel's SASS listing
};

// Each --arg through the core's reader; anything else is one line naming the flag.
ArgumentValues argument_values(const std::vector<std::string>& given) {
  ArgumentValues values;
  for (const std::string& g : given) {
    const auto v = read_argument_value(g);
    if (!v) fail("--arg '{}': expected NAME=VALUE with an integer VALUE (e.g. --arg K=4096)", clipped(g));
    values[v->first] = v->second;
  }
  return values;
}

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
                sub.add_option("--gpu", o->gpu,
                               "Price on this GPU (sm_80, sm_90, sm_100, gfx942, gfx950 or an alias: h100, mi300x, ...) "
                               "instead of the one the module's ttg.target names");
                sub.add_option("--arg", o->arguments,
                               "NAME=VALUE: a value of the kernel's integer argument NAME (a row pitch, a loop bound: K=4096, "
                               "a mask's bound: N=96) or of a program id (pid_n=1: the program whose masks are read, 0 "
                               "if not given), repeatable; those not given are assumed, and each line says what it took");
                sub.add_option("--sass", o->sass,
                               "The kernel's SASS (cuobjdump -sass, or Triton's kernel.asm[\"sass\"]): each cp.async is "
                               "matched to its LDGSTS, and a masked 16-byte copy priced by the predicate register ptxas "
                               "gave it (one module)");
                sub.add_flag("--fail-on-conflict", o->fail_on_conflict,
                             "Exit 1 when a modelled access has bank conflicts a legal layout removes (conflicts at the optimum "
                             "pass, with a line saying so)");
                sub.callback([o] {
                  const std::vector<std::string> files = expand(o->inputs);
                  if (o->fix && (files.size() != 1 || o->output.empty()))
                    fail("--fix takes one module and -o OUT");
                  if (!o->fix && !o->output.empty()) fail("-o goes with --fix");
                  if (!o->gpu.empty()) (void)gpu_named(o->gpu);  // an unknown name stops the run before any output
                  if (o->fix) {
                    std::error_code ec;
                    if (std::filesystem::is_directory(o->output, ec)) fail("cannot write '{}': it is a directory", o->output);
                  }
                  // Every module is read before the first is audited, so that a malformed one stops the run
                  // with its file:line before any output (the JSON stays one document).
                  // The last file read is held, so that a single dump is read once for both passes.
                  std::string stdin_text, last_file, last_text;
                  auto text_of = [&](const std::string& file) -> const std::string& {
                    if (file == "-") {
                      if (stdin_text.empty()) stdin_text = read_text_file("-", kMaxKernelBytes);
                      return stdin_text;
                    }
                    if (file != last_file) {
                      std::string().swap(last_text);  // freed before the next is read
                      last_text = read_text_file(file, kMaxKernelBytes);
                      last_file = file;
                    }
                    return last_text;
                  };
                  auto name_of = [](const std::string& file) { return file == "-" ? std::string("<stdin>") : file; };
                  std::shared_ptr<const sass::Listing> listing;
                  if (!o->sass.empty())
                    listing =
                        std::make_shared<const sass::Listing>(sass::read_listing(read_text_file(o->sass), o->sass, "LDGSTS"));
                  // A dump repeats its modules pass after pass: each distinct text is read and audited once.
                  DumpAuditor auditor(std::size_t{64} << 20, o->gpu, argument_values(o->arguments), listing);
                  std::size_t modules = 0;
                  std::vector<std::vector<ttgir::ModuleSpan>> spans_of_file;  // each file's modules, found once
                  const auto checking = std::chrono::steady_clock::now();
                  for (const std::string& file : files) {
                    const std::string& text = text_of(file);
                    const auto& spans = spans_of_file.emplace_back(ttgir::split_modules(text));
                    if (o->fix && spans.size() > 1)
                      fail("--fix takes a file of one module; '{}' holds {} (lines {} and {} begin the first two)", name_of(file),
                           spans.size(), spans[0].first_line, spans[1].first_line);
                    for (std::size_t i = 0; i < spans.size(); ++i)
                      auditor.check(text, name_of(file), spans[i], static_cast<int>(i) + 1, static_cast<int>(spans.size()));
                    modules += spans.size();
                  }
                  if (listing && modules != 1)
                    fail("--sass {} is one kernel's listing: give it one module ({} given)", o->sass, modules);
                  const double read_ms =
                      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - checking).count();
                  // One module prints its report; several print {"modules": [...]}, one report at a time
                  // (a dump of thousands of modules is never held whole).
                  const bool several = modules > 1;
                  if (o->json && several) std::fputs("{\n  \"modules\": [\n", stdout);
                  std::size_t printed = 0, lines = 0, accesses = 0;
                  double audit_ms = 0;
                  int conflicted = 0, at_optimum = 0;
                  for (std::size_t f = 0; f < files.size(); ++f) {
                    const std::string& file = files[f];
                    const std::string& text = text_of(file);
                    const std::string path = name_of(file);
                    const auto& spans = spans_of_file[f];
                    for (std::size_t i = 0; i < spans.size(); ++i) {
                      const auto start = std::chrono::steady_clock::now();
                      const AuditReport report =
                          auditor.audit(text, path, spans[i], static_cast<int>(i) + 1, static_cast<int>(spans.size()));
                      audit_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
                      const AuditCounts counts = count_accesses(report);
                      conflicted += counts.conflicted;
                      at_optimum += counts.at_optimum;
                      if (o->fix) {
                        const std::string fixed = fix_module(text, report);
                        std::size_t applied = 0;
                        for (const auto& s : report.suggestions) applied += s.chosen ? 1 : 0;
                        write_file_atomically(o->output, fixed);
                        if (!o->json)
                          fmt::print("{}: {} suggestion{} applied, written to {}\n", path, applied, applied == 1 ? "" : "s",
                                     o->output);
                      }
                      if (o->json && several)
                        std::fputs(fmt::format("{}{}", printed++ ? ",\n" : "",
                                               to_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace))
                                       .c_str(),
                                   stdout);
                      else if (o->json)
                        print_json(to_json(report));
                      else if (!o->fix)
                        fmt::print("{}", format_audit(report));
                      lines += static_cast<std::size_t>(report.lines);
                      accesses += report.accesses.size();
                    }
                  }
                  if (o->bench)
                    fmt::print(stderr,
                               "bench: {} module{}, {} lines read in {:.1f} ms, {} accesses audited in {:.1f} ms ({} of the "
                               "modules audited, the rest repeat one)\n",
                               modules, modules == 1 ? "" : "s", lines, read_ms, accesses, audit_ms, auditor.audits_done());
                  if (o->json && several) std::fputs("\n  ]\n}\n", stdout);
                  // Conflicts a legal layout removes fail; those already at the best legal layout pass, said so.
                  const int removable = conflicted - at_optimum;
                  if (o->fail_on_conflict && removable > 0)
                    throw Failure(1, fmt::format("{} modelled access{} with bank conflicts a legal layout removes{}", removable,
                                                 removable == 1 ? "" : "es",
                                                 at_optimum ? fmt::format(" ({} more at the optimum)", at_optimum) : ""));
                  if (o->fail_on_conflict && at_optimum > 0)
                    fmt::print(o->json ? stderr : stdout,
                               "--fail-on-conflict: passed: the {} conflicted access{} {} at the optimum (no legal shared layout "
                               "does better; the solver's for its buffer weighed)\n",
                               at_optimum, at_optimum == 1 ? "" : "es", at_optimum == 1 ? "is" : "are");
                });
              }}};

}  // namespace
}  // namespace swz::cli
