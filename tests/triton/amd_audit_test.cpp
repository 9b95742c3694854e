// The audit of Triton 3.6 kernels compiled for AMD CDNA3 (gfx942) and CDNA4 (gfx950), as dumped in
// tests/data/ttgir/targets: every op read, fixes held to what Triton's AMD passes make, bad
// attributes refused in one line.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "conversion_data.h"
#include "swz/error.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"
#include "swz/kernel/ttgir.h"
#include "swz/kernel/ttgir_module.h"

namespace {

using swz::test::kData;

std::vector<std::filesystem::path> amd_dumps() {
  std::vector<std::filesystem::path> files;
  for (const char* target : {"gfx942", "gfx950"})
    for (const auto& e : std::filesystem::directory_iterator(kData + "/ttgir/targets/" + target))
      if (e.path().extension() == ".ttgir") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string amd_dump(const std::string& relative) { return swz::read_text_file(kData + "/ttgir/targets/" + relative); }

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(AmdAudit, EveryAmdDumpIsReadWithNoOpLeftOut) {
  const auto files = amd_dumps();
  ASSERT_EQ(files.size(), 36u);  // 18 kernels for each of gfx942 and gfx950 (tests/data/ttgir/targets/README.md)
  int accesses = 0;
  for (const auto& f : files) {
    const swz::AuditReport r = swz::audit_module(swz::read_text_file(f.string()), f.string());
    EXPECT_EQ(r.gpu, f.parent_path().filename().string()) << f;  // gfx942 / gfx950, from ttg.target
    for (const auto& a : r.accesses) {
      EXPECT_NE(a.instruction, "not modelled") << f << " line " << a.line << " " << a.op << ": " << a.note;
      EXPECT_EQ(a.note.find("NVIDIA bank rules"), std::string::npos) << f << " line " << a.line << ": " << a.note;
      if (a.instruction != "shuffle" && a.instruction != "registers")
        EXPECT_EQ(a.instruction.rfind("DS_", 0), 0u) << f << " line " << a.line << ": " << a.instruction;
      ++accesses;
    }
  }
  EXPECT_GT(accesses, 100);
}

TEST(AmdAudit, RotatingSharedOperandIsPricedAfterTheInThreadTranspose) {
  // gfx942 fp16 matmul: B goes global -> amdg.in_thread_transpose (registers only) -> local_alloc into
  // #ttg.amd_rotating_shared -> local_load as an MFMA operand. Both LDS accesses are priced.
  const swz::AuditReport r =
      swz::audit_module(amd_dump("gfx942/matmul_fp16_128x128x64_w8s2.ttgir"), "gfx942/matmul_fp16_128x128x64_w8s2.ttgir");
  ASSERT_EQ(r.accesses.size(), 4u);
  for (const auto& a : r.accesses) {
    EXPECT_TRUE(a.wavefronts.has_value()) << a.line;
    EXPECT_NE(a.op, "amdg.in_thread_transpose");
  }
  EXPECT_NE(r.accesses[2].shared_layout.find("amd_rotating_shared"), std::string::npos);
  EXPECT_EQ(r.accesses[2].instruction, "DS_WRITE_B64");  // the transpose left 4 K-contiguous f16 per lane
}

TEST(AmdAudit, FixOfAnUnswizzledMfmaOperandIsTritonsOwnLayout) {
  // The gfx942 fp16 matmul with its A buffer unswizzled: the ds_read_b64 of the MFMA operand
  // conflicts. The fix keeps vec = kWidth = 4 and the buffer's order and lands on the layout
  // Triton's AMDMfmaEncodingAttr::composeSharedLayoutForOperand() gives this operand: 32 banks, 64
  // f16 per row, so perPhase = max(1, 32 * 32 / 16 / 64) = 1, maxPhase = min(16 / 1, 64 / 4) = 16.
  const std::string swizzled = "#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>";
  const std::string original = amd_dump("gfx942/matmul_fp16_128x128x64_w8s2.ttgir");
  ASSERT_NE(original.find("#shared = " + swizzled), std::string::npos);
  const std::string text = replaced(original, "#shared = " + swizzled,
                                    "#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>");
  const swz::AuditReport before = swz::audit_module(text, "unswizzled.ttgir");
  ASSERT_EQ(before.suggestions.size(), 1u);
  EXPECT_EQ(before.suggestions[0].new_layout, swizzled);
  const std::string fixed = swz::fix_module(text, before);
  EXPECT_NE(fixed.find("#shared = " + swizzled), std::string::npos);
  const swz::AuditReport after = swz::audit_module(fixed, "fixed.ttgir");
  for (const auto& a : after.accesses) EXPECT_EQ(*a.wavefronts, static_cast<double>(*a.ideal_wavefronts)) << a.line;
}

TEST(AmdAudit, FixesOnAmdAreOnlyLayoutsItsPassesMake) {
  // Every suggestion on a mutated AMD matmul: a swizzled_shared in the buffer's order with vec =
  // kWidth of the MFMA operand read from it (never nvmma_shared or shared_linear, NVIDIA's and the
  // solver's forms), perPhase x maxPhase at most 16, maxPhase x vec at most the contiguous dim.
  const std::regex form(R"(#ttg\.swizzled_shared<\{vec = (\d+), perPhase = (\d+), maxPhase = (\d+), order = \[1, 0\]\}>)");
  int checked = 0;
  for (const char* file : {"gfx942/matmul_fp16_128x128x64_w8s2.ttgir", "gfx942/matmul_fp8_128x128x64_w8s2.ttgir"}) {
    const std::string original = amd_dump(file);
    std::smatch shared;
    const std::regex alias(R"(#shared = (#ttg\.swizzled_shared<[^\n]*>))");
    ASSERT_TRUE(std::regex_search(original, shared, alias)) << file;
    const std::string text =
        replaced(original, shared[1].str(), "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 1, order = [1, 0]}>");
    const swz::AuditReport r = swz::audit_module(text, file);
    ASSERT_FALSE(r.suggestions.empty()) << file;
    for (const auto& s : r.suggestions) {
      std::smatch m;
      ASSERT_TRUE(std::regex_match(s.new_layout, m, form)) << s.new_layout;
      const int vec = std::stoi(m[1]), per_phase = std::stoi(m[2]), max_phase = std::stoi(m[3]);
      const int k_width = std::string(file).find("fp16") != std::string::npos ? 4 : 8;  // the dumps' dot_op kWidth
      EXPECT_EQ(vec, k_width) << s.new_layout;
      EXPECT_LE(per_phase * max_phase, 16) << s.new_layout;
      EXPECT_LE(max_phase * vec, 64) << s.new_layout;  // A is 128x64: 64 K elements per row
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2);
}

TEST(AmdAudit, BadAmdAttributesGiveOneLine) {
  const std::string original = amd_dump("gfx942/matmul_fp16_128x128x64_w8s2.ttgir");
  const std::string rotating = "#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>";
  struct BadAmdCase {
    std::string from, to, expected;
  };
  const std::vector<BadAmdCase> cases{
      {rotating, "#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, ordr = [0, 1]}>", "has no key 'ordr'"},
      {rotating, "#ttg.amd_rotatng_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>",
       "did you mean #ttg.amd_rotating_shared?"},
      {rotating, "#ttg.amd_rotating_shared<{vec = 0, perPhase = 1, maxPhase = 16, order = [0, 1]}>", "vec = 0 is not positive"},
      {"isTransposed = true}>", "isTransposd = true}>", "has no key 'isTransposd'"},
  };
  for (const auto& c : cases) {
    try {
      (void)swz::audit_module(replaced(original, c.from, c.to), "bad.ttgir");
      ADD_FAILURE() << c.to << " was accepted";
    } catch (const swz::Error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("bad.ttgir:", 0), 0u) << what;
      EXPECT_NE(what.find(c.expected), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
  // An MFMA shape Triton does not have: the accesses through it say so, the rest are priced.
  const swz::AuditReport r =
      swz::audit_module(replaced(original, "instrShape = [32, 32, 8]", "instrShape = [48, 48, 8]"), "shape.ttgir");
  int refused = 0;
  for (const auto& a : r.accesses)
    if (a.instruction == "not modelled") {
      EXPECT_NE(a.note.find("instrShape 48x48"), std::string::npos) << a.note;
      ++refused;
    }
  EXPECT_EQ(refused, 2);
}

// The access on `line` of `r` (the first when a line has several).
const swz::AuditAccess& access_on(const swz::AuditReport& r, int line) {
  for (const auto& a : r.accesses)
    if (a.line == line) return a;
  throw swz::Error("no access on line " + std::to_string(line));
}

TEST(AmdAudit, Gfx942MatmulCountsByHand) {
  // gfx942 (32 banks of 4 bytes; 64-bit LDS accesses in 4 phases of 16 lanes, Triton PR #9662), fp16
  // 128x128x64, 8 warps, mfma 32x32 with warpsPerCTA [2, 4], kWidth 4.
  const swz::AuditReport r =
      swz::audit_module(amd_dump("gfx942/matmul_fp16_128x128x64_w8s2.ttgir"), "gfx942/matmul_fp16_128x128x64_w8s2.ttgir");
  EXPECT_EQ(r.gpu, "gfx942");
  // Line 65, A (128x64, K contiguous, swizzled vec 4, perPhase 1, maxPhase 16) into operand A: each lane
  // reads kWidth = 4 f16 = 64 bits (DS_READ_B64). A warp holds 64 of the 128 rows (2 warps along M, the 4
  // along N repeat them): 64 x 64 / (64 lanes x 4) = 16 reads a warp, 128 for 8 warps. Lanes 0-31 are rows
  // m = 0..31 at one 4-element K chunk, lanes 32-63 the next chunk. A row is 128 bytes, all 32 banks; row m
  // XORs chunk m % 16 into its 8-byte chunk index, so the 16 lanes of a phase (rows m..m+15, one chunk)
  // land on 16 different chunks, banks 2c and 2c+1: one wavefront a phase, 4 an instruction, no conflict.
  const auto& a = access_on(r, 65);
  EXPECT_EQ(a.instruction, "DS_READ_B64");
  EXPECT_EQ(a.instructions, 128);
  EXPECT_EQ(a.wavefronts, 4.0);
  EXPECT_EQ(a.ideal_wavefronts, 4);
  // Line 68, B (64x128 amd_rotating_shared, vec 4, perPhase 1, maxPhase 16, K contiguous) into operand B:
  // a warp holds 64 x 32 (4 warps along N): 8 reads a warp, 64 in all. Lanes 0-15 are n = 0..15 at one K
  // chunk: n XORs chunk (n % 16) ^ (n / 16 % 16) = n, 16 chunks of a 128-byte row, distinct banks; lanes
  // 16-31 (n = 16..31) XOR (n % 16) ^ 1: distinct again. 4 wavefronts, the ideal.
  const auto& b = access_on(r, 68);
  EXPECT_EQ(b.instruction, "DS_READ_B64");
  EXPECT_EQ(b.instructions, 64);
  EXPECT_EQ(b.wavefronts, 4.0);
  EXPECT_EQ(b.ideal_wavefronts, 4);
  // Line 67, the store of B after amdg.in_thread_transpose: 4 K-contiguous f16 a lane (DS_WRITE_B64), 64 lanes
  // along n, 64 x 128 / (64 x 4) = 32 writes; the same chunks as the reads above: 4 wavefronts.
  const auto& w = access_on(r, 67);
  EXPECT_EQ(w.instruction, "DS_WRITE_B64");
  EXPECT_EQ(w.instructions, 32);
  EXPECT_EQ(w.wavefronts, 4.0);
}

TEST(AmdAudit, Gfx950ReadsOfSixteenBytesUseItsPhases) {
  // gfx950 (64 banks; DS_READ_B128 in 4 phases of 16 lanes that are cosets of span(l0, l1, l2^l3, l2^l4),
  // Triton PR #11365, HipKittens' measured table): phase 0 = lanes {0-3, 12-15, 20-23, 24-27}, phase 1 =
  // {4-11, 16-19, 28-31}, then the same + 32. fp16 128x128x64, mfma 32x32x16, kWidth 8: line 81 reads 8 f16
  // = 16 bytes a lane, rows m = lane (lanes 0-31) at one K chunk; 128 x 64 / 2 warps along M / (64 x 8)
  // = 8 reads a warp, 64 in all. A row is 128 bytes, half of the 256-byte row of banks, so a lane's
  // 16-byte bank group is g = 8 (m % 2) + c, c its chunk after the swizzle.
  const std::string path = "gfx950/matmul_fp16_128x128x64_w8s2.ttgir";
  const std::string original = amd_dump(path);
  // Triton's gfx950 layout (vec 8, perPhase 2, maxPhase 8): c = (m / 2) % 8, and g is distinct over each
  // phase (phase 0: m 0, 1, 2, 3, 12, ..., 27 -> g 0, 8, 1, 9, 6, 14, 7, 15, 2, 10, 3, 11, 4, 12, 5, 13):
  // 4 wavefronts, the ideal.
  const swz::AuditReport r = swz::audit_module(original, path);
  EXPECT_EQ(r.gpu, "gfx950");
  EXPECT_EQ(access_on(r, 81).instruction, "DS_READ_B128");
  EXPECT_EQ(access_on(r, 81).instructions, 64);
  EXPECT_EQ(access_on(r, 81).wavefronts, 4.0);
  EXPECT_EQ(access_on(r, 81).ideal_wavefronts, 4);
  // The layout Triton would choose with 32 banks (gfx942's rule: perPhase 1, maxPhase 8): c = m % 8, g
  // distinct over lanes 0-15, but phase 0 holds m = 0 and 24 (g 0), 1 and 25 (g 9), 2 and 26, 3 and 27;
  // phase 1 holds 4 and 28, ...: two lanes a bank group, 2 wavefronts a phase, 8 an instruction. In
  // contiguous phases of 16 lanes it would have cost 4.
  const swz::AuditReport r32 = swz::audit_module(
      replaced(original, "#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [1, 0]}>",
               "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"),
      path);
  EXPECT_EQ(access_on(r32, 81).wavefronts, 8.0);
  EXPECT_EQ(access_on(r32, 81).ideal_wavefronts, 4);
}

TEST(AmdAudit, GpuOverrideAndContradictionsAreOneLine) {
  const std::string text = amd_dump("gfx942/matmul_fp16_128x128x64_w8s2.ttgir");
  // gfx942's kernel priced on gfx950 (--gpu mi355x): said so, in the report and its first line.
  const swz::AuditReport r = swz::audit_module(text, "k.ttgir", "mi355x");
  EXPECT_EQ(r.gpu, "gfx950");
  EXPECT_NE(r.gpu_note.find("hip:gfx942"), std::string::npos) << r.gpu_note;
  EXPECT_NE(swz::format_audit(r).find(r.gpu_note), std::string::npos);
  // A GPU of 32-lane warps for a module of 64-lane wavefronts, and a name the table lacks: one line each.
  for (const char* gpu : {"sm_90", "gfx999"}) {
    try {
      (void)swz::audit_module(text, "k.ttgir", gpu);
      ADD_FAILURE() << gpu << " accepted";
    } catch (const swz::Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(gpu), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

}  // namespace
