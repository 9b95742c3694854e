// Copies masked lane by lane at a tile's edge (core/src/kernel/audit_pipeline.cpp, per_lane_predicates in
// core/src/sim/bank.cpp), on the matmul users write (`mask=(rm[:, None] < M) & (k + rk < K)`) measured
// on an H200: tests/data/triton/copies/h200-20261129-edge-masks (tests/triton/edge_masks.py, one CTA).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kept_copies.h"
#include "swz/error.h"
#include "swz/kernel/audit.h"

namespace {

const std::string kEdgeDir = std::string(SWZ_TEST_DATA) + "/triton/copies/h200-20261129-edge-masks/";

std::string edge_kernel(const std::string& name) {
  std::ifstream in(kEdgeDir + name + ".ttgir");
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_FALSE(s.str().empty()) << name;
  return s.str();
}

const nlohmann::json& edge_runs() {
  static const nlohmann::json j = nlohmann::json::parse(std::ifstream(kEdgeDir + "edge_masks.json"));
  return j;
}

// A case's launch arguments (M, N, K and the two row pitches) as `--arg` gives them.
swz::ArgumentValues launch_of(const nlohmann::json& c) {
  swz::ArgumentValues out;
  for (const char* k : {"M", "N", "K", "sa", "sb"}) out[k] = c.at(k).get<std::int64_t>();
  return out;
}

const auto edge_copy = swz_test::copy_on_line;
const auto says = swz_test::mentions;

// The audit's LDGSTS wavefronts over the whole kernel: each line's price per instruction times its
// instructions and executions, as Nsight Compute sums them.
double audited_ldgsts_wavefronts(const swz::AuditReport& r) {
  double total = 0;
  for (const auto& a : r.accesses)
    if (a.op == "ttg.async_copy_global_to_local" && a.wavefronts)
      total +=
          a.issued_wavefronts.value_or(*a.wavefronts) * static_cast<double>(a.instructions) * static_cast<double>(a.executions);
  return total;
}

double measured_wavefronts(const nlohmann::json& c) {
  double total = 0;
  for (const auto& i : c.at("ldgsts")) total += i.at("wavefronts").get<double>();
  return total;
}

// fp16 128x128x64 with B's columns past N = 96 masked (its rows 256 bytes apart): each B instruction
// moves 24 lanes' data and masks 8; measured 32 wavefronts over 4 executions in the prologue. The
// src-size form's write-only count gives 8, where every lane live gives 4 (the price before masks
// were read lane by lane).
TEST(AuditEdge, APartlyMaskedCopyCountsItsWriteOnlyCount) {
  const nlohmann::json& c = edge_runs()["kernels"]["fp16_128x128x64_w4s3"]["cases"]["n_edge"];
  const auto& b_stage0 = c["ldgsts"][8];  // the SASS's ninth LDGSTS: B's first stage (shared 0xc000)
  ASSERT_TRUE(says(b_stage0["sass"].get<std::string>(), "+0xc000]"));
  EXPECT_EQ(b_stage0["wavefronts"].get<int>() / b_stage0["executions"].get<int>(), 8);

  const swz::AuditReport r = swz::audit_module(edge_kernel("fp16_128x128x64_w4s3"), "edge.ttgir", "", launch_of(c));
  const swz::AuditAccess& b = edge_copy(r, 86);
  ASSERT_TRUE(b.issued_wavefronts);
  EXPECT_DOUBLE_EQ(*b.issued_wavefronts, 8.0);
  EXPECT_TRUE(says(b.note, "1 partly masked at 8.00")) << b.note;
  EXPECT_TRUE(says(b.note, "(mask %acc_53 with %K = 256 (given), %N = 96 (given))")) << b.note;
  EXPECT_TRUE(says(b.note, "at program %pid_n = 0")) << b.note;
  // The loop: two iterations at the edge, the last two predicated off whole (their ideal, 4).
  EXPECT_TRUE(says(edge_copy(r, 156).note, "2 predicated off at 4.00, 2 partly masked at 8.00")) << edge_copy(r, 156).note;
}

// Every case whose rows lie a multiple of 128 bytes apart: the kernel's LDGSTS wavefronts equal the
// audit's, the edge in M (whole instructions masked: predicated off), in N and in K's last tile.
TEST(AuditEdge, Fp16KernelAtEachEdgeEqualsTheCounters) {
  const auto& cases = edge_runs()["kernels"]["fp16_128x128x64_w4s3"]["cases"];
  for (const char* name : {"live", "m_edge", "n_edge", "n_edge_again", "k_tail"}) {
    const nlohmann::json& c = cases[name];
    const swz::AuditReport r = swz::audit_module(edge_kernel("fp16_128x128x64_w4s3"), "edge.ttgir", "", launch_of(c));
    EXPECT_DOUBLE_EQ(audited_ldgsts_wavefronts(r), measured_wavefronts(c)) << name;
  }
  // The measured counts the old price (every lane live: 1,536) fell under.
  EXPECT_EQ(measured_wavefronts(cases["n_edge"]), 2048);
  EXPECT_EQ(measured_wavefronts(cases["k_tail"]), 1664);
}

// A mask whose bound is not given is read with every lane live, and the line says which argument
// would price the edge; the program ids are named like arguments.
TEST(AuditEdge, AMaskWithoutItsBoundSaysWhatItReads) {
  const swz::AuditReport r =
      swz::audit_module(edge_kernel("fp16_128x128x64_w4s3"), "edge.ttgir", "", {{"K", 256}, {"sa", 256}, {"sb", 128}});
  const swz::AuditAccess& b = edge_copy(r, 86);
  EXPECT_TRUE(says(b.note, "its mask %acc_53 not evaluated: it reads %N, not given")) << b.note;
  ASSERT_TRUE(b.issued_wavefronts);
  EXPECT_DOUBLE_EQ(*b.issued_wavefronts, 4.0);

  // N = 224: program 0 along y is whole, program 1 has columns 224-255 masked.
  swz::ArgumentValues args{{"M", 128}, {"N", 224}, {"K", 256}, {"sa", 256}, {"sb", 256}};
  EXPECT_DOUBLE_EQ(
      *edge_copy(swz::audit_module(edge_kernel("fp16_128x128x64_w4s3"), "edge.ttgir", "", args), 86).issued_wavefronts, 4.0);
  args["pid_n"] = 1;
  const swz::AuditReport at_program_1 = swz::audit_module(edge_kernel("fp16_128x128x64_w4s3"), "edge.ttgir", "", args);
  const swz::AuditAccess& edge = edge_copy(at_program_1, 86);
  EXPECT_TRUE(says(edge.note, "1 partly masked at 8.00")) << edge.note;
  EXPECT_FALSE(says(edge.note, "at program")) << edge.note;  // given, not taken

  try {
    (void)swz::audit_module(edge_kernel("fp16_128x128x64_w4s3"), "edge.ttgir", "", {{"pid_w", 1}});
    ADD_FAILURE() << "an unknown name was taken";
  } catch (const swz::Error& e) {
    EXPECT_TRUE(says(e.what(), "its program ids: %pid_m, %pid_n")) << e.what();
  }
}

// An unsigned comparison reads both sides as unsigned (arith.cmpi ult): the same mask with `ult`
// prices N = 96 as `slt` does, and N = -32 (0xffffffe0 as i32, past every column) as every lane live.
TEST(AuditEdge, AnUnsignedMaskComparesUnsigned) {
  std::string text = edge_kernel("fp16_128x128x64_w4s3");
  const std::string sign = "%b_25 = arith.cmpi slt,";
  ASSERT_NE(text.find(sign), std::string::npos);
  text.replace(text.find(sign), sign.size(), "%b_25 = arith.cmpi ult,");
  swz::ArgumentValues args{{"M", 128}, {"N", 96}, {"K", 256}, {"sa", 256}, {"sb", 128}};
  const swz::AuditReport r = swz::audit_module(text, "edge.ttgir", "", args);
  EXPECT_TRUE(says(edge_copy(r, 86).note, "1 partly masked at 8.00")) << edge_copy(r, 86).note;
  args["N"] = -32;
  const swz::AuditReport past = swz::audit_module(text, "edge.ttgir", "", args);
  const swz::AuditAccess& b = edge_copy(past, 86);
  ASSERT_TRUE(b.issued_wavefronts);
  EXPECT_DOUBLE_EQ(*b.issued_wavefronts, 4.0);
  EXPECT_FALSE(says(b.note, "not evaluated")) << b.note;
  EXPECT_FALSE(says(b.note, "partly masked")) << b.note;
  EXPECT_FALSE(says(b.note, "predicated off")) << b.note;
}

}  // namespace
