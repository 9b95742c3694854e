// Export: the chosen shared layout handed over to a kernel. A live preview of
// the C++ header (or Triton, CuTe, JSON), the names the layout also goes by,
// Copy to clipboard and Save (Ctrl+E); figures of the current problem as SVG
// (drawn by the core) or as PNG (a panel's pixels, taken from the next frame).
#include <cstring>

#include <fmt/format.h>

#include "panel.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

namespace {

struct FormatChoice {
  ExportFormat format;
  const char* label;
};
constexpr FormatChoice kFormats[] = {{ExportFormat::Header, "C++ header"},
                                     {ExportFormat::Triton, "Triton"},
                                     {ExportFormat::Cute, "CuTe"},
                                     {ExportFormat::Json, "JSON layout"}};

struct FigureChoice {
  FigureView view;
  const char* label;
};
constexpr FigureChoice kFigures[] = {{FigureView::Tensor, "Tensor by bank"},  {FigureView::Writer, "Writer A ownership"},
                                     {FigureView::Reader, "Reader B ownership"}, {FigureView::MatrixA, "Matrix of A"},
                                     {FigureView::MatrixB, "Matrix of B"},      {FigureView::MatrixM, "Matrix M (shared layout)"}};

struct ExportPanel final : Panel {
  char name[96] = {};
  std::string synced_name;  // the settings' name the buffer was last filled from

  const char* id() const override { return "export"; }
  const char* title() const override { return "Export"; }

  void draw(PanelContext& ctx) override {
    Workbench& bench = ctx.bench;
    ExportSettings& s = bench.export_settings();
    if (synced_name != s.name) {
      std::snprintf(name, sizeof(name), "%s", s.name.c_str());
      synced_name = s.name;
    }

    // Format and name.
    for (const FormatChoice& f : kFormats) {
      if (ImGui::RadioButton(f.label, s.format == f.format)) s.format = f.format;
      ctx.probe(fmt::format("export.format.{}", export_format_name(f.format)), ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
      ImGui::SameLine();
    }
    ImGui::NewLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Name");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(em() * 14.0f);
    if (ImGui::InputText("##name", name, sizeof(name))) {
      s.name = name;
      synced_name = s.name;
    }
    ImGui::SameLine();
    ImGui::TextDisabled(s.format == ExportFormat::Header ? "namespace of the header" : "name of the layout");

    std::string why;
    const std::string& text = bench.export_preview(why);
    const bool ok = why.empty();

    // The names the layout also goes by.
    if (ctx.model.problem.shared.is_linear()) {
      const std::vector<std::string>& names = bench.export_aliases();
      ImGui::PushTextWrapPos(0.0f);
      if (names.empty()) ImGui::TextDisabled("Not a CuTe, TMA or Triton named layout: the header and the bases carry it.");
      else ImGui::TextDisabled("Also known as: %s", fmt::format("{}", fmt::join(names, "; ")).c_str());
      ImGui::PopTextWrapPos();
    }

    // Copy and Save.
    if (!ok) ImGui::BeginDisabled();
    if (ImGui::Button("Copy to clipboard")) {
      ImGui::SetClipboardText(text.c_str());
      bench.show_status(fmt::format("Copied the {} ({} lines) to the clipboard", kFormats[static_cast<int>(s.format)].label,
                                    std::count(text.begin(), text.end(), '\n')));
    }
    ctx.probe("export.copy", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    ImGui::SameLine();
    if (ImGui::Button("Save...  Ctrl+E")) bench.request_save_export();
    ctx.probe("export.save", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    if (!ok) ImGui::EndDisabled();

    // Preview.
    const float figures_h = ImGui::GetFrameHeightWithSpacing() * 3.0f + ImGui::GetTextLineHeightWithSpacing() * 2.0f;
    const ImVec2 size(-1.0f, std::max(em() * 6.0f, ImGui::GetContentRegionAvail().y - figures_h));
    if (!ok) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.72f, 0.10f, 0.10f, 1.0f));
      ImGui::BeginChild("##why", size, true);
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(why.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndChild();
      ImGui::PopStyleColor();
      ctx.probe("export.error", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    } else {
      ImGui::PushFont(fonts().mono);
      // Read-only: ImGui never writes through the pointer, and the text can be selected and copied.
      ImGui::InputTextMultiline("##preview", const_cast<char*>(text.c_str()), text.size() + 1, size, ImGuiInputTextFlags_ReadOnly);
      ImGui::PopFont();
      ctx.probe("export.preview", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    }

    // Figures.
    heading("Figures");
    ImGui::SetNextItemWidth(em() * 14.0f);
    int fig = 0;
    for (int i = 0; i < static_cast<int>(std::size(kFigures)); ++i)
      if (kFigures[i].view == s.figure) fig = i;
    if (ImGui::Combo("##figure", &fig, [](void*, int i, const char** out) { return *out = kFigures[i].label, true; }, nullptr,
                     static_cast<int>(std::size(kFigures))))
      s.figure = kFigures[fig].view;
    ImGui::SameLine();
    if (ImGui::Button("Save SVG...")) bench.request_figure(false);
    ctx.probe("export.svg", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());

    std::vector<std::pair<std::string, std::string>> shots{{"", "Whole window"}};
    for (const auto& [pid, ptitle] : bench.tile_panels()) shots.emplace_back(pid, ptitle);
    int shot = 0;
    for (int i = 0; i < static_cast<int>(shots.size()); ++i)
      if (shots[static_cast<std::size_t>(i)].first == s.png_panel) shot = i;
    ImGui::SetNextItemWidth(em() * 14.0f);
    if (ImGui::Combo(
            "##png", &shot,
            [](void* data, int i, const char** out) {
              *out = static_cast<std::vector<std::pair<std::string, std::string>>*>(data)->at(static_cast<std::size_t>(i)).second.c_str();
              return true;
            },
            &shots, static_cast<int>(shots.size())))
      s.png_panel = shots[static_cast<std::size_t>(shot)].first;
    ImGui::SameLine();
    if (ImGui::Button("Save PNG...")) bench.request_figure(true);
    ctx.probe("export.png", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  }
};

}  // namespace

std::unique_ptr<Panel> make_export_panel() { return std::make_unique<ExportPanel>(); }

}  // namespace swz::gui
