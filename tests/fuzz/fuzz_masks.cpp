// Mask lists as typed on the command line and in the GUI, applied to the seed grid.
#include <cstddef>
#include <cstdint>
#include <string>

#include "swz/error.h"
#include "swz/problem/problem.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 256) return 0;
  static swz::Problem problem = swz::make_preset("transpose16x32");
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    problem.set_masks(swz::parse_masks(text));
  } catch (const swz::Error&) {
  }
  return 0;
}
