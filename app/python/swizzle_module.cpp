// swizzle._core: the Python face of the core. It converts arguments to the core's types, calls
// the functions the CLI's commands call, and hands back the JSON those commands print, as Python
// dicts (through the json module, so every key the core adds arrives with no change here). Errors
// are the core's: swz::Error becomes ValueError with the line `swizzle` prints after "error: ".
//
// Layout arguments: a Layout (or a dict, read as one) is given to the core in memory under a name
// (its origin, else "the src argument", ...) through a TextSource, in place of the file the CLI's
// flag names; a str is a file name, as on the command line.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/export/layout_figure.h"
#include "swz/export/svg.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"
#include "swz/io/limits.h"
#include "swz/kernel/audit.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/analysis.h"
#include "swz/sim/bank.h"
#include "swz/sim/gpu.h"
#include "swz/solve/solve_report.h"

namespace py = pybind11;

namespace {

// [SECTION] JSON both ways

py::object to_python(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// A Python value as JSON: dicts with str keys, lists, tuples, str, int, float, bool, None.
nlohmann::json from_python(const py::handle& v, int depth = 0) {
  swz::check_nesting(depth, "the value");  // the bound every reader keeps (limits.h)
  if (v.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>();
  if (py::isinstance<py::int_>(v)) {
    try {
      return v.cast<std::int64_t>();
    } catch (const py::cast_error&) {
      swz::fail("the number {} is out of range", py::str(v).cast<std::string>());
    }
  }
  if (py::isinstance<py::float_>(v)) return v.cast<double>();
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    nlohmann::json out = nlohmann::json::array();
    for (const py::handle item : v) out.push_back(from_python(item, depth + 1));
    return out;
  }
  if (py::isinstance<py::dict>(v)) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : v.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key)) swz::fail("a key {} is not a string", py::repr(key).cast<std::string>());
      out[key.cast<std::string>()] = from_python(value, depth + 1);
    }
    return out;
  }
  swz::fail("a {} is not a JSON value", py::type::of(v).attr("__name__").cast<std::string>());
}

// [SECTION] Layout

// A layout as the core read it, and the canonical JSON it hands the core again (shape and element
// width included, so the problem's --shape is not needed twice).
struct Layout {
  swz::LayoutFile file;
  std::string origin;  // the file it came from, or "" (given as text or a dict)

  std::string json_text() const { return swz::layout_to_json(file.layout, file.element_bits).dump(); }
  // The core's figure of the layout alone, titled by its file ("layout" when it has none).
  std::string svg(int element_bits = 0) const {
    return swz::layout_figure_svg(file, origin.empty() ? "layout" : origin, element_bits);
  }
};

swz::LayoutHints hints_of(const std::optional<std::vector<std::int64_t>>& shape, std::optional<int> bits) {
  return swz::LayoutHints{shape.value_or(std::vector<std::int64_t>{}), bits};
}

Layout layout_from(const py::object& source, const std::optional<std::vector<std::int64_t>>& shape, std::optional<int> bits) {
  if (py::isinstance<py::str>(source))
    return Layout{swz::parse_layout_text(source.cast<std::string>(), "layout", hints_of(shape, bits)), ""};
  if (!py::isinstance<py::dict>(source))
    swz::fail("layout: expected a dict or a str, not {}", py::type::of(source).attr("__name__").cast<std::string>());
  nlohmann::json j;
  try {
    j = from_python(source);
  } catch (const swz::Error& e) {
    swz::fail("layout: {}", e.what());
  }
  swz::LayoutFile file = swz::layout_from_json(j);
  swz::check_given_shape(file, hints_of(shape, bits), "layout");
  return Layout{std::move(file), ""};
}

// [SECTION] Problem arguments

// The layouts given in memory, by the name the flag holds.
struct GivenTexts {
  std::map<std::string, std::string> texts;
  swz::TextSource source() const {
    if (texts.empty()) return {};
    return [this](const std::string& name) {
      const auto it = texts.find(name);
      return it != texts.end() ? it->second : swz::read_text_file(name);
    };
  }
};

// A flag's text from a Python value: None (absent), str (as typed), int, or a list of ints joined by `sep`.
std::optional<std::string> flag_text(const py::object& v, const char* flag, const char* sep = ",") {
  if (v.is_none()) return std::nullopt;
  if (py::isinstance<py::bool_>(v)) swz::fail("{}: expected a whole number, got {}", flag, py::repr(v).cast<std::string>());
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::isinstance<py::int_>(v)) return py::str(v).cast<std::string>();
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    std::string out;
    for (const py::handle item : v) {
      if (!py::isinstance<py::int_>(item) || py::isinstance<py::bool_>(item))
        swz::fail("{}: expected whole numbers, got {}", flag, py::repr(item).cast<std::string>());
      out += (out.empty() ? "" : sep) + py::str(item).cast<std::string>();
    }
    return out;
  }
  swz::fail("{}: expected a str, an int or a list of ints, not {}", flag, py::type::of(v).attr("__name__").cast<std::string>());
}

// A layout flag: a str names a file (as on the command line); a Layout or a dict is given in memory.
std::optional<std::string> layout_flag(const py::object& v, const char* argument, GivenTexts& given) {
  if (v.is_none()) return std::nullopt;
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  const Layout layout = py::isinstance<Layout>(v) ? v.cast<Layout>() : layout_from(v, std::nullopt, std::nullopt);
  std::string name = layout.origin.empty() ? std::string("the ") + argument + " argument" : layout.origin;
  const std::string text = layout.json_text();
  if (const auto it = given.texts.find(name); it != given.texts.end() && it->second != text)
    name = std::string("the ") + argument + " argument";  // two layouts of one origin: name this one by its argument
  given.texts[name] = text;
  return name;
}

// A JSON flag (spec, solved): a str names a file (as on the command line); a dict is given in
// memory, as its JSON text, under `name`.
std::optional<std::string> json_flag(const py::object& v, const std::string& name, GivenTexts& given) {
  if (v.is_none()) return std::nullopt;
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  nlohmann::json j;
  try {
    j = from_python(v);
  } catch (const swz::Error& e) {
    swz::fail("{}: {}", name, e.what());
  }
  given.texts[name] = j.dump();
  return name;
}

// The Python name of a problem flag: "--write-matrix" -> "write_matrix".
std::string argument_name(const swz::ProblemFlag& flag) {
  std::string name = std::string(flag.flag).substr(2);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// The problem's keyword arguments, one per flag of the core's problem_flags() (the flags the CLI's
// commands take), less those in `except` (a command without that flag). None is a flag left out.
// Layout flags (src, dst, shared) take a Layout or a dict too, and spec a dict: given in memory.
swz::ProblemArguments problem_arguments(const py::dict& kwargs, GivenTexts& given,
                                        std::initializer_list<std::string_view> except = {}) {
  swz::ProblemArguments a;
  for (const auto& [key, value] : kwargs) {
    const std::string name = py::str(key).cast<std::string>();
    const auto& flags = swz::problem_flags();
    const auto flag = std::find_if(flags.begin(), flags.end(), [&](const swz::ProblemFlag& f) {
      return argument_name(f) == name && std::find(except.begin(), except.end(), f.flag) == except.end();
    });
    if (flag == flags.end()) throw py::type_error("'" + name + "' is not a problem argument");
    const py::object v = py::reinterpret_borrow<py::object>(value);
    std::optional<std::string>& slot = a.slot(flag->flag);
    if (name == "src" || name == "dst" || name == "shared" || name == "global_layout")
      slot = layout_flag(v, name.c_str(), given);
    else if (name == "spec")
      slot = json_flag(v, "the spec argument", given);
    else
      slot = flag_text(v, flag->flag, name == "shape" ? "x" : ",");
  }
  return a;
}

// [SECTION] The functions

py::object analyze(const py::kwargs& problem) {
  GivenTexts given;
  const swz::ProblemArguments a = problem_arguments(problem, given);
  const swz::Problem p = swz::build_problem(swz::parse_problem_arguments(a, /*check_problem=*/true, given.source()));
  return to_python(swz::to_json(swz::analyze(p), p));
}

py::object solve(int ldmatrix, int vec_bits, bool keep_register_order, const py::kwargs& problem) {
  GivenTexts given;
  // Less the flags `swizzle solve` leaves out (cmd_solve.cpp): it finds the shared layout.
  const swz::ProblemArguments a = problem_arguments(problem, given, /*except=*/{"--layout", "--shared"});
  swz::SolveRequest request;
  request.ldmatrix = ldmatrix;
  request.vec_bits = vec_bits;
  request.keep_order = keep_register_order;
  request.repair_masks = a.mask.has_value();
  const swz::ProblemSpec spec = swz::parse_problem_arguments(a, /*check_problem=*/true, given.source());
  return to_python(swz::to_json(swz::solve_spec(spec, request)));
}

std::string export_layout(const py::object& solved, const std::string& name, const std::string& format_name,
                          const py::kwargs& problem) {
  const swz::ExportFormat format = swz::parse_export_format(format_name);
  swz::check_export_name(name, format);
  GivenTexts given;
  swz::ProblemArguments a = problem_arguments(problem, given);
  // A solve() result: given in memory as the JSON `swizzle solve --json` writes.
  if (const auto solved_name = json_flag(solved, "the solved argument", given)) swz::use_solved(a, *solved_name, given.source());
  swz::ExportRequest request = swz::export_request(a, name, given.source());
  request.output = "-";  // as `swizzle export` to stdout
  return swz::export_text(request, format);
}

// `swizzle figure` to stdout: the SVG of one view of the problem (with `solved`, of a solve() result's layout).
std::string figure(const py::object& solved, const std::string& view_name, const py::kwargs& problem) {
  const swz::FigureView view = swz::parse_figure_view(view_name);
  GivenTexts given;
  swz::ProblemArguments a = problem_arguments(problem, given);
  if (const auto solved_name = json_flag(solved, "the solved argument", given)) swz::use_solved(a, *solved_name, given.source());
  return swz::figure_svg(swz::build_problem(swz::parse_problem_arguments(a, /*check_problem=*/true, given.source())), view);
}

// An SVG document as HTML's inline <svg> (no XML declaration), for notebooks that show HTML.
std::string inline_svg(const std::string& svg) { return svg.substr(std::min(svg.find("<svg"), svg.size())); }

// `swizzle audit --json [--gpu NAME] [--arg NAME=VALUE]... [--sass FILE]` on one module's text; `sass`
// is the listing's text ("" : none).
py::object audit(const std::string& text, const std::string& path, const std::string& gpu, const swz::ArgumentValues& args,
                 const std::string& sass) {
  if (sass.empty()) return to_python(swz::to_json(swz::audit_module(text, path, gpu, args)));
  const swz::sass::Listing listing = swz::sass::read_listing(sass, "<sass>", "LDGSTS");
  return to_python(swz::to_json(swz::audit_module(text, path, gpu, args, &listing)));
}

// `swizzle audit --fix`: the module with each access's chosen suggestion applied, read back and
// audited better (ValueError, with the CLI's line, when there is nothing to fix).
std::string fix(const std::string& text, const std::string& path, const std::string& gpu, const swz::ArgumentValues& args) {
  return swz::fix_module(text, swz::audit_module(text, path, gpu, args));
}

py::dict serve(const std::string& kind, const std::vector<std::int64_t>& addresses, const std::vector<std::int64_t>& global,
               const std::optional<std::string>& gpu, std::optional<int> banks, std::optional<int> bank_bytes,
               std::optional<int> warp_size) {
  // The GPU's model (the default: sm_90), with the counts given over it.
  swz::BankModel model = gpu ? swz::gpu_named(*gpu).bank : swz::BankModel{};
  model.banks = banks.value_or(model.banks);
  model.bank_bytes = bank_bytes.value_or(model.bank_bytes);
  model.warp_size = warp_size.value_or(model.warp_size);
  swz::check_bank_model(model);
  swz::WarpRequest request{swz::instruction_kind_named(kind), addresses, global};
  swz::check_request(request, model);
  const swz::Service s = swz::serve(request, model);
  py::dict out;
  out["kind"] = request.kind.name();
  out["wavefronts"] = s.wavefronts;
  out["ideal"] = s.ideal;
  out["conflicts"] = s.wavefronts - s.ideal;
  out["phases"] = s.phases;
  out["lanes_per_phase"] = s.lanes_per_phase;
  out["merged"] = s.merged;
  out["modelled"] = s.modelled;
  out["write_only_wavefronts"] = s.write_only_wavefronts >= 0 ? py::object(py::int_(s.write_only_wavefronts)) : py::none();
  out["rule"] = s.rule;
  out["pass_wavefronts"] = s.pass_wavefronts;
  out["bank_words"] = s.bank_words;
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "The swizzle workbench's core (see the swizzle package for the documented API).";
  m.attr("version") = SWZ_VERSION;
  // The core's errors, as the CLI prints them after "swizzle: error: ".
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const swz::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const nlohmann::json::exception& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  py::class_<Layout>(m, "Layout", R"(A linear layout: distributed (register, lane, warp -> tensor coordinates) or shared
(offset -> tensor coordinates), as the core reads it.

Layout(source, *, shape=None, bits=None) reads `source`: a dict in the layout-file form
({"offset_bases": [[0, 1], ...], "shape": [16, 32]}, or reg_bases / lane_bases / warp_bases), or
text in any form the CLI reads: a Triton layout attribute (#ttg.blocked<...>, #ttg.nvmma_shared<...>,
bare or in its tensor / memdesc type), Triton's LinearLayout printout, a CuTe printout
(Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)) or the JSON text. `shape` (and `bits`) give
a bare attribute its tensor, as the CLI's --shape / --bits do. Layout.load(path) reads a file and
keeps the path as the layout's origin, so results name it as the CLI does.

str(layout) is Triton's printout; to_dict() the layout file; to_text(format) any text form.)")
      .def(py::init(&layout_from), py::arg("source"), py::kw_only(), py::arg("shape") = py::none(), py::arg("bits") = py::none())
      .def_static(
          "load",
          [](const std::string& path, const std::optional<std::vector<std::int64_t>>& shape, std::optional<int> bits) {
            return Layout{swz::load_layout_file(path, hints_of(shape, bits)), path};
          },
          py::arg("path"), py::kw_only(), py::arg("shape") = py::none(), py::arg("bits") = py::none(),
          "Reads a layout file (any form the CLI reads); shape / bits as the CLI's --shape / --bits.")
      .def_property_readonly(
          "kind", [](const Layout& l) { return l.file.kind == swz::LayoutKind::Shared ? "shared" : "distributed"; },
          "\"distributed\" or \"shared\"")
      .def_property_readonly(
          "shape", [](const Layout& l) { return l.file.layout.shape(); }, "The tensor's shape, dim0 first")
      .def_property_readonly(
          "element_bits", [](const Layout& l) { return l.file.element_bits; }, "Element width, when the source gave one")
      .def_property_readonly(
          "origin", [](const Layout& l) { return l.origin; }, "The file it was read from, or \"\"")
      .def(
          "to_dict", [](const Layout& l) { return to_python(swz::layout_to_json(l.file.layout, l.file.element_bits)); },
          "The layout file's dict (Gluon's names: reg_bases / lane_bases / warp_bases or offset_bases, shape)")
      .def(
          "to_text",
          [](const Layout& l, const std::string& format) { return swz::write_layout(l.file, swz::parse_text_format(format)); },
          py::arg("format"),
          "The layout as text: \"json\", \"triton\", \"mlir\" or \"cute\" (ValueError when it has no such form)")
      .def(
          "to_triton", [](const Layout& l) { return swz::write_layout(l.file, swz::TextFormat::Triton); },
          "Triton's LinearLayout::toString() form")
      .def(
          "to_mlir", [](const Layout& l) { return swz::write_layout(l.file, swz::TextFormat::Mlir); },
          "The #ttg.linear / #ttg.shared_linear attribute (in its type when the bases do not give the shape)")
      .def(
          "to_cute", [](const Layout& l) { return swz::write_layout(l.file, swz::TextFormat::Cute); },
          "CuTe's Swizzle<B,M,S> o shape:stride form of a shared layout (ValueError when it has none)")
      .def("__repr__",
           [](const Layout& l) {
             std::string shape;
             for (std::int64_t n : l.file.layout.shape()) shape += (shape.empty() ? "" : "x") + std::to_string(n);
             return "Layout(" + std::string(l.file.kind == swz::LayoutKind::Shared ? "shared " : "distributed ") + shape +
                    (l.origin.empty() ? "" : ", '" + l.origin + "'") + ")";
           })
      .def(
          "figure", [](const Layout& l, std::optional<int> bits) { return l.svg(bits.value_or(0)); }, py::kw_only(),
          py::arg("bits") = py::none(),
          "SVG: a shared layout's tensor colored by bank (its element width, else `bits`, else 32), a distributed one's owners")
      .def(
          "_repr_svg_", [](const Layout& l) { return l.svg(); }, "Jupyter's picture of the layout: figure()")
      .def(
          "_repr_html_", [](const Layout& l) { return inline_svg(l.svg()); }, "figure() as inline HTML")
      .def("__eq__",
           [](const Layout& a, const Layout& b) { return a.file.kind == b.file.kind && a.file.layout == b.file.layout; })
      .def("__str__", [](const Layout& l) { return swz::to_triton_text(l.file.layout); });

  // The problem's arguments are keywords, one per flag the CLI's commands take (problem_flags()).
  m.def("analyze", &analyze, "The problem's keyword arguments, as `swizzle analyze --json`");
  m.def("solve", &solve, py::kw_only(), py::arg("ldmatrix") = 0, py::arg("vec_bits") = 0, py::arg("keep_register_order") = false,
        "The problem's keyword arguments, as `swizzle solve --json`");
  m.def("export_header", &export_layout, py::kw_only(), py::arg("solved") = py::none(), py::arg("name") = "tile_swizzle",
        py::arg("format") = "header", "The problem's keyword arguments, as `swizzle export`");
  m.def("figure", &figure, py::kw_only(), py::arg("solved") = py::none(), py::arg("view") = "tensor",
        "The problem's keyword arguments, as `swizzle figure` (SVG)");
  m.def("inline_svg", &inline_svg, py::arg("svg"));
  m.def("audit", &audit, py::arg("ttgir"), py::kw_only(), py::arg("path") = "<string>", py::arg("gpu") = "",
        py::arg("args") = swz::ArgumentValues{}, py::arg("sass") = "");
  m.def("fix", &fix, py::arg("ttgir"), py::kw_only(), py::arg("path") = "<string>", py::arg("gpu") = "",
        py::arg("args") = swz::ArgumentValues{});
  m.def("serve", &serve, py::arg("kind"), py::arg("addresses"), py::kw_only(),
        py::arg("global_addresses") = std::vector<std::int64_t>{}, py::arg("gpu") = py::none(), py::arg("banks") = py::none(),
        py::arg("bank_bytes") = py::none(), py::arg("warp_size") = py::none());
}
