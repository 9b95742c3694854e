// The TTGIR line reader: aliases, locations, module attributes, op signatures, and malformed text.
#include "swz/kernel/ttgir_module.h"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>

#include "swz/error.h"

namespace {

const char* kModule =
    R"(#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
#loc = loc("k.py":1:0)
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%x: tensor<64x32xf32, #blocked> loc("x"(#loc))) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf32, #shared, #smem, mutable> loc(#loc1)
    %s = ttg.memdesc_index %a[%c1_i32] : !ttg.memdesc<2x64x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable> loc(#loc2)
    %w = ttg.memdesc_subslice %s[0, 16] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<64x16xf32, #shared, #smem, mutable, 64x32> loc(#loc2)
    ttg.local_store %x, %s : tensor<64x32xf32, #blocked> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable> loc(#loc3)
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<64x32xf32, #blocked>) : i32 {
      scf.yield %acc : tensor<64x32xf32, #blocked> loc(#loc)
    } loc(#loc)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("k.py":7:12)
#loc2 = loc("stage"(#loc1))
#loc3 = loc(callsite(#loc1 at #loc))
)";

std::string error_of(const std::string& text) {
  try {
    swz::ttgir::read_module(text, "m.ttgir");
  } catch (const swz::Error& e) {
    return e.what();
  }
  return "";
}

TEST(TtgirModule, ReadsAliasesAttributesAndOps) {
  const auto m = swz::ttgir::read_module(kModule, "m.ttgir");
  EXPECT_EQ(m.num_warps, 8);
  EXPECT_EQ(m.threads_per_warp, 32);
  EXPECT_EQ(m.target, "cuda:90");
  EXPECT_EQ(m.aliases.size(), 3u);
  EXPECT_EQ(m.aliases.at("smem"), "#ttg.shared_memory");
  ASSERT_EQ(m.ops.size(), 4u);  // local_alloc, memdesc_index, memdesc_subslice, local_store
  const auto& alloc = m.ops[0];
  EXPECT_EQ(alloc.name, "ttg.local_alloc");
  EXPECT_EQ(alloc.line, 7);
  EXPECT_EQ(alloc.column, 10);
  EXPECT_EQ(alloc.results, (std::vector<std::string>{"%a"}));
  ASSERT_EQ(alloc.result_types.size(), 1u);
  EXPECT_EQ(alloc.result_types[0].shape, (std::vector<std::int64_t>{2, 64, 32}));
  EXPECT_EQ(m.ops[2].indices, "0, 16");
  EXPECT_EQ(m.ops[2].result_types[0].alloc_shape, (std::vector<std::int64_t>{64, 32}));
  const auto& store = m.ops[3];
  EXPECT_EQ(store.operands, (std::vector<std::string>{"%x", "%s"}));
  EXPECT_EQ(store.operand_types[0].kind, swz::ttgir::Type::Kind::Tensor);
  EXPECT_EQ(store.result_types[0].kind, swz::ttgir::Type::Kind::MemDesc);
}

TEST(TtgirModule, LocationsResolveThroughNamesAndCallsites) {
  const auto m = swz::ttgir::read_module(kModule, "m.ttgir");
  EXPECT_EQ(m.ops[0].loc, "k.py:7:12");  // defined after its use
  EXPECT_EQ(m.ops[1].loc, "k.py:7:12");  // a named location
  EXPECT_EQ(m.ops[3].loc, "k.py:7:12");  // a callsite: its callee
}

TEST(TtgirModule, MalformedTextSaysWhereAndWhat) {
  EXPECT_EQ(error_of("module {\n  %x = ttg.local_load %a : !ttg.memdesc<4x4xf32, #s, #smem -> tensor<4x4xf32, #b>\n}\n"),
            "m.ttgir:2:82: expected '>' to close the '<' at column 40");
  EXPECT_EQ(error_of("module {\n  %x ttg.local_load\n}\n"), "m.ttgir:2:20: expected ' = ' after the results");
  EXPECT_EQ(error_of("module {\n  tt.func @f() {\n"), "m.ttgir:3:1: expected '}' to close 2 open regions");
  EXPECT_EQ(error_of("#blocked = #ttg.blocked<{sizePerThread = [1 2]}>\n").rfind("m.ttgir:1:12: expected an attribute", 0), 0u);
  EXPECT_EQ(error_of("module {\n  %x = ttg.local_load %a : !ttg.memdesc<4x?xf32, #s> -> tensor<4x4xf32, #b>\n}\n")
                .rfind("m.ttgir:2:", 0),
            0u);
  EXPECT_EQ(error_of("module {\n}\n}\n"), "m.ttgir:3:1: expected no '}' here (no region is open)");
  EXPECT_EQ(error_of("just words\n"), "m.ttgir:1:1: expected a TTGIR module (module attributes {...} { ... })");
}

TEST(TtgirModule, OtherDialectsAttributesAreKeptAsText) {
  const auto m = swz::ttgir::read_module(
      "#di_file = #llvm.di_file<\"k.py\" in \"/src\">\n#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride "
      "= 1>\n"
      "#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n#smem = #ttg.shared_memory\n"
      "module {\n  %v = ttg.memdesc_subslice %a [0, 16] : !ttg.memdesc<8x32xf32, #s, #smem> -> !ttg.memdesc<8x16xf32, #s, #smem, "
      "8x32>\n}\n",
      "m.ttgir");
  EXPECT_EQ(m.aliases.at("di_file"), "#llvm.di_file<\"k.py\" in \"/src\">");
  ASSERT_EQ(m.ops.size(), 1u);
  EXPECT_EQ(m.ops[0].indices, "0, 16");
}

// How long it takes is a benchmark figure (`swizzle audit --bench`, README), not an assertion here.
TEST(TtgirModule, HundredThousandLinesAreReadCompletely) {
  std::string text =
      "#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
      "#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>\n#smem = #ttg.shared_memory\n"
      "module attributes {\"ttg.num-warps\" = 4 : i32} {\n  tt.func @k(%x: tensor<32x32xf32, #blocked>) {\n";
  for (int i = 0; i < 33333; ++i) {
    text +=
        "    %a" + std::to_string(i) + " = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable> loc(#loc1)\n";
    text += "    ttg.local_store %x, %a" + std::to_string(i) +
            " : tensor<32x32xf32, #blocked> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable> loc(#loc1)\n";
    text += "    %y" + std::to_string(i) + " = arith.addf %x, %x : tensor<32x32xf32, #blocked> loc(#loc1)\n";
  }
  text += "    tt.return\n  }\n}\n#loc1 = loc(\"k.py\":3:4)\n";
  const auto start = std::chrono::steady_clock::now();
  const auto m = swz::ttgir::read_module(text, "big.ttgir");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(m.lines, 100000);
  EXPECT_EQ(m.ops.size(), 2u * 33333);
  EXPECT_EQ(m.ops.back().loc, "k.py:3:4");
  RecordProperty("read_seconds", std::to_string(seconds));
}

// What Triton refuses is an error at its line and column, never an access left "not modelled".
// Each case changes one line of a valid module (kInvalidBase).
const std::string kInvalidBase =
    "#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
    "#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>\n"
    "#smem = #ttg.shared_memory\n"
    "module attributes {\"ttg.num-warps\" = 4 : i32, \"ttg.threads-per-warp\" = 32 : i32} {\n"
    "  tt.func @k(%x: tensor<32x32xf32, #blocked>) {\n"
    "    %b = ttg.local_alloc %x : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>\n"
    "    tt.return\n  }\n}\n";

std::string with_line(int line, const std::string& text) {
  std::string out;
  std::istringstream in(kInvalidBase);
  std::string l;
  for (int n = 1; std::getline(in, l); ++n) out += (n == line ? text : l) + "\n";
  return out;
}

TEST(TtgirModule, ValidBaseOfTheInvalidCasesReads) { EXPECT_EQ(error_of(kInvalidBase), ""); }

// One table: each case's changed line, and the message it must give.
TEST(TtgirModule, EachRefusedChangeIsAnErrorAtItsLineAndColumn) {
  struct Case {
    const char* what;
    int line;
    std::string text, error;
  };
  const Case cases[] = {
      {"an undefined alias, at its first use", 6,
       "    %b = ttg.local_alloc %x : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared3, #smem, mutable>",
       "m.ttgir:6:88: #shared3 is used but never defined"},
      {"a swizzle width no NVMMA layout has", 2,
       "#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 96, transposed = false, elementBitWidth = 32}>",
       "m.ttgir:2:30: #ttg.nvmma_shared: swizzlingByteWidth = 96 is not 0, 32, 64 or 128"},
      {"threads per warp other than the module's", 1,
       "#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
       "m.ttgir:1:50: #ttg.blocked: threadsPerWarp = [2, 8] holds 16 threads, but the module's warps have 32"},
      {"a misspelled attribute name", 2,
       "#shared = #ttg.nvma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>",
       "m.ttgir:2:11: #ttg.nvma_shared is not a Triton attribute (did you mean #ttg.nvmma_shared?)"},
      {"an unknown key inside an attribute", 2,
       "#shared = #ttg.nvmma_shared<{swizzlingBytWidth = 128, transposed = false, elementBitWidth = 32}>",
       "m.ttgir:2:30: #ttg.nvmma_shared has no key 'swizzlingBytWidth' (did you mean 'swizzlingByteWidth'?)"},
      {"an inline attribute in an op's type", 6,
       "    %b = ttg.local_alloc %x : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, "
       "#ttg.swizzled_shared<{vec = 1, perPhas = 1, maxPhase = 1, order = [1, 0]}>, #smem, mutable>",
       "m.ttgir:6:10: #ttg.swizzled_shared has no key 'perPhas' (did you mean 'perPhase'?)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    EXPECT_EQ(error_of(with_line(c.line, c.text)), c.error);
  }
}

// MLIR_ENABLE_DUMP's shape: the module after each pass, under a header line, each with its own
// aliases; locations after a module's closing brace stay with it.
TEST(TtgirModule, SplitsADumpPerModuleWithTheFilesLineNumbers) {
  const std::string dump = "// -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //\n" +
                           kInvalidBase + "#loc1 = loc(\"k.py\":3:4)\n\n" +
                           "// -----// IR Dump Before TritonGPUPipeline (tritongpu-pipeline) ('builtin.module' operation) //----- //\n" +
                           kInvalidBase + kInvalidBase;
  const auto spans = swz::ttgir::split_modules(dump);
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[0].first_line, 1);
  EXPECT_EQ(spans[0].header, "IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation)");
  EXPECT_EQ(spans[1].first_line, 13);
  EXPECT_EQ(spans[2].first_line, 23);  // no header: the next alias after a closed module begins it
  EXPECT_EQ(spans[2].header, "");
  EXPECT_NE(dump.substr(spans[0].begin, spans[0].end - spans[0].begin).find("#loc1 = loc"), std::string::npos);
  const auto m = swz::ttgir::read_module(dump, "dump.mlir", spans[1], 2, 3);
  ASSERT_EQ(m.ops.size(), 1u);
  EXPECT_EQ(m.ops[0].line, 19);
  EXPECT_EQ(m.first_line, 13);
  EXPECT_EQ(m.lines, 10);
  // An error in the third module names the file's own line.
  const std::string bad = dump.substr(0, spans[2].begin) + with_line(2, "#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 96}>");
  const auto bad_spans = swz::ttgir::split_modules(bad);
  ASSERT_EQ(bad_spans.size(), 3u);
  try {
    (void)swz::ttgir::read_module(bad, "dump.mlir", bad_spans[2], 3, 3);
    ADD_FAILURE() << "no error";
  } catch (const swz::Error& e) {
    EXPECT_EQ(std::string(e.what()), "dump.mlir:24:30: #ttg.nvmma_shared: swizzlingByteWidth = 96 is not 0, 32, 64 or 128");
  }
  // A file of one module is one span, the whole text.
  EXPECT_EQ(swz::ttgir::split_modules(kModule).size(), 1u);
}

}  // namespace
