// Kernel audit: File > Open kernel... reads a Triton TTGIR module (.ttgir / .mlir)
// and lists every shared-memory access the core's audit found (audit.h), with
// its wavefronts per instruction and the suggested layout. Choosing an access
// loads its writer, reader and shared layout into the workbench, where the
// toggle grid and the solver take it from there.
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "file_dialog.h"
#include "panel.h"
#include "swz/kernel/audit.h"
#include "swz/error.h"
#include "swz/io/layout_io.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

namespace {

struct KernelPanel final : Panel {
  FileDialog dialog;                  // the Open kernel chooser
  int selected = -1;                  // row loaded into the workbench
  int last_frame = -2;                // frame this panel was last drawn: a gap means it was just opened
  int read_count = 0;                 // kernels read when `selected` was chosen: a newer one clears it

  const char* id() const override { return "kernel"; }
  const char* title() const override { return "Kernel audit"; }

  void open_dialog(const std::optional<AuditReport>& report) {
    std::error_code ec;
    dialog.open("Open kernel (TTGIR)", false, report ? std::filesystem::path(report->path) : std::filesystem::current_path(ec));
  }

  // Shape and element width first, so the loaded layouts fit the problem.
  void load(PanelContext& ctx, const AuditReport& report, const AuditAccess& a) {
    if (!a.writer || !a.reader || !a.shared_offsets) return;
    const std::string origin = fmt::format("{}:{}", std::filesystem::path(report.path).filename().string(), a.line);
    ctx.post(cmd::set_shape(a.writer->shape()));
    ctx.post(cmd::set_element_bits(a.element_bits));
    ctx.post(cmd::load_layout(LayoutRole::Writer, SpecLayout{*a.writer, origin + " writer"}));
    ctx.post(cmd::load_layout(LayoutRole::Reader, SpecLayout{*a.reader, origin + " reader"}));
    ctx.post(cmd::load_layout(LayoutRole::Shared, SpecLayout{*a.shared_offsets, origin + " shared"}));
  }

  void draw(PanelContext& ctx) override {
    const std::optional<AuditReport>& report = ctx.bench.kernel_report();
    const std::string& error = ctx.bench.kernel_error();
    if (ctx.bench.kernels_read() != read_count) selected = -1;
    read_count = ctx.bench.kernels_read();
    const int frame = ImGui::GetFrameCount();
    // Opened from the File menu (or the View menu); a kernel handed over whole (a drop) needs no dialog.
    if (frame - last_frame > 1 && !ctx.bench.take_kernel_opened()) open_dialog(report);
    last_frame = frame;
    if (ImGui::Button("Open kernel...")) open_dialog(report);
    ctx.probe("kernel.open", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    if (auto chosen = dialog.draw()) ctx.bench.open_kernel(*chosen);
    if (!error.empty()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(ImVec4(0.9f, 0.3f, 0.3f, 1.0f), "%s", error.c_str());
      ImGui::PopTextWrapPos();
    }
    if (!report) {
      ImGui::TextDisabled("A TTGIR dump (TRITON_KERNEL_DUMP=1, MLIR_ENABLE_DUMP=1): every shared-memory access, simulated.");
      return;
    }
    int conflicted = 0;
    for (const auto& a : report->accesses)
      conflicted += a.wavefronts && a.ideal_wavefronts && *a.wavefronts > *a.ideal_wavefronts + 1e-9;
    ImGui::SameLine();
    ImGui::TextUnformatted(
        fmt::format("{}: {} accesses, {} with bank conflicts", report->path, report->accesses.size(), conflicted).c_str());

    const ImGuiTableFlags flags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable;
    if (!ImGui::BeginTable("##accesses", 8, flags)) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* h : {"line", "op", "dir", "instruction", "instrs", "wavefronts", "ideal", "loc / note"})
      ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (int i = 0; i < static_cast<int>(report->accesses.size()); ++i) {
      const AuditAccess& a = report->accesses[static_cast<std::size_t>(i)];
      const bool bad = a.wavefronts && a.ideal_wavefronts && *a.wavefronts > *a.ideal_wavefronts + 1e-9;
      const bool loadable = a.writer && a.reader && a.shared_offsets;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(i);
      ImGuiSelectableFlags sflags = ImGuiSelectableFlags_SpanAllColumns;
      if (!loadable) sflags |= ImGuiSelectableFlags_Disabled;
      if (ImGui::Selectable(fmt::format("{}", a.line).c_str(), selected == i, sflags)) {
        selected = i;
        load(ctx, *report, a);
      }
      ctx.probe(fmt::format("kernel.row.{}", i), ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
      if (ImGui::IsItemHovered() && (a.suggestion || !a.shared_layout.empty()))
        ImGui::SetTooltip("%s", fmt::format("shared: {}\nregisters: {}{}", a.shared_layout, a.distributed_layout,
                                            a.suggestion ? fmt::format("\nsuggestion: {}", *a.suggestion) : std::string())
                                    .c_str());
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(a.op.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(a.direction.value_or("-").c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(a.instruction.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%lld", static_cast<long long>(a.instructions));
      ImGui::TableNextColumn();
      if (a.wavefronts) {
        if (bad)
          ImGui::TextColored(ImVec4(0.95f, 0.45f, 0.2f, 1.0f), "%.2f", *a.wavefronts);
        else
          ImGui::Text("%.2f", *a.wavefronts);
      } else {
        ImGui::TextDisabled("-");
      }
      ImGui::TableNextColumn();
      if (a.ideal_wavefronts)
        ImGui::Text("%d", *a.ideal_wavefronts);
      else
        ImGui::TextDisabled("-");
      ImGui::TableNextColumn();
      const std::string tail = a.loc.empty() ? a.note : a.note.empty() ? a.loc : a.loc + "  " + a.note;
      ImGui::TextUnformatted(tail.c_str());
    }
    ImGui::EndTable();
  }
};

}  // namespace

std::unique_ptr<Panel> make_kernel_panel() { return std::make_unique<KernelPanel>(); }

}  // namespace swz::gui
