// The Lesson panel: the open lesson's current step, its step list, Next / Back (Next lesson
// and Take the quiz at the last step), and whether the workbench still shows that step (the
// learner may play and come back).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cstdio>

#include "classroom.h"
#include "commands.h"
#include "swz/error.h"
#include "swz/export/svg.h"
#include "swz/teach/lesson_exercise.h"
#include "swz/teach/math_text.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

namespace {

struct LessonPanel final : Panel {
  ClaimList claims;
  std::pair<int, int> hints_for{-1, -1};  // (lesson, step) the hints were revealed on
  int hints_shown = 0;
  // A swizzle exercise's B, M, S as the learner set them, and why the core refused them ("": it built the layout).
  std::pair<int, int> swizzle_for{-1, -1};
  std::array<int, 3> swizzle_chosen{};
  std::optional<std::array<int, 3>> swizzle_seen;  // the workbench's B, M, S when last drawn
  std::string swizzle_error;
  // The step's prediction: the number typed, and the core's verdict once checked.
  std::pair<int, int> predict_for{-1, -1};
  std::array<char, 24> predict_text{};
  std::optional<PredictionCheck> predict_verdict;
  std::array<char, 80> student_name{};

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
    if (step->exercise) exercise_block(ctx, *step);
    if (step->predict) predict_block(ctx, *step);
    // The tables share what the text and the claims leave of the card, so the card never scrolls for them.
    const std::size_t shown_claims = claims_hidden() ? 0 : claims.size(*step, at_step(ctx, *step) ? nullptr : &ctx.session.problem,
                                                                          ctx.session.trace.step);
    const float claims_h = shown_claims ? static_cast<float>(shown_claims + 2) * ImGui::GetTextLineHeightWithSpacing()
                                        : ImGui::GetFrameHeightWithSpacing() * 1.5f;
    xor_tables(ctx, *step, ImGui::GetContentRegionAvail().y - claims_h);
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

  // The task, whether the workbench solves it now (the core's check on the live state), and the
  // hints one at a time.
  void exercise_block(PanelContext& ctx, const LessonStep& s) {
    const Classroom& c = classroom();
    if (hints_for != std::make_pair(c.open_lesson, c.step)) {
      hints_for = {c.open_lesson, c.step};
      hints_shown = 0;
    }
    const LessonExercise& e = *s.exercise;
    const ImVec2 top = ImGui::GetCursorScreenPos();
    ImGui::Separator();
    heading("Exercise");
    ImGui::TextWrapped("%s", pretty_xor(e.task).c_str());
    std::string error;
    const ExerciseCheck* checked = exercise_check(ctx.bench, &error);
    if (!checked) return;
    const ExerciseCheck& check = *checked;
    if (e.swizzle) swizzle_controls(ctx, s, check);
    const bool answered = c.exercise_outcome == ExerciseOutcome::Answered;
    const ImVec2 status = ImGui::GetCursorScreenPos();
    if (!error.empty()) {
      ImGui::TextColored(verdict_color_vec(Verdict::Severe), "%s", error.c_str());
    } else if (answered) {
      ImGui::TextColored(ImVec4(0.55f, 0.35f, 0.0f, 1), "Answered, not solved");
    } else if (check.solved) {
      ImGui::TextColored(verdict_color_vec(Verdict::Ideal), "%s Solved", sym("\xe2\x9c\x93", "ok"));
      same_line_if_fits(ImGui::CalcTextSize(moves_used(e, check).c_str()).x);
      ImGui::TextDisabled("%s", moves_used(e, check).c_str());
    } else {
      ImGui::TextColored(ImVec4(0.55f, 0.35f, 0.0f, 1), "Not solved yet");
      for (const ClaimCheck& k : check.goal) {
        if (k.holds) continue;
        const std::string value = k.actual.is_string() ? k.actual.get<std::string>() : k.actual.dump();
        ImGui::TextWrapped("%s is %s; the goal is %s", k.claim.quantity.c_str(), pretty_xor(value).c_str(),
                           k.claim.expected.dump().c_str());
        break;  // the first goal not met is enough to go on
      }
      if (!check.moves_problem.empty())
        ImGui::TextWrapped("%s", check.moves_problem.c_str());
      else
        ImGui::TextDisabled("%s", moves_used(e, check).c_str());
    }
    ctx.probe(answered ? "lesson.exercise.answered" : check.solved ? "lesson.exercise.solved" : "lesson.exercise.unsolved", status,
              ImGui::GetItemRectMax());
    for (int i = 0; i < hints_shown && i < static_cast<int>(e.hints.size()); ++i)
      ImGui::TextWrapped("Hint %d: %s", i + 1, pretty_xor(e.hints[static_cast<std::size_t>(i)]).c_str());
    if (answered) {  // the core's solution, fewest moves first
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (c.exercise_answer)
        ImGui::TextWrapped("The answer: %s", c.exercise_answer->c_str());
      else
        ImGui::TextWrapped("No state within the moves solves this exercise.");
      ctx.probe("lesson.exercise.answer", p, ImGui::GetItemRectMax());
    } else {
      if (hints_shown < static_cast<int>(e.hints.size())) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        if (ImGui::SmallButton(fmt::format("Show a hint ({} of {})", hints_shown + 1, e.hints.size()).c_str())) ++hints_shown;
        ctx.probe("lesson.exercise.hint", p, ImGui::GetItemRectMax());
      }
    }
    if (c.exercise_outcome == ExerciseOutcome::Open) {  // giving up unlocks the one-click answers
      if (hints_shown < static_cast<int>(e.hints.size())) same_line_if_fits(button_width("Show the answer"));
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (ImGui::SmallButton("Show the answer")) reveal_exercise_answer();
      ctx.probe("lesson.exercise.show_answer", p, ImGui::GetItemRectMax());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Gives up: the exercise is marked answered, not solved");
    }
    ctx.probe("lesson.exercise", top, ImVec2(top.x + ImGui::GetContentRegionAvail().x, ImGui::GetCursorScreenPos().y));
    ImGui::Spacing();
  }

  // "Predict the count": the question, a field for the number and Check; the core's verdict (and,
  // when wrong, its count); each number checked is recorded under the student's name when one is given.
  void predict_block(PanelContext& ctx, const LessonStep& s) {
    Classroom& c = classroom();
    if (predict_for != std::make_pair(c.open_lesson, c.step)) {
      predict_for = {c.open_lesson, c.step};
      predict_text = {};
      predict_verdict.reset();
    }
    const ImVec2 top = ImGui::GetCursorScreenPos();
    ImGui::Separator();
    heading("Predict");
    ImGui::TextWrapped("%s", pretty_xor(s.predict->ask).c_str());
    const bool answered = predict_verdict && predict_verdict->typed;
    ImGui::BeginDisabled(answered);
    ImGui::SetNextItemWidth(em() * 5.0f);
    const ImVec2 fp = ImGui::GetCursorScreenPos();
    const bool entered = ImGui::InputTextWithHint("##predict", "number", predict_text.data(), predict_text.size(),
                                                  ImGuiInputTextFlags_CharsDecimal | ImGuiInputTextFlags_EnterReturnsTrue);
    ctx.probe("lesson.predict.field", fp, ImGui::GetItemRectMax());
    ImGui::SameLine();
    const ImVec2 bp = ImGui::GetCursorScreenPos();
    const bool pressed = ImGui::Button("Check");
    ctx.probe("lesson.predict.check", bp, ImGui::GetItemRectMax());
    ImGui::EndDisabled();
    if ((entered || pressed) && !answered) predict_verdict = answer_prediction(ctx.bench, predict_text.data());
    if (c.student.empty()) {  // a name to record the answers under, as on the quiz card
      ImGui::SameLine();
      ImGui::SetNextItemWidth(std::max(em() * 6.0f, ImGui::GetContentRegionAvail().x));
      const ImVec2 np = ImGui::GetCursorScreenPos();
      if (ImGui::InputTextWithHint("##predict_student", "your name, to record", student_name.data(), student_name.size(),
                                   ImGuiInputTextFlags_EnterReturnsTrue) &&
          student_name[0] != '\0')
        c.student = student_name.data();
      ctx.probe("lesson.predict.student", np, ImGui::GetItemRectMax());
    }
    if (predict_verdict) {
      const PredictionCheck& v = *predict_verdict;
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (!v.typed)
        ImGui::TextColored(verdict_color_vec(Verdict::Severe), "%s", v.problem.c_str());
      else if (v.correct)
        ImGui::TextColored(verdict_color_vec(Verdict::Ideal), "%s Right: %lld", sym("\xe2\x9c\x93", "ok"),
                           static_cast<long long>(*v.typed));
      else
        ImGui::TextColored(verdict_color_vec(Verdict::Severe), "%s Not %lld: the core counts %lld", sym("\xe2\x9c\x97", "X"),
                           static_cast<long long>(*v.typed), static_cast<long long>(v.expected));
      ctx.probe(!v.typed    ? "lesson.predict.invalid"
                : v.correct ? "lesson.predict.right"
                            : "lesson.predict.wrong",
                p, ImGui::GetItemRectMax());
      if (v.typed && !v.correct) {
        same_line_if_fits(button_width("Try again"));
        const ImVec2 rp = ImGui::GetCursorScreenPos();
        if (ImGui::SmallButton("Try again")) {
          predict_text = {};
          predict_verdict.reset();
        }
        ctx.probe("lesson.predict.retry", rp, ImGui::GetItemRectMax());
      }
    }
    if (!c.student.empty() && answered && c.record_error.empty()) ImGui::TextDisabled("Recorded for %s", c.student.c_str());
    ctx.probe("lesson.predict", top, ImVec2(top.x + ImGui::GetContentRegionAvail().x, ImGui::GetCursorScreenPos().y));
    ImGui::Spacing();
  }

  // A swizzle exercise's moves: B, M and S, each stepped within its range; the core builds the
  // layout they name, or says why it cannot (|S| < B), and the workbench keeps its last layout.
  void swizzle_controls(PanelContext& ctx, const LessonStep& s, const ExerciseCheck& check) {
    const SwizzleMoves& moves = *s.exercise->swizzle;
    const Classroom& c = classroom();
    if (swizzle_for != std::make_pair(c.open_lesson, c.step)) {
      swizzle_for = {c.open_lesson, c.step};
      swizzle_chosen = moves.start;
      swizzle_seen = moves.start;
      swizzle_error.clear();
    }
    if (check.swizzle != swizzle_seen) {  // the workbench moved (a click here, Undo, Return to this step): follow it
      swizzle_seen = check.swizzle;
      if (check.swizzle) {
        swizzle_chosen = *check.swizzle;
        swizzle_error.clear();
      }
    }
    const char* names[] = {"B", "M", "S"};
    const std::array<int, 2>* ranges[] = {&moves.b, &moves.m, &moves.s};
    std::array<int, 3> next = swizzle_chosen;
    for (std::size_t i = 0; i < 3; ++i) {
      const std::string value = fmt::format("{} = {}", names[i], next[i]);
      if (i) same_line_if_fits(ImGui::CalcTextSize(value.c_str()).x + 2 * button_width("+") + ImGui::GetFontSize() * 2);
      ImGui::PushID(static_cast<int>(i));
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(value.c_str());
      ImGui::SameLine();
      ImGui::BeginDisabled(next[i] <= (*ranges[i])[0]);
      const ImVec2 minus = ImGui::GetCursorScreenPos();
      if (ImGui::Button("-")) --next[i];
      ctx.probe(fmt::format("lesson.exercise.{}.minus", names[i]), minus, ImGui::GetItemRectMax());
      ImGui::EndDisabled();
      ImGui::SameLine();
      ImGui::BeginDisabled(next[i] >= (*ranges[i])[1]);
      const ImVec2 plus = ImGui::GetCursorScreenPos();
      if (ImGui::Button("+")) ++next[i];
      ctx.probe(fmt::format("lesson.exercise.{}.plus", names[i]), plus, ImGui::GetItemRectMax());
      ImGui::EndDisabled();
      ImGui::PopID();
    }
    if (next != swizzle_chosen) {
      swizzle_chosen = next;
      try {
        ProblemSpec state = exercise_swizzle_state(s, next);
        swizzle_error.clear();
        ctx.post(cmd::set_problem(fmt::format("Swizzle<{},{},{}>", next[0], next[1], next[2]), std::move(state)));
      } catch (const Error& err) {
        swizzle_error = err.what();
      }
    }
    if (!swizzle_error.empty()) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      ImGui::PushStyleColor(ImGuiCol_Text, verdict_color_vec(Verdict::Severe));
      ImGui::TextWrapped("%s", swizzle_error.c_str());
      ImGui::PopStyleColor();
      ctx.probe("lesson.exercise.swizzle_error", p, ImGui::GetItemRectMax());
    }
  }

  // "2 of 3 toggles used": what the moves allow and what the learner spent.
  static std::string moves_used(const LessonExercise& e, const ExerciseCheck& check) {
    if (e.swizzle) {
      if (!check.swizzle) return "";
      const std::array<int, 3>& bms = *check.swizzle;
      return fmt::format("now Swizzle<{},{},{}>", bms[0], bms[1], bms[2]);
    }
    std::string out;
    if (e.toggles >= 0) out = fmt::format("{} of {} toggles used", check.toggles, e.toggles);
    if (e.masks >= 0) out += fmt::format("{}{} of {} row masks changed", out.empty() ? "" : ", ", check.masks, e.masks);
    return out;
  }

  static bool at_step(const PanelContext& ctx, const LessonStep& s) {
    const Session& session = ctx.session;
    return session.problem == state_for_step(s) && session.trace.side == side_for(s.access) && session.trace.step == s.step;
  }

  // Before a class the claims stay hidden (presentation mode, a presenter view) until asked for.
  void claims_or_toggle(PanelContext& ctx, const LessonStep& s) {
    Classroom& c = classroom();
    const ProblemSpec* live = at_step(ctx, s) ? nullptr : &ctx.session.problem;  // the learner changed the workbench
    const std::size_t n = claims.size(s, live, ctx.session.trace.step);
    if (n == 0) return;
    ImGui::Spacing();
    if (claims_hidden()) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (ImGui::SmallButton(fmt::format("Show claims ({})", n).c_str())) c.show_claims = true;
      ctx.probe("lesson.show_claims", p, ImGui::GetItemRectMax());
      return;
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    claims.draw(s, live, ctx.session.trace.step);
    ctx.probe("lesson.claims", p, ImVec2(p.x + ImGui::GetContentRegionAvail().x, ImGui::GetCursorScreenPos().y));
    if (students_watching() && ImGui::SmallButton("Hide claims")) c.show_claims = false;
  }

  // Code as written (math_text.h): the fixed-width font on a light panel, lines and indentation kept.
  static void code_block(PanelContext& ctx, const std::vector<std::string>& lines) {
    ImGui::PushFont(fonts().mono);
    ImFont* font = ImGui::GetFont();
    float width = 0;
    for (const std::string& line : lines) width = std::max(width, ImGui::CalcTextSize(line.c_str()).x);
    const float pad = em() * 0.5f;
    // A line wider than the card at a projector's scale: the whole block in a smaller size, never cut.
    const float room = std::max(em() * 8.0f, ImGui::GetContentRegionAvail().x - 2 * pad);
    const float size = width > room && width > 0 ? ImGui::GetFontSize() * room / width : ImGui::GetFontSize();
    width = std::min(width, room);
    const float line_h = ImGui::GetTextLineHeight() * size / ImGui::GetFontSize();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const ImVec2 end(o.x + width + 2 * pad, o.y + static_cast<float>(lines.size()) * line_h + 2 * pad);
    ImGui::GetWindowDrawList()->AddRectFilled(o, end, IM_COL32(236, 238, 242, 255), em() * 0.2f);
    for (std::size_t i = 0; i < lines.size(); ++i)
      ImGui::GetWindowDrawList()->AddText(font, size, ImVec2(o.x + pad, o.y + pad + static_cast<float>(i) * line_h),
                                          IM_COL32(20, 22, 28, 255), lines[i].c_str());
    ImGui::PopFont();
    ctx.probe("lesson.code", o, end);
    ImGui::Dummy(ImVec2(end.x - o.x, end.y - o.y));
  }

  // Steps about XOR on small tiles (claims "xor_table(R,C)...") show the tile: each
  // cell is where element (m, n) goes, n ^ m, in red where that is past the last column.
  // The tables sit side by side, their cells as large as the card's width and the room
  // the text and claims leave allow, so the card never scrolls for them.
  static void xor_tables(PanelContext& ctx, const LessonStep& s, float room) {
    std::vector<std::pair<int, int>> tables;
    for (const LessonClaim& claim : s.claims) {
      int r = 0, c = 0;
      if (std::sscanf(claim.quantity.c_str(), "xor_table(%d,%d)", &r, &c) != 2 || r < 1 || c < 1 || r > 16 || c > 16) continue;
      if (std::find(tables.begin(), tables.end(), std::make_pair(r, c)) == tables.end()) tables.emplace_back(r, c);
    }
    if (tables.empty()) return;
    bool any_outside = false;  // "all inside" only when no row of any table leaves its tile (a 16x8 table does)
    for (const auto& [rows, cols] : tables)
      for (int m = 0; m < rows; ++m)
        for (const std::int64_t to : xor_swizzle_row(m, cols)) any_outside = any_outside || to >= cols;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", pretty_xor(fmt::format("Element (m, n) of an R x C tile goes to column n ^ m{}",
                                                     any_outside ? "; red: past the last column" : ": all inside"))
                                  .c_str());
    ImGui::PopTextWrapPos();
    ImFont* font = ImGui::GetFont();
    const float gap = em() * 1.2f, title_h = ImGui::GetTextLineHeightWithSpacing();
    // The largest cells at which the tables, flowed left to right and wrapped at the card's edge
    // as drawn below, fit the room; the numbers shrink with the cells.
    const float avail_w = ImGui::GetContentRegionAvail().x, spacing_y = ImGui::GetStyle().ItemSpacing.y;
    const float fit_h = room - ImGui::GetTextLineHeightWithSpacing() * 2.0f;
    const auto size_of_numbers = [&](float c) { return std::min(ImGui::GetFontSize(), c * 0.78f); };
    const auto flowed_height = [&](float c) {
      const float numbers = size_of_numbers(c);
      float x = 0, row_top = 0, row_h = 0;
      for (const auto& [rows, cols] : tables) {
        const float w = font->CalcTextSizeA(numbers, FLT_MAX, 0.0f, xor_table_row_label(rows - 1).c_str()).x + em() * 0.4f +
                        static_cast<float>(cols) * c;
        if (x > 0 && x + w > avail_w) {
          row_top += row_h + spacing_y;
          x = 0;
          row_h = 0;
        }
        row_h = std::max(row_h, title_h + numbers + 2.0f + static_cast<float>(rows) * c);
        x += w + gap;
      }
      return row_top + row_h;
    };
    float cell = ImGui::GetFrameHeight() * 1.1f;
    while (cell > ImGui::GetFrameHeight() * 0.4f && flowed_height(cell) > fit_h) cell -= 0.5f;
    const float number_size = size_of_numbers(cell);
    auto text_size = [&](const std::string& str) { return font->CalcTextSizeA(number_size, FLT_MAX, 0.0f, str.c_str()); };
    const ImU32 inside = IM_COL32(222, 236, 250, 255), outside = IM_COL32(232, 76, 61, 255), line = IM_COL32(255, 255, 255, 255);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 start = ImGui::GetCursorScreenPos();
    float x = start.x, bottom = start.y;
    for (const auto& [rows, cols] : tables) {
      const float label = text_size(xor_table_row_label(rows - 1)).x + em() * 0.4f;
      const float table_w = label + static_cast<float>(cols) * cell;
      if (x > start.x && x + table_w > start.x + ImGui::GetContentRegionAvail().x) {  // no room beside: the next row
        x = start.x;
        ImGui::SetCursorScreenPos(ImVec2(start.x, bottom + ImGui::GetStyle().ItemSpacing.y));
      }
      const ImVec2 o(x, ImGui::GetCursorScreenPos().y);
      dl->AddText(ImVec2(o.x, o.y), kTextDim, fmt::format("{}x{}", rows, cols).c_str());
      const float head = o.y + title_h;
      const std::string_view axis = xor_table_column_axis();
      dl->AddText(font, number_size, ImVec2(o.x, head), kTextDim, axis.data(), axis.data() + axis.size());
      for (int n = 0; n < cols; ++n) {
        const std::string h = std::to_string(n);
        dl->AddText(font, number_size, ImVec2(o.x + label + (static_cast<float>(n) + 0.5f) * cell - text_size(h).x * 0.5f, head),
                    kTextDim, h.c_str());
      }
      const float top = head + number_size + 2.0f;
      for (int m = 0; m < rows; ++m) {
        const float y = top + static_cast<float>(m) * cell;
        dl->AddText(font, number_size, ImVec2(o.x, y + (cell - number_size) * 0.5f), kTextDim, xor_table_row_label(m).c_str());
        const auto row = xor_swizzle_row(m, cols);
        for (int n = 0; n < cols; ++n) {
          const ImVec2 a(o.x + label + static_cast<float>(n) * cell, y), b(a.x + cell, a.y + cell);
          const bool out = row[static_cast<std::size_t>(n)] >= cols;
          dl->AddRectFilled(a, b, out ? outside : inside);
          dl->AddRect(a, b, line);
          const std::string v = std::to_string(row[static_cast<std::size_t>(n)]);
          const ImVec2 ts = text_size(v);
          dl->AddText(font, number_size, ImVec2((a.x + b.x - ts.x) * 0.5f, (a.y + b.y - ts.y) * 0.5f),
                      out ? IM_COL32(255, 255, 255, 255) : IM_COL32(20, 22, 28, 255), v.c_str());
        }
      }
      const ImVec2 end(o.x + table_w, top + static_cast<float>(rows) * cell);
      ctx.probe(fmt::format("lesson.xor_table.{}x{}", rows, cols), o, end);
      bottom = std::max(bottom, end.y);
      x = end.x + gap;
    }
    ImGui::SetCursorScreenPos(start);
    ImGui::Dummy(ImVec2(std::max(1.0f, x - gap - start.x), bottom - start.y));
    ImGui::Spacing();
  }
};

}  // namespace

std::unique_ptr<Panel> make_lesson_panel() { return std::make_unique<LessonPanel>(); }

}  // namespace swz::gui
