// The audit of Triton 3.6's gather across warps (core/src/kernel/audit_gather.cpp) against an
// independent computation written here from the lowering (GatherOpToLLVM.cpp, emitGatherInShared:
// the source tile stored at c0 + s0 c1 (dim 0 fastest), one store per register, a thread's adjacent
// registers merged by LLVM's vectorizer; one load per result register at the element its index
// names), on 1-D gathers whose indices the kernel computes, and on the kept hand-written 2-D
// gather whose indices are read from memory (a range per load).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "conversion_data.h"
#include "plain_bank_rule.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"

namespace {

// [SECTION] 1-D gathers with computed indices

struct GatherCase {
  int elements, per_thread, warps;
  std::string element;              // "f32", "f16"
  int stride;                       // index = (i * stride) op elements
  std::string index_op;             // "arith.remsi" (i * S) % B or "arith.andi" (i * S) & (B - 1)
  bool through_conversion = false;  // the indices reach the gather through a ttg.convert_layout
  int bytes() const { return element == "f16" ? 2 : 4; }
  std::string name() const {
    return fmt::format("{} {} x{} {} warps, index (i * {}) {}{}", elements, element, per_thread, warps, stride, index_op,
                       through_conversion ? " through a conversion" : "");
  }
};

std::string gather_module(const GatherCase& c) {
  const std::string operand = c.index_op == "arith.andi" ? fmt::format("{}", c.elements - 1) : fmt::format("{}", c.elements);
  return fmt::format(
      "#blocked = #ttg.blocked<{{sizePerThread = [{0}], threadsPerWarp = [32], warpsPerCTA = [{1}], order = [0]}}>\n"
      "module attributes {{\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = {1} : i32, ttg.target = \"cuda:90\", "
      "\"ttg.threads-per-warp\" = 32 : i32}} {{\n"
      "  tt.func public @gather1d(%x_ptr: !tt.ptr<{2}> {{tt.divisibility = 16 : i32}}, %y_ptr: !tt.ptr<{2}> "
      "{{tt.divisibility = 16 : i32}}) {{\n"
      "    %cst = arith.constant dense<{3}> : tensor<{4}xi32, #blocked>\n"
      "    %cst_0 = arith.constant dense<{5}> : tensor<{4}xi32, #blocked>\n"
      "    %i = tt.make_range {{end = {4} : i32, start = 0 : i32}} : tensor<{4}xi32, #blocked>\n"
      "    %0 = tt.splat %x_ptr : !tt.ptr<{2}> -> tensor<{4}x!tt.ptr<{2}>, #blocked>\n"
      "    %1 = tt.addptr %0, %i : tensor<{4}x!tt.ptr<{2}>, #blocked>, tensor<{4}xi32, #blocked>\n"
      "    %2 = tt.load %1 : tensor<{4}x!tt.ptr<{2}>, #blocked>\n"
      "    %3 = arith.muli %i, %cst_0 : tensor<{4}xi32, #blocked>\n"
      "    %4 = {6} %3, %cst : tensor<{4}xi32, #blocked>\n"
      "    %5 = ttg.convert_layout %4 : tensor<{4}xi32, #blocked> -> tensor<{4}xi32, #blocked>\n"
      "    %6 = tt.gather %2[{7}] {{axis = 0 : i32}} : (tensor<{4}x{2}, #blocked>, tensor<{4}xi32, #blocked>) -> "
      "tensor<{4}x{2}, #blocked>\n"
      "    %7 = tt.splat %y_ptr : !tt.ptr<{2}> -> tensor<{4}x!tt.ptr<{2}>, #blocked>\n"
      "    %8 = tt.addptr %7, %i : tensor<{4}x!tt.ptr<{2}>, #blocked>, tensor<{4}xi32, #blocked>\n"
      "    tt.store %8, %6 : tensor<{4}x!tt.ptr<{2}>, #blocked>\n"
      "    tt.return\n"
      "  }}\n"
      "}}\n",
      c.per_thread, c.warps, c.element, operand, c.elements, c.stride, c.index_op, c.through_conversion ? "%5" : "%4");
}

struct GatherSide {
  long instructions = 0, wavefronts = 0;
  std::string instruction;
};

// Thread (w, l)'s element j of repetition k: k T + w 32 s + l s + j (T = 32 s warps).
void expected_gather(const GatherCase& c, GatherSide& store, GatherSide& load) {
  const int s = c.per_thread, tile = 32 * s * c.warps, reps = c.elements / tile, bytes = c.bytes();
  const int vec = std::min(s, 16 / bytes);  // elements per merged store
  store.instruction = vec * bytes == 2 ? "STS.U16" : fmt::format("STS.{}", vec * bytes * 8);
  load.instruction = bytes == 2 ? "LDS.U16" : "LDS.32";
  std::vector<long> a(32);
  for (int w = 0; w < c.warps; ++w) {
    // A warp loads each set of lane addresses once: a register that repeats an earlier one's (every
    // lane the same index) is the same load (H200: gather1d_1024_f32_w4_s32 issues 16 LDS, not 32).
    std::set<std::vector<long>> loaded;
    for (int k = 0; k < reps; ++k) {
      for (int j0 = 0; j0 < s; j0 += vec) {
        for (int l = 0; l < 32; ++l) a[l] = (static_cast<long>(k) * tile + w * 32 * s + l * s + j0) * bytes;
        ++store.instructions;
        // Lanes side by side: a contiguous 32 x width bytes, 128 bytes a wavefront; narrow ones by the plain rule.
        store.wavefronts += vec * bytes <= 4 ? swz::test::plain_bank_wavefronts(a) : 32 * vec * bytes / 128;
      }
      for (int j = 0; j < s; ++j) {
        for (int l = 0; l < 32; ++l) {
          const long i = static_cast<long>(k) * tile + w * 32 * s + l * s + j;
          const long index = c.index_op == "arith.andi" ? (i * c.stride) & (c.elements - 1) : (i * c.stride) % c.elements;
          a[l] = index * bytes;
        }
        if (!loaded.insert(a).second) continue;
        ++load.instructions;
        load.wavefronts += swz::test::plain_bank_wavefronts(a);
      }
    }
  }
}

std::map<std::string, GatherSide> audited_gather(const swz::AuditReport& r) {
  std::map<std::string, GatherSide> out;
  for (const auto& a : r.accesses) {
    if (a.op != "tt.gather" || !a.direction) continue;
    EXPECT_TRUE(a.wavefronts.has_value()) << a.note;
    GatherSide& s = out[*a.direction];
    s.instruction = a.instruction;
    s.instructions += a.instructions;
    s.wavefronts += static_cast<long>(a.wavefronts.value_or(0) * static_cast<double>(a.instructions) + 0.5);
  }
  return out;
}

TEST(AuditGather, OneDimensionalGathersMatchTheIndependentAddressComputation) {
  const std::vector<GatherCase> cases = {
      {1024, 1, 4, "f32", 33, "arith.remsi"},  // gather1d_1024_f32_w4_s33's indices: a warp's loads on 32 banks
      {1024, 1, 4, "f32", 32, "arith.remsi"},  // 32 apart: every lane on bank 0
      {1024, 4, 4, "f32", 32, "arith.remsi"},  // four adjacent registers: one STS.128
      {1024, 2, 4, "f16", 32, "arith.remsi"},  // two fp16 registers: one STS.32
      {1024, 8, 4, "f16", 33, "arith.andi"},   // eight: one STS.128; the index masked, not divided
      {2048, 1, 8, "f32", 64, "arith.remsi", true},
  };
  for (const GatherCase& c : cases) {
    SCOPED_TRACE(c.name());
    const swz::AuditReport r = swz::audit_module(gather_module(c), "gather1d.ttgir");
    GatherSide store, load;
    expected_gather(c, store, load);
    const auto got = audited_gather(r);
    ASSERT_EQ(got.size(), 2u) << swz::format_audit(r);
    EXPECT_EQ(got.at("store").instruction, store.instruction);
    EXPECT_EQ(got.at("store").instructions, store.instructions);
    EXPECT_EQ(got.at("store").wavefronts, store.wavefronts);
    EXPECT_EQ(got.at("load").instruction, load.instruction);
    EXPECT_EQ(got.at("load").instructions, load.instructions);
    EXPECT_EQ(got.at("load").wavefronts, load.wavefronts);
    EXPECT_EQ(swz::count_accesses(r).index_dependent, 0);
  }
}

// Triton 3.6's isWarpLocal asks only that no warp basis move along the axis and that both tensors
// spread warps and lanes alike over the other dims: a 1-D layout whose warps repeat the data
// (sizePerThread [32] over 1024 elements, 4 warps: Triton's older layout pass gives 1-D gathers
// this one) is warp-local, shuffles.
TEST(AuditGather, WarpsThatRepeatTheDataStayWarpLocal) {
  const swz::AuditReport r = swz::audit_module(gather_module({1024, 32, 4, "f32", 33, "arith.remsi"}), "gather1d.ttgir");
  int gathers = 0;
  for (const auto& a : r.accesses)
    if (a.op == "tt.gather") {
      ++gathers;
      EXPECT_EQ(a.instruction, "shuffle") << a.note;
    }
  EXPECT_EQ(gathers, 1);
}

// An index the kernel computes outside the source: one line saying so, the rest of the audit kept.
TEST(AuditGather, IndexOutsideTheSourceIsNamed) {
  std::string text = gather_module({1024, 1, 4, "f32", 33, "arith.remsi"});
  const std::string remsi = "arith.remsi %3, %cst";
  text.replace(text.find(remsi), remsi.size(), "arith.addi %3, %cst");
  const swz::AuditReport r = swz::audit_module(text, "gather1d.ttgir");
  bool named = false;
  for (const auto& a : r.accesses)
    if (a.op == "tt.gather")
      named |= a.instruction == "not modelled" && a.note.find("tt.gather index 1024 outside") != std::string::npos;
  EXPECT_TRUE(named) << swz::format_audit(r);
}

// [SECTION] Indices read at run time

// gather_across_warps.ttgir (#blocked1: [2, 1] per thread, lanes 8 x 4, warps along the gathered
// axis 0 of 64 x 32). Stores: a thread's two rows are adjacent (dim 0 fastest), one STS.64 per
// column; per half warp, lanes 0-7 write 64 bytes of column c and lanes 8-15 those of column c + 1,
// 256 bytes on: the same 16 banks, 2 wavefronts a half, 4 an STS.64 (ideal 2). Loads: the index
// values come from memory; a lane's column spans 64 elements (2 words per bank), an instruction's
// 32 lanes 4 columns: at most 8 words in a bank, so between 1 and 8 wavefronts each.
TEST(AuditGather, IndicesReadAtRunTimeArePricedAsARange) {
  const std::string path = swz::test::kData + "/ttgir/gather_across_warps.ttgir";
  const auto r = swz::audit_module(swz::read_text_file(path), path);
  // The stores apart: thread (w, l), column repetition k: rows 2 (l % 8) + 16 w and the next, column l / 8 + 4 k.
  long store_wavefronts = 0, stores = 0;
  for (int w = 0; w < 4; ++w)
    for (int k = 0; k < 8; ++k) {
      ++stores;
      for (int half = 0; half < 2; ++half) {
        std::map<long, std::set<long>> words;  // bank -> 4-byte words
        for (int l = half * 16; l < half * 16 + 16; ++l) {
          const long address = (2L * (l % 8) + 16L * w + 64L * (l / 8 + 4 * k)) * 4;
          for (long word = address / 4; word < address / 4 + 2; ++word) words[word % 32].insert(word);
        }
        std::size_t most = 0;
        for (const auto& [bank, ws] : words) most = std::max(most, ws.size());
        store_wavefronts += static_cast<long>(most);
      }
    }
  int seen = 0;
  for (const auto& a : r.accesses) {
    if (a.op != "tt.gather") continue;
    ++seen;
    if (*a.direction == "store") {
      EXPECT_EQ(a.instruction, "STS.64");
      EXPECT_EQ(a.instructions, stores);
      EXPECT_DOUBLE_EQ(*a.wavefronts * static_cast<double>(a.instructions), static_cast<double>(store_wavefronts));
      EXPECT_EQ(*a.ideal_wavefronts, 2);
      EXPECT_FALSE(a.index_dependent);
    } else {
      EXPECT_EQ(a.instruction, "LDS.32");
      EXPECT_EQ(a.instructions, 64);  // 16 registers a thread, 4 warps
      EXPECT_TRUE(a.index_dependent);
      EXPECT_FALSE(a.wavefronts.has_value());
      EXPECT_EQ(*a.ideal_wavefronts, 1);
      EXPECT_EQ(*a.worst_wavefronts, 8);
    }
  }
  EXPECT_EQ(seen, 2);
  EXPECT_EQ(store_wavefronts, 128);
  const auto c = swz::count_accesses(r);
  EXPECT_EQ(c.index_dependent, 1);
  EXPECT_EQ(c.not_modelled, 0);
  EXPECT_NE(swz::format_audit(r).find("; 1 priced only between ideal and worst (addresses are index values read at run time: "
                                      "the kernel may have conflicts there)"),
            std::string::npos)
      << swz::format_audit(r);
}

}  // namespace
