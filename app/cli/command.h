// command.h: subcommands register themselves; main() builds the CLI from the registry.
//
// A command file defines one static Register object:
//   static swz::cli::Register reg{{"analyze", "Conflicts of a preset ...", 20, [](CLI::App& sub) { ... }}};
// `setup` adds the options and a callback; the callback throws swz::Error on bad input
// (main prints it as one line and exits 2), or Failure for any other way a run ends in error.
//
// Failures and --json, one rule for every command (main.cpp applies it): a run that fails prints
// one line on stderr and exits with its status (2 bad input, 3 no GPU here, 1 a run that went
// wrong); when --json is on the command line, stdout also gets one JSON object,
// {"error": <that line's message>}, plus the facts the failure carries (Failure::facts).
#pragma once

#include <functional>
#include <stdexcept>
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

// A run that ends in error other than bad input: main prints "swizzle <command>: <what()>" on
// stderr, with --json the object {"error": what()} merged with `facts`, and exits with `status`.
class Failure : public std::runtime_error {
 public:
  Failure(int exit_status, const std::string& message, nlohmann::json extra = nlohmann::json::object())
      : std::runtime_error(message), status(exit_status), facts(std::move(extra)) {}
  int status;
  nlohmann::json facts;
};

// The rule's output, for a run that must end where it stands (worker threads mid-task, then _Exit):
// with `json`, {"error": message} merged with `facts` on stdout; then "<prefix>: <message>" on stderr.
void print_failure(bool json, const std::string& prefix, const std::string& message,
                   const nlohmann::json& facts = nlohmann::json::object());

// No GPU can run it here (status 3): {"available": false, "reason": reason} for --json.
[[noreturn]] void gpu_unavailable(const std::string& reason);
// Runs a call into the GPU backend: no GPU there is gpu_unavailable (status 3), a bad input stays
// status 2, any other failure of the run is status 1 ("the GPU run failed: ...").
void on_gpu(const std::function<void()>& run);

}  // namespace swz::cli
