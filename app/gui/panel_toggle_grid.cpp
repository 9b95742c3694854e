// Toggle grid: row m's slots are XORed by mask(m); one toggle per (row bit, column bit).
//
//   offset(m, n) = m*N + (n ^ mask(m)),   mask(m) = XOR of masks[j] over the set bits j of m
//   a set cell (m_j, n_k) = "fold row bit m_j into column bit n_k"
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "classroom.h"
#include "panel.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

namespace {

// Masks folding row bit j into column bit (first + j + shift), clipped to the columns.
std::vector<std::uint32_t> staircase(const GridSpec& g, int shift) {
  std::vector<std::uint32_t> m(static_cast<std::size_t>(g.row_bits), 0);
  for (int j = 0; j < g.row_bits; ++j) {
    const int k = g.vec_bits + j + shift;
    if (k < g.col_bits) m[static_cast<std::size_t>(j)] = std::uint32_t{1} << k;
  }
  return m;
}

struct ToggleGridPanel final : Panel {
  const char* id() const override { return "grid"; }
  const char* title() const override { return "Toggle grid"; }

  void draw(PanelContext& ctx) override {
    const Problem& p = ctx.model.problem;
    const ProblemSpec& st = ctx.session.problem;
    if (!p.grid) {
      note("This problem's shared layout is not a row-major tile XORed by masks, so there is no toggle grid. "
           "Its named layouts:");
      bool first_variant = true;
      for (const auto& v : p.variants) {
        if (!first_variant) same_line_if_fits(button_width(v.name.c_str()));
        first_variant = false;
        if (ImGui::Button(v.name.c_str())) ctx.post(cmd::variant_command(v));
      }
      return;
    }
    const GridSpec& g = *p.grid;
    const LinearLayout& names = p.shared.coords();
    const bool on_grid = !st.shared && (st.variant.empty() || is_mask_variant(p, st.variant));
    auto row_name = [&](int j) { return names.out_bit_name(j); };
    auto col_name = [&](int k) { return names.out_bit_name(ctx.model.row_bits + k); };
    const int first = g.vec_bits;
    const int ncols = g.col_bits - first;

    // The grid itself.
    const float fit_h = (ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeightWithSpacing() * 4.5f) / static_cast<float>(g.row_bits + 1);
    const float cell = std::round(std::clamp(fit_h, em() * 1.1f, em() * 1.7f));
    ImGui::PushFont(fonts().mono);
    const float label_w = ImGui::CalcTextSize("m00").x + em() * 0.5f;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float line = ImGui::GetTextLineHeight();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int k = 0; k < ncols; ++k) {
      const std::string n = col_name(first + k);
      const float tw = ImGui::CalcTextSize(n.c_str()).x;
      dl->AddText(ImVec2(origin.x + label_w + static_cast<float>(k) * cell + (cell - tw) * 0.5f, origin.y), ImGui::GetColorU32(ImGuiCol_Text),
                  n.c_str());
    }
    const float top = origin.y + line + 3.0f;
    for (int j = 0; j < g.row_bits; ++j) {
      const std::string m = row_name(j);
      dl->AddText(ImVec2(origin.x, top + static_cast<float>(j) * cell + (cell - line) * 0.5f), ImGui::GetColorU32(ImGuiCol_Text), m.c_str());
      for (int k = 0; k < ncols; ++k) {
        const int bit = first + k;
        const ImVec2 a(origin.x + label_w + static_cast<float>(k) * cell, top + static_cast<float>(j) * cell);
        const ImVec2 b(a.x + cell - 3.0f, a.y + cell - 3.0f);
        ImGui::SetCursorScreenPos(a);
        ImGui::PushID(j * 64 + k);
        const bool clicked = ImGui::InvisibleButton("cell", ImVec2(cell - 3.0f, cell - 3.0f));
        const bool hovered = ImGui::IsItemHovered();
        ImGui::PopID();
        const bool set = on_grid && j < static_cast<int>(p.masks.size()) && ((p.masks[static_cast<std::size_t>(j)] >> bit) & 1u);
        dl->AddRectFilled(a, b, set ? kMatrixSet : kMatrixUnset, 3.0f);
        dl->AddRect(a, b, hovered ? IM_COL32(230, 120, 20, 255) : IM_COL32(170, 176, 188, 255), 3.0f, 0, hovered ? 2.0f : 1.0f);
        ctx.probe(fmt::format("grid.cell.{}.{}", j, bit), a, b);
        if (hovered) ImGui::SetTooltip("%s row bit %s %s column bit %s", set ? "Unfold" : "Fold", m.c_str(), set ? "from" : "into", col_name(bit).c_str());
        if (clicked) ctx.post(cmd::toggle_cell(j, bit, m, col_name(bit)));
      }
    }
    ImGui::PopFont();
    ImGui::SetCursorScreenPos(ImVec2(origin.x, top + static_cast<float>(g.row_bits) * cell + 2.0f));
    ImGui::Dummy(ImVec2(label_w + static_cast<float>(ncols) * cell, 1.0f));

    // The sentence.
    std::string sentence;
    if (on_grid) {
      for (int j = 0; j < g.row_bits; ++j) {
        const std::uint32_t mask = j < static_cast<int>(p.masks.size()) ? p.masks[static_cast<std::size_t>(j)] : 0;
        if (!mask) continue;
        std::vector<std::string> cols;
        for (int k = 0; k < g.col_bits; ++k)
          if ((mask >> k) & 1u) cols.push_back(col_name(k));
        sentence += fmt::format("{}{} into {}", sentence.empty() ? "Fold row bit " : "; ", row_name(j), fmt::join(cols, ", "));
      }
      sentence = sentence.empty() ? "Fold row bit ... into column bits ... : nothing folded yet, the layout is row-major."
                                  : sentence + ".  (This is your swizzle.)";
    } else {
      sentence = fmt::format("The shared layout is '{}', not the grid; a toggle starts from the plain grid again.",
                             st.shared ? st.shared->origin : st.variant);
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(sentence.c_str());
    ImGui::PopTextWrapPos();

    // Named swizzles, wrapping onto new lines as the panel narrows.
    bool first_button = true;
    auto flow = [&](const char* label) {
      if (!first_button) same_line_if_fits(button_width(label));
      first_button = false;
    };
    flow("Unswizzled");
    if (ImGui::Button("Unswizzled")) ctx.post(cmd::set_masks("Unswizzled", {}));
    // One-click answers: disabled while a lesson's exercise asks the learner to find one.
    const char* locked = answers_locked(ctx.bench);
    ImGui::BeginDisabled(locked != nullptr);
    flow("Classic XOR m");
    if (ImGui::Button("Classic XOR m")) ctx.post(cmd::set_masks("Classic XOR m", staircase(g, 0)));
    ctx.probe("grid.classic_xor", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    answers_locked_tooltip(locked);
    flow("XOR 2m");
    if (ImGui::Button("XOR 2m")) ctx.post(cmd::set_masks("XOR 2m", staircase(g, 1)));
    answers_locked_tooltip(locked);
    const SolverAnswer& answer = ctx.bench.solver_answer();
    flow("Solver's answer");
    ImGui::BeginDisabled(!answer.masks);
    const ImVec2 sp = ImGui::GetCursorScreenPos();
    if (ImGui::Button("Solver's answer") && answer.masks) ctx.post(cmd::set_masks("Solver's answer", *answer.masks));
    ctx.probe("grid.solver", sp, ImGui::GetItemRectMax());
    ImGui::EndDisabled();
    if (locked)
      answers_locked_tooltip(locked);
    else if (!answer.masks && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", answer.result ? "The solver's layout is not a toggle-grid layout here; apply it from the Solver panel"
                                            : answer.error.c_str());
    const auto xor_m = staircase(g, 0), xor_2m = staircase(g, 1);
    auto same = [](std::vector<std::uint32_t> a, std::vector<std::uint32_t> b) {
      a.resize(std::max(a.size(), b.size()), 0);
      b.resize(a.size(), 0);
      return a == b;
    };
    for (const auto& v : p.variants) {
      // The preset's own layouts, unless a button above already makes them.
      if (v.masks && (same(*v.masks, {}) || same(*v.masks, xor_m) || same(*v.masks, xor_2m))) continue;
      flow(v.name.c_str());
      if (ImGui::Button(v.name.c_str())) ctx.post(cmd::variant_command(v));
      answers_locked_tooltip(locked);
    }
    ImGui::EndDisabled();
    if (locked) {
      // Beside the buttons it locks where it fits (the grid's tile is small at projector scales); the reason on hover.
      const char* note = exercise_lock_words().note;
      same_line_if_fits(ImGui::CalcTextSize(note).x);
      ImGui::AlignTextToFramePadding();
      ImGui::TextDisabled("%s", note);
      ctx.probe("grid.answers_locked", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
      answers_locked_tooltip(locked);
    }

    // Undo / redo, named.
    const History& h = ctx.bench.history();
    ImGui::BeginDisabled(!h.can_undo());
    if (ImGui::Button("Undo")) ctx.bench.defer([&bench = ctx.bench] { bench.undo(); });
    ImGui::EndDisabled();
    if (h.can_undo() && ImGui::IsItemHovered()) ImGui::SetTooltip("Undo %s (Ctrl+Z)", h.undo_name().c_str());
    same_line_if_fits(button_width("Redo"));
    ImGui::BeginDisabled(!h.can_redo());
    if (ImGui::Button("Redo")) ctx.bench.defer([&bench = ctx.bench] { bench.redo(); });
    ImGui::EndDisabled();
    if (h.can_redo() && ImGui::IsItemHovered()) ImGui::SetTooltip("Redo %s (Ctrl+Shift+Z)", h.redo_name().c_str());
    const std::string configs = pretty_xor(fmt::format("2^{{{}}} configurations", g.configs_log2()));
    same_line_if_fits(ImGui::CalcTextSize(configs.c_str()).x);
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", configs.c_str());
  }

  static bool is_mask_variant(const Problem& p, const std::string& name) {
    for (const auto& v : p.variants)
      if (v.name == name) return v.masks.has_value();
    return false;
  }
};

}  // namespace

std::unique_ptr<Panel> make_toggle_grid_panel() { return std::make_unique<ToggleGridPanel>(); }

}  // namespace swz::gui
