// The audit grows linearly with a buffer's accesses: every access of a buffer shares the buffer's
// one suggestion, which lists every op using the buffer. Printed once per access (its "checked
// against" list in the table, the whole suggestion in the JSON), 10,000 loads of one buffer made
// 1.7 GB of output and 3.4 GB of memory.
#include <gtest/gtest.h>

#include <string>

#include "swz/kernel/audit.h"

namespace {

// transpose_conflict.ttgir with `loads` column reads of its buffer (each 32 wavefronts; a swizzle fixes them all).
std::string module_with_loads(int loads) {
  std::string text =
      R"(#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transpose(%x: tensor<32x32xf32, #blocked>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    ttg.local_store %x, %buf : tensor<32x32xf32, #blocked> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
)";
  for (int i = 0; i < loads; ++i)
    text += "    %y" + std::to_string(i) +
            " = ttg.local_load %buf : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> tensor<32x32xf32, #blocked1>\n";
  return text + "    tt.return\n  }\n}\n";
}

TEST(AuditScale, OutputGrowsLinearlyWithTheAccessesOfOneBuffer) {
  const swz::AuditReport small = swz::audit_module(module_with_loads(200), "k.ttgir");
  const swz::AuditReport large = swz::audit_module(module_with_loads(800), "k.ttgir");
  ASSERT_EQ(large.accesses.size(), 801u);
  ASSERT_EQ(large.suggestions.size(), 1u);
  EXPECT_EQ(large.suggestions[0].consumers.size(), 802u);  // the suggestion still names every op (and the allocation), once
  // Four times the accesses: about four times the output, not sixteen.
  const double text_ratio =
      static_cast<double>(swz::format_audit(large).size()) / static_cast<double>(swz::format_audit(small).size());
  const double json_ratio =
      static_cast<double>(swz::to_json(large).dump().size()) / static_cast<double>(swz::to_json(small).dump().size());
  EXPECT_LT(text_ratio, 4.5);
  EXPECT_LT(json_ratio, 4.5);
}

TEST(AuditScale, EachAccessPointsAtItsBuffersOneSuggestion) {
  const swz::AuditReport r = swz::audit_module(module_with_loads(20), "k.ttgir");
  const nlohmann::json j = swz::to_json(r);
  ASSERT_EQ(j["suggestions"].size(), 1u);
  for (const auto& a : j["accesses"])  // the store is conflict-free; every read points at the one suggestion
    EXPECT_EQ(a["suggestion"], a["op"] == "ttg.local_load" ? nlohmann::json(0) : nlohmann::json(nullptr)) << a.dump();
  EXPECT_EQ(j["suggestions"][0]["consumers"].size(), 22u);
  // The table names the first 8 ops checked and counts the rest.
  const std::string text = swz::format_audit(r);
  EXPECT_NE(
      text.find("checked against: line 7 allocation, line 8 store STSM.x4 -> STS.32, line 9 load LDS.32 -> LDS.32, line 10 "
                "load LDS.32 -> LDS.32, line 11 load LDS.32 -> LDS.32, line 12 load LDS.32 -> LDS.32, line 13 load LDS.32 -> "
                "LDS.32, line 14 load LDS.32 -> LDS.32, and 14 more ops (22 in all)\n"),
      std::string::npos)
      << text;
}

TEST(AuditScale, AFewConsumersAreListedWhole) {
  const swz::AuditSuggestion s{.consumers = {{12, "ttg.local_store", "store", ""}, {14, "ttg.local_load", "load", ""}}};
  EXPECT_EQ(swz::consumers_summary(s), "line 12 store, line 14 load");
  EXPECT_EQ(swz::consumers_summary(s, 1), "line 12 store, and 1 more op (2 in all)");
}

}  // namespace
