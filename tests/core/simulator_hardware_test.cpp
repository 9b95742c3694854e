// Every row of reference/hardware.md "Measured" (one warp, one instruction), reproduced
// by the brute-force simulator with the exact wavefront and conflict counts, and the
// seed example's per-instruction table.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "swz/sim/analysis.h"
#include "swz/sim/bank.h"
#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/algebra/lemma.h"
#include "swz/problem/problem.h"

namespace {

using swz::Access;
using swz::AccessKind;
using swz::AccessResult;
using swz::BankModel;
using swz::Coords;
using swz::LinearLayout;
using swz::SharedLayout;

// A 16 KB buffer of fp32 words, row-major: element offset = word address.
constexpr std::int64_t kWords = 4096;
const SharedLayout& buffer() {
  static const SharedLayout b = swz::row_major({kWords});
  return b;
}

// One warp instruction: lane bit i moves the lane's first word by lane_words[i] (XOR-linear
// addresses, as every pattern of the table is); each lane reads vec_bits/32 consecutive words.
Access access(AccessKind kind, int vec_bits, const std::vector<std::int64_t>& lane_words) {
  std::vector<Coords> reg, lane;
  for (std::int64_t w = 1; w < vec_bits / 32; w *= 2) reg.push_back({w});
  for (std::int64_t w : lane_words) lane.push_back({w});
  return Access{swz::distributed({kWords}, reg, lane), kind, 0, vec_bits};
}

AccessResult run(const Access& a, const SharedLayout& s = buffer(), int element_bits = 32) {
  return swz::simulate(a, s, element_bits, BankModel{});
}

void expect_counts(const AccessResult& r, int wavefronts, int conflicts, int instructions = 1) {
  EXPECT_EQ(r.wavefronts, wavefronts);
  EXPECT_EQ(r.conflicts, conflicts);
  EXPECT_EQ(r.ideal_wavefronts, wavefronts - conflicts);
  EXPECT_EQ(r.instructions(), instructions);
}

// Lane address patterns of the table, as word offsets per lane bit t0..t4.
const std::vector<std::int64_t> kLinear32{1, 2, 4, 8, 16};
const std::vector<std::int64_t> kStride32{32, 64, 128, 256, 512};
const std::vector<std::int64_t> kOneWord{0, 0, 0, 0, 0};
const std::vector<std::int64_t> kStride2{2, 4, 8, 16, 32};
const std::vector<std::int64_t> kLinear64{2, 4, 8, 16, 32};
const std::vector<std::int64_t> kHalfWarpRows64{2, 4, 8, 16, 256};   // lane 16-31 one KB further
const std::vector<std::int64_t> kEvenOddRows64{256, 2, 4, 8, 16};    // odd lanes one KB further
const std::vector<std::int64_t> kLinear128{4, 8, 16, 32, 64};
const std::vector<std::int64_t> kQuarterRows128{4, 8, 16, 256, 512};  // each quarter-warp its own KB row
// byte (t>>2)*16 + (t&3)*1024: t0 -> 1024 B, t1 -> 2048 B, t2..t4 -> 16, 32, 64 B.
const std::vector<std::int64_t> kStrided128{256, 512, 4, 8, 16};
const std::vector<std::int64_t> kPairs128{0, 4, 8, 16, 32};
const std::vector<std::int64_t> kGroupsOf8{0, 0, 0, 4, 8};
const std::vector<std::int64_t> kSame128Bytes{4, 8, 16, 0, 0};

TEST(Hardware, Lds32Linear) { expect_counts(run(access(AccessKind::Load, 32, kLinear32)), 1, 0); }
TEST(Hardware, Lds32Stride32Words) { expect_counts(run(access(AccessKind::Load, 32, kStride32)), 32, 31); }
TEST(Hardware, Lds32AllLanesOneWordBroadcast) { expect_counts(run(access(AccessKind::Load, 32, kOneWord)), 1, 0); }
TEST(Hardware, Lds32Stride2Words) { expect_counts(run(access(AccessKind::Load, 32, kStride2)), 2, 1); }
TEST(Hardware, Lds64Linear) { expect_counts(run(access(AccessKind::Load, 64, kLinear64)), 2, 0); }
TEST(Hardware, Lds64HalfWarpsOnDifferentRows) { expect_counts(run(access(AccessKind::Load, 64, kHalfWarpRows64)), 2, 0); }
TEST(Hardware, Lds64EvenOddLanesOnDifferentRows) { expect_counts(run(access(AccessKind::Load, 64, kEvenOddRows64)), 4, 2); }
TEST(Hardware, Lds128Linear) { expect_counts(run(access(AccessKind::Load, 128, kLinear128)), 4, 0); }
TEST(Hardware, Lds128QuarterWarpsOnDifferentRows) { expect_counts(run(access(AccessKind::Load, 128, kQuarterRows128)), 4, 0); }
TEST(Hardware, Lds128StridedByteAddress) { expect_counts(run(access(AccessKind::Load, 128, kStrided128)), 16, 12); }
TEST(Hardware, Lds128LanePairsShareAnAddress) { expect_counts(run(access(AccessKind::Load, 128, kPairs128)), 2, 0); }
TEST(Hardware, Lds128AllLanesOneAddress) { expect_counts(run(access(AccessKind::Load, 128, kOneWord)), 2, 0); }
TEST(Hardware, Lds128GroupsOf8LanesShareAnAddress) { expect_counts(run(access(AccessKind::Load, 128, kGroupsOf8)), 2, 0); }
TEST(Hardware, Lds128AllQuarterWarpsReadTheSame128Bytes) {
  expect_counts(run(access(AccessKind::Load, 128, kSame128Bytes)), 4, 0);
}
TEST(Hardware, Sts128AllLanesOneAddressNeverMerges) { expect_counts(run(access(AccessKind::Store, 128, kOneWord)), 4, 0); }
TEST(Hardware, Sts64PhaseBreaking) { expect_counts(run(access(AccessKind::Store, 64, kEvenOddRows64)), 4, 2); }
TEST(Hardware, Sts128PhaseBreaking) { expect_counts(run(access(AccessKind::Store, 128, kStrided128)), 16, 12); }

TEST(Hardware, MergeFlagOnlyForLoadsThatMerged) {
  EXPECT_TRUE(run(access(AccessKind::Load, 128, kPairs128)).merged);
  EXPECT_TRUE(run(access(AccessKind::Load, 128, kOneWord)).merged);
  EXPECT_TRUE(run(access(AccessKind::Load, 128, kGroupsOf8)).merged);
  EXPECT_FALSE(run(access(AccessKind::Load, 128, kSame128Bytes)).merged);
  EXPECT_FALSE(run(access(AccessKind::Load, 128, kLinear128)).merged);
  EXPECT_FALSE(run(access(AccessKind::Store, 128, kOneWord)).merged);
  EXPECT_FALSE(run(access(AccessKind::Store, 128, kPairs128)).merged);
  EXPECT_EQ(run(access(AccessKind::Store, 128, kPairs128)).wavefronts, 4);
}

TEST(Hardware, PhaseGroupingByWidth) {
  const AccessResult r32 = run(access(AccessKind::Load, 32, kLinear32));
  const AccessResult r64 = run(access(AccessKind::Load, 64, kLinear64));
  const AccessResult r128 = run(access(AccessKind::Load, 128, kLinear128));
  EXPECT_EQ(r32.lanes_per_phase, 32);
  EXPECT_EQ(r32.phases, 1);
  EXPECT_EQ(r64.lanes_per_phase, 16);
  EXPECT_EQ(r64.phases, 2);
  EXPECT_EQ(r128.lanes_per_phase, 8);
  EXPECT_EQ(r128.phases, 4);
  EXPECT_EQ(r128.vector.bits, 128);
  EXPECT_EQ(r128.vector.elements, 4);
}

TEST(Hardware, StridedByteAddressAsAnAddressFunction) {
  // The same LDS.128 through a shared layout written as a byte-address function of the lane:
  // lane t's four words start at byte (t>>2)*16 + (t&3)*1024.
  const SharedLayout s = SharedLayout::from_function(
      {128},
      [](const Coords& c) {
        const std::uint64_t t = static_cast<std::uint64_t>(c[0]) / 4, e = static_cast<std::uint64_t>(c[0]) % 4;
        return ((t >> 2) * 16 + (t & 3) * 1024) / 4 + e;
      },
      "(t>>2)*16 + (t&3)*1024");
  EXPECT_FALSE(s.is_linear());
  const Access a{swz::distributed({128}, {{1}, {2}}, {{4}, {8}, {16}, {32}, {64}}), AccessKind::Load, 0, 0};
  const AccessResult r = run(a, s);
  EXPECT_EQ(r.vector.bits, 128);  // chosen, not requested
  expect_counts(r, 16, 12);
  const AccessResult st = run(Access{a.layout, AccessKind::Store, 0, 0}, s);
  expect_counts(st, 16, 12);
  // Each quarter-warp: lanes 4k..4k+3 of a quarter hit the same 4 banks in 4 KB-apart rows.
  const swz::InstructionResult ir = swz::trace_instruction(a, s, 32, BankModel{}, 0, 0);
  ASSERT_EQ(ir.lanes.size(), 32u);
  EXPECT_EQ(ir.phase_wavefronts, (std::vector<int>{4, 4, 4, 4}));
  for (const auto& la : ir.lanes) {
    const std::uint64_t t = static_cast<std::uint64_t>(la.lane);
    EXPECT_EQ(la.byte_address, (t >> 2) * 16 + (t & 3) * 1024);
    EXPECT_EQ(la.bank, static_cast<int>(((t >> 2) * 4) % 32));
    EXPECT_EQ(la.phase, la.lane / 8);
    EXPECT_EQ(la.words, 4);
  }
  // The algebra does not apply to a non-linear layout, and says so.
  const swz::AccessAnalysis an = swz::analyze_access(a, s, 32, BankModel{});
  EXPECT_FALSE(an.lemma.applies);
  EXPECT_NE(an.difference.find("not linear"), std::string::npos) << an.difference;
}

// ldmatrix.x4 over a row-major fp16 tile whose rows are `row_bytes` wide.
AccessResult ldmatrix_x4(const SharedLayout& s) {
  const auto ld = swz::ldmatrix(4, false, s.shape());
  return swz::simulate(Access{ld.addresses, AccessKind::Load, 4, 0}, s, 16, BankModel{});
}

TEST(Hardware, LdmatrixX4Stride128Unswizzled) {
  const AccessResult r = ldmatrix_x4(swz::row_major({16, 64}));
  EXPECT_EQ(r.lanes_per_phase, 8);
  EXPECT_EQ(r.phases, 4);
  EXPECT_EQ(r.vector.bits, 128);
  expect_counts(r, 32, 28, 4);
  for (int w : r.per_instruction) EXPECT_EQ(w, 32);
}

TEST(Hardware, LdmatrixX4Stride128WithSwizzle343OnBytes) {
  const swz::CuteLayout rm{{{{16, 64}}, {{64, 1}}}};
  const AccessResult r = ldmatrix_x4(swz::cute_swizzle(3, 4, 3, rm, swz::SwizzleUnits::Bytes, 16));
  expect_counts(r, 4, 0, 4);
}

TEST(Hardware, LdmatrixX4Rows64BytesUnswizzled) {
  const AccessResult r = ldmatrix_x4(swz::row_major({16, 32}));
  expect_counts(r, 16, 12, 2);
}

TEST(Hardware, LdmatrixX4Rows64BytesWithSwizzle243OnBytes) {
  const swz::CuteLayout rm{{{{16, 32}}, {{32, 1}}}};
  const AccessResult r = ldmatrix_x4(swz::cute_swizzle(2, 4, 3, rm, swz::SwizzleUnits::Bytes, 16));
  expect_counts(r, 4, 0, 2);
}

TEST(Hardware, LdmatrixIdealIsTheMatrixCount) {
  const SharedLayout s = swz::row_major({16, 16});
  const auto x1 = swz::ldmatrix(1, false, {16, 16});
  const auto x2 = swz::ldmatrix(2, false, {16, 16});
  const AccessResult r1 = swz::simulate(Access{x1.addresses, AccessKind::Load, 1, 0}, s, 16, BankModel{});
  const AccessResult r2 = swz::simulate(Access{x2.addresses, AccessKind::Load, 2, 0}, s, 16, BankModel{});
  EXPECT_EQ(r1.ideal_wavefronts, 1);
  EXPECT_EQ(r1.phases, 1);
  EXPECT_EQ(r2.ideal_wavefronts, 2);
  EXPECT_EQ(r2.phases, 2);
  // 32-byte rows: two rows share each 128-byte line, so 8 rows cover 64 bytes of banks twice.
  EXPECT_EQ(r1.wavefronts, 2);
  EXPECT_EQ(r2.wavefronts, 4);
  // Idle lanes of .x1 are not counted.
  const swz::InstructionResult ir = swz::trace_instruction(Access{x1.addresses, AccessKind::Load, 1, 0}, s, 16, BankModel{}, 0, 0);
  int active = 0;
  for (const auto& la : ir.lanes) active += la.active ? 1 : 0;
  EXPECT_EQ(active, 8);
}

TEST(Hardware, WideElementsUseWidePhases) {
  // fp64 scalars are 64-bit accesses: half-warp phases, ideal 2.
  const SharedLayout s = swz::row_major({1024});
  const Access a{swz::distributed({1024}, {}, {{1}, {2}, {4}, {8}, {16}}), AccessKind::Load, 0, 0};
  const AccessResult r = swz::simulate(a, s, 64, BankModel{});
  EXPECT_EQ(r.vector.bits, 64);
  expect_counts(r, 2, 0);
  // fp64 lane t -> element 16t: every lane of a half-warp in banks 0-1.
  const Access b{swz::distributed({1024}, {}, {{16}, {32}, {64}, {128}, {256}}), AccessKind::Load, 0, 0};
  expect_counts(swz::simulate(b, s, 64, BankModel{}), 32, 30);
}

TEST(Hardware, NarrowElementsShareWords) {
  // fp16 scalars, lane t -> element t: 16 words, one wavefront; lane t -> element 2t: 32 words.
  const SharedLayout s = swz::row_major({2048});
  const Access a{swz::distributed({2048}, {}, {{1}, {2}, {4}, {8}, {16}}), AccessKind::Load, 0, 16};
  expect_counts(swz::simulate(a, s, 16, BankModel{}), 1, 0);
  // fp8, lane t -> element t: 8 words; four lanes share each word.
  const Access c{swz::distributed({2048}, {}, {{1}, {2}, {4}, {8}, {16}}), AccessKind::Load, 0, 8};
  expect_counts(swz::simulate(c, s, 8, BankModel{}), 1, 0);
  // fp8, lane t -> element 64t: 64-byte stride, 16 words in bank 0 and 16 in bank 16.
  const Access b{swz::distributed({2048}, {}, {{64}, {128}, {256}, {512}, {1024}}), AccessKind::Load, 0, 8};
  expect_counts(swz::simulate(b, s, 8, BankModel{}), 16, 15);
  // fp16, lane t -> element 64t: 128-byte stride, 32-way.
  const Access b16{swz::distributed({2048}, {}, {{64}, {128}, {256}, {512}, {1024}}), AccessKind::Load, 0, 16};
  expect_counts(swz::simulate(b16, s, 16, BankModel{}), 32, 31);
}

TEST(Hardware, SeedExampleTable) {
  // 16x32 fp32 transpose, one warp, 16 stores and 16 loads per run (LDS.32 / STS.32).
  swz::Problem p = swz::make_preset("transpose16x32");
  struct Row { std::vector<std::uint32_t> masks; int store, read; };
  for (const Row& row : {Row{{}, 1, 16}, Row{{1, 2, 4, 8}, 1, 2}, Row{{2, 4, 8, 16}, 1, 1}}) {
    p.set_masks(row.masks);
    const swz::ProblemAnalysis a = swz::analyze(p);
    EXPECT_EQ(a.store.simulated.instructions(), 16);
    EXPECT_EQ(a.read.simulated.instructions(), 16);
    EXPECT_EQ(a.store.simulated.vector.bits, 32);
    EXPECT_EQ(a.read.simulated.vector.bits, 32);
    for (int w : a.store.simulated.per_instruction) EXPECT_EQ(w, row.store);
    for (int w : a.read.simulated.per_instruction) EXPECT_EQ(w, row.read);
    EXPECT_EQ(a.read.simulated.total_wavefronts, 16 * row.read);
    EXPECT_TRUE(a.store.agrees());
    EXPECT_TRUE(a.read.agrees());
  }
}

TEST(Hardware, AlgebraAgreesExceptWhereLoadsMerge) {
  struct Case { const char* name; AccessKind kind; int vec; std::vector<std::int64_t> lanes; bool merges; };
  const std::vector<Case> cases{
      {"lds32 linear", AccessKind::Load, 32, kLinear32, false},
      {"lds32 stride 32", AccessKind::Load, 32, kStride32, false},
      {"lds32 one word", AccessKind::Load, 32, kOneWord, false},
      {"lds32 stride 2", AccessKind::Load, 32, kStride2, false},
      {"lds64 linear", AccessKind::Load, 64, kLinear64, false},
      {"lds64 half-warp rows", AccessKind::Load, 64, kHalfWarpRows64, false},
      {"lds64 even/odd rows", AccessKind::Load, 64, kEvenOddRows64, false},
      {"lds128 linear", AccessKind::Load, 128, kLinear128, false},
      {"lds128 quarter rows", AccessKind::Load, 128, kQuarterRows128, false},
      {"lds128 strided", AccessKind::Load, 128, kStrided128, false},
      {"lds128 pairs", AccessKind::Load, 128, kPairs128, true},
      {"lds128 one address", AccessKind::Load, 128, kOneWord, true},
      {"lds128 groups of 8", AccessKind::Load, 128, kGroupsOf8, true},
      {"lds128 same 128 bytes", AccessKind::Load, 128, kSame128Bytes, false},
      {"sts128 one address", AccessKind::Store, 128, kOneWord, false},
      {"sts64 even/odd rows", AccessKind::Store, 64, kEvenOddRows64, false},
      {"sts128 strided", AccessKind::Store, 128, kStrided128, false},
  };
  for (const Case& c : cases) {
    const swz::AccessAnalysis a = swz::analyze_access(access(c.kind, c.vec, c.lanes), buffer(), 32, BankModel{});
    ASSERT_TRUE(a.lemma.applies) << c.name;
    if (!c.merges) {
      EXPECT_TRUE(a.agrees()) << c.name << ": " << a.difference;
      EXPECT_EQ(a.lemma.predicted_wavefronts, a.simulated.wavefronts) << c.name;
      continue;
    }
    // 2^dim per phase says 4; the hardware (and the simulator) says 2, and the output says why.
    EXPECT_EQ(a.lemma.predicted_wavefronts, 4) << c.name;
    EXPECT_EQ(a.simulated.wavefronts, 2) << c.name;
    EXPECT_FALSE(a.agrees()) << c.name;
    EXPECT_NE(a.difference.find("upper bound"), std::string::npos) << c.name << ": " << a.difference;
  }
}

TEST(Hardware, ToyGpuEightBanks) {
  // Seed 001: 8 banks, 8 threads. Column reads of a row-major 8x8 tile: 8-way.
  const BankModel toy{8, 4, 8};
  const SharedLayout rm = swz::row_major({8, 8});
  const Access col{swz::distributed({8, 8}, {{0, 1}, {0, 2}, {0, 4}}, {{1, 0}, {2, 0}, {4, 0}}), AccessKind::Load, 0, 32};
  const AccessResult r = swz::simulate(col, rm, 32, toy);
  EXPECT_EQ(r.lanes_per_phase, 8);
  expect_counts(r, 8, 7, 8);
  expect_counts(swz::simulate(col, swz::toggle_grid({8, 8}, {1, 2, 4}), 32, toy), 1, 0, 8);
}

TEST(Hardware, SimulatorChecksItsInputs) {
  const Access a = access(AccessKind::Load, 32, kLinear32);
  EXPECT_THROW(swz::simulate(a, buffer(), 12, BankModel{}), swz::Error);
  EXPECT_THROW(swz::simulate(a, buffer(), 32, BankModel{24, 4, 32}), swz::Error);
  EXPECT_THROW(swz::simulate(a, buffer(), 32, BankModel{32, 8, 32}), swz::Error);
  EXPECT_THROW(swz::simulate(a, buffer(), 32, BankModel{32, 4, 16}), swz::Error);  // 32 lanes, 16-lane warp
  EXPECT_THROW(swz::simulate(a, swz::row_major({64, 64}), 32, BankModel{}), swz::Error);  // shapes differ
  Access bad_vec = a;
  bad_vec.vec_bits = 96;
  EXPECT_THROW(swz::simulate(bad_vec, buffer(), 32, BankModel{}), swz::Error);
  bad_vec.vec_bits = 256;
  EXPECT_THROW(swz::simulate(bad_vec, buffer(), 32, BankModel{}), swz::Error);
  // A 128-bit request where consecutive registers are not consecutive words.
  const Access strided{swz::distributed({kWords}, {{2}, {4}}, {{8}, {16}, {32}, {64}, {128}}), AccessKind::Load, 0, 128};
  EXPECT_THROW(swz::simulate(strided, buffer(), 32, BankModel{}), swz::Error);
  Access st = access(AccessKind::Store, 128, kLinear128);
  st.ldmatrix = 3;  // stmatrix, like ldmatrix, moves 1, 2 or 4 matrices
  EXPECT_THROW(swz::simulate(st, buffer(), 32, BankModel{}), swz::Error);
  st.ldmatrix = 4;  // a store of 16-byte rows is stmatrix: 8 rows per phase
  EXPECT_EQ(swz::simulate(st, buffer(), 32, BankModel{}).lanes_per_phase, 8);
  EXPECT_THROW(swz::trace_instruction(a, buffer(), 32, BankModel{}, 0, 1), swz::Error);
  EXPECT_THROW(swz::trace_instruction(a, buffer(), 32, BankModel{}, 1, 0), swz::Error);
}

TEST(Hardware, VectorChoiceIsTheWidestBothAllow) {
  // Registers r0, r1 consecutive: 128 bits for fp32; r0 only: 64 bits; none: 32 bits.
  const auto choose = [](const std::vector<Coords>& reg) {
    const Access a{swz::distributed({kWords}, reg, {{16}, {32}, {64}, {128}, {256}}), AccessKind::Load, 0, 0};
    return swz::choose_vector(a, buffer(), 32, BankModel{});
  };
  EXPECT_EQ(choose({{1}, {2}, {4}}).bits, 128);
  EXPECT_EQ(choose({{1}, {2}, {4}}).limit, "128-bit maximum");
  EXPECT_EQ(choose({{1}, {4}}).bits, 64);
  EXPECT_EQ(choose({{2}}).bits, 32);
  EXPECT_EQ(choose({}).bits, 32);
  EXPECT_EQ(choose({}).limit, "no more register bits");
}

}  // namespace
