// Kernel audit: File > Open kernel... reads a Triton TTGIR module (.ttgir / .mlir; a dump of
// several modules shows one at a time) and lists every shared-memory access the core's audit
// found (audit.h): the instruction the CLI names, its wavefronts per instruction, and under each
// conflicted access its suggestion (or why there is none). Opening a kernel loads its first
// conflicted access into the workbench; choosing a row loads that one (writer, reader, shared
// layout, instruction widths), where the toggle grid and the solver take it from there.
// "Apply fix..." writes the module with the chosen suggestions (core fix_module) where the user says.
#include <fmt/format.h>

#include <array>
#include <filesystem>
#include <memory>

#include "panel.h"
#include "swz/kernel/audit.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

namespace {

constexpr int kKernelColumns = 9;

struct KernelPanel final : Panel {
  const char* id() const override { return "kernel"; }
  const char* title() const override { return "Kernel audit"; }

  // One cell's text; the probes let tests check that no column clips its text
  // (kernel.text.ROW.COL: the text; kernel.cell.ROW.COL: the cell's right edge).
  static void cell(PanelContext& ctx, const std::string& row, int column, const std::string& text,
                   std::optional<ImVec4> color = std::nullopt) {
    ImGui::TableSetColumnIndex(column);
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    if (color)
      ImGui::TextColored(*color, "%s", text.c_str());
    else
      ImGui::TextUnformatted(text.c_str());
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    ctx.probe(fmt::format("kernel.text.{}.{}", row, column), min, max);
    ctx.probe(fmt::format("kernel.cell.{}.{}", row, column), min, ImVec2(right, max.y));
  }

  void draw(PanelContext& ctx) override {
    Workbench& bench = ctx.bench;
    const Workbench::KernelAudit& k = bench.kernel_audit();
    if (ImGui::Button("Open kernel...")) bench.request_open_kernel();
    ctx.probe("kernel.open", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    if (!k.error.empty()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(ImVec4(0.9f, 0.3f, 0.3f, 1.0f), "%s", k.error.c_str());
      ImGui::PopTextWrapPos();
    }
    if (k.modules.empty()) {
      ImGui::TextDisabled("A TTGIR dump (TRITON_KERNEL_DUMP=1, MLIR_ENABLE_DUMP=1): every shared-memory access, simulated.");
      return;
    }
    const AuditReport& report = k.modules[static_cast<std::size_t>(k.module)];
    const AuditCounts counts = count_accesses(report);
    ImGui::SameLine();
    ImGui::BeginDisabled(counts.conflicted == 0);
    if (ImGui::Button("Apply fix...")) bench.request_kernel_fix();
    ImGui::EndDisabled();
    ctx.probe("kernel.apply_fix", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", counts.conflicted ? "Write the module with each conflicted access's suggestion applied, to a file you choose"
                                                : "No modelled access has a bank conflict");
    if (k.modules.size() > 1) {
      ImGui::SameLine();
      ImGui::SetNextItemWidth(em() * 28);
      if (ImGui::BeginCombo("##module", module_label(report).c_str())) {
        for (int i = 0; i < static_cast<int>(k.modules.size()); ++i)
          if (ImGui::Selectable(module_label(k.modules[static_cast<std::size_t>(i)]).c_str(), i == k.module))
            bench.show_kernel_module(i);
        ImGui::EndCombo();
      }
    }
    // The kernel's integer arguments and program ids, as `swizzle audit --arg` takes them: a loop's
    // bound, a pitch, the mask of a tile's edge. Enter audits again.
    if (shown_path_ != k.path || shown_arguments_ != k.arguments) {  // another kernel, or applied
      shown_path_ = k.path;
      shown_arguments_ = k.arguments;
      arguments_.fill('\0');
      k.arguments.copy(arguments_.data(), arguments_.size() - 1);
    }
    ImGui::SetNextItemWidth(em() * 36);
    // Applied after the table: auditing again replaces the reports this frame draws from.
    const bool apply_arguments = ImGui::InputTextWithHint("Arguments", "K=4096 N=96 pid_n=1", arguments_.data(),
                                                          arguments_.size(), ImGuiInputTextFlags_EnterReturnsTrue);
    ctx.probe("kernel.arguments", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The kernel's integer arguments and program ids, as swizzle audit --arg takes them (Enter audits again)");
    // The kernel's SASS, as `swizzle audit --sass` reads it: a masked 16-byte copy priced by its predicate register.
    ImGui::SameLine();
    if (ImGui::Button("SASS...")) bench.request_kernel_sass();
    ctx.probe("kernel.sass", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "Audit with the kernel's SASS (cuobjdump -sass, or Triton's kernel.asm[\"sass\"]), as swizzle audit --sass: "
          "each cp.async matched to its LDGSTS, a masked 16-byte copy priced by its predicate register");
    if (k.sass) {
      ImGui::SameLine();
      ImGui::TextUnformatted(k.sass_path.filename().string().c_str());
      ImGui::SameLine();
      const bool drop_sass = ImGui::SmallButton("x##sass");
      ctx.probe("kernel.drop_sass", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Audit without the SASS");
      if (drop_sass) drop_sass_ = true;
    }
    ImGui::TextUnformatted(fmt::format("{}: {} accesses; {} of {} modelled have bank conflicts; {} not modelled{}",
                                       module_label(report), report.accesses.size(), counts.conflicted, counts.modelled,
                                       counts.not_modelled,
                                       counts.index_dependent
                                           ? fmt::format("; {} priced only between ideal and worst (index values)",
                                                         counts.index_dependent)
                                           : std::string())
                               .c_str());

    // Columns fit their widest text and the table scrolls sideways: nothing is clipped at any UI scale.
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
    if (ImGui::BeginTable("##accesses", kKernelColumns, flags)) draw_accesses(ctx, report);
    if (apply_arguments) bench.set_kernel_arguments(arguments_.data());
    if (drop_sass_) bench.set_kernel_sass({});
    drop_sass_ = false;
  }

  // The table's rows: each access, and under a conflicted one its suggestion.
  static void draw_accesses(PanelContext& ctx, const AuditReport& report) {
    Workbench& bench = ctx.bench;
    const Workbench::KernelAudit& k = bench.kernel_audit();
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* h : {"line", "op", "dir", "instruction", "instrs", "wavefronts", "ideal", "worst", "loc / note"})
      ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    const ImVec4 conflict_color(0.95f, 0.45f, 0.2f, 1.0f), better_color(0.25f, 0.7f, 0.35f, 1.0f);
    auto opt = [](const auto& v, const char* format) { return v ? fmt::format(fmt::runtime(format), *v) : std::string("-"); };
    for (int i = 0; i < static_cast<int>(report.accesses.size()); ++i) {
      const AuditAccess& a = report.accesses[static_cast<std::size_t>(i)];
      const bool bad = a.wavefronts && a.ideal_wavefronts && *a.wavefronts > *a.ideal_wavefronts + 1e-9;
      const bool loadable = a.writer && a.reader && a.shared_offsets;
      const std::string row = std::to_string(i);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(i);
      ImGuiSelectableFlags sflags = ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap;
      if (!loadable) sflags |= ImGuiSelectableFlags_Disabled;
      if (ImGui::Selectable("##row", k.selected == i, sflags)) bench.load_kernel_access(i);
      ctx.probe("kernel.row." + row, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
      ImGui::SameLine(0, 0);
      ImGui::PopID();
      cell(ctx, row, 0, std::to_string(a.line));
      cell(ctx, row, 1, a.op);
      cell(ctx, row, 2, a.direction.value_or("-"));
      cell(ctx, row, 3, a.instruction);
      cell(ctx, row, 4, a.wavefronts ? std::to_string(a.instructions) : std::string("-"));
      cell(ctx, row, 5, opt(a.wavefronts, "{:.2f}"), bad ? std::optional<ImVec4>(conflict_color) : std::nullopt);
      cell(ctx, row, 6, opt(a.ideal_wavefronts, "{}"));
      cell(ctx, row, 7, opt(a.worst_wavefronts, "{}"));
      cell(ctx, row, 8, a.loc.empty() ? a.note : a.note.empty() ? a.loc : a.loc + "  " + a.note);
      // The suggestion in its own row under the access: what changes, the instruction and wavefronts after.
      if (a.suggestion_index || (bad && !a.no_suggestion.empty())) {
        const std::string sub = row + ".suggestion";
        ImGui::TableNextRow();
        if (a.suggestion_index) {
          const AuditSuggestion& s = report.suggestions.at(*a.suggestion_index);
          const bool copy = s.target == AuditSuggestion::Target::DistributedLayout;
          cell(ctx, sub, 1, copy ? "suggestion: copy layout" : "suggestion: shared layout", better_color);
          cell(ctx, sub, 3, s.instruction_after, better_color);
          cell(ctx, sub, 4, std::to_string(s.instructions_after), better_color);
          cell(ctx, sub, 5, fmt::format("{:.2f}", s.wavefronts_after), better_color);
          cell(ctx, sub, 8, fmt::format("{}   (checked against: {})", s.new_layout, consumers_summary(s)), better_color);
          ctx.probe("kernel.suggestion." + row, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
        } else {
          cell(ctx, sub, 1, "no suggestion", conflict_color);
          cell(ctx, sub, 8, a.no_suggestion, conflict_color);
          ctx.probe("kernel.suggestion." + row, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
        }
      }
    }
    ImGui::EndTable();
  }

 private:
  std::filesystem::path shown_path_;   // the kernel whose arguments the field holds,
  std::string shown_arguments_;        // and those it last applied
  std::array<char, 256> arguments_{};  // the Arguments field
  bool drop_sass_ = false;             // the SASS's x clicked: audited again after the table
};

}  // namespace

std::unique_ptr<Panel> make_kernel_panel() { return std::make_unique<KernelPanel>(); }

}  // namespace swz::gui
