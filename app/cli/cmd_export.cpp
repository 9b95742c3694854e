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
#include "swz/export.h"
#include "swz/layout_io.h"

namespace swz::cli {
namespace {

struct Options {
  ProblemOptions problem;
  std::string solved;  // --solved
  std::string name = "tile_swizzle";
  std::string format = "header";
  std::string output;    // -o
  bool json = false;     // --json
  int element_bits = 0;  // --element-bits, for a layout file without a problem (0 = the file's, else 32)
};

// The command line that regenerates the output, options in one fixed order.
std::string regenerating_command(const Options& o) {
  std::vector<std::string> words{"swizzle", "export"};
  const auto add = [&words](const char* flag, const std::string& value) {
    if (!value.empty()) words.insert(words.end(), {flag, value});
  };
  add("--preset", o.problem.preset);
  if (o.problem.masks_given) words.insert(words.end(), {"--mask", o.problem.masks});
  add("--layout", o.problem.variant);
  add("--shared", o.problem.shared_file);
  add("--solved", o.solved);
  if (o.problem.banks) add("--banks", std::to_string(o.problem.banks));
  if (o.element_bits) add("--element-bits", std::to_string(o.element_bits));
  add("--name", o.name);
  if (o.format != "header") add("--format", o.format);
  add("-o", o.output);
  return shell_join(words);
}

int layout_element_bits(const Options& o, std::optional<int> from_file) {
  if (o.element_bits) return o.element_bits;
  return from_file.value_or(32);
}

ExportRequest build_request(const Options& o) {
  const ProblemOptions& po = o.problem;
  if (!o.solved.empty()) {
    if (po.masks_given || !po.variant.empty() || !po.shared_file.empty())
      fail("--solved gives the layout: leave out --mask, --layout and --shared");
    SolvedLayout s = load_solved_layout(o.solved);
    const std::string preset = !po.preset.empty() ? po.preset : s.preset;
    if (preset.empty()) {
      ExportRequest r = ExportRequest::from_layout(std::move(s.shared), layout_element_bits(o, s.element_bits), o.name);
      if (po.banks) r.bank.banks = po.banks;
      return r;
    }
    ProblemOptions with_preset = po;
    with_preset.preset = preset;
    Problem p = load_problem(with_preset);
    p.set_shared(std::move(s.shared));
    return ExportRequest::from_problem(p, o.name);
  }
  if (!po.shared_file.empty() && po.preset.empty()) {
    // A layout on its own: any shape, no accesses to analyze.
    if (po.masks_given || !po.variant.empty()) fail("give only one of --mask, --layout and --shared");
    const LayoutFile f = load_layout_file(po.shared_file);
    if (f.kind != LayoutKind::Shared)
      fail("{}: expected a shared layout (offset_bases), found a distributed one", po.shared_file);
    ExportRequest r = ExportRequest::from_layout(SharedLayout::from_linear(f.layout, po.shared_file),
                                                 layout_element_bits(o, f.element_bits), o.name);
    if (po.banks) r.bank.banks = po.banks;
    return r;
  }
  if (o.element_bits)
    fail("--element-bits applies to a layout file exported without --preset; the preset fixes the element type");
  return ExportRequest::from_problem(load_problem(po), o.name);
}

Register reg{{"export", "Write the layout as a C++ header, Triton, CuTe or JSON", 60, [](CLI::App& sub) {
                auto o = std::make_shared<Options>();
                add_problem_options(sub, o->problem, /*need_preset=*/false);
                sub.add_option("--solved", o->solved, "A `swizzle solve --json` result to export");
                sub.add_option("--name", o->name, "Namespace (header) or variable name: a C++ identifier")->capture_default_str();
                sub.add_option("--format", o->format, "header, triton (Gluon / MLIR), cute or json")->capture_default_str();
                sub.add_flag("--json", o->json, "One JSON object on stdout: what was written where, in which format");
                sub.add_option("-o,--output", o->output, "Output file, replaced atomically (default: stdout)");
                sub.add_option("--element-bits", o->element_bits,
                               "Element width for --shared without --preset (default: the file's, else 32)");
                sub.callback([o] {
                  const ExportFormat format = parse_export_format(o->format);
                  check_export_name(o->name, format);
                  ExportRequest request = build_request(*o);
                  request.command = regenerating_command(*o);
                  const std::string text = export_text(request, format);
                  if (!o->output.empty()) write_file_atomically(o->output, text);
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
