// Source generation: every case's kernels compile with NVRTC for sm_90 (no GPU
// needed, only a CUDA build), input cannot reach the source, and a build
// without CUDA says why it cannot run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "cases.h"
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/gpu.h"
#include "swz/sim/bank.h"
#include "gpu_internal.h"
#include "swz/algebra/f2.h"
#include <nlohmann/json.hpp>

namespace swz::gpu_tests {
namespace {

std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (auto group : {seed_cases(), hardware_cases(), tma_cases(), preset_cases(), transpose_cases()})
    for (auto& c : group) out.push_back(std::move(c));
  return out;
}

bool runnable_on_gpu(const Problem& p) { return p.bank.banks == 32 && p.bank.warp_size == 32; }

TEST(GpuCodegen, EveryCaseCompilesWithNvrtc) {
  if (!gpu::built_with_cuda()) GTEST_SKIP() << "built without CUDA: no NVRTC to compile with";
  for (const Case& c : all_cases()) {
    SCOPED_TRACE(c.group + "/" + c.name);
    if (!runnable_on_gpu(c.problem)) {
      EXPECT_THROW(gpu::generate_probe_source(c.problem), swz::Error);
      continue;
    }
    const gpu::GeneratedSource g = gpu::generate_probe_source(c.problem);
    EXPECT_NO_THROW(gpu::compile_check(g.source, 9, 0));
    if (gpu::transpose_unsupported_reason(c.problem).empty() && c.group == "transpose") {
      gpu::TransposeSpec strided{8192, 8192, 2, true, true, 2};
      strided.persistent = true;
      gpu::TransposeSpec fenced = strided;
      fenced.loads_first = true;
      for (const gpu::TransposeSpec spec : {gpu::TransposeSpec{8192, 8192, 1, false, false, 1}, strided, fenced})
        for (const gpu::TransposeVariantPlan& v : gpu::plan_transpose_variants(c.problem, spec)) {
          ASSERT_EQ(v.not_run, "") << v.name;
          const gpu::GeneratedSource t = gpu::generate_transpose_source(v.problem, v.problem.shared, spec);
          EXPECT_NO_THROW(gpu::compile_check(t.source, 9, 0)) << v.name << " batch " << spec.batch;
        }
    }
  }
}

// The comparison layouts run on every transpose case with the instructions that fit them: the
// answer's own where they fit, else plain LDS/STS of the same elements at the widest vector the
// layout allows, so the global side is the chosen kernel's.
TEST(GpuCodegen, TransposeVariantsRunWithTheInstructionsThatFit) {
  for (const Case& c : transpose_cases()) {
    SCOPED_TRACE(c.name);
    const gpu::TransposeSpec spec{8192, 8192, 1, false, false, 1};
    const std::vector<gpu::TransposeVariantPlan> plans = gpu::plan_transpose_variants(c.problem, spec);
    ASSERT_EQ(plans.size(), 3u);
    EXPECT_EQ(plans[0].name, "chosen");
    EXPECT_EQ(plans[0].problem.shared.offsets(), c.problem.shared.offsets());
    EXPECT_EQ(plans[1].problem.shared.offsets(), row_major(c.problem.shape).offsets());
    const gpu::detail::AccessPlan chosen_store = gpu::detail::plan_access(c.problem.store, c.problem.shared, c.problem.element_bits, c.problem.bank);
    const gpu::detail::AccessPlan chosen_read = gpu::detail::plan_access(c.problem.read, c.problem.shared, c.problem.element_bits, c.problem.bank);
    for (const gpu::TransposeVariantPlan& v : plans) {
      SCOPED_TRACE(v.name);
      EXPECT_EQ(v.not_run, "");
      const Problem& q = v.problem;
      const gpu::detail::AccessPlan store = gpu::detail::plan_access(q.store, q.shared, q.element_bits, q.bank);
      const gpu::detail::AccessPlan read = gpu::detail::plan_access(q.read, q.shared, q.element_bits, q.bank);
      // Each side fits its layout, and each lane holds the same elements as in the answer (the
      // registers may be renumbered), so the global loads and stores are the chosen kernel's.
      const auto sorted = [](std::vector<BitVec> coords) {
        std::sort(coords.begin(), coords.end());
        return coords;
      };
      EXPECT_EQ(sorted(store.register_coords), sorted(chosen_store.register_coords));
      EXPECT_EQ(store.lane_images, chosen_store.lane_images);
      EXPECT_EQ(sorted(read.register_coords), sorted(chosen_read.register_coords));
      EXPECT_EQ(read.lane_images, chosen_read.lane_images);
      // A lane's 16 bytes along a row of the tile are one 128-bit store in row-major and padded rows.
      if (c.name.ends_with("_v128") && v.name != "chosen") {
        EXPECT_EQ(store.instruction, "STS.128");
      }
      // An access that fits as wide keeps the answer's instruction.
      for (const auto& [mine, answer, answer_plan] : {std::tuple{&q.store, &c.problem.store, &chosen_store}, std::tuple{&q.read, &c.problem.read, &chosen_read}}) {
        bool fits = true;
        try {
          (void)choose_vector(*answer, q.shared, q.element_bits, q.bank);
        } catch (const swz::Error&) {
          fits = false;
        }
        if (fits && choose_vector(*answer, q.shared, q.element_bits, q.bank).bits >= choose_vector(*mine, q.shared, q.element_bits, q.bank).bits) {
          EXPECT_EQ(instruction_name(*mine, choose_vector(*mine, q.shared, q.element_bits, q.bank).bits), answer_plan->instruction);
        }
      }
    }
  }
}

// A tile no block's shared memory can hold is refused on its bytes before the solver runs: at
// 16384 x 16384 the solver's full check would stop first on its 2^28-entry table (and at 4096 x
// 4096 build its 2^24 entries, a second of work, before the kernel could say no).
TEST(GpuCodegen, ATileNoBlockHoldsIsRefusedBeforeTheSolver) {
  for (const std::int64_t n : {std::int64_t{4096}, std::int64_t{16384}}) {
    const std::vector<std::int64_t> shape{n, n};
    Problem p;
    p.shape = shape;
    p.element_bits = 16;
    p.store = Access{blocked({1, 8}, {1, 32}, {8, 1}, {1, 0}, shape), AccessKind::Store, 0, 0};
    p.read = Access{blocked({8, 1}, {32, 1}, {1, 8}, {0, 1}, shape), AccessKind::Load, 0, 0};
    const std::string bytes = std::to_string(n * n * 2);
    try {
      (void)gpu::solved_problem(p);
      ADD_FAILURE() << n << ": a " << bytes << "-byte tile was solved for a block";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), "the shared layout needs " + bytes + " bytes; a block gets at most 227 KB");
    }
  }
}

TEST(GpuCodegen, OffsetFormsFollowTheLayout) {
  Problem p = make_preset("transpose16x32");
  p.apply_variant("xor-2m");
  EXPECT_EQ(gpu::generate_probe_source(p).plan.offset_form, "linear (XOR)");
  p.apply_variant("padded");
  EXPECT_EQ(gpu::generate_probe_source(p).plan.offset_form, "affine");
  Problem t = make_preset("tma128_fp16");
  t.apply_variant("tma-128B-base-0x80");
  EXPECT_FALSE(t.shared.is_linear());
  EXPECT_EQ(gpu::generate_probe_source(t).plan.offset_form, "table");
}

TEST(GpuCodegen, UserTextNeverReachesTheSource) {
  Problem p = make_preset("transpose16x32");
  p.name = "x */ } __global__ void evil() { asm(\"trap;\"); /*";
  p.description = p.name;
  const std::string s = gpu::generate_probe_source(p).source;
  EXPECT_EQ(s.find("evil()"), std::string::npos);
  EXPECT_EQ(s.find("*/ }"), std::string::npos);
  EXPECT_EQ(s.find("trap;"), std::string::npos);
}

TEST(GpuCodegen, RefusesWhatTheGpuCannotRun) {
  EXPECT_THROW(gpu::generate_probe_source(make_preset("toy8x8")), swz::Error);  // 8 banks, 8-lane warps
  Problem p = make_preset("tma128_fp16");
  p.element_bits = 32;
  p.read.trans = true;  // ldmatrix .trans moves 16-bit elements
  EXPECT_THROW(gpu::generate_probe_source(p), swz::Error);
  p.element_bits = 64;  // ldmatrix moves 8- to 32-bit elements
  p.read.trans = false;
  EXPECT_THROW(gpu::generate_probe_source(p), swz::Error);
}

// With loads_first a CTA fence stands after the last global load and before the first shared
// store (ptxas keeps loads ahead of a fence); without it there is none. Indices are 32-bit where
// every element of the matrix has one below 2^32, 64-bit beyond.
TEST(GpuCodegen, LoadsFirstFencesTheLoadsFromTheSharedStores) {
  const Case c = transpose_cases().front();
  gpu::TransposeSpec spec{8192, 8192, 1, false, false, 1};
  const std::string plain = gpu::generate_transpose_source(c.problem, c.problem.shared, spec).source;
  EXPECT_EQ(plain.find("__threadfence_block"), std::string::npos);
  spec.loads_first = true;
  const std::string src = gpu::generate_transpose_source(c.problem, c.problem.shared, spec).source;
  const std::size_t fence = src.find("__threadfence_block();");
  ASSERT_NE(fence, std::string::npos);
  EXPECT_NE(src.rfind("* p = in +", fence), std::string::npos);  // loads before the fence
  EXPECT_EQ(src.find("* p = in +", fence), std::string::npos);    // none after it
  auto first_shared_store = [](const std::string& code) { return std::min(code.find("st.shared"), code.find("stmatrix")); };
  EXPECT_GT(first_shared_store(src), fence);
  EXPECT_NE(src.find("const unsigned swz_rows"), std::string::npos);
  const gpu::TransposeSpec huge{65536, 65536, 1, false, false, 1};
  EXPECT_NE(gpu::generate_transpose_source(c.problem, c.problem.shared, huge).source.find("const unsigned long long swz_rows"), std::string::npos);
}

// A warp group's batch along n: tile t starts t tiles to the right of the block's first column and
// every tile of the block on its first row; the grid has batch x fewer blocks across n and batch x
// more down m than the same batch along m. A matrix that is not a whole number of such blocks is refused.
TEST(GpuCodegen, TilesAlongNSitSideBySideAcrossTheInputRows) {
  const Case c = transpose_cases().front();
  const std::int64_t tm = c.problem.shape[0], tn = c.problem.shape[1];
  gpu::TransposeSpec spec{8192, 8192, 4, false, false, 2};
  const gpu::GeneratedSource down = gpu::generate_transpose_source(c.problem, c.problem.shared, spec);
  spec.batch_along_n = true;
  const gpu::GeneratedSource across = gpu::generate_transpose_source(c.problem, c.problem.shared, spec);
  EXPECT_EQ(down.plan.blocks_m, 8192 / (tm * 4 * 2));
  EXPECT_EQ(down.plan.blocks_n, 8192 / tn);
  EXPECT_EQ(across.plan.blocks_m, 8192 / (tm * 2));
  EXPECT_EQ(across.plan.blocks_n, 8192 / (tn * 4));
  EXPECT_EQ(across.plan.shared_bytes, down.plan.shared_bytes);
  for (int t = 0; t < 4; ++t) {
    EXPECT_NE(across.source.find(fmt::format("n0_{} = ((unsigned)blockIdx.x * 4u + {}u) * {}u;", t, t, tn)), std::string::npos)
        << t;
    EXPECT_NE(across.source.find(fmt::format("m0_{} = (((unsigned)blockIdx.y * 2u + swz_group) * 1u + 0u) * {}u;", t, tm)),
              std::string::npos)
        << t;
    EXPECT_NE(down.source.find(fmt::format("n0_{} = ((unsigned)blockIdx.x * 1u + 0u) * {}u;", t, tn)), std::string::npos) << t;
    EXPECT_NE(down.source.find(fmt::format("m0_{} = (((unsigned)blockIdx.y * 2u + swz_group) * 4u + {}u) * {}u;", t, t, tm)),
              std::string::npos)
        << t;
  }
  EXPECT_NE(across.source.find("4 per warp group along n"), std::string::npos);
  spec.cols = tn * 2;  // two tiles across: not a whole block of four
  EXPECT_THROW(gpu::generate_transpose_source(c.problem, c.problem.shared, spec), swz::Error);
}

// The tuning's space: every count, grid-stride and loads-first setting and allowed block order, a
// batch of two or more tiles along m and along n, each once, and never the evict-first hint, whose
// worth follows where the caller's buffers lie.
TEST(TransposeConfig, TheTuningTriesEveryConfigurationButTheCacheHint) {
  using Order = gpu::RunOptions::BlockOrder;
  const auto key = [](const gpu::TransposeSpec& c) {
    return std::make_tuple(c.batch, c.groups, c.m_fastest, c.persistent, c.loads_first, c.batch_along_n);
  };
  const std::vector<gpu::TransposeSpec> tuned = gpu::transpose_tuning_candidates(4096, Order::Tuned);
  // batch 1, or 2 / 4 / 8 along m or along n: 7 placements of a group's tiles
  EXPECT_EQ(tuned.size(), 7u * 4u * 2u * 2u * 2u);
  std::set<decltype(key(tuned[0]))> seen;
  for (const gpu::TransposeSpec& c : tuned) {
    EXPECT_FALSE(c.streaming);
    EXPECT_EQ(c.rows, 4096);
    EXPECT_EQ(c.cols, 4096);
    EXPECT_TRUE(gpu::is_transpose_count(c.batch) && gpu::is_transpose_count(c.groups));
    EXPECT_FALSE(c.batch == 1 && c.batch_along_n);
    EXPECT_TRUE(seen.insert(key(c)).second) << "tried twice: " << c.batch << " tiles, " << c.groups << " groups";
  }
  for (const Order order : {Order::AlongM, Order::AlongN}) {
    const std::vector<gpu::TransposeSpec> fixed = gpu::transpose_tuning_candidates(8192, order);
    EXPECT_EQ(fixed.size(), tuned.size() / 2);
    for (const gpu::TransposeSpec& c : fixed) EXPECT_EQ(c.m_fastest, order == Order::AlongM);
  }
}

// A configuration reads back from the JSON a run writes for it: every tuning entry of a run
// (every count and flag) comes back as the configuration it was written from; keys left out keep
// their defaults; a bad key or value is named.
TEST(TransposeConfig, ReadsBackEveryConfigurationARunWrites) {
  gpu::RunResult r;
  r.transpose.ran = true;
  for (int batch : gpu::kTransposeCounts)
    for (int groups : gpu::kTransposeCounts)
      for (int flags = 0; flags < 32; ++flags) {
        gpu::TransposeSpec c{8192, 8192, batch, (flags & 1) != 0, (flags & 2) != 0, groups};
        c.persistent = (flags & 4) != 0;
        c.loads_first = (flags & 8) != 0;
        c.batch_along_n = (flags & 16) != 0;
        r.transpose.tuning.push_back({c, 1000.0 + flags});
      }
  const nlohmann::json j = gpu::to_json(r);
  ASSERT_EQ(j["transpose"]["tuning"].size(), r.transpose.tuning.size());
  for (std::size_t i = 0; i < r.transpose.tuning.size(); ++i) {
    const gpu::TransposeSpec want = r.transpose.tuning[i].config;
    const gpu::TransposeSpec got = gpu::transpose_config_from_json(j["transpose"]["tuning"][i]);
    EXPECT_EQ(got.batch, want.batch);
    EXPECT_EQ(got.groups, want.groups);
    EXPECT_EQ(got.streaming, want.streaming);
    EXPECT_EQ(got.m_fastest, want.m_fastest);
    EXPECT_EQ(got.persistent, want.persistent);
    EXPECT_EQ(got.loads_first, want.loads_first);
    EXPECT_EQ(got.batch_along_n, want.batch_along_n);
  }
  const gpu::TransposeSpec partial = gpu::transpose_config_from_json(nlohmann::json::parse(R"({"tiles_per_block": 4})"));
  EXPECT_EQ(partial.batch, 4);
  EXPECT_EQ(partial.groups, 1);
  EXPECT_FALSE(partial.m_fastest || partial.streaming || partial.persistent || partial.loads_first || partial.batch_along_n);
  const auto expect_refused = [](const char* text, const std::string& why) {
    std::string message = "accepted";
    try {
      (void)gpu::transpose_config_from_json(nlohmann::json::parse(text));
    } catch (const swz::Error& e) {
      message = e.what();
    }
    EXPECT_NE(message.find(why), std::string::npos) << text << ": " << message;
  };
  expect_refused(R"({"warp_groups_per_block": 16})", "warp_groups_per_block: 16 is not 1, 2, 4 or 8");
  expect_refused(R"({"tiles_per_block": 2.5})", "tiles_per_block: 2.5 is not 1, 2, 4 or 8");
  expect_refused(R"({"evict_first_hint": "yes"})", "evict_first_hint: \"yes\" is not true or false");
  expect_refused(R"({"tiles_along_n": 1})", "tiles_along_n: 1 is not true or false");
  expect_refused(R"({"order": "m"})", "unknown key 'order'");
  expect_refused("[1, 2]", "is a JSON object");
}

TEST(GpuCodegen, CalibrationProbesCompileForEveryKind) {
  const std::vector<InstructionKind> kinds = all_instruction_kinds();
  const std::string src = gpu::generate_calibration_source(kinds);
  for (const InstructionKind& k : kinds) {
    EXPECT_NE(src.find(gpu::calibration_kernel_name(k) + "("), std::string::npos) << k.name();
    EXPECT_FALSE(gpu::expected_sass(k).empty()) << k.name();
  }
  if (!gpu::built_with_cuda()) GTEST_SKIP() << "built without CUDA: no NVRTC to compile with";
  EXPECT_NO_THROW(gpu::compile_check(src, 9, 0));
  EXPECT_FALSE(gpu::calibration_cubin(kinds, 9, 0).empty());
}

// [SECTION] the answer's instructions in the compiled kernels

// A tool on PATH or in the CUDA toolkit's usual place; "" when neither has it.
std::string find_tool(const std::string& name) {
  if (std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0) return name;
  const std::string usual = "/usr/local/cuda/bin/" + name;
  return std::ifstream(usual).good() ? usual : "";
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Shared-memory instructions of each kernel in a PTX file (.entry) or a cuobjdump -sass listing (Function :).
std::map<std::string, std::vector<std::string>> shared_instructions(const std::string& listing, bool sass) {
  const std::regex kernel(sass ? R"(Function : (\w+))" : R"(\.entry (\w+)\()");
  const std::regex op(sass ? R"(^\s*/\*[0-9a-f]+\*/\s+(@\S+\s+)?((LDS|STS|LDSM|STSM)(\.[A-Z0-9]+)* ))"
                           : R"(^\s*(@\S+\s+)?(((ld|st)(\.volatile)?\.shared|ldmatrix|stmatrix)\.\S+))");
  std::map<std::string, std::vector<std::string>> out;
  std::istringstream in(listing);
  std::string line, name;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, kernel)) name = m[1];
    else if (std::regex_search(line, m, op) && m[1].str().rfind("@!PT", 0) != 0) out[name].push_back(m[2]);
  }
  return out;
}

struct KernelSources {
  std::string name;
  Problem problem;
  InstructionKind store, read;
  int store_steps = 0, read_steps = 0;  // instructions per thread
  bool transpose = false;
};

// The solver's answers (the transpose cases) and the ldmatrix reads of the TMA cases, with the
// instruction each side must issue.
std::vector<KernelSources> answer_kernels() {
  std::vector<KernelSources> out;
  std::vector<Case> cases = transpose_cases();
  for (auto group : {tma_cases(), answer_cases()})
    for (Case& c : group) cases.push_back(std::move(c));
  for (const Case& c : cases) {
    const Problem& p = c.problem;
    const AccessResult w = simulate(p.store, p.shared, p.element_bits, p.bank), r = simulate(p.read, p.shared, p.element_bits, p.bank);
    out.push_back({c.name, p, instruction_kind(p.store, w.vector.bits), instruction_kind(p.read, r.vector.bits), w.steps, r.steps,
                   c.group == "transpose"});
    if (c.asked) {  // the kinds are the answer's
      const SolveResult answer = solve(c.asked->store, c.asked->read, p.element_bits, p.bank);
      EXPECT_EQ(out.back().store.name(), answer.write_cost.instruction) << c.name;
      EXPECT_EQ(out.back().read.name(), answer.read_cost.instruction) << c.name;
    }
  }
  return out;
}

// Compiles every kernel source with nvcc for sm_90 in one call (`mode`: -ptx or -cubin); returns
// the files, in order (probe, transpose per kernel set), or "" with the compiler's log in `log`.
std::vector<std::string> nvcc_compile(const std::string& nvcc, const std::vector<KernelSources>& kernels, const std::string& mode,
                                      std::string& log) {
  const std::string dir = ::testing::TempDir() + "/swz_answer_kernels" + mode;
  std::system(("mkdir -p " + dir).c_str());
  std::string command = nvcc + " -arch=sm_90 " + mode + " -odir " + dir;
  std::vector<std::string> outputs;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    std::vector<std::string> sources{gpu::generate_probe_source(kernels[i].problem).source};
    if (kernels[i].transpose)
      sources.push_back(gpu::generate_transpose_source(kernels[i].problem, kernels[i].problem.shared, gpu::TransposeSpec{}).source);
    for (std::size_t k = 0; k < sources.size(); ++k) {
      const std::string stem = fmt::format("{}/k{}_{}", dir, i, k);
      std::ofstream(stem + ".cu") << sources[k];
      command += " " + stem + ".cu";
      outputs.push_back(stem + (mode == "-ptx" ? ".ptx" : ".cubin"));
    }
  }
  if (std::system((command + " > " + dir + "/log.txt 2>&1").c_str()) != 0) {
    log = read_text(dir + "/log.txt");
    return {};
  }
  return outputs;
}

// Every shared-memory instruction of `ops` is `kind`'s, `count` of them.
void expect_only(const std::vector<std::string>& ops, const std::string& pattern, int count, const std::string& what) {
  EXPECT_EQ(static_cast<int>(ops.size()), count) << what << ": " << fmt::format("{}", fmt::join(ops, " | "));
  for (const std::string& op : ops) EXPECT_TRUE(std::regex_search(op, std::regex("^" + pattern))) << what << ": " << op << " is not " << pattern;
}

// The generated kernels issue exactly the answer's instructions: the probe's store kernel only the
// writer's (steps of them per thread), its load kernel only the reader's, and the transpose both.
void check_listing(const std::vector<KernelSources>& kernels, const std::vector<std::string>& files, bool sass) {
  std::size_t next = 0;
  for (const KernelSources& k : kernels) {
    SCOPED_TRACE(k.name + " (" + k.store.name() + " / " + k.read.name() + ")");
    const std::string ws = sass ? gpu::expected_sass(k.store) : gpu::expected_ptx(k.store);
    const std::string rs = sass ? gpu::expected_sass(k.read) : gpu::expected_ptx(k.read);
    auto probe = shared_instructions(read_text(files[next++]), sass);
    expect_only(probe["swz_store"], ws, k.store_steps, "swz_store");
    expect_only(probe["swz_load"], rs, k.read_steps, "swz_load");
    if (!k.transpose) continue;
    const auto transpose = shared_instructions(read_text(files[next++]), sass);
    std::vector<std::string> stores, loads;
    for (const std::string& op : transpose.count("swz_transpose") ? transpose.at("swz_transpose") : std::vector<std::string>{})
      (std::regex_search(op, std::regex("^" + ws)) ? stores : loads).push_back(op);
    if (sass) {  // ptxas schedules and may merge plain accesses: the answer's opcodes are there, and only they
      EXPECT_FALSE(stores.empty()) << "swz_transpose has no " << ws;
      EXPECT_FALSE(loads.empty()) << "swz_transpose has no " << rs;
      for (const std::string& op : loads) EXPECT_TRUE(std::regex_search(op, std::regex("^" + rs))) << "swz_transpose: " << op;
    } else {
      expect_only(stores, ws, k.store_steps, "swz_transpose stores");
      expect_only(loads, rs, k.read_steps, "swz_transpose loads");
    }
  }
}

// The answer moves each element through the lane the question puts it in: the kernel's data layout
// of each side (the fragment an stmatrix / ldmatrix holds, or the renumbered registers) has the
// question's lanes and warps, and its registers span the question's.
TEST(GpuCodegen, AnswerKeepsEveryElementInItsThread) {
  int matrices = 0;
  std::vector<Case> cases = transpose_cases();
  for (Case& c : answer_cases()) cases.push_back(std::move(c));
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ASSERT_TRUE(c.asked.has_value());
    for (const auto& [asked, issued] : {std::pair{&c.asked->store, &c.problem.store}, std::pair{&c.asked->read, &c.problem.read}}) {
      // Who holds what, in the answer and in the question (a question may itself ask for ldmatrix).
      auto holds = [&](const Access& x) { return x.ldmatrix ? gpu::detail::matrix_fragment(x, c.problem.element_bits) : x.layout; };
      const LinearLayout data = holds(*issued), question = holds(*asked);
      matrices += issued->ldmatrix ? 1 : 0;
      EXPECT_EQ(data.bases("lane"), question.bases("lane")) << instruction_name(*issued, 128);
      EXPECT_EQ(data.bases("warp"), question.bases("warp"));
      const int width = question.out_bits();
      const Subspace mine = Subspace::span(data.bases("register"), width), theirs = Subspace::span(question.bases("register"), width);
      EXPECT_EQ(mine.dim(), static_cast<int>(data.bases("register").size()));
      EXPECT_EQ(mine.sum(theirs).dim(), theirs.dim());
      EXPECT_EQ(mine.dim(), theirs.dim());
    }
  }
  EXPECT_GT(matrices, 0) << "no answer chose stmatrix / ldmatrix";
}

// Every register of every ldmatrix / stmatrix the kernels issue is the element PTX puts there:
// lane l's word j holds, of the 8x8 b16 matrix j whose rows lanes 8j..8j+7 address, row l/4 at
// columns 2(l%4), 2(l%4)+1 (as bytes or words for 8- / 32-bit elements), or with .trans rows
// 2(l%4), 2(l%4)+1 at column l/4; the lower element in the lower bits. Checked through the shared
// layout's offsets, independently of how the backend derives its fragment.
TEST(GpuCodegen, MatrixRegistersHoldWhatPtxPutsThere) {
  std::vector<Case> cases = transpose_cases();
  for (auto group : {tma_cases(), answer_cases()})
    for (Case& c : group) cases.push_back(std::move(c));
  auto xor_of = [](const std::vector<BitVec>& images, unsigned bits) {
    BitVec c = 0;
    for (std::size_t i = 0; i < images.size(); ++i)
      if ((bits >> i) & 1u) c ^= images[i];
    return c;
  };
  int checked = 0;
  for (const Case& c : cases)
    for (const Access* a : {&c.problem.store, &c.problem.read}) {
      if (!a->ldmatrix) continue;
      SCOPED_TRACE(c.name + " " + instruction_name(*a, 128));
      const SharedLayout& shared = c.problem.shared;
      const int eb = c.problem.element_bits, per_word = 32 / eb;
      const gpu::detail::AccessPlan p = gpu::detail::plan_access(*a, shared, eb, c.problem.bank);
      int wrong = 0;
      for (unsigned w = 0; w < static_cast<unsigned>(p.warps); ++w)
        for (int step = 0; step < p.steps; ++step)
          for (unsigned l = 0; l < 32; ++l)
            for (int j = 0; j < p.matrices; ++j)
              for (int e = 0; e < per_word; ++e) {
                const BitVec held = xor_of(p.lane_images, l) ^ xor_of(p.warp_images, w) ^
                                    p.register_coords[static_cast<std::size_t>(step * p.per_step + j * per_word + e)];
                const unsigned row = p.trans ? 2 * (l & 3u) + static_cast<unsigned>(e) : l >> 2;
                const unsigned column = p.trans ? l >> 2 : static_cast<unsigned>(per_word) * (l & 3u) + static_cast<unsigned>(e);
                const BitVec row_start = xor_of(p.address_lane_images, 8u * static_cast<unsigned>(j) + row) ^ xor_of(p.warp_images, w) ^
                                         p.step_coords[static_cast<std::size_t>(step)];
                wrong += shared.offset(held) != shared.offset(row_start) + column;
                ++checked;
              }
      EXPECT_EQ(wrong, 0);
    }
  EXPECT_GT(checked, 0);
}

TEST(GpuCodegen, PtxIssuesTheAnswersInstructions) {
  const std::string nvcc = find_tool("nvcc");
  if (nvcc.empty()) GTEST_SKIP() << "nvcc is not installed: no PTX to check the answer's instructions in";
  const std::vector<KernelSources> kernels = answer_kernels();
  std::string log;
  const std::vector<std::string> files = nvcc_compile(nvcc, kernels, "-ptx", log);
  ASSERT_FALSE(files.empty()) << log;
  check_listing(kernels, files, /*sass=*/false);
  // The answers use what the solver proves best: ldmatrix / stmatrix and 128-bit vectors among them.
  std::string names;
  for (const KernelSources& k : kernels) names += k.store.name() + " " + k.read.name() + " ";
  EXPECT_NE(names.find("LDSM.x4.trans"), std::string::npos) << names;
  EXPECT_NE(names.find("STS.128"), std::string::npos) << names;
  EXPECT_NE(names.find("STSM.x4"), std::string::npos) << names;
}

TEST(GpuCodegen, SassIssuesTheAnswersInstructions) {
  const std::string nvcc = find_tool("nvcc"), cuobjdump = find_tool("cuobjdump");
  if (nvcc.empty() || cuobjdump.empty()) GTEST_SKIP() << "nvcc and cuobjdump are needed for SASS (have nvcc: " << !nvcc.empty() << ")";
  const std::vector<KernelSources> kernels = answer_kernels();
  std::string log;
  const std::vector<std::string> cubins = nvcc_compile(nvcc, kernels, "-cubin", log);
  ASSERT_FALSE(cubins.empty()) << log;
  std::vector<std::string> listings;
  for (const std::string& cubin : cubins) {
    ASSERT_EQ(std::system((cuobjdump + " -sass " + cubin + " > " + cubin + ".sass").c_str()), 0) << cubin;
    listings.push_back(cubin + ".sass");
  }
  check_listing(kernels, listings, /*sass=*/true);
}

TEST(GpuBackend, SaysWhyItCannotRun) {
  const gpu::DeviceInfo d = gpu::device_info();
  if (d.available) GTEST_SKIP() << "a GPU is present: " << d.name;
  EXPECT_FALSE(d.reason.empty());
  EXPECT_THROW(gpu::run(make_preset("transpose16x32")), gpu::Unavailable);
  const nlohmann::json j = gpu::to_json(d);
  EXPECT_FALSE(j["available"].get<bool>());
  EXPECT_EQ(j["reason"].get<std::string>(), d.reason);
}

// The GPU suite's counters, written by run_gpu_suite.sh, replayed without a GPU: of 2026-11-26 on the
// H100 (tests/data/hardware/h100-sm90-gpu-suite-20261126.json) and of 2026-11-28 on an H200
// (h200-sm90-gpu-suite-20261128.json). Every case the suite still defines is in each file, and for
// each measured side the simulator's wavefronts per instruction and the instruction the kernel issues
// are what the counters saw (STSM / LDSM of the solver's answers included).
class GpuSuiteReplay : public ::testing::TestWithParam<std::string> {};

INSTANTIATE_TEST_SUITE_P(MeasuredSuites, GpuSuiteReplay,
                         ::testing::Values("h100-sm90-gpu-suite-20261126.json", "h200-sm90-gpu-suite-20261128.json"),
                         [](const ::testing::TestParamInfo<std::string>& suite) { return suite.param.substr(0, 4); });

TEST_P(GpuSuiteReplay, EveryMeasuredSideIsWhatTheSimulatorPredicts) {
  std::ifstream in(std::string(SWZ_TEST_DATA_DIR "/hardware/") + GetParam());
  ASSERT_TRUE(in) << "missing the measured suite";
  const nlohmann::json measured = nlohmann::json::parse(in);
  std::map<std::pair<std::string, std::string>, nlohmann::json> by_case;
  for (const auto& rec : measured.at("cases")) by_case[{rec.at("group").get<std::string>(), rec.at("case").get<std::string>()}] = rec;
  int sides = 0, ldsm_or_stsm = 0;
  for (const auto& group : {seed_cases(), hardware_cases(), tma_cases(), preset_cases(), answer_cases(), transpose_cases()})
    for (const Case& c : group) {
      if (!runnable_on_gpu(c.problem)) continue;
      SCOPED_TRACE(c.group + "/" + c.name);
      const auto it = by_case.find({c.group, c.name});
      ASSERT_NE(it, by_case.end()) << "not in the measured suite";
      EXPECT_EQ(it->second.value("correct", false), true);
      for (const bool store : {true, false}) {
        const char* side = store ? "store" : "read";
        if (!it->second.contains(side)) continue;
        const nlohmann::json& m = it->second.at(side);
        const Access& a = store ? c.problem.store : c.problem.read;
        const AccessResult r = simulate(a, c.problem.shared, c.problem.element_bits, c.problem.bank);
        EXPECT_EQ(m.at("measured_instructions").get<std::int64_t>(), r.instructions()) << side;
        EXPECT_EQ(m.at("measured_total_wavefronts").get<std::int64_t>(), r.total_wavefronts) << side;
        const std::string instruction = m.at("instruction").get<std::string>();
        EXPECT_EQ(instruction, gpu::generate_probe_source(c.problem).plan.*(store ? &gpu::KernelPlan::store_instruction : &gpu::KernelPlan::read_instruction))
            << side;
        ++sides;
        if (instruction.rfind("LDSM", 0) == 0 || instruction.rfind("STSM", 0) == 0) ++ldsm_or_stsm;
      }
    }
  EXPECT_GE(sides, 130);
  EXPECT_GE(ldsm_or_stsm, 20);
}

}  // namespace
}  // namespace swz::gpu_tests
