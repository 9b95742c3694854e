#include "platform.h"

#include <GLFW/glfw3.h>
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <emscripten/html5.h>
#endif
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "swz/error.h"
#include "swz/io/atomic_file.h"
#include "gl_api.h"
#include "theme.h"

namespace swz::gui {

namespace {

std::string& last_glfw_error() {
  static std::string e;
  return e;
}

void on_glfw_error(int /*code*/, const char* description) { last_glfw_error() = description ? description : "unknown GLFW error"; }

std::vector<int>& pending_key_presses() {
  static std::vector<int> presses;
  return presses;
}

// GLFW calls these for every window of the process during glfwPollEvents; the backend adds
// events to the current ImGui context, so each first switches to its own window's ImGui
// context (only that: the GL context stays the one the frame is drawing with).
Platform* owner(GLFWwindow* w) { return static_cast<Platform*>(glfwGetWindowUserPointer(w)); }
struct ContextOf {
  ImGuiContext* before;
  explicit ContextOf(GLFWwindow* w) : before(ImGui::GetCurrentContext()) {
    if (Platform* p = owner(w)) ImGui::SetCurrentContext(p->imgui_context());
  }
  ~ContextOf() { ImGui::SetCurrentContext(before); }
};
void on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
  if (action == GLFW_PRESS && key >= 0) pending_key_presses().push_back(key);
  ContextOf c(w);
  ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
}
void on_char(GLFWwindow* w, unsigned int ch) {
  ContextOf c(w);
  ImGui_ImplGlfw_CharCallback(w, ch);
}
void on_mouse_button(GLFWwindow* w, int button, int action, int mods) {
  ContextOf c(w);
  ImGui_ImplGlfw_MouseButtonCallback(w, button, action, mods);
}
void on_scroll(GLFWwindow* w, double dx, double dy) {
  ContextOf c(w);
  ImGui_ImplGlfw_ScrollCallback(w, dx, dy);
}
void on_focus(GLFWwindow* w, int focused) {
  ContextOf c(w);
  ImGui_ImplGlfw_WindowFocusCallback(w, focused);
}
void on_cursor_enter(GLFWwindow* w, int entered) {
  ContextOf c(w);
  ImGui_ImplGlfw_CursorEnterCallback(w, entered);
}

#ifdef __EMSCRIPTEN__
// Emscripten's GLFW has no clipboard: ImGui's copies go to the page's (navigator.clipboard, and
// Module.copiedText for the page's own use); pastes read back the last copy.
std::string& page_clipboard_text() {
  static std::string text;
  return text;
}
void set_page_clipboard(void*, const char* text) {
  page_clipboard_text() = text ? text : "";
  EM_ASM(
      {
        const text = UTF8ToString($0);
        Module.copiedText = text;
        if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
      },
      page_clipboard_text().c_str());
}
const char* page_clipboard(void*) { return page_clipboard_text().c_str(); }
#endif

}  // namespace

const std::vector<int>& key_presses() { return pending_key_presses(); }

std::string no_display_message(const std::string& detail) {
  return "swizzle-workbench: no display (" + detail +
         "). Run it under a virtual display, e.g. `xvfb-run -a swizzle-workbench --screenshot out.png`, "
         "or use the command-line tool: `swizzle analyze --preset transpose16x32`.";
}

std::unique_ptr<Platform> Platform::create(const PlatformOptions& o, std::string& error) {
  glfwSetErrorCallback(on_glfw_error);
#ifndef __EMSCRIPTEN__  // the browser's canvas is always there
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!display || !*display) && (!wayland || !*wayland)) {
    error = no_display_message("DISPLAY is not set");
    return nullptr;
  }
#endif
  if (!glfwInit()) {
    error = no_display_message(last_glfw_error().empty() ? "the window system could not be opened" : last_glfw_error());
    return nullptr;
  }
#ifdef __EMSCRIPTEN__  // WebGL 2
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
#else
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
#endif
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
  p->context_ = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the session file holds all state; no imgui.ini next to the binary
  io.LogFilename = nullptr;
  ImGui_ImplGlfw_InitForOpenGL(w, true);
#ifdef __EMSCRIPTEN__
  io.SetClipboardTextFn = set_page_clipboard;
  io.GetClipboardTextFn = page_clipboard;
#endif
  ImGui_ImplOpenGL3_Init(kGlslVersion);
  p->install_callbacks();
  return p;
}

std::unique_ptr<Platform> Platform::create_secondary(Platform& main, const PlatformOptions& o, std::string& error) {
  last_glfw_error().clear();
  glfwWindowHint(GLFW_VISIBLE, o.visible ? GLFW_TRUE : GLFW_FALSE);
  GLFWwindow* w = glfwCreateWindow(o.width, o.height, o.title.c_str(), nullptr, main.window_);
  if (!w) {
    error =
        "cannot open a second window (" + (last_glfw_error().empty() ? std::string("unknown reason") : last_glfw_error()) + ")";
    main.activate();
    return nullptr;
  }
  glfwMakeContextCurrent(w);
  glfwSwapInterval(0);  // the main window's swap paces the loop; waiting twice would halve it
  std::unique_ptr<Platform> p(new Platform());
  p->window_ = w;
  p->main_ = &main;
  ImGuiIO& main_io = ImGui::GetIO();  // the main context is current here
  p->context_ = ImGui::CreateContext(main_io.Fonts);
  ImGui::SetCurrentContext(p->context_);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.LogFilename = nullptr;
  io.FontDefault = main_io.FontDefault;
  ImGui_ImplGlfw_InitForOpenGL(w, true);
  ImGui_ImplOpenGL3_Init(kGlslVersion);
  p->install_callbacks();
  main.activate();
  return p;
}

void Platform::install_callbacks() {
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, on_key);
  glfwSetCharCallback(window_, on_char);
  glfwSetMouseButtonCallback(window_, on_mouse_button);
  glfwSetScrollCallback(window_, on_scroll);
  glfwSetWindowFocusCallback(window_, on_focus);
  glfwSetCursorEnterCallback(window_, on_cursor_enter);
}

void Platform::activate() {
  ImGui::SetCurrentContext(context_);
  if (glfwGetCurrentContext() != window_) glfwMakeContextCurrent(window_);
}

Platform::~Platform() {
  activate();
  ImGui_ImplOpenGL3_Shutdown();  // a secondary window's shutdown also clears the shared atlas's texture
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext(context_);
  if (window_) glfwDestroyWindow(window_);
  if (main_) {
    main_->activate();
    main_->scale_ = 0.0f;  // rebuild the fonts' texture on the main window's next frame
  } else {
    glfwTerminate();
  }
}

bool Platform::should_close() const { return glfwWindowShouldClose(window_) != 0; }

void Platform::set_title(const std::string& title) { glfwSetWindowTitle(window_, title.c_str()); }

void Platform::apply_scale(float scale) {
  if (std::fabs(scale - scale_) < 1e-4f) return;
  scale_ = scale;
  if (main_) {  // the fonts are the main window's; only the style is per context
    apply_theme(scale);
    return;
  }
  load_fonts(std::round(15.0f * scale));
  apply_theme(scale);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void Platform::begin_frame(float ui_scale, const InjectedInput* inject) {
  activate();
  if (!main_) glfwPollEvents();
#ifdef __EMSCRIPTEN__
  // The page stretches the canvas over the browser's window; the GL window follows its size.
  double css_width = 0, css_height = 0;
  emscripten_get_element_css_size("#canvas", &css_width, &css_height);
  int width = 0, height = 0;
  glfwGetWindowSize(window_, &width, &height);
  if (css_width >= 1 && css_height >= 1 && (static_cast<int>(css_width) != width || static_cast<int>(css_height) != height))
    glfwSetWindowSize(window_, static_cast<int>(css_width), static_cast<int>(css_height));
#endif
  apply_scale(ui_scale);
  if (main_) ImGui::GetIO().FontDefault = fonts().ui;  // the shared atlas may have been rebuilt
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  for (int k : injected_keys_) io.KeysDown[k] = false;
  const std::vector<int> held_before = std::move(injected_keys_);
  injected_keys_.clear();
  if (inject) {
    // Injected input is this frame's whole input: another window on the same display (a test
    // running beside this one) taking the system focus must not clear the keys injected here.
    io.AppFocusLost = false;
    if (inject->mouse_pos) io.MousePos = *inject->mouse_pos;
    for (int i = 0; i < 3; ++i) io.MouseDown[i] = inject->mouse_down[i];
    io.MouseWheel += inject->wheel;
    for (int k : inject->keys)
      if (k >= 0 && k < 512) {
        io.KeysDown[k] = true;
        injected_keys_.push_back(k);
        if (std::find(held_before.begin(), held_before.end(), k) == held_before.end()) pending_key_presses().push_back(k);
      }
    io.KeyCtrl = inject->ctrl;
    io.KeyShift = inject->shift;
    if (!inject->text.empty()) io.AddInputCharactersUTF8(inject->text.c_str());
  }
  ImGui::NewFrame();
}

void Platform::render() {
  end_frame();
  submit();
}

void Platform::end_frame() {
  ImGui::Render();
  if (!main_) pending_key_presses().clear();  // the main window's frame has seen them
}

// [SECTION] Fullscreen

namespace {
// The monitor holding most of the window (the primary one when it overlaps none).
GLFWmonitor* monitor_of(GLFWwindow* window) {
  if (GLFWmonitor* m = glfwGetWindowMonitor(window)) return m;
  int wx = 0, wy = 0, ww = 0, wh = 0;
  glfwGetWindowPos(window, &wx, &wy);
  glfwGetWindowSize(window, &ww, &wh);
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  GLFWmonitor* best = glfwGetPrimaryMonitor();
  long best_area = 0;
  for (int i = 0; i < count; ++i) {
    const GLFWvidmode* mode = glfwGetVideoMode(monitors[i]);
    if (!mode) continue;
    int mx = 0, my = 0;
    glfwGetMonitorPos(monitors[i], &mx, &my);
    const long w = std::max(0, std::min(wx + ww, mx + mode->width) - std::max(wx, mx));
    const long h = std::max(0, std::min(wy + wh, my + mode->height) - std::max(wy, my));
    if (w * h > best_area) {
      best_area = w * h;
      best = monitors[i];
    }
  }
  return best;
}
}  // namespace

bool Platform::fullscreen() const { return glfwGetWindowMonitor(window_) != nullptr; }

ImVec2 Platform::monitor_size() const {
  GLFWmonitor* m = monitor_of(window_);
  const GLFWvidmode* mode = m ? glfwGetVideoMode(m) : nullptr;
  return mode ? ImVec2(static_cast<float>(mode->width), static_cast<float>(mode->height)) : ImVec2(0, 0);
}

void Platform::set_fullscreen(bool on) {
  if (on == fullscreen()) return;
  if (on) {
    GLFWmonitor* m = monitor_of(window_);
    const GLFWvidmode* mode = m ? glfwGetVideoMode(m) : nullptr;
    if (!mode) return;
    glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
    glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
    glfwSetWindowMonitor(window_, m, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else {
    glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], std::max(windowed_[2], 320), std::max(windowed_[3], 240),
                         0);
  }
}

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
