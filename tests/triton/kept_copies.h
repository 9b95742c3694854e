// kept_copies.h: what the tests of the audit's copies share: a kept run's file, the copy on a line
// of a report, a phrase in a note.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "swz/kernel/audit.h"

namespace swz_test {

// tests/data/triton/copies/PATH, whole ("h200-20261128/matmul_int8_128x128x64_w4s3.ttgir").
inline std::string kept_copies_file(const std::string& path) {
  std::ifstream in(std::string(SWZ_TEST_DATA) + "/triton/copies/" + path);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_FALSE(s.str().empty()) << path;
  return s.str();
}

// The cp.async of `report` on `line` (a failure, and an empty access, where there is none).
inline const swz::AuditAccess& copy_on_line(const swz::AuditReport& report, int line) {
  for (const auto& a : report.accesses)
    if (a.line == line && a.op == "ttg.async_copy_global_to_local") return a;
  ADD_FAILURE() << "no copy on line " << line;
  static const swz::AuditAccess none;
  return none;
}

inline bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace swz_test
