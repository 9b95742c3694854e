// quiz_set.h: a fixed set of quiz questions a teacher chooses, so the whole room
// sees the same ones (format: assets/quizzes/README.md).
//
// A set file lists questions by their parameters (kind, preset, masks, access,
// Swizzle<B,M,S> and offset, TMA mode, ...) or by seed; the core builds each one
// and computes its answer. Loading checks everything and stops at the first
// problem with one line naming the file, the question and the key:
//
//   my-quiz.json: question 3 (fix): choices: 2 of them make the read (B) conflict-free (...); exactly one must
//
// Sets are found beside the lessons: the quizzes folder next to the lesson folder
// that find_lessons_dir() finds (assets/quizzes in the source tree,
// share/swizzle-workbench/quizzes in an installed copy).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "swz/teach/quiz.h"

namespace swz {

struct QuizSet {
  std::string name;  // file stem
  std::string title;
  std::string summary;
  std::vector<std::string> assumes;  // the lessons (file names) the set follows: it asks nothing they do not teach
  std::vector<QuizQuestion> questions;
};

// `origin` names the file in messages.
QuizSet parse_quiz_set(const nlohmann::json& j, const std::string& name, const std::string& origin);
QuizSet load_quiz_set_file(const std::filesystem::path& path);

// The folder of shipped sets, beside the lesson folder; nullopt with `why` when there is none.
std::optional<std::filesystem::path> find_quizzes_dir(std::string& why);
// A set: a path to a .json file, or a name in the quizzes folder. Throws naming the known sets.
std::filesystem::path resolve_quiz_set(const std::string& what);

// What the set asks that the lessons it assumes (`lessons`, loaded) do not teach, one line a
// question ("question 5 (tma): none of toy-gpu, swizzle-by-hand teaches TMA swizzle modes");
// empty when every question is taught. A question on a preset needs a lesson showing that preset;
// a CuTe swizzle question one with a swizzle(B,M,S) claim or a Swizzle<...> layout; a TMA
// question one with a tma(...) claim.
std::vector<std::string> quiz_set_untaught(const QuizSet& set, const std::vector<Lesson>& lessons);

// What a set holds, in a sentence: "12 questions (1 wavefronts question, 2 fix questions, 6 tma
// questions)", the kinds in quiz_kind_name() order, each counted in the singular or plural it needs.
std::string quiz_set_contents(const QuizSet& set);

// The questions of a set as JSON (the answer key: prompt, choices, the right one, explanation).
nlohmann::json to_json(const QuizQuestion& q);

}  // namespace swz
