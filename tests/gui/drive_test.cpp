// Frames driven by hand: clicks on the toggle grid and the M matrix, arrow keys,
// the solver's answer, undo and redo; the state is checked against the core.
#include <chrono>
#include <thread>

#include <GLFW/glfw3.h>

#include "gui_fixture.h"
#include "swz/sim/analysis.h"
#include "swz/solve/solver.h"

namespace swz::gui::test {

namespace {
Problem seed_with(const std::vector<std::uint32_t>& masks) {
  Problem p = make_preset("transpose16x32");
  p.set_masks(masks);
  return p;
}
std::vector<std::uint32_t> trimmed(std::vector<std::uint32_t> m) {
  while (!m.empty() && m.back() == 0) m.pop_back();
  return m;
}
}  // namespace

TEST_F(GuiTest, ToggleStepAndSolveAgreeWithTheCore) {
  Workbench& b = open();
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, 16);

  // Fold m0 into n1 by clicking the grid.
  click("grid.cell.0.1");
  EXPECT_EQ(b.session().problem.masks, (std::vector<std::uint32_t>{2}));
  const ProblemAnalysis core = analyze(seed_with({2}));
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, core.read.simulated.wavefronts);
  EXPECT_EQ(b.model().analysis.read.lemma.intersection_dim, core.read.lemma.intersection_dim);
  EXPECT_EQ(b.history().undo_name(), "Toggle m0 into n1");

  // Step r with the arrow key: the traced instruction is the core's for step 1.
  key(GLFW_KEY_RIGHT);
  EXPECT_EQ(b.session().trace.step, 1);
  const Problem p = seed_with({2});
  const InstructionResult want = trace_instruction(p.read, p.shared, p.element_bits, p.bank, 0, 1);
  EXPECT_EQ(b.trace().instruction.bank_words, want.bank_words);
  EXPECT_EQ(b.trace().instruction.wavefronts, want.wavefronts);
  key(GLFW_KEY_LEFT);
  EXPECT_EQ(b.session().trace.step, 0);
  key(GLFW_KEY_LEFT);  // wraps to the last step
  EXPECT_EQ(b.session().trace.step, b.model().steps(Side::Read) - 1);

  // The solver's answer, from the grid's button: the core's masks, conflict-free.
  click("grid.solver");
  const SolveResult solved = solve(make_preset("transpose16x32"));
  const auto masks = masks_of(make_preset("transpose16x32"), solved.offset_bases);
  ASSERT_TRUE(masks.has_value());
  EXPECT_EQ(b.session().problem.masks, trimmed(*masks));
  EXPECT_EQ(verdict_of(b.model().analysis.read.simulated), Verdict::Ideal);
  EXPECT_EQ(verdict_of(b.model().analysis.store.simulated), Verdict::Ideal);

  // Undo twice (Ctrl+Z), redo once (Ctrl+Shift+Z).
  key(GLFW_KEY_Z, /*ctrl=*/true);
  EXPECT_EQ(b.session().problem.masks, (std::vector<std::uint32_t>{2}));
  key(GLFW_KEY_Z, /*ctrl=*/true);
  EXPECT_TRUE(b.session().problem.masks.empty());
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, 16);
  key(GLFW_KEY_Z, /*ctrl=*/true, /*shift=*/true);
  EXPECT_EQ(b.session().problem.masks, (std::vector<std::uint32_t>{2}));
}

TEST_F(GuiTest, ClickingACellOfMTogglesLikeTheGrid) {
  Workbench& b = open();
  // Rows of M: n0..n4 then m0..m3; columns o0..o8. C cell (n2, o5) = fold m0 into n2.
  click("matrix.cell.2.5");
  EXPECT_EQ(b.session().problem.masks, (std::vector<std::uint32_t>{4}));
  click("grid.cell.0.2");
  EXPECT_TRUE(b.session().problem.masks.empty());
  EXPECT_FALSE(b.probe("matrix.cell.0.0").has_value());  // the identity is not clickable
}

TEST_F(GuiTest, SolverPanelAppliesItsAnswerAndRepairs) {
  ProblemSpec s;
  s.masks = {1, 2, 4, 8};  // classic XOR m: 2-way read conflict
  Workbench& b = open(s);
  // The family and repair arrive from a worker thread.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (b.solver().busy() && std::chrono::steady_clock::now() < give_up) {
    frame();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  frames(2);
  ASSERT_TRUE(b.probe("solver.repair").has_value());
  const Repair want = repair(seed_with({1, 2, 4, 8}), seed_with({1, 2, 4, 8}).masks);
  click("solver.repair");
  EXPECT_EQ(b.session().problem.masks, trimmed(want.masks));
  EXPECT_EQ(verdict_of(b.model().analysis.read.simulated), Verdict::Ideal);

  click("grid.cell.0.0");  // break it again, then apply the solver's answer
  click("solver.apply");
  EXPECT_EQ(verdict_of(b.model().analysis.read.simulated), Verdict::Ideal);
  // Running the construction replays it from its first step.
  ASSERT_TRUE(b.apply(cmd::set_solver_step(6)));
  click("solver.run");
  EXPECT_LT(b.session().view.solver_step, 3);
}

TEST_F(GuiTest, StoreReadSwitchAndPlay) {
  Workbench& b = open();
  click("trace.store");
  EXPECT_EQ(b.session().trace.side, Side::Store);
  EXPECT_EQ(b.trace().instruction.wavefronts, 1);
  click("trace.read");
  EXPECT_EQ(b.session().trace.side, Side::Read);
  key(GLFW_KEY_SPACE);
  EXPECT_TRUE(b.session().trace.playing);
  key(GLFW_KEY_SPACE);
  EXPECT_FALSE(b.session().trace.playing);
}

TEST_F(GuiTest, UiScaleShortcuts) {
  Workbench& b = open();
  key(GLFW_KEY_EQUAL, /*ctrl=*/true);
  EXPECT_FLOAT_EQ(b.session().view.ui_scale, 1.125f);
  frames(2);
  EXPECT_GT(ImGui::GetFontSize(), 15.5f);
  key(GLFW_KEY_MINUS, /*ctrl=*/true);
  key(GLFW_KEY_MINUS, /*ctrl=*/true);
  EXPECT_FLOAT_EQ(b.session().view.ui_scale, 0.875f);
}

TEST_F(GuiTest, BadEditsShowAnErrorAndChangeNothing) {
  Workbench& b = open();
  const Session before = b.session();
  EXPECT_FALSE(b.apply(cmd::set_bank_model(8, 8)));  // the seed's warp has 32 lanes
  EXPECT_FALSE(b.error().empty());
  EXPECT_EQ(b.session(), before);
  EXPECT_FALSE(b.load_layout_file(LayoutRole::Writer, "/nonexistent/layout.json"));
  EXPECT_EQ(b.session(), before);
  frames(1);
  EXPECT_TRUE(b.probe("status.error").has_value());
}

TEST_F(GuiTest, EveryPresetAndElementTypeDrawsWithoutError) {
  for (const auto& info : list_presets()) {
    SCOPED_TRACE(info.name);
    ProblemSpec s;
    s.preset = info.name;
    Workbench& b = open(s);
    EXPECT_TRUE(b.error().empty()) << b.error();
    for (int bits : {8, 16, 32, 64}) {
      b.apply(cmd::set_element_bits(bits));  // may be refused with a message; must not crash
      frames(1);
    }
    b.apply(cmd::set_shape({64, 64}));
    frames(1);
    EXPECT_EQ(b.model().problem.shape, (std::vector<std::int64_t>{64, 64}));
  }
}

}  // namespace swz::gui::test
