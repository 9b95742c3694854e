// Triton layout attributes as layout files (formats.h): every kind the audit reads, bare
// with a given shape, inside a tensor type and inside a memdesc type, reads as the very
// linear layout the audit computes for it in a kernel.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "swz/error.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"
#include "swz/kernel/ttgir.h"
#include "swz/problem/problem_spec.h"

namespace swz {
namespace {

const std::vector<std::int64_t> k64x64{64, 64};
const std::string kBlocked = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>";
const std::string kSwizzled = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>";

struct Kind {
  const char* name;
  std::string attribute;
  int lanes = 32;  // threads per warp of the module the audit reads it in
};

const std::vector<Kind> kDistributed = {
    {"blocked", kBlocked},
    {"slice", "#ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], "
              "warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>}>"},
    {"nvidia_mma v2", "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"},
    {"nvidia_mma v3", "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>"},
    {"dot_op", "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
               "instrShape = [16, 8]}>, kWidth = 2}>"},
    {"amd_mfma", "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>", 64},
    {"amd_wmma", "#ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2]}>"},
    {"linear", "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], "
               "[2, 0]], warp = [[4, 0], [8, 0]], block = []}>"},
};

const std::vector<Kind> kShared = {
    {"swizzled_shared", kSwizzled},
    {"nvmma_shared", "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"},
    {"shared_linear", "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], "
                      "[8, 0], [16, 0], [32, 0]]}, alignment = 16>"},
};

// The audit's layouts for a 64x64 f16 tensor stored from `distributed` into a buffer laid out as `shared`.
AuditAccess audited(const std::string& distributed, const std::string& shared, int lanes) {
  const std::string tensor = "tensor<64x64xf16, " + distributed + ">";
  const std::string module = "#smem = #ttg.shared_memory\n"
                             "module attributes {\"ttg.num-warps\" = 4 : i32, \"ttg.threads-per-warp\" = " +
                             std::to_string(lanes) + " : i32} {\n  tt.func @k(%x: " + tensor + ") {\n    %b = ttg.local_alloc %x : (" +
                             tensor + ") -> !ttg.memdesc<64x64xf16, " + shared + ", #smem, mutable>\n    tt.return\n  }\n}\n";
  const AuditReport r = audit_module(module, "k.ttgir");
  if (r.accesses.size() != 1) throw Error("expected one access");
  return r.accesses[0];
}

// The three ways to write one attribute, each read as a layout file.
std::vector<std::pair<std::string, LayoutFile>> forms(const std::string& attribute) {
  return {{"bare with a shape", parse_layout_text(attribute, "bare", LayoutHints{k64x64, 16})},
          {"in a tensor type", parse_layout_text("tensor<64x64xf16, " + attribute + ">", "tensor")},
          {"in a memdesc type", parse_layout_text("!ttg.memdesc<64x64xf16, " + attribute + ", #ttg.shared_memory, mutable>", "memdesc")}};
}

TEST(LayoutAttribute, EveryDistributedKindReadsAsTheAuditComputesIt) {
  for (const Kind& k : kDistributed) {
    SCOPED_TRACE(k.name);
    const AuditAccess a = audited(k.attribute, kSwizzled, k.lanes);
    ASSERT_TRUE(a.writer) << a.note;
    for (const auto& [how, f] : forms(k.attribute)) {
      SCOPED_TRACE(how);
      EXPECT_EQ(f.kind, LayoutKind::Distributed);
      EXPECT_EQ(f.layout, *a.writer);
      EXPECT_EQ(f.layout.shape(), k64x64);
    }
  }
}

TEST(LayoutAttribute, EverySharedKindReadsAsTheAuditComputesIt) {
  for (const Kind& k : kShared) {
    SCOPED_TRACE(k.name);
    const AuditAccess a = audited(kBlocked, k.attribute, 32);
    ASSERT_TRUE(a.shared_offsets) << a.note;
    for (const auto& [how, f] : forms(k.attribute)) {
      SCOPED_TRACE(how);
      EXPECT_EQ(f.kind, LayoutKind::Shared);
      EXPECT_EQ(f.layout, *a.shared_offsets);
    }
  }
}

TEST(LayoutAttribute, TheTypeGivesTheElementWidth) {
  EXPECT_EQ(parse_layout_text("tensor<64x64xf16, " + kBlocked + ">").element_bits, 16);
  EXPECT_EQ(parse_layout_text("!ttg.memdesc<64x64xf32, " + kSwizzled + ", #ttg.shared_memory>").element_bits, 32);
  // nvmma_shared's swizzle depends on the width: the memdesc's element type gives it.
  const std::string nvmma = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false}>";
  EXPECT_EQ(parse_layout_text("!ttg.memdesc<64x128xf8E4M3FN, " + nvmma + ", #ttg.shared_memory>").layout,
            ttgir::convert(nvmma, {64, 128}, 8).linear);
  EXPECT_EQ(parse_layout_text(nvmma, "bare", LayoutHints{k64x64, 16}).layout, ttgir::convert(nvmma, k64x64, 16).linear);
}

TEST(LayoutAttribute, AliasLinesOfADumpResolve) {
  const std::string parent = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>";
  const LayoutFile f = parse_layout_text("#blocked = " + parent + "\n#smem = #ttg.shared_memory\n"
                                         "tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>");
  EXPECT_EQ(f.layout, ttgir::convert("#ttg.slice<{dim = 1, parent = #blocked}>", {128}, 32, {{"blocked", parent}}).linear);
  EXPECT_EQ(f.element_bits, 32);
  EXPECT_EQ(parse_layout_text("#blocked = " + kBlocked + "\ntensor<64x64xf16, #blocked>").layout,
            ttgir::convert(kBlocked, k64x64, 16).linear);
}

std::string error_of(const std::string& text, const LayoutHints& hints = {}) {
  try {
    parse_layout_text(text, "input", hints);
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(LayoutAttribute, ABareAttributeWithoutAShapeSaysHowToGiveOne) {
  for (const Kind& k : kDistributed) {
    if (std::string(k.name) == "linear") continue;  // its bases give the shape
    const std::string why = error_of(k.attribute);
    const std::string name = k.attribute.substr(0, k.attribute.find('<'));
    EXPECT_NE(why.find("input: " + name + " carries no shape"), std::string::npos) << why;
    EXPECT_NE(why.find("--shape ROWSxCOLS"), std::string::npos) << why;
    EXPECT_NE(why.find("tensor<64x64xf16, " + name + "<...>>"), std::string::npos) << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  }
}

TEST(LayoutAttribute, ErrorsQuoteTheWholeAttributeName) {
  const std::string nvmma = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>";
  EXPECT_EQ(error_of(nvmma).find("'#ttg.nvmma_s'"), std::string::npos);
  EXPECT_NE(error_of(nvmma).find("#ttg.nvmma_shared carries no shape"), std::string::npos) << error_of(nvmma);
  EXPECT_NE(error_of("#ttg.amd_rotating_shared<{vec = 4}>", LayoutHints{k64x64, 16}).find("#ttg.amd_rotating_shared has no 'perPhase'"),
            std::string::npos)
      << error_of("#ttg.amd_rotating_shared<{vec = 4}>", LayoutHints{k64x64, 16});
  EXPECT_NE(error_of("#ttg.padded_shared<[8:+1] {order = [1, 0], shape = [64, 64]}>", LayoutHints{k64x64, 16})
                .find("input: #ttg.padded_shared: "),
            std::string::npos);
  EXPECT_NE(error_of("#ttg.nvmma_shared<{swizzlingByteWidth = 128}>", LayoutHints{k64x64, std::nullopt})
                .find("#ttg.nvmma_shared needs the element width"),
            std::string::npos);
  EXPECT_NE(error_of("tensor<64x64xf16, #blocked>").find("#blocked is not defined"), std::string::npos);
}

TEST(LayoutAttribute, AGivenShapeMustAgreeWithTheLayout) {
  EXPECT_NE(error_of("tensor<64x64xf16, " + kBlocked + ">", LayoutHints{{32, 64}, std::nullopt})
                .find("the type gives the shape 64x64 but the given shape is 32x64"),
            std::string::npos);
  // Forms that carry their own shape are held to it too.
  EXPECT_NE(error_of("(8,8):(1,8)", LayoutHints{k64x64, std::nullopt})
                .find("input: the layout covers a 8x8 tensor but the given shape is 64x64"),
            std::string::npos);
  EXPECT_EQ(parse_layout_text("(8,8):(1,8)", "input", LayoutHints{{8, 8}, std::nullopt}).layout.shape(),
            (std::vector<std::int64_t>{8, 8}));
}

TEST(LayoutAttribute, ASpecTakesAttributeTextAsALayout) {
  const nlohmann::json j = {{"preset", ""},
                            {"shape", {64, 64}},
                            {"element_bits", 16},
                            {"writer", {{"origin", "blocked"}, {"layout", kBlocked}}},
                            {"reader", {{"origin", "mma"}, {"layout", kDistributed[2].attribute}}},
                            {"shared", {{"origin", "swizzled"}, {"layout", kSwizzled}}}};
  const ProblemSpec s = spec_from_json(j, "spec: '");
  ASSERT_TRUE(s.writer && s.reader && s.shared);
  EXPECT_EQ(s.writer->layout, ttgir::convert(kBlocked, k64x64, 16).linear);
  EXPECT_EQ(s.reader->layout, ttgir::convert(kDistributed[2].attribute, k64x64, 16).linear);
  EXPECT_EQ(s.shared->layout, ttgir::convert(kSwizzled, k64x64, 16).linear);
  const Problem p = build_problem(s);
  EXPECT_EQ(p.shape, k64x64);
}

}  // namespace
}  // namespace swz
