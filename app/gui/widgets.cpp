#include "widgets.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <imgui_internal.h>

#include "theme.h"

namespace swz::gui {

std::optional<std::pair<int, int>> draw_matrix(PanelContext& ctx, const char* id, const MatrixView& v) {
  const int rows = static_cast<int>(v.row_labels.size());
  const int cols = static_cast<int>(v.col_labels.size());
  ImGui::PushFont(fonts().mono);
  // Labels are drawn in the full monospace size: the cells (one label per row) are never shorter than 0.8 of it.
  const float label_px = ImGui::GetFontSize();
  const float cell = std::max(v.cell > 0 ? v.cell : std::round(em() * 1.25f), std::ceil(label_px * 0.8f));
  const float gap = std::max(2.0f, std::round(cell * 0.3f));
  float label_w = 0;
  for (const auto& l : v.row_labels) label_w = std::max(label_w, ImGui::CalcTextSize(l.c_str()).x);
  label_w += em() * 0.4f;
  const float line = ImGui::GetTextLineHeight();
  const float group_h = v.col_groups.empty() ? 0.0f : line + 2.0f;
  auto col_x = [&](int c) {
    float x = label_w + static_cast<float>(c) * cell;
    for (int b : v.col_breaks)
      if (c >= b) x += gap;
    return x;
  };
  auto row_y = [&](int r) {
    float y = group_h + line + 3.0f + static_cast<float>(r) * cell;
    for (int b : v.row_breaks)
      if (r >= b) y += gap;
    return y;
  };
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 size(col_x(cols) + 2.0f, row_y(rows) + 2.0f);
  ImGui::InvisibleButton(id, ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f)));
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  // Column group captions and labels, centered over their cells.
  for (std::size_t g = 0; g < v.col_groups.size(); ++g) {
    const int first = v.col_groups[g].first;
    const int last = g + 1 < v.col_groups.size() ? v.col_groups[g + 1].first : cols;
    if (last <= first) continue;
    const std::string& caption = v.col_groups[g].second;
    const float x0 = origin.x + col_x(first), x1 = origin.x + col_x(last - 1) + cell;
    const std::string shown = ImGui::CalcTextSize(caption.c_str()).x <= x1 - x0 + cell * 0.5f ? caption : caption.substr(0, 1);
    const float tw = ImGui::CalcTextSize(shown.c_str()).x;
    dl->AddText(ImVec2(std::max(x0, (x0 + x1 - tw) * 0.5f), origin.y), kTextDim, shown.c_str());
    dl->AddLine(ImVec2(x0 + 1, origin.y + group_h - 1), ImVec2(x1 - 1, origin.y + group_h - 1), kTextDim);
  }
  // Column labels; when they do not fit, only their bit numbers (the group caption names the letter).
  float widest = 0;
  for (const auto& l : v.col_labels) widest = std::max(widest, ImGui::CalcTextSize(l.c_str()).x);
  const bool digits_only = widest > cell - 1.0f;
  auto shown_label = [&](int c) {
    const std::string& full = v.col_labels[static_cast<std::size_t>(c)];
    const std::size_t digit = full.find_first_of("0123456789");
    return digits_only && digit != std::string::npos ? full.substr(digit) : full;
  };
  // When some label is still wider than its cell (o10), every other column is labelled, all the way.
  bool every_other = false;
  for (int c = 0; c < cols; ++c) every_other = every_other || ImGui::CalcTextSize(shown_label(c).c_str()).x > cell + 1.0f;
  for (int c = 0; c < cols; c += every_other ? 2 : 1) {
    const std::string l = shown_label(c);
    const float tw = ImGui::CalcTextSize(l.c_str()).x;
    const float x = origin.x + col_x(c) + (cell - tw) * 0.5f;
    dl->AddText(ImVec2(x, origin.y + group_h + 1.0f), text, l.c_str());
  }
  // Row labels, centered on their row.
  for (int r = 0; r < rows; ++r) {
    const char* l = v.row_labels[static_cast<std::size_t>(r)].c_str();
    dl->AddText(ImVec2(origin.x, origin.y + row_y(r) + (cell - label_px) * 0.5f), text, l);
  }
  std::optional<std::pair<int, int>> hit, result;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const ImVec2 a(origin.x + col_x(c), origin.y + row_y(r));
      const ImVec2 b(a.x + cell - 1.0f, a.y + cell - 1.0f);
      dl->AddRectFilled(a, b, v.color(r, c));
      const bool can_click = v.clickable && v.clickable(r, c);
      if (can_click && !v.probe_prefix.empty()) ctx.probe(fmt::format("{}.{}.{}", v.probe_prefix, r, c), a, b);
      if (hovered && mouse.x >= a.x && mouse.x < b.x + 1 && mouse.y >= a.y && mouse.y < b.y + 1) {
        hit = {r, c};
        if (can_click) dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), IM_COL32(230, 120, 20, 255), 0, 0, 2.0f);
      }
    }
  ImGui::PopFont();
  if (hit && v.clickable && v.clickable(hit->first, hit->second)) {
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    if (clicked) result = hit;
  }
  if (hit) {
    ImGui::BeginTooltip();
    ImGui::Text("%s row %s, column %s", v.color(hit->first, hit->second) == kMatrixUnset || v.color(hit->first, hit->second) == kMatrixFixed ? "0 at" : "1 at",
                v.row_labels[static_cast<std::size_t>(hit->first)].c_str(), v.col_labels[static_cast<std::size_t>(hit->second)].c_str());
    if (v.clickable && v.clickable(hit->first, hit->second)) ImGui::TextDisabled("click to toggle");
    ImGui::EndTooltip();
  }
  return result;
}

std::optional<std::pair<int, int>> draw_cells(ImDrawList* dl, const CellPicture& pic, const std::function<ImU32(int, int)>& color,
                                              ImVec2 clip_min, ImVec2 clip_max) {
  const float cell = pic.cell;
  const float gap = cell >= 6.0f ? pic.gap : 0.0f;
  const int c0 = std::max(0, static_cast<int>(std::floor((clip_min.x - pic.origin.x) / cell)));
  const int c1 = std::min(pic.cols, static_cast<int>(std::ceil((clip_max.x - pic.origin.x) / cell)));
  const int r0 = std::max(0, static_cast<int>(std::floor((clip_min.y - pic.origin.y) / cell)));
  const int r1 = std::min(pic.rows, static_cast<int>(std::ceil((clip_max.y - pic.origin.y) / cell)));
  const int visible = std::max(0, c1 - c0) * std::max(0, r1 - r0);
  if (pic.image && visible > 0 && (cell < 6.0f || visible > 4096)) {
    // One texel per visible cell, one quad.
    static std::vector<ImU32> texels;
    texels.resize(static_cast<std::size_t>(visible));
    std::size_t i = 0;
    for (int r = r0; r < r1; ++r)
      for (int c = c0; c < c1; ++c) texels[i++] = color(r, c);
    const ImTextureID tex = pic.image->upload(c1 - c0, r1 - r0, texels);
    const ImVec2 a(pic.origin.x + static_cast<float>(c0) * cell, pic.origin.y + static_cast<float>(r0) * cell);
    dl->AddImage(tex, a, ImVec2(a.x + static_cast<float>(c1 - c0) * cell, a.y + static_cast<float>(r1 - r0) * cell));
  } else if (pic.image && visible > 0 && cell <= 48.0f) {
    // Larger cells: a block of k x k texels per cell (k ~ the cell's size in pixels),
    // the gap transparent, still one quad; unchanged pictures are not uploaded again.
    // Far fewer vertices than a rectangle per cell for the software rasterizer to set up.
    const int k = std::clamp(static_cast<int>(std::lround(cell)), 6, 48);
    const int g = gap > 0.0f ? std::max(1, static_cast<int>(std::lround(gap * static_cast<float>(k) / cell))) : 0;
    const int w = (c1 - c0) * k, h = (r1 - r0) * k;
    static std::vector<ImU32> texels;
    texels.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), IM_COL32(0, 0, 0, 0));
    for (int r = r0; r < r1; ++r)
      for (int c = c0; c < c1; ++c) {
        const ImU32 col = color(r, c);
        for (int y = 0; y < k - g; ++y) {
          ImU32* row = texels.data() + static_cast<std::size_t>((r - r0) * k + y) * static_cast<std::size_t>(w) + static_cast<std::size_t>((c - c0) * k);
          std::fill(row, row + (k - g), col);
        }
      }
    const ImTextureID tex = pic.image->upload(w, h, texels);
    const ImVec2 a(pic.origin.x + static_cast<float>(c0) * cell, pic.origin.y + static_cast<float>(r0) * cell);
    dl->AddImage(tex, a, ImVec2(a.x + static_cast<float>(c1 - c0) * cell, a.y + static_cast<float>(r1 - r0) * cell));
  } else if (c1 > c0 && r1 > r0) {
    // One reservation for all visible cells: 4 vertices and 6 indices each.
    const int n = (c1 - c0) * (r1 - r0);
    dl->PrimReserve(n * 6, n * 4);
    for (int r = r0; r < r1; ++r)
      for (int c = c0; c < c1; ++c) {
        const ImVec2 a(pic.origin.x + static_cast<float>(c) * cell, pic.origin.y + static_cast<float>(r) * cell);
        dl->PrimRect(a, ImVec2(a.x + cell - gap, a.y + cell - gap), color(r, c));
      }
  }
  const ImVec2 m = ImGui::GetIO().MousePos;
  if (m.x < clip_min.x || m.y < clip_min.y || m.x >= clip_max.x || m.y >= clip_max.y) return std::nullopt;
  const int c = static_cast<int>(std::floor((m.x - pic.origin.x) / cell));
  const int r = static_cast<int>(std::floor((m.y - pic.origin.y) / cell));
  if (c < 0 || r < 0 || c >= pic.cols || r >= pic.rows) return std::nullopt;
  return std::make_pair(r, c);
}

void verdict_line(PanelContext& ctx, const char* label, const AccessResult& r, const std::string& probe_id) {
  const Verdict v = verdict_of(r);
  const float h = ImGui::GetTextLineHeight();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const ImVec2 a(p.x, p.y + 1), b(p.x + h * 1.6f, p.y + h);
  ImGui::GetWindowDrawList()->AddRectFilled(a, b, verdict_color(v), h * 0.25f);
  ctx.probe(probe_id, a, b);
  ImGui::Dummy(ImVec2(h * 1.6f, h));
  ImGui::SameLine();
  ImGui::PushFont(fonts().heading);
  ImGui::TextColored(verdict_color_vec(v), "%s: %s", label, verdict_text(r).c_str());
  ImGui::PopFont();
}

bool same_line_if_fits(float width) {
  const ImGuiWindow* w = ImGui::GetCurrentWindow();
  const float right = ImGui::GetContentRegionMaxAbs().x;
  if (w->DC.CursorPosPrevLine.x + ImGui::GetStyle().ItemSpacing.x + width <= right + 0.5f) {
    ImGui::SameLine();
    return true;
  }
  return false;
}

float button_width(const char* label) { return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2.0f; }

std::string fit_text(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  const char* dots = "...";
  const float dots_w = ImGui::CalcTextSize(dots).x;
  std::size_t n = text.size();
  while (n > 0 && ImGui::CalcTextSize(text.c_str(), text.c_str() + n).x + dots_w > width) {
    --n;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;  // whole UTF-8 characters
  }
  return text.substr(0, n) + dots;
}

float combo_preview_width(float item_width) {
  const float w = item_width > 0.0f ? item_width : ImGui::GetContentRegionAvail().x;
  return w - ImGui::GetFrameHeight() - ImGui::GetStyle().FramePadding.x * 2.0f;
}

void heading(const char* text) {
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted(text);
  ImGui::PopFont();
}

void note(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(kTextDim));
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

void mono(const std::string& text) {
  ImGui::PushFont(fonts().mono);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopFont();
}

}  // namespace swz::gui
