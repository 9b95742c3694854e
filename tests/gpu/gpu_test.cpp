// GPU suite: the hardware's counters against the simulator, on a real GPU.
//
// Skips (GTEST_SKIP, with the reason) where no GPU can run it: CI machines, builds
// without CUDA. With SWZ_GPU_RESULTS_DIR set, writes results.md (the tables
// tests/gpu/RESULTS.md quotes) and results.json there when the suite ends; run
// the binary itself (not through ctest) so one process sees every case.
#include <algorithm>
#include <ctime>
#include <map>
#include <regex>
#include <cstdlib>
#include <fstream>
#include <mutex>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "cases.h"
#include "swz/sim/corpus.h"
#include "swz/error.h"
#include "swz/gpu.h"
#include "swz/solve/solver.h"

namespace swz::gpu_tests {
namespace {

struct Record {
  Case c;
  bool ran = false;
  std::string why;  // when !ran
  gpu::RunResult r;
};

std::vector<Record>& records() {
  static std::vector<Record> all;
  return all;
}

bool have_gpu() { return gpu::device_info().available; }
#define SWZ_REQUIRE_GPU() \
  if (!have_gpu()) GTEST_SKIP() << "no GPU to run on: " << gpu::device_info().reason

// Cases are numbered in gtest's own names (Seed/Counters.MeasuredEqualsPredicted/2) and named by
// their printed value (PrintTo, cases.h): gtest_discover_tests puts a printed value in place of a
// trailing number, so ctest lists Seed/Counters.MeasuredEqualsPredicted/transpose16x32_xor_2m. A
// name generator would leave the number out and ctest would append "  # GetParam() = <value>".

// One case under the counters; returns false (and records why) when the backend refuses it.
bool run_case(const Case& c, const gpu::RunOptions& o, gpu::RunResult& r) {
  try {
    r = gpu::run(c.problem, o);
  } catch (const swz::Error& e) {
    records().push_back({c, false, e.what(), {}});
    return false;
  }
  records().push_back({c, true, "", r});
  return true;
}

void expect_counts(const Case& c, const gpu::RunResult& r) {
  EXPECT_TRUE(r.correct) << r.first_mismatch;
  ASSERT_TRUE(r.counters_available) << r.counters_reason;
  EXPECT_EQ(r.store.measured_total, r.store.predicted_total)
      << r.store.instruction << ": measured " << r.store.measured_wavefronts << " wavefronts/instr, predicted " << r.store.predicted_wavefronts;
  EXPECT_EQ(r.read.measured_total, r.read.predicted_total)
      << r.read.instruction << ": measured " << r.read.measured_wavefronts << " wavefronts/instr, predicted " << r.read.predicted_wavefronts;
  if (r.store.measured_instructions >= 0) {
    EXPECT_EQ(r.store.measured_instructions, r.store.instructions) << "shared store instructions executed";
  }
  if (r.read.measured_instructions >= 0) {
    EXPECT_EQ(r.read.measured_instructions, r.read.instructions) << "shared load instructions executed";
  }
  // The reference's number, where it has one, for the hardware as much as for the simulator.
  if (c.reference_store) {
    EXPECT_DOUBLE_EQ(r.store.measured_wavefronts, *c.reference_store) << c.description;
  }
  if (c.reference_read) {
    EXPECT_DOUBLE_EQ(r.read.measured_wavefronts, *c.reference_read) << c.description;
  }
}

class Counters : public ::testing::TestWithParam<Case> {};

TEST_P(Counters, MeasuredEqualsPredicted) {
  SWZ_REQUIRE_GPU();
  const Case& c = GetParam();
  gpu::RunOptions o;
  o.transpose = false;
  o.repeats = 9;
  gpu::RunResult r;
  if (!run_case(c, o, r)) GTEST_SKIP() << "the GPU backend cannot run this problem: " << records().back().why;
  expect_counts(c, r);
}

INSTANTIATE_TEST_SUITE_P(Seed, Counters, ::testing::ValuesIn(seed_cases()));
INSTANTIATE_TEST_SUITE_P(Hardware, Counters, ::testing::ValuesIn(hardware_cases()));
INSTANTIATE_TEST_SUITE_P(Tma, Counters, ::testing::ValuesIn(tma_cases()));
INSTANTIATE_TEST_SUITE_P(Preset, Counters, ::testing::ValuesIn(preset_cases()));
INSTANTIATE_TEST_SUITE_P(Answer, Counters, ::testing::ValuesIn(answer_cases()));

class Transpose : public ::testing::TestWithParam<Case> {};

TEST_P(Transpose, CorrectAndNearMemcpy) {
  SWZ_REQUIRE_GPU();
  const Case& c = GetParam();
  // The layout and the instructions are the solver's answer, and the simulator finds both
  // accesses at their ideal under it.
  const Problem& p = c.problem;
  ASSERT_TRUE(c.asked.has_value());
  const SolveResult answer = solve(c.asked->store, c.asked->read, p.element_bits, p.bank);
  EXPECT_EQ(answer.shared.offsets(), p.shared.offsets()) << "not the solver's layout";
  EXPECT_EQ(instruction_name(p.store, answer.write_cost.vec_bits), answer.write_cost.instruction);
  EXPECT_EQ(instruction_name(p.read, answer.read_cost.vec_bits), answer.read_cost.instruction);
  const AccessResult ws = simulate(p.store, p.shared, p.element_bits, p.bank), rs = simulate(p.read, p.shared, p.element_bits, p.bank);
  ASSERT_EQ(ws.wavefronts, ws.ideal_wavefronts) << "the solver's layout should be conflict-free for the writer";
  ASSERT_EQ(rs.wavefronts, rs.ideal_wavefronts) << "the solver's layout should be conflict-free for the reader";
  gpu::RunOptions o;
  o.transpose_size = 8192;
  o.repeats = 41;
  o.transpose_rounds = 7;
  gpu::RunResult r;
  ASSERT_TRUE(run_case(c, o, r)) << records().back().why;
  expect_counts(c, r);
  EXPECT_EQ(r.store.instruction, answer.write_cost.instruction) << "the kernel's writer is not the answer's";
  EXPECT_EQ(r.read.instruction, answer.read_cost.instruction) << "the kernel's reader is not the answer's";
  ASSERT_TRUE(r.transpose.ran) << r.transpose.reason;
  // Every variant runs (the comparison layouts with the instructions that fit them) and is checked.
  for (const auto& v : r.transpose.variants) {
    EXPECT_TRUE(v.ran) << v.name << " (" << v.layout << ") not run: " << v.not_run;
    if (v.ran) {
      EXPECT_TRUE(v.correct) << v.name << " (" << v.layout << ", " << v.store_instruction << " / " << v.read_instruction << ") wrote a wrong element";
    }
  }
  const auto& chosen = r.transpose.variants.front();
  if (c.held_to_percent > 0) {
    EXPECT_GE(chosen.percent_of_baseline(), c.held_to_percent)
        << fmt::format("{:.0f} GB/s vs the {} baseline {:.0f} GB/s alongside ({:.1f}%)", chosen.bandwidth_gbs, r.transpose.baseline,
                       chosen.baseline_gbs, chosen.percent_of_baseline());
  }
}

INSTANTIATE_TEST_SUITE_P(Throughput, Transpose, ::testing::ValuesIn(transpose_cases()));

// -- the results tables ---------------------------------------------------------

std::string fmt_wf(double v) { return v == static_cast<double>(static_cast<long long>(v)) ? fmt::format("{:.0f}", v) : fmt::format("{:.2f}", v); }

std::string access_cells(const gpu::AccessMeasurement& a, std::optional<int> reference) {
  const std::string measured = a.measured ? fmt_wf(a.measured_wavefronts) : "-";
  const std::string verdict = !a.measured ? "-" : a.matches() ? "yes" : "**NO**";
  return fmt::format("{} x{} | {} | {} | {} | {} | {}", a.instruction, a.instructions, fmt_wf(a.predicted_wavefronts), measured,
                     reference ? std::to_string(*reference) : "", a.measured ? std::to_string(a.measured_conflicts) : "-", verdict);
}

void write_results(const std::string& dir) {
  std::string md;
  const gpu::DeviceInfo d = gpu::device_info();
  md += fmt::format("Device: {} (compute capability {}.{}, {} SMs), driver {}, CUDA runtime {}, NVRTC {}.{}.\n\n", d.name, d.compute_major,
                    d.compute_minor, d.multiprocessors, d.driver_version, d.runtime_version, d.nvrtc_major, d.nvrtc_minor);
  md += "Wavefronts per instruction: predicted by `swz::simulate`, measured from "
        "`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{st,ld}.sum` (CUPTI range profiler, one block) divided by the "
        "instructions the kernel issues; reference = `shared/reference/hardware.md`.\n\n";
  md += "| group | case | correct | store | predicted | measured | reference | conflicts | match | read | predicted | measured | reference | conflicts | match |\n";
  md += "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  nlohmann::json all = nlohmann::json::array();
  for (const auto& rec : records()) {
    if (!rec.ran) {
      md += fmt::format("| {} | {} | not run: {} |||||||||||||\n", rec.c.group, rec.c.name, rec.why);
      all.push_back({{"group", rec.c.group}, {"case", rec.c.name}, {"ran", false}, {"why", rec.why}});
      continue;
    }
    md += fmt::format("| {} | {} | {} | {} | {} |\n", rec.c.group, rec.c.name, rec.r.correct ? "yes" : "**NO**",
                      access_cells(rec.r.store, rec.c.reference_store), access_cells(rec.r.read, rec.c.reference_read));
    nlohmann::json j = gpu::to_json(rec.r);
    j["group"] = rec.c.group;
    j["case"] = rec.c.name;
    all.push_back(j);
  }
  md += "\nTranspose throughput (GB/s = bytes read + written / median time; baseline = the faster of cudaMemcpy device to device "
        "and a tuned 128-bit copy kernel on the same bytes, timed alternately with each kernel (each sample a stream of ten launches of "
        "one kernel after an untimed one), in interleaved rounds; GB/s and % "
        "are medians over the rounds; kernel configuration = the fastest on the chosen layout, used for every variant):\n\n";
  md += "| case | held to | elements | tile | kernel configuration | threads | blocks | layout, writer / reader | store / read wf/instr (pred.) | GB/s | % of baseline | "
        "rounds: lowest-highest % | baseline GB/s | correct |\n";
  md += "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  auto config = [](const gpu::TransposeSpec& t) {
    return fmt::format("{} tile{}/group{}, {} group{}/block{}{}{}{}", t.batch, t.batch == 1 ? "" : "s",
                       t.batch_along_n ? " along n" : "", t.groups, t.groups == 1 ? "" : "s", t.streaming ? ", .cs hint" : "",
                       t.m_fastest ? ", blocks along m" : "", t.persistent ? ", grid-stride" : "",
                       t.loads_first ? ", loads first" : "");
  };
  std::string tuning;
  std::string baselines;
  for (const auto& rec : records()) {
    if (!rec.ran || !rec.r.transpose.ran) continue;
    const auto& t = rec.r.transpose;
    baselines += fmt::format("| {} | {:.0f} | {:.0f} | {} | {} |\n", rec.c.name, t.memcpy_gbs, t.copy_kernel_gbs, t.copy_kernel, t.baseline);
    for (const auto& v : t.variants) {
      const std::string head = fmt::format("| {} | {} | {}x{} {}-bit | {}x{} | {} | {} | {} | {}: {}", rec.c.name, rec.c.held_to_percent ? fmt::format("{}%", rec.c.held_to_percent) : "-",
                                           t.rows, t.cols, t.element_bits, t.tile_rows, t.tile_cols,
                                           config(t.config), t.threads_per_block,
                                           t.grid_blocks(), v.name, v.layout);
      if (!v.ran) {
        md += fmt::format("{} (not run: {}) | | | | | | not run |\n", head, v.not_run);
        continue;
      }
      md += fmt::format("{}, {} / {} | {} / {} | {:.0f} | {:.1f}% | {:.1f}-{:.1f}% | {:.0f} | {} |\n", head, v.store_instruction, v.read_instruction,
                        fmt_wf(v.predicted_store_wavefronts), fmt_wf(v.predicted_read_wavefronts), v.bandwidth_gbs, v.percent_of_baseline(),
                        v.percent_min, v.percent_max, v.baseline_gbs, v.correct ? "yes" : "**NO**");
    }
    std::vector<gpu::TransposeTuning> sorted = t.tuning;
    std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) { return x.bandwidth_gbs > y.bandwidth_gbs; });
    if (!sorted.empty())
      tuning += fmt::format("| {} | {} | {:.0f} | {:.0f} | {} |\n", rec.c.name, sorted.size(), sorted.front().bandwidth_gbs,
                            sorted.back().bandwidth_gbs,
                            config(sorted.back().config));
  }
  md += "\nThe copy baseline per case (cudaMemcpy and the copy kernel timed alternately before the variants):\n\n"
        "| case | cudaMemcpy D2D GB/s | copy kernel GB/s | copy kernel configuration | baseline |\n|---|---|---|---|---|\n" + baselines;
  md += "\nKernel configurations tried on the chosen layout (fewer repeats; every one in results.json):\n\n";
  md += "| case | configurations | fastest GB/s | slowest GB/s | slowest configuration |\n|---|---|---|---|---|\n" + tuning;
  std::ofstream(dir + "/results.md") << md;
  std::ofstream(dir + "/results.json") << all.dump(1) << "\n";
}

class ResultsWriter : public ::testing::Environment {
 public:
  void TearDown() override {
    const char* dir = std::getenv("SWZ_GPU_RESULTS_DIR");
    if (dir && *dir && have_gpu() && !records().empty()) write_results(dir);
  }
};
const auto* const kWriter = ::testing::AddGlobalTestEnvironment(new ResultsWriter);

// [SECTION] calibration probe

// Each probe kernel holds exactly one executed shared-memory instruction, and it is the one named.
// A fixed block order is kept by the tuning (every configuration tried walks that way) and by the
// kernel that runs, which still writes every element right.
TEST(TransposeBlockOrder, AFixedOrderIsTheOnlyOneTriedAndRun) {
  SWZ_REQUIRE_GPU();
  const Case c = transpose_cases().front();
  for (const auto order : {gpu::RunOptions::BlockOrder::AlongM, gpu::RunOptions::BlockOrder::AlongN}) {
    gpu::RunOptions o;
    o.counters = false;
    o.transpose_size = 2048;
    o.repeats = 3;
    o.block_order = order;
    const gpu::RunResult r = gpu::run(c.problem, o);
    ASSERT_TRUE(r.transpose.ran) << r.transpose.reason;
    const bool along_m = order == gpu::RunOptions::BlockOrder::AlongM;
    EXPECT_EQ(r.transpose.config.m_fastest, along_m);
    ASSERT_FALSE(r.transpose.tuning.empty());
    for (const gpu::TransposeTuning& t : r.transpose.tuning) EXPECT_EQ(t.config.m_fastest, along_m);
    ASSERT_FALSE(r.transpose.variants.empty());
    EXPECT_TRUE(r.transpose.variants.front().correct);
  }
}

// A fixed configuration runs as given: no tuning, that configuration in the result, every element
// right; one with no kernel for the problem is refused before any GPU work.
TEST(TransposeConfig, AFixedConfigurationRunsAsGiven) {
  SWZ_REQUIRE_GPU();
  const Case c = transpose_cases().front();
  gpu::RunOptions o;
  o.counters = false;
  o.transpose_size = 2048;
  o.repeats = 3;
  gpu::TransposeSpec fixed;
  fixed.batch = 2;
  fixed.m_fastest = true;
  fixed.loads_first = true;
  o.transpose_config = fixed;
  const gpu::RunResult r = gpu::run(c.problem, o);
  ASSERT_TRUE(r.transpose.ran) << r.transpose.reason;
  EXPECT_TRUE(r.transpose.tuning.empty());
  EXPECT_EQ(r.transpose.config.batch, 2);
  EXPECT_TRUE(r.transpose.config.m_fastest);
  EXPECT_TRUE(r.transpose.config.loads_first);
  EXPECT_FALSE(r.transpose.config.streaming);
  ASSERT_FALSE(r.transpose.variants.empty());
  EXPECT_TRUE(r.transpose.variants.front().correct);
  o.transpose_size = 48;  // not a whole number of 2 x 16-row blocks
  try {
    (void)gpu::run(c.problem, o);
    ADD_FAILURE() << "a configuration with no kernel ran";
  } catch (const swz::Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the transpose configuration has no kernel for this problem"), std::string::npos) << message;
  }
}

TEST(Calibration, ProbeKernelsAreExactlyTheirInstruction) {
  SWZ_REQUIRE_GPU();
  if (std::system("command -v cuobjdump >/dev/null 2>&1") != 0) GTEST_SKIP() << "cuobjdump is not installed";
  const gpu::DeviceInfo d = gpu::device_info();
  const std::vector<InstructionKind> kinds = all_instruction_kinds();
  const std::vector<char> cubin = gpu::calibration_cubin(kinds, d.compute_major, d.compute_minor);
  const std::string dir = ::testing::TempDir();
  {
    std::ofstream f(dir + "/swz_probe.cubin", std::ios::binary);
    f.write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
  }
  ASSERT_EQ(std::system(("cuobjdump -sass " + dir + "/swz_probe.cubin > " + dir + "/swz_probe.sass").c_str()), 0);
  std::ifstream in(dir + "/swz_probe.sass");
  std::map<std::string, std::vector<std::string>> shared_ops;  // kernel -> executed shared-memory instructions
  std::string line, kernel;
  const std::regex function(R"(Function : (\S+))");
  const std::regex op(R"(^\s*/\*[0-9a-f]+\*/\s+(@\S+\s+)?((LDS|STS|LDSM|STSM|LDGSTS)(\.[A-Z0-9]+)* ))");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, function)) kernel = m[1];
    else if (std::regex_search(line, m, op) && m[1].str().rfind("@!PT", 0) != 0) shared_ops[kernel].push_back(m[2]);
  }
  for (const InstructionKind& k : kinds) {
    const auto& ops = shared_ops[gpu::calibration_kernel_name(k)];
    ASSERT_EQ(ops.size(), 1u) << k.name() << ": " << fmt::format("{}", fmt::join(ops, "| "));
    EXPECT_TRUE(std::regex_match(ops[0], std::regex(gpu::expected_sass(k)))) << k.name() << " compiled to " << ops[0];
  }
}

// A fresh random calibration (the clock's seed) agrees with the model on every case.
TEST(Calibration, FreshRandomCasesAgreeWithTheModel) {
  SWZ_REQUIRE_GPU();
  const auto seed = static_cast<std::uint64_t>(std::time(nullptr));
  std::vector<CorpusCase> cases = generate_cases(/*count=*/1160, seed, all_instruction_kinds());
  gpu::CalibrationInfo info;
  try {
    info = gpu::calibrate(cases);
  } catch (const gpu::Unavailable& e) {
    GTEST_SKIP() << e.what();
  }
  ReplayReport report;
  replay_into(report, cases, BankModel{});
  EXPECT_EQ(report.all.disagree(), 0) << "seed " << seed << "\n" << to_text(report);
}

}  // namespace
}  // namespace swz::gpu_tests
