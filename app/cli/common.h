// common.h: options shared by subcommands (the problem's flags, shared layout files).
#pragma once

#include <CLI/CLI.hpp>
#include <initializer_list>
#include <optional>
#include <string>

#include "swz/io/layout_io.h"
#include "swz/problem/problem_spec.h"

namespace swz::cli {

// Adds the problem's flags (problem_spec.h: --spec, --preset, --mask, --layout, --shared,
// --src, --dst, --shape, --bits, --banks, --warp-size, --write-vec-bits, --read-vec-bits),
// less those in `except` (a subcommand that gives one of those names its own meaning).
void add_problem_options(CLI::App& app, ProblemArguments& arguments, std::initializer_list<const char*> except = {});
// The checked spec and its problem (core parses and checks; errors name the flag).
inline Problem load_problem(const ProblemArguments& arguments) { return build_problem(parse_problem_arguments(arguments)); }

// Reads a shared layout file (any supported format) into a SharedLayout for `shape`.
SharedLayout load_shared_file(const std::string& path, const std::vector<std::int64_t>& expected_shape);
// The same from a file already read (`path` names it in messages).
SharedLayout shared_from_file(const LayoutFile& file, const std::string& path, const std::vector<std::int64_t>& expected_shape);

}  // namespace swz::cli
