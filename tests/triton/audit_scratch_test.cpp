// The audit of Triton 3.6's reduction scratch (core/src/kernel/audit_scratch.h), against an
// independent computation of the lanes' scratch addresses written here from the lowering
// (ReduceOpToLLVM.cpp: partials stored by lane 0 along the axis at [warp along the axis][element],
// read back t, t + T, ..., written back by lanes t % W == 0, results read at [0][element]) over
// 2-D blocked layouts, with the plain bank rule for 8-32-bit accesses: an instruction costs the
// most distinct 4-byte words any bank holds among its active lanes. The H100's counters on the real
// kernels (reduce_axis0, argmax_axis0, softmax, layer_norm) are compared in audit_files_test.cpp.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "conversion_data.h"
#include "plain_bank_rule.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"

namespace {

// A 2-D blocked layout and a reduction of it: the reduce op of tests/data/ttgir/triton36/
// reduce_axis0.ttgir with its layout, shape, warps and element type substituted (the pointer
// arithmetic around it is left out: the audit does not read it). order[0] always has more than one
// element per thread, so Triton's linear-encoding order equals the blocked order here.
struct ScratchCase {
  std::vector<int> shape, spt, tpw, wpc, order;
  int axis;
  std::string element;  // "f32", "f16"
  int bytes() const { return element == "f16" ? 2 : 4; }
  int warps() const { return wpc[0] * wpc[1]; }
  std::string name() const {
    return fmt::format("{}x{} {} axis {} warps [{}, {}]", shape[0], shape[1], element, axis, wpc[0], wpc[1]);
  }
};

std::string module_text(const ScratchCase& c) {
  const std::string blocked = fmt::format(
      "#ttg.blocked<{{sizePerThread = [{}, {}], threadsPerWarp = [{}, {}], warpsPerCTA = [{}, {}], order = [{}, {}]}}>", c.spt[0],
      c.spt[1], c.tpw[0], c.tpw[1], c.wpc[0], c.wpc[1], c.order[0], c.order[1]);
  const int kept = c.shape[1 - c.axis];
  const std::string result = fmt::format("tensor<{}x{}, #ttg.slice<{{dim = {}, parent = #blocked}}>>", kept, c.element, c.axis);
  return fmt::format(
      "#blocked = {0}\n"
      "module attributes {{\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = {1} : i32, ttg.target = \"cuda:90\", "
      "\"ttg.threads-per-warp\" = 32 : i32}} {{\n"
      "  tt.func public @reduce(%x_ptr: !tt.ptr<{2}>, %y_ptr: !tt.ptr<{2}>) {{\n"
      "    %2 = \"tt.reduce\"(%x_9) <{{axis = {3} : i32}}> ({{\n"
      "    ^bb0(%arg2: {2}, %arg3: {2}):\n"
      "      %4 = arith.addf %arg2, %arg3 : {2}\n"
      "      tt.reduce.return %4 : {2}\n"
      "    }}) : (tensor<{4}x{5}x{2}, #blocked>) -> {6}\n"
      "    tt.store %1, %2 : tensor<{7}x!tt.ptr<{2}>, #ttg.slice<{{dim = {3}, parent = #blocked}}>>\n"
      "    tt.return\n"
      "  }}\n"
      "}}\n",
      blocked, c.warps(), c.element, c.axis, c.shape[0], c.shape[1], result, kept);
}

// [SECTION] The independent computation

struct ScratchSide {
  long instructions = 0, wavefronts = 0;
  double mean() const { return static_cast<double>(wavefronts) / static_cast<double>(instructions); }
};

struct ScratchExpected {
  ScratchSide store, load;
};

ScratchExpected expected(const ScratchCase& c) {
  // Multi-dim index of a lane / warp id: dims in `order`, the first fastest.
  auto split = [&](int id, const std::vector<int>& sizes) {
    std::vector<int> out(2);
    for (int d : c.order) {
      out[d] = id % sizes[d];
      id /= sizes[d];
    }
    return out;
  };
  const int axis = c.axis, other = 1 - c.axis, bytes = c.bytes();
  const int W = c.wpc[axis];
  std::vector<int> tile(2), reps(2);
  for (int d = 0; d < 2; ++d) {
    tile[d] = c.spt[d] * c.tpw[d] * c.wpc[d];
    reps[d] = c.shape[d] / tile[d];
  }
  // Coordinate along `other` of a thread's element (rep, e) there.
  auto coord = [&](int rep, int e, const std::vector<int>& lane, const std::vector<int>& warp) {
    return rep * tile[other] + warp[other] * c.spt[other] * c.tpw[other] + lane[other] * c.spt[other] + e;
  };
  ScratchExpected x;
  // Steps 1-3 are predicated (`@p st.shared`): every warp issues them, at 0 wavefronts when no lane
  // is on. Step 4 is not, and a warp that only holds copies of the result skips it (below).
  auto add = [&](ScratchSide& s, const std::vector<long>& a) {
    ++s.instructions;
    s.wavefronts += swz::test::plain_bank_wavefronts(a);
  };
  std::vector<long> a(32);
  // Partials: element [w_axis][n] at w_axis + W n; lanes 0 along the axis write.
  for (int rep = 0; rep < reps[other]; ++rep)
    for (int e = 0; e < c.spt[other]; ++e)
      for (int w = 0; w < c.warps(); ++w) {
        const auto warp = split(w, c.wpc);
        for (int l = 0; l < 32; ++l) {
          const auto lane = split(l, c.tpw);
          a[l] = lane[axis] == 0 ? (warp[axis] + static_cast<long>(W) * coord(rep, e, lane, warp)) * bytes : -1;
        }
        add(x.store, a);
      }
  // Combining: thread t reads t + k T and lanes t % W == 0 write it back.
  const long elems = static_cast<long>(W) * c.shape[other], threads = 32L * c.warps();
  for (long round = 0; round < std::max(1L, elems / threads); ++round)
    for (const bool store : {false, true})
      for (int w = 0; w < c.warps(); ++w) {
        for (int l = 0; l < 32; ++l) {
          const long t = 32L * w + l;
          a[l] = t < elems && (!store || l % W == 0) ? (t + round * threads) * bytes : -1;
        }
        add(store ? x.store : x.load, a);
      }
  // Results: each thread's elements along `other`, read at [0][n]. The module stores the result
  // directly: tt.store masks off the warps past the first along the axis (they hold copies), and
  // those issue no load whose value only that store reads.
  for (int rep = 0; rep < reps[other]; ++rep)
    for (int e = 0; e < c.spt[other]; ++e)
      for (int w = 0; w < c.warps(); ++w) {
        const auto warp = split(w, c.wpc);
        if (warp[axis] != 0) continue;
        for (int l = 0; l < 32; ++l) a[l] = static_cast<long>(W) * coord(rep, e, split(l, c.tpw), warp) * bytes;
        add(x.load, a);
      }
  return x;
}

ScratchSide audited(const swz::AuditReport& r, const char* direction, const std::string& instruction) {
  ScratchSide s;
  for (const auto& a : r.accesses) {
    if (a.op != "tt.reduce" || !a.direction || *a.direction != direction) continue;
    EXPECT_EQ(a.instruction, instruction);
    s.instructions += a.instructions;
    s.wavefronts += static_cast<long>(*a.wavefronts * static_cast<double>(a.instructions) + 0.5);
  }
  return s;
}

// Row and column reductions, fp32 and fp16, 4 and 8 warps.
const std::vector<ScratchCase> kCases = {
    {{64, 128}, {1, 4}, {1, 32}, {4, 1}, {1, 0}, 0, "f32"},  // the column sum of the issue
    {{64, 128}, {1, 4}, {1, 32}, {4, 1}, {1, 0}, 0, "f16"},
    {{128, 64}, {1, 4}, {2, 16}, {4, 1}, {1, 0}, 0, "f32"},  // reduce_axis0's own layout
    {{128, 64}, {1, 4}, {2, 16}, {8, 1}, {1, 0}, 0, "f32"},
    {{128, 64}, {1, 8}, {4, 8}, {8, 1}, {1, 0}, 0, "f16"},
    {{64, 128}, {1, 4}, {2, 16}, {2, 2}, {1, 0}, 0, "f32"},
    {{64, 256}, {1, 4}, {4, 8}, {1, 4}, {1, 0}, 1, "f32"},  // row sums, warps along the row
    {{64, 256}, {1, 8}, {4, 8}, {1, 4}, {1, 0}, 1, "f16"},
    {{32, 1024}, {1, 4}, {1, 32}, {1, 8}, {1, 0}, 1, "f32"},
    {{32, 512}, {1, 4}, {2, 16}, {2, 4}, {1, 0}, 1, "f16"},
    {{128, 64}, {4, 1}, {16, 2}, {1, 8}, {0, 1}, 1, "f32"},  // column-major registers
    {{256, 64}, {4, 1}, {16, 2}, {4, 1}, {0, 1}, 0, "f16"},
};

TEST(AuditScratch, ReductionsMatchTheIndependentAddressComputation) {
  for (const ScratchCase& c : kCases) {
    SCOPED_TRACE(c.name());
    const swz::AuditReport r = swz::audit_module(module_text(c), "reduce.ttgir");
    const ScratchExpected want = expected(c);
    const std::string suffix = c.bytes() == 2 ? ".U16" : ".32";
    const ScratchSide store = audited(r, "store", "STS" + suffix), load = audited(r, "load", "LDS" + suffix);
    EXPECT_EQ(store.instructions, want.store.instructions);
    EXPECT_EQ(store.wavefronts, want.store.wavefronts);
    EXPECT_EQ(load.instructions, want.load.instructions);
    EXPECT_EQ(load.wavefronts, want.load.wavefronts);
  }
}

// The issue's kernel: a column sum of a 64x128 fp32 tile over 4 warps, measured on an H200 at 8.5
// wavefronts per STS and per LDS, 240 conflicts each way. Per warp: 4 partial stores at 16
// (lanes 4 words apart: 2 banks), 4 write-backs at 1, 4 combining reads at 1, 4 result reads at 16.
TEST(AuditScratch, ColumnSumOfTheIssueIsEightAndAHalfWavefronts) {
  const std::string path = swz::test::kData + "/triton/scratch/h200-20261128/colsum_64x128_f32_w4.ttgir";
  const swz::AuditReport r = swz::audit_module(swz::read_text_file(path), path);
  int seen = 0;
  for (const auto& a : r.accesses) {
    if (a.op != "tt.reduce") continue;
    ++seen;
    EXPECT_EQ(a.instruction, *a.direction == "store" ? "STS.32" : "LDS.32");
    EXPECT_EQ(a.instructions, 32);
    EXPECT_DOUBLE_EQ(*a.wavefronts, 8.5);
    EXPECT_DOUBLE_EQ(*a.conflicts * static_cast<double>(a.instructions), 240.0);
    EXPECT_EQ(a.worst_wavefronts, 16);
    EXPECT_NE(a.no_suggestion.find("no attribute changes it"), std::string::npos) << a.no_suggestion;
    EXPECT_NE(a.no_suggestion.find("would cost 1.00"), std::string::npos) << a.no_suggestion;
  }
  EXPECT_EQ(seen, 2);
}

// A result no op reads is not loaded (LLVM drops the dead loads): argmax_axis0 stores both operands'
// partials but reads back only the index; the H100 counts 48 LDS, not 64.
TEST(AuditScratch, DeadResultsAreNotLoaded) {
  ScratchCase c = kCases[0];
  std::string text = module_text(c);
  const std::size_t store = text.find("    tt.store");
  text.erase(store, text.find('\n', store) - store + 1);
  const swz::AuditReport r = swz::audit_module(text, "unused.ttgir");
  for (const auto& a : r.accesses)
    if (a.op == "tt.reduce" && *a.direction == "load") EXPECT_EQ(a.instructions, 16);  // combining reads only
}

// A warp whose copy of the result tt.store masks off issues no load that only the store reads: the
// column sum's result, stored straight from its slice layout, is loaded by the one warp of four
// that stores it (4 result loads, not 16), beside 16 combining reads.
TEST(AuditScratch, ResultsOnlyStoredAreLoadedByTheStoringWarps) {
  const swz::AuditReport r = swz::audit_module(module_text(kCases[0]), "stored.ttgir");
  for (const auto& a : r.accesses)
    if (a.op == "tt.reduce" && *a.direction == "load") EXPECT_EQ(a.instructions, 16 + 4);
}

// rowsum_8x1024_f16_w8 (H200, h200-20261128): the 8 sums go to #blocked1, where warps 1-7 hold
// copies of warp 0's; the conversion's LDS.U16 is issued by warp 0 alone (the H200 counts 41 LDS,
// 48 if every warp loaded). Once another op reads the converted value too, every warp loads it.
TEST(AuditScratch, ConversionLoadsOnlyStoredSkipTheMaskedWarps) {
  const std::string path = swz::test::kData + "/triton/scratch/h200-20261128/rowsum_8x1024_f16_w8.ttgir";
  std::string text = swz::read_text_file(path);
  auto conversion_loads = [](const swz::AuditReport& r) {
    for (const auto& a : r.accesses)
      if (a.op == "ttg.convert_layout" && *a.direction == "load") return a.instructions;
    ADD_FAILURE() << "no conversion load";
    return std::int64_t{0};
  };
  EXPECT_EQ(conversion_loads(swz::audit_module(text, path)), 1);
  const std::string store = "    tt.store %1, %2 :";
  text.insert(text.find(store), "    %9 = arith.addf %2, %2 : tensor<8xf16, #blocked1>\n");
  EXPECT_EQ(conversion_loads(swz::audit_module(text, path)), 8);
}

// Within one warp nothing goes through shared memory: shuffles, as before.
TEST(AuditScratch, WarpLocalReductionsAreShuffles) {
  const ScratchCase c{{32, 128}, {1, 4}, {1, 32}, {4, 1}, {1, 0}, 1, "f32"};
  const swz::AuditReport r = swz::audit_module(module_text(c), "rows.ttgir");
  ASSERT_EQ(r.accesses.size(), 1u);
  EXPECT_EQ(r.accesses[0].instruction, "shuffle");
}

// tests/data/ttgir/triton36/gather_rows.ttgir gathers along axis 0, which each warp holds whole:
// Triton 3.6 shuffles (the H100 counts no shared traffic beyond the three conversions). With the
// gathered layout's warps moved onto axis 0, the source goes through a scratch and each lane loads
// the element its index names (audit_gather.cpp): its stores priced, its loads, whose indices the
// kernel reads from memory, between ideal and worst.
TEST(AuditScratch, GatherWithinAWarpIsShufflesAcrossWarpsThroughTheScratch) {
  const std::string path = swz::test::kData + "/ttgir/triton36/gather_rows.ttgir";
  std::string text = swz::read_text_file(path);
  auto gather_rows_of = [](const swz::AuditReport& r) {
    std::vector<swz::AuditAccess> rows;
    for (const auto& a : r.accesses)
      if (a.op == "tt.gather") rows.push_back(a);
    return rows;
  };
  const auto within = gather_rows_of(swz::audit_module(text, path));
  ASSERT_EQ(within.size(), 1u);
  EXPECT_EQ(within[0].instruction, "shuffle");
  const std::string from = "sizePerThread = [2, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4]";
  text.replace(text.find(from), from.size(), "sizePerThread = [2, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1]");
  const auto across = gather_rows_of(swz::audit_module(text, path));
  ASSERT_EQ(across.size(), 2u);
  EXPECT_EQ(*across[0].direction, "store");
  EXPECT_TRUE(across[0].wavefronts.has_value());
  EXPECT_EQ(*across[1].direction, "load");
  EXPECT_TRUE(across[1].index_dependent);
  EXPECT_NE(across[1].note.find("the indices are not known before run time"), std::string::npos) << across[1].note;
}

}  // namespace
