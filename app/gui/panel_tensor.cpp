// Tensor view: every element a cell colored by its bank (hue = bank / 2, darker =
// odd bank), the current step's cells outlined by thread group, zoom and pan.
#include <fmt/format.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

#include "panel.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

// "thread 9, register 3" (warp too when there are several); shared by the tooltips of several panels.
std::string owner_text(const ElementOwner& o, int warps) {
  if (o.lane < 0) return "nobody";
  std::string s = warps > 1 ? fmt::format("warp {} thread {}, register {}", o.warp, o.lane, o.reg)
                            : fmt::format("thread {}, register {}", o.lane, o.reg);
  if (o.holders > 1) s += fmt::format(" (+{} more holding it)", o.holders - 1);
  return s;
}

// The tooltip of one element: where it lives and who owns it.
void element_tooltip(const Model& m, BitVec coord) {
  const Problem& p = m.problem;
  ImGui::BeginTooltip();
  const auto c = p.shared.coords().unflatten(coord);
  if (c.size() == 2)
    ImGui::Text("(m, n) = (%lld, %lld)", static_cast<long long>(c[0]), static_cast<long long>(c[1]));
  else
    ImGui::Text("element %s", m.format_coord(coord).c_str());
  const ElementPlace place = m.place(coord);
  ImGui::Text("offset %lld  (byte 0x%llx)", static_cast<long long>(place.offset),
              static_cast<unsigned long long>(byte_address_of(static_cast<std::uint64_t>(place.offset), p.element_bits)));
  ImGui::Text("bank %d, segment %llu", place.bank, static_cast<unsigned long long>(place.segment));
  ImGui::Separator();
  ImGui::Text("A (store): %s", owner_text(m.owner(Side::Store, coord), m.warps(Side::Store)).c_str());
  ImGui::Text("B (read):  %s", owner_text(m.owner(Side::Read, coord), m.warps(Side::Read)).c_str());
  ImGui::EndTooltip();
}

// The line above a windowed picture saying which part is drawn (nothing when `note` is empty); probed as `probe_id`.
void window_notice(PanelContext& ctx, const std::string& note, const char* probe_id) {
  if (note.empty()) return;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(ImVec4(0.62f, 0.36f, 0.02f, 1.0f), "%s", note.c_str());
  ImGui::PopTextWrapPos();
  ctx.probe(probe_id, at, ImGui::GetItemRectMax());
}

namespace {

// "Numbers: none / bank / offset", a compact combo.
void numbers_choice(PanelContext& ctx, float width) {
  const CellNumbers now = ctx.session.view.cell_numbers;
  const std::string preview(cell_numbers_name(now));
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo("##numbers", preview.c_str())) {
    for (const CellNumbers n : {CellNumbers::None, CellNumbers::Bank, CellNumbers::Offset}) {
      const std::string label =
          n == CellNumbers::None ? std::string("no numbers") : fmt::format("{} in each cell", cell_numbers_name(n));
      if (ImGui::Selectable(label.c_str(), n == now)) ctx.post(cmd::set_cell_numbers(n));
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Write each element's bank or shared-memory offset in its cell");
  ctx.probe("tensor.numbers", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

// Each visible cell's bank or offset, centred, dark or light against the cell's colour; only
// where the widest number fits its cell.
void draw_numbers(ImDrawList* dl, const Model& m, CellNumbers numbers, ImVec2 origin, float cell, ImVec2 clip_min,
                  ImVec2 clip_max) {
  const int rows = m.shown_rows(), cols = m.shown_cols();
  const std::int64_t largest = numbers == CellNumbers::Bank ? m.problem.bank.banks - 1 : m.problem.shared.elements() - 1;
  ImFont* font = ImGui::GetFont();
  float size = ImGui::GetFontSize();
  const float wide = ImGui::CalcTextSize(std::to_string(largest).c_str()).x;
  size = std::min(size, size * (cell * 0.86f) / std::max(1.0f, wide));  // shrink to fit, down to a floor
  if (size < ImGui::GetFontSize() * 0.55f || size > cell * 0.9f) return;
  const int r0 = std::max(0, static_cast<int>((clip_min.y - origin.y) / cell));
  const int c0 = std::max(0, static_cast<int>((clip_min.x - origin.x) / cell));
  const int r1 = std::min(rows, static_cast<int>((clip_max.y - origin.y) / cell) + 1);
  const int c1 = std::min(cols, static_cast<int>((clip_max.x - origin.x) / cell) + 1);
  for (int r = r0; r < r1; ++r)
    for (int c = c0; c < c1; ++c) {
      const std::size_t index = m.cell_index(r, c);
      const std::string text = std::to_string(cell_number(m.places, index, numbers));
      const ImVec2 t = font->CalcTextSizeA(size, FLT_MAX, 0.0f, text.c_str());
      const ImVec2 at(origin.x + (static_cast<float>(c) + 0.5f) * cell - t.x * 0.5f,
                      origin.y + (static_cast<float>(r) + 0.5f) * cell - t.y * 0.5f);
      dl->AddText(font, size, at, text_color_on(bank_color(m.places.bank[index], m.problem.bank.banks)), text.c_str());
    }
}

struct TensorPanel final : Panel {
  CellImage image;  // the cells when there are many
  const char* id() const override { return "tensor"; }
  const char* title() const override { return "Tensor view"; }

  void draw(PanelContext& ctx) override {
    const Model& m = ctx.model;
    const ViewState& view = ctx.session.view;
    const StepTrace& t = ctx.trace;
    const float scale = view.ui_scale;

    // Legend, breaking onto more lines as the panel narrows.
    for (int g = 0; g < t.groups; ++g) {
      const std::string label = "accessed by " + t.group_labels[static_cast<std::size_t>(g)];
      const float w = ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(label.c_str()).x;
      if (g > 0) same_line_if_fits(w);
      swatch(group_outline_color(g), true);
      ImGui::SameLine();
      ImGui::TextUnformatted(label.c_str());
    }
    // The hint wraps short of the numbers choice and the Fit button, at the right of its first line.
    const float fit_w = button_width("Fit");
    const float numbers_w = ImGui::CalcTextSize("offset").x + ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2.0f;
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float right = ImGui::GetContentRegionMax().x;
    const ImVec2 hint_at = ImGui::GetCursorPos();
    ImGui::PushTextWrapPos(right - fit_w - numbers_w - 2.0f * gap);
    ImGui::TextDisabled("cell hue = bank %s 2, darker = odd bank; wheel zooms, drag pans, hover for details",
                        sym("\xc3\xb7", "/"));
    ImGui::PopTextWrapPos();
    const ImVec2 after_hint = ImGui::GetCursorPos();
    ImGui::SetCursorPos(ImVec2(right - fit_w - numbers_w - gap, hint_at.y));
    numbers_choice(ctx, numbers_w);
    ImGui::SameLine(0, gap);
    if (ImGui::SmallButton("Fit")) ctx.post(cmd::set_tensor_view(0, 0, 0));
    ImGui::SetCursorPos(ImVec2(after_hint.x, std::max(after_hint.y, hint_at.y + ImGui::GetFrameHeightWithSpacing())));
    window_notice(ctx, m.window.note(), "tensor.window");

    // Canvas.
    const ImVec2 cmin = ImGui::GetCursorScreenPos();
    ImVec2 avail = ImGui::GetContentRegionAvail();
    avail.x = std::max(avail.x, 10.0f);
    avail.y = std::max(avail.y, 10.0f);
    const ImVec2 cmax(cmin.x + avail.x, cmin.y + avail.y);
    ImGui::InvisibleButton("canvas", avail, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonMiddle);
    ImGui::SetItemUsingMouseWheel();  // the wheel zooms here; it does not scroll the tile area
    const bool hovered = ImGui::IsItemHovered();
    const bool active = ImGui::IsItemActive();

    const int rows = m.shown_rows(), cols = m.shown_cols();
    // Room for the index labels: the widest row number, one line for column numbers.
    const float axis = std::max(em() * 1.6f, ImGui::CalcTextSize(std::to_string(rows - 1).c_str()).x + em() * 0.6f);
    const float fit =
        std::max(1.0f, std::min((avail.x - axis) / static_cast<float>(cols), (avail.y - axis) / static_cast<float>(rows)));
    float cell = view.tensor_zoom > 0 ? view.tensor_zoom * scale : std::floor(std::min(fit, em() * 3.0f));
    ImVec2 origin;
    float pan_x = view.tensor_pan_x, pan_y = view.tensor_pan_y;
    if (view.tensor_zoom <= 0) {
      const float w = cell * static_cast<float>(cols), h = cell * static_cast<float>(rows);
      origin = ImVec2(std::floor(cmin.x + axis + std::max(0.0f, (avail.x - axis - w) * 0.5f)), std::floor(cmin.y + axis));
      pan_x = pan_y = 0;
      (void)h;
    } else {
      origin = ImVec2(std::floor(cmin.x + axis - pan_x * cell), std::floor(cmin.y + axis - pan_y * cell));
    }

    // Zoom around the mouse; drag to pan; double-click to fit.
    ImGuiIO& io = ImGui::GetIO();
    if (hovered && io.MouseWheel != 0.0f) {
      const float next = std::clamp(cell * std::pow(1.2f, io.MouseWheel), 1.0f, 200.0f * scale);
      const float mx = (io.MousePos.x - origin.x) / cell, my = (io.MousePos.y - origin.y) / cell;
      const float cur_pan_x = (cmin.x + axis - origin.x) / cell, cur_pan_y = (cmin.y + axis - origin.y) / cell;
      const float npx = cur_pan_x + mx - mx * cell / next, npy = cur_pan_y + my - my * cell / next;
      ctx.post(cmd::set_tensor_view(next / scale, npx, npy));
    } else if (active &&
               (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.0f) || ImGui::IsMouseDragging(ImGuiMouseButton_Middle, 2.0f))) {
      const float cur_pan_x = (cmin.x + axis - origin.x) / cell, cur_pan_y = (cmin.y + axis - origin.y) / cell;
      ctx.post(cmd::set_tensor_view(cell / scale, cur_pan_x - io.MouseDelta.x / cell, cur_pan_y - io.MouseDelta.y / cell));
    } else if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
      ctx.post(cmd::set_tensor_view(0, 0, 0));
    }

    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(cmin, cmax, true);
    const ImVec2 grid_min(cmin.x + axis, cmin.y + axis);

    // Cells, one batched reservation, colored by the core's bank of each element.
    std::vector<ImU32> palette(static_cast<std::size_t>(m.problem.bank.banks));
    for (int b = 0; b < m.problem.bank.banks; ++b) palette[static_cast<std::size_t>(b)] = bank_color(b, m.problem.bank.banks);
    CellPicture pic{rows, cols, cell, origin, cell >= 10 ? 1.0f : 0.0f, &image};
    dl->PushClipRect(grid_min, cmax, true);
    const auto hit = draw_cells(
        dl, pic, [&](int r, int c) { return palette[static_cast<std::size_t>(m.places.bank[m.cell_index(r, c)])]; }, grid_min,
        cmax);
    if (view.cell_numbers != CellNumbers::None) draw_numbers(dl, m, view.cell_numbers, origin, cell, grid_min, cmax);
    ctx.probe("tensor.cell.0.0", origin, ImVec2(origin.x + cell, origin.y + cell));
    ctx.probe("tensor.grid", origin,
              ImVec2(origin.x + cell * static_cast<float>(cols), origin.y + cell * static_cast<float>(rows)));

    // Outlines of this step's cells, by group.
    const float thick = std::clamp(cell * 0.12f, 1.0f, 3.0f * scale);
    for (const TracedCell& tc : t.cells) {
      int r = 0, c = 0;
      if (!m.cell_of(tc.coord, r, c)) continue;  // outside the drawn window
      const ImVec2 a(origin.x + static_cast<float>(c) * cell, origin.y + static_cast<float>(r) * cell);
      if (a.x > cmax.x || a.y > cmax.y || a.x + cell < grid_min.x || a.y + cell < grid_min.y) continue;
      if (cell < 6.0f) {  // too small for a ring: fill the cell
        dl->AddRectFilled(a, ImVec2(a.x + cell, a.y + cell), group_outline_color(tc.group));
        continue;
      }
      const float in = thick * 0.5f;
      dl->AddRect(ImVec2(a.x + in, a.y + in), ImVec2(a.x + cell - pic.gap - in, a.y + cell - pic.gap - in),
                  group_outline_color(tc.group), 0, 0, thick);
    }
    dl->PopClipRect();

    // Index labels along the edges.
    const ImU32 dim = kTextDim;
    const float line = ImGui::GetTextLineHeight();
    const int every_c = std::max(1, static_cast<int>(std::ceil(em() * 2.0f / cell)));
    const int step_c = every_c <= 1 ? 1 : every_c <= 2 ? 2 : every_c <= 4 ? 4 : every_c <= 8 ? 8 : every_c <= 16 ? 16 : 32;
    for (int c = 0; c < cols; c += step_c) {
      const float x = origin.x + (static_cast<float>(c) + 0.5f) * cell;
      const std::string s = std::to_string(c);
      const float tw = ImGui::CalcTextSize(s.c_str()).x;
      if (x < grid_min.x || x + tw * 0.5f > cmax.x) continue;  // only whole labels
      dl->AddText(ImVec2(x - tw * 0.5f, cmin.y + (axis - line) * 0.5f), dim, s.c_str());
    }
    const int every_r = std::max(1, static_cast<int>(std::ceil(line * 1.1f / cell)));
    const int step_r = every_r <= 1 ? 1 : every_r <= 2 ? 2 : every_r <= 4 ? 4 : every_r <= 8 ? 8 : every_r <= 16 ? 16 : 32;
    for (int r = 0; r < rows; r += step_r) {
      const float y = origin.y + (static_cast<float>(r) + 0.5f) * cell;
      if (y < grid_min.y || y > cmax.y) continue;
      const std::string s = std::to_string(r);
      dl->AddText(ImVec2(cmin.x + axis - ImGui::CalcTextSize(s.c_str()).x - em() * 0.3f, y - line * 0.5f), dim, s.c_str());
    }
    const char* nlabel = m.problem.shape.size() == 2 ? "n" : "dims 1..";
    dl->AddText(ImVec2(cmin.x + 2, cmin.y + (axis - line) * 0.5f), dim, nlabel);
    dl->PopClipRect();

    if (hovered && hit && !active) {
      const ImVec2 a(origin.x + static_cast<float>(hit->second) * cell, origin.y + static_cast<float>(hit->first) * cell);
      dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + cell, a.y + cell), IM_COL32(240, 120, 0, 255), 0, 0, 2.0f);
      element_tooltip(m, m.cell_coord(hit->first, hit->second));
    }
  }

  static void swatch(ImU32 outline, bool ring) {
    const float h = ImGui::GetTextLineHeight();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(p.x, p.y + 1), ImVec2(p.x + h, p.y + h - 1), IM_COL32(150, 156, 168, 255));
    if (ring) dl->AddRect(ImVec2(p.x + 1, p.y + 2), ImVec2(p.x + h - 1, p.y + h - 2), outline, 0, 0, 2.5f);
    ImGui::Dummy(ImVec2(h, h));
  }
};

}  // namespace

std::unique_ptr<Panel> make_tensor_panel() { return std::make_unique<TensorPanel>(); }

}  // namespace swz::gui
