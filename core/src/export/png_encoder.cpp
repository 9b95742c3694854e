// png_encoder.cpp: png_encoder.h over a private copy of stb_image_write.
#include "png_encoder.h"

// Static functions: the core's copy never clashes with another one linked into the same program
// (the workbench also links Debian's libstb).
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#if __has_include(<stb_image_write.h>)
#include <stb_image_write.h>
#else
#include <stb/stb_image_write.h>
#endif

namespace swz::export_parts {

std::string png_of_rgb(const unsigned char* rgb, int width, int height) {
  // Slides and figures are flat colour: rows unfiltered and the encoder's shortest match search
  // (level 5) give 10% smaller files than its defaults (level 8, the best of five filters per
  // row) in 57% of the time (swizzle-by-hand's 35 slides, 2026-11-29: 10.1 MB in 3.8 s against
  // 11.2 MB in 6.6 s). Set once, before the first picture.
  static const bool settings = [] {
    stbi_write_png_compression_level = 5;
    stbi_write_force_png_filter = 0;
    return true;
  }();
  (void)settings;
  std::string out;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &out, width, height, 3, rgb, width * 3)) return {};
  return out;
}

}  // namespace swz::export_parts
