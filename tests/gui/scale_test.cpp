// A 2^30-element problem (a 32768x32768 fp16 transpose) opened from a session file: every panel
// draws, the tensor, layouts and memory panels draw the core's window of it and say so, the trace
// and the solver say their checks are sampled, and no table holds an entry per element.
#include <fstream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "gui_fixture.h"
#include "swz/problem/views.h"

namespace swz::gui::test {

namespace {

// The 32768x32768 fp16 transpose of tests/cli/data (8 warps, an 8x8 block per lane) as a session file.
std::filesystem::path huge_transpose_session(const std::filesystem::path& dir) {
  auto read = [](const std::string& name) {
    std::ifstream in(std::string(SWZ_TEST_DATA_DIR) + "/../cli/data/" + name);
    return nlohmann::json::parse(in);
  };
  const nlohmann::json session = {
      {"format", "swizzle-workbench-session"},
      {"version", 1},
      {"problem",
       {{"preset", ""},
        {"writer", {{"origin", "transpose32768_fp16_writer.json"}, {"layout", read("transpose32768_fp16_writer.json")}}},
        {"reader", {{"origin", "transpose32768_fp16_reader.json"}, {"layout", read("transpose32768_fp16_reader.json")}}}}}};
  const auto path = dir / "transpose32768.swzsession.json";
  std::ofstream(path) << session.dump();
  return path;
}

}  // namespace

TEST_F(GuiTest, A2To30ElementSessionDrawsEveryPanelAsAWindow) {
  Workbench& b = open();
  ASSERT_TRUE(b.open_session(huge_transpose_session(config_))) << b.error();
  frames(2);
  const Model& m = b.model();
  ASSERT_EQ(m.problem.shared.coord_bits(), 30);

  // The tables cover the drawn window, never the 2^30 elements.
  EXPECT_TRUE(m.window.windowed());
  EXPECT_EQ(m.window.shown_rows, 128);
  EXPECT_EQ(m.window.shown_cols, 128);
  EXPECT_EQ(m.places.bank.size(), 128u * 128u);
  EXPECT_EQ(m.owner_a.size(), 128u * 128u);
  EXPECT_EQ(m.memory.total_segments, (std::uint64_t{1} << 31) / 128);
  EXPECT_LE(m.memory.slot_coord.size(), 128u * 128u);

  // What the window draws is the core's: a cell's bank and holders, and an element far outside it.
  const BitVec corner = m.cell_coord(127, 127);
  EXPECT_EQ(m.places.bank[m.cell_index(127, 127)], place_of(m.problem, corner).bank);
  const ElementOwner o = m.owner_b[m.cell_index(127, 127)];
  EXPECT_EQ(m.problem.read.layout.apply("warp", static_cast<std::uint64_t>(o.warp)) ^
                m.problem.read.layout.apply("lane", static_cast<std::uint64_t>(o.lane)) ^
                m.problem.read.layout.apply("register", static_cast<std::uint64_t>(o.reg)),
            corner);
  const BitVec far = m.cell_coord(32767, 32767);
  const ElementOwner last = m.owner(Side::Store, far);
  EXPECT_EQ(last.holders, 1);
  EXPECT_EQ(m.problem.store.layout.apply("warp", static_cast<std::uint64_t>(last.warp)) ^
                m.problem.store.layout.apply("lane", static_cast<std::uint64_t>(last.lane)) ^
                m.problem.store.layout.apply("register", static_cast<std::uint64_t>(last.reg)),
            far);

  // Every panel, one at a time filling the window, draws; the windowed ones say so.
  const std::vector<std::pair<std::string, std::vector<std::string>>> panels = {
      {"tensor", {"tensor.window", "tensor.grid", "tensor.cell.0.0"}},
      {"layouts", {"layouts.a.window", "layouts.b.window", "layouts.a.picture", "layouts.b.picture"}},
      {"memory", {"memory.window", "memory.slot.0.0"}},
      {"trace", {"trace.sampled", "trace.verdict.store", "trace.verdict.read", "trace.bar.0"}},
      {"solver", {"solver.sampled", "solver.apply"}},
      {"matrix", {}},
      {"algebra", {}},
      {"grid", {}},
      {"problem", {}},
  };
  for (const auto& [id, probes] : panels) {
    b.set_focus(id);
    frames(2);
    EXPECT_EQ(b.focus(), id);
    EXPECT_TRUE(b.probe("panel." + id).has_value()) << id;
    for (const std::string& p : probes) EXPECT_TRUE(b.probe(p).has_value()) << id << " draws no " << p;
  }
  b.set_focus("");
  frames(2);

  // The trace steps through the sampled problem's instructions; the step's cells come from the core.
  b.apply(cmd::set_side(Side::Store));
  b.apply(cmd::set_step(m.steps(Side::Store) - 1));
  frames(2);
  EXPECT_EQ(b.trace().instruction.step, m.steps(Side::Store) - 1);
  EXPECT_FALSE(b.trace().cells.empty());

  // The tool windows open on it too.
  for (const char* tool : {"export", "gpu"}) {
    b.apply(cmd::show_panel(tool, true));
    frames(2);
    b.apply(cmd::show_panel(tool, false));
  }
  EXPECT_TRUE(b.error().empty()) << b.error();
}

}  // namespace swz::gui::test
