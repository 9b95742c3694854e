// Live M matrix: the shared layout as offset bits -> coordinate bits. For a
// toggle-grid layout it is [[I, C], [0, I]] (rows: column bits n.., then row
// bits m..; columns: offset bits, the column part then the row part). Blue =
// the fixed identity structure, dark = the set cells of C; clicking a C cell
// toggles it exactly like the grid.
#include <algorithm>

#include <fmt/format.h>

#include "panel.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

namespace {

constexpr ImU32 kZero = IM_COL32(246, 247, 249, 255);

struct MatrixPanel final : Panel {
  const char* id() const override { return "matrix"; }
  const char* title() const override { return "Live M matrix"; }

  void draw(PanelContext& ctx) override {
    const Model& m = ctx.model;
    const Problem& p = m.problem;
    if (!p.shared.is_linear()) {
      note(fmt::format("The shared layout is not linear over F2, so it has no matrix: {}", p.shared.nonlinear_reason()).c_str());
      return;
    }
    const LinearLayout& lin = p.shared.linear();
    const LinearLayout& names = p.shared.coords();
    const int n = lin.in_dim_bits("offset");
    const int off0 = lin.in_offset("offset");
    const BitMatrix mat = lin.matrix();
    const LemmaResult& lemma = m.analysis.read.lemma;
    const ProblemSpec& st = ctx.session.problem;
    const bool grid = p.grid && !st.shared && (st.variant.empty() || is_mask_variant(p, st.variant));
    const int grid_cols = grid ? p.grid->col_bits : 0;

    MatrixView v;
    // Rows: the last dim's bits first, so a row-major tile reads [[I, C], [0, I]].
    std::vector<int> rows;
    for (int d = lin.rank() - 1; d >= 0; --d) {
      if (!rows.empty()) v.row_breaks.push_back(static_cast<int>(rows.size()));
      for (int i = 0; i < lin.out_dims()[static_cast<std::size_t>(d)].log2_size; ++i) rows.push_back(lin.out_offset(d) + i);
    }
    for (int r : rows) v.row_labels.push_back(names.out_bit_name(r));
    for (int i = 0; i < n; ++i) v.col_labels.push_back(lin.in_bit_name(off0 + i));
    // Column groups from the core's split of the offset: within a word, bank, segment.
    if (lemma.applies) {
      const int word = static_cast<int>(lemma.within_word_basis.size());
      const int seg = static_cast<int>(lemma.segment_basis.size());
      if (word > 0) v.col_groups.push_back({0, "word"});
      if (n - seg > word) v.col_groups.push_back({word, "bank"});
      if (seg > 0) v.col_groups.push_back({n - seg, "segment"});
      if (word > 0) v.col_breaks.push_back(word);
      if (seg > 0 && n - seg > 0) v.col_breaks.push_back(n - seg);
    }
    const int row_bits = m.row_bits;
    auto is_c = [&](int r, int c) {  // a toggleable cell of C: row n_k (k >= vec bits), column of row bit j
      if (!grid) return false;
      const int out = rows[static_cast<std::size_t>(r)];
      return out >= row_bits && out - row_bits >= p.grid->vec_bits && c >= grid_cols && c - grid_cols < p.grid->row_bits;
    };
    auto is_identity = [&](int r, int c) {
      if (!grid) return false;
      const int out = rows[static_cast<std::size_t>(r)];
      if (c < grid_cols) return out == row_bits + c;  // bank/column part: o_k -> n_k
      return out == c - grid_cols;                    // row part: o_(N+j) -> m_j
    };
    v.color = [&](int r, int c) {
      const bool one = mat.at(rows[static_cast<std::size_t>(r)], off0 + c);
      if (!grid) return one ? kMatrixSet : kZero;
      if (is_identity(r, c)) return kMatrixIdentity;
      if (is_c(r, c)) return one ? kMatrixSet : kMatrixUnset;
      return one ? kMatrixSet : kZero;
    };
    if (grid) v.clickable = is_c;
    v.probe_prefix = "matrix.cell";
    const float avail = std::min(ImGui::GetContentRegionAvail().x * 0.75f, ImGui::GetContentRegionAvail().y - em() * 3.5f);
    v.cell = std::floor(std::clamp(avail / static_cast<float>(std::max(n, static_cast<int>(rows.size())) + 2), 8.0f, em() * 1.5f));
    if (const auto hit = draw_matrix(ctx, "M", v)) {
      const int out = rows[static_cast<std::size_t>(hit->first)];
      const int j = hit->second - grid_cols, k = out - row_bits;
      ctx.post(cmd::toggle_cell(j, k, names.out_bit_name(j), names.out_bit_name(out)));
    }
    ImGui::PushTextWrapPos(0.0f);
    if (grid) {
      ImGui::TextDisabled("Blue: the fixed identity (bank bits %s columns, segment bits %s rows). Dark: C, the grid's toggles; click a C cell to flip it.",
                          sym("\xe2\x86\x92", "->"), sym("\xe2\x86\x92", "->"));
    } else {
      ImGui::TextDisabled("Dark = 1: offset bit (column) lands on these coordinate bits (rows).");
    }
    ImGui::PopTextWrapPos();
  }

  static bool is_mask_variant(const Problem& p, const std::string& name) {
    for (const auto& v : p.variants)
      if (v.name == name) return v.masks.has_value();
    return false;
  }
};

}  // namespace

std::unique_ptr<Panel> make_matrix_panel() { return std::make_unique<MatrixPanel>(); }

}  // namespace swz::gui
