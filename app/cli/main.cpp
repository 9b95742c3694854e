// swizzle: the command-line face of the core, for scripts and CI.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <exception>

#include <fmt/format.h>

#include "command.h"
#include "swz/error.h"

namespace swz::cli {

std::vector<Command>& registry() {
  static std::vector<Command> commands;
  return commands;
}

void print_json(const nlohmann::json& j) { std::fputs((j.dump(2) + "\n").c_str(), stdout); }

}  // namespace swz::cli

namespace {

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
  for (auto& c : commands) c.setup(*app.add_subcommand(c.name, c.help));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line, like every other bad input (CLI11's own exit() adds a second, "Run with --help").
    fmt::print(stderr, "swizzle: error: {}\n", e.what());
    return 2;
  } catch (const swz::Error& e) {
    fmt::print(stderr, "swizzle: error: {}\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "swizzle: error: out of memory\n");
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "swizzle: error: {}\n", e.what());
    return 2;
  }
  return finish_stdout();
}
