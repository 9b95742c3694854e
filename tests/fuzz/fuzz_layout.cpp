// Layout text in any supported form (JSON, Triton text, MLIR, CuTe): parse, and
// write back what parsed. Bad input must end in swz::Error, nothing else.
#include <cstddef>
#include <cstdint>
#include <string>

#include "swz/error.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const swz::LayoutFile f = swz::parse_layout_text(text, "fuzz");
    (void)swz::layout_to_json(f.layout, f.element_bits).dump();
    (void)swz::to_triton_text(f.layout);
    if (f.kind == swz::LayoutKind::Shared) (void)swz::to_cute(f.layout);
  } catch (const swz::Error&) {
  }
  return 0;
}
