// theme.h: colors, fonts and sizes shared by the panels.
//
// Bank colors follow the article: hue = bank / 2 (so banks 2k and 2k+1 share
// a hue), the odd bank of each pair drawn darker. Thread colors use the same
// rule over lanes. Verdicts are green / amber / red.
#pragma once

#include <imgui.h>

#include <string>

#include "swz/sim/analysis.h"

namespace swz::gui {

// Fonts loaded by the platform; `unicode` is false when only ImGui's built-in font was found.
struct Fonts {
  ImFont* ui = nullptr;
  ImFont* mono = nullptr;
  ImFont* heading = nullptr;
  bool unicode = false;
};
Fonts& fonts();

// Loads DejaVu Sans (falls back to ImGui's built-in font) at `pixel_size`; fills fonts().
void load_fonts(float pixel_size);
// Light theme with spacing scaled by `scale`.
void apply_theme(float scale);

ImU32 bank_color(int bank, int banks);
// Near-black or white, whichever reads better on `background`.
ImU32 text_color_on(ImU32 background);
ImU32 thread_color(int lane, int lanes);
ImU32 hue_color(float hue, bool darker);
ImU32 group_outline_color(int group);
ImU32 verdict_color(Verdict verdict);
ImVec4 verdict_color_vec(Verdict verdict);

// Matrix cells: the fixed identity structure, a set cell, an unset cell, a cell that cannot change.
inline constexpr ImU32 kMatrixIdentity = IM_COL32(86, 136, 214, 255);
inline constexpr ImU32 kMatrixSet = IM_COL32(40, 44, 52, 255);
inline constexpr ImU32 kMatrixUnset = IM_COL32(236, 238, 242, 255);
inline constexpr ImU32 kMatrixFixed = IM_COL32(214, 217, 224, 255);
inline constexpr ImU32 kGridLine = IM_COL32(255, 255, 255, 255);
inline constexpr ImU32 kTextDim = IM_COL32(110, 116, 128, 255);
inline constexpr ImU32 kEmptySlot = IM_COL32(205, 208, 214, 255);

// Text with Unicode symbols, or its ASCII spelling when the built-in font is in use.
const char* sym(const char* unicode, const char* ascii);
// "m0^n1" with the XOR sign when available.
// Lesson notation (swz/math_text.h): "^" as XOR, "2^{d}" as a power, in the font the UI has.
std::string pretty_xor(const std::string& text);
// A lesson step's title as the card and the presenter show it: heading font, larger, wrapped.
void step_title(const std::string& title);

// A unit of layout: the current font size.
float em();

}  // namespace swz::gui
