// screen_checks.h: what a person would call broken on screen, read from ImGui's windows and
// draw lists after a frame (imgui_internal.h).
//
//   - text_faults(): glyphs cut by ImGui's CPU clipping (a label longer than its frame), glyphs
//     reaching past the side of their clip rectangle (text wider than its cell, column or
//     window), glyphs drawn smaller than 0.75 x the UI font size;
//   - scrolling_regions(): every window and child window (card, table, list) whose content is
//     larger than what it shows, whether or not it draws a scrollbar;
//   - covered_by(): the windows drawn over a rectangle of another window.
#pragma once

#include <fmt/format.h>
#include <imgui_internal.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace swz::gui::test {

struct GlyphRef {
  const ImFontGlyph* glyph = nullptr;
  float font_size = 0.0f;
};

// Every glyph of every font in the atlas, by the UV of its top-left and bottom-right corners.
struct GlyphIndex {
  std::map<std::pair<float, float>, GlyphRef> by_min, by_max;
  explicit GlyphIndex(const ImFontAtlas& atlas) {
    for (ImFont* f : atlas.Fonts)
      for (const ImFontGlyph& g : f->Glyphs) {
        if (!g.Visible) continue;
        by_min[{g.U0, g.V0}] = {&g, f->FontSize};
        by_max[{g.U1, g.V1}] = {&g, f->FontSize};
      }
  }
};

// The windows active this frame, children included, back to front.
inline std::vector<ImGuiWindow*> active_windows() {
  std::vector<ImGuiWindow*> out;
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    if (w->WasActive && !w->Hidden) out.push_back(w);
  return out;
}

// Cut, overflowing and (with `check_size`) too small glyphs in one window's draw list. A glyph
// is past its clip rectangle when more than a quarter of it (and over a pixel) lies outside: a
// line's first letter whose ink starts a pixel left of its origin ('T') is not cut text.
inline std::vector<std::string> text_faults(const ImGuiWindow& w, const GlyphIndex& glyphs, bool check_size = true) {
  std::vector<std::string> out;
  const ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  const float min_px = 0.75f * ImGui::GetIO().FontDefault->FontSize;
  const ImVec2 white = atlas.TexUvWhitePixel;
  const ImDrawList* dl = w.DrawList;
  if (!dl) return out;
  int small = 0, cut = 0, outside = 0;
  std::string cut_text, outside_text;  // the glyphs, to say which text it was
  float smallest = 1e9f;
  for (const ImDrawCmd& cmd : dl->CmdBuffer) {
    if (cmd.UserCallback || cmd.TextureId != atlas.TexID) continue;
    for (unsigned e = 0; e + 6 <= cmd.ElemCount; e += 3) {
      const ImDrawIdx* idx = dl->IdxBuffer.Data + cmd.IdxOffset + e;
      const unsigned a = idx[0];
      // A quad as ImDrawList::PrimQuadUV writes it: (a, a+1, a+2), (a, a+2, a+3).
      if (idx[1] != a + 1 || idx[2] != a + 2 || idx[3] != a || idx[4] != a + 2 || idx[5] != a + 3) continue;
      const ImDrawVert* v = dl->VtxBuffer.Data + cmd.VtxOffset + a;
      if (v[0].uv.x == white.x && v[0].uv.y == white.y) continue;
      auto lo = glyphs.by_min.find({v[0].uv.x, v[0].uv.y});
      auto hi = glyphs.by_max.find({v[2].uv.x, v[2].uv.y});
      if (lo == glyphs.by_min.end() && hi == glyphs.by_max.end()) continue;  // not a glyph (textured lines)
      e += 3;                                                                  // the quad's second triangle
      const GlyphRef& ref = lo != glyphs.by_min.end() ? lo->second : hi->second;
      const bool whole = lo != glyphs.by_min.end() && hi != glyphs.by_max.end() && lo->second.glyph == hi->second.glyph;
      if (!whole) {
        // ImGui's CPU clipping shortened this glyph. Cut at a side (its top and bottom whole): the
        // text did not fit its frame. Cut at the top or bottom only: a line half scrolled out of view.
        const ImFontGlyph& gl = *ref.glyph;
        const bool sideways = lo != glyphs.by_min.end() ? v[2].uv.y == gl.V1 : v[0].uv.y == gl.V0;
        if (sideways) {
          ++cut;
          if (gl.Codepoint < 128) cut_text += static_cast<char>(gl.Codepoint);
        }
        continue;
      }
      const float gh = ref.glyph->Y1 - ref.glyph->Y0;
      if (gh >= 3.0f) {
        const float drawn = (v[2].pos.y - v[0].pos.y) / gh * ref.font_size;
        smallest = std::min(smallest, drawn);
        if (drawn < min_px - 0.01f) ++small;
      }
      const float slack = std::max(1.0f, 0.25f * (v[2].pos.x - v[0].pos.x));
      if (!w.ScrollbarX && (v[2].pos.x > cmd.ClipRect.z + slack || v[0].pos.x < cmd.ClipRect.x - slack) && v[0].pos.y < cmd.ClipRect.w &&
          v[2].pos.y > cmd.ClipRect.y) {
        ++outside;
        if (ref.glyph->Codepoint < 128 && outside_text.size() < 40) outside_text += static_cast<char>(ref.glyph->Codepoint);
      }
    }
  }
  if (small && check_size) out.push_back(fmt::format("{}: {} glyphs smaller than {:.1f} px (smallest {:.1f} px)", w.Name, small, min_px, smallest));
  if (cut) out.push_back(fmt::format("{}: {} glyphs cut by their frame (text longer than its widget): \"{}\"", w.Name, cut, cut_text));
  if (outside)
    out.push_back(fmt::format("{}: {} glyphs past the side of their clip rectangle: \"{}\"", w.Name, outside, outside_text));
  return out;
}

// A window or child window whose content is larger than it shows: "" when it shows all of it.
inline std::string scrolling_region(const ImGuiWindow& w) {
  if (w.Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_ChildMenu | ImGuiWindowFlags_Popup)) return "";
  if (w.InnerRect.GetHeight() <= 0.0f) return "";  // all menu bar (the main menu bar)
  if (w.ScrollMax.x <= 0.5f && w.ScrollMax.y <= 0.5f) return "";
  return fmt::format("{}: scrolls ({:.0f} px down, {:.0f} px across hidden)", w.Name, w.ScrollMax.y, w.ScrollMax.x);
}

// The windows drawn over `rect`, which lies in `under`: any other root window later in the
// display order (ImGui draws g.Windows' roots back to front) that overlaps it by more than a pixel.
inline std::vector<std::string> covered_by(const ImRect& rect, ImGuiWindow* under) {
  std::vector<std::string> out;
  const int below = ImGui::FindWindowDisplayIndex(under->RootWindow);
  for (ImGuiWindow* w : active_windows()) {
    if (w != w->RootWindow || w == under->RootWindow || ImGui::FindWindowDisplayIndex(w) < below) continue;
    if (w->Flags & ImGuiWindowFlags_Tooltip) continue;
    ImRect over = rect;
    over.ClipWithFull(w->Rect());
    if (over.GetWidth() > 1.0f && over.GetHeight() > 1.0f) out.push_back(w->Name);
  }
  return out;
}

}  // namespace swz::gui::test
