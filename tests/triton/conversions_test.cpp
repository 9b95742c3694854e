// The solver side by side with Triton 3.6 on the conversions it lowers through
// shared memory, as the H100 measured them (tests/data/triton/conversions,
// made by measure_conversions.py under Nsight Compute, one CTA per kernel):
// Triton's own optimal-swizzling test problems that fit a 32-lane warp,
// 128x128 transposes and mma / dot-operand <-> blocked conversions at 8, 16
// and 32 bits with 4 and 8 warps.
//
// Triton's side of each row is read from the hardware: instructions = the
// kernel's shared-memory SASS (straight-line code, so static count x warps,
// cross-checked with the executed-instruction counters), wavefronts = the
// LSU wavefront counters (ld includes ldmatrix, st includes stmatrix), width =
// bits a lane moves per instruction. Ours: the solver's answer, simulated.
// Every row: our width >= Triton's on both sides, our total wavefronts and our
// instructions <= Triton's.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <map>

#include "swz/sim/corpus.h"
#include "swz/layout/factories.h"
#include "swz/io/layout_io.h"
#include "conversion_data.h"
#include "swz/solve/solver.h"

namespace {

using swz::test::bases;
using swz::test::kData;
using swz::test::layout_of;
using swz::Access;
using swz::AccessKind;
using swz::Coords;

struct Side {
  std::int64_t instructions = 0;
  double wavefronts = 0;
  int vec_bits = 0;
  std::string ops;
};

struct Row {
  std::string name, origin;
  int bits = 0, warps = 0;
  Side triton_st, triton_ld;
  swz::SolveResult ours;
};

// Triton's side from the SASS and the counters.
Side measured(const nlohmann::json& c, const char* prefix, const char* wavefront_metric, const nlohmann::json& side_layout) {
  Side s;
  const int warps = c["warps"].get<int>();
  std::vector<std::string> ops;
  for (const auto& [op, count] : c["sass_shared_ops"].items())
    if (op.rfind(prefix, 0) == 0) {
      s.instructions += count.get<std::int64_t>() * warps;
      ops.push_back(fmt::format("{} x{}", op, count.get<int>() * warps));
    }
  s.ops = fmt::format("{}", fmt::join(ops, ", "));
  s.wavefronts = c["counters"][wavefront_metric].get<double>();
  int regs = 0;
  for (const auto& b : side_layout["register"])
    if (b != nlohmann::json::array({0, 0})) ++regs;
  const std::int64_t bits_per_thread = (std::int64_t{1} << regs) * c["bits"].get<int>();
  if (s.instructions > 0) s.vec_bits = static_cast<int>(bits_per_thread * warps / s.instructions);
  return s;
}

std::vector<Row> rows(swz::SolveOptions opt = {}) {
  const auto doc = nlohmann::json::parse(swz::read_text_file(kData + "/triton/conversions/h100-triton36.json"));
  std::vector<Row> out;
  for (const auto& c : doc["cases"]) {
    Row r;
    r.name = c["name"];
    r.origin = c["origin"];
    r.bits = c["bits"];
    r.warps = c["warps"];
    const auto shape = c["shape"].get<std::vector<std::int64_t>>();
    r.triton_st = measured(c, "STS", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", c["src"]);
    r.triton_ld = measured(c, "LDS", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", c["dst"]);
    // The counters agree with the SASS where they count instructions (stmatrix is not in op_shared_st).
    const auto& k = c["counters"];
    const bool stsm = c["sass_shared_ops"].dump().find("STSM") != std::string::npos;
    const bool ldsm = c["sass_shared_ops"].dump().find("LDSM") != std::string::npos;
    if (!stsm) EXPECT_EQ(r.triton_st.instructions, k["smsp__sass_inst_executed_op_shared_st.sum"].get<double>()) << r.name;
    if (!ldsm) EXPECT_EQ(r.triton_ld.instructions, k["smsp__sass_inst_executed_op_shared_ld.sum"].get<double>()) << r.name;
    if (ldsm) EXPECT_EQ(r.triton_ld.instructions, k["smsp__sass_inst_executed_op_ldsm.sum"].get<double>()) << r.name;
    r.ours = swz::solve(Access{layout_of(c["src"], shape), AccessKind::Store, 0, 0},
                        Access{layout_of(c["dst"], shape), AccessKind::Load, 0, 0}, r.bits, swz::BankModel{}, opt);
    out.push_back(std::move(r));
  }
  return out;
}

TEST(TritonConversions, NeverBehindTriton36OnTheH100) {
  const auto all = rows();
  ASSERT_EQ(all.size(), 24u);
  std::cout << "| conversion | Triton 3.6 store | Triton 3.6 load | Triton: instr. / wavefronts | ours: store / load | ours: "
               "instr. / wavefronts |\n|---|---|---|---|---|---|\n";
  for (const Row& r : all) {
    SCOPED_TRACE(r.name);
    const std::int64_t ours = r.ours.write.total_wavefronts + r.ours.read.total_wavefronts;
    const std::int64_t ours_instr = r.ours.write.instructions() + r.ours.read.instructions();
    const double theirs = r.triton_st.wavefronts + r.triton_ld.wavefronts;
    const std::int64_t theirs_instr = r.triton_st.instructions + r.triton_ld.instructions;
    std::cout << fmt::format("| {} | {} | {} | {} / {} | {} x{} / {} x{} | {} / {} |\n", r.name, r.triton_st.ops, r.triton_ld.ops,
                             theirs_instr, theirs, r.ours.write_cost.instruction, r.ours.write.instructions(),
                             r.ours.read_cost.instruction, r.ours.read.instructions(), ours_instr, ours);
    EXPECT_LE(static_cast<double>(ours), theirs);
    EXPECT_LE(ours_instr, theirs_instr);
    EXPECT_TRUE(r.ours.conflict_free);
    // Each side at least as wide as Triton's.
    EXPECT_GE(r.ours.write.vector.bits, r.triton_st.vec_bits);
    EXPECT_GE(r.ours.read.vector.bits, r.triton_ld.vec_bits);
  }
}

// The answers themselves ran on the H100 (tests/data/hardware/h100-sm90-solver-answers.jsonl, made
// with `swizzle solve --probe-cases` and `swizzle calibrate --input`): today's answers issue exactly
// those instructions, and the counters gave the wavefronts the model predicts for each.
TEST(TritonConversions, OurAnswersWereMeasuredOnTheH100) {
  const auto measured = swz::read_corpus_file(kData + "/hardware/h100-sm90-solver-answers.jsonl");
  std::map<std::string, const swz::CorpusCase*> by_name;
  for (const auto& c : measured) by_name[c.pattern] = &c;
  swz::SolveOptions full;
  full.check = swz::SolveOptions::Check::Full;
  std::size_t seen = 0;
  for (const Row& r : rows(full)) {
    for (const auto& pr : swz::probe_requests(r.ours, swz::BankModel{})) {
      const auto it = by_name.find(r.name + ": solver " + pr.name);
      ASSERT_NE(it, by_name.end()) << r.name << " " << pr.name << " was not measured";
      EXPECT_EQ(it->second->request.address, pr.request.address) << r.name << " " << pr.name;
      EXPECT_EQ(it->second->request.kind.name(), pr.request.kind.name()) << r.name << " " << pr.name;
      EXPECT_EQ(it->second->device, "NVIDIA H100 80GB HBM3");
      EXPECT_EQ(it->second->wavefronts, swz::serve(pr.request, swz::BankModel{}).wavefronts) << r.name << " " << pr.name;
      ++seen;
    }
  }
  EXPECT_EQ(seen, measured.size());
}

}  // namespace

namespace {

// Triton's other optimal-swizzling test problems, which no H100 runs (4-bit elements; AMD's
// 64-lane waves with 32 and 64 banks): its tests expect no conflict on either side. Ours: no
// conflict either, and each side at least as wide as the register directions both sides share
// (the vector Triton's construction starts from, capped at 128 bits).
TEST(TritonConversions, TritonsOtherSwizzleTestProblems) {
  struct Problem {
    const char* name;
    std::vector<std::int64_t> shape;
    int bits, banks, lanes;
    std::vector<Coords> src_reg, src_lane, src_warp, dst_reg, dst_lane, dst_warp;
  };
  const std::vector<Problem> problems = {
      {"16x256 u4 blocked -> mma", {16, 256}, 4, 32, 32,
       {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}, {8, 0}}, {{0, 32}, {0, 64}, {0, 128}, {1, 0}, {2, 0}}, {},
       {{0, 1}, {0, 2}, {0, 4}, {8, 0}, {0, 32}, {0, 64}, {0, 128}}, {{0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}}, {}},
      {"64x128 f16 blocked -> linear, 32 banks, 64 lanes", {64, 128}, 16, 32, 64,
       {{0, 1}, {0, 2}, {0, 4}, {16, 0}, {32, 0}}, {{0, 8}, {0, 16}, {0, 32}, {0, 64}, {1, 0}, {2, 0}}, {{4, 0}, {8, 0}},
       {{0, 1}, {0, 2}, {0, 8}, {0, 16}, {0, 32}, {0, 64}, {32, 0}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 4}},
       {{0, 0}, {0, 0}}},
      {"64x128 f16 blocked -> mfma, 64 banks, 64 lanes", {64, 128}, 16, 64, 64,
       {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}}, {{0, 8}, {0, 16}, {0, 32}, {0, 64}, {4, 0}, {8, 0}}, {{16, 0}, {32, 0}},
       {{1, 0}, {2, 0}, {8, 0}, {16, 0}, {32, 0}, {0, 32}, {0, 64}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}},
       {{0, 0}, {0, 0}}},
  };
  for (const auto& p : problems) {
    SCOPED_TRACE(p.name);
    const auto src = swz::distributed(p.shape, p.src_reg, p.src_lane, p.src_warp);
    const auto dst = swz::distributed(p.shape, p.dst_reg, p.dst_lane, p.dst_warp);
    const swz::BankModel model{p.banks, 4, p.lanes};
    const auto r = swz::solve(Access{src, AccessKind::Store, 0, 0}, Access{dst, AccessKind::Load, 0, 0}, p.bits, model);
    EXPECT_TRUE(r.conflict_free);
    const int w = src.out_bits();
    const int shared = swz::Subspace::span(src.bases("register"), w).intersect(swz::Subspace::span(dst.bases("register"), w)).dim();
    const int common_bits = std::min(128, (1 << shared) * p.bits);
    EXPECT_GE(r.write.vector.bits, common_bits);
    EXPECT_GE(r.read.vector.bits, common_bits);
  }
}

}  // namespace
