// The Access trace draws the banks of the instruction on show, as the core serves it: gfx950's
// ds_write_b64 on 32 banks (HipKittens' measured ds_write_b64 tables, gpu.cpp), its 32-bit read on
// the GPU's 64, the H100's 32 as before; and `swizzle analyze --json` says the same counts.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "gui_fixture.h"
#include "panel_cli.h"
#include "swz/problem/problem_spec.h"

namespace swz::gui::test {

namespace {

// gfx950, a 64x64 fp32 transpose whose writer may store 64 bits a lane (ds_write_b64).
ProblemSpec trace_banks_gfx950_spec() {
  ProblemSpec spec;
  spec.shape = {64, 64};
  spec.element_bits = 32;
  spec.gpu = "gfx950";
  spec.write_vec_bits = 64;
  return spec;
}

// The bars the trace drew this frame (probes trace.bar.0 .. trace.bar.N-1), and those with height.
struct TraceBanksDrawn {
  int bars = 0, filled = 0;
};
TraceBanksDrawn trace_banks_drawn(const Workbench& b) {
  TraceBanksDrawn d;
  for (const std::string& id : b.probe_ids())
    if (id.rfind("trace.bar.", 0) == 0) {
      ++d.bars;
      const auto bar = b.probe(id);
      if (bar && bar->max.y - bar->min.y > 0.5f) ++d.filled;
    }
  return d;
}

int trace_banks_nonzero(const std::vector<int>& words) {
  int n = 0;
  for (int w : words) n += w > 0;
  return n;
}

}  // namespace

class TraceBanksTest : public GuiTest {};

TEST_F(TraceBanksTest, Gfx950WriteB64DrawsItsOwn32BanksAndTheReadTheGpus64) {
  Workbench& b = open(trace_banks_gfx950_spec());
  const nlohmann::json cli = cli_json("analyze", "--gpu gfx950 --shape 64x64 --bits 32 --write-vec-bits 64");
  ASSERT_FALSE(cli.is_discarded());
  ASSERT_EQ(cli["banks"], 64) << "gfx950 has 64 banks";

  ASSERT_TRUE(b.apply(cmd::set_side(Side::Store)));
  frames(3);
  EXPECT_EQ(cli["store"]["instruction"], b.model().analysis.store.instruction);
  EXPECT_EQ(cli["store"]["instruction"], "DS_WRITE_B64") << cli["store"].dump();
  EXPECT_EQ(cli["store"]["banks"], 32) << cli["store"].dump();
  EXPECT_TRUE(b.probe("trace.banks=32").has_value()) << "the store's axis is its instruction's 32 banks";
  TraceBanksDrawn store = trace_banks_drawn(b);
  EXPECT_EQ(store.bars, 32);
  const InstructionResult& step = b.trace().instruction;
  EXPECT_EQ(store.filled, trace_banks_nonzero(step.worst_phase_bank_words));
  EXPECT_EQ(cli["store"]["per_step"][0], step.wavefronts) << "the traced step's count is the CLI's";
  EXPECT_EQ(cli["store"]["wavefronts"], b.model().analysis.store.simulated.wavefronts);
  screenshot_if_asked("SWZ_TRACE_BANKS_STORE_PNG");

  ASSERT_TRUE(b.apply(cmd::set_side(Side::Read)));
  frames(3);
  EXPECT_EQ(cli["read"]["instruction"], "DS_READ_B32") << cli["read"].dump();
  EXPECT_EQ(cli["read"]["banks"], 64) << cli["read"].dump();
  EXPECT_TRUE(b.probe("trace.banks=64").has_value()) << "a 32-bit read is served on the GPU's 64 banks";
  const TraceBanksDrawn read = trace_banks_drawn(b);
  EXPECT_EQ(read.bars, 64);
  EXPECT_EQ(read.filled, trace_banks_nonzero(b.trace().instruction.worst_phase_bank_words));
  EXPECT_EQ(cli["read"]["per_step"][0], b.trace().instruction.wavefronts);
  EXPECT_EQ(cli["read"]["wavefronts"], b.model().analysis.read.simulated.wavefronts);
  screenshot_if_asked("SWZ_TRACE_BANKS_READ_PNG");
}

TEST_F(TraceBanksTest, H100DrawsItsThirtyTwoBanksOnBothSides) {
  ProblemSpec h100;
  h100.shape = {64, 64};
  h100.write_vec_bits = 64;
  Workbench& b = open(h100);
  const nlohmann::json cli = cli_json("analyze", "--shape 64x64 --write-vec-bits 64");
  ASSERT_FALSE(cli.is_discarded());
  for (Side side : {Side::Store, Side::Read}) {
    ASSERT_TRUE(b.apply(cmd::set_side(side)));
    frames(3);
    const char* key = side == Side::Store ? "store" : "read";
    EXPECT_EQ(cli[key]["banks"], 32) << cli[key].dump();
    EXPECT_TRUE(b.probe("trace.banks=32").has_value()) << key;
    EXPECT_EQ(trace_banks_drawn(b).bars, 32) << key;
  }
}

}  // namespace swz::gui::test
