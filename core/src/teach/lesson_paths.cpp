#include "swz/teach/lesson_paths.h"

#include <cstdlib>

#include <fmt/format.h>

namespace swz {

namespace fs = std::filesystem;

std::string LessonDirSearch::message() const {
  if (found) return "";
  std::string places;
  for (const fs::path& p : tried) places += (places.empty() ? "" : ", ") + p.string();
  return fmt::format("no lesson folder found (looked in {}); set SWZ_LESSONS_DIR to a folder of lesson files", places);
}

LessonDirSearch find_lessons_dir(const fs::path& executable, const fs::path& cwd) {
  LessonDirSearch s;
  std::error_code ec;
  auto try_dir = [&](const fs::path& dir) {
    if (dir.empty()) return false;
    s.tried.push_back(dir);
    if (fs::is_directory(dir, ec)) {
      s.found = dir;
      return true;
    }
    return false;
  };
  auto search_up = [&](fs::path dir) {
    for (int i = 0; i < 8 && !dir.empty(); ++i) {
      if (try_dir(dir / "assets" / "lessons")) return true;
      if (dir == dir.parent_path()) break;
      dir = dir.parent_path();
    }
    return false;
  };
  if (const char* env = std::getenv("SWZ_LESSONS_DIR"); env && *env) {
    try_dir(env);
    return s;  // an explicit choice: never silently replaced by another folder
  }
  if (!executable.empty()) {
    const fs::path bin = executable.parent_path();
    if (try_dir(bin.parent_path() / "share" / "swizzle-workbench" / "lessons")) return s;
    if (search_up(bin)) return s;
  }
#ifdef SWZ_SOURCE_LESSONS_DIR
  if (try_dir(SWZ_SOURCE_LESSONS_DIR)) return s;
#endif
#ifdef SWZ_INSTALL_LESSONS_DIR
  if (try_dir(SWZ_INSTALL_LESSONS_DIR)) return s;
#endif
  if (!cwd.empty()) search_up(cwd);
  return s;
}

fs::path current_executable() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : p;
}

LessonDirSearch find_lessons_dir() {
  std::error_code ec;
  return find_lessons_dir(current_executable(), fs::current_path(ec));
}

}  // namespace swz
