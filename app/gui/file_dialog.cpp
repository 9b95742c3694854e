#include "file_dialog.h"

#include <algorithm>

#include <imgui.h>

#include "theme.h"

namespace swz::gui {

void FileDialog::open(std::string dialog_title, bool for_saving, const std::filesystem::path& start) {
  title = std::move(dialog_title);
  saving = for_saving;
  std::error_code ec;
  if (std::filesystem::is_directory(start, ec)) {
    dir = start;
    path_text = (start / "").string();
  } else {
    dir = start.has_parent_path() ? start.parent_path() : std::filesystem::current_path(ec);
    path_text = start.string();
  }
  open_requested = true;
  list();
}

void FileDialog::list() {
  entries_.clear();
  list_error_.clear();
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code e2;
    entries_.push_back({name, it->is_directory(e2)});
  }
  if (ec) list_error_ = "cannot list " + dir.string() + ": " + ec.message();
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return a.is_dir != b.is_dir ? a.is_dir : a.name < b.name;
  });
}

std::optional<std::filesystem::path> FileDialog::draw() {
  if (open_requested) {
    ImGui::OpenPopup(title.c_str());
    open_requested = false;
  }
  std::optional<std::filesystem::path> chosen;
  const ImVec2 size(em() * 36, em() * 24);
  ImGui::SetNextWindowSize(size, ImGuiCond_Appearing);
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(title.c_str(), nullptr)) return chosen;
  ImGui::TextColored(ImVec4(0.35f, 0.38f, 0.45f, 1), "%s", dir.string().c_str());
  if (ImGui::Button("Up") && dir.has_parent_path()) {
    dir = dir.parent_path();
    list();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  char buf[1024];
  const std::size_t n = std::min(path_text.size(), sizeof(buf) - 1);
  path_text.copy(buf, n);
  buf[n] = 0;
  bool confirm = false;
  if (ImGui::InputText("##path", buf, sizeof(buf), ImGuiInputTextFlags_EnterReturnsTrue)) confirm = true;
  path_text = buf;
  const float footer = ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
  ImGui::BeginChild("entries", ImVec2(0, -footer), true);
  if (!list_error_.empty()) ImGui::TextColored(ImVec4(0.8f, 0.2f, 0.2f, 1), "%s", list_error_.c_str());
  std::optional<std::filesystem::path> enter;
  for (const Entry& e : entries_) {
    const std::string label = e.is_dir ? e.name + "/" : e.name;
    const bool selected = !e.is_dir && std::filesystem::path(path_text).filename() == e.name;
    if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick | ImGuiSelectableFlags_DontClosePopups)) {
      if (e.is_dir) {
        enter = dir / e.name;
      } else {
        path_text = (dir / e.name).string();
        if (ImGui::IsMouseDoubleClicked(0)) confirm = true;
      }
    }
  }
  ImGui::EndChild();
  if (enter) {
    dir = *enter;
    path_text = (dir / "").string();
    list();
  }
  if (ImGui::Button(saving ? "Save" : "Open", ImVec2(em() * 6, 0))) confirm = true;
  ImGui::SameLine();
  if (ImGui::Button("Cancel", ImVec2(em() * 6, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
  if (confirm && !path_text.empty()) {
    std::filesystem::path p(path_text);
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      dir = p;
      list();
    } else {
      chosen = p;
      ImGui::CloseCurrentPopup();
    }
  }
  ImGui::EndPopup();
  return chosen;
}

}  // namespace swz::gui
