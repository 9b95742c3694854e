// Legal suggestions and the fixes they write (audit.h: AuditSuggestion, fix_module), on the
// handwritten modules and the real Triton 3.6 dumps of tests/data/ttgir.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <algorithm>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "conversion_data.h"
#include "swz/error.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"
#include "swz/kernel/ttgir_module.h"

namespace {

using swz::test::kData;

std::string ttgir_text(const std::string& relative) { return swz::read_text_file(kData + "/ttgir/" + relative); }

std::vector<std::size_t> all_of(const swz::AuditReport& r) {
  std::vector<std::size_t> v(r.suggestions.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = i;
  return v;
}

double modelled_total(const swz::AuditReport& r) {
  double total = 0;
  for (const auto& a : r.accesses)
    if (a.wavefronts) total += *a.wavefronts * static_cast<double>(a.instructions);
  return total;
}

// wgmma's rules checked on a module's text, independently of the audit's own rule code: every
// shared operand is an nvmma_shared layout, and operands that are not f16 / bf16 are K-major
// (A: transposed = false, B: transposed = true).
void expect_wgmma_operands_legal(const swz::ttgir::Module& m, const std::string& what) {
  for (const auto& op : m.ops) {
    if (op.name != "ttng.warp_group_dot") continue;
    for (std::size_t i = 0; i < 2 && i < op.operand_types.size(); ++i) {
      const auto& t = op.operand_types[i];
      if (t.kind != swz::ttgir::Type::Kind::MemDesc || !t.encoding) continue;
      const swz::ttgir::AttrNode e = swz::ttgir::resolve(*t.encoding, m.aliases);
      ASSERT_EQ(e.layout_kind(), "nvmma_shared") << what << " line " << op.line;
      const auto* transposed = e.field("transposed");
      const bool is_transposed = transposed && transposed->integer != 0;
      if (t.element != "f16" && t.element != "bf16")
        EXPECT_EQ(is_transposed, i == 1) << what << " line " << op.line << " operand " << i << " " << t.element;
    }
  }
}

TEST(AuditFix, Tf32WgmmaOperandStaysKMajor) {
  // The B tile (#shared1, transposed = true) is filled by LDGSTS.32 with conflicts and read by the
  // wgmma as operand B: tf32 is K-major only, so transposed = false must not be suggested.
  const auto r = swz::audit_module(ttgir_text("triton36/matmul_tf32.ttgir"), "matmul_tf32.ttgir");
  bool saw_b_copy = false;
  for (const auto& a : r.accesses) {
    if (a.line != 71) continue;
    saw_b_copy = true;
    EXPECT_GT(*a.wavefronts, *a.ideal_wavefronts);
    if (a.suggestion) {
      EXPECT_EQ(a.suggestion->find("transposed = false"), std::string::npos) << *a.suggestion;
    } else {
      EXPECT_NE(a.no_suggestion.find("line 101 ttng.warp_group_dot"), std::string::npos) << a.no_suggestion;
      EXPECT_NE(a.no_suggestion.find("K-major"), std::string::npos) << a.no_suggestion;
    }
  }
  EXPECT_TRUE(saw_b_copy);
}

TEST(AuditFix, EverySuggestionOnRealDumpsIsLegalAndWins) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kData + "/ttgir/triton36")) {
    const std::string path = entry.path().string();
    const std::string text = swz::read_text_file(path);
    const auto r = swz::audit_module(text, path);
    ++files;
    for (const auto& s : r.suggestions) {
      EXPECT_FALSE(s.consumers.empty()) << path;
      for (const auto& c : s.consumers) EXPECT_TRUE(c.refusal.empty()) << path << " line " << c.line << ": " << c.refusal;
      EXPECT_LT(s.total_wavefronts_after, s.total_wavefronts_before) << path;
    }
    if (r.suggestions.empty()) continue;
    const std::string fixed = swz::fix_module(text, r, all_of(r));
    const auto m = swz::ttgir::read_module(fixed, path);
    expect_wgmma_operands_legal(m, path);
    EXPECT_LT(modelled_total(swz::audit(m)), modelled_total(r)) << path;
  }
  EXPECT_GE(files, 26);
}

TEST(AuditFix, FixChangesOnlyLayoutsAndAuditsBetter) {
  const std::string text = ttgir_text("transpose_conflict.ttgir");
  const auto r = swz::audit_module(text, "transpose_conflict.ttgir");
  ASSERT_EQ(r.suggestions.size(), 1u);
  const auto& s = r.suggestions[0];
  ASSERT_FALSE(s.patch.empty());
  const std::string fixed = swz::fix_module(text, r, {0});
  // Line by line: a changed line differs by the layout alone.
  std::istringstream before(text), after(fixed);
  std::string b, a;
  int changed = 0;
  while (std::getline(before, b) && std::getline(after, a)) {
    if (a == b) continue;
    ++changed;
    EXPECT_NE(b.find(s.old_layout.substr(0, 10)), std::string::npos) << b;
    EXPECT_NE(a.find(s.new_layout), std::string::npos) << a;
  }
  EXPECT_GE(changed, 1);
  const auto again = swz::audit_module(fixed, "fixed.ttgir");
  EXPECT_LT(modelled_total(again), modelled_total(r));
  for (const auto& x : again.accesses)
    if (x.wavefronts) EXPECT_EQ(*x.wavefronts, static_cast<double>(*x.ideal_wavefronts)) << x.line;
}

TEST(AuditFix, SplitsAnAliasOtherBuffersKeep) {
  // Two buffers share #shared; only the transposed read of the first conflicts.
  const std::string text = R"(#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @k(%x: tensor<32x32xf32, #blocked>) {
    %a = ttg.local_alloc %x : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    %b = ttg.local_alloc %x : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    %c = ttg.local_load %a : !ttg.memdesc<32x32xf32, #shared, #smem> -> tensor<32x32xf32, #blocked1>
    %d = ttg.local_load %b : !ttg.memdesc<32x32xf32, #shared, #smem> -> tensor<32x32xf32, #blocked>
    tt.return
  }
}
)";
  const auto r = swz::audit_module(text, "split.ttgir");
  ASSERT_EQ(r.suggestions.size(), 1u);
  EXPECT_EQ(r.suggestions[0].buffer, "%a");
  const std::string fixed = swz::fix_module(text, r, {0});
  EXPECT_NE(fixed.find("#shared_fix = "), std::string::npos);
  EXPECT_NE(fixed.find("%b = ttg.local_alloc %x : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>"),
            std::string::npos);
  EXPECT_NE(fixed.find("%c = ttg.local_load %a : !ttg.memdesc<32x32xf32, #shared_fix, #smem>"), std::string::npos);
  EXPECT_LT(modelled_total(swz::audit_module(fixed, "fixed.ttgir")), modelled_total(r));
}

TEST(AuditFix, TwoBuffersSplitFromOneAliasGetAliasesOfTheirOwn) {
  // bmm_3d: both operand tiles share #shared with the epilogue's buffer and both conflict (STS.128
  // at 8 wavefronts). Each fix adds an alias; MLIR refuses a name defined twice (Triton 3.6 on the
  // H100: "redefinition of attribute alias id 'shared_fix'"), so the second gets another name.
  const std::string text = ttgir_text("triton36/bmm_3d.ttgir");
  const auto r = swz::audit_module(text, "bmm_3d.ttgir");
  ASSERT_EQ(r.suggestions.size(), 2u);
  const std::string fixed = swz::fix_module(text, r, all_of(r));
  std::set<std::string> defined;
  std::istringstream lines(fixed);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("#", 0) == 0) EXPECT_TRUE(defined.insert(line.substr(0, line.find(" = "))).second) << line;
  const auto again = swz::audit_module(fixed, "fixed.ttgir");  // parses back (a redefinition throws)
  EXPECT_LT(modelled_total(again), modelled_total(r));
  for (const auto& x : again.accesses)
    if (x.wavefronts) EXPECT_EQ(*x.wavefronts, static_cast<double>(*x.ideal_wavefronts)) << x.line;
}

TEST(AuditFix, AnAliasDefinedTwiceIsAnErrorAtItsLine) {
  std::string text = ttgir_text("triton36/bmm_3d.ttgir");
  const std::size_t first = text.find("#shared = ");
  ASSERT_NE(first, std::string::npos);
  const std::string definition = text.substr(first, text.find('\n', first) - first + 1);
  text.insert(first, definition);
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + first, '\n')) + 1;
  try {
    (void)swz::audit_module(text, "twice.ttgir");
    FAIL() << "a redefined alias was accepted";
  } catch (const swz::Error& e) {
    EXPECT_NE(std::string(e.what()).find("twice.ttgir:" + std::to_string(line) + ":"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("already defined on line " + std::to_string(line - 1)), std::string::npos)
        << e.what();
  }
}

TEST(AuditFix, NothingToFixIsAnError) {
  const std::string text = ttgir_text("triton36/matmul_fp16.ttgir");
  const auto r = swz::audit_module(text, "matmul_fp16.ttgir");
  EXPECT_TRUE(r.suggestions.empty());
  EXPECT_THROW((void)swz::fix_module(text, r, {}), swz::Error);
}

// A kernel with a gather across warps whose indices are read from memory: its loads are priced
// only between ideal and worst, and the summary counts them and says so, never a bare
// "0 conflicts"; an op the audit does not model (TMA copies) is counted the same way.
TEST(AuditReports, SummaryCountsWhatIsNotModelled) {
  const auto r = swz::audit_module(ttgir_text("gather_across_warps.ttgir"), "gather_across_warps.ttgir");
  const auto c = swz::count_accesses(r);
  EXPECT_EQ(c.index_dependent, 1);
  const std::string table = swz::format_audit(r);
  EXPECT_NE(table.find("1 of 7 modelled accesses have bank conflicts; 0 not modelled; 1 priced only between ideal and worst "
                       "(addresses are index values read at run time: the kernel may have conflicts there)"),
            std::string::npos)
      << table;
  const auto tma = swz::audit_module(ttgir_text("not_modelled.ttgir"), "not_modelled.ttgir");
  EXPECT_EQ(swz::count_accesses(tma).not_modelled, 2);
  EXPECT_NE(swz::format_audit(tma).find("0 of 0 modelled accesses have bank conflicts; 2 not modelled (not priced: the kernel "
                                        "may have conflicts there)"),
            std::string::npos);
}

// A cross-warp scan is priced now: the summary has nothing unpriced left.
TEST(AuditReports, ScanIsPriced) {
  const auto r = swz::audit_module(ttgir_text("triton36/cumsum_1d.ttgir"), "cumsum_1d.ttgir");
  EXPECT_EQ(swz::count_accesses(r).not_modelled, 0);
  EXPECT_NE(swz::format_audit(r).find("0 of 2 modelled accesses have bank conflicts; 0 not modelled\n"), std::string::npos);
}

TEST(AuditReports, CpAsyncSaysWhatItsNumberRestsOn) {
  const auto r = swz::audit_module(ttgir_text("triton36/matmul_tf32.ttgir"), "matmul_tf32.ttgir");
  int copies = 0;
  for (const auto& a : r.accesses) {
    if (a.instruction.rfind("LDGSTS", 0) != 0) continue;
    ++copies;
    // 4-byte copies (.ca) are priced by the cp.async rule, exact; 16-byte ones (.cg) by rule 5 in the
    // src-size form Triton issues (warp_access.cpp), and say so.
    if (a.instruction == "LDGSTS.32")
      EXPECT_NE(a.note.find("cp.async: each shared bank's writes after its sources' other lanes"), std::string::npos) << a.note;
    else
      EXPECT_NE(a.note.find("cp.async.cg as Triton issues it (masked by a predicate, no size register): rule 5"), std::string::npos) << a.note;
    EXPECT_EQ(a.note.find("not modelled"), std::string::npos) << a.note;
  }
  EXPECT_GT(copies, 0);
}

}  // namespace

namespace {

// The copy's register layout as the second knob, on the tf32 matmul measured on the H100
// (tests/data/triton/fixes/): the fix redefines only the B copy's alias, wgmma and the shared
// layout unchanged; predicted cp.async wavefronts and global sectors equal the counters.
TEST(AuditCopy, Tf32CopyLayoutFixIsWhatTheH100Measured) {
  std::ifstream in(kData + "/triton/fixes/matmul_tf32-h100-20261125.json");
  ASSERT_TRUE(in);
  const nlohmann::json m = nlohmann::json::parse(in);
  const std::string original = ttgir_text("triton36/matmul_tf32.ttgir");
  const auto r = swz::audit_module(original, "matmul_tf32.ttgir");
  std::optional<std::size_t> chosen;
  for (const auto& a : r.accesses)
    if (a.line == 71) chosen = a.suggestion_index;
  ASSERT_TRUE(chosen);
  const swz::AuditSuggestion& s = r.suggestions[*chosen];
  EXPECT_EQ(s.target, swz::AuditSuggestion::Target::DistributedLayout);
  EXPECT_EQ(s.basis, "modelled");
  ASSERT_EQ(s.patch.size(), 1u);  // the alias line only
  EXPECT_EQ(s.patch[0].line, 2);
  // What --fix writes is the module that ran on the GPU.
  const std::string fixed = swz::fix_module(original, r, {*chosen});
  EXPECT_EQ(fixed, ttgir_text("fixed/matmul_tf32.ttgir"));

  const double ctas = m["ctas"], live = m["live_rounds"], masked = m["masked_rounds"];
  auto b_copy = [](const swz::AuditReport& rep) {
    for (const auto& a : rep.accesses)
      if (a.line == 71) return a;
    return swz::AuditAccess{};
  };
  const auto before = b_copy(r), after = b_copy(swz::audit_module(fixed, "fixed.ttgir"));
  EXPECT_EQ(after.wavefronts, s.wavefronts_after);
  for (const auto& [module, predicted, sectors] : {std::tuple{m["modules"][0], *before.wavefronts, *s.global_sectors_before},
                                                   std::tuple{m["modules"][1], *after.wavefronts, *s.global_sectors_after}}) {
    // Per CTA: the live rounds at the predicted count, the masked-off rounds of the pipeline's
    // tail at some whole count no larger (they read nothing).
    const double per_cta = module["ldgsts_ca_wavefronts"].get<double>() / ctas;
    const double instructions = module["ldgsts_ca_instructions"].get<double>() / ctas / (live + masked);
    EXPECT_EQ(instructions, static_cast<double>(before.instructions));
    const double masked_each = (per_cta - live * instructions * predicted) / (masked * instructions);
    EXPECT_EQ(masked_each, std::floor(masked_each)) << module["name"];
    EXPECT_GE(masked_each, 1) << module["name"];
    EXPECT_LE(masked_each, predicted) << module["name"];
    // Global sectors per live request.
    EXPECT_EQ(module["ldgsts_ca_sectors"].get<double>() / (ctas * live * instructions), sectors) << module["name"];
  }
  EXPECT_TRUE(m["modules"][1]["bitwise_identical"].get<bool>());
  EXPECT_GE(m["modules"][0]["ms_4096"].get<double>() / m["modules"][1]["ms_4096"].get<double>(), 1.5);
}

// The measured refusal: no wgmma operand is given swizzlingByteWidth = 0 (Triton 3.6 failed to lower it).
TEST(AuditCopy, Tf32FixesAtFiveTilesAreWhatTheH100Measured) {
  // tf32 matmuls at five tile sizes and warp counts (dump_kernels.py --variants), each fixed by
  // `audit --fix` and run on the H100 (tests/triton/verify_all_fixes.sh): what --fix writes today is
  // the module that ran; the B copy's predicted wavefronts are the live copies' measured ones (the
  // masked-off tail rounds at a whole count no larger), its sectors per live request the measured
  // ones; every fixed kernel bitwise identical and at least 1.5x faster at 4096^3.
  const std::string dir = kData + "/triton/fixes/h100-20261126/";
  std::ifstream in(dir + "tf32_variants.json");
  ASSERT_TRUE(in);
  const nlohmann::json data = nlohmann::json::parse(in);
  ASSERT_EQ(data["kernels"].size(), 5u);
  for (const auto& k : data["kernels"]) {
    const std::string name = k["kernel"];
    const std::string original = swz::read_text_file(dir + name + ".ttgir");
    const auto r = swz::audit_module(original, name);
    std::vector<std::size_t> chosen;
    for (std::size_t i = 0; i < r.suggestions.size(); ++i)
      if (r.suggestions[i].chosen) chosen.push_back(i);
    ASSERT_EQ(chosen.size(), 1u) << name;
    const swz::AuditSuggestion& s = r.suggestions[chosen[0]];
    EXPECT_EQ(s.target, swz::AuditSuggestion::Target::DistributedLayout) << name;
    EXPECT_EQ(s.line, k["copy_line"].get<int>()) << name;
    const std::string fixed = swz::fix_module(original, r, chosen);
    EXPECT_EQ(fixed, swz::read_text_file(dir + name + ".fixed.ttgir")) << name;
    auto copy_of = [&](const swz::AuditReport& rep) {
      for (const auto& a : rep.accesses)
        if (a.line == s.line) return a;
      return swz::AuditAccess{};
    };
    const auto before = copy_of(r), after = copy_of(swz::audit_module(fixed, name));
    ASSERT_TRUE(before.wavefronts && after.wavefronts) << name;
    const double ctas = k["ctas"], live = k["live_rounds"], masked = k["masked_rounds"];
    const auto& mods = k["modules"];
    ASSERT_EQ(mods.size(), 2u);
    for (const auto& [module, access, sectors] : {std::tuple{mods[0], before, *s.global_sectors_before},
                                                  std::tuple{mods[1], after, *s.global_sectors_after}}) {
      const double instructions = static_cast<double>(access.instructions);
      EXPECT_EQ(module["ldgsts_ca_instructions"].get<double>(), ctas * instructions * (live + masked)) << name;
      const double per_cta = module["ldgsts_ca_wavefronts"].get<double>() / ctas;
      const double masked_each = (per_cta - live * instructions * *access.wavefronts) / (masked * instructions);
      EXPECT_EQ(masked_each, std::floor(masked_each)) << name << " " << module["name"];
      EXPECT_GE(masked_each, 1) << name << " " << module["name"];
      EXPECT_LE(masked_each, *access.wavefronts) << name << " " << module["name"];
      EXPECT_EQ(module["ldgsts_ca_sectors"].get<double>() / (ctas * live * instructions), sectors) << name;
    }
    EXPECT_TRUE(mods[1]["bitwise_identical"].get<bool>()) << name;
    EXPECT_GE(mods[0]["ms_4096"].get<double>() / mods[1]["ms_4096"].get<double>(), 1.5) << name;
  }
}

TEST(AuditFix, Bmm3dFixIsWhatTheH100MeasuredPerInstruction) {
  // The fixed bmm_3d ran on the H100 (bitwise identical); ncu's per-SASS-instruction counters of
  // one CTA, summed per instruction, against the audit's lines of the original and the fixed module.
  const std::string dir = kData + "/triton/fixes/h100-20261126/";
  std::ifstream in(dir + "bmm_3d_source_counters.json");
  ASSERT_TRUE(in);
  const nlohmann::json measured = nlohmann::json::parse(in);
  const std::string original = swz::read_text_file(dir + "bmm_3d.ttgir");
  const auto r = swz::audit_module(original, "bmm_3d.ttgir");
  const std::string fixed = swz::fix_module(original, r, all_of(r));
  EXPECT_EQ(fixed, swz::read_text_file(dir + "bmm_3d.fixed.ttgir"));
  const std::map<std::string, std::string> sass = {
      {"STS.128", "STS.128"}, {"LDS.128", "LDS.128"}, {"LDSM.x4", "LDSM.16.M88.4"}, {"LDSM.x4.trans", "LDSM.16.MT88.4"}};
  for (const auto& [module, report] : {std::pair{std::string("original"), r},
                                       std::pair{std::string("fixed"), swz::audit_module(fixed, "fixed.ttgir")}}) {
    std::map<std::string, std::pair<double, double>> predicted;  // SASS name -> (instructions, wavefronts)
    for (const auto& a : report.accesses) {
      ASSERT_TRUE(a.wavefronts) << module << " line " << a.line;
      ASSERT_TRUE(sass.count(a.instruction)) << a.instruction;
      auto& [n, w] = predicted[sass.at(a.instruction)];
      n += static_cast<double>(a.instructions);
      w += *a.wavefronts * static_cast<double>(a.instructions);
    }
    const auto& m = measured["modules"][module];
    ASSERT_EQ(m.size(), predicted.size()) << module;
    for (const auto& [name, nw] : predicted) {
      EXPECT_EQ(m[name]["instructions"].get<double>(), nw.first) << module << " " << name;
      EXPECT_EQ(m[name]["wavefronts"].get<double>(), nw.second) << module << " " << name;
    }
  }
}

TEST(AuditCopy, NoSuggestionUnswizzlesAWgmmaOperand) {
  for (const char* name : {"triton36/matmul_tf32.ttgir", "triton36/matmul_fp16.ttgir", "triton36/matmul_fp8.ttgir"}) {
    const auto r = swz::audit_module(ttgir_text(name), name);
    for (const auto& s : r.suggestions)
      EXPECT_EQ(s.new_layout.find("swizzlingByteWidth = 0"), std::string::npos) << name << ": " << s.new_layout;
  }
}

}  // namespace
