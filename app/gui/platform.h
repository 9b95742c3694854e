// platform.h: the window, the GL context and Dear ImGui's GLFW / OpenGL 3
// backends. Everything window-system specific lives here; the workbench and
// its panels only see ImGui.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

struct GLFWwindow;

namespace swz::gui {

struct PlatformOptions {
  int width = 1600, height = 1000;  // window size in screen pixels
  bool visible = true;              // tests may hide the window
  bool vsync = true;                // off for benchmarks and screenshots
  std::string title = "Swizzle Workbench";
};

class Platform;

// Keys pressed in any of the program's windows since the last frame ended, in order of arrival:
// every press, also several of one key within one frame (ImGui 1.86 polls io.KeysDown once
// per frame, so a press and release between two frames is lost there). Key repeats do not count.
const std::vector<int>& key_presses();

// Input a test feeds for one frame, applied after the backend's own input.
struct InjectedInput {
  std::optional<ImVec2> mouse_pos;
  bool mouse_down[3] = {false, false, false};
  float wheel = 0.0f;
  std::vector<int> keys;  // GLFW key codes held during this frame
  bool ctrl = false, shift = false;
  std::string text;  // characters typed this frame (UTF-8), as into a focused text field
};

class Platform {
 public:
  // Null, with `error` set to one line, when there is no display or no OpenGL 3.3.
  static std::unique_ptr<Platform> create(const PlatformOptions& options, std::string& error);
  // A second window beside `main`: its own ImGui context, sharing main's GL objects and font
  // atlas. Only main polls events; frames of the two windows must not interleave. Null, with
  // `error`, when the window system refuses a second window.
  static std::unique_ptr<Platform> create_secondary(Platform& main, const PlatformOptions& options, std::string& error);
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  bool should_close() const;
  void set_title(const std::string& title);
  GLFWwindow* window() const { return window_; }
  ImGuiContext* imgui_context() const { return context_; }
  // Makes this window's GL and ImGui contexts current (begin_frame does it too).
  void activate();

  // Fullscreen on the monitor the window is mostly on, and back to the windowed size and place.
  void set_fullscreen(bool on);
  bool fullscreen() const;
  // The monitor's size in screen pixels (the one the window is on), {0, 0} when unknown.
  ImVec2 monitor_size() const;
  // Polls events, applies the UI scale (rebuilding the font atlas when it changed), starts an ImGui frame.
  void begin_frame(float ui_scale, const InjectedInput* inject = nullptr);
  // Renders the ImGui frame into the back buffer: end_frame() then submit().
  void render();
  void end_frame();  // ImGui::Render: the frame's draw lists are final
  void submit();     // GL: clear and draw the draw lists
  void present();
  void finish();  // waits for GL to complete the frame
  // Back-buffer pixels as RGBA, top row first; call after render() and before present().
  std::vector<unsigned char> read_pixels(int& width, int& height) const;

 private:
  Platform() = default;
  void apply_scale(float scale);
  void install_callbacks();
  GLFWwindow* window_ = nullptr;
  ImGuiContext* context_ = nullptr;
  Platform* main_ = nullptr;  // set on a secondary window: the window that owns GLFW and the fonts
  float scale_ = 0.0f;
  std::vector<int> injected_keys_;
  int windowed_[4] = {0, 0, 0, 0};  // x, y, width, height before going fullscreen
};

// Writes RGBA pixels as PNG; false and `error` on failure.
bool write_png(const std::string& path, const std::vector<unsigned char>& rgba, int width, int height, std::string& error);

// The message for "no display": points at xvfb-run and the command-line tool.
std::string no_display_message(const std::string& detail);

}  // namespace swz::gui
