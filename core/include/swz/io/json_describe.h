// json_describe.h: a JSON value as an error message names it ("the string \"16\"",
// "the number 2048", "a list of 3 items"), so a wrong type says what was given.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace swz {

std::string describe_json_value(const nlohmann::json& value);

}  // namespace swz
