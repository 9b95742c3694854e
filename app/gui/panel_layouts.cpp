// Layouts A and B: each as its F2 matrix (columns = input bits t.., r.., w..;
// rows = output bits m.., n..) and as its ownership picture (color = owning
// thread, number = register, one chosen thread's elements ringed).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "panel.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

void element_tooltip(const Model& m, BitVec coord);                                     // panel_tensor.cpp
void window_notice(PanelContext& ctx, const std::string& note, const char* probe_id);  // panel_tensor.cpp

namespace {

constexpr ImU32 kLaneBit = IM_COL32(222, 120, 40, 255);
constexpr ImU32 kRegisterBit = IM_COL32(36, 140, 140, 255);
constexpr ImU32 kWarpBit = IM_COL32(120, 80, 190, 255);

struct LayoutsPanel final : Panel {
  CellImage images[2];  // A's and B's ownership pictures when they have many cells
  const char* id() const override { return "layouts"; }
  const char* title() const override { return "Layouts A and B"; }

  void draw(PanelContext& ctx) override {
    const float half = (ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y) * 0.5f;
    one(ctx, Side::Store, half);
    ImGui::Separator();
    one(ctx, Side::Read, ImGui::GetContentRegionAvail().y);
  }

  void one(PanelContext& ctx, Side side, float height) {
    const Model& m = ctx.model;
    const LinearLayout& l = m.access(side).layout;
    const bool a = side == Side::Store;
    ImGui::PushID(a ? "A" : "B");
    const ImVec2 start = ImGui::GetCursorScreenPos();
    heading(a ? "A: the store (writer)" : "B: the read (reader)");
    int lane = a ? ctx.session.view.ring_lane_a : ctx.session.view.ring_lane_b;
    int warp = a ? ctx.session.view.ring_warp_a : ctx.session.view.ring_warp_b;
    const int lanes = 1 << l.in_dim_bits("lane");
    const int warps = 1 << l.in_dim_bits("warp");
    // The field shows the thread actually ringed (a smaller warp than the chosen lane clamps it).
    lane = std::clamp(lane, 0, lanes - 1);
    warp = std::clamp(warp, 0, warps - 1);
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    same_line_if_fits(ImGui::CalcTextSize("ring thread").x + spacing + em() * 5.5f);
    ImGui::TextDisabled("ring thread");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(em() * 5.5f);
    if (ImGui::InputInt("##lane", &lane, 1, 4)) ctx.post(cmd::set_ring(side, std::clamp(lane, 0, lanes - 1), warp));
    if (warps > 1) {
      same_line_if_fits(ImGui::CalcTextSize("warp").x + spacing + em() * 5.0f);
      ImGui::TextDisabled("warp");
      ImGui::SameLine();
      ImGui::SetNextItemWidth(em() * 5.0f);
      if (ImGui::InputInt("##warp", &warp, 1, 1)) ctx.post(cmd::set_ring(side, lane, std::clamp(warp, 0, warps - 1)));
    }
    lane = std::clamp(lane, 0, lanes - 1);
    warp = std::clamp(warp, 0, warps - 1);

    // The matrix: lane bits first (as the article writes Thr before Reg), then registers, warps.
    MatrixView v;
    std::vector<int> cols;  // flat input bit per shown column
    std::vector<ImU32> col_color;
    auto add = [&](const char* dim, ImU32 color, const char* caption) {
      const int bits = l.in_dim_bits(dim);
      if (!bits) return;
      if (!cols.empty()) v.col_breaks.push_back(static_cast<int>(cols.size()));
      v.col_groups.push_back({static_cast<int>(cols.size()), caption});
      for (int i = 0; i < bits; ++i) {
        const int flat = l.in_offset(dim) + i;
        cols.push_back(flat);
        col_color.push_back(color);
        v.col_labels.push_back(l.in_bit_name(flat));
      }
    };
    add("lane", kLaneBit, "Thr");
    add("register", kRegisterBit, "Reg");
    add("warp", kWarpBit, "Wrp");
    for (int r = 0; r < l.out_bits(); ++r) v.row_labels.push_back(l.out_bit_name(r));
    if (l.rank() == 2) v.row_breaks.push_back(l.out_dims()[0].log2_size);
    const BitMatrix mat = l.matrix();
    v.color = [&](int r, int c) { return mat.at(r, cols[static_cast<std::size_t>(c)]) ? col_color[static_cast<std::size_t>(c)] : kMatrixUnset; };
    const float avail_h = height - (ImGui::GetCursorScreenPos().y - start.y) - ImGui::GetTextLineHeightWithSpacing();
    const float rows_h = static_cast<float>(v.row_labels.size()) + 2.6f;
    v.cell = std::floor(std::clamp(avail_h / rows_h, 6.0f, em() * 1.2f));
    const ImVec2 mat_pos = ImGui::GetCursorScreenPos();
    draw_matrix(ctx, "matrix", v);
    const ImVec2 mat_end = ImGui::GetItemRectMax();

    // The ownership picture, right of the matrix; under it when the panel is too narrow for both.
    const float gap = em();
    const int rows = m.shown_rows(), ncols = m.shown_cols();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const bool beside = right - (mat_end.x + gap) >= std::max(em() * 6.0f, static_cast<float>(ncols) * 2.0f);
    const ImVec2 pic_pos = beside ? ImVec2(mat_end.x + gap, mat_pos.y) : ImVec2(mat_pos.x, mat_end.y + ImGui::GetStyle().ItemSpacing.y);
    const float pic_w = right - pic_pos.x;
    // As tall as the side's share of the panel leaves, and at least as tall as the matrix beside it.
    const float pic_h = std::max(beside ? std::max(20.0f, mat_end.y - mat_pos.y) : em() * 8.0f,
                                 height - (pic_pos.y - start.y) - ImGui::GetTextLineHeightWithSpacing() * 2.0f);
    const float cell = std::max(1.0f, std::floor(std::min(pic_w / static_cast<float>(ncols), pic_h / static_cast<float>(rows))));
    ImGui::SetCursorScreenPos(pic_pos);
    ImGui::InvisibleButton("picture", ImVec2(std::max(1.0f, cell * static_cast<float>(ncols)), std::max(1.0f, cell * static_cast<float>(rows))));
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const auto& owners = m.owners(side);
    std::vector<ImU32> palette(static_cast<std::size_t>(lanes));
    for (int t = 0; t < lanes; ++t) palette[static_cast<std::size_t>(t)] = thread_color(t, lanes);
    CellPicture pic{rows, ncols, cell, pic_pos, 1.0f, &images[a ? 0 : 1]};
    const ImVec2 clip_max(pic_pos.x + cell * static_cast<float>(ncols), pic_pos.y + cell * static_cast<float>(rows));
    const auto hit = draw_cells(
        dl, pic,
        [&](int r, int c) {
          const ElementOwner& o = owners[m.cell_index(r, c)];
          return o.lane < 0 ? kEmptySlot : palette[static_cast<std::size_t>(o.lane)];
        },
        pic_pos, clip_max);
    ctx.probe(a ? "layouts.a.picture" : "layouts.b.picture", pic_pos, clip_max);
    // Register numbers, at 0.85 of the text size, where the cells are large enough for them.
    ImFont* font = fonts().mono;
    const float font_px = std::round(em() * 0.85f);
    if (cell >= font_px * 0.8f + 2.0f) {
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < ncols; ++c) {
          const ElementOwner& o = owners[m.cell_index(r, c)];
          if (o.lane < 0) continue;
          char buf[8];
          std::snprintf(buf, sizeof(buf), "%d", o.reg);
          const ImVec2 ts = font->CalcTextSizeA(font_px, 1e9f, 0, buf);
          if (ts.x > cell - 2.0f) continue;  // a number wider than its cell is left out
          const ImVec2 at(pic_pos.x + (static_cast<float>(c) + 0.5f) * cell - ts.x * 0.5f, pic_pos.y + (static_cast<float>(r) + 0.5f) * cell - ts.y * 0.5f);
          dl->AddText(font, font_px, at, IM_COL32(20, 22, 28, 220), buf);
        }
    }
    // Ring the chosen thread's elements in the drawn cells (the core solves for them: a thread of a large tile holds millions).
    const float radius = std::max(2.0f, cell * 0.42f);
    for (const BitVec coord : held_within(m.access(side), warp, lane, m.outside_window(), m.places.bank.size())) {
      int r = 0, c = 0;
      if (!m.cell_of(coord, r, c)) continue;
      const ImVec2 center(pic_pos.x + (static_cast<float>(c) + 0.5f) * cell, pic_pos.y + (static_cast<float>(r) + 0.5f) * cell);
      if (cell < 7.0f) dl->AddRectFilled(ImVec2(center.x - cell * 0.5f, center.y - cell * 0.5f), ImVec2(center.x + cell * 0.5f, center.y + cell * 0.5f), IM_COL32(10, 10, 10, 255));
      else dl->AddCircle(center, radius, IM_COL32(10, 10, 10, 255), 0, std::max(1.0f, cell * 0.1f));
    }
    if (hovered && hit) element_tooltip(m, m.cell_coord(hit->first, hit->second));

    // Caption under both.
    ImGui::SetCursorScreenPos(ImVec2(mat_pos.x, std::max(mat_end.y, clip_max.y) + 2.0f));
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("color = owning thread (odd darker), number = register; thread %d%s ringed", lane,
                        warps > 1 ? fmt::format(" of warp {}", warp).c_str() : "");
    ImGui::PopTextWrapPos();
    window_notice(ctx, m.window.note(), a ? "layouts.a.window" : "layouts.b.window");
    ImGui::PopID();
  }
};

}  // namespace

std::unique_ptr<Panel> make_layouts_panel() { return std::make_unique<LayoutsPanel>(); }

}  // namespace swz::gui
