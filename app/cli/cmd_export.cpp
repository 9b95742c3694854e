// swizzle export: the chosen layout as a C++ header, Triton, CuTe or JSON.
//
//   swizzle export --preset transpose16x32 --mask 2,4,8,16 --name tile_swizzle -o tile_swizzle.h
//   swizzle export --shared S.json --name tile_swizzle              (any shared layout, no accesses)
//   swizzle export --solved result.json --format triton              (a `swizzle solve --json` result)
#include <fmt/format.h>

#include <cstdio>

#include "command.h"
#include "common.h"
#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/io/layout_io.h"

namespace swz::cli {
namespace {

struct Options {
  ProblemArguments problem;
  std::string solved;  // --solved
  std::string name = "tile_swizzle";
  std::string format = "header";
  std::string output;  // -o
  bool json = false;   // --json
};

// The request (export.h): the problem's spec, or a layout on its own.
ExportRequest build_request(const Options& o) {
  ProblemArguments a = o.problem;
  if (!o.solved.empty()) use_solved(a, o.solved);
  return export_request(a, o.name);
}

Register reg{{"export", "Write the layout as a C++ header, Triton, CuTe or JSON", 60, [](CLI::App& sub) {
                auto o = std::make_shared<Options>();
                add_problem_options(sub, o->problem);
                sub.add_option("--solved", o->solved, "A `swizzle solve --json` result to export");
                sub.add_option("--name", o->name, "Namespace (header) or variable name: a C++ identifier")->capture_default_str();
                sub.add_option("--format", o->format, "header, triton (Gluon / MLIR), cute or json")->capture_default_str();
                sub.add_flag("--json", o->json, "One JSON object on stdout: what was written where, in which format");
                sub.add_option("-o,--output", o->output, "Output file, replaced atomically (default: stdout)");
                // The element width of a layout on its own is --bits; --element-bits is its older name.
                sub.add_option_function<std::string>("--element-bits", [o](const std::string& v) { o->problem.bits = v; })
                    ->group("");
                sub.callback([o] {
                  const ExportFormat format = parse_export_format(o->format);
                  check_export_name(o->name, format);
                  ExportRequest request = build_request(*o);
                  request.output = o->output.empty() ? "-" : o->output;
                  const std::string text = export_text(request, format);
                  if (!o->output.empty()) write_file_atomically(o->output, text);
                  // A solver's answer is the least there is; any other conflicted layout is written with a word.
                  if (o->solved.empty())
                    if (const std::string warning = export_conflict_warning(request); !warning.empty())
                      fmt::print(stderr, "swizzle export: warning: {}\n", warning);
                  if (o->json) {
                    nlohmann::json j = {{"format", o->format}, {"name", o->name}, {"bytes", text.size()}};
                    if (o->output.empty()) j["text"] = text;
                    else j["written"] = o->output;
                    print_json(j);
                  } else if (o->output.empty()) {
                    std::fputs(text.c_str(), stdout);
                  }
                });
              }}};

}  // namespace
}  // namespace swz::cli
