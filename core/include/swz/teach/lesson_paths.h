// lesson_paths.h: where lesson files are found, wherever the program runs from.
//
// In order: $SWZ_LESSONS_DIR; share/swizzle-workbench/lessons beside the
// program's bin/ (an installed or relocated copy); the nearest assets/lessons
// above the program (a build inside the source tree); the source tree the
// program was built from; the install prefix it was configured for; the
// nearest assets/lessons above the working directory. Every place tried is
// kept, so "no lessons" can say where it looked.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace swz {

struct LessonDirSearch {
  std::optional<std::filesystem::path> found;
  std::vector<std::filesystem::path> tried;  // in order, up to and including the one found
  // "" when found; else one line naming every place tried and SWZ_LESSONS_DIR.
  std::string message() const;
};

// `executable`: the running program's path (current_executable()); `cwd`: the working directory.
LessonDirSearch find_lessons_dir(const std::filesystem::path& executable, const std::filesystem::path& cwd);
// The same for this process.
LessonDirSearch find_lessons_dir();

// This process's program file (/proc/self/exe), empty when it cannot be read.
std::filesystem::path current_executable();

}  // namespace swz
