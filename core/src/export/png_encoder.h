// png_encoder.h (private to core/src/export): stb_image_write's PNG encoder behind one function, in
// a file of its own so that builds can compile the third-party encoder apart from the core
// (the sanitizer build leaves it uninstrumented: cmake/sanitizers.cmake).
#pragma once

#include <cstddef>
#include <string>

namespace swz::export_parts {

// The PNG of `width` x `height` pixels of 8-bit RGB, rows `width * 3` bytes apart in `rgb`, which
// holds exactly that (checked by the caller). Empty when the encoder fails.
std::string png_of_rgb(const unsigned char* rgb, int width, int height);

}  // namespace swz::export_parts
