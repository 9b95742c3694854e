#include "common.h"

#include <algorithm>
#include <string_view>

#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/io/layout_io.h"

namespace swz::cli {

void add_problem_options(CLI::App& app, ProblemArguments& a, std::initializer_list<const char*> except) {
  for (const ProblemFlag& f : problem_flags()) {
    if (std::find_if(except.begin(), except.end(), [&](const char* e) { return std::string_view(e) == f.flag; }) != except.end())
      continue;
    std::optional<std::string>* slot = &a.slot(f.flag);
    app.add_option_function<std::string>(
        f.flag, [slot](const std::string& text) { *slot = text; }, f.help);
  }
}

SharedLayout load_shared_file(const std::string& path, const std::vector<std::int64_t>& expected_shape) {
  return shared_from_file(load_layout_file(path), path, expected_shape);
}

SharedLayout shared_from_file(const LayoutFile& f, const std::string& path, const std::vector<std::int64_t>& expected_shape) {
  if (f.kind != LayoutKind::Shared) fail("{}: expected a shared layout (offset_bases), found a distributed one", path);
  // A tensor of the wrong shape is refused before its tables are built (2^24 elements take a second and 128 MiB).
  if (!expected_shape.empty() && f.layout.shape() != expected_shape)
    fail("{}: shared layout covers a {} tensor; the problem's is {}", path, fmt::join(f.layout.shape(), "x"),
         fmt::join(expected_shape, "x"));
  SharedLayout s;
  try {
    s = SharedLayout::from_linear(f.layout, path);
  } catch (const Error& e) {
    fail("{}: {}", path, e.what());
  }
  if (!expected_shape.empty() && s.shape() != expected_shape)
    fail("{}: shared layout covers a {} tensor; the problem's is {}", path, fmt::join(s.shape(), "x"),
         fmt::join(expected_shape, "x"));
  return s;
}

}  // namespace swz::cli
