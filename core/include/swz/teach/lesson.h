// lesson.h: lessons, the data files that walk a class through the workbench.
//
// A lesson is a JSON file (assets/lessons/*.json, format in its README.md): a
// title and a list of steps. Each step puts the workbench in one state (a
// preset, its shared layout, the access and register step on show), says what
// to look at in a few sentences, names what to highlight, and makes claims the
// core can check:
//
//   {"title": "The pileup", "preset": "transpose16x32", "layout": "unswizzled",
//    "access": "read", "text": ["..."], "highlight": ["tensor.col.0"],
//    "claims": {"read.wavefronts": 16, "read.intersection_dim": 4}}
//
// Loading validates everything (keys, preset, layout, masks, register step,
// highlight targets, claim quantities and their value types) and throws
// swz::Error with one line naming the file, the step and the problem. Whether
// a claim *holds* is a separate question (check_claims): a lesson whose claims
// drift from the core still loads, and the front end shows which claim is off.
//
// Steps inherit what they do not say from the step before (preset, layout,
// access, register step, view: lesson_view.h); a step that names a new preset starts from that
// preset's default layout. The loader resolves this, so every LessonStep
// below is complete.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "swz/layout/layout.h"
#include "swz/problem/problem.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/analysis.h"
#include "swz/teach/lesson_view.h"

namespace swz {

inline constexpr const char* kLessonFormat = "swizzle-workbench-lesson";
inline constexpr int kLessonVersion = 1;

enum class LessonAccess { Store, Read };

struct LessonClaim {
  std::string quantity;     // "read.wavefronts", "bank(0,4)", ... (see measure())
  nlohmann::json expected;  // number, bool, string or array, as written
};

// An exercise's CuTe moves ("moves": {"swizzle": {"B": [0, 3], "M": [0, 4], "S": [1, 6]}}): the
// learner picks Swizzle<B,M,S>, each parameter within its range, over the plain layout under the
// step's own (which is one of them); the core builds the layout (lesson_exercise.h).
struct SwizzleMoves {
  std::array<int, 2> b{}, m{}, s{};  // inclusive ranges [lo, hi]
  LinearLayout plain;                // the step's layout with its swizzle undone (offset -> element)
  std::string plain_text;            // that layout in CuTe's words, "(64,64):(64,1)"
  std::array<int, 3> start{};        // the step's own B, M, S
};

// A task the learner solves on the live workbench (lesson_exercise.h): the step's state is the
// start, the toggle grid (or the card's B, M, S for a swizzle) the tool, the core the judge.
struct LessonExercise {
  std::string task;                     // what to do, in words
  std::vector<LessonClaim> goal;        // every one must hold on the learner's state
  int toggles = -1;                     // at most this many toggles flipped from the step's masks; -1: no limit
  int masks = -1;                       // at most this many row masks changed from the step's; -1: no limit
  std::optional<SwizzleMoves> swizzle;  // the moves are a CuTe swizzle's parameters instead of the grid's
  std::vector<std::string> hints;       // shown one at a time, in order
};

// A count the learner predicts before looking ("predict": {"ask": "...", "quantity": "read.wavefronts"}):
// they type a whole number and the core checks it against the quantity measured on the step's own
// problem (lesson_predict.h). The quantity is any claim quantity whose value is a whole number.
struct LessonPrediction {
  std::string ask;       // the question, in words that work on a card, a slide and paper
  std::string quantity;  // "read.wavefronts", "bank(3,5)", ...
};

struct LessonStep {
  std::string title;
  std::vector<std::string> paragraphs;
  std::vector<std::string> notes;  // speaker notes for the presenter view (optional; never on the card)
  // The problem on show, resolved by the loader: a "problem" object (any spec: a custom
  // problem, another tile, another bank count), or "preset" with one of "layout", "masks"
  // and "shared" (a layout in CuTe / Triton / MLIR / JSON text), inherited from the step before.
  ProblemSpec problem;
  LessonAccess access = LessonAccess::Read;
  int step = 0;                        // register step shown in the trace
  std::vector<std::string> highlight;  // "panel:grid", "tensor.col.0", "grid.cell.0.1", ...
  std::vector<LessonClaim> claims;
  LessonView view;  // panels shown, focus, cell numbers, solver step (inherited)
  double minutes = 0;  // planned time on this step in a lecture ("minutes"); 0: none planned
  std::optional<LessonExercise> exercise;  // a task on this step ("exercise"; never inherited)
  std::optional<LessonPrediction> predict;  // a count to predict on this step ("predict"; never inherited)
};

struct Lesson {
  std::string name;  // the file's stem: what --lesson NAME selects
  std::string title;
  std::string summary;
  std::string quiz;  // a quiz set (name in the quiz folder, or a file) offered at the last step; "" none
  int order = 100;  // lessons list in (order, name) order
  std::vector<LessonStep> steps;
};

// A lecture's plan: the minutes planned for the lesson's steps before step `step` (0-based; the
// lesson's size: all of them), the presenter's "where we should be by now".
double planned_minutes_before(const Lesson& lesson, std::size_t step);
// The lecture's plan: every step of the lessons summed, the one total every face shows.
double planned_lecture_minutes(const std::vector<Lesson>& lessons);
// Minutes as the plan shows them: "85.5", "86" (one decimal, none when whole).
std::string minutes_text(double minutes);

// The workbench's panel ids a step may highlight as "panel:ID".
const std::vector<std::string>& lesson_panel_ids();

// Parses and validates a lesson; `origin` (a file name) starts every message.
Lesson parse_lesson(const nlohmann::json& j, const std::string& name, const std::string& origin);
// Reads, parses and validates a lesson file; the name is the file's stem.
Lesson load_lesson_file(const std::filesystem::path& path);
// The *.json files of a directory, sorted by name (empty when it does not exist).
std::vector<std::filesystem::path> lesson_files(const std::filesystem::path& dir);

// The problem a step shows (build_problem of its spec).
Problem problem_for_step(const LessonStep& step);

// The value of one claimable quantity on a problem and its analysis; throws swz::Error
// for an unknown quantity or bad arguments. `side.` is "store." or "read.":
//   side.wavefronts, side.ideal_wavefronts, side.conflicts, side.ways, side.verdict,
//   side.steps, side.vec_bits, side.step_wavefronts (at the step's register step, warp 0),
//   side.lemma_applies, side.agrees, side.intersection_dim, side.predicted_wavefronts,
//   side.intersection_basis, side.segment_basis, side.thread_basis (lists of "m0^n1")
//   masks, layout.linear, layout.description
//   bank(m,n), offset(m,n), chunk(m,n)   where element (m, n) lives (chunk: 16-byte chunk in its 128-byte line)
//   column_banks(n), row_banks(m)        distinct banks the tile's column / row occupies
//   xor_table(R,C).row(m)                n ^ m for n < C: where row m's elements go under "XOR by the row"
//   xor_table(R,C).out_of_bounds         the cells [m, n] of an RxC tile whose n ^ m falls outside the C columns
//   and the facts of core/src/teach/lesson_facts.h: swizzle(B,M,S).of(o), tma(W).*, xor_table(R,C).bijection,
//   side.offset_of(r,t), element_at(o), solve.*
nlohmann::json measure(const std::string& quantity, const Problem& problem, const ProblemAnalysis& analysis, int register_step);

struct ClaimCheck {
  LessonClaim claim;
  nlohmann::json actual;
  bool holds = false;
};
// Every claim of the step against the core (lists of basis vectors compare as sets).
std::vector<ClaimCheck> check_claims(const LessonStep& step, const Problem& problem, const ProblemAnalysis& analysis);
std::vector<ClaimCheck> check_claims(const LessonStep& step);
// The step's claims on another state, the workbench as the learner left it (`register_step` the
// trace's): a claim holds only when it is true there; one that does not apply to that state does
// not hold, its `actual` saying why.
std::vector<ClaimCheck> check_claims_on(const LessonStep& step, const ProblemSpec& state, int register_step);

// Where row m's elements go when each is XORed with the row index: n ^ m for n < cols.
// Entries >= cols fall outside the tile (a width that is not a power of two).
std::vector<std::int64_t> xor_swizzle_row(std::int64_t row, std::int64_t cols);

}  // namespace swz
