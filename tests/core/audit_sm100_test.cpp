// The audit reads Triton 3.6's sm_100 dumps (tests/data/ttgir/targets/sm_100, compiled for
// GPUTarget("cuda", 100, 32) with no such GPU): tensor-memory ops are named as such (no shared
// access to price), tcgen05 operands carry their type, major and descriptor mode, and the consumer
// rule knows tcgen05's operand majorness per type (sm100.h; CuTe's sm100 selector: tf32 MN-major
// only as SWIZZLE_128B_BASE32B, which #ttg.nvmma_shared cannot express, triton issue #9252).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"

namespace swz {
namespace {

const std::filesystem::path kSm100Dumps = std::filesystem::path(SWZ_TEST_DATA_DIR) / "ttgir" / "targets" / "sm_100";

AuditReport audit_sm100_dump(const std::string& name) {
  const std::string path = (kSm100Dumps / name).string();
  return audit_module(read_text_file(path), path);
}

bool sm100_tensor_memory_op(const std::string& op) {
  return op == "ttng.tmem_alloc" || op == "ttng.tmem_store" || op == "ttng.tmem_load" || op == "ttng.tc_gen5_mma";
}

TEST(AuditSm100, EveryDumpReadsTmemAndTcgen05Ops) {
  int dumps = 0, tmem = 0, operands = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSm100Dumps)) {
    if (entry.path().extension() != ".ttgir") continue;
    ++dumps;
    const AuditReport r = audit_sm100_dump(entry.path().filename().string());
    for (const AuditAccess& a : r.accesses) {
      if (!sm100_tensor_memory_op(a.op)) continue;
      EXPECT_NE(a.instruction, "not modelled") << entry.path().filename() << ":" << a.line << " " << a.op << ": " << a.note;
      if (a.op == "ttng.tc_gen5_mma" && a.instruction != "tensor memory") {
        ++operands;
        EXPECT_EQ(a.instruction, "tcgen05.mma");
        EXPECT_NE(a.note.find("-major: SWIZZLE_"), std::string::npos) << a.note;
      } else {
        ++tmem;
        EXPECT_EQ(a.instruction, "tensor memory");
        EXPECT_NE(a.note.find("no shared access to price"), std::string::npos) << a.note;
        if (a.op == "ttng.tc_gen5_mma") EXPECT_NE(a.note.find("read from tensor memory (TMEM)"), std::string::npos) << a.note;
      }
    }
  }
  EXPECT_EQ(dumps, 22);
  EXPECT_GT(tmem, 0);
  EXPECT_GT(operands, 0);
}

TEST(AuditSm100, Tf32OperandsAreKMajorAndTheRuleSaysWhy) {
  const AuditReport r = audit_sm100_dump("matmul_tf32_64x64x64_w4s2.ttgir");
  int b_operands = 0, refused = 0;
  for (const AuditAccess& a : r.accesses) {
    if (a.op == "ttng.tc_gen5_mma" && a.note.rfind("operand B", 0) == 0) {
      ++b_operands;
      // Triton keeps tf32 B K-major (nvmma_shared transposed = true).
      EXPECT_NE(a.note.find("f32 as tf32, K-major: SWIZZLE_128B; MN-major it would need SWIZZLE_128B_BASE32B"), std::string::npos)
          << a.note;
    }
    // B arrives N-contiguous into the K-major tile: conflicted, and no nvmma_shared layout the tcgen05 rule allows does better.
    if (a.instruction.rfind("LDGSTS", 0) == 0 && a.wavefronts && *a.wavefronts > 1.0) {
      EXPECT_FALSE(a.suggestion);
      EXPECT_NE(a.no_suggestion.find("tcgen05 operand B (f32 as tf32)"), std::string::npos) << a.no_suggestion;
      refused += a.no_suggestion.find("#ttg.nvmma_shared cannot express it") != std::string::npos;
    }
  }
  EXPECT_GT(b_operands, 0);
  EXPECT_GT(refused, 0);
}

TEST(AuditSm100, F16OperandsKeepTheirModes) {
  const AuditReport r = audit_sm100_dump("matmul_fp16_64x64x64_w4s2.ttgir");
  bool a_seen = false, b_seen = false;
  for (const AuditAccess& a : r.accesses) {
    if (a.op != "ttng.tc_gen5_mma") continue;
    a_seen |= a.note.rfind("operand A (f16, K-major: SWIZZLE_", 0) == 0;
    b_seen |= a.note.rfind("operand B (f16, ", 0) == 0;
    EXPECT_EQ(a.note.find("BASE32B"), std::string::npos) << a.note;  // f16 is not bound to the 32-byte atom
  }
  EXPECT_TRUE(a_seen);
  EXPECT_TRUE(b_seen);
}

}  // namespace
}  // namespace swz
