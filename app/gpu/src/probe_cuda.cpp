// probe_cuda.cpp: measure single warp instructions (calibration; CUDA builds only).
#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>

#include <fmt/format.h>

#include "cuda_support.h"
#include "swz/error.h"
#include "swz/gpu.h"
#include "swz/io/utc_time.h"

namespace swz::gpu {

namespace {

using namespace cuda;  // NOLINT: this file is the CUDA runtime's own

// Shared-memory wavefronts and instruction counts, by the side of the pipe each kind uses.
constexpr const char* kSharedWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum";
constexpr const char* kLdgstsInstructions = "smsp__inst_executed_op_ldgsts.sum";
constexpr const char* kLdgstsWavefronts = "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum";

// The metrics this GPU's profiler accepts, each tried alone on one launch.
std::vector<std::string> usable_metrics(const std::vector<std::string>& wanted, const std::function<void()>& one_launch,
                                        const std::string& chip, CUcontext ctx, std::vector<std::string>& notes) {
  std::vector<std::string> ok;
  for (const std::string& m : wanted) {
    try {
      profile_kernels({m}, 1, one_launch, chip, ctx);
      ok.push_back(m);
    } catch (const CuptiFailure& e) {
      notes.push_back(fmt::format("counter {} is not offered here: {}", m, e.what()));
    }
  }
  return ok;
}

}  // namespace

std::vector<char> calibration_cubin(const std::vector<InstructionKind>& kinds, int compute_major, int compute_minor) {
  Compiled c = nvrtc_compile(generate_calibration_source(kinds), compute_major * 10 + compute_minor, true);
  if (!c.cubin) throw Unavailable(fmt::format("NVRTC cannot emit machine code for compute capability {}.{}", compute_major, compute_minor));
  return c.image;
}

CalibrationInfo calibrate(std::vector<CorpusCase>& cases, const CalibrationOptions& options) {
  CalibrationInfo info;
  info.device = device_info();
  require_device(info.device);
  const BankModel model;
  std::int64_t shared_bytes = 0;
  std::vector<InstructionKind> kinds;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    try {
      check_request(cases[i].request, model, cases[i].shared_bytes);
    } catch (const Error& e) {
      fail("case {}: {}", i, e.what());
    }
    shared_bytes = std::max(shared_bytes, cases[i].shared_bytes);
    if (std::find(kinds.begin(), kinds.end(), cases[i].request.kind) == kinds.end()) kinds.push_back(cases[i].request.kind);
  }
  if (cases.empty()) return info;
  if (shared_bytes > info.device.shared_bytes_per_block_optin)
    fail("the cases need {} bytes of shared memory; this GPU gives a block {}", shared_bytes, info.device.shared_bytes_per_block_optin);
  Profiler& prof = Profiler::instance();
  if (!prof.ok()) throw Unavailable(fmt::format("the GPU's counters cannot be read: {}", prof.reason()));

  SWZ_CUDA(cudaSetDevice(0));
  SWZ_CUDA(cudaFree(nullptr));
  CUcontext ctx = nullptr;
  cu_check(driver().ctx_get_current(&ctx), "cuCtxGetCurrent");
  const Module mod(generate_calibration_source(kinds), info.device);
  std::map<std::string, CUfunction> functions;
  for (const InstructionKind& k : kinds) {
    const std::string name = calibration_kernel_name(k);
    functions[k.name()] = mod.function(name.c_str(), static_cast<std::uint64_t>(shared_bytes));
  }

  // Every case's 32 addresses in one buffer; a launch points at its own 32.
  const std::size_t lanes = static_cast<std::size_t>(model.warp_size);
  std::vector<int> host(cases.size() * lanes);
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (std::size_t l = 0; l < lanes; ++l) host[i * lanes + l] = static_cast<int>(cases[i].request.address[l]);
  // cp.async sources: the case's own, or (a case read without them) 16 bytes apart by lane, as
  // earlier probes copied; recorded in the case either way.
  std::vector<long long> offsets(cases.size() * lanes, 0);
  std::int64_t source_bytes = 1024;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    WarpRequest& r = cases[i].request;
    if (r.kind.op != WarpOp::AsyncCopy) continue;
    if (r.global.empty())
      for (std::size_t l = 0; l < lanes; ++l) r.global.push_back(r.address[l] < 0 ? -1 : static_cast<std::int64_t>(l) * 16);
    for (std::size_t l = 0; l < lanes; ++l) {
      offsets[i * lanes + l] = static_cast<long long>(r.global[l]);
      source_bytes = std::max(source_bytes, r.global[l] + 16);
    }
  }
  if (source_bytes > (std::int64_t{1} << 30)) fail("the cases copy from {} bytes of global memory; at most 1 GiB", source_bytes);
  DeviceBuffer addr(host.size() * sizeof(int)), sink(lanes * 16), gsrc(static_cast<std::size_t>(source_bytes)),
      gofs(offsets.size() * sizeof(long long));
  SWZ_CUDA(cudaMemcpy(addr.get(), host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice));
  SWZ_CUDA(cudaMemcpy(gofs.get(), offsets.data(), offsets.size() * sizeof(long long), cudaMemcpyHostToDevice));
  SWZ_CUDA(cudaMemset(gsrc.get(), 0x5a, gsrc.bytes()));
  auto run_case = [&](std::size_t i) {
    void* a = static_cast<int*>(addr.get()) + i * lanes;
    void* s = sink.get();
    void* g = gsrc.get();
    void* o = static_cast<long long*>(gofs.get()) + i * lanes;
    launch(functions.at(cases[i].request.kind.name()), 1, 1, static_cast<unsigned>(lanes), static_cast<std::uint64_t>(shared_bytes),
           {&a, &s, &g, &o});
  };

  std::vector<std::string> wanted = {kLdWavefronts, kStWavefronts, kSharedWavefronts, kLdInstructions, kStInstructions,
                                     kLdsmInstructions};
  bool has_stsm = false, has_ldgsts = false;
  for (const InstructionKind& k : kinds) {
    has_stsm = has_stsm || k.op == WarpOp::StoreMatrix;
    has_ldgsts = has_ldgsts || k.op == WarpOp::AsyncCopy;
  }
  if (has_stsm) wanted.push_back(kStsmInstructions);
  if (has_ldgsts) {
    wanted.push_back(kLdgstsInstructions);
    wanted.push_back(kLdgstsWavefronts);
  }
  info.metrics = usable_metrics(wanted, [&] { run_case(0); }, prof.chip(), ctx, info.notes);
  auto have = [&](const char* m) { return std::find(info.metrics.begin(), info.metrics.end(), m) != info.metrics.end(); };
  if (!have(kLdWavefronts) || !have(kStWavefronts))
    throw Unavailable("this GPU's profiler does not offer the shared-memory wavefront counters");

  const std::string date = options.date.empty() ? utc_date() : options.date;
  const std::string cc = fmt::format("{}.{}", info.device.compute_major, info.device.compute_minor);
  const std::size_t batch = std::max<std::size_t>(1, options.batch);
  for (std::size_t first = 0; first < cases.size(); first += batch) {
    const std::size_t n = std::min(batch, cases.size() - first);
    const RangeValues v = profile_kernels(info.metrics, n, [&] {
      for (std::size_t i = first; i < first + n; ++i) run_case(i);
    }, prof.chip(), ctx);
    auto metric = [&](std::size_t range, const char* name) -> std::int64_t {
      for (std::size_t m = 0; m < v.metrics.size(); ++m)
        if (v.metrics[m] == name) return std::llround(v.per_range[range][m]);
      return -1;
    };
    for (std::size_t r = 0; r < n; ++r) {
      CorpusCase& c = cases[first + r];
      const WarpOp op = c.request.kind.op;
      c.device = info.device.name;
      c.compute_capability = cc;
      c.date = date;
      // Which counters see each kind: loads and ldmatrix the load pipe, stores and stmatrix the store
      // pipe; cp.async its own counter where offered, else every shared wavefront of the launch
      // (the kernel has no other shared access).
      const char* instructions = op == WarpOp::Load          ? kLdInstructions
                                 : op == WarpOp::LoadMatrix  ? kLdsmInstructions
                                 : op == WarpOp::Store       ? kStInstructions
                                 : op == WarpOp::StoreMatrix ? kStsmInstructions
                                                             : kLdgstsInstructions;
      c.instructions = metric(r, instructions);
      if (op == WarpOp::AsyncCopy) {
        const std::int64_t own = metric(r, kLdgstsWavefronts);
        c.wavefronts = own >= 0 ? own : metric(r, kSharedWavefronts);
      } else {
        c.wavefronts = metric(r, c.request.kind.writes_shared() ? kStWavefronts : kLdWavefronts);
      }
      if (c.instructions == 0) c.instructions = -1;
    }
    if (options.progress) options.progress(first + n, cases.size());
  }
  return info;
}

}  // namespace swz::gpu
