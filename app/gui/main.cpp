// swizzle-workbench: the interactive workbench (see app.h for the flags).
#include <exception>
#include <cstdio>

#include <malloc.h>

#include "app.h"

int main(int argc, char** argv) {
  // Every frame the GL driver allocates and frees vertex and command buffers of a
  // few hundred KB. glibc serves blocks that size with mmap/munmap, so each frame
  // paid for fresh zeroed pages (about a third of the frame's CPU time under
  // Mesa's llvmpipe). Keeping them in the heap reuses the same pages.
#ifdef __GLIBC__  // glibc's malloc only (the browser's build has its own)
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
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
