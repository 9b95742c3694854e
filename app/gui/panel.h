// panel.h: what a panel is. A panel is a small struct with a draw(): it reads
// the session and model it is handed, and changes them only by posting
// commands. Panels are listed, with their tile, in one place: panels.cpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <imgui.h>

#include "commands.h"
#include "model.h"
#include "session.h"

namespace swz::gui {

class Workbench;

struct PanelContext {
  const Session& session;
  const Model& model;
  const StepTrace& trace;
  Workbench& bench;

  void post(Command command) const;
  // Registers a rectangle tests can find and click ("grid.cell.0.1").
  void probe(const std::string& id, ImVec2 min, ImVec2 max) const;
};

struct Panel {
  virtual ~Panel() = default;
  virtual const char* id() const = 0;     // stable: session files and the View menu use it
  virtual const char* title() const = 0;  // window title
  virtual void draw(PanelContext& ctx) = 0;
};

// Where a panel sits in the tiled arrangement: a column, and a share of its height.
struct PanelSlot {
  std::unique_ptr<Panel> panel;
  int column = 0;
  float weight = 1.0f;
};
inline constexpr int kColumns = 3;
inline constexpr float kColumnShare[kColumns] = {0.265f, 0.385f, 0.35f};

// Every panel of the workbench, in View-menu order.
std::vector<PanelSlot> make_panels();
// Tool windows: they float over the tiles, start hidden, and open from the Tools menu.
std::vector<std::unique_ptr<Panel>> make_tools();

}  // namespace swz::gui
