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
    for (const auto& a : r.accesses) {
      EXPECT_NE(a.instruction, "not modelled") << f << " line " << a.line << " " << a.op << ": " << a.note;
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
  EXPECT_EQ(r.accesses[2].instruction, "ds_write_b64");  // the transpose left 4 K-contiguous f16 per lane
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

}  // namespace
