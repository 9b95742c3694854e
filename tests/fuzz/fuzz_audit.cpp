// The TTGIR module reader and the audit behind it (swizzle audit): aliases that refer to each other,
// attributes nested deep, modules cut short. The seeds hold alias cycles and a real module.
#include <cstddef>
#include <cstdint>
#include <string>

#include "swz/error.h"
#include "swz/kernel/audit.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 8192) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)swz::audit_modules(text, "fuzz.ttgir");
  } catch (const swz::Error&) {
  }
  return 0;
}
