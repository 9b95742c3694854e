// gfx950's transposing LDS read (ds_read_b64_tr_b16) in the audit of Triton 3.6's gfx950 dumps
// (tests/data/ttgir/targets/gfx950): a local_load into an MFMA operand whose K is not the
// buffer's contiguous dim is priced as the transposing read Triton issues there
// (third_party/amd/lib/TritonAMDGPUToLLVM/MemoryOpToLLVM.cpp, TransLocalLoadOpConversion), its
// lanes at the addresses of Triton's chooseLLDsReadB64TrLayout
// (lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "conversion_data.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"

namespace {

using swz::test::kData;

swz::AuditReport audit_target_dump(const std::string& relative, std::string_view gpu = "") {
  return swz::audit_module(swz::read_text_file(kData + "/ttgir/targets/" + relative), relative, gpu);
}

// The local_loads of a matmul dump: A's buffer is K-contiguous (order [1, 0] over M x K), B's is
// N-contiguous (order [1, 0] over K x N), so only B's K is not contiguous.
std::vector<const swz::AuditAccess*> operand_loads(const swz::AuditReport& r, bool b_operand) {
  std::vector<const swz::AuditAccess*> loads;
  for (const swz::AuditAccess& a : r.accesses)
    if (a.op == "ttg.local_load" && (a.distributed_layout.find("opIdx = 1") != std::string::npos) == b_operand)
      loads.push_back(&a);
  return loads;
}

TEST(AmdReadTr, Gfx950BOperandOfSixteenBitMatmulsIsTheTransposingRead) {
  for (const char* dump : {"gfx950/matmul_fp16_128x128x64_w8s2.ttgir", "gfx950/matmul_bf16_128x128x64_w8s2.ttgir",
                           "gfx950/matmul_fp16_64x64x64_w4s2.ttgir", "gfx950/matmul_bf16_128x128x32_w4s2.ttgir"}) {
    SCOPED_TRACE(dump);
    const swz::AuditReport r = audit_target_dump(dump);
    ASSERT_EQ(r.gpu, "gfx950");
    const auto b = operand_loads(r, true), a = operand_loads(r, false);
    ASSERT_FALSE(b.empty());
    ASSERT_FALSE(a.empty());
    for (const swz::AuditAccess* load : b) {
      EXPECT_EQ(load->instruction, "DS_READ_B64_TR_B16") << load->line;
      EXPECT_NE(load->note.find("TransLocalLoadOpConversion"), std::string::npos) << load->note;
      ASSERT_TRUE(load->issued.has_value());
      EXPECT_TRUE(load->issued->trans);
      EXPECT_EQ(load->issued->vec_bits, 64);
      ASSERT_TRUE(load->ideal_wavefronts.has_value());
      EXPECT_EQ(*load->ideal_wavefronts, 2);  // 64 lanes x 64 bits on 64 banks: 2 phases of 32
    }
    for (const swz::AuditAccess* load : a) EXPECT_EQ(load->instruction, "DS_READ_B128") << load->line;  // K contiguous
  }
}

// The lanes' addresses against Triton's own hand-written form of the same layout (the
// chooseDotDsReadB64TrLayout of LinearLayoutConversions.cpp before chooseLLDsReadB64TrLayout
// replaced it for 16 bits): B of 64 x 128 f16 under a 32x32 MFMA, kWidth 8, in [K, N] coordinates:
//   registers: N 1, N 2 (the 4 elements of one 64-bit read), K 4 (the second sub-tile), K 16, K 32
//   lanes:     N 4, N 8, K 1, K 2 (16 lanes exchange), N 16, K 8
TEST(AmdReadTr, LaneAddressesAreTritonsTransposedReadLayout) {
  const swz::AuditReport r = audit_target_dump("gfx950/matmul_fp16_128x128x64_w8s2.ttgir");
  const auto b = operand_loads(r, true);
  ASSERT_FALSE(b.empty());
  ASSERT_TRUE(b[0]->issued.has_value());
  const swz::LinearLayout& issued = b[0]->issued->layout;
  ASSERT_EQ(issued.shape(), (std::vector<std::int64_t>{64, 128}));
  auto as_bases = [&](const std::vector<std::pair<std::int64_t, std::int64_t>>& k_n) {
    std::vector<swz::BitVec> bases;
    for (auto [k, n] : k_n) bases.push_back(issued.flatten({k, n}));
    return bases;
  };
  EXPECT_EQ(issued.bases("register"), as_bases({{0, 1}, {0, 2}, {4, 0}, {16, 0}, {32, 0}}));
  EXPECT_EQ(issued.bases("lane"), as_bases({{0, 4}, {0, 8}, {1, 0}, {2, 0}, {0, 16}, {8, 0}}));
}

TEST(AmdReadTr, EightBitOperandsSayTheirTransposingReadIsNotModelled) {
  const swz::AuditReport r = audit_target_dump("gfx950/matmul_fp8_128x128x64_w8s2.ttgir");
  const auto b = operand_loads(r, true);
  ASSERT_FALSE(b.empty());
  for (const swz::AuditAccess* load : b) {
    EXPECT_NE(load->instruction, "DS_READ_B64_TR_B16");
    EXPECT_NE(load->note.find("ds_read_b64_tr_b8"), std::string::npos) << load->note;
  }
}

TEST(AmdReadTr, Gfx942HasNoTransposingRead) {
  // The gfx950 kernel priced on gfx942 (--gpu gfx942): the same B load, without the instruction.
  const swz::AuditReport r = audit_target_dump("gfx950/matmul_fp16_128x128x64_w8s2.ttgir", "gfx942");
  ASSERT_EQ(r.gpu, "gfx942");
  const auto b = operand_loads(r, true);
  ASSERT_FALSE(b.empty());
  for (const swz::AuditAccess* load : b) {
    EXPECT_NE(load->instruction, "DS_READ_B64_TR_B16");
    EXPECT_EQ(load->note.find("TransLocalLoadOpConversion"), std::string::npos);
  }
}

}  // namespace
