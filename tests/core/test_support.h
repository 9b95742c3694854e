// test_support.h: small helpers the core tests share.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "swz/error.h"
#include "swz/layout/layout.h"

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

// The bases of one in dim of `l` as coordinates (dim0 first).
inline std::vector<std::vector<std::int64_t>> bases_of(const swz::LinearLayout& l, const char* in) {
  std::vector<std::vector<std::int64_t>> out;
  for (swz::BitVec b : l.bases(in)) out.push_back(l.unflatten(b));
  return out;
}

}  // namespace swz::test
