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
// Or the moves are a CuTe swizzle's three parameters, each within a range, over the plain layout
// under the step's own ("moves": {"swizzle": {"B": [0, 3], "M": [0, 4], "S": [1, 6]}}):
//
//   step's layout  (64,64):(64,1)  = Swizzle<0,0,1> o (64,64):(64,1)   the start
//   learner picks  B=3 M=3 S=3     -> Swizzle<3,3,3> o (64,64):(64,1)  built by the core
//
// check_exercise() judges a state the learner reached; solve_exercise() searches every
// state within the moves, fewest moves first, for one that meets the goal, which is what
// `swizzle lesson check` runs: an exercise the step already solves, or one no allowed state
// solves, is a fault of the lesson (exercise_fault()).
#pragma once

#include <array>
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
  std::optional<std::array<int, 3>> swizzle;  // swizzle moves: the learner's B, M, S (none: a layout they do not allow)
  std::string moves_problem;     // why the state is not an allowed one ("" when it is)
  bool solved = false;           // on an allowed state, every goal claim holds
};
// The learner's workbench (`state`, the trace at `register_step`) against the step's exercise.
// The step must have one.
ExerciseCheck check_exercise(const LessonStep& step, const ProblemSpec& state, int register_step);

struct ExerciseSearch {
  std::optional<std::vector<std::uint32_t>> solution;  // the masks of a state that solves it (fewest moves)
  std::optional<std::array<int, 3>> swizzle;           // swizzle moves: the B, M, S that solve it (fewest changed)
  std::optional<ProblemSpec> state;                    // the workbench state that solves it, either way
  std::int64_t searched = 0;                           // states tried
};
// The solution in words for a card or an answer key: "masks [1, 2, 4]", "Swizzle<3,3,3> o (64,64):(64,1)";
// "" when there is none.
std::string exercise_solution_text(const LessonExercise& exercise, const ExerciseSearch& search);
// The moves allowed, in words: "3 toggles", "1 row mask", "2 toggles and 1 row mask".
std::string exercise_moves_text(const LessonExercise& exercise);

// Every state within the moves, fewest moves first, until one solves the exercise.
ExerciseSearch solve_exercise(const LessonStep& step);

// [SECTION] Swizzle moves
// How many valid Swizzle<B,M,S> lie within the ranges (|S| >= B, as CuTe asks).
std::int64_t exercise_swizzle_states(const SwizzleMoves& moves);
// Undoes each allowed swizzle on the step's `shared` layout until one leaves a plain CuTe layout;
// fills `moves.plain`, `plain_text` and `start`. False when none does.
bool find_swizzle_start(SwizzleMoves& moves, const LinearLayout& shared);
// The step's problem with Swizzle<B,M,S> over the plain layout: what the card's B, M, S controls
// set. Throws swz::Error naming the parameter outside its range, a swizzle CuTe refuses (|S| < B),
// one that moves offsets outside the tile, or one the step's accesses cannot run on (ldmatrix on
// 16-byte rows a small M splits), so the workbench never gets a layout it cannot show.
ProblemSpec exercise_swizzle_state(const LessonStep& step, const std::array<int, 3>& bms);
// The allowed B, M, S whose layout the state shows (the first, B then M then S ascending); none
// when the state is another problem or a layout the moves cannot make.
std::optional<std::array<int, 3>> exercise_swizzle_of(const LessonStep& step, const ProblemSpec& state);

// The words of the one-click answers' lock while an exercise is open: a short note beside the
// locked buttons and the reason, shown on hover.
struct ExerciseLockWords {
  const char* note;
  const char* reason;
};
const ExerciseLockWords& exercise_lock_words();

// What is wrong with the step's exercise, one line: the step's own state already solves it, or
// no state within the moves does. "" when it is sound (or the step has none).
std::string exercise_fault(const LessonStep& step);

}  // namespace swz
