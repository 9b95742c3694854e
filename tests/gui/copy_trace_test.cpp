// The Access trace on a cp.async writer: the global lines and sectors the step reads, each lane's
// source bank and read turn, and the shared banks that wait (the core's copy_trace, drawn).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "gui_fixture.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/global_side.h"

namespace swz::gui::test {

namespace {

// A 32x8 fp32 tile copied by 4-byte cp.async.ca, rows `pitch` bytes apart in global memory, as a
// session file states it.
ProblemSpec copy_trace_spec(std::int64_t pitch) {
  return spec_from_json(nlohmann::json::parse(fmt::format(R"({{"preset": "transpose16x32", "shape": [32, 8], "element_bits": 32,
      "write_vec_bits": 32, "write_copy": "ca", "global_pitch": {}}})",
                                                          pitch)),
                        "copy trace test: '");
}

// The line a probe carries after its '=' ("trace.copy=cp.async reads ..."); "" when none was drawn.
std::string drawn_line(const Workbench& b, const std::string& probe) {
  for (const std::string& id : b.probe_ids())
    if (id.rfind(probe, 0) == 0) return id.substr(probe.size());
  return "";
}

}  // namespace

class CopyTraceTest : public GuiTest {};

TEST_F(CopyTraceTest, StoreStepShowsGlobalLinesAndTurns) {
  Workbench& b = open(copy_trace_spec(128));
  ASSERT_TRUE(b.apply(cmd::set_side(Side::Store)));
  frames(3);
  const StepTrace& t = b.trace();
  ASSERT_TRUE(t.copy.has_value());
  const Problem& p = b.model().problem;
  const CopyTrace core = copy_trace(warp_request(p.store, p.shared, p.element_bits, p.bank, 0, 0), p.bank);
  EXPECT_EQ(t.copy->phase_wavefronts, core.phase_wavefronts);
  // Rows 128 bytes apart: the 16 rows of the step (2 lanes a row) read 16 lines, a sector each, all from source
  // banks 0 and 4; each shared bank they write takes its 4 writes after 12 turns of its source bank.
  EXPECT_EQ(drawn_line(b, "trace.copy="), "cp.async reads 16 global lines, 16 sectors");
  EXPECT_NE(drawn_line(b, "trace.copy.waits=").find("bank 8: 4 writes after 12 turns of source bank 0"), std::string::npos)
      << drawn_line(b, "trace.copy.waits=");
  EXPECT_TRUE(b.probe("trace.copy.lanes").has_value());
  EXPECT_EQ(t.instruction.wavefronts, 16);
  screenshot_if_asked("SWZ_COPY_TRACE_PNG");

  // Rows packed 32 bytes apart: four rows a line, and no bank waits: the shared side's 4.
  ASSERT_TRUE(b.apply(cmd::set_problem("copy", copy_trace_spec(32))));
  ASSERT_TRUE(b.apply(cmd::set_side(Side::Store)));
  frames(3);
  EXPECT_EQ(drawn_line(b, "trace.copy="), "cp.async reads 4 global lines, 16 sectors");
  EXPECT_EQ(drawn_line(b, "trace.copy.waits="), "No shared bank waits on a source bank");
  EXPECT_EQ(b.trace().instruction.wavefronts, 4);
}

TEST_F(CopyTraceTest, PlainStoreHasNoCopyLines) {
  Workbench& b = open(ProblemSpec{});
  ASSERT_TRUE(b.apply(cmd::set_side(Side::Store)));
  frames(3);
  EXPECT_FALSE(b.trace().copy.has_value());
  EXPECT_EQ(drawn_line(b, "trace.copy="), "");
}

}  // namespace swz::gui::test
