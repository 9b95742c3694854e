// conversion_data.h: reading the measured conversions (tests/data/triton/conversions): where
// they are, and a side's distributed layout from its register / lane / warp bases.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "swz/layout/factories.h"

namespace swz::test {

inline const std::string kData = SWZ_TEST_DATA;

inline std::vector<Coords> bases(const nlohmann::json& list) {
  std::vector<Coords> out;
  for (const auto& b : list) out.push_back(b.get<Coords>());
  return out;
}

inline LinearLayout layout_of(const nlohmann::json& side, const std::vector<std::int64_t>& shape) {
  return distributed(shape, bases(side["register"]), bases(side["lane"]), bases(side["warp"]));
}

}  // namespace swz::test
