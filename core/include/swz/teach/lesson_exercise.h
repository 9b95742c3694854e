// lesson_exercise.h: exercises, tasks a learner solves on the live workbench.
//
// A lesson step may pose one (the step's "exercise" in the lesson file, format in
// assets/lessons/README.md): a task in words, a goal (claims that must all hold on the
// learner's state), the moves allowed and hints shown one at a time:
//
//   "exercise": {"task": "Make the column read conflict-free with two masks.",
//                "goal": {"read.wavefronts": 1, "store.wavefronts": 1},
//                "moves": {"masks": 2}, "hints": ["...", "..."]}
//
// The moves are the toggle grid's, counted from the step's own masks:
//
//   toggles  toggles flipped: bits that differ between the learner's masks and the step's
//   masks    row masks changed: rows j whose mask differs from the step's
//
//   step's masks  [1, 0, 0]      learner's  [1, 6, 0]   toggles 2, masks 1
//
// check_exercise() judges a state the learner reached; solve_exercise() searches every
// state within the moves, fewest moves first, for one that meets the goal, which is what
// `swizzle lesson check` runs: an exercise the step already solves, or one no allowed state
// solves, is a fault of the lesson (exercise_fault()).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "swz/problem/problem.h"
#include "swz/problem/problem_spec.h"
#include "swz/teach/lesson.h"

namespace swz {

// The most states solve_exercise() tries; a file whose moves allow more is refused when it loads.
inline constexpr std::int64_t kExerciseMaxStates = 20000;

// How many grid states lie within the exercise's moves from any start (the start included).
std::int64_t exercise_states(const LessonExercise& exercise, const GridSpec& grid);

struct ExerciseCheck {
  std::vector<ClaimCheck> goal;  // each goal claim on the learner's state
  int toggles = 0;               // toggles flipped from the step's masks
  int masks = 0;                 // row masks changed from the step's
  std::string moves_problem;     // why the state is not an allowed one ("" when it is)
  bool solved = false;           // on an allowed state, every goal claim holds
};
// The learner's workbench (`state`, the trace at `register_step`) against the step's exercise.
// The step must have one.
ExerciseCheck check_exercise(const LessonStep& step, const ProblemSpec& state, int register_step);

struct ExerciseSearch {
  std::optional<std::vector<std::uint32_t>> solution;  // the masks of a state that solves it (fewest moves)
  std::int64_t searched = 0;                           // states tried
};
// The moves allowed, in words: "3 toggles", "1 row mask", "2 toggles and 1 row mask".
std::string exercise_moves_text(const LessonExercise& exercise);

// Every state within the moves, fewest moves first, until one solves the exercise.
ExerciseSearch solve_exercise(const LessonStep& step);

// What is wrong with the step's exercise, one line: the step's own state already solves it, or
// no state within the moves does. "" when it is sound (or the step has none).
std::string exercise_fault(const LessonStep& step);

}  // namespace swz
