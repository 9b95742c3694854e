// Source generation: every case's kernels compile with NVRTC for sm_90 (no GPU
// needed, only a CUDA build), input cannot reach the source, and a build
// without CUDA says why it cannot run.
#include <gtest/gtest.h>

#include "cases.h"
#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/gpu.h"

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
      for (const SharedLayout& l : {c.problem.shared, row_major(c.problem.shape), padded(c.problem.shape, 32 / c.problem.element_bits)}) {
        gpu::TransposeSpec strided{8192, 8192, 2, true, true, 2};
        strided.persistent = true;
        for (const gpu::TransposeSpec spec : {gpu::TransposeSpec{8192, 8192, 1, false, false, 1}, strided}) {
          const gpu::GeneratedSource t = gpu::generate_transpose_source(c.problem, l, spec);
          EXPECT_NO_THROW(gpu::compile_check(t.source, 9, 0)) << l.description() << " batch " << spec.batch;
        }
      }
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
  p.element_bits = 32;  // ldmatrix moves 16-bit elements
  EXPECT_THROW(gpu::generate_probe_source(p), swz::Error);
  EXPECT_FALSE(gpu::transpose_unsupported_reason(make_preset("tma128_fp16")).empty());
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

TEST(GpuBackend, SaysWhyItCannotRun) {
  const gpu::DeviceInfo d = gpu::device_info();
  if (d.available) GTEST_SKIP() << "a GPU is present: " << d.name;
  EXPECT_FALSE(d.reason.empty());
  EXPECT_THROW(gpu::run(make_preset("transpose16x32")), gpu::Unavailable);
  const nlohmann::json j = gpu::to_json(d);
  EXPECT_FALSE(j["available"].get<bool>());
  EXPECT_EQ(j["reason"].get<std::string>(), d.reason);
}

}  // namespace
}  // namespace swz::gpu_tests
