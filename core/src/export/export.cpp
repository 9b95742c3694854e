// export.cpp: names, formats, the regenerating command and solve results (export.h).
// The forms themselves: export_header.cpp (C++ header), export_forms.cpp (Triton,
// CuTe, JSON); what they share: export_parts.h.
#include "swz/export/export.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

#include "export_parts.h"
#include "swz/error.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"
#include "swz/io/limits.h"
#include "swz/layout/recognize.h"
#include "swz/sim/analysis.h"

namespace swz {

// [SECTION] Names, formats, commands

namespace {
constexpr std::array<std::string_view, 4> kFormatNames{"header", "triton", "cute", "json"};
constexpr std::array<std::string_view, 4> kFormatExtensions{".h", ".py", ".hpp", ".json"};

// C++20 keywords and alternative tokens, and names the generated code relies on.
constexpr std::string_view kCppReserved[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char", "char8_t",
    "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr", "constinit", "const_cast", "continue",
    "co_await", "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
    "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable",
    "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
    "register", "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast",
    "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union",
    "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
    // not keywords, but a namespace of that name breaks the header or its includes
    "std", "cute", "main", "uint32_t", "NULL", "assert", "errno", "defined"};
// Python keywords and the module alias the Triton output imports.
constexpr std::string_view kPythonReserved[] = {
    "False",  "None",     "True", "and",    "as",      "assert", "async",  "await",  "break", "class",  "continue", "def",
    "del",    "elif",     "else", "except", "finally", "for",    "from",   "global", "if",    "import", "in",       "is",
    "lambda", "nonlocal", "not",  "or",     "pass",    "raise",  "return", "try",    "while", "with",   "yield",    "ttgl"};
// Macros <cstdint> defines (INT8_MAX, UINT32_C, SIZE_MAX, ...) would expand inside the header.
constexpr std::string_view kMacroPrefixes[] = {"INT", "UINT", "SIZE_", "PTRDIFF_", "SIG_ATOMIC_", "WCHAR_", "WINT_"};

template <std::size_t N>
bool contains(const std::string_view (&list)[N], std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}
}  // namespace

std::string export_name_problem(std::string_view name, ExportFormat format) {
  if (name.empty()) return "the name is empty; give a C++ identifier such as tile_swizzle";
  if (name.size() > 64) return fmt::format("the name is {} characters long; at most 64", name.size());
  const auto is_alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  for (char c : name)
    if (!is_alpha(c) && !is_digit(c))
      return fmt::format("'{}' is not a C++ identifier: only letters, digits and '_' may appear (found '{}')",
                         export_parts::comment_safe(name), export_parts::comment_safe(std::string_view(&c, 1)));
  if (is_digit(name[0])) return fmt::format("'{}' is not a C++ identifier: it starts with a digit", name);
  if (name.find("__") != std::string_view::npos || (name[0] == '_' && name.size() > 1 && name[1] >= 'A' && name[1] <= 'Z'))
    return fmt::format("'{}' is reserved for the implementation in C++ (double underscore, or underscore + capital)", name);
  if (contains(kCppReserved, name))
    return fmt::format("'{}' is a C++ keyword or a name the generated code uses; choose another", name);
  const bool all_upper = std::none_of(name.begin(), name.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  for (std::string_view prefix : kMacroPrefixes)
    if (all_upper && name.substr(0, prefix.size()) == prefix)
      return fmt::format("'{}' may clash with a <cstdint> macro; choose another name", name);
  if (format == ExportFormat::Triton && contains(kPythonReserved, name))
    return fmt::format("'{}' is a Python keyword or a name the Triton output uses; choose another", name);
  return {};
}

void check_export_name(std::string_view name, ExportFormat format) {
  const std::string problem = export_name_problem(name, format);
  if (!problem.empty()) fail("invalid name: {}", problem);
}

ExportFormat parse_export_format(std::string_view text) {
  for (std::size_t i = 0; i < kFormatNames.size(); ++i)
    if (text == kFormatNames[i]) return static_cast<ExportFormat>(i);
  fail("unknown format '{}' (known: {})", export_parts::comment_safe(text), fmt::join(kFormatNames, ", "));
}

std::string_view export_format_name(ExportFormat format) { return kFormatNames[static_cast<std::size_t>(format)]; }
std::string_view export_extension(ExportFormat format) { return kFormatExtensions[static_cast<std::size_t>(format)]; }

std::string shell_join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ' ';
    const bool plain = !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             std::strchr("_-+=.,/:@%", c) != nullptr;
    });
    if (plain) {
      out += w;
      continue;
    }
    out += '\'';
    for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::string default_command(const ExportRequest& r, ExportFormat format, const std::string& output_path) {
  std::vector<std::string> words{"swizzle", "export"};
  if (r.spec) {
    const std::vector<std::string> problem = problem_arguments(*r.spec, r.name);
    words.insert(words.end(), problem.begin(), problem.end());
  } else {
    words.insert(words.end(), {"--shared", r.layout_origin.empty() ? r.name + ".json" : r.layout_origin});
    if (!r.origin_shape.empty() && !r.layout_origin.empty())
      words.insert(words.end(), {"--shape", fmt::format("{}", fmt::join(r.origin_shape, "x"))});
    if (!r.problem && r.element_bits != 32) words.insert(words.end(), {"--bits", std::to_string(r.element_bits)});
    if (r.problem && r.bank.banks != 32) words.insert(words.end(), {"--banks", std::to_string(r.bank.banks)});
  }
  words.insert(words.end(), {"--name", r.name});
  if (format != ExportFormat::Header) words.insert(words.end(), {"--format", std::string(export_format_name(format))});
  const std::string& out = r.output.empty() ? output_path : r.output;
  if (!out.empty() && out != "-") words.insert(words.end(), {"-o", out});
  return shell_join(words);
}

// [SECTION] Files

SolvedLayout solved_layout_from_json(const nlohmann::json& j, const std::string& origin) {
  if (!j.is_object()) fail("{}: a solve result is one JSON object", origin);
  if (!j.contains("shared")) fail("{}: no 'shared' layout in it (expected the output of `swizzle solve --json`)", origin);
  SolvedLayout s;
  if (j.contains("preset")) {
    if (!j.at("preset").is_string()) fail("{}: 'preset' must be a string", origin);
    s.preset = j.at("preset").get<std::string>();
  }
  LayoutFile f;
  try {
    f = layout_from_json(j.at("shared"));
  } catch (const Error& e) {
    fail("{}: 'shared': {}", origin, e.what());
  }
  if (f.kind != LayoutKind::Shared) fail("{}: 'shared' is a distributed layout; expected offset_bases", origin);
  s.shared = SharedLayout::from_linear(f.layout, origin);
  s.element_bits = f.element_bits;
  if (!s.element_bits && j.contains("element_bits") && j.at("element_bits").is_number_integer())
    s.element_bits = j.at("element_bits").get<int>();
  return s;
}

SolvedLayout load_solved_layout(const std::string& path, const TextSource& files) {
  return solved_layout_from_json(parse_json(read_text(path, files), path), path);
}

void use_solved(ProblemArguments& a, const std::string& solved, const TextSource& files) {
  if (a.mask || a.layout || a.shared) fail("--solved gives the layout: leave out --mask, --layout and --shared");
  const SolvedLayout s = load_solved_layout(solved, files);
  if (!a.preset && !a.src && !s.preset.empty()) a.preset = s.preset;
  a.shared = solved;
}

std::string export_conflict_warning(const ExportRequest& request) {
  if (!request.problem) return "";
  const ProblemAnalysis a = analyze(*request.problem);
  std::vector<std::string> sides;
  for (const auto& [side, access] : {std::pair{"the store", &a.store}, std::pair{"the read", &a.read}})
    if (access->simulated.wavefronts > access->simulated.ideal_wavefronts)
      sides.push_back(fmt::format("{} takes {} wavefronts per instruction (ideal {})", side, access->simulated.wavefronts,
                                  access->simulated.ideal_wavefronts));
  if (sides.empty()) return "";
  return fmt::format(
      "the layout written has bank conflicts: {}; `swizzle solve` with the same problem flags finds the least, "
      "and `swizzle export --solved RESULT.json` writes it",
      fmt::join(sides, ", "));
}

ExportRequest export_request(const ProblemArguments& a, std::string name, const TextSource& files) {
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
        *a.shared,
        LayoutHints{bits_only.shape, bits_only.element_bits ? std::optional<int>(bits_only.element_bits) : std::nullopt}, files);
    if (f.kind != LayoutKind::Shared) fail("{}: expected a shared layout (offset_bases), found a distributed one", *a.shared);
    ExportRequest r = ExportRequest::from_layout(SharedLayout::from_linear(f.layout, *a.shared),
                                                 bits_only.element_bits ? bits_only.element_bits : f.element_bits.value_or(32),
                                                 std::move(name), *a.shared);
    if (bits_only.banks) r.bank.banks = bits_only.banks;
    r.origin_shape = bits_only.shape;  // the regenerating command reads the file as this run did
    return r;
  }
  return ExportRequest::from_spec(parse_problem_arguments(a, /*check_problem=*/true, files), std::move(name));
}

}  // namespace swz
