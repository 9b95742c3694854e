// The shared-memory audit on small handwritten modules.
#include "swz/kernel/audit.h"

#include <gtest/gtest.h>

#include "swz/error.h"
#include "swz/kernel/ttgir.h"
#include "swz/kernel/ttgir_module.h"
#include "swz/sim/bank.h"

namespace {

const std::string kHeader =
    R"(#row = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#xor = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 32, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%x: tensor<32x32xf32, #row>) {
)";
const std::string kFooter = "    tt.return\n  }\n}\n";

swz::AuditReport run(const std::string& body) { return swz::audit_module(kHeader + body + kFooter, "k.ttgir"); }

TEST(AuditModule, TransposeThroughUnswizzledBufferConflictsOnTheColumnRead) {
  const auto r = run(
      R"(    %b = ttg.local_alloc %x : (tensor<32x32xf32, #row>) -> !ttg.memdesc<32x32xf32, #plain, #smem, mutable> loc("k.py":3:8)
    %y = ttg.local_load %b : !ttg.memdesc<32x32xf32, #plain, #smem, mutable> -> tensor<32x32xf32, #col> loc("k.py":4:8)
)");
  ASSERT_EQ(r.accesses.size(), 2u);
  const auto& st = r.accesses[0];
  EXPECT_EQ(st.op, "ttg.local_alloc");
  EXPECT_EQ(st.line, 8);
  EXPECT_EQ(st.loc, "k.py:3:8");
  EXPECT_EQ(st.direction, "store");
  // Each lane holds one fp32 of a row, lanes 0-1 four consecutive words: Triton 3.6 stores the
  // rows with stmatrix.x4 (8 rows x 32 words per warp = two of them), 4 wavefronts each.
  EXPECT_EQ(st.instruction, "STSM.x4");
  EXPECT_EQ(st.instructions, 8);
  EXPECT_EQ(st.wavefronts, 4.0);
  EXPECT_FALSE(st.suggestion);
  const auto& ld = r.accesses[1];
  EXPECT_EQ(ld.direction, "load");
  EXPECT_EQ(ld.instruction, "LDS.32");
  EXPECT_EQ(ld.wavefronts, 32.0);  // a column of a 32-word row pitch: one bank
  EXPECT_EQ(ld.ideal_wavefronts, 1);
  EXPECT_EQ(ld.worst_wavefronts, 32);
  EXPECT_EQ(ld.conflicts, 31.0);
  EXPECT_NE(ld.shared_layout.find("#ttg.swizzled_shared"), std::string::npos);
  EXPECT_NE(ld.distributed_layout.find("threadsPerWarp = [32, 1]"), std::string::npos);
  // Both accesses carry the buffer's writer, reader and layout, for the workbench.
  ASSERT_TRUE(st.writer && st.reader && st.shared_offsets && ld.writer && ld.reader);
  EXPECT_EQ(*st.reader, *ld.reader);
  EXPECT_EQ(*ld.writer, *st.writer);
  EXPECT_EQ(st.element_bits, 32);
  ASSERT_TRUE(ld.suggestion);
  EXPECT_EQ(ld.suggestion_wavefronts, 1.0);
  // The suggestion is a layout Triton reads back, and it really is conflict-free for both sides.
  const auto s = swz::ttgir::convert(*ld.suggestion, {32, 32}, 32);
  ASSERT_TRUE(s.shared);
  const auto col = swz::ttgir::convert(
      kHeader.substr(kHeader.find("#col = ") + 7, kHeader.find('\n', kHeader.find("#col = ")) - kHeader.find("#col = ") - 7),
      {32, 32}, 32);
  EXPECT_EQ(swz::simulate(swz::Access{col.linear, swz::AccessKind::Load, 0, 0}, *s.shared, 32, swz::BankModel{}).wavefronts, 1);
}

TEST(AuditModule, XorSwizzledBufferIsConflictFree) {
  const auto r = run(R"(    %b = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #xor, #smem, mutable>
    ttg.local_store %x, %b : tensor<32x32xf32, #row> -> !ttg.memdesc<32x32xf32, #xor, #smem, mutable>
    %y = ttg.local_load %b : !ttg.memdesc<32x32xf32, #xor, #smem, mutable> -> tensor<32x32xf32, #col>
)");
  ASSERT_EQ(r.accesses.size(), 2u);  // the bare allocation is no access
  for (const auto& a : r.accesses) {
    EXPECT_EQ(a.wavefronts, 1.0);
    EXPECT_FALSE(a.suggestion);
  }
}

TEST(AuditModule, ConvertLayoutAcrossWarpsGoesThroughScratch) {
  const auto r = run("    %y = ttg.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>\n");
  ASSERT_EQ(r.accesses.size(), 2u);
  EXPECT_EQ(r.accesses[0].line, r.accesses[1].line);
  EXPECT_EQ(r.accesses[0].direction, "store");
  EXPECT_EQ(r.accesses[1].direction, "load");
  EXPECT_EQ(r.accesses[0].wavefronts, 1.0);
  EXPECT_EQ(r.accesses[1].wavefronts, 1.0);
  EXPECT_NE(r.accesses[0].shared_layout.find("#ttg.shared_linear"), std::string::npos);
  EXPECT_NE(r.accesses[0].note.find("Triton 3.6's scratch layout"), std::string::npos);
  EXPECT_EQ(r.accesses[0].instruction, "STS.32");  // 32-bit, a transpose: nothing in common to vectorise
  EXPECT_EQ(r.accesses[1].instruction, "LDS.32");
}

TEST(AuditModule, ConvertLayoutInsideAWarpNeedsNoSharedMemory) {
  // #row on 32x32: registers rows 4, 8, 16; lanes columns; warps rows 1, 2. The linear layout
  // below keeps each warp's rows and each thread's registers but rotates the lanes: shuffles.
  const auto r = run(R"(    %y = ttg.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #row>
    %z = ttg.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #ttg.linear<{register = [[4, 0], [8, 0], [16, 0]], lane = [[0, 2], [0, 4], [0, 8], [0, 16], [0, 1]], warp = [[1, 0], [2, 0]], block = []}>>
)");
  ASSERT_EQ(r.accesses.size(), 2u);
  EXPECT_EQ(r.accesses[0].instruction, "registers");
  EXPECT_FALSE(r.accesses[0].direction);
  EXPECT_EQ(r.accesses[1].instruction, "shuffle");
  EXPECT_FALSE(r.accesses[1].direction);
  EXPECT_EQ(r.accesses[1].instructions, 8 * 4);  // 8 registers per thread, 4 warps
}

TEST(AuditModule, DotOperandLoadsAreLdmatrix) {
  // 16-byte rows at a 128-byte pitch: unswizzled, ldmatrix.x4 takes 32 wavefronts (hardware.md); with
  // the 128-byte swizzle (vec 8, maxPhase 8), 4. A row-major B operand needs the .trans form.
  const std::string module =
      R"(#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#plain = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @k(%p: !ttg.memdesc<64x64xf16, #plain, #smem>, %s: !ttg.memdesc<64x64xf16, #swz, #smem>) {
    %a = ttg.local_load %p : !ttg.memdesc<64x64xf16, #plain, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = ttg.local_load %s : !ttg.memdesc<64x64xf16, #swz, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %c = ttg.local_load %s : !ttg.memdesc<64x64xf16, #swz, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    tt.return
  }
}
)";
  const auto r = swz::audit_module(module, "l.ttgir");
  ASSERT_EQ(r.accesses.size(), 3u);
  EXPECT_EQ(r.accesses[0].instruction, "LDSM.x4");
  EXPECT_EQ(r.accesses[0].wavefronts, 32.0);
  EXPECT_EQ(r.accesses[0].ideal_wavefronts, 4);
  EXPECT_EQ(r.accesses[0].instructions, 32);  // 64x64 per warp pair, 256 elements per x4, A broadcast over 2 warps
  // The buffer is an argument, laid out where it is made: no suggestion here, and the access says why.
  EXPECT_FALSE(r.accesses[0].suggestion);
  EXPECT_NE(r.accesses[0].no_suggestion.find("not allocated in this module"), std::string::npos) << r.accesses[0].no_suggestion;
  EXPECT_EQ(r.accesses[1].instruction, "LDSM.x4");
  EXPECT_EQ(r.accesses[1].wavefronts, 4.0);
  EXPECT_EQ(r.accesses[2].instruction, "LDSM.x4.trans");
  EXPECT_EQ(r.accesses[2].wavefronts, 4.0);
}

TEST(AuditModule, WgmmaOperandsAreListedNotSimulated) {
  const auto r = swz::audit_module(
      R"(#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @k(%a: !ttg.memdesc<64x64xf16, #nv, #smem>, %b: !ttg.memdesc<64x64xf16, #nv, #smem>, %c: tensor<64x64xf32, #mma>) {
    %d = ttng.warp_group_dot %a, %b, %c {isAsync = true} : !ttg.memdesc<64x64xf16, #nv, #smem> * !ttg.memdesc<64x64xf16, #nv, #smem> -> tensor<64x64xf32, #mma>
    %e = ttng.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<64x64xf32, #mma>
    tt.return
  }
}
)",
      "w.ttgir");
  ASSERT_EQ(r.accesses.size(), 2u);
  for (const auto& a : r.accesses) {
    EXPECT_EQ(a.instruction, "wgmma");
    EXPECT_EQ(a.direction, "load");
    EXPECT_FALSE(a.wavefronts);
    EXPECT_NE(a.shared_layout.find("nvmma_shared"), std::string::npos);
  }
  EXPECT_NE(r.accesses[0].note.find("operand A"), std::string::npos);
  EXPECT_NE(r.accesses[1].note.find("operand B"), std::string::npos);
}

TEST(AuditModule, UnknownOpsAndAttributesAreListedNotSkipped) {
  const auto r = run(
      R"(    %b = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true}>, #smem, mutable>
    ttg.local_store %x, %b : tensor<32x32xf32, #row> -> !ttg.memdesc<32x32xf32, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true}>, #smem, mutable>
    %g = ttg.local_gather %b[%i] : !ttg.memdesc<32x32xf32, #plain, #smem, mutable> -> tensor<32x32xf32, #row>
)");
  ASSERT_EQ(r.accesses.size(), 2u);
  EXPECT_EQ(r.accesses[0].instruction, "not modelled");
  EXPECT_EQ(r.accesses[0].line, 9);
  EXPECT_NE(r.accesses[0].note.find("fp4Padded"), std::string::npos);
  EXPECT_EQ(r.accesses[1].instruction, "not modelled");
  EXPECT_NE(r.accesses[1].note.find("ttg.local_gather"), std::string::npos);
}

TEST(AuditModule, JsonHasTheDocumentedKeys) {
  const auto r =
      run("    %b = ttg.local_alloc %x : (tensor<32x32xf32, #row>) -> !ttg.memdesc<32x32xf32, #plain, #smem, mutable>\n");
  const auto j = swz::to_json(r);
  ASSERT_EQ(j.at("accesses").size(), 1u);
  for (const char* key : {"op", "line", "loc", "direction", "instruction", "instructions", "predicated_off", "wavefronts",
                          "ideal_wavefronts", "worst_wavefronts", "conflicts", "shared_layout", "distributed_layout", "suggestion"})
    EXPECT_TRUE(j["accesses"][0].contains(key)) << key;
  EXPECT_TRUE(j["accesses"][0]["loc"].is_null());
  EXPECT_NE(swz::format_audit(r).find("STSM.x4"), std::string::npos);
}

// DumpAuditor: a module whose text changed between check() and audit() (its file read again) is
// audited as it now reads, not taken for the text check() saw at that place.
TEST(AuditModule, DumpAuditorAuditsTheTextItIsGiven) {
  const std::string load =
      "    %y = ttg.local_load %b : !ttg.memdesc<32x32xf32, #L, #smem, mutable> -> tensor<32x32xf32, #col>\n";
  auto module_with = [&](const std::string& shared) {
    std::string body =
        "    %b = ttg.local_alloc %x : (tensor<32x32xf32, #row>) -> !ttg.memdesc<32x32xf32, #L, #smem, mutable>\n" + load;
    for (std::size_t at = body.find("#L"); at != std::string::npos; at = body.find("#L", at)) body.replace(at, 2, shared);
    return kHeader + body + kFooter;
  };
  const std::string plain = module_with("#plain"), swizzled = module_with("#xor");
  const auto plain_span = swz::ttgir::split_modules(plain), swizzled_span = swz::ttgir::split_modules(swizzled);
  ASSERT_EQ(plain_span.size(), 1u);
  ASSERT_EQ(swizzled_span.size(), 1u);
  ASSERT_EQ(plain_span[0].begin, swizzled_span[0].begin);
  swz::DumpAuditor auditor;
  auditor.check(plain, "k.ttgir", plain_span[0], 1, 1);
  const swz::AuditReport now = auditor.audit(swizzled, "k.ttgir", swizzled_span[0], 1, 1);
  EXPECT_EQ(swz::to_json(now).dump(), swz::to_json(swz::audit_module(swizzled, "k.ttgir")).dump());
  EXPECT_NE(swz::to_json(now).dump(), swz::to_json(swz::audit_module(plain, "k.ttgir")).dump());
  EXPECT_EQ(auditor.audits_done(), 1u);
  // The text check() read is still known, and audited once.
  auditor.check(plain, "k.ttgir", plain_span[0], 1, 1);
  EXPECT_EQ(swz::to_json(auditor.audit(plain, "k.ttgir", plain_span[0], 1, 1)).dump(),
            swz::to_json(swz::audit_module(plain, "k.ttgir")).dump());
  EXPECT_EQ(swz::to_json(auditor.audit(plain, "k.ttgir", plain_span[0], 1, 1)).dump(),
            swz::to_json(swz::audit_module(plain, "k.ttgir")).dump());
  EXPECT_EQ(auditor.audits_done(), 2u);
}

TEST(AuditModule, MalformedModuleThrowsWithPosition) {
  try {
    swz::audit_module("module {\n  %y = ttg.local_load %b : !ttg.memdesc<4x4xf32, #s -> tensor<4x4xf32, #b>\n}\n", "bad.ttgir");
    FAIL();
  } catch (const swz::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("bad.ttgir:2:", 0), 0u);
  }
}

}  // namespace

namespace {

TEST(AuditModule, AmdTargetsArePricedOnTheirGpu) {
  const auto r = swz::audit_module(
      R"(#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @k(%x: tensor<64x64xf16, #blocked>) {
    %a = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return
  }
}
)",
      "amd.ttgir");
  ASSERT_EQ(r.accesses.size(), 1u);
  EXPECT_EQ(r.accesses[0].instruction.rfind("DS_WRITE_B", 0), 0u);
  EXPECT_EQ(r.gpu, "gfx942");  // from ttg.target, priced with its 32 banks and 64-lane phases (gpu.h)
  EXPECT_NE(r.gpu_note.find("gfx942"), std::string::npos);
  EXPECT_EQ(r.accesses[0].note.find("NVIDIA"), std::string::npos);
}

// Triton moves sub-byte elements as bytes: their accesses are priced as Triton issues them, but
// carry no issued access (its addresses are bytes, not this problem's elements), through a buffer
// and through a convert_layout's scratch alike; 8-bit elements carry one.
TEST(AuditModule, SubByteElementsHaveNoIssuedAccess) {
  for (const std::string type : {"i4", "i8"}) {
    SCOPED_TRACE(type);
    std::string text =
        R"(#row = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%x: tensor<32x32xT, #row>) {
    %b = ttg.local_alloc %x : (tensor<32x32xT, #row>) -> !ttg.memdesc<32x32xT, #plain, #smem, mutable>
    %y = ttg.local_load %b : !ttg.memdesc<32x32xT, #plain, #smem, mutable> -> tensor<32x32xT, #col>
    %z = ttg.convert_layout %x : tensor<32x32xT, #row> -> tensor<32x32xT, #col>
    tt.return
  }
}
)";
    for (std::size_t at = text.find("xT,"); at != std::string::npos; at = text.find("xT,", at)) text.replace(at + 1, 1, type);
    const auto r = swz::audit_module(text, "sub_byte.ttgir");
    ASSERT_EQ(r.accesses.size(), 4u);
    for (const swz::AuditAccess& a : r.accesses) {
      SCOPED_TRACE(a.op + " " + a.direction.value_or(""));
      EXPECT_EQ(a.instruction, a.direction == "store" ? "STS.U8" : "LDS.U8");
      EXPECT_EQ(a.issued.has_value(), type == "i8");
    }
  }
}

}  // namespace
