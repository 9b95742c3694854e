// The mlir parser on its own (no format detection in front of it).
#include <cstddef>
#include <cstdint>
#include <string>

#include "swz/error.h"
#include "swz/io/formats.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)swz::parse_mlir(text);
  } catch (const swz::Error&) {
  }
  return 0;
}
