// presenter.h: the presenter's view for the laptop while the projector shows the clean
// workbench: the step's speaker notes, its claims with their check marks, what comes next,
// the time, and the step list to jump.
//
// It opens in a second window (its own ImGui context, sharing the main window's GL objects
// and fonts; platform.h). When the window system gives no second window it floats over the
// workbench instead, and the status line says so.
#pragma once

#include <vector>

namespace swz::gui {

class Platform;
class Workbench;

// The view's contents, inside the current ImGui window.
void draw_presenter_view(Workbench& bench);

// Opens, draws or closes the second window to match classroom().presenter; call after each
// frame of the main window. With `capture`, the presenter window's pixels (RGBA, top row first)
// are read before it is shown. Closing that window turns the presenter view off.
struct PresenterCapture {
  std::vector<unsigned char> pixels;
  int width = 0, height = 0;
};
void service_presenter(Platform& main, Workbench& bench, PresenterCapture* capture = nullptr);
// Closes the second window; call before the main window goes.
void close_presenter();
// The second window, while open (tests drive it).
Platform* presenter_platform();

}  // namespace swz::gui
