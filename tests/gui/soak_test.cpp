// Soak: thousands of random UI actions with a fixed seed (toggle a grid cell, change
// preset, step r, switch store/read, apply the solver's answer, export a header,
// undo, redo), frames drawn as they go. After every action the workbench's verdicts
// (what the Trace and Algebra panels show) must equal what the core computes on its
// own from the same session, and memory must not grow without bound.
// Then the quiz's soak: 300 random answers by click over every kind and the shipped
// sets, reporting what it reached.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>

#include "classroom.h"
#include "gui_fixture.h"
#include "swz/algebra/lemma.h"
#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/io/layout_io.h"
#include "swz/sim/analysis.h"
#include "swz/sim/bank.h"
#include "swz/solve/solver.h"

#ifndef SWZ_SOAK_ACTIONS
#define SWZ_SOAK_ACTIONS 10000
#endif
#ifndef SWZ_SOAK_FRAME_EVERY
#define SWZ_SOAK_FRAME_EVERY 64
#endif

namespace swz::gui::test {

namespace {

// VmHWM (peak) and VmRSS (current) of this process, in KiB.
struct Rss {
  long peak_kib = 0, now_kib = 0;
};
Rss read_rss() {
  Rss r;
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) r.peak_kib = std::stol(line.substr(6));
    if (line.rfind("VmRSS:", 0) == 0) r.now_kib = std::stol(line.substr(6));
  }
  return r;
}

// The core problem for a session's problem state, built here without the GUI's model code:
// the preset, then its shared layout (a loaded file), its named variant, or its grid masks.
Problem core_problem(const ProblemSpec& s) {
  static std::map<std::string, Problem> presets;  // make_preset is deterministic; the big ones cost
  auto it = presets.find(s.preset);
  if (it == presets.end()) it = presets.emplace(s.preset, make_preset(s.preset)).first;
  Problem p = it->second;
  if (s.shared)
    p.set_shared(SharedLayout::from_linear(s.shared->layout, s.shared->origin));
  else if (!s.variant.empty())
    p.apply_variant(s.variant);
  else if (p.grid)
    p.set_masks(s.masks);
  return p;
}

// What the core says about a problem state, computed once per state (the soak revisits states).
struct CoreVerdicts {
  ProblemSpec state;
  Problem problem;
  AccessResult sim[2];
  LemmaResult lemma[2];
  bool agrees[2] = {};
};
const CoreVerdicts& core_verdicts(const ProblemSpec& state) {
  static std::vector<std::unique_ptr<CoreVerdicts>> seen;  // the most recent few states
  for (const auto& v : seen)
    if (v->state == state) return *v;
  auto v = std::make_unique<CoreVerdicts>();
  v->state = state;
  v->problem = core_problem(state);
  const Problem& p = v->problem;
  for (int i = 0; i < 2; ++i) {
    const Access& access = i == 0 ? p.store : p.read;
    v->sim[i] = simulate(access, p.shared, p.element_bits, p.bank);
    v->lemma[i] = predict(access, p.shared, p.element_bits, p.bank, v->sim[i].vector.bits);
    v->agrees[i] = explain_difference(v->lemma[i], v->sim[i]).empty();
  }
  if (seen.size() >= 64) seen.erase(seen.begin());
  seen.push_back(std::move(v));
  return *seen.back();
}

// The workbench's verdicts against the core's, from the same session.
void expect_agrees_with_core(const Workbench& b, int action) {
  const Session& s = b.session();
  const Model& m = b.model();
  const CoreVerdicts& core = core_verdicts(s.problem);
  const Problem& p = core.problem;
  ASSERT_TRUE(p.shared == m.problem.shared) << "action " << action << ": the model's shared layout is not the session's";
  for (Side side : {Side::Store, Side::Read}) {
    const int i = side == Side::Store ? 0 : 1;
    const AccessResult& sim = core.sim[i];
    const LemmaResult& lemma = core.lemma[i];
    const AccessAnalysis& shown = m.analysis_of(side);
    // Trace panel: wavefronts per access and per register step.
    ASSERT_EQ(shown.simulated.wavefronts, sim.wavefronts) << "action " << action << " " << side_name(side);
    ASSERT_EQ(shown.simulated.ideal_wavefronts, sim.ideal_wavefronts) << "action " << action;
    ASSERT_EQ(shown.simulated.per_instruction, sim.per_instruction) << "action " << action;
    ASSERT_EQ(shown.simulated.steps, sim.steps) << "action " << action;
    // Algebra panel: does the lemma apply, its intersection and its prediction.
    ASSERT_EQ(shown.lemma.applies, lemma.applies) << "action " << action;
    if (lemma.applies) {
      ASSERT_EQ(shown.lemma.intersection_dim, lemma.intersection_dim) << "action " << action;
      ASSERT_EQ(shown.lemma.predicted_wavefronts, lemma.predicted_wavefronts) << "action " << action;
      ASSERT_EQ(shown.lemma.intersection_basis, lemma.intersection_basis) << "action " << action;
    }
    ASSERT_EQ(shown.agrees(), core.agrees[i]) << "action " << action;
  }
  // The traced instruction (access, warp, register step on show).
  const Access& access = s.trace.side == Side::Store ? p.store : p.read;
  const AccessResult& sim = core.sim[s.trace.side == Side::Store ? 0 : 1];
  ASSERT_GE(s.trace.step, 0);
  ASSERT_LT(s.trace.step, sim.steps) << "action " << action;
  const InstructionResult want = trace_instruction(access, p.shared, p.element_bits, p.bank, s.trace.warp, s.trace.step);
  ASSERT_EQ(b.trace().instruction.wavefronts, want.wavefronts) << "action " << action;
  ASSERT_EQ(b.trace().instruction.bank_words, want.bank_words) << "action " << action;
}

}  // namespace

TEST_F(GuiTest, SoakRandomActionsAgreeWithTheCoreAndDoNotLeak) {
  Workbench& b = open();
  std::mt19937 rng(20261122);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(std::max(1, n))); };
  std::vector<std::string> presets;
  for (const PresetInfo& info : list_presets()) presets.push_back(info.name);
  ASSERT_FALSE(presets.empty());

  const int actions = SWZ_SOAK_ACTIONS;
  const int rss_mark = std::min(500, actions / 2);
  Rss start{}, end{};
  int counts[8] = {};
  int exported = 0, failed = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < actions; ++i) {
    const int kind = pick(8);
    ++counts[kind];
    const Model& m = b.model();
    bool ok = true;
    switch (kind) {
      case 0: {  // toggle a grid cell (the grid's columns above the vector bits)
        if (!m.problem.grid) {
          ok = b.apply(cmd::select_preset(kDefaultPreset));
          break;
        }
        const GridSpec g = *m.problem.grid;
        const int row = pick(g.row_bits), col = g.vec_bits + pick(g.col_bits - g.vec_bits);
        ok = b.apply(cmd::toggle_cell(row, col, "m" + std::to_string(row), "n" + std::to_string(col)));
        break;
      }
      case 1:  // another preset
        ok = b.apply(cmd::select_preset(presets[static_cast<std::size_t>(pick(static_cast<int>(presets.size())))]));
        break;
      case 2: {  // step r (forward, backward or anywhere)
        const int steps = m.steps(b.session().trace.side);
        const int r = b.session().trace.step;
        const int choice = pick(3);
        ok = b.apply(cmd::set_step(choice == 0 ? (r + 1) % steps : choice == 1 ? (r + steps - 1) % steps : pick(steps)));
        break;
      }
      case 3:  // switch store / read
        ok = b.apply(cmd::set_side(b.session().trace.side == Side::Store ? Side::Read : Side::Store));
        break;
      case 4: {  // run the solver and apply its answer, as the Solver panel's button does
        const SolverAnswer& a = b.solver_answer();
        if (!a.result) break;
        if (a.masks)
          ok = b.apply(cmd::set_masks("Solver's answer", *a.masks));
        else
          ok = b.apply(
              cmd::load_layout(LayoutRole::Shared,
                               SpecLayout{layout_from_json(layout_to_json(a.result->offset_bases)).layout, "solver's answer"}));
        break;
      }
      case 5: {  // export a header for the problem on show
        const ExportRequest request = ExportRequest::from_problem(m.problem, "soak_tile");
        if (m.problem.shared.is_linear()) {
          const std::string header = export_header(request);
          ASSERT_NE(header.find("namespace soak_tile"), std::string::npos) << "action " << i;
          ++exported;
        } else {
          EXPECT_THROW((void)export_header(request), Error) << "action " << i;
        }
        break;
      }
      case 6:
        b.undo();
        break;
      case 7:
        b.redo();
        break;
    }
    if (!ok) ++failed;
    if (i % SWZ_SOAK_FRAME_EVERY == 0) frame();
    ASSERT_NO_FATAL_FAILURE(expect_agrees_with_core(b, i)) << "after action kind " << kind;
    if (i + 1 == rss_mark) start = read_rss();
  }
  frames(2);
  end = read_rss();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("soak: %d actions in %.1f s (%d headers exported, %d actions refused)\n", actions, seconds, exported, failed);
  std::printf("soak: actions by kind: toggle %d, preset %d, step %d, side %d, solver %d, export %d, undo %d, redo %d\n",
              counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6], counts[7]);
  std::printf("soak: after %d actions VmHWM %ld KiB, VmRSS %ld KiB; at the end VmHWM %ld KiB, VmRSS %ld KiB\n", rss_mark,
              start.peak_kib, start.now_kib, end.peak_kib, end.now_kib);
  EXPECT_EQ(failed, 0) << "an action of the soak was refused: " << b.error();
  // A leak check, not a timing one: the working set after the warm-up stays put.
  EXPECT_LT(end.now_kib, start.now_kib + 64 * 1024);
  EXPECT_LT(end.peak_kib, start.peak_kib + 64 * 1024);
}

}  // namespace swz::gui::test

namespace swz::gui::test {

// 300 random quiz answers by real clicks (100 under the sanitizers), random questions of every
// kind and the shipped sets: a random choice, sometimes a second click, sometimes Skip before
// answering, sometimes the reveal's problem on the workbench; the score must follow every click.
// What it reached is printed and held below (every kind, sets started and finished, reveals).
TEST_F(GuiTest, QuizSoakOfRandomAnswers) {
#if defined(SWZ_SOAK_ACTIONS) && SWZ_SOAK_ACTIONS < 10000
  const int answers = 100;
#else
  const int answers = 300;
#endif
  // A smaller window than the fixture's: the software rasterizer's time per frame goes with the pixels.
  std::string error;
  if (!reopen(1024, 720, error)) GTEST_SKIP() << "no display: " << error;
  Workbench& b = open();
  Classroom& c = classroom();
  // Clicks in three frames (no hover frame before the press): the soak's clicks are many.
  auto click = [this](const std::string& probe_id) { GuiTest::click(probe_id, /*hover_first=*/false); };
  c.next_seed = 20261123;
  start_quiz(b, std::nullopt);
  frames(3);
  std::mt19937 rng(20261123);
  int asked = 0, right = 0, skipped = 0, second_clicks = 0, shown = 0, sets_started = 0, sets_finished = 0, set_answers = 0;
  int by_kind[kQuizKinds] = {};
  std::set<std::string> presets, prompts;
  std::set<int> picked_positions;
  int asked_before = 0, right_before = 0;  // the score counts from the last start_quiz
  while (asked < answers) {
    if (c.quiz_set && c.set_index >= static_cast<int>(c.quiz_set->questions.size())) {  // a set's final score
      ++sets_finished;
      ASSERT_TRUE(b.probe("quiz.random").has_value());
      asked_before = asked;
      right_before = right;
      click(rng() % 2 ? "quiz.random" : "quiz.restart");
      continue;
    }
    if (rng() % 150 == 0) {  // start a shipped set
      ASSERT_TRUE(open_quiz_set(b, rng() % 2 ? "first-class" : "tma-and-cute", error)) << error;
      ++sets_started;
      asked_before = asked;
      right_before = right;
      frames(1);
    }
    ASSERT_TRUE(c.question.has_value());
    const QuizQuestion q = *c.question;
    prompts.insert(q.prompt);
    if (q.problem) presets.insert(q.problem->preset);
    if (rng() % 10 == 0) {  // skip without answering
      click("quiz.next");
      ++skipped;
      ASSERT_EQ(c.score.asked, asked - asked_before);
      continue;
    }
    const auto at = static_cast<int>(rng() % q.choices.size());
    picked_positions.insert(at);
    click("quiz.choice." + std::to_string(at));
    ASSERT_TRUE(c.answer.has_value()) << q.prompt;
    ++asked;
    ++by_kind[static_cast<int>(q.kind)];
    set_answers += c.quiz_set ? 1 : 0;
    right += at == q.answer ? 1 : 0;
    if (rng() % 4 == 0) {
      click("quiz.choice." + std::to_string(rng() % q.choices.size()));
      ++second_clicks;
    }
    if (q.problem && rng() % 8 == 0) {
      click("quiz.show");
      frame();
      ASSERT_EQ(b.session().problem.preset, q.problem->preset) << q.prompt;
      ++shown;
      b.apply(cmd::select_preset(kDefaultPreset));  // back to the small default, so the soak's frames stay cheap
    }
    ASSERT_EQ(c.score.asked, asked - asked_before);
    ASSERT_EQ(c.score.correct, right - right_before);
    click("quiz.next");
  }
  std::printf(
      "quiz soak: %d answers (%d right, %d wrong), %d skipped, %d clicks after answering, %d problems shown, %zu distinct "
      "questions\n",
      asked, right, asked - right, skipped, second_clicks, shown, prompts.size());
  std::printf("quiz soak: answers by kind:");
  for (int k = 0; k < kQuizKinds; ++k) std::printf(" %s %d", quiz_kind_name(static_cast<QuizKind>(k)), by_kind[k]);
  std::printf("; %d in sets (%d started, %d finished); %zu presets shown after the reveal; choice positions %zu\n", set_answers,
              sets_started, sets_finished, presets.size(), picked_positions.size());
  for (int k = 0; k < kQuizKinds; ++k)
    EXPECT_GT(by_kind[k], 0) << "the soak never answered a " << quiz_kind_name(static_cast<QuizKind>(k)) << " question";
  EXPECT_GT(right, 0);
  EXPECT_GT(asked - right, 0);
  EXPECT_GT(skipped, 0);
  EXPECT_GT(second_clicks, 0);
  EXPECT_GT(shown, 0);
  EXPECT_GT(set_answers, 0);
  EXPECT_GT(sets_finished, 0);
  EXPECT_GE(presets.size(), 4u);
  c.quiz_open = false;
}

}  // namespace swz::gui::test
