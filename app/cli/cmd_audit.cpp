// swizzle audit: every shared-memory access of a Triton kernel's TTGIR (audit.h).
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <iterator>

#include "command.h"
#include "swz/kernel/audit.h"
#include "swz/error.h"
#include "swz/io/layout_io.h"

namespace swz::cli {
namespace {

struct Options {
  std::string input;  // .ttgir / .mlir, or - for stdin
  bool json = false;
  bool bench = false;
};

Register reg{{"audit", "Bank conflicts of every shared-memory access in a Triton TTGIR module", 25, [](CLI::App& sub) {
                auto o = std::make_shared<Options>();
                sub.add_option("kernel", o->input, "TTGIR module (.ttgir or .mlir; - reads stdin)")->required();
                sub.add_flag("--json", o->json, "One JSON object on stdout: {\"accesses\": [...]}");
                sub.add_flag("--bench", o->bench, "Also print how long reading and auditing took (stderr)");
                sub.callback([o] {
                  const auto start = std::chrono::steady_clock::now();
                  std::string text;
                  std::string path = o->input;
                  if (o->input == "-") {
                    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
                    path = "<stdin>";
                  } else {
                    text = read_text_file(o->input, std::size_t{1} << 30);
                  }
                  const ttgir::Module module = ttgir::read_module(text, path);
                  const auto read = std::chrono::steady_clock::now();
                  const AuditReport report = audit(module);
                  const auto done = std::chrono::steady_clock::now();
                  if (o->json)
                    print_json(to_json(report));
                  else
                    fmt::print("{}", format_audit(report));
                  if (o->bench) {
                    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
                    fmt::print(stderr, "bench: {} lines read in {:.1f} ms, audited in {:.1f} ms\n", module.lines, ms(start, read),
                               ms(read, done));
                  }
                });
              }}};

}  // namespace
}  // namespace swz::cli
