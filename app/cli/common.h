// common.h: options shared by subcommands (problem selection, bank model).
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "swz/layout_io.h"
#include "swz/problem.h"

namespace swz::cli {

struct ProblemOptions {
  std::string preset;          // --preset
  std::string masks;           // --mask 2,4,8,16
  bool masks_given = false;
  std::string variant;         // --layout NAME (a preset's named layout)
  std::string shared_file;     // --shared S.json
  int banks = 0;               // --banks (0 = the preset's)
};

// Adds --preset, --mask, --layout, --shared, --banks.
void add_problem_options(CLI::App& app, ProblemOptions& o, bool need_preset = true);
// Builds the problem: preset (default transpose16x32), then masks / named layout / shared file.
Problem load_problem(const ProblemOptions& o);

// Reads a shared layout file (any supported format) into a SharedLayout for `shape`.
SharedLayout load_shared_file(const std::string& path, const std::vector<std::int64_t>& expected_shape);
// The same from a file already read (`path` names it in messages).
SharedLayout shared_from_file(const LayoutFile& file, const std::string& path, const std::vector<std::int64_t>& expected_shape);

}  // namespace swz::cli
