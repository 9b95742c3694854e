// `swizzle solve` over every preset and every option a user can combine with it (--ldmatrix,
// --vec-bits, --write/--read-vec-bits, --banks, --keep-register-order, --mask): each combination
// gives an answer or one clear message (swz::Error), never the solver's internal error.
#include <gtest/gtest.h>

#include <string>

#include "swz/error.h"
#include "swz/problem/problem.h"
#include "swz/problem/problem_spec.h"
#include "swz/solve/solve_report.h"

namespace {

// One run; returns "" on an answer or a clear refusal, else what went wrong.
std::string run_one(const swz::ProblemSpec& spec, const swz::SolveRequest& request) {
  try {
    const swz::SolveReport report = swz::solve_spec(spec, request);
    const swz::SolveResult& r = report.result;
    if (r.write_cost.instruction.empty() || r.read_cost.instruction.empty()) return "an answer without its instructions";
    if (request.ldmatrix && r.read_cost.instruction.rfind("LDSM", 0) != 0)
      return "--ldmatrix answered with a reader issuing " + r.read_cost.instruction;
    return "";
  } catch (const swz::SolverBug& e) {
    return e.what();
  } catch (const swz::Error& e) {
    if (std::string(e.what()).empty()) return "an empty refusal";
    return "";
  }
}

std::string describe(const std::string& preset, const swz::ProblemSpec& spec, const swz::SolveRequest& q) {
  return fmt::format("--preset {} --ldmatrix {} --vec-bits {} --write-vec-bits {} --read-vec-bits {} --banks {}{}{}", preset,
                     q.ldmatrix, q.vec_bits, spec.write_vec_bits, spec.read_vec_bits, spec.banks,
                     q.keep_order ? " --keep-register-order" : "", q.repair_masks ? " --mask 0" : "");
}

TEST(SolveOptions, SeedTransposeWithLdmatrixHasNoToggleGrid) {
  // The seed's reader reads (t mod 16, 2r + t/16): under the row-major tile its registers step the
  // columns by 2, so no toggle grid gives ldmatrix its 16-byte rows; a general layout does.
  swz::ProblemSpec spec;
  swz::SolveRequest request;
  request.ldmatrix = 4;
  const swz::SolveReport report = swz::solve_spec(spec, request);
  EXPECT_EQ(report.result.read_cost.instruction, "LDSM.x4");
  EXPECT_EQ(report.result.read_cost.vec_bits, 128);
  EXPECT_FALSE(report.problem.grid.has_value());
  request.repair_masks = true;
  try {
    swz::solve_spec(spec, request);
    ADD_FAILURE() << "--mask with an ldmatrix reader the grid cannot serve was accepted";
  } catch (const swz::Error& e) {
    EXPECT_NE(std::string(e.what()).find("--ldmatrix 4"), std::string::npos) << e.what();
  }
}

TEST(SolveOptions, EveryPresetAndOptionAnswersOrRefuses) {
  int answered = 0;
  for (const swz::PresetInfo& preset : swz::list_presets()) {
    const bool small = swz::make_preset(preset.name).store.layout.out_bits() <= 12;
    for (int banks : {0, 16})
      for (int ldmatrix : {0, 2, 4})
        for (int vec_bits : {0, 32})
          for (int side_bits : {0, 64})
            for (bool keep : {false, true}) {
              swz::ProblemSpec spec;
              spec.preset = preset.name;
              spec.banks = banks;
              spec.write_vec_bits = side_bits;
              spec.read_vec_bits = keep ? 0 : side_bits;
              swz::SolveRequest q;
              q.ldmatrix = ldmatrix;
              q.vec_bits = vec_bits;
              q.keep_order = keep;
              q.repair_masks = keep && vec_bits == 0;  // --mask 0: repair the unswizzled grid
              q.count_family = small;  // seconds on the 128x128 grids; the grid search is the same code
              const std::string what = run_one(spec, q);
              EXPECT_EQ(what, "") << describe(preset.name, spec, q);
              answered += what.empty();
            }
  }
  EXPECT_GT(answered, 0);
}

}  // namespace
