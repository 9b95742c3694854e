// file_dialog.h: a small modal file chooser (ImGui has none): a path field,
// the folder's entries, Open / Save and Cancel.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace swz::gui {

struct FileDialog {
  std::string title;           // "Open session", "Open writer (A) layout", ...
  bool saving = false;         // Save As: the file need not exist
  std::filesystem::path dir;   // folder listed
  std::string path_text;       // the path being typed or picked
  bool open_requested = false; // open the popup on the next draw

  void open(std::string dialog_title, bool for_saving, const std::filesystem::path& start);
  // Draws the dialog when open; returns the chosen path once, when the user confirms.
  std::optional<std::filesystem::path> draw();

 private:
  struct Entry {
    std::string name;
    bool is_dir = false;
  };
  std::vector<Entry> entries_;
  std::string list_error_;
  void list();
};

}  // namespace swz::gui
