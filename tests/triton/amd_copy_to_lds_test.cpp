// Copies from global memory straight into LDS on AMD targets (ttg.async_copy_global_to_local,
// amdg.buffer_load_to_local): Triton lowers them to the load-to-LDS form of AMD's global / buffer
// loads, whose LDS writes no published table prices. The audit lists them as not modelled with
// that reason, never as NVIDIA's cp.async. None of the Triton 3.6 dumps in
// tests/data/ttgir/targets (gfx942, gfx950) has one, so one is put into a gfx950 matmul here.
#include <gtest/gtest.h>

#include <string>

#include "conversion_data.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"

namespace {

using swz::test::kData;

const char* const kCopyToLdsDump = "gfx950/matmul_fp16_64x64x64_w4s2.ttgir";

// The dump with its first store of A (line 61) replaced by `copy`.
std::string with_copy_to_lds(const std::string& copy) {
  std::string text = swz::read_text_file(kData + "/ttgir/targets/" + kCopyToLdsDump);
  const std::string store =
      "ttg.local_store %a_27, %a_34 : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>";
  const std::size_t at = text.find(store);
  EXPECT_NE(at, std::string::npos);
  if (at != std::string::npos) text.replace(at, store.size(), copy);
  return text;
}

const swz::AuditAccess* access_named(const swz::AuditReport& r, const std::string& op) {
  for (const swz::AuditAccess& a : r.accesses)
    if (a.op == op) return &a;
  return nullptr;
}

TEST(AmdCopyToLds, AsyncCopyIsListedWithItsReason) {
  const swz::AuditReport r = swz::audit_module(
      with_copy_to_lds("%a_copy = ttg.async_copy_global_to_local %a_25, %a_34 mask %acc_26 : tensor<64x64x!tt.ptr<f16>, "
                       "#blocked> -> <64x64xf16, #shared, #smem, mutable>"),
      kCopyToLdsDump);
  ASSERT_EQ(r.gpu, "gfx950");
  const swz::AuditAccess* copy = access_named(r, "ttg.async_copy_global_to_local");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->instruction, "not modelled");
  EXPECT_NE(copy->note.find("straight into LDS"), std::string::npos) << copy->note;
  EXPECT_EQ(copy->note.find("LDGSTS"), std::string::npos) << copy->note;  // not NVIDIA's cp.async
  EXPECT_FALSE(copy->wavefronts.has_value());
}

TEST(AmdCopyToLds, BufferLoadToLocalIsListedWithItsReason) {
  const swz::AuditReport r = swz::audit_module(
      with_copy_to_lds("%a_copy = amdg.buffer_load_to_local %a_ptr[%a_off] into %a_34 : <f16>[tensor<64x64xi32, #blocked>] "
                       "-> <64x64xf16, #shared, #smem, mutable>"),
      kCopyToLdsDump);
  const swz::AuditAccess* copy = access_named(r, "amdg.buffer_load_to_local");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->instruction, "not modelled");
  EXPECT_NE(copy->note.find("straight into LDS"), std::string::npos) << copy->note;
}

}  // namespace
