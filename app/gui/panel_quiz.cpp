// The Quiz panel: one multiple-choice question (any kind: wavefronts, fix,
// conflict-free, swizzle, tma), the core's answer and explanation after the pick,
// and the question's problem on the workbench on request. Random questions, or a
// fixed set in order with "question k of N" and a final score.
#include <fmt/format.h>

#include <array>
#include <chrono>

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
    if (c.quiz_set && c.set_index >= static_cast<int>(c.quiz_set->questions.size())) {
      final_score(ctx, c);
      return;
    }
    if (!c.question) new_question(c);
    if (!c.question) {
      ImGui::TextColored(verdict_color_vec(Verdict::Severe), "No question could be drawn.");
      return;
    }
    const QuizQuestion& q = *c.question;

    if (c.quiz_set) {
      ImGui::TextWrapped("%s", c.quiz_set->title.c_str());
      if (!c.quiz_set->assumes.empty())
        ImGui::TextDisabled("%s", fmt::format("After the lessons {}", fmt::join(c.quiz_set->assumes, ", ")).c_str());
      ImGui::TextDisabled("Question %d of %zu  %s  score %s", c.set_index + 1, c.quiz_set->questions.size(), sym("\xc2\xb7", "-"),
                          c.score.text().c_str());
    } else {
      ImGui::TextDisabled("Score %s  %s  streak %d (best %d)  %s  %s", c.score.text().c_str(), sym("\xc2\xb7", "-"),
                          c.score.streak, c.score.best_streak, sym("\xc2\xb7", "-"), quiz_kind_name(q.kind));
    }
    student_row(ctx, c);
    ImGui::Separator();
    ImGui::TextWrapped("%s", pretty_xor(q.context).c_str());
    ImGui::PushTextWrapPos(0.0f);  // details wrap like the rest: at a projector's scale a line is wider than the card
    for (const std::string& d : q.details) ImGui::TextDisabled("%s", pretty_xor(d).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PushFont(fonts().heading);
    ImGui::TextWrapped("%s", q.prompt.c_str());
    ImGui::PopFont();

    // One choice a line: mask sets and mode names are too wide to sit side by side.
    const float width = std::max(em() * 12.0f, ImGui::GetContentRegionAvail().x);
    for (std::size_t i = 0; i < q.choices.size(); ++i) {
      const int index = static_cast<int>(i);
      const bool picked = c.answer && *c.answer == index;
      const bool right = index == q.answer;
      // Answering sets c.answer in the middle of the loop: pop exactly what this frame pushed.
      const bool colored = c.answer.has_value();
      if (colored) {
        const ImVec4 color = right    ? verdict_color_vec(Verdict::Ideal)
                             : picked ? verdict_color_vec(Verdict::Severe)
                                      : ImGui::GetStyle().Colors[ImGuiCol_Button];
        ImGui::PushStyleColor(ImGuiCol_Button, color);
      }
      const ImVec2 pos = ImGui::GetCursorScreenPos();
      const std::string label = fmt::format("{}) {}##choice{}", static_cast<char>('a' + i), q.choices[i], i);
      if (ImGui::Button(label.c_str(), ImVec2(width, 0)) && !c.answer) answer_quiz(ctx.bench, index);
      ctx.probe(fmt::format("quiz.choice.{}", i), pos, ImGui::GetItemRectMax());
      if (colored) ImGui::PopStyleColor();
    }

    // Next / Show sit right under the choices, so they never scroll out of reach below the explanation.
    ImGui::Spacing();
    const ImVec2 np = ImGui::GetCursorScreenPos();
    const bool last = c.quiz_set && c.set_index + 1 == static_cast<int>(c.quiz_set->questions.size());
    if (ImGui::Button(!c.answer ? "Skip" : last ? "See the score" : "Next question")) {
      if (!c.answer) skip_quiz_question(ctx.bench);
      new_question(c);
      return;
    }
    ctx.probe("quiz.next", np, ImGui::GetItemRectMax());
    if (c.answer) {
      if (q.problem) {
        ImGui::SameLine();
        const ImVec2 sp = ImGui::GetCursorScreenPos();
        if (ImGui::Button("Show on the workbench")) show(ctx, q);
        ctx.probe("quiz.show", sp, ImGui::GetItemRectMax());
      }
      const bool right = *c.answer == q.answer;
      ImGui::TextColored(verdict_color_vec(right ? Verdict::Ideal : Verdict::Severe), "%s", right ? "Right." : "Not quite.");
      ImGui::SameLine();
      ImGui::TextWrapped("The answer: %s", q.right_choice().c_str());
      ImGui::TextWrapped("%s", pretty_xor(q.explanation).c_str());
    }
  }

  // A name to record the answers under (quiz_record.h), or whose answers are being recorded where.
  void student_row(PanelContext& ctx, Classroom& c) {
    if (c.student.empty()) {
      ImGui::SetNextItemWidth(std::max(em() * 10.0f, ImGui::GetContentRegionAvail().x - em() * 6.0f));
      const ImVec2 fp = ImGui::GetCursorScreenPos();
      const bool entered = ImGui::InputTextWithHint("##student", "Your name, to record your answers", name_.data(), name_.size(),
                                                    ImGuiInputTextFlags_EnterReturnsTrue);
      ctx.probe("quiz.student", fp, ImGui::GetItemRectMax());
      ImGui::SameLine();
      const ImVec2 rp = ImGui::GetCursorScreenPos();
      const bool record = ImGui::Button("Record");
      ctx.probe("quiz.record", rp, ImGui::GetItemRectMax());
      if ((entered || record) && name_[0] != '\0') c.student = name_.data();
    } else {
      const std::string where = !c.record_path.empty() ? c.record_path.string()
                                                       : (c.records_dir.empty() ? quiz_records_dir() : c.records_dir).string();
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
      ImGui::TextWrapped("Recording %s's answers to %s", c.student.c_str(), where.c_str());  // a long folder wraps, never clips
      ImGui::PopStyleColor();
      ctx.probe("quiz.recording", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    }
    if (!c.record_error.empty()) ImGui::TextColored(verdict_color_vec(Verdict::Severe), "Not recorded: %s", c.record_error.c_str());
  }

  std::array<char, 80> name_{};

  static void final_score(PanelContext& ctx, Classroom& c) {
    const QuizSet& set = *c.quiz_set;
    ImGui::TextWrapped("%s", set.title.c_str());
    ImGui::Separator();
    ImGui::PushFont(fonts().heading);
    ImGui::Text("Score: %s", c.score.text().c_str());
    ImGui::PopFont();
    ImGui::Text("%d answered, %d right, %d skipped; best streak %d.", c.score.asked, c.score.correct, c.score.skipped,
                c.score.best_streak);
    const ImVec2 rp = ImGui::GetCursorScreenPos();
    if (ImGui::Button("Start the set again")) {
      start_quiz(ctx.bench, c.quiz_set);
      return;
    }
    ctx.probe("quiz.restart", rp, ImGui::GetItemRectMax());
    ImGui::SameLine();
    const ImVec2 qp = ImGui::GetCursorScreenPos();
    if (ImGui::Button("Random questions")) {
      start_quiz(ctx.bench, std::nullopt);
      return;
    }
    ctx.probe("quiz.random", qp, ImGui::GetItemRectMax());
  }

  static void new_question(Classroom& c) {
    c.answer.reset();
    if (c.quiz_set) {
      if (c.question) ++c.set_index;  // past the one on show
      if (c.set_index < static_cast<int>(c.quiz_set->questions.size()))
        c.question = c.quiz_set->questions[static_cast<std::size_t>(c.set_index)];
      else
        c.question.reset();
      return;
    }
    if (c.next_seed == 1)  // a different first question each run
      c.next_seed = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) | 2u;
    try {
      c.question_seed = c.next_seed;
      c.question = make_quiz_question(c.next_seed++);
    } catch (const Error&) {
      c.question.reset();
    }
  }

  static void show(PanelContext& ctx, const QuizQuestion& q) {
    ProblemSpec state = *q.problem;
    while (!state.masks.empty() && state.masks.back() == 0) state.masks.pop_back();
    const Side side = side_for(q.show_access);
    ctx.post({"Quiz question", [state, side](Session& s) {
                s.problem = state;
                s.trace.side = side;
                s.trace.step = 0;
                s.trace.playing = false;
              }});
  }
};

}  // namespace

std::unique_ptr<Panel> make_quiz_panel() { return std::make_unique<QuizPanel>(); }

}  // namespace swz::gui
