#include "platform.h"

#include <cmath>
#include <cstdlib>

#include <GL/gl.h>  // GL 1.1 entry points only (glReadPixels, glFinish, glClear); the backend loads the rest
#include <GLFW/glfw3.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include "theme.h"
#include "swz/io/atomic_file.h"
#include "swz/error.h"

namespace swz::gui {

namespace {

std::string& last_glfw_error() {
  static std::string e;
  return e;
}

void on_glfw_error(int /*code*/, const char* description) { last_glfw_error() = description ? description : "unknown GLFW error"; }

}  // namespace

std::string no_display_message(const std::string& detail) {
  return "swizzle-workbench: no display (" + detail +
         "). Run it under a virtual display, e.g. `xvfb-run -a swizzle-workbench --screenshot out.png`, "
         "or use the command-line tool: `swizzle analyze --preset transpose16x32`.";
}

std::unique_ptr<Platform> Platform::create(const PlatformOptions& o, std::string& error) {
  glfwSetErrorCallback(on_glfw_error);
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!display || !*display) && (!wayland || !*wayland)) {
    error = no_display_message("DISPLAY is not set");
    return nullptr;
  }
  if (!glfwInit()) {
    error = no_display_message(last_glfw_error().empty() ? "the window system could not be opened" : last_glfw_error());
    return nullptr;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, o.visible ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_DOUBLEBUFFER, GLFW_TRUE);
  GLFWwindow* w = glfwCreateWindow(o.width, o.height, o.title.c_str(), nullptr, nullptr);
  if (!w) {
    error = "swizzle-workbench: cannot open an OpenGL 3.3 window (" + (last_glfw_error().empty() ? std::string("unknown reason") : last_glfw_error()) +
            "); under a virtual display use `xvfb-run -a`, or use the command-line tool `swizzle`.";
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(w);
  glfwSwapInterval(o.vsync ? 1 : 0);

  std::unique_ptr<Platform> p(new Platform());
  p->window_ = w;
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the session file holds all state; no imgui.ini next to the binary
  io.LogFilename = nullptr;
  ImGui_ImplGlfw_InitForOpenGL(w, true);
  ImGui_ImplOpenGL3_Init("#version 330");
  return p;
}

Platform::~Platform() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

bool Platform::should_close() const { return glfwWindowShouldClose(window_) != 0; }

void Platform::set_title(const std::string& title) { glfwSetWindowTitle(window_, title.c_str()); }

void Platform::apply_scale(float scale) {
  if (std::fabs(scale - scale_) < 1e-4f) return;
  scale_ = scale;
  load_fonts(std::round(15.0f * scale));
  apply_theme(scale);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void Platform::begin_frame(float ui_scale, const InjectedInput* inject) {
  glfwPollEvents();
  apply_scale(ui_scale);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  for (int k : injected_keys_) io.KeysDown[k] = false;
  injected_keys_.clear();
  if (inject) {
    if (inject->mouse_pos) io.MousePos = *inject->mouse_pos;
    for (int i = 0; i < 3; ++i) io.MouseDown[i] = inject->mouse_down[i];
    io.MouseWheel += inject->wheel;
    for (int k : inject->keys)
      if (k >= 0 && k < 512) {
        io.KeysDown[k] = true;
        injected_keys_.push_back(k);
      }
    io.KeyCtrl = inject->ctrl;
    io.KeyShift = inject->shift;
  }
  ImGui::NewFrame();
}

void Platform::render() {
  end_frame();
  submit();
}

void Platform::end_frame() { ImGui::Render(); }

void Platform::submit() {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  glViewport(0, 0, w, h);
  glClearColor(0.93f, 0.94f, 0.95f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Platform::present() { glfwSwapBuffers(window_); }

void Platform::finish() { glFinish(); }

std::vector<unsigned char> Platform::read_pixels(int& width, int& height) const {
  glfwGetFramebufferSize(window_, &width, &height);
  std::vector<unsigned char> rows(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
  // GL's first row is the bottom one.
  std::vector<unsigned char> out(rows.size());
  const std::size_t stride = static_cast<std::size_t>(width) * 4;
  for (int y = 0; y < height; ++y)
    std::copy_n(rows.data() + static_cast<std::size_t>(height - 1 - y) * stride, stride, out.data() + static_cast<std::size_t>(y) * stride);
  for (std::size_t i = 3; i < out.size(); i += 4) out[i] = 255;  // the window is opaque whatever alpha blending left behind
  return out;
}

bool write_png(const std::string& path, const std::vector<unsigned char>& rgba, int width, int height, std::string& error) {
  if (rgba.size() < static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4 || width <= 0 || height <= 0) {
    error = "no pixels to write";
    return false;
  }
  // Encoded in memory, then saved like every other file (atomic_file.h).
  std::string png;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 4, rgba.data(), width * 4)) {
    error = "cannot encode PNG '" + path + "'";
    return false;
  }
  try {
    swz::write_file_atomically(path, png);
  } catch (const swz::Error& e) {
    error = e.what();
    return false;
  }
  return true;
}

}  // namespace swz::gui
