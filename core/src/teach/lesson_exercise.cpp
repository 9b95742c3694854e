// lesson_exercise.cpp: judging and searching a lesson step's exercise (lesson_exercise.h).
#include "swz/teach/lesson_exercise.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "swz/error.h"
#include "swz/sim/analysis.h"

namespace swz {

namespace {

constexpr std::int64_t kExerciseCountCap = std::int64_t{1} << 40;  // counts saturate here: "more than we would search"

std::int64_t exercise_saturating_add(std::int64_t a, std::int64_t b) { return std::min(kExerciseCountCap, a + b); }
std::int64_t exercise_saturating_mul(std::int64_t a, std::int64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kExerciseCountCap / b ? kExerciseCountCap : std::min(kExerciseCountCap, a * b);
}
std::int64_t exercise_choose(std::int64_t n, std::int64_t k) {
  std::int64_t c = 1;
  for (std::int64_t i = 1; i <= k; ++i) c = std::min(kExerciseCountCap, c * (n - k + i) / i);  // exact while below the cap
  return c;
}

// States within `toggles` flipped toggles of T, and within `masks` changed rows of R rows with C toggles each.
std::int64_t exercise_states_by_toggles(int limit, const GridSpec& g) {
  const std::int64_t t = static_cast<std::int64_t>(g.row_bits) * (g.col_bits - g.vec_bits);
  std::int64_t n = 0;
  for (std::int64_t k = 0; k <= std::min<std::int64_t>(limit, t); ++k) n = exercise_saturating_add(n, exercise_choose(t, k));
  return n;
}
std::int64_t exercise_states_by_masks(int limit, const GridSpec& g) {
  const int c = g.col_bits - g.vec_bits;
  const std::int64_t per_row = c >= 40 ? kExerciseCountCap : (std::int64_t{1} << c) - 1;  // a changed row: any other mask
  std::int64_t n = 0;
  for (std::int64_t k = 0; k <= std::min(limit, g.row_bits); ++k) {
    std::int64_t rows = exercise_choose(g.row_bits, k);
    for (std::int64_t i = 0; i < k; ++i) rows = exercise_saturating_mul(rows, per_row);
    n = exercise_saturating_add(n, rows);
  }
  return n;
}

// Calls `visit(indices)` for each k-subset of 0..n-1 in lexicographic order until it returns true.
template <class Visit>
bool each_exercise_subset(int n, int k, Visit&& visit) {
  std::vector<int> idx(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) idx[static_cast<std::size_t>(i)] = i;
  while (true) {
    if (visit(idx)) return true;
    int i = k - 1;
    while (i >= 0 && idx[static_cast<std::size_t>(i)] == n - k + i) --i;
    if (i < 0) return false;
    ++idx[static_cast<std::size_t>(i)];
    for (int j = i + 1; j < k; ++j) idx[static_cast<std::size_t>(j)] = idx[static_cast<std::size_t>(j - 1)] + 1;
  }
}

// The goal as a step of its own: its claims, at the step's register step.
LessonStep exercise_goal_step(const LessonStep& step) {
  LessonStep g;
  g.claims = step.exercise->goal;
  g.step = step.step;
  return g;
}

}  // namespace

std::string exercise_moves_text(const LessonExercise& e) {
  auto count = [](int n, const char* what) { return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s"); };
  if (e.toggles >= 0 && e.masks >= 0) return count(e.toggles, "toggle") + " and " + count(e.masks, "row mask");
  if (e.toggles >= 0) return count(e.toggles, "toggle");
  if (e.masks >= 0) return count(e.masks, "row mask");
  return "any toggles";
}

std::int64_t exercise_states(const LessonExercise& e, const GridSpec& g) {
  std::int64_t n = kExerciseCountCap;
  if (e.toggles >= 0) n = std::min(n, exercise_states_by_toggles(e.toggles, g));
  if (e.masks >= 0) n = std::min(n, exercise_states_by_masks(e.masks, g));
  if (e.toggles < 0 && e.masks < 0) n = exercise_states_by_masks(g.row_bits, g);  // every grid state
  return n;
}

ExerciseCheck check_exercise(const LessonStep& step, const ProblemSpec& state, int register_step) {
  if (!step.exercise) fail("step '{}' has no exercise", step.title);
  const LessonExercise& e = *step.exercise;
  ExerciseCheck out;
  out.goal = check_claims_on(exercise_goal_step(step), state, register_step);
  ProblemSpec start_rest = step.problem, state_rest = state;
  start_rest.masks.clear();
  state_rest.masks.clear();
  if (start_rest != state_rest) {
    out.moves_problem = "the workbench shows another problem or layout than this step's toggle grid";
  } else {
    const std::size_t rows = std::max(step.problem.masks.size(), state.masks.size());
    for (std::size_t j = 0; j < rows; ++j) {
      const std::uint32_t from = j < step.problem.masks.size() ? step.problem.masks[j] : 0;
      const std::uint32_t to = j < state.masks.size() ? state.masks[j] : 0;
      out.toggles += std::popcount(from ^ to);
      out.masks += from != to ? 1 : 0;
    }
    if (e.toggles >= 0 && out.toggles > e.toggles)
      out.moves_problem = fmt::format("{} toggles flipped; the task allows {}", out.toggles, e.toggles);
    else if (e.masks >= 0 && out.masks > e.masks)
      out.moves_problem = fmt::format("{} row masks changed; the task allows {}", out.masks, e.masks);
  }
  out.solved =
      out.moves_problem.empty() && std::all_of(out.goal.begin(), out.goal.end(), [](const ClaimCheck& c) { return c.holds; });
  return out;
}

ExerciseSearch solve_exercise(const LessonStep& step) {
  if (!step.exercise) fail("step '{}' has no exercise", step.title);
  const LessonExercise& e = *step.exercise;
  Problem p = problem_for_step(step);
  if (!p.grid) fail("step '{}': an exercise's moves are the toggle grid's, and this problem has none", step.title);
  const GridSpec g = *p.grid;
  std::vector<std::uint32_t> start = p.masks;
  start.resize(static_cast<std::size_t>(g.row_bits), 0);
  const LessonStep goal = exercise_goal_step(step);
  ExerciseSearch out;
  // One state: the masks `m`, when they stay within both limits.
  auto solves = [&](const std::vector<std::uint32_t>& m) {
    int toggles = 0, rows = 0;
    for (std::size_t j = 0; j < m.size(); ++j) {
      toggles += std::popcount(m[j] ^ start[j]);
      rows += m[j] != start[j] ? 1 : 0;
    }
    if ((e.toggles >= 0 && toggles > e.toggles) || (e.masks >= 0 && rows > e.masks)) return false;
    ++out.searched;
    p.set_masks(m);
    const ProblemAnalysis a = analyze(p);
    try {
      for (const ClaimCheck& c : check_claims(goal, p, a))
        if (!c.holds) return false;
    } catch (const Error&) {
      return false;  // a goal that does not apply to this state is not met there
    }
    out.solution = m;
    trim_masks(*out.solution);
    return true;
  };
  const int cols = g.col_bits - g.vec_bits;
  const bool by_rows =
      e.masks >= 0 && (e.toggles < 0 || exercise_states_by_masks(e.masks, g) <= exercise_states_by_toggles(e.toggles, g));
  if (by_rows || (e.toggles < 0 && e.masks < 0)) {
    // k changed rows, each XORed with a nonzero pattern of its toggles.
    const int limit = e.masks >= 0 ? std::min(e.masks, g.row_bits) : g.row_bits;
    for (int k = 0; k <= limit; ++k)
      if (each_exercise_subset(g.row_bits, k, [&](const std::vector<int>& chosen) {
            std::vector<std::uint32_t> delta(chosen.size(), 1);  // an odometer over 1..2^cols-1 per chosen row
            while (true) {
              std::vector<std::uint32_t> m = start;
              for (std::size_t i = 0; i < chosen.size(); ++i) m[static_cast<std::size_t>(chosen[i])] ^= delta[i] << g.vec_bits;
              if (solves(m)) return true;
              std::size_t i = 0;
              while (i < delta.size() && delta[i] == (1u << cols) - 1) delta[i++] = 1;
              if (i == delta.size()) return false;
              ++delta[i];
            }
          }))
        return out;
    return out;
  }
  const int toggles = g.row_bits * cols;
  for (int k = 0; k <= std::min(e.toggles, toggles); ++k)
    if (each_exercise_subset(toggles, k, [&](const std::vector<int>& chosen) {
          std::vector<std::uint32_t> m = start;
          for (int t : chosen) m[static_cast<std::size_t>(t / cols)] ^= 1u << (g.vec_bits + t % cols);
          return solves(m);
        }))
      return out;
  return out;
}

std::string exercise_fault(const LessonStep& step) {
  if (!step.exercise) return "";
  if (check_exercise(step, step.problem, step.step).solved) return "exercise: the step's own state already meets the goal";
  const ExerciseSearch s = solve_exercise(step);
  if (!s.solution)
    return fmt::format("exercise: no state within {} meets the goal ({} states searched)", exercise_moves_text(*step.exercise),
                       s.searched);
  return "";
}

}  // namespace swz
