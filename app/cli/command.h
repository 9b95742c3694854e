// command.h: subcommands register themselves; main() builds the CLI from the registry.
//
// A command file defines one static Register object:
//   static swz::cli::Register reg{{"analyze", "Conflicts of a preset ...", 20, [](CLI::App& sub) { ... }}};
// `setup` adds the options and a callback; the callback throws swz::Error on bad input
// (main prints it as one line and exits 2).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace swz::cli {

struct Command {
  std::string name;
  std::string help;
  int order = 100;  // position in --help
  std::function<void(CLI::App&)> setup;
};

std::vector<Command>& registry();

struct Register {
  explicit Register(Command c) { registry().push_back(std::move(c)); }
};

// One JSON object on stdout.
void print_json(const nlohmann::json& j);

}  // namespace swz::cli
