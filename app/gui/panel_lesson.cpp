// The Lesson panel: the open lesson's current step, Next / Back, and whether
// the workbench still shows that step (the learner may play and come back).
#include <algorithm>
#include <cstdio>

#include <GLFW/glfw3.h>  // key codes only: presenters' remotes send Page Up / Page Down
#include <fmt/format.h>

#include "classroom.h"
#include "swz/error.h"
#include "swz/teach/math_text.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

namespace {

struct LessonPanel final : Panel {
  // The claims of the step last shown, checked against the core once per step.
  const LessonStep* checked_step = nullptr;
  std::vector<ClaimCheck> checks;
  std::string check_error;

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
    check(*step);

    // Header: lesson and position, then the step title large.
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s  %s  step %d of %d", lesson->title.c_str(), sym("\xc2\xb7", "-"), c.step + 1, steps);
    ImGui::PopTextWrapPos();
    ImGui::PushFont(fonts().heading);
    ImGui::SetWindowFontScale(1.3f);
    ImGui::TextWrapped("%s", step->title.c_str());
    ImGui::SetWindowFontScale(1.0f);
    ImGui::PopFont();
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
    claims_list();
    ImGui::EndChild();

    if (!at_step(ctx, *step)) {
      ImGui::TextColored(ImVec4(0.55f, 0.35f, 0.0f, 1), "You changed the workbench since this step.");
      same_line_if_fits(button_width("Return to this step"));
      if (ImGui::SmallButton("Return to this step")) apply_lesson_step(ctx.bench);
    }
    const bool back = ImGui::IsKeyPressed(GLFW_KEY_PAGE_UP, false);
    const bool next = ImGui::IsKeyPressed(GLFW_KEY_PAGE_DOWN, false);
    ImGui::BeginDisabled(c.step == 0);
    const ImVec2 bp = ImGui::GetCursorScreenPos();
    if ((ImGui::Button("< Back") || back) && c.step > 0) go(ctx, c.step - 1);
    ctx.probe("lesson.back", bp, ImGui::GetItemRectMax());
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(c.step + 1 >= steps);
    const ImVec2 np = ImGui::GetCursorScreenPos();
    if ((ImGui::Button("Next >") || next) && c.step + 1 < steps) go(ctx, c.step + 1);
    ctx.probe("lesson.next", np, ImGui::GetItemRectMax());
    ImGui::EndDisabled();
    if (same_line_if_fits(ImGui::CalcTextSize("Page Up / Page Down").x)) ImGui::TextDisabled("Page Up / Page Down");
  }

  static void go(PanelContext& ctx, int step) {
    classroom().step = step;
    apply_lesson_step(ctx.bench);
  }

  static bool at_step(const PanelContext& ctx, const LessonStep& s) {
    const Session& session = ctx.session;
    return session.problem == state_for_step(s) && session.trace.side == side_for(s.access) && session.trace.step == s.step;
  }

  void check(const LessonStep& s) {
    if (checked_step == &s) return;
    checked_step = &s;
    checks.clear();
    check_error.clear();
    try {
      checks = check_claims(s);
    } catch (const Error& e) {
      check_error = e.what();
    }
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
        dl->AddText(ImVec2(o.x + label + (static_cast<float>(n) + 0.5f) * cell - ImGui::CalcTextSize(h.c_str()).x * 0.5f, o.y), kTextDim, h.c_str());
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
          dl->AddText(ImVec2((a.x + b.x - ts.x) * 0.5f, (a.y + b.y - ts.y) * 0.5f), out ? IM_COL32(255, 255, 255, 255) : IM_COL32(20, 22, 28, 255),
                      v.c_str());
        }
      }
      const ImVec2 end(o.x + label + static_cast<float>(cols) * cell, top + static_cast<float>(rows) * cell);
      ctx.probe(fmt::format("lesson.xor_table.{}x{}", rows, cols), o, end);
      ImGui::Dummy(ImVec2(end.x - o.x, end.y - o.y));
      ImGui::Spacing();
    }
  }

  void claims_list() const {
    if (checks.empty() && check_error.empty()) return;
    ImGui::Spacing();
    ImGui::TextDisabled("The workbench says:");
    for (const ClaimCheck& k : checks) {
      const std::string value = k.actual.is_string() ? k.actual.get<std::string>() : k.actual.dump();
      if (k.holds) {
        ImGui::TextColored(verdict_color_vec(Verdict::Ideal), "%s", sym("\xe2\x9c\x93", "ok"));
        ImGui::SameLine();
        ImGui::TextWrapped("%s = %s", k.claim.quantity.c_str(), pretty_xor(value).c_str());
      } else {
        ImGui::TextColored(verdict_color_vec(Verdict::Severe), "%s", sym("\xe2\x9c\x97", "X"));
        ImGui::SameLine();
        ImGui::TextWrapped("%s = %s, but the lesson says %s", k.claim.quantity.c_str(), pretty_xor(value).c_str(), k.claim.expected.dump().c_str());
      }
    }
    if (!check_error.empty()) ImGui::TextColored(verdict_color_vec(Verdict::Severe), "%s", check_error.c_str());
  }
};

}  // namespace

std::unique_ptr<Panel> make_lesson_panel() { return std::make_unique<LessonPanel>(); }

}  // namespace swz::gui
