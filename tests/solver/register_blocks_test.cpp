// The solver's register suggestion: each lane a block along both dims of a transpose, so both
// sides move 16-byte vectors (the peers' 4- and 16-rows-per-lane tiles, measured on the H100).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <string>

#include "swz/io/layout_io.h"
#include "swz/layout/factories.h"
#include "swz/problem/problem.h"
#include "swz/solve/solve_report.h"

namespace swz {
namespace {

// A copy's layout of an m x n tile: 16 bytes along dim `fast` per lane, one row, then lanes, warps,
// and the rest in registers (tests/gpu/cases.cpp transpose_access with one row per lane).
LinearLayout one_row(std::int64_t m, std::int64_t n, int element_bits, int fast, int warps_log2) {
  const std::vector<std::int64_t> shape{m, n};
  std::vector<Coords> bits;
  for (const int dim : {fast, 1 - fast})
    for (std::int64_t v = 1; v < shape[static_cast<std::size_t>(dim)]; v <<= 1) bits.push_back(dim == 0 ? Coords{v, 0} : Coords{0, v});
  const int vec = std::countr_zero(static_cast<unsigned>(128 / element_bits));
  std::vector<Coords> reg(bits.begin(), bits.begin() + vec), lane(bits.begin() + vec, bits.begin() + vec + 5),
      warp(bits.begin() + vec + 5, bits.begin() + vec + 5 + warps_log2);
  reg.insert(reg.end(), bits.begin() + vec + 5 + warps_log2, bits.end());
  return distributed(shape, reg, lane, warp);
}

Problem transpose(std::int64_t m, std::int64_t n, int element_bits, int warps_log2) {
  Problem p;
  p.name = "custom";
  p.shape = {m, n};
  p.element_bits = element_bits;
  p.store.kind = AccessKind::Store;
  p.store.layout = one_row(m, n, element_bits, 1, warps_log2);
  p.read.kind = AccessKind::Load;
  p.read.layout = one_row(m, n, element_bits, 0, warps_log2);
  return p;
}

// Every block bit is a register basis of both layouts, the lanes and warps are as many as before,
// and each side's own 16-byte vector is where it was.
void expect_blocks(const Problem& p, const RegisterSuggestion& s, int rows) {
  const int vec = std::countr_zero(static_cast<unsigned>(128 / p.element_bits));
  for (const auto& [given, got] : {std::pair{p.store.layout, s.write_layout}, std::pair{p.read.layout, s.read_layout}}) {
    for (const char* dim : {"register", "lane", "warp"}) EXPECT_EQ(given.in_dim_bits(dim), got.in_dim_bits(dim)) << dim;
    EXPECT_TRUE(got.is_invertible());
    const auto& regs = got.bases("register");
    for (int i = 0; i < vec; ++i) EXPECT_EQ(regs[static_cast<std::size_t>(i)], given.bases("register")[static_cast<std::size_t>(i)]);
    for (int d = 0; d < 2; ++d)
      for (int i = 0; i < std::min(vec, std::countr_zero(static_cast<unsigned>(rows))); ++i)
        EXPECT_NE(std::find(regs.begin(), regs.end(), BitVec{1} << (got.out_offset(d) + i)), regs.end()) << "dim " << d << " bit " << i;
  }
}

TEST(RegisterBlocks, Fp8LanesTakeAsManyRowsAsTheirRegistersHold) {
  // 128x128 fp8, 8 warps: 64 bytes a lane, so 16 bytes along its row in 4 rows; STS.U8 x512 and
  // LDSM.x4 x32 become STS.128 / LDS.128, 32 each.
  const Problem p = transpose(128, 128, 8, 3);
  const SolveReport report = solve_problem(p);
  EXPECT_EQ(report.result.write_cost.instruction, "STS.U8");
  ASSERT_TRUE(report.registers.has_value());
  const RegisterSuggestion& s = *report.registers;
  EXPECT_EQ(s.rows, 4);
  EXPECT_EQ(s.result.write_cost.instruction, "STS.128");
  EXPECT_EQ(s.result.read_cost.instruction, "LDS.128");
  EXPECT_EQ(s.result.total_instructions(), 64);
  EXPECT_EQ(report.result.total_instructions(), 544);
  EXPECT_TRUE(s.result.conflict_free);
  expect_blocks(p, s, 4);
  // 128x256 with 4 warps holds 256 bytes a lane: a square 16 x 16 block.
  const Problem wide = transpose(128, 256, 8, 2);
  const SolveReport square = solve_problem(wide);
  ASSERT_TRUE(square.registers.has_value());
  EXPECT_EQ(square.registers->rows, 16);
  EXPECT_EQ(square.registers->result.write_cost.instruction, "STS.128");
  EXPECT_EQ(square.registers->result.read_cost.instruction, "LDS.128");
  expect_blocks(wide, *square.registers, 16);
}

TEST(RegisterBlocks, Fp32ReaderTakesSixteenBytesFromFourRows) {
  const Problem p = transpose(64, 64, 32, 2);
  const SolveReport report = solve_problem(p);
  EXPECT_EQ(report.result.read_cost.instruction, "LDS.32");
  ASSERT_TRUE(report.registers.has_value());
  EXPECT_EQ(report.registers->rows, 4);
  EXPECT_EQ(report.registers->result.read_cost.instruction, "LDS.128");
  EXPECT_EQ(report.registers->result.total_instructions(), 64);
  EXPECT_EQ(report.result.total_instructions(), 160);
  expect_blocks(p, *report.registers, 4);
  // The JSON carries both layouts, which read back as the suggestion's.
  const nlohmann::json j = to_json(report).at("register_blocks");
  EXPECT_EQ(j.at("rows_per_lane"), 4);
  EXPECT_EQ(j.at("read").at("instruction"), "LDS.128");
  EXPECT_EQ(j.at("instructions"), 64);
  EXPECT_EQ(layout_from_json(j.at("write_layout")).layout, report.registers->write_layout);
  EXPECT_EQ(layout_from_json(j.at("read_layout")).layout, report.registers->read_layout);
}

TEST(RegisterBlocks, NoneWhereNothingIsSaved) {
  // fp16: STS.128 and LDSM.x4.trans already move 16 bytes a lane on both sides.
  const SolveReport fp16 = solve_problem(transpose(128, 128, 16, 2));
  EXPECT_EQ(fp16.result.read_cost.instruction, "LDSM.x4.trans");
  EXPECT_FALSE(fp16.registers.has_value());
  EXPECT_TRUE(to_json(fp16).at("register_blocks").is_null());
  // Blocks already: the suggestion's own layouts give nothing more.
  const Problem fp32 = transpose(64, 64, 32, 2);
  const SolveReport first = solve_problem(fp32);
  ASSERT_TRUE(first.registers.has_value());
  Problem blocked = fp32;
  blocked.store.layout = first.registers->write_layout;
  blocked.read.layout = first.registers->read_layout;
  EXPECT_FALSE(solve_problem(blocked).registers.has_value());
  // An ldmatrix reader's layout gives the rows lanes address, not the elements they hold.
  Problem ldsm = transpose(64, 64, 32, 2);
  ldsm.read.ldmatrix = 4;
  EXPECT_FALSE(suggest_register_blocks(ldsm, first.result, SolveOptions{}).has_value());
}

}  // namespace
}  // namespace swz
