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

// Where a panel sits in the tiled arrangement: a column (of three, and of two when
// the window is narrow for the UI scale), a share of its column's height, and the
// least width and height (in em, the font size) its content needs to be read.
struct PanelSlot {
  std::unique_ptr<Panel> panel;
  int column = 0;   // of kColumns
  float weight = 1.0f;
  int column2 = 0;  // of two columns
  float min_width_em = 20.0f;
  float min_height_em = 10.0f;
};
inline constexpr int kColumns = 3;
inline constexpr float kColumnShare[kColumns] = {0.265f, 0.385f, 0.35f};
inline constexpr float kColumnShare2[2] = {0.45f, 0.55f};

// The tiles of one frame: each visible panel's rectangle, in pixels from the top
// left of the tile area. When the panels' least heights do not fit, `height` is
// taller than the area and the area scrolls.
struct TileRect {
  std::size_t slot = 0;  // index into the panel list
  float x = 0, y = 0, w = 0, h = 0;
};
struct TileArrangement {
  int columns = kColumns;
  float height = 0;  // of the arranged tiles
  std::vector<TileRect> tiles;
};
// Three columns when every column gets the width its panels need at this font size
// (`em` px), else two, else one; heights by weight, never below a panel's least height
// (with fewer than three columns the area scrolls anyway, and panels get kRoomyHeight
// times their least height: a tensor of 64x64 cells needs the room).
inline constexpr float kRoomyHeight = 1.4f;
TileArrangement arrange_tiles(const std::vector<PanelSlot>& slots, const std::vector<bool>& visible, float width, float height, float em);

// Every panel of the workbench, in View-menu order.
std::vector<PanelSlot> make_panels();
// Tool windows: they float over the tiles, start hidden, and open from the Tools menu.
std::vector<std::unique_ptr<Panel>> make_tools();

}  // namespace swz::gui
