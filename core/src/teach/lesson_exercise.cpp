// lesson_exercise.cpp: judging and searching a lesson step's exercise (lesson_exercise.h).
#include "swz/teach/lesson_exercise.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "swz/error.h"
#include "swz/io/formats.h"
#include "swz/layout/factories.h"
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

// Calls `visit(bms)` for each B, M, S the ranges allow that makes a swizzle (cute_swizzle_fault: none),
// B then M then S ascending, until it returns true; says whether it did.
template <class Visit>
bool each_exercise_swizzle(const SwizzleMoves& mv, Visit&& visit) {
  for (int b = mv.b[0]; b <= mv.b[1]; ++b)
    for (int m = mv.m[0]; m <= mv.m[1]; ++m)
      for (int s = mv.s[0]; s <= mv.s[1]; ++s)
        if (!cute_swizzle_fault(b, m, s) && visit(std::array<int, 3>{b, m, s})) return true;
  return false;
}

// Every allowed B, M, S, those that change fewest parameters from the step's first, then ascending.
std::vector<std::array<int, 3>> exercise_swizzle_candidates(const SwizzleMoves& mv) {
  std::vector<std::array<int, 3>> out;
  each_exercise_swizzle(mv, [&](const std::array<int, 3>& bms) {
    out.push_back(bms);
    return false;
  });
  auto changed = [&](const std::array<int, 3>& x) {
    return static_cast<int>(x[0] != mv.start[0]) + static_cast<int>(x[1] != mv.start[1]) + static_cast<int>(x[2] != mv.start[2]);
  };
  std::stable_sort(out.begin(), out.end(), [&](const auto& x, const auto& y) { return changed(x) < changed(y); });
  return out;
}

// `layout` (offset -> element) read through Swizzle<B,M,S>: offset o holds what `layout` keeps at
// swizzle(o). The swizzle undoes itself, so this both applies and removes it. None when it would
// send an offset outside the tile.
std::optional<LinearLayout> exercise_swizzled(const LinearLayout& layout, const std::array<int, 3>& bms) {
  const std::vector<BitVec>& bases = layout.bases("offset");
  const int bits = static_cast<int>(bases.size());
  std::vector<BitVec> out;
  for (int i = 0; i < bits; ++i) {
    const std::uint64_t v = cute_swizzle_apply(bms[0], bms[1], bms[2], std::uint64_t{1} << i);
    if (static_cast<int>(std::bit_width(v)) > bits) return std::nullopt;
    BitVec basis = 0;
    for (int k = 0; k < bits; ++k)
      if (v >> k & 1) basis ^= bases[static_cast<std::size_t>(k)];
    out.push_back(basis);
  }
  return layout.with_in_dim("offset", std::move(out));
}

std::string exercise_swizzle_name(const SwizzleMoves& mv, const std::array<int, 3>& bms) {
  return fmt::format("Swizzle<{},{},{}> o {}", bms[0], bms[1], bms[2], mv.plain_text);
}

// The problem without its shared layout: what swizzle moves must leave alone.
ProblemSpec exercise_without_layout(ProblemSpec spec) {
  spec.shared.reset();
  spec.masks.clear();
  spec.variant.clear();
  return spec;
}

// The grid moves a state spent from the step's masks, and whether they stay within the exercise's.
void exercise_count_grid_moves(const LessonStep& step, const ProblemSpec& state, ExerciseCheck& out) {
  const LessonExercise& e = *step.exercise;
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
}

// The state Swizzle<B,M,S> gives (exercise_swizzle_state) with the problem and analysis that vetted it,
// so the search judges the goal on the one simulation.
struct ExerciseSwizzleRun {
  ProblemSpec state;
  Problem problem;
  ProblemAnalysis analysis;
};
ExerciseSwizzleRun exercise_swizzle_run(const LessonStep& step, const std::array<int, 3>& bms) {
  if (!step.exercise || !step.exercise->swizzle) fail("step '{}' has no swizzle exercise", step.title);
  const SwizzleMoves& mv = *step.exercise->swizzle;
  const char* names[] = {"B", "M", "S"};
  const std::array<int, 2>* ranges[] = {&mv.b, &mv.m, &mv.s};
  for (std::size_t i = 0; i < 3; ++i)
    if (bms[i] < (*ranges[i])[0] || bms[i] > (*ranges[i])[1])
      fail("{} = {} is outside the exercise's {}..{}", names[i], bms[i], (*ranges[i])[0], (*ranges[i])[1]);
  if (const std::optional<std::string> fault = cute_swizzle_fault(bms[0], bms[1], bms[2])) fail("{}", *fault);
  const std::optional<LinearLayout> layout = exercise_swizzled(mv.plain, bms);
  if (!layout)
    fail("Swizzle<{},{},{}> would move offsets outside the {}-element tile", bms[0], bms[1], bms[2],
         std::int64_t{1} << mv.plain.bases("offset").size());
  ProblemSpec state = exercise_without_layout(step.problem);
  state.shared = SpecLayout{*layout, exercise_swizzle_name(mv, bms)};
  try {
    Problem problem = build_problem(state);
    ProblemAnalysis analysis = analyze(problem);  // the workbench shows only what the simulator takes
    return {std::move(state), std::move(problem), std::move(analysis)};
  } catch (const Error& e) {
    fail("Swizzle<{},{},{}>: {}", bms[0], bms[1], bms[2], e.what());
  }
}

// The swizzle moves' search: every allowed B, M, S, fewest changed parameters first.
ExerciseSearch solve_swizzle_exercise(const LessonStep& step) {
  const LessonStep goal = exercise_goal_step(step);
  ExerciseSearch out;
  for (const std::array<int, 3>& bms : exercise_swizzle_candidates(*step.exercise->swizzle)) {
    ++out.searched;
    std::optional<ExerciseSwizzleRun> run;
    try {
      run = exercise_swizzle_run(step, bms);
    } catch (const Error&) {
      continue;  // a swizzle that leaves the tile, or one the simulator refuses, meets no goal
    }
    try {
      const std::vector<ClaimCheck> checks = check_claims(goal, run->problem, run->analysis);
      if (!std::all_of(checks.begin(), checks.end(), [](const ClaimCheck& c) { return c.holds; })) continue;
    } catch (const Error&) {
      continue;  // a goal that does not apply to this state is not met there
    }
    out.swizzle = bms;
    out.state = std::move(run->state);
    return out;
  }
  return out;
}

}  // namespace

std::int64_t exercise_swizzle_states(const SwizzleMoves& mv) {
  std::int64_t n = 0;
  each_exercise_swizzle(mv, [&](const std::array<int, 3>&) {
    ++n;
    return false;
  });
  return n;
}

bool find_swizzle_start(SwizzleMoves& mv, const LinearLayout& shared) {
  return each_exercise_swizzle(mv, [&](const std::array<int, 3>& bms) {
    const std::optional<LinearLayout> plain = exercise_swizzled(shared, bms);
    if (!plain) return false;
    const std::optional<std::string> text = to_cute(*plain);
    if (!text || text->rfind("Swizzle<", 0) == 0) return false;
    mv.plain = *plain;
    mv.plain_text = *text;
    mv.start = bms;
    return true;
  });
}

ProblemSpec exercise_swizzle_state(const LessonStep& step, const std::array<int, 3>& bms) {
  return exercise_swizzle_run(step, bms).state;
}

std::optional<std::array<int, 3>> exercise_swizzle_of(const LessonStep& step, const ProblemSpec& state) {
  if (!step.exercise || !step.exercise->swizzle || !state.shared) return std::nullopt;
  if (exercise_without_layout(state) != exercise_without_layout(step.problem)) return std::nullopt;
  const SwizzleMoves& mv = *step.exercise->swizzle;
  std::optional<std::array<int, 3>> found;
  each_exercise_swizzle(mv, [&](const std::array<int, 3>& bms) {
    const std::optional<LinearLayout> layout = exercise_swizzled(mv.plain, bms);
    if (layout && *layout == state.shared->layout) found = bms;
    return found.has_value();
  });
  return found;
}

const ExerciseLockWords& exercise_lock_words() {
  static const ExerciseLockWords words{
      "locked: exercise open",
      "Hidden during the exercise: Show a hint instead, or Show the answer on the lesson card to give up."};
  return words;
}

std::string exercise_solution_text(const LessonExercise& e, const ExerciseSearch& search) {
  if (e.swizzle && search.swizzle) return exercise_swizzle_name(*e.swizzle, *search.swizzle);
  if (search.solution) return "masks " + format_masks(*search.solution);
  return "";
}

std::string exercise_moves_text(const LessonExercise& e) {
  if (e.swizzle)
    return fmt::format("B in {}..{}, M in {}..{} and S in {}..{}", e.swizzle->b[0], e.swizzle->b[1], e.swizzle->m[0],
                       e.swizzle->m[1], e.swizzle->s[0], e.swizzle->s[1]);
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
  if (e.swizzle) {
    out.swizzle = exercise_swizzle_of(step, state);
    if (!out.swizzle)
      out.moves_problem = exercise_without_layout(state) != exercise_without_layout(step.problem)
                              ? "the workbench shows another problem than this step's"
                              : fmt::format("the workbench's layout is no Swizzle<B,M,S> o {} with {}", e.swizzle->plain_text,
                                            exercise_moves_text(e));
  } else {
    exercise_count_grid_moves(step, state, out);
  }
  out.solved =
      out.moves_problem.empty() && std::all_of(out.goal.begin(), out.goal.end(), [](const ClaimCheck& c) { return c.holds; });
  return out;
}

ExerciseSearch solve_exercise(const LessonStep& step) {
  if (!step.exercise) fail("step '{}' has no exercise", step.title);
  const LessonExercise& e = *step.exercise;
  if (e.swizzle) return solve_swizzle_exercise(step);
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
    out.state = step.problem;
    out.state->masks = *out.solution;
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
  if (!s.state)
    return fmt::format("exercise: no state within {} meets the goal ({} states searched)", exercise_moves_text(*step.exercise),
                       s.searched);
  return "";
}

}  // namespace swz
