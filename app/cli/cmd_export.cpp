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

// The request: the problem's spec (the regenerating command is printed from it), or a layout on its own.
ExportRequest build_request(const Options& o) {
  ProblemArguments a = o.problem;
  if (!o.solved.empty()) use_solved(a, o.solved);
  if (a.shared && !a.preset && !a.src && !a.dst && !a.spec) {
    // A layout on its own: any shape, no accesses to analyze.
    if (a.mask || a.layout) fail("give only one of --mask, --layout and --shared");
    if (a.warp_size || a.write_vec_bits || a.read_vec_bits)
      fail("--warp-size and the vector widths describe a problem's accesses; a layout on its own has none (add --preset)");
    ProblemArguments numbers;  // --bits, --banks and --shape read and checked as every problem's are
    numbers.bits = a.bits;
    numbers.banks = a.banks;
    numbers.shape = a.shape;
    const ProblemSpec bits_only = parse_problem_arguments(numbers, /*check_problem=*/false);
    // --shape gives a bare Triton attribute (#ttg.nvmma_shared<...>) its tensor.
    const LayoutFile f = load_layout_file(
        *a.shared, LayoutHints{bits_only.shape, bits_only.element_bits ? std::optional<int>(bits_only.element_bits) : std::nullopt});
    if (f.kind != LayoutKind::Shared) fail("{}: expected a shared layout (offset_bases), found a distributed one", *a.shared);
    ExportRequest r = ExportRequest::from_layout(SharedLayout::from_linear(f.layout, *a.shared),
                                                 bits_only.element_bits ? bits_only.element_bits : f.element_bits.value_or(32), o.name,
                                                 *a.shared);
    if (bits_only.banks) r.bank.banks = bits_only.banks;
    r.origin_shape = bits_only.shape;  // the regenerating command reads the file as this run did
    return r;
  }
  return ExportRequest::from_spec(parse_problem_arguments(a), o.name);
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
