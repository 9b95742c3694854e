// The Lesson panel: the open lesson's current step, its step list, Next / Back (Next lesson
// and Take the quiz at the last step), and whether the workbench still shows that step (the
// learner may play and come back).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "classroom.h"
#include "swz/error.h"
#include "swz/teach/math_text.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

namespace {

struct LessonPanel final : Panel {
  ClaimList claims;

  const char* id() const override { return "lesson"; }
  const char* title() const override { return "Lesson"; }

  void draw(PanelContext& ctx) override {
    Classroom& c = classroom();
    if (!c.lesson_error.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.70f, 0.05f, 0.05f, 1));
      ImGui::TextWrapped("This lesson file does not load:\n%s", c.lesson_error.c_str());
      ImGui::PopStyleColor();
      ImGui::TextDisabled("Fix the file, then Classroom > Reload lesson files.");
      return;
    }
    const Lesson* lesson = c.lesson();
    const LessonStep* step = c.current_step();
    if (!lesson || !step) return;
    const int steps = static_cast<int>(lesson->steps.size());
    const bool last = c.step + 1 >= steps;

    // Header: the step list (jump to any step), the lesson, then the step title large.
    const ImVec2 sp = ImGui::GetCursorScreenPos();
    step_combo(ctx.bench, "##steps", ImGui::CalcTextSize("Step 00 of 00").x + ImGui::GetFrameHeight() * 1.6f, "lesson.steps");
    ctx.probe("lesson.steps", sp, ImGui::GetItemRectMax());
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", lesson->title.c_str());
    ImGui::PopTextWrapPos();
    step_title(step->title);
    ImGui::Separator();

    // Navigation stays at the bottom; the text scrolls above it.
    const float nav_h = ImGui::GetFrameHeightWithSpacing() * (at_step(ctx, *step) ? 1.15f : 2.3f);
    ImGui::BeginChild("text", ImVec2(0, -nav_h), false);
    for (const std::string& para : step->paragraphs) {
      if (is_code_paragraph(para))
        code_block(ctx, code_lines(para));
      else
        ImGui::TextWrapped("%s", pretty_xor(para).c_str());
      ImGui::Spacing();
    }
    xor_tables(ctx, *step);
    claims_or_toggle(ctx, *step);
    ImGui::EndChild();

    if (!at_step(ctx, *step)) {
      ImGui::TextColored(ImVec4(0.55f, 0.35f, 0.0f, 1), "You changed the workbench since this step.");
      same_line_if_fits(button_width("Return to this step"));
      if (ImGui::SmallButton("Return to this step")) apply_lesson_step(ctx.bench);
    }
    // Page Down / Page Up are taken in lecture_keys(), which loses no press.
    ImGui::BeginDisabled(c.step == 0);
    const ImVec2 bp = ImGui::GetCursorScreenPos();
    if (ImGui::Button("< Back")) go_to_step(ctx.bench, c.step - 1);
    ctx.probe("lesson.back", bp, ImGui::GetItemRectMax());
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (!last) {
      const ImVec2 np = ImGui::GetCursorScreenPos();
      if (ImGui::Button("Next >")) go_to_step(ctx.bench, c.step + 1);
      ctx.probe("lesson.next", np, ImGui::GetItemRectMax());
      if (same_line_if_fits(ImGui::CalcTextSize("Page Up / Page Down").x)) ImGui::TextDisabled("Page Up / Page Down");
      return;
    }
    // The last step: on to the next lesson, or the quiz.
    if (next_lesson_index() >= 0) {
      const ImVec2 np = ImGui::GetCursorScreenPos();
      if (ImGui::Button("Next lesson >")) open_next_lesson(ctx.bench);
      ctx.probe("lesson.next_lesson", np, ImGui::GetItemRectMax());
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", c.lessons[static_cast<std::size_t>(next_lesson_index())].lesson->title.c_str());
      ImGui::SameLine();
    }
    const ImVec2 qp = ImGui::GetCursorScreenPos();
    if (ImGui::Button("Take the quiz")) take_quiz(ctx.bench);
    ctx.probe("lesson.quiz", qp, ImGui::GetItemRectMax());
  }

  static bool at_step(const PanelContext& ctx, const LessonStep& s) {
    const Session& session = ctx.session;
    return session.problem == state_for_step(s) && session.trace.side == side_for(s.access) && session.trace.step == s.step;
  }

  // Before a class the claims stay hidden (presentation mode, a presenter view) until asked for.
  void claims_or_toggle(PanelContext& ctx, const LessonStep& s) {
    Classroom& c = classroom();
    const std::size_t n = claims.size(s);
    if (n == 0) return;
    ImGui::Spacing();
    if (claims_hidden()) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (ImGui::SmallButton(fmt::format("Show claims ({})", n).c_str())) c.show_claims = true;
      ctx.probe("lesson.show_claims", p, ImGui::GetItemRectMax());
      return;
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    claims.draw(s);
    ctx.probe("lesson.claims", p, ImVec2(p.x + ImGui::GetContentRegionAvail().x, ImGui::GetCursorScreenPos().y));
    if (students_watching() && ImGui::SmallButton("Hide claims")) c.show_claims = false;
  }

  // Code as written (math_text.h): the fixed-width font on a light panel, lines and indentation kept.
  static void code_block(PanelContext& ctx, const std::vector<std::string>& lines) {
    ImGui::PushFont(fonts().mono);
    float width = 0;
    for (const std::string& line : lines) width = std::max(width, ImGui::CalcTextSize(line.c_str()).x);
    const float pad = em() * 0.5f, line_h = ImGui::GetTextLineHeight();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const ImVec2 end(o.x + width + 2 * pad, o.y + static_cast<float>(lines.size()) * line_h + 2 * pad);
    ImGui::GetWindowDrawList()->AddRectFilled(o, end, IM_COL32(236, 238, 242, 255), em() * 0.2f);
    for (std::size_t i = 0; i < lines.size(); ++i)
      ImGui::GetWindowDrawList()->AddText(ImVec2(o.x + pad, o.y + pad + static_cast<float>(i) * line_h),
                                          IM_COL32(20, 22, 28, 255), lines[i].c_str());
    ImGui::PopFont();
    ctx.probe("lesson.code", o, end);
    ImGui::Dummy(ImVec2(end.x - o.x, end.y - o.y));
  }

  // Steps about XOR on small tiles (claims "xor_table(R,C)...") show the tile: each
  // cell is where element (m, n) goes, n ^ m, in red where that is past the last column.
  static void xor_tables(PanelContext& ctx, const LessonStep& s) {
    std::vector<std::pair<int, int>> tables;
    for (const LessonClaim& claim : s.claims) {
      int r = 0, c = 0;
      if (std::sscanf(claim.quantity.c_str(), "xor_table(%d,%d)", &r, &c) != 2 || r < 1 || c < 1 || r > 16 || c > 16) continue;
      if (std::find(tables.begin(), tables.end(), std::make_pair(r, c)) == tables.end()) tables.emplace_back(r, c);
    }
    const float cell = ImGui::GetFrameHeight() * 1.1f;
    const ImU32 inside = IM_COL32(222, 236, 250, 255), outside = IM_COL32(232, 76, 61, 255), line = IM_COL32(255, 255, 255, 255);
    for (std::size_t t = 0; t < tables.size(); ++t) {
      const auto [rows, cols] = tables[t];
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("%dx%d tile, element (m, n) goes to column n ^ m%s", rows, cols,
                          (cols & (cols - 1)) == 0 ? ": a power of two, all inside" : "; red: past the last column");
      ImGui::PopTextWrapPos();
      ImDrawList* dl = ImGui::GetWindowDrawList();
      const ImVec2 o = ImGui::GetCursorScreenPos();
      const float label = em() * 1.6f;
      for (int n = 0; n < cols; ++n) {
        const std::string h = std::to_string(n);
        dl->AddText(ImVec2(o.x + label + (static_cast<float>(n) + 0.5f) * cell - ImGui::CalcTextSize(h.c_str()).x * 0.5f, o.y),
                    kTextDim, h.c_str());
      }
      const float top = o.y + ImGui::GetTextLineHeight() + 2.0f;
      for (int m = 0; m < rows; ++m) {
        const float y = top + static_cast<float>(m) * cell;
        dl->AddText(ImVec2(o.x, y + (cell - ImGui::GetTextLineHeight()) * 0.5f), kTextDim, fmt::format("m{}", m).c_str());
        const auto row = xor_swizzle_row(m, cols);
        for (int n = 0; n < cols; ++n) {
          const ImVec2 a(o.x + label + static_cast<float>(n) * cell, y), b(a.x + cell, a.y + cell);
          const bool out = row[static_cast<std::size_t>(n)] >= cols;
          dl->AddRectFilled(a, b, out ? outside : inside);
          dl->AddRect(a, b, line);
          const std::string v = std::to_string(row[static_cast<std::size_t>(n)]);
          const ImVec2 ts = ImGui::CalcTextSize(v.c_str());
          dl->AddText(ImVec2((a.x + b.x - ts.x) * 0.5f, (a.y + b.y - ts.y) * 0.5f),
                      out ? IM_COL32(255, 255, 255, 255) : IM_COL32(20, 22, 28, 255), v.c_str());
        }
      }
      const ImVec2 end(o.x + label + static_cast<float>(cols) * cell, top + static_cast<float>(rows) * cell);
      ctx.probe(fmt::format("lesson.xor_table.{}x{}", rows, cols), o, end);
      ImGui::Dummy(ImVec2(end.x - o.x, end.y - o.y));
      ImGui::Spacing();
    }
  }
};

}  // namespace

std::unique_ptr<Panel> make_lesson_panel() { return std::make_unique<LessonPanel>(); }

}  // namespace swz::gui
