// Every input a fuzzer found that crashed or hung a parser: it must now end in one
// swz::Error (or parse), quickly. Files live in tests/fuzz/regressions/, named <parser>-<what>.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "session.h"
#include "swz/error.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"
#include "swz/sim/corpus.h"
#include "swz/teach/lesson.h"

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(FuzzRegressions, EveryFoundInputEndsInOneClearError) {
  const std::filesystem::path dir = SWZ_FUZZ_REGRESSIONS;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const std::string text = slurp(entry.path());
    const auto start = std::chrono::steady_clock::now();
    try {
      if (name.rfind("cute-", 0) == 0) (void)swz::parse_cute(text);
      else if (name.rfind("mlir-", 0) == 0) (void)swz::parse_mlir(text);
      else if (name.rfind("triton-", 0) == 0) (void)swz::parse_triton_text(text);
      else if (name.rfind("audit-", 0) == 0)
        (void)swz::audit_modules(text, name);
      else if (name.rfind("session-", 0) == 0) (void)swz::gui::load_session_file(entry.path());
      else if (name.rfind("corpus-", 0) == 0) {
        std::istringstream in(text);
        (void)swz::read_corpus(in, name);
      }
      else if (name.rfind("lesson-", 0) == 0) {
        for (const swz::LessonStep& step : swz::load_lesson_file(entry.path()).steps) (void)swz::check_claims(step);
      }
      else (void)swz::parse_layout_text(text, name);
    } catch (const swz::Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << name << ": the message is one line";
    }
    // Not a timing assertion on the machine's speed: these inputs used to take minutes.
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20)) << name;
    ++files;
  }
  EXPECT_GE(files, 2);
}

// The inputs that crashed the process (alias cycles: a stack overflow after ~770 MB; 50,000
// brackets deep) or answered silently (a module cut before its module line: "0 accesses") are
// refused, each with its one line.
TEST(FuzzRegressions, CrashInputsAreRefused) {
  const std::filesystem::path dir = SWZ_FUZZ_REGRESSIONS;
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"mlir-alias-self-slice", "#a refers to itself (#a -> #a): a cycle of aliases"},
      {"mlir-alias-cycle", "#a refers to itself (#a -> #b -> #a): a cycle of aliases"},
      {"mlir-nested-50000", "nested more than 256 deep"},
      {"audit-alias-self-slice", "audit-alias-self-slice:2: #a refers to itself (#a -> #a): a cycle of aliases"},
      {"audit-alias-is-itself", "audit-alias-is-itself:2: #a refers to itself (#a -> #a): a cycle of aliases"},
      {"audit-cut-before-module", "the text ends before its module"},
      {"session-nested-50000", "nested more than 256 deep"},
      {"layout-nested-50000", "nested more than 256 deep"},
  };
  for (const auto& [name, message] : expected) {
    const std::filesystem::path path = dir / name;
    const std::string text = slurp(path);
    ASSERT_FALSE(text.empty()) << name;
    std::string error;
    try {
      if (name.rfind("mlir-", 0) == 0)
        (void)swz::parse_mlir(text);
      else if (name.rfind("audit-", 0) == 0)
        (void)swz::audit_modules(text, name);
      else if (name.rfind("session-", 0) == 0)
        (void)swz::gui::load_session_file(path);
      else
        (void)swz::parse_layout_text(text, name);
    } catch (const swz::Error& e) {
      error = e.what();
    }
    EXPECT_NE(error.find(message), std::string::npos) << name << ": " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << name;
  }
}

}  // namespace
