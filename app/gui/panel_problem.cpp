// Problem: which tensor, element type, bank model and layouts are on the bench.
#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "panel.h"
#include "swz/problem/problem.h"
#include "swz/sim/gpu.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

namespace {

struct ProblemPanel final : Panel {
  std::vector<PresetInfo> presets = list_presets();  // every `swizzle presets` entry
  int shape_rows = 0, shape_cols = 0;                // pending custom shape (log2), -1 = follow the problem

  const char* id() const override { return "problem"; }
  const char* title() const override { return "Problem"; }

  void draw(PanelContext& ctx) override {
    const Problem& p = ctx.model.problem;
    const ProblemSpec& st = ctx.session.problem;
    const float label_w = em() * 6.2f;
    auto label = [&](const char* text) {
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(text);
      ImGui::SameLine(label_w);
      ImGui::SetNextItemWidth(-1);
    };

    label("Preset");
    if (ImGui::BeginCombo("##preset", fit_text(st.preset, combo_preview_width()).c_str(), ImGuiComboFlags_HeightLarge)) {
      for (const auto& info : presets) {
        const bool selected = info.name == st.preset;
        if (ImGui::Selectable(info.name.c_str(), selected)) ctx.post(cmd::select_preset(info.name));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", info.description.c_str());
      }
      ImGui::EndCombo();
    }
    note(p.description.c_str());

    // Tensor shape: the preset's, or a custom transpose of any power-of-two tile.
    const std::string shape_text = fmt::format("{}", fmt::join(p.shape, " x "));
    if (p.shape.size() == 2) {
      label("Tile");
      static const char* sizes[] = {"2", "4", "8", "16", "32", "64", "128", "256", "512", "1024"};
      const int cur_r = std::countr_zero(static_cast<std::uint64_t>(p.shape[0])) - 1;
      const int cur_c = std::countr_zero(static_cast<std::uint64_t>(p.shape[1])) - 1;
      if (shape_rows <= 0) shape_rows = cur_r + 1;
      if (shape_cols <= 0) shape_cols = cur_c + 1;
      int r = shape_rows - 1, c = shape_cols - 1;
      // Each combo wide enough for "1024"; Apply goes under them when the line is full.
      const float least = ImGui::CalcTextSize("1024").x + ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2.0f + 2.0f;
      const float room = ImGui::GetContentRegionAvail().x, spacing = ImGui::GetStyle().ItemSpacing.x;
      const float apply_w = std::max(em() * 4.0f, button_width("Apply"));
      float w = std::max(least, (room - em() * 6.0f) * 0.5f);
      if (2.0f * w + ImGui::CalcTextSize("x").x + apply_w + 3.0f * spacing > room)  // narrower combos keep Apply on the line
        w = std::max(least, (room - ImGui::CalcTextSize("x").x - apply_w - 3.0f * spacing) * 0.5f);
      ImGui::SetNextItemWidth(w);
      if (ImGui::Combo("##rows", &r, sizes, 10)) shape_rows = r + 1;
      ImGui::SameLine();
      ImGui::TextUnformatted("x");
      ImGui::SameLine();
      ImGui::SetNextItemWidth(w);
      if (ImGui::Combo("##cols", &c, sizes, 10)) shape_cols = c + 1;
      if (!same_line_if_fits(apply_w)) ImGui::SetCursorPosX(label_w);
      const bool changed = r != cur_r || c != cur_c;
      ImGui::BeginDisabled(!changed);
      if (ImGui::Button("Apply", ImVec2(std::max(apply_w, ImGui::GetContentRegionAvail().x), 0))) {
        ctx.post(cmd::set_shape({std::int64_t{1} << (r + 1), std::int64_t{1} << (c + 1)}));
      }
      ImGui::EndDisabled();
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("A different tile becomes a custom transpose: 128-bit row copies in, column reads out");
      if (!changed) shape_rows = shape_cols = 0;  // follow the problem
    } else {
      label("Tensor");
      ImGui::Text("%s", shape_text.c_str());
    }

    label("Element");
    static const int widths[] = {8, 16, 32, 64};
    static const char* width_names[] = {"8-bit (fp8, int8)", "16-bit (fp16, bf16)", "32-bit (fp32)", "64-bit (fp64)"};
    int wi = 2;
    for (int i = 0; i < 4; ++i)
      if (widths[i] == p.element_bits) wi = i;
    static const char* width_short[] = {"8-bit", "16-bit", "32-bit", "64-bit"};
    const float element_room = combo_preview_width();
    const char* element_preview = ImGui::CalcTextSize(width_names[wi]).x <= element_room ? width_names[wi] : width_short[wi];
    if (ImGui::BeginCombo("##element", element_preview)) {
      for (int i = 0; i < 4; ++i)
        if (ImGui::Selectable(width_names[i], i == wi) && widths[i] != p.element_bits) ctx.post(cmd::set_element_bits(widths[i]));
      ImGui::EndCombo();
    }

    // The GPU: its model (banks, lanes, phases, instructions) prices every panel; the core says which row it is.
    // The GPU and its bank model share one row (the panel must fit a lesson's projected card at 1.6).
    label("GPU / banks");
    const float half = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    ImGui::SetNextItemWidth(half);
    const GpuModel& gpu = gpu_of(p.bank);
    const bool gpu_open = ImGui::BeginCombo("##gpu", fit_text(gpu.title(), combo_preview_width(half)).c_str());
    ctx.probe("problem.gpu=" + gpu.name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    if (gpu_open) {
      for (const GpuModel& g : all_gpus()) {
        if (ImGui::Selectable(g.title().c_str(), g.name == gpu.name) && g.name != gpu.name) ctx.post(cmd::set_gpu(g.name));
        ctx.probe("problem.gpu." + g.name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%d banks x %d B, %d-lane %s", g.bank.banks, g.bank.bank_bytes, g.bank.warp_size,
                            g.vendor == Vendor::Amd ? "wavefronts" : "warps");
      }
      ImGui::EndCombo();
    }

    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    struct BankChoice {
      int banks, warp;
      const char* name;
      const char* brief;  // the preview when the name does not fit
    };
    static const BankChoice choices[] = {{32, 32, "32 banks x 4 B, 32-lane warps", "32 banks x 4 B"},
                                         {8, 8, "toy GPU: 8 banks, 8-lane warps", "toy: 8 banks"},
                                         {16, 32, "16 banks x 4 B, 32-lane warps", "16 banks x 4 B"},
                                         {64, 32, "64 banks x 4 B, 32-lane warps", "64 banks x 4 B"}};
    std::string current = fmt::format("{} banks x {} B, {}-lane warps", p.bank.banks, p.bank.bank_bytes, p.bank.warp_size);
    std::string brief = fmt::format("{} banks x {} B", p.bank.banks, p.bank.bank_bytes);
    for (const auto& ch : choices)
      if (ch.banks == p.bank.banks && ch.warp == p.bank.warp_size) {
        current = ch.name;
        brief = ch.brief;
      }
    const float bank_room = combo_preview_width(ImGui::GetContentRegionAvail().x);
    const std::string bank_preview = ImGui::CalcTextSize(current.c_str()).x <= bank_room ? current : fit_text(brief, bank_room);
    if (ImGui::BeginCombo("##banks", bank_preview.c_str())) {
      for (const auto& ch : choices)
        if (ImGui::Selectable(ch.name, ch.banks == p.bank.banks && ch.warp == p.bank.warp_size))
          ctx.post(cmd::set_bank_model(ch.banks, ch.warp));
      ImGui::EndCombo();
    }

    // The shared layout: a preset's named layout, the grid, or a file.
    label("Shared");
    std::string shared_name = st.shared ? st.shared->origin : !st.variant.empty() ? st.variant : p.grid ? "toggle grid" : "preset default";
    if (ImGui::BeginCombo("##variant", fit_text(shared_name, combo_preview_width()).c_str())) {
      for (const auto& v : p.variants)
        if (ImGui::Selectable(v.name.c_str(), v.name == st.variant)) ctx.post(cmd::variant_command(v));
      ImGui::EndCombo();
    }
    note(p.shared.description().c_str());

    ImGui::Spacing();
    layout_row(ctx, LayoutRole::Writer, st.writer, "Writer A");
    layout_row(ctx, LayoutRole::Reader, st.reader, "Reader B");
    layout_row(ctx, LayoutRole::Shared, st.shared, "Shared");

    ImGui::Spacing();
    // What each side issues, with the numbers the Kernel audit's row gives for it: the instruction
    // (STS.128, LDSM.x4, ...), instructions per CTA, mean wavefronts (ideal and worst on hover).
    // The probe carries the line's text, so tests read what is shown.
    ImGui::PushTextWrapPos(0.0f);
    for (const AccessAnalysis* side : {&ctx.model.analysis.store, &ctx.model.analysis.read}) {
      const AccessResult& r = side->simulated;
      const bool store = side == &ctx.model.analysis.store;
      // One short line a side (the panel is narrow at projector scales); the rest on hover.
      const std::string line = fmt::format("{}: {} x{}, {:.2f} wavefronts", store ? "Store" : "Read", side->instruction, r.instructions(),
                                           r.mean_wavefronts);
      ImGui::TextDisabled("%s", line.c_str());
      ctx.probe(fmt::format("problem.issues.{}={}", store ? "store" : "read", line), ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("ideal %d, worst %d wavefronts; %d-bit vectors, %d phase%s; vector limit: %s", r.ideal_wavefronts, r.wavefronts,
                          r.vector.bits, r.phases, r.phases == 1 ? "" : "s", r.vector.limit.c_str());
    }
    ImGui::PopTextWrapPos();
  }

  void layout_row(PanelContext& ctx, LayoutRole role, const std::optional<SpecLayout>& loaded, const char* name) {
    ImGui::PushID(static_cast<int>(role));
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(name);
    ImGui::SameLine(em() * 6.2f);
    if (ImGui::Button("Open file...")) ctx.bench.request_open(role);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("JSON (Gluon bases), Triton text, MLIR attribute or CuTe notation");
    // What is loaded follows on the line when it fits, else on the next one (a long file name wraps there).
    const char* what = loaded ? loaded->origin.c_str() : "preset's";
    if (!same_line_if_fits(ImGui::CalcTextSize(what).x)) ImGui::SetCursorPosX(em() * 6.2f);
    ImGui::PushTextWrapPos(0.0f);
    if (loaded) {
      ImGui::TextUnformatted(what);
      same_line_if_fits(button_width("reset"));
      if (ImGui::SmallButton("reset")) ctx.post(cmd::clear_layout(role));
    } else {
      ImGui::TextDisabled("%s", what);
    }
    ImGui::PopTextWrapPos();
    ImGui::PopID();
  }
};

}  // namespace

std::unique_ptr<Panel> make_problem_panel() { return std::make_unique<ProblemPanel>(); }

}  // namespace swz::gui
