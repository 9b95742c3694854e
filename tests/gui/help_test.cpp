// Help for a first-timer: Help > Getting started and its buttons, the first-run hint (shown on
// a first start only, gone for good once answered), the flags that keep it out of scripts, and
// the plain sentence at the top of the Algebra and Solver panels.
#include <imgui_internal.h>

#include <fstream>

#include "app.h"
#include "classroom.h"
#include "getting_started.h"
#include "gui_fixture.h"

namespace swz::gui::test {

namespace {

// The first lesson of the Classroom menu's order, as the menu lists them.
std::string first_lesson_name() {
  Classroom& c = classroom();
  scan_lessons(c);
  for (const LessonEntry& e : c.lessons)
    if (e.lesson) return e.lesson->name;
  return "";
}

bool window_shown(const char* id) {
  ImGuiWindow* w = ImGui::FindWindowByName((std::string("###") + id).c_str());
  return w && w->Active && !w->Hidden;  // drawn in the last frame
}

}  // namespace

class HelpTest : public GuiTest {
 protected:
  void TearDown() override {
    if (bench_) close_lesson(*bench_);
    GuiTest::TearDown();
  }
  Workbench& open_first_start(bool hint = true) {
    WorkbenchOptions o;
    o.start = ProblemSpec{};
    o.restore_last = false;
    o.autosave = false;
    o.first_run_hint = hint;
    bench_ = std::make_unique<Workbench>(o);
    frames(3);
    return *bench_;
  }
};

TEST_F(HelpTest, GettingStartedFromTheHelpMenuOpensTheFirstLesson) {
  Workbench& b = open();
  close_lesson(b);  // the classroom outlives workbenches: none left open by an earlier test
  EXPECT_FALSE(b.getting_started_shown());
  EXPECT_FALSE(b.probe("menu.help.getting_started"));  // the menu is closed
  click("menu.help");
  ASSERT_TRUE(b.probe("menu.help.getting_started")) << "Help menu did not open";
  click("menu.help.getting_started");
  EXPECT_TRUE(b.getting_started_shown());
  EXPECT_TRUE(window_shown("getting_started"));
  ASSERT_TRUE(b.probe("getting_started.first_lesson"));
  EXPECT_EQ(classroom().lesson(), nullptr);
  click("getting_started.first_lesson");
  frames(2);
  const Lesson* lesson = classroom().lesson();
  ASSERT_NE(lesson, nullptr) << b.error();
  EXPECT_EQ(lesson->name, first_lesson_name());
  EXPECT_EQ(lesson->name, "toy-gpu");  // order 1 in assets/lessons
  EXPECT_EQ(classroom().step, 0);
  EXPECT_TRUE(window_shown("lesson"));
}

TEST_F(HelpTest, GettingStartedButtonsDoWhatTheySay) {
  Workbench& b = open();
  b.show_getting_started(true);
  frames(2);
  // The Kernel audit tool opens.
  EXPECT_FALSE(b.panel_visible("kernel"));
  click("getting_started.kernel");
  EXPECT_TRUE(b.panel_visible("kernel"));
  b.apply(cmd::show_panel("kernel", false));
  frames(2);
  // The solver's answer is applied to the seed problem's grid: conflict-free both ways afterwards.
  EXPECT_GT(b.model().analysis.read.simulated.wavefronts, b.model().analysis.read.lemma.ideal_wavefronts);
  click("getting_started.solver");
  frames(2);
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, b.model().analysis.read.lemma.ideal_wavefronts);
  EXPECT_EQ(b.model().analysis.store.simulated.wavefronts, b.model().analysis.store.lemma.ideal_wavefronts);
  EXPECT_EQ(b.history().undo_name(), "Solver's answer");
}

TEST_F(HelpTest, FirstRunHintShowsOnAFirstStartUntilAnswered) {
  ASSERT_TRUE(first_start());  // the fixture's config dir is empty
  Workbench& b = open_first_start();
  EXPECT_TRUE(b.first_run_hint_shown());
  EXPECT_TRUE(window_shown("first_run_hint"));
  ASSERT_TRUE(b.probe("first_run_hint.dismiss"));
  EXPECT_FALSE(std::filesystem::exists(first_run_hint_path()));
  click("first_run_hint.dismiss");
  EXPECT_FALSE(b.first_run_hint_shown());
  EXPECT_FALSE(window_shown("first_run_hint"));
  EXPECT_FALSE(b.probe("first_run_hint.dismiss"));
  EXPECT_TRUE(std::filesystem::exists(first_run_hint_path()));
  EXPECT_EQ(first_run_hint_path().parent_path(), config_ / "swizzle-workbench");  // under $XDG_CONFIG_HOME

  // The next start does not offer it again.
  EXPECT_FALSE(first_start());
  Workbench& again = open_first_start();
  EXPECT_FALSE(again.first_run_hint_shown());
  EXPECT_FALSE(again.probe("first_run_hint.dismiss"));
  EXPECT_FALSE(window_shown("first_run_hint"));
}

TEST_F(HelpTest, FirstRunHintOpensTheFirstLessonOrGettingStarted) {
  Workbench& b = open_first_start();
  ASSERT_TRUE(b.first_run_hint_shown());
  click("first_run_hint.first_lesson");
  frames(2);
  ASSERT_NE(classroom().lesson(), nullptr) << b.error();
  EXPECT_EQ(classroom().lesson()->name, first_lesson_name());
  EXPECT_FALSE(b.first_run_hint_shown());
  EXPECT_TRUE(std::filesystem::exists(first_run_hint_path()));
  close_lesson(b);

  std::filesystem::remove(first_run_hint_path());
  Workbench& c = open_first_start();
  ASSERT_TRUE(c.first_run_hint_shown());
  click("first_run_hint.getting_started");
  frames(1);
  EXPECT_FALSE(c.first_run_hint_shown());
  EXPECT_TRUE(c.getting_started_shown());
  EXPECT_TRUE(window_shown("getting_started"));
}

TEST_F(HelpTest, FirstRunHintNeverShowsUnlessAsked) {
  // Tests and scripts: off unless the options ask for it, even with an empty config dir.
  ASSERT_TRUE(first_start());
  Workbench& b = open();
  EXPECT_FALSE(b.first_run_hint_shown());
  EXPECT_FALSE(window_shown("first_run_hint"));
  // A user who has a last session is not a first-timer.
  std::filesystem::create_directories(config_ / "swizzle-workbench");
  std::ofstream(last_session_path()) << "{}\n";
  EXPECT_FALSE(first_start());
  EXPECT_FALSE(open_first_start().first_run_hint_shown());
}

TEST_F(HelpTest, FirstRunHintFlags) {
  auto options_for = [](std::vector<std::string> args) {
    std::vector<char*> argv;
    static std::string program = "swizzle-workbench";
    argv.push_back(program.data());
    for (std::string& a : args) argv.push_back(a.data());
    LaunchOptions o;
    bool exit_now = false;
    EXPECT_EQ(parse_launch_options(static_cast<int>(argv.size()), argv.data(), o, exit_now), 0);
    EXPECT_FALSE(exit_now);
    return o;
  };
  EXPECT_TRUE(workbench_options(options_for({})).first_run_hint);
  EXPECT_FALSE(workbench_options(options_for({"--no-first-run-hint"})).first_run_hint);
  EXPECT_FALSE(workbench_options(options_for({"--screenshot", "x.png"})).first_run_hint);  // headless
  EXPECT_FALSE(workbench_options(options_for({"--lesson", "toy-gpu"})).first_run_hint);
}

TEST_F(HelpTest, AlgebraAndSolverStartWithAPlainSentence) {
  Workbench& b = open();
  frames(2);
  int w = 0, h = 0;
  const auto px = capture(w, h);
  for (const char* id : {"algebra", "solver"}) {
    SCOPED_TRACE(id);
    EXPECT_GT(std::string(panel_summary(id)).size(), 60u);
    const auto panel = b.probe(std::string("panel.") + id);
    const auto line = b.probe(std::string(id) + ".summary");
    ASSERT_TRUE(panel && line);
    // The first thing under the title bar.
    const float content_top = panel->min.y + ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y;
    EXPECT_NEAR(line->min.y, content_top, 1.5f);
    EXPECT_GE(line->max.y - line->min.y, ImGui::GetTextLineHeight() - 0.5f);
    // Drawn: text pixels (darker than the panel's background) in its rectangle.
    const Rgba background = pixel(px, w, ImVec2(panel->min.x + 3.0f, (line->min.y + line->max.y) * 0.5f));  // the padding
    int ink = 0;
    for (float y = line->min.y; y < line->max.y; y += 1.0f)
      for (float x = line->min.x; x < line->max.x; x += 1.0f) {
        const Rgba c = pixel(px, w, ImVec2(x, y));
        if (c.r + c.g + c.b + 90 < background.r + background.g + background.b) ++ink;
      }
    EXPECT_GT(ink, 200);
  }
  // During a lesson the card explains, and the step's panels keep their whole height.
  std::string error;
  ASSERT_TRUE(open_first_lesson(b, error)) << error;
  frames(2);  // the step's view (panels, focus) is applied
  b.apply(cmd::show_panel("algebra", true));
  b.apply(cmd::show_panel("solver", true));
  b.set_focus("");
  frames(3);
  EXPECT_TRUE(b.probe("panel.algebra") && b.probe("panel.solver"));
  EXPECT_FALSE(b.probe("algebra.summary"));
  EXPECT_FALSE(b.probe("solver.summary"));
  close_lesson(b);
  frames(2);
  EXPECT_TRUE(b.probe("algebra.summary") && b.probe("solver.summary"));
}

}  // namespace swz::gui::test
