// Solver: the construction of an optimal layout, replayed step by step (Vec,
// bank / segment sizes, split, I / E / F, H, C, banks) with each step's sets;
// its answer applied to the grid; the family size and a repair for the grid.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include <fmt/format.h>

#include "classroom.h"
#include "getting_started.h"
#include "panel.h"
#include "swz/io/layout_io.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

// The answer as a command: masks for a grid problem, else the shared layout itself.
// Where the solver renumbers a side's registers, that side's layout comes with it.
std::optional<Command> solver_command(const SolverAnswer& a) {
  if (!a.result) return std::nullopt;
  const SolveResult& r = *a.result;
  std::vector<Command> parts;
  if (a.masks)
    parts.push_back(cmd::set_masks("Solver's answer", *a.masks));
  else
    parts.push_back(cmd::load_layout(LayoutRole::Shared,
                                     SpecLayout{layout_from_json(layout_to_json(r.offset_bases)).layout, "solver's answer"}));
  // A side that issues ldmatrix / stmatrix keeps its layout: the solver's form of it lists row addresses, not who holds what.
  if (r.write_renumbered && !r.writer.ldmatrix)
    parts.push_back(cmd::load_layout(LayoutRole::Writer, SpecLayout{r.writer.layout, "solver's register order"}));
  if (r.read_renumbered && !r.reader.ldmatrix)
    parts.push_back(cmd::load_layout(LayoutRole::Reader, SpecLayout{r.reader.layout, "solver's register order"}));
  if (parts.size() == 1) return parts.front();
  return Command{"Solver's answer (registers renumbered)", [parts](Session& s) {
                   Session trial = s;  // all or nothing: a part that throws leaves the session as it was
                   for (const auto& c : parts) c.apply(trial);
                   s = std::move(trial);
                 }};
}

// Each side's instruction, count and wavefronts, as `swizzle solve` prints them.
std::string solver_cost_line(const SolveResult& r) {
  return fmt::format("{} x{} ({} each) + {} x{} ({} each) = {} wavefronts", r.write_cost.instruction, r.write_cost.instructions,
                     r.write_cost.wavefronts, r.read_cost.instruction, r.read_cost.instructions, r.read_cost.wavefronts,
                     r.total_wavefronts());
}

namespace {

// The register blocks `swizzle solve` suggests, in one line ("" when none).
std::string solver_blocks_line(const std::optional<RegisterSuggestion>& s) {
  if (!s) return "";
  const SolveResult& r = s->result;
  return fmt::format("Register blocks ({} rows a lane): {} x{} + {} x{} = {} wavefronts", s->rows, r.write_cost.instruction,
                     r.write_cost.instructions, r.read_cost.instruction, r.read_cost.instructions, r.total_wavefronts());
}

std::string set_text(const std::vector<BitVec>& v, const LinearLayout& names) {
  if (v.empty()) return "{}";
  std::vector<std::string> parts;
  for (BitVec x : v) parts.push_back(pretty_xor(names.describe_out(x)));
  return fmt::format("{{{}}}", fmt::join(parts, ", "));
}

struct SolverPanel final : Panel {
  static constexpr long long kAutoFamilyBits = 24;  // larger grids are counted on request
  bool replaying = false;                           // stepping through the trace on a timer
  float clock = 0.0f;
  std::optional<ProblemSpec> counted_for;          // the big grid the user asked to count

  const char* id() const override { return "solver"; }
  const char* title() const override { return "Solver"; }

  void draw(PanelContext& ctx) override {
    const Model& m = ctx.model;
    const SolverAnswer& a = ctx.bench.solver_answer();
    draw_panel_summary(ctx, id());
    if (!a.result) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(ImVec4(0.8f, 0.15f, 0.15f, 1), "The solver cannot answer this problem: %s", a.error.c_str());
      ImGui::PopTextWrapPos();
      return;
    }
    const SolveResult& r = *a.result;
    const LinearLayout& names = m.problem.shared.coords();
    const int steps = static_cast<int>(r.trace.size());
    const int step = std::clamp(ctx.session.view.solver_step, 0, std::max(0, steps - 1));

    // Replay controls.
    {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (ImGui::Button(replaying ? "Stop" : "Run the construction")) {
        replaying = !replaying;
        clock = 0.0f;
        if (replaying) ctx.post(cmd::set_solver_step(0));
      }
      ctx.probe("solver.run", p, ImGui::GetItemRectMax());
    }
    const std::string of = fmt::format("step {} of {}", step + 1, steps);
    same_line_if_fits(ImGui::GetFrameHeight() * 2.0f + ImGui::GetStyle().ItemSpacing.x * 2.0f + ImGui::CalcTextSize(of.c_str()).x);
    if (ImGui::ArrowButton("prev", ImGuiDir_Left)) ctx.post(cmd::set_solver_step(std::max(0, step - 1)));
    ImGui::SameLine();
    if (ImGui::ArrowButton("next", ImGuiDir_Right)) ctx.post(cmd::set_solver_step(std::min(steps - 1, step + 1)));
    ImGui::SameLine();
    ImGui::TextUnformatted(of.c_str());
    if (replaying) {
      clock += ImGui::GetIO().DeltaTime;
      if (clock > 1.4f) {
        clock = 0.0f;
        if (step + 1 < steps) ctx.post(cmd::set_solver_step(step + 1));
        else replaying = false;
      }
    }

    // Steps on the left, the chosen one on the right.
    // The answer's lines, as they will wrap, with the family and repair lines under them.
    const bool free = r.conflict_free;
    const std::string answer = fmt::format("{}: store {}, read {} wavefront{}{}", free ? "Conflict-free" : "Minimum conflicts", r.write.wavefronts,
                                           r.read.wavefronts, r.read.wavefronts == 1 ? "" : "s",
                                           r.fallback ? " (the bound makes conflict-free impossible)" : "") +
                             (r.sampled ? fmt::format("; checked on a sample of {} instructions", r.simulated_instructions) : "");
    const std::string cost = solver_cost_line(r);
    // The other panels simulate the problem's own accesses: say so where the answer's instruction is not theirs.
    const Problem& own = ctx.model.problem;
    const bool matrix = (r.writer.ldmatrix && (r.writer.ldmatrix != own.store.ldmatrix || r.writer.trans != own.store.trans)) ||
                        (r.reader.ldmatrix && (r.reader.ldmatrix != own.read.ldmatrix || r.reader.trans != own.read.trans));
    const char* plain = matrix ? "(the other panels simulate this layout with the problem's own instructions)" : "";
    const std::string tradeoff = r.tradeoff.empty() ? std::string() : pretty_xor(fmt::format("Trade-off: {}.", r.tradeoff));
    const std::string blocks = solver_blocks_line(a.registers);
    const float line_w = std::max(1.0f, ImGui::GetContentRegionAvail().x);
    auto lines = [&](const std::string& text) { return std::max(1.0f, std::ceil(ImGui::CalcTextSize(text.c_str()).x / line_w)); };
    const float cost_w = ImGui::CalcTextSize(cost.c_str()).x, plain_w = ImGui::CalcTextSize(plain).x;
    const bool plain_beside = cost_w + ImGui::GetStyle().ItemSpacing.x + plain_w <= line_w;
    const float answer_lines = lines(answer) + lines(cost) + (plain_beside ? 0.0f : lines(plain)) + (tradeoff.empty() ? 0.0f : lines(tradeoff) + 0.2f) +
                               (blocks.empty() ? 0.0f : lines(blocks));
    const float bottom_h = ImGui::GetTextLineHeightWithSpacing() * (answer_lines + 2.3f) + ImGui::GetFrameHeightWithSpacing();
    float body_h = std::max(em() * 4.0f, ImGui::GetContentRegionAvail().y - bottom_h);
    // The list as wide as its longest step (with its padding), beside the detail; when it would
    // need more than half the panel or more than its height (many steps at a projector's scale),
    // a drop-down over the detail instead, so nothing scrolls.
    const auto step_label = [&](int i) { return fmt::format("{}. {}", i + 1, r.trace[static_cast<std::size_t>(i)].title); };
    const ImGuiStyle& style = ImGui::GetStyle();
    float list_w = em() * 6.0f;
    for (int i = 0; i < steps; ++i) list_w = std::max(list_w, ImGui::CalcTextSize(step_label(i).c_str()).x);
    list_w += style.WindowPadding.x * 2.0f + em() * 0.5f;
    const float list_h = static_cast<float>(steps) * ImGui::GetTextLineHeightWithSpacing() - style.ItemSpacing.y + style.WindowPadding.y * 2.0f;
    const bool list_beside = list_w <= ImGui::GetContentRegionAvail().x * 0.5f && list_h <= body_h;
    if (list_beside) {
      ImGui::BeginChild("steps", ImVec2(list_w, body_h), true);
      for (int i = 0; i < steps; ++i)
        if (ImGui::Selectable(step_label(i).c_str(), i == step)) {
          replaying = false;
          ctx.post(cmd::set_solver_step(i));
        }
      ImGui::EndChild();
      ImGui::SameLine();
    } else {
      ImGui::SetNextItemWidth(-FLT_MIN);
      if (ImGui::BeginCombo("##steps", steps > 0 ? step_label(step).c_str() : "")) {
        for (int i = 0; i < steps; ++i)
          if (ImGui::Selectable(step_label(i).c_str(), i == step)) {
            replaying = false;
            ctx.post(cmd::set_solver_step(i));
          }
        ImGui::EndCombo();
      }
      body_h = std::max(em() * 4.0f, body_h - ImGui::GetFrameHeightWithSpacing());
    }
    ImGui::BeginChild("detail", ImVec2(0, body_h), true);
    if (steps > 0) {
      const SolveStep& s = r.trace[static_cast<std::size_t>(step)];
      heading(s.title.c_str());
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(pretty_xor(s.sentence).c_str());
      for (const NamedSet& set : s.sets) {
        ImGui::TextDisabled("%s =", set.name.c_str());
        ImGui::SameLine();
        ImGui::PushFont(fonts().mono);
        ImGui::TextUnformatted(set_text(set.vectors, names).c_str());
        ImGui::PopFont();
      }
      ImGui::PopTextWrapPos();
    }
    ImGui::EndChild();

    // The answer; its lines wrap at the panel's edge.
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(free ? ImVec4(0.13f, 0.60f, 0.27f, 1) : ImVec4(0.85f, 0.55f, 0.05f, 1), "%s", answer.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\ncheck: %s", pretty_xor(r.bound.reason).c_str(), pretty_xor(r.check).c_str());
    if (r.sampled) ctx.probe("solver.sampled", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    // The cost a kernel engineer compares: instructions x wavefronts per side, and what a wider choice would cost.
    ImGui::TextUnformatted(cost.c_str());
    ctx.probe("solver.cost=" + cost, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());  // tests read the line drawn
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", pretty_xor(r.width.reason).c_str());
    if (matrix) {
      same_line_if_fits(plain_w);
      ImGui::TextDisabled("%s", plain);
    }
    if (!tradeoff.empty()) ImGui::TextColored(ImVec4(0.85f, 0.55f, 0.05f, 1), "%s", tradeoff.c_str());
    if (!blocks.empty()) {
      // A change to the kernel's loads and stores (each lane's elements), not to the shared layout: said, not applied.
      ImGui::TextUnformatted(blocks.c_str());
      ctx.probe("solver.blocks=" + blocks, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Each lane holds its 16 bytes along its own dim in %d consecutive rows of the other:\n"
                          "the copy's register layout (swizzle solve --json: register_blocks has both layouts).",
                          a.registers->rows);
    }
    const auto apply = solver_command(a);
    const char* locked = answers_locked(ctx.bench);  // a lesson's exercise asks the learner to find it
    const ImVec2 ap = ImGui::GetCursorScreenPos();
    ImGui::BeginDisabled(locked != nullptr);
    if (ImGui::Button(a.masks ? "Apply to the grid" : "Use as the shared layout") && apply) ctx.post(*apply);
    ImGui::EndDisabled();
    ctx.probe("solver.apply", ap, ImGui::GetItemRectMax());
    answers_locked_tooltip(locked);
    if (a.masks) {
      std::vector<std::uint32_t> shown = *a.masks;
      while (!shown.empty() && shown.back() == 0) shown.pop_back();
      const std::string masks = "masks " + (shown.empty() ? std::string("none") : format_masks(shown));
      same_line_if_fits(ImGui::CalcTextSize(masks.c_str()).x);
      ImGui::AlignTextToFramePadding();
      ImGui::TextDisabled("%s", masks.c_str());
    }
    family(ctx);
    ImGui::PopTextWrapPos();
  }

  // The family and a repair for the current grid.
  void family(PanelContext& ctx) {
    const Model& m = ctx.model;
    const LinearLayout& names = m.problem.shared.coords();
    if (!m.problem.grid) {
      ImGui::TextDisabled("Family and repair: for toggle-grid problems.");
      return;
    }
    // Small grids are counted at once; big ones (seconds of work) when asked.
    const long long bits = static_cast<long long>(m.problem.grid->configs_log2());
    if (bits > kAutoFamilyBits && counted_for != ctx.session.problem) {
      ImGui::TextDisabled("%s", pretty_xor(fmt::format("Family and repair over 2^{{{}}} mask sets:", bits)).c_str());
      same_line_if_fits(button_width("Count them"));
      if (ImGui::SmallButton("Count them")) counted_for = ctx.session.problem;
      return;
    }
    const auto fam = ctx.bench.solver_family();
    if (!fam) {
      ImGui::TextDisabled("%s", pretty_xor(fmt::format("Counting the conflict-free family of 2^{{{}}} mask sets... {:.0f} s",
                                                       m.problem.grid->configs_log2(), ctx.bench.solver().running_seconds()))
                                    .c_str());
      return;
    }
    if (!fam->error.empty()) {
      ImGui::TextColored(ImVec4(0.8f, 0.15f, 0.15f, 1), "%s", fam->error.c_str());
      return;
    }
    ImGui::TextUnformatted(
        pretty_xor(fmt::format("Family: {} conflict-free mask sets of 2^{{{}}}", fam->size, m.problem.grid->configs_log2())).c_str());
    const Repair& rep = fam->repair;
    if (!rep.possible) {
      ImGui::TextDisabled("No grid mask set is conflict-free here: no repair.");
    } else if (rep.flips == 0) {
      ImGui::TextColored(ImVec4(0.13f, 0.60f, 0.27f, 1), "Your grid is conflict-free %s", sym("\xe2\x9c\x93", "(ok)"));
    } else {
      std::vector<std::string> flips;
      for (const auto& [j, k] : rep.cells) flips.push_back(fmt::format("{}{}{}", names.out_bit_name(j), sym("\xe2\x86\x92", "->"), names.out_bit_name(m.row_bits + k)));
      ImGui::Text("Repair: %d flip%s%s: %s", rep.flips, rep.flips == 1 ? "" : "s", rep.exact ? "" : " (search cut short)",
                  fmt::format("{}", fmt::join(flips, ", ")).c_str());
      same_line_if_fits(button_width("Apply repair"));
      const ImVec2 rp = ImGui::GetCursorScreenPos();
      const char* locked = answers_locked(ctx.bench);
      ImGui::BeginDisabled(locked != nullptr);
      if (ImGui::SmallButton("Apply repair")) ctx.post(cmd::set_masks(fmt::format("Repair ({} flips)", rep.flips), rep.masks));
      ImGui::EndDisabled();
      ctx.probe("solver.repair", rp, ImGui::GetItemRectMax());
      answers_locked_tooltip(locked);
    }
  }
};

}  // namespace

std::unique_ptr<Panel> make_solver_panel() { return std::make_unique<SolverPanel>(); }

}  // namespace swz::gui
