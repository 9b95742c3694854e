// Algebra ("show the algebra"): M_Seg, span(Thr) of the selected access, their
// intersection, 2^dim against the simulated count, Lemma 9.5, and the
// conflict-free condition. Every number comes from the core's analysis.
#include <fmt/format.h>

#include "getting_started.h"
#include "panel.h"
#include "swz/algebra/f2.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

namespace {

std::string basis_text(const std::vector<BitVec>& basis, const LinearLayout& names) {
  if (basis.empty()) return "{0}";
  std::vector<std::string> parts;
  for (BitVec v : basis) parts.push_back(pretty_xor(names.describe_out(v)));
  return fmt::format("{}", fmt::join(parts, ", "));
}

struct AlgebraPanel final : Panel {
  const char* id() const override { return "algebra"; }
  const char* title() const override { return "Algebra"; }

  void draw(PanelContext& ctx) override {
    const Model& m = ctx.model;
    const Side side = ctx.session.trace.side;
    const AccessAnalysis& an = m.analysis_of(side);
    const LemmaResult& L = an.lemma;
    const LinearLayout& names = m.problem.shared.coords();
    const char* thr = side == Side::Store ? "A_Thr" : "B_Thr";
    const char* cap = sym("\xe2\x88\xa9", "&");

    draw_panel_summary(ctx, id());
    // Every line wraps at the panel's edge; pieces that follow on a line move down when they do not fit.
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("for the %s (switch in Access trace)", side == Side::Store ? "store, A" : "read, B");
    if (!L.applies) {
      ImGui::PopTextWrapPos();
      note(fmt::format("Lemma 9.4 does not apply: {}", L.reason).c_str());
      return;
    }
    row("M_Seg basis", basis_text(L.segment_basis, names));
    if (!L.within_word_basis.empty()) row("within a word (W)", basis_text(L.within_word_basis, names));
    row(fmt::format("span({}), one phase", thr), basis_text(L.thread_basis, names));
    row(fmt::format("span(M_Seg) {} span({})", cap, thr), basis_text(L.intersection_basis, names));

    // 2^dim against the simulation.
    const AccessResult& sim = an.simulated;
    ImGui::TextUnformatted(pretty_xor(fmt::format("dim = {}:  2^{{{}}} x {} phase{} = {} wavefront{} predicted,", L.intersection_dim,
                                                  L.intersection_dim, L.phases, L.phases == 1 ? "" : "s", L.predicted_wavefronts,
                                                  L.predicted_wavefronts == 1 ? "" : "s"))
                               .c_str());
    const bool agree = an.agrees();
    ImGui::Text("%d simulated", sim.wavefronts);
    const ImVec4 ok(0.13f, 0.60f, 0.27f, 1), bad(0.82f, 0.16f, 0.16f, 1);
    ImGui::PushFont(fonts().heading);
    const std::string mark = agree ? fmt::format("{} lemma and simulation agree", sym("\xe2\x9c\x93", "[ok]"))
                                   : fmt::format("{} they differ", sym("\xe2\x9c\x97", "[x]"));
    same_line_if_fits(ImGui::CalcTextSize(mark.c_str()).x);
    const ImVec2 mark_pos = ImGui::GetCursorScreenPos();
    ImGui::TextColored(agree ? ok : bad, "%s", mark.c_str());
    ctx.probe("algebra.agree", mark_pos, ImGui::GetItemRectMax());
    ImGui::PopFont();
    if (!agree) ImGui::TextColored(bad, "why: %s", an.difference.c_str());

    // Lemma 9.5 over both accesses.
    ImGui::Separator();
    const int width = names.out_bits();
    const LemmaResult& ls = m.analysis.store.lemma;
    const LemmaResult& lr = m.analysis.read.lemma;
    const int du = rank(ls.thread_basis), dv = rank(lr.thread_basis);
    const int bound = max_avoiding_dim(width, du, dv);
    const int seg = static_cast<int>(L.segment_basis.size());
    ImGui::Text("Lemma 9.5: d - max(dim A_Thr, dim B_Thr) = %d - max(%d, %d) = %d", width, du, dv, bound);
    ImGui::TextDisabled("= the largest segment space avoiding both thread spans; this layout needs %d segment bit%s, so", seg, seg == 1 ? "" : "s");
    if (seg <= bound) ImGui::TextColored(ok, "conflict-free both ways is possible");
    else ImGui::TextColored(bad, "%d bit%s short: some conflict is unavoidable", seg - bound, seg - bound == 1 ? "" : "s");

    // The condition, checked for both accesses.
    const char* zero = "{0}";
    ImGui::Text("Conflict-free %s span(M_Seg) %s span(Thr) = %s", sym("\xe2\x87\x94", "<=>"), cap, zero);
    bool first = true;
    auto check = [&](const char* who, const LemmaResult& l) {
      const bool free = l.applies && l.intersection_dim == 0;
      const std::string text = fmt::format("{} {}", who, free ? sym("\xe2\x9c\x93", "ok") : sym("\xe2\x9c\x97", "no"));
      if (!first) same_line_if_fits(ImGui::CalcTextSize(text.c_str()).x);
      first = false;
      ImGui::TextColored(free ? ok : bad, "%s", text.c_str());
    };
    ImGui::Indent(em() * 1.2f);
    check("store", ls);
    check(" read", lr);
    ImGui::Unindent(em() * 1.2f);
    ImGui::PopTextWrapPos();
  }

  static void row(const std::string& label, const std::string& value) {
    ImGui::TextDisabled("%s:", label.c_str());
    ImGui::PushFont(fonts().mono);
    same_line_if_fits(std::min(ImGui::CalcTextSize(value.c_str()).x, em() * 8.0f));
    ImGui::TextUnformatted(value.c_str());
    ImGui::PopFont();
  }
};

}  // namespace

std::unique_ptr<Panel> make_algebra_panel() { return std::make_unique<AlgebraPanel>(); }

}  // namespace swz::gui
