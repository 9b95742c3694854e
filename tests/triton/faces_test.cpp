// One answer everywhere: whatever `swizzle solve` answers, analyze accepts and prices the same on
// the same layouts (its instructions given as a user gives them: answered_spec), for every preset
// and every access of the Triton dumps in tests/data/ttgir; and the question the workbench's Solver
// asks of a loaded kernel access (audit_layouts) is the one `solve` on the kernel's layouts answers.
// The CLI's and Python's faces are compared in tests/python/test_faces.py, the Solver panel's in
// tests/gui/solver_panel_test.cpp.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "swz/error.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/analysis.h"
#include "swz/solve/solve_report.h"

namespace {

const std::string kFacesData = SWZ_TEST_DATA;

// analyze on `spec` with the answer stated prices each side as the answer does.
void expect_analyze_agrees(const swz::ProblemSpec& spec, const swz::SolveResult& answer) {
  const swz::Problem p = swz::build_problem(swz::answered_spec(spec, answer));
  const swz::ProblemAnalysis a = swz::analyze(p);
  for (const auto& [side, cost, got] :
       {std::tuple{"write", &answer.write_cost, &a.store}, std::tuple{"read", &answer.read_cost, &a.read}}) {
    SCOPED_TRACE(side);
    EXPECT_EQ(got->instruction, cost->instruction);
    EXPECT_EQ(got->simulated.instructions(), cost->instructions);
    EXPECT_EQ(got->simulated.wavefronts, cost->wavefronts);
    EXPECT_EQ(got->simulated.total_wavefronts, cost->total_wavefronts);
  }
}

}  // namespace

TEST(Faces, AnalyzePricesEveryPresetAnswerAsSolveDoes) {
  int matrix_sides = 0;
  for (const swz::PresetInfo& preset : swz::list_presets()) {
    SCOPED_TRACE(preset.name);
    swz::ProblemSpec spec;
    spec.preset = preset.name;
    swz::SolveRequest request;
    request.count_family = false;  // the toggle grid's family is no part of the answer's price
    const swz::SolveReport report = swz::solve_spec(spec, request);
    expect_analyze_agrees(spec, report.result);
    matrix_sides += report.result.write_cost.instruction.rfind("STSM", 0) == 0;
    matrix_sides += report.result.read_cost.instruction.rfind("LDSM", 0) == 0;
  }
  EXPECT_GE(matrix_sides, 2);  // mma_to_blocked_fp16 answers STSM.x4 / LDSM.x4 (issue 41)
}

TEST(Faces, AnalyzePricesEveryKernelAccessAnswerAsSolveDoes) {
  int solved = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kFacesData + "/ttgir")) {
    const std::string path = entry.path().string();
    if (entry.path().extension() != ".ttgir" || path.find("/invalid/") != std::string::npos ||
        path.find("malformed") != std::string::npos)
      continue;
    SCOPED_TRACE(path);
    for (const swz::AuditReport& r : swz::audit_modules(swz::read_text_file(path), path))
      for (std::size_t i = 0; i < r.accesses.size(); ++i) {
        const swz::AuditAccess& a = r.accesses[i];
        if (!a.writer || !a.reader || !a.shared_offsets) continue;
        SCOPED_TRACE(fmt::format("line {} {}", a.line, a.op));
        const swz::ProblemSpec question = swz::audit_layouts(r, i);
        swz::SolveReport report;
        try {
          swz::SolveRequest request;
          request.count_family = false;
          report = swz::solve_spec(question, request);
        } catch (const swz::Error& e) {
          continue;  // a question solve refuses (cp.async sides, ...) is refused alike everywhere
        }
        expect_analyze_agrees(question, report.result);
        ++solved;
      }
  }
  EXPECT_GE(solved, 40);
}

// transpose_conflict.ttgir, as the issue found it: the kernel's layouts solve to 64 wavefronts
// (32 STS.32 and 32 LDS.32, one wavefront each), the question the Solver asks of the loaded access.
TEST(Faces, SolverQuestionOfAKernelAccessIsItsLayouts) {
  const std::string path = kFacesData + "/ttgir/transpose_conflict.ttgir";
  const swz::AuditReport r = swz::audit_module(swz::read_text_file(path), path);
  for (std::size_t i = 0; i < r.accesses.size(); ++i) {
    if (!r.accesses[i].writer) continue;
    const swz::ProblemSpec question = swz::audit_layouts(r, i);
    EXPECT_EQ(question.write_vec_bits + question.read_vec_bits, 0);
    EXPECT_TRUE(question.write_matrix.empty() && question.read_matrix.empty());
    EXPECT_EQ(swz::solve_spec(question).result.total_wavefronts(), 64);
  }
}
