// Exercises: the checker on solved and unsolved states, the search behind `lesson check`,
// the loader's errors, the shipped exercises, and the TMA facts their goals use.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "swz/error.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_exercise.h"

namespace swz {
namespace {

const std::filesystem::path kExerciseLessons = SWZ_LESSONS_DIR;

// A one-step lesson on the toy machine's column read (8 wavefronts), with this exercise.
Lesson toy_exercise(const nlohmann::json& exercise, const char* layout = "unswizzled") {
  const nlohmann::json step = {{"title", "Column"}, {"text", "x"},      {"preset", "toy8x8"},
                               {"layout", layout},  {"access", "read"}, {"exercise", exercise}};
  return parse_lesson({{"format", kLessonFormat}, {"version", 1}, {"title", "T"}, {"steps", nlohmann::json::array({step})}}, "t",
                      "t.json");
}
const nlohmann::json kConflictFree = {{"task", "Make the column read conflict-free."},
                                      {"goal", {{"read.wavefronts", 1}, {"store.wavefronts", 1}}},
                                      {"moves", {{"toggles", 3}}},
                                      {"hints", {"one", "two"}}};

ProblemSpec toy_with(std::vector<std::uint32_t> masks) {
  ProblemSpec s;
  s.preset = "toy8x8";
  s.masks = std::move(masks);
  return s;
}

std::string exercise_load_error(const nlohmann::json& exercise, const char* preset = "toy8x8") {
  const nlohmann::json step = {{"title", "S"}, {"text", "x"}, {"preset", preset}, {"exercise", exercise}};
  try {
    (void)parse_lesson({{"format", kLessonFormat}, {"version", 1}, {"title", "T"}, {"steps", nlohmann::json::array({step})}},
                       "bad", "bad.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "(loaded)";
}

TEST(Exercises, TheCheckerSaysSolvedOnlyWhenEveryGoalHoldsWithinTheMoves) {
  const Lesson l = toy_exercise(kConflictFree);
  const LessonStep& s = l.steps[0];
  ASSERT_TRUE(s.exercise.has_value());
  EXPECT_EQ(s.exercise->task, "Make the column read conflict-free.");
  EXPECT_EQ(s.exercise->hints, (std::vector<std::string>{"one", "two"}));

  // The step's own state: 8 wavefronts, nothing spent.
  const ExerciseCheck start = check_exercise(s, s.problem, 0);
  EXPECT_FALSE(start.solved);
  EXPECT_EQ(start.toggles, 0);
  ASSERT_EQ(start.goal.size(), 2u);
  EXPECT_EQ(start.goal[0].claim.quantity, "read.wavefronts");
  EXPECT_EQ(start.goal[0].actual, 8);
  EXPECT_FALSE(start.goal[0].holds);

  // Two row bits folded: 2 wavefronts, not yet.
  const ExerciseCheck half = check_exercise(s, toy_with({1, 2}), 0);
  EXPECT_FALSE(half.solved);
  EXPECT_EQ(half.goal[0].actual, 2);
  EXPECT_EQ(half.toggles, 2);
  EXPECT_EQ(half.masks, 2);
  EXPECT_TRUE(half.moves_problem.empty());

  // x ^= row: solved with the three toggles allowed.
  const ExerciseCheck solved = check_exercise(s, toy_with({1, 2, 4}), 0);
  EXPECT_TRUE(solved.solved);
  EXPECT_EQ(solved.toggles, 3);

  // Conflict-free too, but with five toggles: over the limit, not solved.
  const ExerciseCheck over = check_exercise(s, toy_with({3, 6, 4}), 0);
  EXPECT_TRUE(over.goal[0].holds);
  EXPECT_FALSE(over.solved);
  EXPECT_EQ(over.toggles, 5);
  EXPECT_EQ(over.moves_problem, "5 toggles flipped; the task allows 3");

  // Another problem on the workbench (a 16-bank toy) is not a move of this grid.
  ProblemSpec other = toy_with({1, 2, 4});
  other.banks = 16;
  const ExerciseCheck elsewhere = check_exercise(s, other, 0);
  EXPECT_FALSE(elsewhere.solved);
  EXPECT_NE(elsewhere.moves_problem.find("another problem or layout"), std::string::npos);
}

TEST(Exercises, RowMaskMovesCountChangedRowsFromTheStepsMasks) {
  nlohmann::json e = kConflictFree;
  e["moves"] = {{"masks", 1}};
  e["goal"] = {{"read.wavefronts", 1}};
  const Lesson l = toy_exercise(e, "xor-row");  // starts solved: the fault says so
  EXPECT_EQ(exercise_fault(l.steps[0]), "exercise: the step's own state already meets the goal");

  nlohmann::json two = kConflictFree;
  two["moves"] = {{"masks", 2}};
  two["goal"] = {{"read.wavefronts", 2}};
  const Lesson m = toy_exercise(two);
  const ExerciseCheck c = check_exercise(m.steps[0], toy_with({0, 6, 4}), 0);  // rows 1 and 2 changed, 3 toggles
  EXPECT_EQ(c.masks, 2);
  EXPECT_EQ(c.toggles, 3);
  EXPECT_EQ(c.goal[0].actual, 2);
  EXPECT_TRUE(c.solved);
  const ExerciseCheck three = check_exercise(m.steps[0], toy_with({1, 2, 4}), 0);
  EXPECT_EQ(three.moves_problem, "3 row masks changed; the task allows 2");
  EXPECT_FALSE(three.solved);
}

TEST(Exercises, TheSearchFindsASolutionWithTheFewestMovesOrSaysHowManyItTried) {
  const Lesson l = toy_exercise(kConflictFree);
  const ExerciseSearch found = solve_exercise(l.steps[0]);
  ASSERT_TRUE(found.solution.has_value());
  EXPECT_TRUE(check_exercise(l.steps[0], toy_with(*found.solution), 0).solved);
  // No state of two toggles or fewer solves it: all 1 + 9 + 36 of them were tried first.
  EXPECT_GT(found.searched, 46);
  EXPECT_LE(found.searched, 46 + 84);
  EXPECT_EQ(exercise_fault(l.steps[0]), "");

  // Too few moves: every state within them tried, none solves it. Rows changed: none, one of 3
  // (7 masks each) or two of 3.
  const std::pair<nlohmann::json, std::int64_t> short_of[] = {{{{"toggles", 2}}, 1 + 9 + 36},
                                                              {{{"masks", 2}}, 1 + 3 * 7 + 3 * 49}};
  for (const auto& [moves, states] : short_of) {
    nlohmann::json e = kConflictFree;
    e["moves"] = moves;
    const Lesson l2 = toy_exercise(e);
    const ExerciseSearch none = solve_exercise(l2.steps[0]);
    EXPECT_FALSE(none.solution.has_value()) << moves.dump();
    EXPECT_EQ(none.searched, states) << moves.dump();
    EXPECT_EQ(exercise_states(*l2.steps[0].exercise, *problem_for_step(l2.steps[0]).grid), states) << moves.dump();
  }
  EXPECT_EQ(
      exercise_fault(toy_exercise({{"task", "t"}, {"goal", {{"read.wavefronts", 1}}}, {"moves", {{"toggles", 2}}}}).steps[0]),
      "exercise: no state within 2 toggles meets the goal (46 states searched)");
}

TEST(Exercises, TheLoaderRefusesMalformedExercisesInOneLine) {
  struct Case {
    nlohmann::json exercise;
    const char* preset;
    const char* expected;
  };
  const nlohmann::json goal = {{"read.wavefronts", 1}};
  const nlohmann::json moves = {{"toggles", 3}};
  const Case cases[] = {
      {{{"task", "t"}, {"goal", goal}, {"moves", moves}, {"hint", "h"}},
       "toy8x8",
       "bad.json: step 1 (\"S\"): 'exercise': unknown key 'hint' (known: task, goal, moves, hints)"},
      {{{"goal", goal}, {"moves", moves}}, "toy8x8", "bad.json: step 1 (\"S\"): 'exercise': missing 'task'"},
      {{{"task", "t"}, {"moves", moves}}, "toy8x8", "'exercise': missing 'goal'"},
      {{{"task", "t"}, {"goal", nlohmann::json::object()}, {"moves", moves}}, "toy8x8", "'exercise.goal' is empty"},
      {{{"task", "t"}, {"goal", {{"read.speed", 1}}}, {"moves", moves}}, "toy8x8", "unknown quantity 'read.speed'"},
      {{{"task", "t"}, {"goal", {{"read.wavefronts", "one"}}}, {"moves", moves}},
       "toy8x8",
       "claim 'read.wavefronts' expects a string, but the quantity is a number"},
      {{{"task", "t"}, {"goal", goal}}, "toy8x8", "'exercise.moves' must be an object"},
      {{{"task", "t"}, {"goal", goal}, {"moves", {{"clicks", 2}}}}, "toy8x8", "'exercise.moves': unknown key 'clicks'"},
      {{{"task", "t"}, {"goal", goal}, {"moves", {{"toggles", 0}}}}, "toy8x8", "'exercise.moves' allows no move"},
      {{{"task", "t"}, {"goal", goal}, {"moves", {{"toggles", 9}}}},
       "tma128_fp16",
       "'exercise.moves' allow 155382 states, more than the 20000 a check searches"},
      {{{"task", "t"}, {"goal", goal}, {"moves", moves}}, "cute8x8", "its moves are toggles of the grid"},
      {{{"task", "t"}, {"goal", goal}, {"moves", moves}, {"hints", {"a", ""}}}, "toy8x8", "'exercise.hints' has an empty hint"},
      {"do it", "toy8x8", "'exercise' must be an object"},
      {{{"task", "t"}, {"goal", goal}, {"moves", moves}, {"view", 1}}, "toy8x8", "unknown key 'view'"},
  };
  for (const Case& c : cases) {
    const std::string error = exercise_load_error(c.exercise, c.preset);
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.exercise.dump() << "\n  got: " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  // The moves are clicks on the grid: a step whose view hides it cannot pose one.
  nlohmann::json hidden = {
      {"title", "S"}, {"text", "x"}, {"preset", "toy8x8"}, {"view", {{"panels", {"tensor"}}}}, {"exercise", kConflictFree}};
  try {
    (void)parse_lesson({{"format", kLessonFormat}, {"version", 1}, {"title", "T"}, {"steps", nlohmann::json::array({hidden})}},
                       "bad", "bad.json");
    ADD_FAILURE() << "an exercise without the grid on screen loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the moves are made on the toggle grid, which this step's view does not show"),
              std::string::npos)
        << e.what();
  }
}

TEST(Exercises, EveryShippedExerciseIsUnsolvedAtItsStepAndSolvableWithinItsMoves) {
  int exercises = 0, lessons_with = 0;
  for (const auto& path : lesson_files(kExerciseLessons)) {
    const Lesson lesson = load_lesson_file(path);
    int here = 0;
    for (const LessonStep& step : lesson.steps) {
      if (!step.exercise) continue;
      SCOPED_TRACE(lesson.name + ": " + step.title);
      ++here;
      EXPECT_FALSE(step.exercise->hints.empty());
      EXPECT_EQ(exercise_fault(step), "");
      const ExerciseSearch s = solve_exercise(step);
      ASSERT_TRUE(s.state.has_value());
      EXPECT_NE(exercise_solution_text(*step.exercise, s), "");
      EXPECT_TRUE(check_exercise(step, *s.state, step.step).solved);
    }
    exercises += here;
    lessons_with += here > 0 ? 1 : 0;
  }
  EXPECT_GE(exercises, 5);
  EXPECT_LE(exercises, 6);
  EXPECT_GE(lessons_with, 5);  // every lesson: the toggle grid's, and the CuTe lesson's B, M, S
}

// [SECTION] Swizzle moves: CuTe's Swizzle<B,M,S> over the step's plain layout, each parameter in a range.

// A one-step lesson on the 8x8 column-major tile read along rows (2 wavefronts plain), with swizzle moves.
Lesson cute_exercise(const nlohmann::json& ranges, const char* shared = "(8,8):(1,8)",
                     const nlohmann::json& goal = {{"read.wavefronts", 1}}) {
  const nlohmann::json exercise = {
      {"task", "Make the row read conflict-free."}, {"goal", goal}, {"moves", {{"swizzle", ranges}}}, {"hints", {"one"}}};
  const nlohmann::json step = {{"title", "Row"},   {"text", "x"},      {"preset", "cute8x8"},
                               {"shared", shared}, {"access", "read"}, {"exercise", exercise}};
  return parse_lesson({{"format", kLessonFormat}, {"version", 1}, {"title", "T"}, {"steps", nlohmann::json::array({step})}}, "t",
                      "t.json");
}
const nlohmann::json kCuteRanges = {{"B", {0, 3}}, {"M", {0, 3}}, {"S", {1, 5}}};

// The layout a CuTe text gives on the cute8x8 problem, as a lesson step loads it.
LinearLayout cute_layout(const char* shared) {
  const Lesson l = cute_exercise(kCuteRanges, shared, {{"read.wavefronts", 2}});
  return l.steps[0].problem.shared->layout;
}

TEST(ExerciseSwizzleMoves, TheCoreBuildsTheLayoutCuteWouldFromBMS) {
  const Lesson l = cute_exercise(kCuteRanges);
  const LessonStep& s = l.steps[0];
  ASSERT_TRUE(s.exercise && s.exercise->swizzle);
  const SwizzleMoves& mv = *s.exercise->swizzle;
  EXPECT_EQ(mv.plain_text, "(8,8):(1,8)");
  EXPECT_EQ(mv.start, (std::array<int, 3>{0, 0, 1}));  // no swizzle: B = 0
  EXPECT_EQ(exercise_moves_text(*s.exercise), "B in 0..3, M in 0..3 and S in 1..5");
  // Every allowed B, M, S gives CuTe's own layout for "Swizzle<B,M,S> o (8,8):(1,8)", and reads back as itself.
  int built = 0;
  for (int b = 1; b <= 3; ++b)
    for (int m = 0; m <= 3; ++m)
      for (int sh = b; sh <= 5; ++sh) {
        if (m + sh + b > 6) continue;  // source bits past the 64-element tile: not a layout of it
        const std::string text =
            "Swizzle<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(sh) + "> o (8,8):(1,8)";
        const ProblemSpec state = exercise_swizzle_state(s, {b, m, sh});
        ASSERT_TRUE(state.shared.has_value());
        EXPECT_EQ(state.shared->layout, cute_layout(text.c_str())) << text;
        EXPECT_EQ(state.shared->origin, text);
        EXPECT_EQ(exercise_swizzle_of(s, state), (std::array<int, 3>{b, m, sh})) << text;
        ++built;
      }
  EXPECT_GE(built, 20);
  // Only the shared layout changes.
  ProblemSpec rest = exercise_swizzle_state(s, {3, 2, 3});
  rest.shared = s.problem.shared;
  EXPECT_EQ(rest, s.problem);
}

TEST(ExerciseSwizzleMoves, ParametersOutsideTheRangesOrThatCuteRefusesAreNamed) {
  const Lesson l = cute_exercise(kCuteRanges);
  const LessonStep& s = l.steps[0];
  auto refusal = [&](std::array<int, 3> bms) {
    try {
      (void)exercise_swizzle_state(s, bms);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(built)");
  };
  EXPECT_EQ(refusal({4, 2, 3}), "B = 4 is outside the exercise's 0..3");
  EXPECT_EQ(refusal({3, 2, 6}), "S = 6 is outside the exercise's 1..5");
  EXPECT_NE(refusal({3, 2, 2}).find("|S| must be at least B"), std::string::npos);
  // A negative S shifts left: Swizzle<1,5,-1> would send offset bit 5 to bit 6, past the 64 elements.
  const Lesson left = cute_exercise({{"B", {0, 1}}, {"M", {0, 5}}, {"S", {-2, 5}}});
  try {
    (void)exercise_swizzle_state(left.steps[0], {1, 5, -1});
    ADD_FAILURE() << "Swizzle<1,5,-1> built on 64 elements";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "Swizzle<1,5,-1> would move offsets outside the 64-element tile");
  }
}

TEST(ExerciseSwizzleMoves, TheCheckerFollowsTheLearnersBMS) {
  const Lesson l = cute_exercise(kCuteRanges);
  const LessonStep& s = l.steps[0];
  const ExerciseCheck start = check_exercise(s, s.problem, 0);
  EXPECT_FALSE(start.solved);
  EXPECT_EQ(start.swizzle, (std::array<int, 3>{0, 0, 1}));
  EXPECT_EQ(start.goal[0].actual, 2);
  // Swizzle<1,2,2> takes bit 4, a bank bit: still 2 wavefronts. Swizzle<3,2,3> reaches bit 5: 1.
  EXPECT_FALSE(check_exercise(s, exercise_swizzle_state(s, {1, 2, 2}), 0).solved);
  const ExerciseCheck solved = check_exercise(s, exercise_swizzle_state(s, {3, 2, 3}), 0);
  EXPECT_TRUE(solved.solved);
  EXPECT_TRUE(solved.moves_problem.empty());
  // A layout no allowed swizzle makes (the toggle grid's) is not within the moves, however fast it reads.
  ProblemSpec grid = s.problem;
  grid.shared.reset();
  grid.masks = {0, 0, 0, 4};
  const ExerciseCheck other = check_exercise(s, grid, 0);
  EXPECT_FALSE(other.solved);
  EXPECT_FALSE(other.swizzle.has_value());
  EXPECT_EQ(other.moves_problem,
            "the workbench's layout is no Swizzle<B,M,S> o (8,8):(1,8) with B in 0..3, M in 0..3 and S in 1..5");
  ProblemSpec another = exercise_swizzle_state(s, {3, 2, 3});
  another.banks = 16;
  EXPECT_EQ(check_exercise(s, another, 0).moves_problem, "the workbench shows another problem than this step's");
}

TEST(ExerciseSwizzleMoves, TheSearchChangesFewestParametersAndLessonCheckJudgesIt) {
  const Lesson l = cute_exercise(kCuteRanges);
  const LessonStep& s = l.steps[0];
  const ExerciseSearch found = solve_exercise(s);
  // One parameter changed never helps (B alone gives Swizzle<1,0,1>; M or S alone no swizzle); two do:
  // Swizzle<1,0,5>, bit 5 into bit 0, the first such in B, M, S order.
  ASSERT_TRUE(found.swizzle.has_value());
  EXPECT_EQ(*found.swizzle, (std::array<int, 3>{1, 0, 5}));
  EXPECT_FALSE(found.solution.has_value());  // no masks: the moves are B, M, S
  ASSERT_TRUE(found.state.has_value());
  EXPECT_TRUE(check_exercise(s, *found.state, 0).solved);
  EXPECT_EQ(exercise_solution_text(*s.exercise, found), "Swizzle<1,0,5> o (8,8):(1,8)");
  EXPECT_EQ(exercise_fault(s), "");
  EXPECT_EQ(exercise_swizzle_states(*s.exercise->swizzle), 4 * (5 + 5 + 4 + 3));  // |S| >= B: S from B to 5

  // The step's own Swizzle<3,2,3> already reads conflict-free: a fault of the lesson.
  const Lesson solved = cute_exercise(kCuteRanges, "Swizzle<3,2,3> o (8,8):(1,8)");
  // On 64 elements only source bit 5 exists: Swizzle<3,2,3> is Swizzle<1,2,3>, the first that undoes it.
  EXPECT_EQ(solved.steps[0].exercise->swizzle->start, (std::array<int, 3>{1, 2, 3}));
  EXPECT_EQ(solved.steps[0].exercise->swizzle->plain_text, "(8,8):(1,8)");
  EXPECT_EQ(exercise_fault(solved.steps[0]), "exercise: the step's own state already meets the goal");
  // Sources no higher than offset bit 3 never reach the conflict's bit 5.
  const Lesson low = cute_exercise({{"B", {0, 1}}, {"M", {0, 1}}, {"S", {1, 2}}});
  EXPECT_FALSE(solve_exercise(low.steps[0]).state.has_value());
  EXPECT_EQ(exercise_fault(low.steps[0]),
            "exercise: no state within B in 0..1, M in 0..1 and S in 1..2 meets the goal (8 states searched)");
}

TEST(ExerciseSwizzleMoves, TheLoaderRefusesRangesItCannotSearchOrThatMissTheStep) {
  auto load_error = [](const nlohmann::json& ranges, const char* shared) {
    try {
      (void)cute_exercise(ranges, shared);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(loaded)");
  };
  EXPECT_NE(load_error({{"B", {0, 3}}, {"M", {0, 3}}}, "(8,8):(1,8)").find("'exercise.moves.swizzle.S' is missing"),
            std::string::npos);
  EXPECT_NE(load_error({{"B", {3, 0}}, {"M", {0, 3}}, {"S", {1, 5}}}, "(8,8):(1,8)").find("lo must not exceed hi"),
            std::string::npos);
  EXPECT_NE(load_error({{"B", {0, 3}}, {"M", {0, 3}}, {"S", {1, 5}}, {"Q", {0, 1}}}, "(8,8):(1,8)").find("unknown key 'Q'"),
            std::string::npos);
  EXPECT_NE(
      load_error({{"B", {0, 17}}, {"M", {0, 3}}, {"S", {1, 5}}}, "(8,8):(1,8)").find("reaches outside Swizzle's own limits"),
      std::string::npos);
  // The step's Swizzle<3,2,3> (on 64 elements Swizzle<1,2,3>: bit 5 into bit 2) needs M = 2.
  EXPECT_NE(load_error({{"B", {0, 3}}, {"M", {0, 1}}, {"S", {1, 5}}}, "Swizzle<3,2,3> o (8,8):(1,8)")
                .find("the step's layout is no Swizzle<B,M,S> of a plain CuTe layout with B in 0..3, M in 0..1"),
            std::string::npos);
  // A step with no CuTe layout of its own: toggle-grid masks.
  const nlohmann::json exercise = {{"task", "t"}, {"goal", {{"read.wavefronts", 1}}}, {"moves", {{"swizzle", kCuteRanges}}}};
  EXPECT_NE(exercise_load_error(exercise).find("this step gives no 'shared' CuTe layout"), std::string::npos);
}

// Every allowed B, M, S counts as searched, those refused on the way (offsets outside the tile) too.
TEST(ExerciseSwizzleMoves, TheSearchCountsTheSwizzlesItRefusesToo) {
  // S < 0 folds low bits up into higher ones: no bank bit changes, so none fixes the row read; and
  // Swizzle<1,4,-2>, <1,5,-1>, <1,5,-2> would send offset bit 6 or 7 past the 64 elements.
  const Lesson up = cute_exercise({{"B", {0, 1}}, {"M", {0, 5}}, {"S", {-2, -1}}});
  const LessonStep& s = up.steps[0];
  EXPECT_THROW((void)exercise_swizzle_state(s, {1, 4, -2}), Error);
  const ExerciseSearch found = solve_exercise(s);
  EXPECT_FALSE(found.state.has_value());
  EXPECT_EQ(found.searched, exercise_swizzle_states(*s.exercise->swizzle));
  EXPECT_EQ(found.searched, 2 * 6 * 2);
}

// The loader's limits are Swizzle's own (factories.h): each range may reach every limit, and not one past it.
TEST(ExerciseSwizzleMoves, TheLoaderTakesRangesUpToSwizzlesOwnLimits) {
  const Lesson widest = cute_exercise({{"B", {0, 16}}, {"M", {0, 24}}, {"S", {-24, 24}}});
  // 25 M each; B = 0 takes all 49 S, B = 1..16 leaves out the 2B - 1 with |S| < B: 49 + 16 * 50 - 2 * (1 + ... + 16).
  EXPECT_EQ(exercise_swizzle_states(*widest.steps[0].exercise->swizzle), 25 * (49 + 16 * 50 - 2 * 136));
  const nlohmann::json past[] = {{{"B", {-1, 3}}, {"M", {0, 3}}, {"S", {1, 5}}}, {{"B", {0, 3}}, {"M", {0, 25}}, {"S", {1, 5}}},
                                 {{"B", {0, 3}}, {"M", {0, 3}}, {"S", {-25, 5}}}, {{"B", {0, 3}}, {"M", {0, 3}}, {"S", {1, 25}}}};
  for (const nlohmann::json& ranges : past) {
    try {
      (void)cute_exercise(ranges);
      ADD_FAILURE() << ranges.dump() << " loaded";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("reaches outside Swizzle's own limits (B 0..16, M 0..24, S -24..24)"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(LessonFacts, TmaModeIsThePatternTheLayoutFollowsAndTheBoxMustFitIt) {
  auto on = [](const std::string& preset, const std::vector<std::uint32_t>& masks) {
    ProblemSpec s;
    s.preset = preset;
    s.masks = masks;
    const Problem p = build_problem(s);
    return std::make_pair(measure("tma.mode", p, analyze(p), 0), measure("tma.box_legal", p, analyze(p), 0));
  };
  // 128-byte rows: plain rows are NONE; the 128B pattern folds m0, m1, m2 into the chunk bits n3, n4, n5.
  EXPECT_EQ(on("tma128_fp16", {}), std::make_pair(nlohmann::json("CU_TENSOR_MAP_SWIZZLE_NONE"), nlohmann::json(true)));
  EXPECT_EQ(on("tma128_fp16", {8, 16, 32}), std::make_pair(nlohmann::json("CU_TENSOR_MAP_SWIZZLE_128B"), nlohmann::json(true)));
  // The 32B pattern on 128-byte rows (chunk bit 0 ^= row bit 0): the mode, but a box it refuses.
  EXPECT_EQ(on("tma128_fp16", {8}), std::make_pair(nlohmann::json("CU_TENSOR_MAP_SWIZZLE_32B"), nlohmann::json(false)));
  EXPECT_EQ(on("tma128_fp16", {16, 8}), std::make_pair(nlohmann::json(nullptr), nlohmann::json(false)));  // no mode's pattern
  // 64-byte rows: two rows to a 128-byte line, so the 64B mode folds m1, m2.
  EXPECT_EQ(on("ldmatrix_a_fp16", {0, 8, 16}), std::make_pair(nlohmann::json("CU_TENSOR_MAP_SWIZZLE_64B"), nlohmann::json(true)));
  EXPECT_EQ(on("ldmatrix_a_fp16", {0, 8}), std::make_pair(nlohmann::json("CU_TENSOR_MAP_SWIZZLE_32B"), nlohmann::json(false)));
}

}  // namespace
}  // namespace swz
