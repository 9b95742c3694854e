// The solver on every preset and on the production shapes the issue lists:
// each answer is simulated, meets the Lemma 9.5 bound, and is conflict-free
// whenever the bound says it can be.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/algebra/lemma.h"
#include "swz/solve/solver.h"

namespace swz {
namespace {

// The simulator's verdict under the solved layout, against the claim and the bound.
void expect_optimal(const Access& a, const Access& b, int ebits, const BankModel& model, const std::string& what) {
  SCOPED_TRACE(what);
  const SolveResult r = solve(a, b, ebits, model);
  // The accesses as the kernel issues them (registers renumbered where the solver says so).
  const AccessResult wa = simulate(r.writer, r.shared, ebits, model), rb = simulate(r.reader, r.shared, ebits, model);
  EXPECT_EQ(wa.wavefronts, r.write.wavefronts);
  EXPECT_EQ(rb.wavefronts, r.read.wavefronts);
  EXPECT_LE(r.write.wavefronts, r.claimed_write_wavefronts);
  EXPECT_LE(r.read.wavefronts, r.claimed_read_wavefronts);
  EXPECT_EQ(r.claimed_write_wavefronts, r.bound.write_wavefronts);
  EXPECT_EQ(r.claimed_read_wavefronts, r.bound.read_wavefronts);
  if (r.bound.write_conflict_dim == 0 && r.bound.read_conflict_dim == 0) {
    EXPECT_TRUE(r.conflict_free);
    EXPECT_EQ(wa.wavefronts, wa.ideal_wavefronts);
    EXPECT_EQ(rb.wavefronts, rb.ideal_wavefronts);
  }
  // The lemma, run independently on the table, agrees with the construction.
  const LemmaResult la = predict(r.writer, r.shared, ebits, model, wa.vector.bits),
                    lb = predict(r.reader, r.shared, ebits, model, rb.vector.bits);
  EXPECT_EQ(la.predicted_wavefronts, r.claimed_write_wavefronts);
  EXPECT_EQ(lb.predicted_wavefronts, r.claimed_read_wavefronts);
  EXPECT_FALSE(r.trace.empty());
}

TEST(SolverCases, EveryPreset) {
  for (const auto& info : list_presets()) {
    const Problem p = make_preset(info.name);
    expect_optimal(p.store, p.read, p.element_bits, p.bank, info.name);
  }
}

Access store(LinearLayout l) { return Access{std::move(l), AccessKind::Store, 0, 0}; }
Access load(LinearLayout l) { return Access{std::move(l), AccessKind::Load, 0, 0}; }

TEST(SolverCases, Transposes128x128) {
  const std::vector<std::int64_t> shape{128, 128};
  for (int ebits : {8, 16, 32, 64})
    for (std::int64_t warps : {4, 8}) {
      const std::int64_t v = 128 / ebits, t1 = std::min<std::int64_t>(32, 128 / v), t0 = 32 / t1;
      const auto rows = blocked({1, v}, {t0, t1}, {warps, 1}, {1, 0}, shape);
      const auto cols = blocked({v, 1}, {t1, t0}, {1, warps}, {0, 1}, shape);
      const std::string what = fmt::format("fp{} transpose, {} warps", ebits, warps);
      expect_optimal(store(rows), load(cols), ebits, BankModel{}, what);
      expect_optimal(store(cols), load(rows), ebits, BankModel{}, what + " (reversed)");
    }
}

TEST(SolverCases, MmaOperandsFedByLdmatrix) {
  for (int matrices : {1, 2, 4})
    for (std::vector<std::int64_t> shape : {std::vector<std::int64_t>{64, 64}, std::vector<std::int64_t>{128, 32}}) {
      const std::int64_t chunks = std::min<std::int64_t>(32, shape[1] / 8);  // 16-byte chunks per row
      const auto copy = blocked({1, 8}, {32 / chunks, chunks}, {4, 1}, {1, 0}, shape);
      const LdMatrix lm = ldmatrix(matrices, false, shape, {4, 1});  // the copy's 4 warps read it back
      const std::string what = fmt::format("ldmatrix.x{} on {}x{}", matrices, shape[0], shape[1]);
      expect_optimal(store(copy), Access{lm.addresses, AccessKind::Load, matrices, 0}, 16, BankModel{}, what);
    }
}

TEST(SolverCases, BlockedToMma) {
  const std::vector<std::int64_t> shape{64, 64};
  const auto global = blocked({1, 8}, {4, 8}, {4, 1}, {1, 0}, shape);
  const auto global_cols = blocked({8, 1}, {8, 4}, {1, 4}, {0, 1}, shape);
  for (auto op : {MmaOperand::A, MmaOperand::B, MmaOperand::C})
    for (const auto& [src, name] : {std::pair{global, "row-blocked"}, std::pair{global_cols, "column-blocked"}}) {
      const auto mma = mma_m16n8k16(op, shape, {2, 2});
      const std::string what = fmt::format("{} to mma operand {}", name, static_cast<int>(op));
      expect_optimal(store(src), load(mma), 16, BankModel{}, what);
      expect_optimal(store(mma), load(src), 16, BankModel{}, what + " (reversed)");
    }
}

TEST(SolverCases, BroadcastLanesAndNonUnitRegisters) {
  // cute8x8's reader repeats rows across lanes 8-31 (zero lane bases); registers that
  // are sums of unit vectors (m0 ^ n1) must work as any other direction.
  const std::vector<std::int64_t> shape{16, 32};
  const auto a = distributed(shape, {{1, 2}, {2, 0}, {4, 0}, {8, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}});
  const auto b = distributed(shape, {{0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}}, {{1, 0}, {2, 0}, {0, 0}, {8, 0}, {4, 1}});
  expect_optimal(store(a), load(b), 32, BankModel{}, "broadcast and non-unit bases");
}

TEST(SolverCases, WideVectorsSplitIntoPhases) {
  // 64-bit and 128-bit vectors: half- and quarter-warp phases drop the top lane bits.
  const std::vector<std::int64_t> shape{64, 64};
  for (std::int64_t v : {2, 4}) {
    const auto a = blocked({1, v}, {4, 8}, {2, 1}, {1, 0}, shape);
    const auto b = blocked({1, v}, {32, 1}, {1, 2}, {1, 0}, shape);
    // Capped at v elements: left free, both sides renumber their registers up to 128 bits.
    const SolveOptions cap{static_cast<int>(32 * v), static_cast<int>(32 * v)};
    const SolveResult r = solve(store(a), load(b), 32, BankModel{}, cap);
    EXPECT_EQ(r.vec_bits, 32 * v);
    EXPECT_EQ(r.split_a.size(), v == 2 ? 1u : 2u);
    EXPECT_EQ(r.write.ideal_wavefronts, static_cast<int>(v));
    expect_optimal(store(a), load(b), 32, BankModel{}, fmt::format("{}-bit vectors", 32 * v));
  }
}

TEST(SolverCases, FallbackIsMinimalAndSaysSo) {
  // The reader insists on 128-bit vectors along n0, n1 that the writer does not share;
  // the writer's 32 lanes then all have the same two low offset bits, so they reach
  // only 8 banks: 4 wavefronts is the minimum, and the solver must say so.
  const std::vector<std::int64_t> shape{32, 32};
  const auto a = distributed(shape, {{1, 0}, {2, 0}, {4, 0}, {0, 1}, {0, 2}}, {{0, 4}, {0, 8}, {0, 16}, {8, 0}, {16, 0}});
  const auto b = distributed(shape, {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}}, {{0, 4}, {0, 8}, {0, 16}, {8, 0}, {16, 0}});
  Access reader = load(b);
  reader.vec_bits = 128;
  Access writer = store(a);
  writer.vec_bits = 32;  // free, the writer would vectorise on n0, n1 too (its registers 8 and 16) and avoid all conflicts
  const SolveResult r = solve(writer, reader, 32, BankModel{});
  EXPECT_EQ(r.read.vector.bits, 128);
  EXPECT_TRUE(r.fallback);
  EXPECT_FALSE(r.conflict_free);
  EXPECT_EQ(r.write.wavefronts, 4);
  EXPECT_EQ(r.bound.write_wavefronts, 4);
  EXPECT_EQ(r.padding.size(), 2u);
  expect_optimal(writer, reader, 32, BankModel{}, "forced reader vector");
}

TEST(SolverCases, BadInputIsOneLine) {
  const Problem p = make_preset("transpose16x32");
  const auto other_shape = distributed({32, 16}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {16, 0}});
  EXPECT_THROW(solve(p.store, load(other_shape), 32, BankModel{}), Error);
  EXPECT_THROW(solve(p.store, p.read, 12, BankModel{}), Error);
  EXPECT_THROW(solve(p.store, p.read, 32, BankModel{24, 4, 32}), Error);
  Access odd = p.read;
  odd.vec_bits = 48;
  EXPECT_THROW(solve(p.store, odd, 32, BankModel{}), Error);
  odd = p.read;
  odd.ldmatrix = 4;  // ldmatrix needs three distinct leading register directions; this reader's are fine, but it is a load of
                     // 32-bit elements
  EXPECT_NO_THROW(solve(p.store, odd, 32, BankModel{}));
  Access stored_ldmatrix = p.store;  // stmatrix .x5 does not exist
  stored_ldmatrix.ldmatrix = 5;
  EXPECT_THROW(solve(stored_ldmatrix, p.read, 32, BankModel{}), Error);
  SolveOptions cap;
  cap.write_vec_bits = 48;
  EXPECT_THROW(solve(p.store, p.read, 32, BankModel{}, cap), Error);
  cap.write_vec_bits = 256;
  EXPECT_THROW(solve(p.store, p.read, 32, BankModel{}, cap), Error);
  // A reader on 2 warps against a writer on 1: different thread counts.
  const auto two_warps = distributed({16, 32}, {{0, 2}, {0, 4}, {0, 8}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}}, {{0, 16}});
  EXPECT_THROW(solve(p.store, load(two_warps), 32, BankModel{}), Error);
  // A reader that holds some elements twice and others never.
  const auto repeats = distributed({16, 32}, {{0, 2}, {0, 4}, {0, 8}, {0, 2}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}});
  EXPECT_THROW(solve(p.store, load(repeats), 32, BankModel{}), Error);
  try {
    solve(p.store, load(other_shape), 32, BankModel{});
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace swz

namespace swz {
namespace {

TEST(SolverCases, TradeOffPicksTheLowerTotalAndSaysSo) {
  // 128-bit writes leave the reader 2-way conflicts (4 wavefronts per 64-bit read instead of 2);
  // 64-bit writes let both sides be conflict-free: 64 wavefronts in all against 96.
  const std::vector<std::int64_t> shape{32, 32};
  const auto a = distributed(shape, {{4, 4}, {0, 1}, {2, 0}, {4, 16}, {8, 2}}, {{1, 0}, {2, 8}, {16, 0}, {4, 0}, {8, 0}});
  const auto b = distributed(shape, {{0, 17}, {16, 4}, {0, 8}, {2, 2}, {2, 16}}, {{12, 0}, {1, 0}, {2, 8}, {16, 0}, {8, 0}});
  const SolveResult r = solve(store(a), load(b), 32, BankModel{});
  EXPECT_EQ(r.write.vector.bits, 64);
  EXPECT_EQ(r.read.vector.bits, 64);
  EXPECT_TRUE(r.conflict_free);
  EXPECT_EQ(r.write.total_wavefronts + r.read.total_wavefronts, 64);
  EXPECT_NE(r.tradeoff.find("128-bit writes and 64-bit reads would cost 96"), std::string::npos) << r.tradeoff;
  const auto wider = std::find_if(r.choices.begin(), r.choices.end(),
                                  [](const WidthChoice& c) { return c.built && c.write_vec_bits == 128 && c.read_vec_bits == 64; });
  ASSERT_NE(wider, r.choices.end());
  EXPECT_EQ(wider->total_wavefronts, 96);
  // The alternative is real: asked for 128-bit writes, the best layout costs what the choice says.
  Access wide_writer = store(a);
  wide_writer.vec_bits = 128;
  const SolveResult forced = solve(wide_writer, load(b), 32, BankModel{});
  EXPECT_EQ(forced.write.total_wavefronts + forced.read.total_wavefronts, 96);
  EXPECT_FALSE(forced.conflict_free);
  // And the trace says so, for the workbench's replay.
  const auto cost = std::find_if(r.trace.begin(), r.trace.end(), [](const SolveStep& s) { return s.title == "Cost"; });
  ASSERT_NE(cost, r.trace.end());
  EXPECT_NE(cost->sentence.find("narrower vectors win"), std::string::npos);
}

TEST(SolverCases, WidthIsProvedWidest) {
  // The seed's layouts, free: the reader holds n1..n4 (128 bits on its own) and the writer m0..m3; no
  // register direction is common, so with plain loads and stores whichever side vectorises, the
  // other is scalar.
  const Problem p = make_preset("transpose16x32");
  Access w = p.store, rd = p.read;
  w.vec_bits = rd.vec_bits = 0;
  SolveOptions plain;
  plain.matrix_instructions = false;
  const SolveResult r = solve(w, rd, 32, BankModel{}, plain);
  EXPECT_EQ(r.width.write_max_bits, 128);
  EXPECT_EQ(r.width.read_max_bits, 128);
  EXPECT_EQ(r.width.common_max_bits, 32);
  EXPECT_EQ(std::min(r.write.vector.bits, r.read.vector.bits), 32);
  EXPECT_EQ(std::max(r.write.vector.bits, r.read.vector.bits), 128);
  // With stmatrix / ldmatrix both sides move 128 bits per lane: a lane's four words come from four rows.
  const SolveResult m = solve(w, rd, 32, BankModel{});
  EXPECT_EQ(m.write.vector.bits, 128);
  EXPECT_EQ(m.read.vector.bits, 128);
  EXPECT_TRUE(m.conflict_free);
  EXPECT_EQ(m.write_cost.instructions + m.read_cost.instructions, 8);
  EXPECT_TRUE(m.write_cost.instruction.starts_with("STSM") || m.read_cost.instruction.starts_with("LDSM"))
      << m.write_cost.instruction << " / " << m.read_cost.instruction;
  // Capped at 32 bits: the seed's answer, n ^ 2m.
  SolveOptions cap;
  cap.write_vec_bits = cap.read_vec_bits = 32;
  EXPECT_EQ(solve(w, rd, 32, BankModel{}, cap).shared, p.layout_for_masks({2, 4, 8, 16}));
}

}  // namespace
}  // namespace swz
