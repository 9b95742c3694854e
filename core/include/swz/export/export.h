// export.h: hand a chosen shared layout over to a kernel.
//
// The workbench designs a layout; export writes it in the forms kernels and
// compilers read:
//
//   Header   self-contained C++17 (g++, clang++, nvcc): namespace <name> with the
//            constants, constexpr offset(row, col) and its inverse, a byte form
//   Triton   Gluon's SharedLinearLayout and the #ttg.shared_linear MLIR attribute
//   Cute     a CuTe Swizzle<B,M,S> composed with its shape:stride layout (when it is one)
//   Json     the layout file (offset_bases), readable again with --shared
//
// The header computes offsets with shifts, ANDs and XORs only. A linear layout
// is a matrix over F2: offset bit k is the XOR of some coordinate bits. Group
// the matrix entries by how far a bit moves (k - i) and every group becomes one
// term "(coord & mask) << shift":
//
//   offset(m, n) = 32*m + (n ^ 2m)   (16x32 tile, masks 2,4,8,16)
//   offset bit:   8  7  6  5 | 4     3     2     1     0
//                 m3 m2 m1 m0| n4^m3 n3^m2 n2^m1 n1^m0 n0
//   = ((row & 0xfu) << 5) ^ ((row & 0xfu) << 1) ^ (col & 0x1fu)
//
// Everything is deterministic (same request, same bytes). Text that comes from
// input (descriptions, file names, commands) only ever lands inside `//`
// comments, reduced to printable ASCII, so it cannot end the comment; the
// namespace name is checked to be a C++ identifier and not a keyword.
#pragma once

#include "swz/io/atomic_file.h"  // export and figure output is saved with it

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "swz/problem/problem.h"
#include "swz/problem/problem_spec.h"

namespace swz {

enum class ExportFormat { Header, Triton, Cute, Json };

struct ExportRequest {
  std::string name = "tile_swizzle";  // namespace / variable name (checked by check_export_name)
  SharedLayout shared;                // the layout to export; header, triton, cute and json need it linear
  int element_bits = 32;              // 4, 8, 16, 32 or 64
  BankModel bank;                     // for the constants and the offset-bit roles
  std::optional<Problem> problem;     // when known: the accesses and their predicted wavefronts go into the comments
  std::optional<ProblemSpec> spec;    // the problem as stated: the regenerating command is printed from it
  std::string layout_origin;          // a layout on its own: the file it came from
  std::vector<std::int64_t> origin_shape;  // the --shape that file was read with (a bare Triton attribute); empty: none
  std::string output;                 // the file it is written to, for the command; "" = <name><extension>, "-" = stdout
  std::string command;                // the command that regenerates the output; "" = default_command()

  // The spec's problem: its current shared layout, element width and bank model.
  static ExportRequest from_spec(const ProblemSpec& spec, std::string name);
  // A problem without its spec (the command then names the layout's JSON file).
  static ExportRequest from_problem(const Problem& problem, std::string name);
  // A layout on its own (no accesses known), read from `origin` when that is a file.
  static ExportRequest from_layout(SharedLayout shared, int element_bits, std::string name, std::string origin = {});
};

// The output in one format (dispatches to the functions below).
std::string export_text(const ExportRequest& request, ExportFormat format);
// One line when the request's problem has bank conflicts, "" when it has none or no accesses (a
// layout on its own): each conflicted side's wavefronts against its ideal, and how to get the least
// (`swizzle solve`, then `export --solved`). Export writes the layout all the same; a front end
// shows the line beside it, so a conflicted layout is never handed over without a word.
std::string export_conflict_warning(const ExportRequest& request);

std::string export_header(const ExportRequest& request);
std::string export_triton(const ExportRequest& request);
// Throws swz::Error when the layout is not a CuTe swizzle of a shape:stride layout.
std::string export_cute(const ExportRequest& request);
// The layout file: {"name", "offset_bases", "block_bases", "shape", "element_bits"}.
std::string export_json(const ExportRequest& request);

// "header" / "triton" / "cute" / "json"; parse throws naming the known formats.
ExportFormat parse_export_format(std::string_view text);
std::string_view export_format_name(ExportFormat format);
// File name extension usually given to a format (".h", ".py", ".hpp", ".json").
std::string_view export_extension(ExportFormat format);

// Why `name` cannot name the export ("" when it can): not a C++ identifier, a
// keyword, reserved (leading underscore + capital, double underscore), a
// <cstdint> macro, too long; for Triton also a Python keyword.
std::string export_name_problem(std::string_view name, ExportFormat format = ExportFormat::Header);
void check_export_name(std::string_view name, ExportFormat format = ExportFormat::Header);  // throws swz::Error with that reason

// `swizzle export ...` with the spec's flags (problem_arguments), or for a layout
// on its own `--shared FILE` (its origin, else `<name>.json`, the file
// `--format json` writes), then --name, --format and -o.
std::string default_command(const ExportRequest& request, ExportFormat format, const std::string& output_path = {});

// Command-line words joined for a POSIX shell, quoting where needed.
std::string shell_join(const std::vector<std::string>& words);

// Writes `contents` to `path` through a temporary file in the same directory
// and a rename, so readers see the old file or the new one, never a mix.


// A `swizzle solve --json` result: the problem it solved ("preset", optional)
// and the layout it found ("shared": an offset_bases object).
struct SolvedLayout {
  std::string preset;  // "" when the result does not name one
  SharedLayout shared;
  std::optional<int> element_bits;
};
SolvedLayout solved_layout_from_json(const nlohmann::json& result, const std::string& origin);
SolvedLayout load_solved_layout(const std::string& path, const TextSource& files = {});

// --solved NAME: a solve result is the problem's shared layout (--shared NAME), and the preset it
// names (when it names one and no --preset or --src is given) is the problem's. `files` as in
// parse_problem_arguments.
void use_solved(ProblemArguments& arguments, const std::string& solved, const TextSource& files = {});
// What `swizzle export` exports for the problem's flags: the spec's problem, or with --shared (and
// --bits, --banks, --shape) alone a layout on its own, any shape, no accesses.
ExportRequest export_request(const ProblemArguments& arguments, std::string name, const TextSource& files = {});

}  // namespace swz
