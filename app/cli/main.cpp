// swizzle: the command-line face of the core, for scripts and CI.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string_view>

#include "command.h"
#include "swz/error.h"
#include "swz/gpu.h"
#include "unknown_flags.h"

namespace swz::cli {

std::vector<Command>& registry() {
  static std::vector<Command> commands;
  return commands;
}

// Strings that reached the JSON from outside (a path, a flag's value) may hold bytes that are not
// UTF-8: they print as U+FFFD rather than stopping the run.
void print_json(const nlohmann::json& j) {
  std::fputs((j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n").c_str(), stdout);
}

void print_failure(bool json, const std::string& prefix, const std::string& message, const nlohmann::json& facts) {
  if (json) {
    nlohmann::json j = {{"error", valid_utf8(message)}};
    j.update(facts);
    print_json(j);
    std::fflush(stdout);
  }
  fmt::print(stderr, "{}: {}\n", prefix, valid_utf8(message));
  std::fflush(stderr);
}

void gpu_unavailable(const std::string& reason) {
  throw Failure(gpu::kExitUnavailable, "no GPU available: " + reason, {{"available", false}, {"reason", reason}});
}

void on_gpu(const std::function<void()>& run) {
  try {
    run();
  } catch (const gpu::Unavailable& e) {
    gpu_unavailable(e.what());
  } catch (const swz::Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Failure(1, fmt::format("the GPU run failed: {}", e.what()));
  }
}

}  // namespace swz::cli

namespace {

// --json anywhere before a "--": the rule in command.h holds even when parsing stopped before the flag.
bool json_requested(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--") return false;
    if (word == "--json") return true;
  }
  return false;
}

// The one way a run ends in error: a line on stderr, the JSON object with --json, the status.
int fail_with(bool json, int status, const std::string& prefix, const std::string& message,
              const nlohmann::json& facts = nlohmann::json::object()) {
  swz::cli::print_failure(json, prefix, message, facts);
  return status;
}

// Whole-number options say so when given something else (CLI11 alone says only "--vec-bits: abc").
// A transform runs before the option's other checks (a range, a set of allowed values).
// Nested subcommands (`quiz show`) too.
void expect_whole_numbers(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) expect_whole_numbers(*sub);
  for (CLI::Option* option : app.get_options()) {
    const std::string type = option->get_type_name();
    const bool is_unsigned = type.rfind("UINT", 0) == 0;
    if (!is_unsigned && type.rfind("INT", 0) != 0) continue;
    option->transform(CLI::Validator(
        [is_unsigned](std::string& text) -> std::string {
          char* end = nullptr;
          errno = 0;
          // Base 0, as CLI11 reads them: 0x1f and 017 are whole numbers too.
          if (is_unsigned && text.find('-') == std::string::npos) (void)std::strtoull(text.c_str(), &end, 0);
          else if (!is_unsigned) (void)std::strtoll(text.c_str(), &end, 0);
          if (end != nullptr && end != text.c_str() && *end == '\0' && errno == 0) return {};
          return fmt::format("expected a whole number{}, got '{}'", is_unsigned ? " (0 or more)" : "", text);
        },
        "", ""));
  }
}

// CLI11's message, or one naming the subcommand word it could not place and the subcommands there are.
std::string parse_error_message(const CLI::App& app, const CLI::ParseError& e, const std::string& subcommands) {
  if (app.get_subcommands().empty()) {
    const std::vector<std::string> rest = app.remaining();
    if (!rest.empty() && !rest.front().empty() && rest.front()[0] != '-')
      return fmt::format("'{}' is not a subcommand (subcommands: {})", rest.front(), subcommands);
    if (rest.empty()) return fmt::format("a subcommand is required (subcommands: {})", subcommands);
  }
  return e.what();
}

// Output that never arrived is a failure: a full disk or a closed file says so (status 1); a reader
// that went away (a closed pipe) ends the run quietly with status 141, as SIGPIPE would.
int finish_stdout() {
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return 0;
  if (errno == EPIPE) return 141;
  fmt::print(stderr, "swizzle: error: cannot write the output: {}\n", std::strerror(errno));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"swizzle: design and check bank-conflict-free shared-memory layouts"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("swizzle ") + SWZ_VERSION);
  auto commands = swz::cli::registry();
  std::sort(commands.begin(), commands.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
  std::string subcommands;
  for (auto& c : commands) {
    subcommands += (subcommands.empty() ? "" : ", ") + c.name;
    CLI::App& sub = *app.add_subcommand(c.name, c.help);
    c.setup(sub);
    expect_whole_numbers(sub);
  }
  const bool json = json_requested(argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    // An unknown flag, beside the one it most likely meant.
    const std::string guesses = swz::cli::flag_suggestions(app, argc, argv);
    return fail_with(json, 2, "swizzle: error",
                     guesses.empty() ? parse_error_message(app, e, subcommands) : fmt::format("{} ({})", e.what(), guesses));
  } catch (const CLI::ParseError& e) {
    // One line, like every other bad input (CLI11's own exit() adds a second, "Run with --help").
    return fail_with(json, 2, "swizzle: error", parse_error_message(app, e, subcommands));
  } catch (const swz::cli::Failure& e) {
    const std::vector<CLI::App*> ran = app.get_subcommands();
    return fail_with(json, e.status, ran.empty() ? "swizzle" : "swizzle " + ran.front()->get_name(), e.what(), e.facts);
  } catch (const swz::Error& e) {
    return fail_with(json, 2, "swizzle: error", e.what());
  } catch (const std::bad_alloc&) {
    return fail_with(json, 2, "swizzle: error", "out of memory");
  } catch (const std::exception& e) {
    return fail_with(json, 2, "swizzle: error", e.what());
  }
  return finish_stdout();
}
