// The core's views of a problem, which the GUI and the SVG figures draw.
#include <gtest/gtest.h>

#include "swz/sim/analysis.h"
#include "swz/problem/problem.h"
#include "swz/problem/views.h"

namespace swz {
namespace {

TEST(Views, OwnersOfTheSeedWriterAreThreadsAlongRowsAndRegistersDownColumns) {
  // Seed store A: step r, thread t writes (m = r, n = t).
  const Problem p = make_preset("transpose16x32");
  const auto owners = owners_of(p.store);
  ASSERT_EQ(owners.size(), 512u);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 32; ++n) {
      const ElementOwner& o = owners[p.shared.coords().flatten({m, n})];
      EXPECT_EQ(o.lane, n);
      EXPECT_EQ(o.reg, m);
      EXPECT_EQ(o.holders, 1);
      EXPECT_EQ(o.thread(32), n);
    }
}

TEST(Views, PlacesAndMemoryAgreeWithTheBankModelElementByElement) {
  Problem p = make_preset("transpose16x32");
  p.set_masks({2, 4, 8, 16});
  const ElementPlaces places = element_places(p);
  const MemoryView memory = memory_view(p);
  EXPECT_EQ(memory.segments, 16u);  // 16 rows of 32 fp32 words
  EXPECT_EQ(memory.per_word, 1);
  for (BitVec c = 0; c < 512; ++c) {
    const std::uint64_t byte = byte_address_of(p.shared.offset(c), 32);
    EXPECT_EQ(places.bank[c], p.bank.bank_of(byte));
    EXPECT_EQ(places.segment[c], p.bank.segment_of(byte));
    EXPECT_EQ(memory.at(places.segment[c], places.bank[c], 0), static_cast<std::int64_t>(c));
  }
}

TEST(Views, NarrowElementsShareAWordAndPaddingStaysEmpty) {
  const Problem fp16 = make_preset("tma128_fp16");
  const MemoryView m = memory_view(fp16);
  EXPECT_EQ(m.per_word, 2);
  EXPECT_EQ(m.at(0, 0, 1), static_cast<std::int64_t>(fp16.shared.coord_at(1).value()));
  Problem padded = make_preset("transpose16x32");
  padded.apply_variant("padded");
  const MemoryView pm = memory_view(padded);
  std::int64_t empty = 0;
  for (auto c : pm.slot_coord) empty += c < 0 ? 1 : 0;
  EXPECT_EQ(empty, static_cast<std::int64_t>(pm.slot_coord.size()) - 512);
  EXPECT_GT(empty, 0);
}

TEST(Views, TraceOfTheSeedReadGroupsLanesInHalvesAndTouchesOneColumnPair) {
  const Problem p = make_preset("transpose16x32");
  const ProblemAnalysis a = analyze(p);
  const StepTrace t = trace_step(p, AccessKind::Load, a.read.simulated, /*warp=*/0, /*step=*/0);
  EXPECT_EQ(t.instruction.wavefronts, 16);  // the seed's 16-way conflict
  ASSERT_EQ(t.cells.size(), 32u);
  EXPECT_EQ(t.groups, 2);
  EXPECT_EQ(t.group_labels[0], "threads 0-15");
  // Thread t reads (t mod 16, 2r + t/16): step 0 is columns 0 and 1.
  for (const TracedCell& c : t.cells) {
    const auto mn = p.shared.coords().unflatten(c.coord);
    EXPECT_EQ(mn[0], c.lane % 16);
    EXPECT_EQ(mn[1], c.lane / 16);
    EXPECT_EQ(c.group, c.lane / 16);
  }
  // Out-of-range steps are clamped to the access.
  EXPECT_EQ(trace_step(p, AccessKind::Load, a.read.simulated, 5, 99).instruction.step, 15);
}

}  // namespace
}  // namespace swz
