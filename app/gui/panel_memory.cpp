// Physical memory: segments (rows of all banks) x banks; which element sits in
// each bank word. Narrow elements share a word (drawn side by side).
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

struct MemoryPanel final : Panel {
  const char* id() const override { return "memory"; }
  const char* title() const override { return "Physical memory"; }

  void draw(PanelContext& ctx) override {
    const Model& m = ctx.model;
    const Problem& p = m.problem;
    const int banks = p.bank.banks;
    const auto segments = static_cast<int>(m.memory.segments);
    const int per = m.memory.per_word;

    // One row of header and choices, breaking onto the next line where it would not fit.
    ImGui::AlignTextToFramePadding();
    ImGui::Text("%llu segments x %d banks", static_cast<unsigned long long>(m.memory.total_segments), banks);
    const std::string each = fmt::format("({} B each)", p.bank.wavefront_bytes());
    same_line_if_fits(ImGui::CalcTextSize(each.c_str()).x);
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", each.c_str());
    static const char* names[] = {"column n", "row m", "bank"};
    auto radio_w = [](const char* label) {
      return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
    };
    same_line_if_fits(ImGui::CalcTextSize("color by").x + ImGui::GetStyle().ItemSpacing.x + radio_w(names[0]));
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("color by");
    int c = static_cast<int>(ctx.session.view.memory_coloring);
    for (int i = 0; i < 3; ++i) {
      same_line_if_fits(radio_w(names[i]));
      if (ImGui::RadioButton(names[i], c == i)) ctx.post(cmd::set_memory_coloring(static_cast<MemoryColoring>(i)));
    }

    if (m.memory.segments < m.memory.total_segments)
      window_notice(ctx,
                    fmt::format("drawn: segments 0-{} of {}, bytes 0-{} (a larger picture is unreadable)", m.memory.segments - 1,
                                m.memory.total_segments,
                                m.memory.segments * static_cast<std::uint64_t>(p.bank.wavefront_bytes()) - 1),
                    "memory.window");

    // Cells accessed in this step, to outline: (coordinate, group), sorted for lookup.
    std::vector<std::pair<BitVec, int>> traced;
    for (const TracedCell& t : ctx.trace.cells) traced.emplace_back(t.coord, t.group);
    std::sort(traced.begin(), traced.end());
    auto group_of = [&](BitVec coord) {
      const auto it = std::lower_bound(traced.begin(), traced.end(), std::pair<BitVec, int>{coord, -1});
      return it != traced.end() && it->first == coord ? it->second : -1;
    };

    const float label_w = ImGui::CalcTextSize(std::to_string(std::max(0, segments - 1)).c_str()).x + em() * 0.6f;
    const float avail_w = ImGui::GetContentRegionAvail().x - label_w - ImGui::GetStyle().ScrollbarSize;
    const float word_w = std::max(2.0f, std::floor(avail_w / static_cast<float>(banks)));
    const float row_h = std::clamp(word_w * 0.6f, 4.0f, em() * 1.3f);
    const float header = ImGui::GetTextLineHeight() + 2.0f;
    const float line = ImGui::GetTextLineHeight();
    // Bank and segment numbers every 1, 2, 4, ... so that whole labels never overlap.
    auto every = [](int k, float room, float need) {
      while (k < 1024 && room * static_cast<float>(k) < need) k *= 2;
      return k;
    };
    const int bank_step = every(banks > 16 ? 4 : 1, word_w, ImGui::CalcTextSize(std::to_string(banks - 1).c_str()).x + em() * 0.4f);
    const int seg_step = every(row_h >= line ? 1 : 4, row_h, line);
    ImGui::BeginChild("slots", ImVec2(0, 0), false, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_HorizontalScrollbar);
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const float total_h = header + row_h * static_cast<float>(segments);
    ImGui::InvisibleButton("grid", ImVec2(label_w + word_w * static_cast<float>(banks), std::max(total_h, 1.0f)));
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 wmin = ImGui::GetWindowPos();
    const ImVec2 wmax(wmin.x + ImGui::GetWindowSize().x, wmin.y + ImGui::GetWindowSize().y);
    // Bank numbers.
    for (int b = 0; b < banks; b += bank_step) {
      const std::string s = std::to_string(b);
      dl->AddText(ImVec2(top.x + label_w + (static_cast<float>(b) + 0.5f) * word_w - ImGui::CalcTextSize(s.c_str()).x * 0.5f, top.y), kTextDim,
                  s.c_str());
    }
    const float y0 = top.y + header;
    const int s0 = std::max(0, static_cast<int>((wmin.y - y0) / row_h));
    const int s1 = std::min(segments, static_cast<int>((wmax.y - y0) / row_h) + 1);
    const int rows = m.rows(), cols = m.cols();
    const auto coloring = ctx.session.view.memory_coloring;
    auto color_of = [&](std::int64_t coord) -> ImU32 {
      if (coord < 0) return kEmptySlot;
      const auto cc = static_cast<BitVec>(coord);
      switch (coloring) {
        case MemoryColoring::Row: return hue_color(static_cast<float>(cc & low_bits(m.row_bits)) / static_cast<float>(rows), false);
        case MemoryColoring::Bank: return bank_color(m.place(cc).bank, banks);
        case MemoryColoring::Column: break;
      }
      return hue_color(static_cast<float>(cc >> m.row_bits) / static_cast<float>(cols), ((cc >> m.row_bits) & 1) != 0);
    };
    const float sub_w = word_w / static_cast<float>(per);
    const bool text = sub_w >= ImGui::CalcTextSize("00,00").x + 2 && row_h >= line;
    for (int s = s0; s < s1; ++s) {
      const float y = y0 + static_cast<float>(s) * row_h;
      if (s % seg_step == 0) {
        const std::string l = std::to_string(s);
        dl->AddText(ImVec2(top.x + label_w - ImGui::CalcTextSize(l.c_str()).x - 4, y + (row_h - ImGui::GetTextLineHeight()) * 0.5f), kTextDim,
                    l.c_str());
      }
      for (int b = 0; b < banks; ++b)
        for (int k = 0; k < per; ++k) {
          const std::size_t slot = (static_cast<std::size_t>(s) * static_cast<std::size_t>(banks) + static_cast<std::size_t>(b)) *
                                       static_cast<std::size_t>(per) + static_cast<std::size_t>(k);
          const std::int64_t coord = m.memory.slot_coord[slot];
          const ImVec2 a(top.x + label_w + static_cast<float>(b) * word_w + static_cast<float>(k) * sub_w, y);
          const ImVec2 e(a.x + sub_w - (k == per - 1 ? 1.0f : 0.0f), y + row_h - 1.0f);
          dl->AddRectFilled(a, e, color_of(coord));
          if (coord >= 0) {
            const int g = group_of(static_cast<BitVec>(coord));
            if (g >= 0) dl->AddRect(ImVec2(a.x + 1, a.y + 1), ImVec2(e.x - 1, e.y - 1), group_outline_color(g), 0, 0, std::max(1.0f, std::min(2.0f, row_h * 0.2f)));
            if (text) {
              const auto cc = p.shared.coords().unflatten(static_cast<BitVec>(coord));
              const std::string t = cc.size() == 2 ? fmt::format("{},{}", cc[0], cc[1]) : std::to_string(coord);
              if (ImGui::CalcTextSize(t.c_str()).x + 2 <= sub_w)  // a coordinate wider than its slot is left out
                dl->AddText(ImVec2(a.x + 2, y + (row_h - ImGui::GetTextLineHeight()) * 0.5f), IM_COL32(20, 22, 28, 255), t.c_str());
            }
          }
        }
    }
    ctx.probe("memory.slot.0.0", ImVec2(top.x + label_w, y0), ImVec2(top.x + label_w + sub_w, y0 + row_h));
    if (hovered) {
      const ImVec2 mp = ImGui::GetIO().MousePos;
      const int b = static_cast<int>(std::floor((mp.x - top.x - label_w) / word_w));
      const int s = static_cast<int>(std::floor((mp.y - y0) / row_h));
      const int k = static_cast<int>(std::floor((mp.x - top.x - label_w - static_cast<float>(b) * word_w) / sub_w));
      if (b >= 0 && b < banks && s >= 0 && s < segments && k >= 0 && k < per) {
        const std::int64_t coord = m.memory.slot_coord[(static_cast<std::size_t>(s) * static_cast<std::size_t>(banks) + static_cast<std::size_t>(b)) *
                                                     static_cast<std::size_t>(per) + static_cast<std::size_t>(k)];
        if (coord >= 0) {
          element_tooltip(m, static_cast<BitVec>(coord));
        } else {
          ImGui::SetTooltip("segment %d, bank %d: unused (padding)", s, b);
        }
      }
    }
    ImGui::EndChild();
  }
};

}  // namespace

std::unique_ptr<Panel> make_memory_panel() { return std::make_unique<MemoryPanel>(); }

}  // namespace swz::gui
