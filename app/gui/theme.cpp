#include "theme.h"

#include <cmath>
#include <filesystem>

#include "swz/teach/math_text.h"

namespace swz::gui {

Fonts& fonts() {
  static Fonts f;
  return f;
}

float em() { return ImGui::GetFontSize(); }

const char* sym(const char* unicode, const char* ascii) { return fonts().unicode ? unicode : ascii; }

std::string pretty_xor(const std::string& text) {
  return render_math(text, fonts().unicode ? MathStyle::Unicode : MathStyle::Ascii);
}

void load_fonts(float px) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  Fonts& f = fonts();
  f = Fonts{};
  // Latin, Greek, punctuation, sub/superscripts, arrows, math operators, check marks, geometric shapes.
  // Superscript letters for exponents (math_text.h) live in the modifier-letter and phonetic blocks.
  static const ImWchar ranges[] = {0x0020, 0x00FF, 0x02B0, 0x02FF, 0x0370, 0x03FF, 0x1D00, 0x1DBF, 0x2000, 0x206F, 0x2070,
                                   0x209F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0x2713, 0x2718, 0x2C7C, 0x2C7C, 0};
  const char* dirs[] = {"/usr/share/fonts/truetype/dejavu/", "/usr/share/fonts/dejavu/", "/usr/local/share/fonts/"};
  auto find = [&](const char* name) -> std::string {
    for (const char* d : dirs) {
      std::filesystem::path p = std::filesystem::path(d) / name;
      std::error_code ec;
      if (std::filesystem::exists(p, ec)) return p.string();
    }
    return {};
  };
  const std::string sans = find("DejaVuSans.ttf");
  const std::string mono = find("DejaVuSansMono.ttf");
  const std::string bold = find("DejaVuSans-Bold.ttf");
  ImFontConfig cfg;
  cfg.OversampleH = 2;
  cfg.OversampleV = 1;
  if (!sans.empty()) f.ui = io.Fonts->AddFontFromFileTTF(sans.c_str(), px, &cfg, ranges);
  if (f.ui) {
    f.unicode = true;
    f.mono = mono.empty() ? f.ui : io.Fonts->AddFontFromFileTTF(mono.c_str(), std::round(px * 0.93f), &cfg, ranges);
    f.heading = bold.empty() ? f.ui : io.Fonts->AddFontFromFileTTF(bold.c_str(), px, &cfg, ranges);
    if (!f.mono) f.mono = f.ui;
    if (!f.heading) f.heading = f.ui;
  } else {
    ImFontConfig builtin;
    builtin.SizePixels = std::round(13.0f * px / 15.0f);
    f.ui = io.Fonts->AddFontDefault(&builtin);
    f.mono = f.ui;
    f.heading = f.ui;
  }
  io.FontDefault = f.ui;
}

void apply_theme(float scale) {
  ImGuiStyle& s = ImGui::GetStyle();
  s = ImGuiStyle();
  ImGui::StyleColorsLight(&s);
  s.WindowRounding = 3.0f;
  s.FrameRounding = 3.0f;
  s.GrabRounding = 3.0f;
  s.ScrollbarRounding = 3.0f;
  s.WindowBorderSize = 1.0f;
  s.FramePadding = ImVec2(6, 3);
  s.ItemSpacing = ImVec2(7, 5);
  s.WindowPadding = ImVec2(8, 6);
  s.WindowTitleAlign = ImVec2(0.0f, 0.5f);
  ImVec4* c = s.Colors;
  c[ImGuiCol_WindowBg] = ImVec4(0.985f, 0.985f, 0.98f, 1.0f);
  c[ImGuiCol_ChildBg] = ImVec4(1.0f, 1.0f, 1.0f, 0.0f);
  c[ImGuiCol_TitleBg] = ImVec4(0.86f, 0.88f, 0.91f, 1.0f);
  c[ImGuiCol_TitleBgActive] = ImVec4(0.78f, 0.83f, 0.90f, 1.0f);
  c[ImGuiCol_MenuBarBg] = ImVec4(0.92f, 0.93f, 0.95f, 1.0f);
  c[ImGuiCol_Border] = ImVec4(0.70f, 0.72f, 0.76f, 0.7f);
  c[ImGuiCol_Text] = ImVec4(0.10f, 0.11f, 0.13f, 1.0f);
  c[ImGuiCol_Button] = ImVec4(0.86f, 0.89f, 0.94f, 1.0f);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.72f, 0.80f, 0.93f, 1.0f);
  c[ImGuiCol_ButtonActive] = ImVec4(0.60f, 0.71f, 0.90f, 1.0f);
  c[ImGuiCol_FrameBg] = ImVec4(0.93f, 0.94f, 0.96f, 1.0f);
  s.ScaleAllSizes(scale);
}

ImU32 hue_color(float hue, bool darker) {
  float r, g, b;
  ImGui::ColorConvertHSVtoRGB(hue - std::floor(hue), darker ? 0.62f : 0.48f, darker ? 0.70f : 0.97f, r, g, b);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, 1.0f));
}

ImU32 bank_color(int bank, int banks) {
  const int pairs = std::max(1, banks / 2);
  return hue_color(static_cast<float>(bank / 2) / static_cast<float>(pairs), bank % 2 == 1);
}

ImU32 text_color_on(ImU32 background) {
  const float r = static_cast<float>(background & 0xff), g = static_cast<float>((background >> 8) & 0xff),
              b = static_cast<float>((background >> 16) & 0xff);
  const float luma = 0.2126f * r + 0.7152f * g + 0.0722f * b;
  return luma > 140.0f ? IM_COL32(16, 16, 20, 255) : IM_COL32(255, 255, 255, 255);
}

ImU32 thread_color(int lane, int lanes) {
  if (lane < 0) return kEmptySlot;
  const int pairs = std::max(1, lanes / 2);
  return hue_color(static_cast<float>(lane / 2) / static_cast<float>(pairs) + 0.03f, lane % 2 == 1);
}

ImU32 group_outline_color(int group) {
  static const ImU32 colors[] = {IM_COL32(16, 16, 20, 255),  IM_COL32(255, 255, 255, 255), IM_COL32(214, 40, 160, 255),
                                 IM_COL32(40, 170, 60, 255), IM_COL32(250, 140, 20, 255),  IM_COL32(30, 120, 230, 255),
                                 IM_COL32(150, 80, 40, 255), IM_COL32(120, 60, 200, 255)};
  return colors[static_cast<std::size_t>(group) % (sizeof(colors) / sizeof(colors[0]))];
}

ImVec4 verdict_color_vec(Verdict v) {
  switch (v) {
    case Verdict::Ideal:
      return ImVec4(0.13f, 0.60f, 0.27f, 1.0f);
    case Verdict::Minor:
      return ImVec4(0.85f, 0.55f, 0.05f, 1.0f);
    case Verdict::Severe:
      break;
  }
  return ImVec4(0.82f, 0.16f, 0.16f, 1.0f);
}

ImU32 verdict_color(Verdict v) { return ImGui::ColorConvertFloat4ToU32(verdict_color_vec(v)); }

void step_title(const std::string& title) {
  ImGui::PushFont(fonts().heading);
  ImGui::SetWindowFontScale(1.3f);
  ImGui::TextWrapped("%s", pretty_xor(title).c_str());
  ImGui::SetWindowFontScale(1.0f);
  ImGui::PopFont();
}

}  // namespace swz::gui
