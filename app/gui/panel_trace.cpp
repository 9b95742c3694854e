// Access trace: Store / Read, the register step r, play / pause, the bank hits
// of this step as a bar chart, and both verdicts. While a lesson step's prediction asks for one
// access's count, that access's verdict, step count and bars are veiled (Workbench::veiled_counts).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "panel.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

namespace {

struct TracePanel final : Panel {
  const char* id() const override { return "trace"; }
  const char* title() const override { return "Access trace"; }

  void draw(PanelContext& ctx) override {
    const Model& m = ctx.model;
    const TraceState& tr = ctx.session.trace;
    const StepTrace& t = ctx.trace;

    // Which access.
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Access");
    auto radio_w = [](const char* label) {
      return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
    };
    same_line_if_fits(radio_w("Store (A writes)"));
    {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (ImGui::RadioButton("Store (A writes)", tr.side == Side::Store)) ctx.post(cmd::set_side(Side::Store));
      ctx.probe("trace.store", p, ImGui::GetItemRectMax());
    }
    same_line_if_fits(radio_w("Read (B reads)"));
    {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (ImGui::RadioButton("Read (B reads)", tr.side == Side::Read)) ctx.post(cmd::set_side(Side::Read));
      ctx.probe("trace.read", p, ImGui::GetItemRectMax());
    }
    const int warps = m.warps(tr.side);
    if (warps > 1) {
      same_line_if_fits(em() * 7 + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("warp").x);
      ImGui::SetNextItemWidth(em() * 7);
      int w = tr.warp;
      if (ImGui::SliderInt("warp", &w, 0, warps - 1)) ctx.post(cmd::set_warp(w));
    }

    // Register step.
    const int steps = m.steps(tr.side);
    const char* play_label = tr.playing ? "Pause" : "Play";
    if (ImGui::Button("<")) ctx.post(cmd::set_step((tr.step + steps - 1) % std::max(1, steps)));
    ImGui::SameLine();
    {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (ImGui::Button(play_label, ImVec2(em() * 3.6f, 0))) ctx.post(cmd::set_playing(!tr.playing));
      ctx.probe("trace.play", p, ImGui::GetItemRectMax());
    }
    ImGui::SameLine();
    if (ImGui::Button(">")) ctx.post(cmd::set_step((tr.step + 1) % std::max(1, steps)));
    // The step slider after the buttons and the speed after it, each on the next line when the panel is narrow.
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const std::string fmt_text = fmt::format("r = %d of {}", steps);
    const float slider_least = std::max(em() * 6, button_width(fmt::format("r = {} of {}", steps, steps).c_str()));
    const float speed_w = button_width("0.00 s/step") + em();
    same_line_if_fits(slider_least);
    const float room = ImGui::GetContentRegionAvail().x;
    const bool speed_beside = room - slider_least - spacing >= speed_w;
    ImGui::SetNextItemWidth(speed_beside ? std::max(slider_least, room - em() * 8.5f) : room);
    int step = tr.step;
    if (ImGui::SliderInt("##step", &step, 0, std::max(0, steps - 1), fmt_text.c_str())) ctx.post(cmd::set_step(step));
    if (speed_beside) ImGui::SameLine();
    ImGui::SetNextItemWidth(speed_beside ? -1.0f : speed_w);
    float speed = tr.seconds_per_step;
    if (ImGui::DragFloat("##speed", &speed, 0.01f, 0.05f, 3.0f, "%.2f s/step")) ctx.post(cmd::set_speed(speed));

    // This step.
    const InstructionResult& ir = t.instruction;
    const AccessResult& sim = m.analysis_of(tr.side).simulated;
    const std::optional<Side> veiled = ctx.bench.veiled_counts();
    ImGui::PushTextWrapPos(0.0f);
    if (veiled == tr.side) {
      const ImVec2 at = ImGui::GetCursorScreenPos();
      ImGui::TextDisabled("This access's count is hidden until your prediction is checked on the lesson card.");
      ctx.probe("trace.veiled", at, ImGui::GetItemRectMax());
    } else {
      step_and_bars(ctx, ir, sim, warps);
      if (t.copy) copy_lines(ctx, *t.copy);
    }

    // Verdicts, store green whatever the grid says (within-row permutations cannot hurt it).
    verdict_or_veil(ctx, "Store", m.analysis.store.simulated, "trace.verdict.store", veiled == Side::Store);
    verdict_or_veil(ctx, "Read", m.analysis.read.simulated, "trace.verdict.read", veiled == Side::Read);
    if (!veiled) sampled_line(ctx, m.analysis.store.simulated, m.analysis.read.simulated);
    ImGui::PopTextWrapPos();
  }

  // A verdict, or in its place a line saying it is hidden (probe PROBE.veiled).
  static void verdict_or_veil(PanelContext& ctx, const char* label, const AccessResult& r, const std::string& probe_id,
                              bool veil) {
    if (!veil) {
      verdict_line(ctx, label, r, probe_id);
      return;
    }
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::TextDisabled("%s: hidden until your prediction is checked", label);
    ctx.probe(probe_id + ".veiled", at, ImGui::GetItemRectMax());
  }

  // The register step's count, its vectors and phases, and its bank hits as bars.
  static void step_and_bars(PanelContext& ctx, const InstructionResult& ir, const AccessResult& sim, int warps) {
    ImGui::Text("Register step r = %d%s: %d wavefront%s (ideal %d)", ir.step,
                warps > 1 ? fmt::format(", warp {}", ir.warp).c_str() : "", ir.wavefronts, ir.wavefronts == 1 ? "" : "s",
                ir.ideal);
    if (sim.vector.elements > 1 || sim.phases > 1) {
      const std::string vec = fmt::format("{}-bit vectors, {} lanes per phase{}", sim.vector.bits, sim.lanes_per_phase,
                                          ir.merged ? ", LDS.128 merge" : "");
      same_line_if_fits(ImGui::CalcTextSize(vec.c_str()).x + em());
      ImGui::TextDisabled("%s", vec.c_str());
    }
    // An instruction served on fewer banks than the GPU has (gfx950's ds_write_b64) says so.
    const std::string own_banks =
        sim.banks != ctx.model.problem.bank.banks ? fmt::format(", {} banks: the instruction's own", sim.banks) : "";
    if (ir.phase_wavefronts.size() > 1)  // the bars of every phase added up would overstate the conflict
      ImGui::TextDisabled("Bank hits of this step's worst phase, 1 of %zu (distinct words per bank%s)",
                          ir.phase_wavefronts.size(), own_banks.c_str());
    else
      ImGui::TextDisabled("Bank hits this step (distinct words per bank%s)", own_banks.c_str());

    // Bank hits of this step: one bar per bank the instruction is served on (the core's count).
    const float chart_h =
        std::clamp(ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing() * 2.6f, em() * 5.0f, em() * 16.0f);
    bar_chart(ctx, ir, sim.banks, chart_h);
  }

  // A cp.async step: the global lines and sectors it reads, each lane's source bank and read turn, and
  // the shared banks that wait on a source bank (the core's copy_trace; warp_access.h rule 4).
  static void copy_lines(PanelContext& ctx, const CopyTrace& c) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const std::string summary =
        fmt::format("cp.async reads {} global line{}, {} sector{}{}", c.lines, c.lines == 1 ? "" : "s", c.sectors,
                    c.sectors == 1 ? "" : "s", c.modelled ? "" : " (.cg: turns shown, the count is the store rule's)");
    ImGui::TextUnformatted(summary.c_str());
    ctx.probe("trace.copy=" + summary, at, ImGui::GetItemRectMax());  // the line as drawn, for tests
    std::string waits;
    for (const CopyBankTurns& b : c.banks)
      if (b.wait > 0)
        waits += fmt::format("{}bank {}: {} write{} after {} turn{} of source bank {}", waits.empty() ? "" : "; ", b.shared_bank,
                             b.writes, b.writes == 1 ? "" : "s", b.wait, b.wait == 1 ? "" : "s", b.waited_on);
    const std::string wait_line = waits.empty() ? "No shared bank waits on a source bank" : "Waits: " + waits;
    const ImVec2 wait_at = ImGui::GetCursorScreenPos();
    ImGui::TextDisabled("%s", wait_line.c_str());
    ctx.probe("trace.copy.waits=" + wait_line, wait_at, ImGui::GetItemRectMax());
    const float rows_h = ImGui::GetTextLineHeightWithSpacing() * 6.5f;
    constexpr ImGuiTableFlags flags =
        ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    const ImVec2 table_at = ImGui::GetCursorScreenPos();
    if (ImGui::BeginTable("copy_lanes", 6, flags, ImVec2(0, rows_h))) {
      ImGui::TableSetupScrollFreeze(0, 1);
      for (const char* h : {"lane", "global byte", "line", "sector", "source bank", "read turn"}) ImGui::TableSetupColumn(h);
      ImGui::TableHeadersRow();
      for (const CopyLane& l : c.lanes) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%d", l.lane);
        if (l.global < 0) {
          ImGui::TableNextColumn();
          ImGui::TextDisabled("no data");
          continue;
        }
        ImGui::TableNextColumn();
        ImGui::Text("%lld", static_cast<long long>(l.global));
        ImGui::TableNextColumn();
        ImGui::Text("%lld", static_cast<long long>(l.line));
        ImGui::TableNextColumn();
        ImGui::Text("%lld", static_cast<long long>(l.sector));
        ImGui::TableNextColumn();
        ImGui::Text("%d -> %d", l.source_bank, l.shared_bank);
        ImGui::TableNextColumn();
        ImGui::Text("%d of %d", l.read_turn, l.reads_of_source);
      }
      ImGui::EndTable();
    }
    ctx.probe("trace.copy.lanes", table_at, ImGui::GetItemRectMax());
  }

  // Past 2^16 instructions the core simulates a fixed sample of them (bank.h): say so under the verdicts.
  static void sampled_line(PanelContext& ctx, const AccessResult& store, const AccessResult& read) {
    if (!store.sampled && !read.sampled) return;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::TextDisabled(
        "%s", fmt::format("Verdicts from a sample: {} of {} store and {} of {} read instructions simulated "
                          "(every step above can be traced)",
                          store.simulated_instructions, store.instructions(), read.simulated_instructions, read.instructions())
                  .c_str());
    ctx.probe("trace.sampled", at, ImGui::GetItemRectMax());
  }

  static void bar_chart(PanelContext& ctx, const InstructionResult& ir, int banks, float height) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    const float line = ImGui::GetTextLineHeight();
    const float left = em() * 1.8f, bottom = line + 4.0f, top = line * 0.5f;
    ImGui::InvisibleButton("bars", ImVec2(std::max(width, 10.0f), std::max(height, 10.0f)));
    ctx.probe(fmt::format("trace.banks={}", banks), ImGui::GetItemRectMin(), ImGui::GetItemRectMax());  // the axis drawn
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // One phase's bars: their tallest is the phase's wavefronts, the "N" of an N-way conflict.
    const std::vector<int>& words = ir.worst_phase_bank_words.empty() ? ir.bank_words : ir.worst_phase_bank_words;
    int most = 1;
    for (int w : words) most = std::max(most, w);
    const int ymax = std::max(2, most);
    const float plot_w = width - left, plot_h = height - bottom - top;
    const float x0 = p.x + left, y0 = p.y + top + plot_h;
    const float bw = plot_w / static_cast<float>(std::max(1, banks));
    // Bank numbers every 1, 2, 4, ... banks, so that they never run into each other.
    int bank_step = banks > 16 ? 4 : 1;
    while (bank_step < banks &&
           bw * static_cast<float>(bank_step) < ImGui::CalcTextSize(std::to_string(banks - 1).c_str()).x + em() * 0.4f)
      bank_step *= 2;
    // Gridlines at every count (or every few when tall).
    // Gridline labels at least a line and a half apart.
    int tick = 1;
    for (int t : {1, 2, 4, 5, 10, 20, 50, 100})
      if (plot_h * static_cast<float>(t) / static_cast<float>(ymax) >= line * 1.5f || t == 100) {
        tick = t;
        break;
      }
    for (int y = 0; y <= ymax; y += tick) {
      const float yy = y0 - plot_h * static_cast<float>(y) / static_cast<float>(ymax);
      dl->AddLine(ImVec2(x0, yy), ImVec2(x0 + plot_w, yy), y == 0 ? IM_COL32(120, 125, 135, 255) : IM_COL32(215, 218, 224, 255));
      const std::string s = std::to_string(y);
      dl->AddText(ImVec2(x0 - ImGui::CalcTextSize(s.c_str()).x - 4, yy - line * 0.5f), kTextDim, s.c_str());
    }
    std::optional<int> hot;
    for (int b = 0; b < banks; ++b) {
      const int v = b < static_cast<int>(words.size()) ? words[static_cast<std::size_t>(b)] : 0;
      const float xa = x0 + static_cast<float>(b) * bw + std::max(1.0f, bw * 0.12f);
      const float xb = x0 + static_cast<float>(b + 1) * bw - std::max(1.0f, bw * 0.12f);
      const float ya = y0 - plot_h * static_cast<float>(v) / static_cast<float>(ymax);
      if (v > 0) dl->AddRectFilled(ImVec2(xa, ya), ImVec2(xb, y0), bank_color(b, banks));
      ctx.probe(fmt::format("trace.bar.{}", b), ImVec2(xa, ya), ImVec2(xb, y0));
      if (b % bank_step == 0) {
        const std::string s = std::to_string(b);
        dl->AddText(ImVec2((xa + xb - ImGui::CalcTextSize(s.c_str()).x) * 0.5f, y0 + 2), kTextDim, s.c_str());
      }
      const ImVec2 mouse = ImGui::GetIO().MousePos;
      if (hovered && mouse.x >= xa - 1 && mouse.x < xb + 1) hot = b;
    }
    if (hot) {
      const int b = *hot;
      ImGui::BeginTooltip();
      const int v = b < static_cast<int>(words.size()) ? words[static_cast<std::size_t>(b)] : 0;
      ImGui::Text("bank %d: %d distinct word%s in this phase", b, v, v == 1 ? "" : "s");
      std::string lanes;
      int count = 0;
      for (const LaneAccess& la : ir.lanes)
        if (la.active && la.bank == b) {
          if (count < 16) lanes += (lanes.empty() ? "" : ", ") + std::to_string(la.lane);
          ++count;
        }
      if (count) ImGui::Text("lanes starting here: %s%s", lanes.c_str(), count > 16 ? ", ..." : "");
      ImGui::EndTooltip();
    }
  }
};

}  // namespace

std::unique_ptr<Panel> make_trace_panel() { return std::make_unique<TracePanel>(); }

}  // namespace swz::gui
