// limits.cpp: the readers' bounds (limits.h).
#include "swz/io/limits.h"

#include "swz/error.h"

namespace swz {

void check_nesting(int depth, const std::string& what) {
  if (depth > kMaxNesting) fail("{}: nested more than {} deep", what, kMaxNesting);
}

nlohmann::json::parser_callback_t nesting_bound(const std::string& origin) {
  // The parser keeps its own stack; the values it builds are walked recursively by every reader
  // after it (and by nlohmann's own dump), so the depth is refused while parsing.
  return [origin](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    check_nesting(depth, origin);
    return true;
  };
}

namespace {
nlohmann::json parse_bounded(std::string_view text, const std::string& origin, bool exceptions) {
  try {
    return nlohmann::json::parse(text, nesting_bound(origin), exceptions);
  } catch (const nlohmann::json::exception& e) {  // syntax, and numbers too large for any type
    fail("{}: not valid JSON ({})", origin, e.what());
  }
}
}  // namespace

nlohmann::json parse_json(std::string_view text, const std::string& origin) { return parse_bounded(text, origin, true); }

nlohmann::json parse_json_or_discarded(std::string_view text, const std::string& origin) {
  return parse_bounded(text, origin, false);
}

}  // namespace swz
