// panel_cli.h: what a panel drew and what the CLI prints for the same problem, for tests that
// compare the two faces (the GUI test target defines SWZ_CLI_EXE as the built `swizzle`).
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "workbench.h"

namespace swz::gui::test {

// `swizzle COMMAND ARGS --json`, run as a user would (`COMMAND`: analyze, solve, ...).
inline nlohmann::json cli_json(const std::string& command_name, const std::string& args) {
  const std::string command = fmt::format("'{}' {} {} --json", SWZ_CLI_EXE, command_name, args);
  std::string out;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
    if (::pclose(pipe) != 0) ADD_FAILURE() << command << " failed";
  }
  return nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
}

// The line a panel drew, from the probe that carries it after `prefix` ("solver.cost=",
// "problem.issues.read="); "" when none was drawn.
inline std::string probe_line(const Workbench& b, const std::string& prefix) {
  for (const std::string& id : b.probe_ids())
    if (id.rfind(prefix, 0) == 0) return id.substr(prefix.size());
  return "";
}

}  // namespace swz::gui::test
