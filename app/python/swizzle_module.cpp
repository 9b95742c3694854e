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

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/analysis.h"
#include "swz/sim/bank.h"
#include "swz/solve/solve_report.h"

namespace py = pybind11;

namespace {

// [SECTION] JSON both ways

py::object to_python(const nlohmann::json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

// A Python value as JSON: dicts with str keys, lists, tuples, str, int, float, bool, None.
nlohmann::json from_python(const py::handle& v, int depth = 0) {
  if (depth > 64) swz::fail("nested more than 64 deep");
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

struct ProblemKwargs {
  py::object src, dst, shared, preset, mask, layout, shape, bits, banks, warp_size, write_vec_bits, read_vec_bits;
};

swz::ProblemArguments problem_arguments(const ProblemKwargs& k, GivenTexts& given) {
  swz::ProblemArguments a;
  a.src = layout_flag(k.src, "src", given);
  a.dst = layout_flag(k.dst, "dst", given);
  a.shared = layout_flag(k.shared, "shared", given);
  a.preset = flag_text(k.preset, "--preset");
  a.mask = flag_text(k.mask, "--mask");
  a.layout = flag_text(k.layout, "--layout");
  a.shape = flag_text(k.shape, "--shape", "x");
  a.bits = flag_text(k.bits, "--bits");
  a.banks = flag_text(k.banks, "--banks");
  a.warp_size = flag_text(k.warp_size, "--warp-size");
  a.write_vec_bits = flag_text(k.write_vec_bits, "--write-vec-bits");
  a.read_vec_bits = flag_text(k.read_vec_bits, "--read-vec-bits");
  return a;
}

// [SECTION] The functions

py::object analyze(const ProblemKwargs& k) {
  GivenTexts given;
  const swz::ProblemArguments a = problem_arguments(k, given);
  const swz::Problem p = swz::build_problem(swz::parse_problem_arguments(a, /*check_problem=*/true, given.source()));
  return to_python(swz::to_json(swz::analyze(p), p));
}

py::object solve(const ProblemKwargs& k, int ldmatrix, int vec_bits, bool keep_register_order) {
  GivenTexts given;
  const swz::ProblemArguments a = problem_arguments(k, given);
  swz::SolveRequest request;
  request.ldmatrix = ldmatrix;
  request.vec_bits = vec_bits;
  request.keep_order = keep_register_order;
  request.repair_masks = a.mask.has_value();
  const swz::ProblemSpec spec = swz::parse_problem_arguments(a, /*check_problem=*/true, given.source());
  return to_python(swz::to_json(swz::solve_spec(spec, request)));
}

std::string export_layout(const ProblemKwargs& k, const py::object& solved, const std::string& name,
                          const std::string& format_name) {
  const swz::ExportFormat format = swz::parse_export_format(format_name);
  swz::check_export_name(name, format);
  GivenTexts given;
  swz::ProblemArguments a = problem_arguments(k, given);
  if (!solved.is_none()) {
    // A solve() result: given in memory as the JSON `swizzle solve --json` writes.
    std::string solved_name = "the solved argument";
    if (py::isinstance<py::str>(solved)) {
      solved_name = solved.cast<std::string>();
    } else {
      nlohmann::json j;
      try {
        j = from_python(solved);
      } catch (const swz::Error& e) {
        swz::fail("{}: {}", solved_name, e.what());
      }
      given.texts[solved_name] = j.dump();
    }
    swz::use_solved(a, solved_name, given.source());
  }
  swz::ExportRequest request = swz::export_request(a, name, given.source());
  request.output = "-";  // as `swizzle export` to stdout
  return swz::export_text(request, format);
}

py::object audit(const std::string& text, const std::string& path) {
  return to_python(swz::to_json(swz::audit_module(text, path)));
}

// `swizzle audit --fix`: the module with each access's chosen suggestion applied, read back and
// audited better (ValueError, with the CLI's line, when there is nothing to fix).
std::string fix(const std::string& text, const std::string& path) { return swz::fix_module(text, swz::audit_module(text, path)); }

py::dict serve(const std::string& kind, const std::vector<std::int64_t>& addresses, const std::vector<std::int64_t>& global,
               int banks, int bank_bytes, int warp_size) {
  swz::BankModel model;
  model.banks = banks;
  model.bank_bytes = bank_bytes;
  model.warp_size = warp_size;
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
  out["floor"] = s.floor;
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
      .def("__eq__",
           [](const Layout& a, const Layout& b) { return a.file.kind == b.file.kind && a.file.layout == b.file.layout; })
      .def("__str__", [](const Layout& l) { return swz::to_triton_text(l.file.layout); });

  const auto problem = [](py::object src, py::object dst, py::object shared, py::object preset, py::object mask,
                          py::object layout, py::object shape, py::object bits, py::object banks, py::object warp_size,
                          py::object write_vec_bits, py::object read_vec_bits) {
    return ProblemKwargs{src, dst, shared, preset, mask, layout, shape, bits, banks, warp_size, write_vec_bits, read_vec_bits};
  };
  m.def(
      "analyze",
      [problem](py::object src, py::object dst, py::object shared, py::object preset, py::object mask, py::object layout,
                py::object shape, py::object bits, py::object banks, py::object warp_size, py::object write_vec_bits,
                py::object read_vec_bits) {
        return analyze(
            problem(src, dst, shared, preset, mask, layout, shape, bits, banks, warp_size, write_vec_bits, read_vec_bits));
      },
      py::arg("src") = py::none(), py::arg("dst") = py::none(), py::arg("shared") = py::none(), py::kw_only(),
      py::arg("preset") = py::none(), py::arg("mask") = py::none(), py::arg("layout") = py::none(), py::arg("shape") = py::none(),
      py::arg("bits") = py::none(), py::arg("banks") = py::none(), py::arg("warp_size") = py::none(),
      py::arg("write_vec_bits") = py::none(), py::arg("read_vec_bits") = py::none());
  m.def(
      "solve",
      [problem](py::object src, py::object dst, py::object preset, py::object mask, py::object shape, py::object bits,
                py::object banks, py::object warp_size, py::object write_vec_bits, py::object read_vec_bits, int ldmatrix,
                int vec_bits, bool keep_register_order) {
        return solve(
            problem(src, dst, py::none(), preset, mask, py::none(), shape, bits, banks, warp_size, write_vec_bits, read_vec_bits),
            ldmatrix, vec_bits, keep_register_order);
      },
      py::arg("src") = py::none(), py::arg("dst") = py::none(), py::kw_only(), py::arg("preset") = py::none(),
      py::arg("mask") = py::none(), py::arg("shape") = py::none(), py::arg("bits") = py::none(), py::arg("banks") = py::none(),
      py::arg("warp_size") = py::none(), py::arg("write_vec_bits") = py::none(), py::arg("read_vec_bits") = py::none(),
      py::arg("ldmatrix") = 0, py::arg("vec_bits") = 0, py::arg("keep_register_order") = false);
  m.def(
      "export_header",
      [problem](py::object src, py::object dst, py::object shared, py::object solved, py::object preset, py::object mask,
                py::object layout, py::object shape, py::object bits, py::object banks, py::object warp_size,
                py::object write_vec_bits, py::object read_vec_bits, const std::string& name, const std::string& format) {
        return export_layout(
            problem(src, dst, shared, preset, mask, layout, shape, bits, banks, warp_size, write_vec_bits, read_vec_bits), solved,
            name, format);
      },
      py::arg("src") = py::none(), py::arg("dst") = py::none(), py::arg("shared") = py::none(), py::kw_only(),
      py::arg("solved") = py::none(), py::arg("preset") = py::none(), py::arg("mask") = py::none(),
      py::arg("layout") = py::none(), py::arg("shape") = py::none(), py::arg("bits") = py::none(), py::arg("banks") = py::none(),
      py::arg("warp_size") = py::none(), py::arg("write_vec_bits") = py::none(), py::arg("read_vec_bits") = py::none(),
      py::arg("name") = "tile_swizzle", py::arg("format") = "header");
  m.def("audit", &audit, py::arg("ttgir"), py::kw_only(), py::arg("path") = "<string>");
  m.def("fix", &fix, py::arg("ttgir"), py::kw_only(), py::arg("path") = "<string>");
  m.def("serve", &serve, py::arg("kind"), py::arg("addresses"), py::kw_only(),
        py::arg("global_addresses") = std::vector<std::int64_t>{}, py::arg("banks") = 32, py::arg("bank_bytes") = 4,
        py::arg("warp_size") = 32);
}
