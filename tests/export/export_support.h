// export_support.h: what the export tests share: every exportable case, temp dirs, file helpers.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "swz/export/export.h"
#include "swz/layout/factories.h"
#include "swz/problem/problem.h"

namespace swz::test {

// One layout to export: a preset with one of its layouts, or a layout on its own.
struct ExportCase {
  std::string id;  // also the namespace name in generated code
  ExportRequest request;
};

inline std::string identifier_of(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum)
      out += c;
    else if (!out.empty() && out.back() != '_')
      out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

// Every preset with every linear layout it names, plus layouts of other ranks and widths.
inline std::vector<ExportCase> all_export_cases() {
  std::vector<ExportCase> cases;
  for (const PresetInfo& info : list_presets()) {
    const Problem base = make_preset(info.name);
    for (const Variant& v : base.variants) {
      Problem p = base;
      p.apply_variant(v.name);
      if (!p.shared.is_linear()) continue;
      const std::string id = identifier_of(info.name + "_" + v.name);
      cases.push_back({id, ExportRequest::from_problem(p, id)});
    }
  }
  // Rank 1, rank 3 and 4-bit elements: no preset has them.
  const auto rank1 = LinearLayout::from_coordinates({{"offset", {{1}, {2}, {4}, {32}, {8}, {16}, {65}}}},
                                                    LinearLayout::out_dims_for_shape({128}));
  cases.push_back({"rank1_fold", ExportRequest::from_layout(SharedLayout::from_linear(rank1, "rank-1 fold"), 16, "rank1_fold")});
  const auto rank3 =
      LinearLayout::from_coordinates({{"offset", {{0, 0, 1}, {0, 0, 2}, {0, 0, 4}, {0, 1, 2}, {0, 2, 4}, {1, 0, 1}, {2, 1, 0}}}},
                                     LinearLayout::out_dims_for_shape({4, 4, 8}));
  cases.push_back({"rank3_xor", ExportRequest::from_layout(SharedLayout::from_linear(rank3, "rank-3 xor"), 32, "rank3_xor")});
  const std::vector<std::int64_t> shape16{16, 64};
  cases.push_back({"fp4_pairs_kept", ExportRequest::from_layout(toggle_grid(shape16, {2, 4, 8, 16}), 4, "fp4_pairs_kept")});
  cases.push_back({"fp4_pairs_split", ExportRequest::from_layout(toggle_grid(shape16, {1, 2, 4, 8}), 4, "fp4_pairs_split")});
  cases.push_back({"fp64_tile", ExportRequest::from_layout(toggle_grid({8, 16}, {1, 2, 4}), 64, "fp64_tile")});
  return cases;
}

// A fresh directory under the system temp dir, removed when the test passes.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ =
        std::filesystem::temp_directory_path() /
        ("swz_export_" + tag + "_" + (info ? identifier_of(info->name()) : std::string("x")) + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    if (!::testing::Test::HasFailure()) std::filesystem::remove_all(path_);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

inline void write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  ASSERT_TRUE(out.good()) << "cannot write " << p;
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs a shell command; returns its exit status and puts stdout + stderr into `output`.
inline int run_command(const std::string& command, std::string& output, const std::filesystem::path& log) {
  const int status = std::system((command + " > '" + log.string() + "' 2>&1").c_str());
  output = read_text(log);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A compiler CMake found (the path exists; not empty, not NOTFOUND).
inline bool available(const std::string& compiler) {
  return !compiler.empty() && compiler.find("NOTFOUND") == std::string::npos && std::filesystem::exists(compiler);
}

// Strict warnings: what users of the header are likely to turn on, and more.
inline constexpr const char* kStrict =
    "-std=c++17 -O1 -Wall -Wextra -Werror -Wpedantic -Wshadow -Wconversion -Wsign-conversion";

}  // namespace swz::test
