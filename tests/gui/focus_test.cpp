// Focus: one panel fills the tile area (for a projector at a large UI scale);
// double-clicking its title bar or Esc returns to every panel.
#include <GLFW/glfw3.h>

#include "gui_fixture.h"

namespace swz::gui::test {

TEST_F(GuiTest, FocusFillsTheWindowWithOnePanelAndEscReturns) {
  Workbench& b = open();
  const auto tile = b.probe("panel.tensor");
  ASSERT_TRUE(tile.has_value());
  ASSERT_TRUE(b.probe("panel.algebra").has_value());

  b.set_focus("tensor");
  frames(2);
  const auto focused = b.probe("panel.tensor");
  ASSERT_TRUE(focused.has_value());
  EXPECT_FLOAT_EQ(focused->min.x, 0.0f);
  EXPECT_FLOAT_EQ(focused->max.x, ImGui::GetIO().DisplaySize.x);
  EXPECT_GT(focused->max.y - focused->min.y, 2.0f * (tile->max.y - tile->min.y));
  EXPECT_FALSE(b.probe("panel.algebra").has_value());  // the others are not drawn
  // The panel still works: the cells it draws are the core's.
  EXPECT_EQ(b.model().analysis.read.simulated.wavefronts, 16);

  key(GLFW_KEY_ESCAPE);
  EXPECT_TRUE(b.focus().empty());
  EXPECT_TRUE(b.probe("panel.algebra").has_value());

  // Double-clicking a title bar focuses that panel.
  const auto algebra = *b.probe("panel.algebra");
  InjectedInput in;
  in.mouse_pos = ImVec2(algebra.center().x, algebra.min.y + ImGui::GetFrameHeight() * 0.5f);
  frame(&in);
  for (int i = 0; i < 2; ++i) {
    in.mouse_down[0] = true;
    frame(&in);
    in.mouse_down[0] = false;
    frame(&in);
  }
  EXPECT_EQ(b.focus(), "algebra");

  b.set_focus("no-such-panel");
  EXPECT_TRUE(b.focus().empty());
}

}  // namespace swz::gui::test
