// test_support.h: small helpers the core tests share.
#pragma once

#include <functional>
#include <string>

#include "swz/error.h"

namespace swz::test {

// The swz::Error message `f` throws, or "" when it throws none.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const swz::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace swz::test
