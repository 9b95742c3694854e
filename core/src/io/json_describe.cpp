#include "swz/io/json_describe.h"

#include <fmt/format.h>

namespace swz {

std::string describe_json_value(const nlohmann::json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) return "the number " + v.dump();
  if (v.is_string()) {
    const std::string text = v.dump();  // quoted and escaped
    return "the string " + (text.size() > 40 ? text.substr(0, 36) + "...\"" : text);
  }
  if (v.is_array()) return v.empty() ? "an empty list" : fmt::format("a list of {} item{}", v.size(), v.size() == 1 ? "" : "s");
  return "an object";
}

}  // namespace swz
