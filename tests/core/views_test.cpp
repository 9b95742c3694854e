// The core's views of a problem, which the GUI and the SVG figures draw.
#include <gtest/gtest.h>

#include <algorithm>

#include "swz/layout/factories.h"
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

// Accesses with broadcast (several threads or registers holding one element) and gaps (elements no one holds).
std::vector<Access> holder_cases() {
  std::vector<Access> out;
  for (const PresetInfo& info : list_presets()) {
    const Problem p = make_preset(info.name);
    out.push_back(p.store);
    out.push_back(p.read);
  }
  // Registers 1 and 2 hold the same element, lane 16 the same as lane 0: 4 holders each; half the tile unheld.
  out.push_back({distributed({16, 16}, {{0, 1}, {0, 1}, {1, 0}}, {{0, 2}, {0, 4}, {2, 0}, {4, 0}, {0, 0}}, {{0, 8}}),
                 AccessKind::Load, 0, 0});
  return out;
}

TEST(Views, HolderIndexAnswersAsTheTableDoesElementByElement) {
  for (const Access& a : holder_cases()) {
    const std::vector<ElementOwner> table = owners_of(a);
    const HolderIndex index(a);
    std::vector<BitVec> every(table.size());
    for (std::size_t c = 0; c < every.size(); ++c) every[c] = c;
    const std::vector<ElementOwner> listed = owners_of(a, every);
    for (std::size_t c = 0; c < table.size(); ++c) {
      const ElementOwner o = index.owner(c);
      EXPECT_EQ(o.holders, table[c].holders) << c;
      EXPECT_EQ(o.lane, table[c].lane) << c;
      EXPECT_EQ(o.warp, table[c].warp) << c;
      EXPECT_EQ(o.reg, table[c].reg) << c;
      EXPECT_EQ(listed[c].lane, table[c].lane) << c;
    }
  }
}

TEST(Views, HeldWithinAWindowIsTheThreadsElementsInsideIt) {
  for (const Access& a : holder_cases()) {
    const LinearLayout& l = a.layout;
    const int lanes = 1 << l.in_dim_bits("lane"), regs = 1 << l.in_dim_bits("register");
    // The windows of the low 0..all coordinate bits, and one of scattered bits.
    std::vector<BitVec> outsides;
    for (int keep = 0; keep <= l.out_bits(); ++keep) outsides.push_back(low_bits(l.out_bits()) & ~low_bits(keep));
    outsides.push_back(low_bits(l.out_bits()) & BitVec{0x5555});
    for (const BitVec outside : outsides)
      for (int lane = 0; lane < lanes; lane += 5) {
        std::vector<BitVec> want;
        for (int r = 0; r < regs; ++r) {
          const BitVec c = l.apply("lane", static_cast<std::uint64_t>(lane)) ^ l.apply("register", static_cast<std::uint64_t>(r));
          if ((c & outside) == 0) want.push_back(c);
        }
        std::vector<BitVec> got = held_within(a, /*warp=*/0, lane, outside, /*most=*/1u << 20);
        std::sort(want.begin(), want.end());
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, want) << "lane " << lane << " outside " << outside;
      }
  }
}

TEST(Views, AWindowOfMemoryIsTheFirstSegmentsOfTheWhole) {
  Problem p = make_preset("transpose16x32");
  p.set_masks({2, 4, 8, 16});
  const MemoryView whole = memory_view(p);
  const MemoryView first = memory_view(p, /*most_segments=*/5);
  EXPECT_EQ(first.segments, 5u);
  EXPECT_EQ(first.total_segments, whole.segments);
  EXPECT_EQ(whole.total_segments, whole.segments);
  ASSERT_EQ(first.slot_coord.size(), 5u * 32u);
  for (std::size_t i = 0; i < first.slot_coord.size(); ++i) EXPECT_EQ(first.slot_coord[i], whole.slot_coord[i]) << i;
  // Places of some elements are those of the whole table.
  const ElementPlaces all = element_places(p);
  const ElementPlaces some = element_places(p, {7, 300, 511});
  EXPECT_EQ(some.bank, (std::vector<int>{all.bank[7], all.bank[300], all.bank[511]}));
  EXPECT_EQ(some.offset, (std::vector<std::int64_t>{all.offset[7], all.offset[300], all.offset[511]}));
}

TEST(Views, ATensorPastTwoHundredFiftySixOnASideIsDrawnAsItsCorner) {
  EXPECT_FALSE(tensor_window(256, 256).windowed());
  EXPECT_EQ(tensor_window(16, 32).note(), "");
  const TensorWindow w = tensor_window(32768, 32768);
  EXPECT_TRUE(w.windowed());
  EXPECT_EQ(w.shown_rows, 128);
  EXPECT_EQ(w.shown_cols, 128);
  EXPECT_EQ(w.note(), "drawn: rows 0-127 and columns 0-127 of 32768x32768 (a larger picture is unreadable)");
  const TensorWindow row = tensor_window(1, 1024);
  EXPECT_EQ(row.shown_rows, 1);
  EXPECT_EQ(row.shown_cols, 128);
}

}  // namespace
}  // namespace swz
