// solve_report.h: one `solve` run as every front end asks for it (the CLI's `swizzle solve`,
// the Python module's swizzle.solve): the spec's problem solved with the caller's options, the
// layout named, and for a toggle-grid problem its masks, family and repair; then the JSON view.
//
// The JSON is the one `swizzle solve --json` prints (README documents its keys):
//   {"preset"?, "shared", "vec_bits", "element_bits", "write", "read", "total_wavefronts",
//    "width_proof", "alternatives", "tradeoff", "check", "lower_bound", "conflict_free",
//    "fallback", "matches", "trace", "register_blocks", "masks"?, "family_size"?, "family"?, "repair"?}
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "swz/layout/recognize.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/global_side.h"
#include "swz/solve/solver.h"

namespace swz {

struct SolveRequest {
  int ldmatrix = 0;           // the reader is ldmatrix .xN (0: as the problem says)
  int vec_bits = 0;           // cap on both sides (0: 128)
  int write_vec_bits = 0;     // cap on one side over vec_bits (solve_spec: the spec's write/read_vec_bits)
  int read_vec_bits = 0;
  bool keep_order = false;    // vectors are each side's registers 0..k-1 as numbered (no renumbering)
  bool repair_masks = false;  // the spec's masks are a grid to repair (the CLI's --mask was given)
  bool full_check = false;    // check the whole table (the probe cases need it)
  bool count_family = true;   // count a toggle grid's family (seconds on big grids: the workbench does it on a worker)
};

// Each lane a block along both dims. For a 2-D conversion whose sides move their 16-byte vectors
// along different dims (a transpose), each side's layout with register bases traded for lane or warp
// bases, so that every lane holds its 16 bytes along its own dim, as before, in `rows` consecutive
// rows of the other dim (as many as both sides' registers allow, at most 128 / element bits: a
// square block); then solved. The lanes and each lane's registers stay as many; the global side
// keeps its 16-byte vectors. This is the copy's register layout, a change to the kernel's loads and
// stores that the shared layout alone cannot make.
struct RegisterSuggestion {
  int rows = 1;
  LinearLayout write_layout, read_layout;
  SolveResult result;  // the answer for those layouts
};
// None when the problem is not such a conversion (not 2-D, an ldmatrix / stmatrix or cp.async side,
// or no side holds 16 bytes along one dim), no register can be traded, or the answer for the blocks
// would not issue fewer instructions at no more wavefronts.
std::optional<RegisterSuggestion> suggest_register_blocks(const Problem& problem, const SolveResult& answer, const SolveOptions& options);

struct SolveReport {
  Problem problem;
  SolveResult result;
  bool named_preset = false;         // the spec is a preset's own problem: the JSON names it
  std::vector<LayoutMatch> matches;  // the families the answer belongs to (none when checked by sample)
  // Toggle-grid problems only:
  std::optional<std::vector<std::uint32_t>> masks;  // the answer's masks, else the family's first; none when empty
  // The family is a search over mask sets, exponential in the grid's rows: counted where the answer
  // was checked in full (tiles up to 2^SolveOptions::kFullCheckBits elements), left out beyond.
  bool family_counted = true;
  std::uint64_t family_both = 0, family_read = 0, family_write = 0;
  std::optional<Repair> repair;  // with repair_masks
  std::optional<RegisterSuggestion> registers;  // suggest_register_blocks for the problem and its answer
  // A cp.async writer: what the problem's own copy and the answer's read from global memory. The answer
  // never reads more sectors than the problem's copy: where renumbered or wider registers would, it
  // keeps the problem's registers and width (and says so in the trace).
  std::optional<GlobalRequests> copy_own, copy_answer;
};

// Throws swz::Error for bad input (naming the field), as build_problem and solve do.
SolveReport solve_spec(const ProblemSpec& spec, const SolveRequest& request = {});
// The same for a problem already built (a lesson step's, the workbench's): the one solve every front
// end shows, so a lesson narrating `swizzle solve` and the Solver panel agree.
SolveReport solve_problem(Problem problem, const SolveRequest& request = {});
nlohmann::json to_json(const SolveReport& report);

// `spec` stating its answer: the answer's shared layout, and each side's instruction as a user
// gives it to analyze (write_matrix / read_matrix "x4[.trans]" for stmatrix / ldmatrix, else
// write_vec_bits / read_vec_bits), so that build_problem and analyze price what solve answered.
ProblemSpec answered_spec(ProblemSpec spec, const SolveResult& answer);

}  // namespace swz
