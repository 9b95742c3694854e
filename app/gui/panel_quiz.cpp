// The Quiz panel: a random swizzle and access, "how many wavefronts?", then the
// simulator's answer and the subspace intersection that explains it.
#include <chrono>

#include <fmt/format.h>

#include "classroom.h"
#include "swz/error.h"
#include "theme.h"
#include "workbench.h"

namespace swz::gui {

namespace {

struct QuizPanel final : Panel {
  const char* id() const override { return "quiz"; }
  const char* title() const override { return "Quiz"; }

  void draw(PanelContext& ctx) override {
    Classroom& c = classroom();
    if (!c.question) new_question(c);
    if (!c.question) return;
    const QuizQuestion& q = *c.question;
    const bool read = q.access == LessonAccess::Read;

    ImGui::TextDisabled("Score %d / %d  %s  streak %d (best %d)", c.score.correct, c.score.asked, sym("\xc2\xb7", "-"), c.score.streak,
                        c.score.best_streak);
    ImGui::Separator();
    const Problem p = make_preset(q.preset);
    ImGui::TextWrapped("%s", p.description.c_str());
    ImGui::Text("Masks (row bit 0 first): %s", format_masks(q.masks).c_str());
    for (std::size_t j = 0; j < q.masks.size(); ++j) {
      if (!q.masks[j]) continue;
      std::string cols;
      for (int b = 0; b < 32; ++b)
        if (q.masks[j] >> b & 1u) cols += fmt::format("{}n{}", cols.empty() ? "" : ", ", b);
      ImGui::BulletText("m%zu folds into %s", j, cols.c_str());
    }
    ImGui::PushFont(fonts().heading);
    ImGui::TextWrapped("How many wavefronts does the worst instruction of the %s take?", read ? "read (B)" : "store (A)");
    ImGui::PopFont();

    for (std::size_t i = 0; i < q.choices.size(); ++i) {
      const int choice = q.choices[i];
      if (i > 0) ImGui::SameLine();
      const bool picked = c.answer && *c.answer == choice;
      const bool right = choice == q.wavefronts;
      // Answering sets c.answer in the middle of the loop: pop exactly what this frame pushed.
      const bool colored = c.answer.has_value();
      if (colored) {
        const ImVec4 color = right ? verdict_color_vec(Verdict::Ideal) : picked ? verdict_color_vec(Verdict::Severe) : ImGui::GetStyle().Colors[ImGuiCol_Button];
        ImGui::PushStyleColor(ImGuiCol_Button, color);
      }
      const ImVec2 pos = ImGui::GetCursorScreenPos();
      const std::string label = fmt::format("{}##choice{}", choice, i);
      if (ImGui::Button(label.c_str(), ImVec2(em() * 3.0f, 0)) && !c.answer) {
        c.answer = choice;
        c.score.record(right);
      }
      ctx.probe(fmt::format("quiz.choice.{}", choice), pos, ImGui::GetItemRectMax());
      if (colored) ImGui::PopStyleColor();
    }

    // Next / Show sit right under the choices, so they never scroll out of reach below the explanation.
    ImGui::Spacing();
    const ImVec2 np = ImGui::GetCursorScreenPos();
    if (ImGui::Button(c.answer ? "Next question" : "Skip")) {
      new_question(c);
      return;
    }
    ctx.probe("quiz.next", np, ImGui::GetItemRectMax());
    if (c.answer) {
      ImGui::SameLine();
      if (ImGui::Button("Show on the workbench")) show(ctx, q);
      const bool right = *c.answer == q.wavefronts;
      ImGui::TextColored(verdict_color_vec(right ? Verdict::Ideal : Verdict::Severe), "%s", right ? "Right." : "Not quite.");
      ImGui::SameLine();
      ImGui::Text("The simulator says: %s.", q.verdict.c_str());
      ImGui::TextWrapped("%s", pretty_xor(q.explanation).c_str());
      if (q.lemma_applies) {
        ImGui::TextDisabled("M_Seg: %s", pretty_xor(fmt::format("{}", fmt::join(q.segment_basis, ", "))).c_str());
        ImGui::TextDisabled("%s: %s", read ? "B_Thr" : "A_Thr", pretty_xor(fmt::format("{}", fmt::join(q.thread_basis, ", "))).c_str());
      }
    }
  }

  static void new_question(Classroom& c) {
    if (c.next_seed == 1)  // a different first question each run
      c.next_seed = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) | 2u;
    try {
      c.question = make_quiz_question(c.next_seed++);
    } catch (const Error&) {
      c.question.reset();
    }
    c.answer.reset();
  }

  static void show(PanelContext& ctx, const QuizQuestion& q) {
    ProblemSpec state;
    state.preset = q.preset;
    state.masks = q.masks;
    while (!state.masks.empty() && state.masks.back() == 0) state.masks.pop_back();
    const Side side = side_for(q.access);
    ctx.post({"Quiz question", [state, side](Session& s) {
                s.problem = state;
                s.trace.side = side;
                s.trace.playing = false;
              }});
  }
};

}  // namespace

std::unique_ptr<Panel> make_quiz_panel() { return std::make_unique<QuizPanel>(); }

}  // namespace swz::gui
