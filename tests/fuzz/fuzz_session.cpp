// Session files as the workbench reads them (load_session_file): JSON text, then
// session_from_json. Bad input must end in swz::Error, nothing else; what loads must
// write back and load again to the same session.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "session.h"
#include "swz/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 8192) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    return 0;  // broken JSON: load_session_file reports it before the session reader runs
  }
  try {
    const swz::gui::Session s = swz::gui::session_from_json(j);
    const nlohmann::json again = swz::gui::to_json(s);
    if (!(swz::gui::session_from_json(again) == s)) std::abort();  // a session must survive its own save
    if (!(swz::gui::session_from_json(nlohmann::json::parse(again.dump())) == s)) std::abort();
  } catch (const swz::Error&) {
  }
  return 0;
}
