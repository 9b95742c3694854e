// swizzle-workbench: the interactive workbench (see app.h for the flags).
#include <exception>
#include <cstdio>

#include "app.h"

int main(int argc, char** argv) {
  try {
    swz::gui::LaunchOptions options;
    bool exit_now = false;
    const int code = swz::gui::parse_launch_options(argc, argv, options, exit_now);
    if (exit_now) return code;
    return swz::gui::run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "swizzle-workbench: error: %s\n", e.what());
    return 1;
  }
}
