// The audit on the modules in tests/data/ttgir: handwritten ones, and the TTGIR of real
// Triton 3.6 kernels, compared with Nsight Compute counters measured on an H100
// (tests/data/triton/ncu/h100_one_cta.csv, one CTA per kernel).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "swz/audit.h"
#include "swz/error.h"
#include "swz/layout_io.h"

namespace {

const std::string kData = SWZ_TEST_DATA;

swz::AuditReport audit_file(const std::string& relative) {
  const std::string path = kData + "/ttgir/" + relative;
  return swz::audit_module(swz::read_text_file(path), path);
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
  EXPECT_EQ(lines[9], "not modelled");   // local_store into an amd_rotating_shared buffer
  EXPECT_EQ(lines[10], "not modelled");  // tmem_alloc
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

TEST(AuditFiles, EveryMemoryOpOfTheRealKernelsIsListed) {
  for (const char* name : {"matmul_fp16", "transpose_fp32", "transpose_fp16", "transpose_fp8", "softmax"}) {
    SCOPED_TRACE(name);
    const std::string path = std::string("triton36/") + name + ".ttgir";
    const auto r = audit_file(path);
    std::set<int> listed;
    for (const auto& a : r.accesses) listed.insert(a.line);
    std::istringstream in(swz::read_text_file(kData + "/ttgir/" + path));
    std::string line;
    int no = 0, expected = 0;
    while (std::getline(in, line)) {
      ++no;
      const bool memory_op =
          line.find("ttg.local_store") != std::string::npos || line.find("ttg.local_load") != std::string::npos ||
          line.find("ttg.async_copy_global_to_local") != std::string::npos ||
          line.find("ttg.convert_layout") != std::string::npos || line.find("ttng.warp_group_dot ") != std::string::npos ||
          line.find("\"tt.reduce\"") != std::string::npos;
      if (!memory_op) continue;
      ++expected;
      EXPECT_TRUE(listed.count(no)) << "line " << no;
    }
    EXPECT_GT(expected, 0);
  }
}

// -- measured -------------------------------------------------------------------------------

struct Measured {
  std::map<std::string, double> metric;
};

// ID -> metrics, from ncu --csv.
std::map<int, Measured> load_ncu() {
  std::istringstream in(swz::read_text_file(kData + "/triton/ncu/h100_one_cta.csv"));
  std::map<int, Measured> out;
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
    out[std::stoi(f[0])].metric[f[12]] = std::stod(value);
  }
  return out;
}

struct Predicted {
  double st_instructions = 0, st_wavefronts = 0, ld_instructions = 0, ld_wavefronts = 0, conflicts = 0;
  double ldsm_instructions = 0, ldsm_wavefronts = 0;  // counted apart by the profiler
  std::string st_instruction, ld_instruction;         // the last of each direction
};

// The LSU shared-memory traffic the audit predicts for a kernel (cp.async and wgmma excluded:
// the counters below do not count them; stmatrix counts as a store, ldmatrix apart).
Predicted predict(const std::string& name) {
  Predicted p;
  for (const auto& a : audit_file("triton36/" + name + ".ttgir").accesses) {
    if (!a.wavefronts || a.instruction.rfind("LDGSTS", 0) == 0) continue;
    const double total = *a.wavefronts * static_cast<double>(a.instructions);
    const bool store = a.direction == "store", ldsm = a.instruction.rfind("LDSM", 0) == 0;
    (store ? p.st_instruction : p.ld_instruction) = a.instruction;
    (store ? p.st_instructions : ldsm ? p.ldsm_instructions : p.ld_instructions) += static_cast<double>(a.instructions);
    (store ? p.st_wavefronts : ldsm ? p.ldsm_wavefronts : p.ld_wavefronts) += total;
    p.conflicts += *a.conflicts * static_cast<double>(a.instructions);
  }
  return p;
}

const char* kStWave = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
const char* kLdWave = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
const char* kStInst = "smsp__sass_inst_executed_op_shared_st.sum";
const char* kLdInst = "smsp__sass_inst_executed_op_shared_ld.sum";
const char* kStConf = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
const char* kLdConf = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
const char* kLdsmWave = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum";

TEST(AuditMeasured, Fp32TransposeMatchesInstructionsAndWavefronts) {
  // The convert_layout is the kernel's only shared-memory access: STS.32 and LDS.32, 1 wavefront each.
  const auto m = load_ncu().at(1).metric;
  const Predicted p = predict("transpose_fp32");
  EXPECT_EQ(p.st_instruction, "STS.32");
  EXPECT_EQ(p.ld_instruction, "LDS.32");
  EXPECT_EQ(p.st_instructions, m.at(kStInst));
  EXPECT_EQ(p.ld_instructions, m.at(kLdInst));
  EXPECT_EQ(p.st_wavefronts, m.at(kStWave));
  EXPECT_EQ(p.ld_wavefronts, m.at(kLdWave));
}

TEST(AuditMeasured, Fp16TransposeMatchesInstructionsAndWavefronts) {
  // Triton 3.6: 128-bit stores (4 wavefronts each), ldmatrix.x4.trans reads (counted apart).
  const auto m = load_ncu().at(2).metric;
  const Predicted p = predict("transpose_fp16");
  EXPECT_EQ(p.st_instruction, "STS.128");
  EXPECT_EQ(p.ld_instruction, "LDSM.x4.trans");
  EXPECT_EQ(p.st_instructions, m.at(kStInst));
  EXPECT_EQ(p.st_wavefronts, m.at(kStWave));
  EXPECT_EQ(p.ld_instructions, m.at(kLdInst));  // no LDS at all
  EXPECT_EQ(p.ldsm_wavefronts, m.at(kLdsmWave));
  EXPECT_EQ(p.ldsm_wavefronts, m.at(kLdWave));  // the ld counter includes ldmatrix
  EXPECT_EQ(p.ldsm_instructions * 4, p.ldsm_wavefronts);
}

TEST(AuditMeasured, Fp8TransposeMatchesInstructionsAndWavefronts) {
  // No 128-bit tile in common: 16-bit stores (a register and a warp bit fill the bank word),
  // byte loads.
  const auto m = load_ncu().at(3).metric;
  const Predicted p = predict("transpose_fp8");
  EXPECT_EQ(p.st_instruction, "STS.U16");
  EXPECT_EQ(p.ld_instruction, "LDS.U8");
  EXPECT_EQ(p.st_instructions, m.at(kStInst));
  EXPECT_EQ(p.ld_instructions, m.at(kLdInst));
  EXPECT_EQ(p.st_wavefronts, m.at(kStWave));
  EXPECT_EQ(p.ld_wavefronts, m.at(kLdWave));
}

TEST(AuditMeasured, MatmulEpilogueMatchesInstructionsAndWavefronts) {
  // The epilogue's convert_layout is the only LSU access (cp.async and wgmma are counted elsewhere):
  // 128-bit stores and ldmatrix.x4 reads, 4 wavefronts each.
  const auto m = load_ncu().at(0).metric;
  const Predicted p = predict("matmul_fp16");
  EXPECT_EQ(p.st_instruction, "STS.128");
  EXPECT_EQ(p.ld_instruction, "LDSM.x4");
  EXPECT_EQ(p.st_instructions, m.at(kStInst));
  EXPECT_EQ(p.st_wavefronts, m.at(kStWave));
  EXPECT_EQ(p.ld_instructions, m.at(kLdInst));
  EXPECT_EQ(p.ldsm_wavefronts, m.at(kLdsmWave));
  EXPECT_EQ(p.ldsm_wavefronts, m.at(kLdWave));
  EXPECT_EQ(p.ldsm_instructions * 4, p.ldsm_wavefronts);
}

TEST(AuditMeasured, NoConflictsPredictedWhereNoneWereMeasured) {
  const auto all = load_ncu();
  const std::map<int, std::string> kernels{
      {0, "matmul_fp16"}, {1, "transpose_fp32"}, {2, "transpose_fp16"}, {3, "transpose_fp8"}};
  for (const auto& [id, name] : kernels) {
    SCOPED_TRACE(name);
    const auto& m = all.at(id).metric;
    EXPECT_EQ(m.at(kStConf) + m.at(kLdConf), 0.0);
    EXPECT_EQ(predict(name).conflicts, 0.0);
  }
}

}  // namespace

namespace {

// Damaged real modules: the audit either reads them or says where they are malformed; nothing else escapes.
TEST(AuditFiles, MutatedRealKernelsNeverCrash) {
  const std::string original = swz::read_text_file(kData + "/ttgir/triton36/matmul_fp16.ttgir");
  const std::string alphabet = "<>[]{}()%#:,=x0123456789 \"\nabf";
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int read = 0, refused = 0;
  for (int round = 0; round < 300; ++round) {
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
