// The audit on the modules in tests/data/ttgir: handwritten ones, and the TTGIR of real
// Triton 3.6 kernels, compared with Nsight Compute counters measured on an H100
// (tests/data/triton/ncu/h100_one_cta.csv, one CTA per kernel).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "swz/kernel/audit.h"
#include "swz/kernel/ttgir_module.h"
#include "swz/error.h"
#include "swz/io/layout_io.h"
#include "conversion_data.h"
#include <nlohmann/json.hpp>

namespace {

using swz::test::kData;

swz::AuditReport audit_file(const std::string& relative) {
  const std::string path = kData + "/ttgir/" + relative;
  return swz::audit_module(swz::read_text_file(path), path);
}

// tests/data/ttgir/mlir_dump.mlir: three real dumps under MLIR_ENABLE_DUMP headers. Each module
// audits as its own file does, with the dump file's line numbers.
TEST(AuditFiles, MlirDumpIsAuditedPerModule) {
  const std::string path = kData + "/ttgir/mlir_dump.mlir";
  const std::string text = swz::read_text_file(path);
  const auto reports = swz::audit_modules(text, path);
  ASSERT_EQ(reports.size(), 3u);
  const char* names[] = {"transpose_fp16", "matmul_tf32", "softmax"};
  const int first_lines[] = {1, 86, 291};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto alone = audit_file(std::string("triton36/") + names[i] + ".ttgir");
    const auto& r = reports[i];
    EXPECT_EQ(r.module_index, static_cast<int>(i) + 1);
    EXPECT_EQ(r.module_count, 3);
    EXPECT_EQ(r.first_line, first_lines[i]);
    EXPECT_EQ(r.header.rfind("IR Dump Before ", 0), 0u) << r.header;
    ASSERT_EQ(r.accesses.size(), alone.accesses.size()) << names[i];
    for (std::size_t k = 0; k < r.accesses.size(); ++k) {
      EXPECT_EQ(r.accesses[k].line, alone.accesses[k].line + first_lines[i]) << names[i];  // the header line comes first
      EXPECT_EQ(r.accesses[k].instruction, alone.accesses[k].instruction);
      EXPECT_EQ(r.accesses[k].wavefronts, alone.accesses[k].wavefronts);
      EXPECT_EQ(r.accesses[k].loc, alone.accesses[k].loc);
    }
  }
  EXPECT_NE(swz::module_label(reports[1]).find("mlir_dump.mlir, module 2 of 3 (line 86: IR Dump Before TritonGPUReduceDataDuplication"),
            std::string::npos);
  // One module is expected of audit_module: a dump is refused, not read as one.
  try {
    (void)swz::audit_module(text, "mlir_dump.mlir");
    ADD_FAILURE() << "no error";
  } catch (const swz::Error& e) {
    EXPECT_STREQ(e.what(), "mlir_dump.mlir: holds 3 modules (lines 1 and 86 begin the first two); audit them one by one");
  }
}

// Invalid modules (tests/data/ttgir/invalid/) stop the audit with file:line:col, as the CLI shows.
// MLIR_ENABLE_DUMP prints an unchanged module after pass after pass: DumpAuditor audits each
// distinct text once, and every report is still what auditing that module alone gives, with the
// dump file's line numbers (matmul_fp8's refusal names a line: "line 86 ttng.warp_group_dot").
TEST(AuditFiles, RepeatedModulesOfADumpAuditOnceAndReportAsIfAuditedAlone) {
  const std::string fp8 = swz::read_text_file(kData + "/ttgir/triton36/matmul_fp8.ttgir");
  const std::string transpose = swz::read_text_file(kData + "/ttgir/triton36/transpose_fp16.ttgir");
  auto header = [](const char* pass) {
    return fmt::format("// -----// IR Dump Before {} ('builtin.module' operation) //----- //\n", pass);
  };
  const std::string text = header("TritonGPUCoalesce") + fp8 + header("TritonGPUPipeline") + transpose + "\n" +
                           header("TritonGPUPrefetch") + "// a comment of its own\n\n" + fp8 + header("TritonGPUPipeline") +
                           transpose + header("ConvertTritonGPUToLLVM") + fp8;
  const std::string path = "dump.mlir";
  const auto spans = swz::ttgir::split_modules(text);
  ASSERT_EQ(spans.size(), 5u);
  const int count = static_cast<int>(spans.size());
  for (const std::size_t text_limit : {std::size_t{64} << 20, std::size_t{1}}) {  // remembering, and forgetting at once
    swz::DumpAuditor auditor(text_limit);
    for (std::size_t i = 0; i < spans.size(); ++i) auditor.check(text, path, spans[i], static_cast<int>(i) + 1, count);
    for (std::size_t i = 0; i < spans.size(); ++i) {
      SCOPED_TRACE(fmt::format("module {}, text limit {}", i + 1, text_limit));
      const swz::AuditReport alone =
          swz::audit(swz::ttgir::read_module(text, path, spans[i], static_cast<int>(i) + 1, count));
      const swz::AuditReport remembered = auditor.audit(text, path, spans[i], static_cast<int>(i) + 1, count);
      EXPECT_EQ(swz::to_json(remembered).dump(2), swz::to_json(alone).dump(2));
      EXPECT_EQ(swz::format_audit(remembered), swz::format_audit(alone));
      EXPECT_EQ(remembered.lines, alone.lines);
    }
    EXPECT_EQ(auditor.audits_done(), text_limit == 1 ? spans.size() : 2u);
  }
}

TEST(AuditFiles, InvalidModulesAreErrorsNotRows) {
  const std::map<std::string, std::string> cases = {
      {"undefined_alias", ":9:56: #shared3 is used but never defined"},
      {"swizzle_width", ":3:30: #ttg.nvmma_shared: swizzlingByteWidth = 96 is not 0, 32, 64 or 128"},
      {"threads_per_warp", ":1:50: #ttg.blocked: threadsPerWarp = [1, 16] holds 16 threads, but the module's warps have 32"},
      {"misspelled_attribute", ":3:11: #ttg.nvma_shared is not a Triton attribute (did you mean #ttg.nvmma_shared?)"},
      {"unknown_key", ":3:30: #ttg.nvmma_shared has no key 'swizzlingBytWidth' (did you mean 'swizzlingByteWidth'?)"},
  };
  for (const auto& [name, message] : cases) {
    try {
      (void)audit_file("invalid/" + name + ".ttgir");
      ADD_FAILURE() << name << ": no error";
    } catch (const swz::Error& e) {
      EXPECT_EQ(std::string(e.what()), kData + "/ttgir/invalid/" + name + ".ttgir" + message);
    }
  }
}

TEST(AuditFiles, TransposeThroughAnUnswizzledBuffer) {
  const auto r = audit_file("transpose_conflict.ttgir");
  ASSERT_EQ(r.accesses.size(), 2u);
  EXPECT_EQ(r.accesses[0].loc, "transpose.py:10:11");  // through a named loc
  EXPECT_EQ(r.accesses[1].loc, "transpose.py:12:8");
  EXPECT_EQ(r.accesses[1].wavefronts, 32.0);
  EXPECT_TRUE(r.accesses[1].suggestion);
}

TEST(AuditFiles, ViewsFollowIndexAndSubslice) {
  // Columns 16..31 of a 32x32 fp32 stage with vec 4, maxPhase 8: each quarter warp (two rows of four
  // 16-byte chunks) meets chunks (4..7) ^ r and (4..7) ^ (r+1) in the same banks: 2 passes each.
  const auto r = audit_file("views.ttgir");
  ASSERT_EQ(r.accesses.size(), 2u);
  for (const auto& a : r.accesses) {
    EXPECT_EQ(a.instruction, a.direction == "store" ? "STS.128" : "LDS.128");
    EXPECT_EQ(a.wavefronts, 8.0);
    EXPECT_EQ(a.ideal_wavefronts, 4);
    EXPECT_FALSE(a.suggestion);  // a window of a buffer: the buffer's layout is not this access's alone
  }
}

TEST(AuditFiles, NotModelledOpsAreListedWithTheirLines) {
  const auto r = audit_file("not_modelled.ttgir");
  std::map<int, std::string> lines;
  for (const auto& a : r.accesses) lines[a.line] = a.instruction;
  EXPECT_EQ(lines[9], "not modelled");   // local_store into an fp4-padded nvmma_shared buffer
  EXPECT_EQ(lines[10], "tensor memory");  // tmem_alloc: TMEM, no shared access to price
  EXPECT_EQ(lines[13], "not modelled");  // TMA copy
}

TEST(AuditFiles, MalformedModuleNamesLineAndColumn) {
  try {
    audit_file("malformed.ttgir");
    FAIL();
  } catch (const swz::Error& e) {
    EXPECT_NE(std::string(e.what()).find("malformed.ttgir:4:91: expected '>' to close the '<' at column 40"), std::string::npos);
  }
}

// The kernels of tests/data/triton/ncu/h100_kernels.json: name, ncu ID, loop trips, SASS opcodes.
struct Kernel {
  std::string name;
  int id = 0;
  int loop_trips = 0;
  std::map<std::string, int> sass;
};

std::vector<Kernel> kernels() {
  const auto j = nlohmann::json::parse(swz::read_text_file(kData + "/triton/ncu/h100_kernels.json"));
  std::vector<Kernel> out;
  for (const auto& k : j.at("kernels")) {
    Kernel x{k.at("name").get<std::string>(), k.at("id").get<int>(), k.at("loop_trips").get<int>(), {}};
    for (const auto& [op, n] : k.at("sass").items()) x.sass[op] = n.get<int>();
    out.push_back(std::move(x));
  }
  return out;
}

// The op a line of TTGIR holds ("ttg.local_load", "tt.reduce"), or "".
std::string op_of(const std::string& line) {
  std::size_t at = line.find_first_not_of(' ');
  if (at == std::string::npos) return "";
  if (line[at] == '%') {
    const std::size_t eq = line.find(" = ", at);
    if (eq == std::string::npos) return "";
    at = eq + 3;
  }
  if (line[at] == '"') ++at;
  std::size_t end = at;
  while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_' || line[end] == '.')) ++end;
  return line.substr(at, end - at);
}

// Ops that may touch shared memory: every ttg / ttng / amdg op but views, waits, fences and
// deallocations, and the tt ops whose lowering may use shared scratch.
bool may_touch_shared(const std::string& op) {
  static const std::set<std::string> no_data{"local_dealloc", "async_commit_group", "async_wait", "memdesc_index",
                                             "memdesc_subslice", "memdesc_trans", "memdesc_reinterpret", "memdesc_subview",
                                             "warp_group_dot_wait", "fence_async_shared", "barrier"};
  for (const char* d : {"ttg.", "ttng.", "amdg."})
    if (op.rfind(d, 0) == 0) return !no_data.count(op.substr(op.find('.') + 1));
  return op == "tt.reduce" || op == "tt.scan" || op == "tt.gather" || op == "tt.histogram";
}

TEST(AuditFiles, EveryMemoryOpOfTheRealKernelsIsListed) {
  const auto all = kernels();
  ASSERT_EQ(all.size(), 26u);
  for (const Kernel& k : all) {
    SCOPED_TRACE(k.name);
    const std::string path = "triton36/" + k.name + ".ttgir";
    swz::AuditReport r;
    ASSERT_NO_THROW(r = audit_file(path));
    std::set<int> listed;
    for (const auto& a : r.accesses) {
      listed.insert(a.line);
      EXPECT_EQ(a.note.find("internal"), std::string::npos) << a.line << ": " << a.note;
    }
    std::istringstream in(swz::read_text_file(kData + "/ttgir/" + path));
    std::string line;
    int no = 0;
    while (std::getline(in, line)) {
      ++no;
      const bool bare_allocation = line.find("ttg.local_alloc :") != std::string::npos;  // no data moves
      if (may_touch_shared(op_of(line)) && !bare_allocation) EXPECT_TRUE(listed.count(no)) << "line " << no << ": " << op_of(line);
    }
  }
}

// Every access the workbench loads (audit_problem) becomes a problem whose side issues the
// instruction the audit priced, as the simulator runs it: the same name (ldmatrix / stmatrix
// .xN[.trans], Triton's renumbered 128-bit vectors), count and wavefronts. cp.async copies are
// not problems (their global side is not a layout here): they keep their store width only.
TEST(AuditFiles, EachLoadedAccessSimulatesTheInstructionItWasPricedAs) {
  int loaded = 0;
  std::set<std::string> kinds;
  for (const Kernel& k : kernels()) {
    SCOPED_TRACE(k.name);
    const swz::AuditReport r = audit_file("triton36/" + k.name + ".ttgir");
    for (std::size_t i = 0; i < r.accesses.size(); ++i) {
      const swz::AuditAccess& a = r.accesses[i];
      if (!a.writer || !a.reader || !a.shared_offsets || !a.direction || !a.wavefronts) continue;
      if (a.instruction.rfind("LDGSTS", 0) == 0) continue;
      SCOPED_TRACE(fmt::format("line {} {} {}", a.line, *a.direction, a.instruction));
      const swz::Problem p = swz::build_problem(swz::audit_problem(r, i));
      const swz::Access& side = *a.direction == "store" ? p.store : p.read;
      const swz::AccessResult s = swz::simulate(side, p.shared, p.element_bits, p.bank);
      EXPECT_EQ(swz::instruction_name(side, s.vector.bits), a.instruction);
      EXPECT_EQ(s.instructions(), a.instructions);
      EXPECT_NEAR(s.mean_wavefronts, *a.wavefronts, 1e-9);
      EXPECT_EQ(s.ideal_wavefronts, a.ideal_wavefronts);
      EXPECT_EQ(s.wavefronts, a.worst_wavefronts);
      kinds.insert(a.instruction.substr(0, 4));
      ++loaded;
    }
  }
  EXPECT_GE(loaded, 40);
  EXPECT_TRUE(kinds.count("LDSM") && kinds.count("STSM") && kinds.count("STS.") && kinds.count("LDS."));
}

// -- measured -------------------------------------------------------------------------------

// ID -> metric -> value, from ncu --csv.
std::map<int, std::map<std::string, double>> load_ncu() {
  std::istringstream in(swz::read_text_file(kData + "/triton/ncu/h100_one_cta.csv"));
  std::map<int, std::map<std::string, double>> out;
  std::string line;
  auto fields = [](const std::string& l) {
    std::vector<std::string> f;
    std::string cur;
    bool q = false;
    for (char c : l) {
      if (c == '"')
        q = !q;
      else if (c == ',' && !q) {
        f.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    f.push_back(cur);
    return f;
  };
  while (std::getline(in, line)) {
    if (line.rfind("\"", 0) != 0 || line.rfind("\"ID\"", 0) == 0) continue;
    const auto f = fields(line);
    if (f.size() < 15) continue;
    std::string value = f[14];
    value.erase(std::remove(value.begin(), value.end(), ','), value.end());
    if (value.empty() || value.find_first_not_of("0123456789.") != std::string::npos) continue;  // "n/a"
    out[std::stoi(f[0])][f[12]] = std::stod(value);
  }
  return out;
}

const char* kStWave = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
const char* kLdWave = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
const char* kStInst = "smsp__sass_inst_executed_op_shared_st.sum";
const char* kLdInst = "smsp__sass_inst_executed_op_shared_ld.sum";
const char* kStConf = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
const char* kLdConf = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
const char* kLdsmInst = "smsp__sass_inst_executed_op_ldsm.sum";
const char* kLdsmWave = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum";
const char* kStsmInst = "smsp__inst_executed_op_shared_stsm.sum";

// The LSU traffic the audit predicts for a kernel, by the profiler's kinds: STS, LDS, LDSM, STSM
// (cp.async, wgmma and TMA are counted elsewhere). Ops inside the kernel's scf.for run loop_trips
// times. `unknown`: a listed op that is not modelled and may issue LSU shared-memory traffic.
struct Predicted {
  std::map<std::string, double> instructions, wavefronts, conflicts;
  std::map<std::string, std::set<int>> lines;  // the ops behind each kind
  std::set<std::string> names;                 // instruction names, as SASS would show them
  bool unknown = false;
};

Predicted predict(const Kernel& k) {
  const std::string path = "triton36/" + k.name + ".ttgir";
  // Lines inside the scf.for (these kernels have at most one loop, never nested).
  std::set<int> in_loop;
  {
    std::istringstream in(swz::read_text_file(kData + "/ttgir/" + path));
    std::string line;
    int no = 0, depth = 0, loop_depth = -1;
    while (std::getline(in, line)) {
      ++no;
      if (loop_depth >= 0) in_loop.insert(no);
      if (line.find("scf.for") != std::string::npos && loop_depth < 0) loop_depth = depth;
      depth += static_cast<int>(std::count(line.begin(), line.end(), '{')) - static_cast<int>(std::count(line.begin(), line.end(), '}'));
      if (loop_depth >= 0 && depth <= loop_depth) loop_depth = -1;
    }
  }
  Predicted p;
  for (const auto& a : audit_file(path).accesses) {
    if (a.instruction == "not modelled") {
      const bool copy_engine = a.op.find("tma") != std::string::npos || a.op.find("barrier") != std::string::npos;
      p.unknown |= !copy_engine;
      continue;
    }
    if (!a.wavefronts) continue;
    p.names.insert(a.instruction);
    const std::string kind = a.instruction.substr(0, a.instruction.find('.'));
    if (kind == "LDGSTS") continue;
    const double runs = in_loop.count(a.line) ? k.loop_trips : 1;
    const double n = static_cast<double>(a.instructions) * runs;
    // The instruction counters here are the SASS-patched ones (smsp__sass_inst_executed_*): a warp
    // instruction whose every lane's predicate is off does not count there.
    p.instructions[kind] += static_cast<double>(a.instructions - a.predicated_off) * runs;
    p.wavefronts[kind] += *a.wavefronts * n;
    p.conflicts[kind] += *a.conflicts * n;
    p.lines[kind].insert(a.line);
  }
  return p;
}

// Measured == predicted for every kind of LSU access the audit fully accounts for: all of the
// kernel's shared-memory ops are priced (a cross-warp gather's loads from indices read at run time
// are not: a range only).
// Narrow, named exceptions below.
TEST(AuditMeasured, EveryFullyModelledKernelMatchesTheCounters) {
  const auto ncu = load_ncu();
  int compared = 0;
  for (const Kernel& k : kernels()) {
    SCOPED_TRACE(k.name);
    const auto& m = ncu.at(k.id);
    const Predicted p = predict(k);
    if (p.unknown) continue;
    auto get = [&](const std::map<std::string, double>& v, const char* kind) {
      auto it = v.find(kind);
      return it == v.end() ? 0.0 : it->second;
    };
    // matmul_upcast_fp8: the local_alloc of the upcast B tile (STS.128, 8 wavefronts each as
    // modelled) measures 9.24 wavefronts per instruction: 159 more store wavefronts than predicted
    // over 160 stores, which no layout of the STS.128 addresses here explains (not understood).
    const bool upcast_stores = k.name == "matmul_upcast_fp8";
    // matmul_fp8: 2 of 16,642 store wavefronts (and 2 conflicts) more than any layout gives.
    const double st_noise = k.name == "matmul_fp8" ? 2 : 0;
    EXPECT_EQ(get(p.instructions, "STS"), m.at(kStInst));
    if (!upcast_stores) {
      EXPECT_NEAR(get(p.wavefronts, "STS") + get(p.wavefronts, "STSM"), m.at(kStWave), st_noise);
      EXPECT_NEAR(get(p.conflicts, "STS") + get(p.conflicts, "STSM"), m.at(kStConf), st_noise);
    }
    EXPECT_EQ(get(p.instructions, "LDS"), m.at(kLdInst));
    EXPECT_EQ(get(p.wavefronts, "LDS") + get(p.wavefronts, "LDSM"), m.at(kLdWave));
    EXPECT_EQ(get(p.conflicts, "LDS") + get(p.conflicts, "LDSM"), m.at(kLdConf));
    EXPECT_EQ(get(p.wavefronts, "LDSM"), m.at(kLdsmWave));
    EXPECT_EQ(get(p.instructions, "LDSM"), m.at(kLdsmInst));
    EXPECT_EQ(get(p.instructions, "STSM"), m.at(kStsmInst));
    ++compared;
  }
  // 25: the 17 without reductions, scans, gathers or histograms, and since Triton's reduction
  // scratch is modelled (audit_scratch.h) reduce_axis0, argmax_axis0, softmax and layer_norm, and
  // gather_rows (its gather is warp-local: shuffles); since scans and histograms are
  // (audit_scan.cpp) cumsum_1d, cumsum_axis0 and histogram.
  EXPECT_EQ(compared, 25);
}

// The histogram's shared atomics (ATOMS.ADD), priced by the store's bank rule, against the H100's
// atomic counters: 4 warps x 2 counters a lane (64 bins over 32 lanes: lane l owns 2l and 2l + 1,
// so lanes l and l + 16 share a bank), 2 wavefronts and 1 conflict each.
TEST(AuditMeasured, HistogramAtomicsAreTheStoreRule) {
  const auto ncu = load_ncu();
  for (const Kernel& k : kernels()) {
    if (k.name != "histogram") continue;
    const Predicted p = predict(k);
    const auto& m = ncu.at(k.id);
    EXPECT_FALSE(p.unknown);
    EXPECT_EQ(p.instructions.at("ATOMS"), m.at("smsp__inst_executed_op_shared_atom.sum"));
    EXPECT_EQ(p.wavefronts.at("ATOMS"), m.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"));
    EXPECT_EQ(p.conflicts.at("ATOMS"), m.at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"));
    EXPECT_EQ(p.instructions.at("ATOMS"), 8);
    return;
  }
  FAIL() << "no histogram kernel";
}

// Where a kernel has an op that is not priced whole (a cross-warp gather's index loads), the kinds it cannot issue
// still match: ldmatrix and stmatrix.
TEST(AuditMeasured, MatrixTrafficMatchesBesideReductions) {
  const auto ncu = load_ncu();
  for (const Kernel& k : kernels()) {
    const Predicted p = predict(k);
    if (!p.unknown || k.name == "gather_rows" || k.name == "histogram") continue;
    SCOPED_TRACE(k.name);
    const auto& m = ncu.at(k.id);
    auto get = [&](const std::map<std::string, double>& v, const char* kind) {
      auto it = v.find(kind);
      return it == v.end() ? 0.0 : it->second;
    };
    EXPECT_EQ(get(p.instructions, "LDSM"), m.at(kLdsmInst));
    EXPECT_EQ(get(p.wavefronts, "LDSM"), m.at(kLdsmWave));
    EXPECT_EQ(get(p.instructions, "STSM"), m.at(kStsmInst));
  }
}

// The kernels where one op is the only source of a kind, as the issue lists them.
TEST(AuditMeasured, SingleSourceKinds) {
  const auto ncu = load_ncu();
  std::map<std::string, Kernel> by_name;
  for (const Kernel& k : kernels()) by_name[k.name] = k;
  auto single = [&](const std::string& name, const char* kind) {
    const Predicted p = predict(by_name.at(name));
    auto it = p.lines.find(kind);
    return it != p.lines.end() && it->second.size() == 1;
  };
  EXPECT_TRUE(single("transpose_fp32", "STS") && single("transpose_fp32", "LDS"));
  EXPECT_TRUE(single("transpose_fp16", "STS") && single("transpose_fp16", "LDSM"));
  EXPECT_TRUE(single("transpose_fp8", "STS") && single("transpose_fp8", "LDS"));
  EXPECT_TRUE(single("matmul_fp16", "STS") && single("matmul_fp16", "LDSM"));
  EXPECT_TRUE(single("attention_m128", "LDSM") && single("attention_m64", "LDSM"));
  EXPECT_TRUE(single("tma_matmul", "STSM"));
  EXPECT_TRUE(single("matmul_mma_v2", "STSM") && single("matmul_mma_v2", "LDS"));
  EXPECT_TRUE(single("permute_3d", "STSM") && single("permute_3d", "LDS"));
  const Predicted fp8 = predict(by_name.at("matmul_fp8"));
  EXPECT_EQ(fp8.instructions.at("STS"), 2112);  // 4 x 512 STS.U8 (the fp8 B tile, 8 wavefronts) + 64 STS.128
}

// The instructions the audit names are the ones in the kernel's SASS (cuobjdump), and for a
// fully modelled kernel every shared-memory opcode of the SASS is one the audit names.
TEST(AuditMeasured, InstructionNamesAgreeWithTheSass) {
  for (const Kernel& k : kernels()) {
    SCOPED_TRACE(k.name);
    const Predicted p = predict(k);
    for (const std::string& name : p.names) {
      EXPECT_TRUE(k.sass.count(name)) << name;
    }
    if (p.unknown) continue;
    for (const auto& [op, n] : k.sass) {
      if (op.rfind("UTMA", 0) == 0) continue;  // TMA: listed as not modelled
      EXPECT_TRUE(p.names.count(op)) << op;
    }
  }
}

// permute_3d: a conversion whose data stays in each warp, yet its permutation of register and
// lane bits needs three register-lane exchanges, so Triton 3.6 sends it through shared memory
// instead of shuffling: 16 STSM.x4.trans and 16 LDS.128 per CTA, 4 wavefronts each, in 4 rounds.
TEST(AuditMeasured, ConvertWithinAWarpThatTritonSendsThroughSharedMemory) {
  const auto ncu = load_ncu();
  const auto r = audit_file("triton36/permute_3d.ttgir");
  ASSERT_EQ(r.accesses.size(), 2u);
  const auto& store = r.accesses[0];
  const auto& load = r.accesses[1];
  EXPECT_EQ(store.direction.value_or(""), "store");
  EXPECT_EQ(store.instruction, "STSM.x4.trans");
  EXPECT_EQ(load.direction.value_or(""), "load");
  EXPECT_EQ(load.instruction, "LDS.128");
  Kernel permute;
  for (const Kernel& k : kernels())
    if (k.name == "permute_3d") permute = k;
  const auto& m = ncu.at(permute.id);
  EXPECT_EQ(store.instructions, m.at(kStsmInst));
  EXPECT_EQ(load.instructions, m.at(kLdInst));
  ASSERT_TRUE(store.wavefronts && load.wavefronts);
  EXPECT_EQ(*store.wavefronts * static_cast<double>(store.instructions), m.at(kStWave));
  EXPECT_EQ(*load.wavefronts * static_cast<double>(load.instructions), m.at(kLdWave));
  EXPECT_EQ(m.at(kStConf) + m.at(kLdConf), 0);
  EXPECT_EQ(*store.conflicts + *load.conflicts, 0.0);
  EXPECT_EQ(permute.sass.count("STSM.x4.trans") + permute.sass.count("LDS.128"), 2u);
}

}  // namespace

namespace {

// Damaged real modules: the audit either reads them or says where they are malformed; nothing else escapes.
// The H100 matmul and the AMD ones (gfx942: amd_rotating_shared and amdg.in_thread_transpose; gfx950:
// 64 banks, ds_read_b128), each cut and spliced at random.
class MutatedKernels : public ::testing::TestWithParam<const char*> {};
INSTANTIATE_TEST_SUITE_P(AuditFiles, MutatedKernels,
                         ::testing::Values("triton36/matmul_fp16.ttgir", "targets/gfx942/matmul_fp16_128x128x64_w8s2.ttgir",
                                           "targets/gfx950/matmul_fp8_128x128x64_w8s2.ttgir"));

TEST_P(MutatedKernels, MutatedRealKernelsNeverCrash) {
  const std::string original = swz::read_text_file(kData + "/ttgir/" + GetParam());
  const std::string alphabet = "<>[]{}()%#:,=x0123456789 \"\nabf";
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int read = 0, refused = 0;
#ifdef SWZ_SANITIZED_BUILD
  const int rounds = 100;  // each round audits the whole module: a third of them under the sanitizers
#else
  const int rounds = 300;
#endif
  for (int round = 0; round < rounds; ++round) {
    std::string text = original;
    const int edits = 1 + static_cast<int>(next() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = next() % text.size();
      switch (next() % 3) {
        case 0: text[at] = alphabet[next() % alphabet.size()]; break;
        case 1: text.erase(at, 1 + next() % 8); break;
        default: text.insert(at, 1, alphabet[next() % alphabet.size()]); break;
      }
    }
    try {
      (void)swz::audit_module(text, "m.ttgir");
      ++read;
    } catch (const swz::Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("m.ttgir:", 0), 0u) << e.what();
      ++refused;
    }
  }
  EXPECT_GT(read, 0);
  EXPECT_GT(refused, 0);
}

}  // namespace
