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

// Input a test feeds for one frame, applied after the backend's own input.
struct InjectedInput {
  std::optional<ImVec2> mouse_pos;
  bool mouse_down[3] = {false, false, false};
  float wheel = 0.0f;
  std::vector<int> keys;  // GLFW key codes held during this frame
  bool ctrl = false, shift = false;
};

class Platform {
 public:
  // Null, with `error` set to one line, when there is no display or no OpenGL 3.3.
  static std::unique_ptr<Platform> create(const PlatformOptions& options, std::string& error);
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  bool should_close() const;
  void set_title(const std::string& title);
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
  GLFWwindow* window_ = nullptr;
  float scale_ = 0.0f;
  std::vector<int> injected_keys_;
};

// Writes RGBA pixels as PNG; false and `error` on failure.
bool write_png(const std::string& path, const std::vector<unsigned char>& rgba, int width, int height, std::string& error);

// The message for "no display": points at xvfb-run and the command-line tool.
std::string no_display_message(const std::string& detail);

}  // namespace swz::gui
