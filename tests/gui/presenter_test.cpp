// A lecture's controls under real frames: remote key presses that arrive together, full screen,
// claims hidden from students, the step list, the end of a lesson, and the presenter's window.
#include "presenter.h"

#include <GLFW/glfw3.h>
#include <imgui_internal.h>

#include <chrono>
#include <thread>

#include "classroom.h"
#include "gui_fixture.h"
#include "swz/teach/lesson.h"

namespace swz::gui::test {

namespace {

// The classroom is one per process: each test starts from a closed one.
void reset_classroom() {
  Classroom& c = classroom();
  c.open_lesson = -1;
  c.step = 0;
  c.lesson_error.clear();
  c.quiz_open = false;
  c.presentation = false;
  c.show_claims = false;
  c.fullscreen = false;
  c.presenter = false;
  c.presenter_in_main = false;
}

// The key callback GLFW calls for this window (setting one returns the one before).
GLFWkeyfun key_callback(GLFWwindow* w) {
  GLFWkeyfun installed = glfwSetKeyCallback(w, nullptr);
  glfwSetKeyCallback(w, installed);
  return installed;
}

// The first step of a shipped lesson with at least one claim.
int step_with_claims(const Lesson& lesson) {
  for (std::size_t k = 0; k < lesson.steps.size(); ++k)
    if (!lesson.steps[k].claims.empty()) return static_cast<int>(k) + 1;
  return -1;
}

}  // namespace

class LectureTest : public GuiTest {
 protected:
  void SetUp() override {
    GuiTest::SetUp();
    reset_classroom();
  }
  void TearDown() override {
    reset_classroom();
    GuiTest::TearDown();
  }
  const Lesson& open_at(const std::string& name, int step) {
    std::string error;
    EXPECT_TRUE(open_lesson(*bench_, name, step, error)) << error;
    frames(3);
    return *classroom().lesson();
  }
};

TEST_F(LectureTest, TwoPageDownPressesWithinOneFrameAdvanceTwoSteps) {
  open();
  const Lesson& lesson = open_at("swizzle-by-hand", 1);
  const GLFWkeyfun callback = key_callback(platform_->window());
  ASSERT_NE(callback, nullptr);
  // A remote's presses, press and release each, all delivered before the next frame.
  for (int i = 0; i < 2; ++i) {
    callback(platform_->window(), GLFW_KEY_PAGE_DOWN, 0, GLFW_PRESS, 0);
    callback(platform_->window(), GLFW_KEY_PAGE_DOWN, 0, GLFW_RELEASE, 0);
  }
  frame();
  EXPECT_EQ(classroom().step, 2);
  frames(2);
  EXPECT_EQ(bench_->session().problem, state_for_step(lesson.steps[2]));
  // Three more, one of them Page Up: net two further.
  for (int key : {GLFW_KEY_PAGE_DOWN, GLFW_KEY_PAGE_UP, GLFW_KEY_PAGE_DOWN, GLFW_KEY_PAGE_DOWN}) {
    callback(platform_->window(), key, 0, GLFW_PRESS, 0);
    callback(platform_->window(), key, 0, GLFW_RELEASE, 0);
  }
  frame();
  EXPECT_EQ(classroom().step, 4);
  // A held key's repeats are not presses.
  callback(platform_->window(), GLFW_KEY_PAGE_DOWN, 0, GLFW_REPEAT, 0);
  frame();
  EXPECT_EQ(classroom().step, 4);
  // The ImGui side still sees the keys (the callback chains to the backend's).
  key(GLFW_KEY_PAGE_UP);
  EXPECT_EQ(classroom().step, 3);
}

TEST_F(LectureTest, FullScreenCoversTheMonitorAndComesBackToTheWindowedSize) {
  open();
  int w0 = 0, h0 = 0;
  glfwGetWindowSize(platform_->window(), &w0, &h0);
  const ImVec2 monitor = platform_->monitor_size();
  ASSERT_GT(monitor.x, 0.0f);
  auto settle = [&](auto done) {
    for (int i = 0; i < 40 && !done(); ++i) {
      frame();
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  };
  key(GLFW_KEY_F11);
  EXPECT_TRUE(classroom().fullscreen);
  platform_->set_fullscreen(classroom().fullscreen);
  int w = 0, h = 0;
  settle([&] {
    glfwGetWindowSize(platform_->window(), &w, &h);
    return w == static_cast<int>(monitor.x) && h == static_cast<int>(monitor.y);
  });
  frame();
  EXPECT_TRUE(platform_->fullscreen());
  EXPECT_EQ(w, static_cast<int>(monitor.x));
  EXPECT_EQ(h, static_cast<int>(monitor.y));
  EXPECT_EQ(ImGui::GetIO().DisplaySize.x, monitor.x);
  key(GLFW_KEY_F11);
  EXPECT_FALSE(classroom().fullscreen);
  platform_->set_fullscreen(classroom().fullscreen);
  settle([&] {
    glfwGetWindowSize(platform_->window(), &w, &h);
    return w == w0 && h == h0;
  });
  EXPECT_FALSE(platform_->fullscreen());
  EXPECT_EQ(w, w0);
  EXPECT_EQ(h, h0);
}

TEST_F(LectureTest, ClaimsAreHiddenInPresentationModeUntilAsked) {
  open();
  const Lesson lesson = load_lesson_file(lessons_dir() / "swizzle-by-hand.json");
  const int k = step_with_claims(lesson);
  ASSERT_GT(k, 0);
  open_at("swizzle-by-hand", k);
  EXPECT_TRUE(bench_->probe("lesson.claims").has_value()) << "claims are shown outside presentation mode";
  EXPECT_FALSE(bench_->probe("lesson.show_claims").has_value());

  classroom().presentation = true;
  frames(2);
  EXPECT_FALSE(bench_->probe("lesson.claims").has_value()) << "claims on the projector before anyone asked";
  ASSERT_TRUE(bench_->probe("lesson.show_claims").has_value());
  click("lesson.show_claims");
  EXPECT_TRUE(bench_->probe("lesson.claims").has_value());
  // The next step's claims are hidden again.
  go_to_step(*bench_, k);
  frames(2);
  EXPECT_FALSE(classroom().show_claims);
}

TEST_F(LectureTest, StepListJumpsLikeNext) {
  open();
  const Lesson& lesson = open_at("swizzle-by-hand", 1);
  ASSERT_GE(lesson.steps.size(), 6u);
  click("lesson.steps");
  ASSERT_TRUE(bench_->probe("lesson.steps.6").has_value()) << "the step list did not open";
  click("lesson.steps.6");
  EXPECT_EQ(classroom().step, 5);
  frames(2);
  EXPECT_EQ(bench_->session().problem, state_for_step(lesson.steps[5]));
  EXPECT_EQ(bench_->session().trace.step, lesson.steps[5].step);
}

TEST_F(LectureTest, LastStepOffersTheNextLessonAndTheQuiz) {
  open();
  Classroom& c = classroom();
  if (!c.scanned) scan_lessons(c);
  std::vector<std::string> order;  // the menu's order
  for (const LessonEntry& e : c.lessons)
    if (e.lesson) order.push_back(e.lesson->name);
  ASSERT_GE(order.size(), 2u);
  const Lesson& first = open_at(order[0], 1);
  const int last = static_cast<int>(first.steps.size());
  EXPECT_FALSE(bench_->probe("lesson.next_lesson").has_value()) << "Next lesson before the last step";
  go_to_step(*bench_, last - 1);
  frames(2);
  EXPECT_FALSE(bench_->probe("lesson.next").has_value());
  click("lesson.next_lesson");
  ASSERT_NE(c.lesson(), nullptr);
  EXPECT_EQ(c.lesson()->name, order[1]);
  EXPECT_EQ(c.step, 0);
  frames(2);
  EXPECT_EQ(bench_->session().problem, state_for_step(c.lesson()->steps[0]));

  // The last lesson's last step: no next lesson, but the quiz.
  const Lesson& final_lesson = open_at(order.back(), 1);
  go_to_step(*bench_, static_cast<int>(final_lesson.steps.size()) - 1);
  frames(2);
  EXPECT_FALSE(bench_->probe("lesson.next_lesson").has_value());
  EXPECT_FALSE(c.quiz_open);
  click("lesson.quiz");
  EXPECT_TRUE(c.quiz_open);
  // The lesson names its quiz set: the whole room gets that set's questions.
  ASSERT_FALSE(final_lesson.quiz.empty());
  ASSERT_TRUE(c.quiz_set.has_value());
  EXPECT_EQ(c.quiz_set->name, final_lesson.quiz);
}

TEST_F(LectureTest, PresenterWindowOpensBesideAndClosesAlone) {
  open();
  const Lesson lesson = load_lesson_file(lessons_dir() / "swizzle-by-hand.json");
  const int k = step_with_claims(lesson);
  open_at("swizzle-by-hand", k);
  int w = 0, h = 0;
  const auto before = capture(w, h);

  Classroom& c = classroom();
  c.presenter = true;
  PresenterCapture shot;
  for (int i = 0; i < 3; ++i) {
    frame();
    service_presenter(*platform_, *bench_, &shot);
  }
  if (c.presenter_in_main) GTEST_SKIP() << "no second window here: " << bench_->error();
  ASSERT_NE(presenter_platform(), nullptr);
  EXPECT_TRUE(c.presenter_window);
  EXPECT_FALSE(bench_->probe("lesson.claims").has_value()) << "claims on the projector's card while the presenter view is open";
  // The presenter's window drew text (dark pixels on the light theme).
  ASSERT_GT(shot.width, 0);
  int dark = 0;
  for (std::size_t i = 0; i + 3 < shot.pixels.size(); i += 4)
    if (shot.pixels[i] < 90 && shot.pixels[i + 1] < 90 && shot.pixels[i + 2] < 90) ++dark;
  EXPECT_GT(dark, 2000);
  // A new UI scale rebuilds the shared fonts: the presenter's window still draws its text.
  bench_->apply(cmd::set_ui_scale(1.6f));
  for (int i = 0; i < 3; ++i) {
    frame();
    service_presenter(*platform_, *bench_, &shot);
  }
  int dark_scaled = 0;
  for (std::size_t i = 0; i + 3 < shot.pixels.size(); i += 4)
    if (shot.pixels[i] < 90 && shot.pixels[i + 1] < 90 && shot.pixels[i + 2] < 90) ++dark_scaled;
  EXPECT_GT(dark_scaled, dark) << "larger text, more ink";
  bench_->apply(cmd::set_ui_scale(1.0f));
  // Keys pressed in the presenter's window move the lesson too.
  const GLFWkeyfun callback = key_callback(presenter_platform()->window());
  callback(presenter_platform()->window(), GLFW_KEY_PAGE_DOWN, 0, GLFW_PRESS, 0);
  callback(presenter_platform()->window(), GLFW_KEY_PAGE_DOWN, 0, GLFW_RELEASE, 0);
  frame();
  EXPECT_EQ(c.step, k);

  // A click in the presenter's window reaches its own ImGui context, not the workbench's.
  GLFWwindow* pw = presenter_platform()->window();
  const GLFWmousebuttonfun mouse = glfwSetMouseButtonCallback(pw, nullptr);
  glfwSetMouseButtonCallback(pw, mouse);
  ASSERT_NE(mouse, nullptr);
  mouse(pw, GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0);
  frame();
  EXPECT_FALSE(ImGui::GetIO().MouseDown[0]) << "the presenter's click went to the workbench";
  service_presenter(*platform_, *bench_);
  ImGui::SetCurrentContext(presenter_platform()->imgui_context());
  const bool presenter_saw_it = ImGui::GetIO().MouseDown[0];
  platform_->activate();
  EXPECT_TRUE(presenter_saw_it);
  mouse(pw, GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0);

  // Its close button closes it alone; the main window draws as before (its fonts included).
  glfwSetWindowShouldClose(presenter_platform()->window(), GLFW_TRUE);
  frame();
  service_presenter(*platform_, *bench_);
  EXPECT_EQ(presenter_platform(), nullptr);
  EXPECT_FALSE(c.presenter);
  EXPECT_FALSE(platform_->should_close());
  go_to_step(*bench_, k - 1);
  frames(3);
  const auto after = capture(w, h);
  // The menu bar is the same pixels as before.
  const int rows = static_cast<int>(ImGui::GetFrameHeight()) - 2;
  int differ = 0;
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < w; ++x)
      if (!near(pixel(before, w, ImVec2(static_cast<float>(x), static_cast<float>(y))),
                pixel(after, w, ImVec2(static_cast<float>(x), static_cast<float>(y)))))
        ++differ;
  EXPECT_EQ(differ, 0);
  EXPECT_TRUE(bench_->probe("lesson.claims").has_value()) << "claims shown again on the card once the presenter view closed";
}

TEST_F(LectureTest, WithoutASecondWindowThePresenterViewFloatsOverTheWorkbench) {
  open();
  const Lesson lesson = load_lesson_file(lessons_dir() / "swizzle-by-hand.json");
  open_at("swizzle-by-hand", step_with_claims(lesson));
  Classroom& c = classroom();
  c.presenter = true;
  c.presenter_in_main = true;  // what service_presenter() sets when no second window opens
  frames(2);
  service_presenter(*platform_, *bench_);
  frames(2);
  EXPECT_EQ(presenter_platform(), nullptr);
  ImGuiWindow* view = ImGui::FindWindowByName("###presenter");
  ASSERT_NE(view, nullptr);
  EXPECT_TRUE(view->WasActive);
  EXPECT_TRUE(bench_->probe("lesson.show_claims").has_value()) << "claims hidden on the card here too";
  // Its close button turns it off.
  c.presenter = false;
  frames(2);
  service_presenter(*platform_, *bench_);
  EXPECT_FALSE(c.presenter_in_main);
  EXPECT_TRUE(bench_->probe("lesson.claims").has_value());
}

// The plan: a step with planned minutes shows them, and where the clock should be, in the presenter view.
TEST_F(LectureTest, PresenterViewShowsTheStepsPlannedMinutes) {
  open();
  open_at("tma-swizzle", 3);
  Classroom& c = classroom();
  ASSERT_NE(c.current_step(), nullptr);
  ASSERT_GT(c.current_step()->minutes, 0.0);
  c.presenter = true;
  c.presenter_in_main = true;
  frames(2);
  service_presenter(*platform_, *bench_);
  frames(2);
  EXPECT_TRUE(bench_->probe("presenter.plan").has_value()) << "no plan line in the presenter view";
  c.presenter = false;
  frames(2);
  service_presenter(*platform_, *bench_);
}

}  // namespace swz::gui::test
