// cuda_support.cpp: see cuda_support.h.
//
// The runtime is linked statically and loads the driver itself, so this
// library starts on machines without a driver and says so instead of failing
// to load. Driver calls (modules, launches, the context for CUPTI) come through
// cudaGetDriverEntryPointByVersion for the same reason.
#include "cuda_support.h"

#include <memory>
#include <mutex>

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <fmt/format.h>
#include <nvrtc.h>

namespace swz::gpu::cuda {

// [SECTION] errors and driver entry points

[[noreturn]] void cuda_fail(const char* what, cudaError_t e) {
  throw std::runtime_error(fmt::format("{} failed: {} ({})", what, cudaGetErrorName(e), cudaGetErrorString(e)));
}


namespace {

template <typename F>
void entry(const char* name, F& fn) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q{};
  const cudaError_t e = cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q);
  if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !p)
    throw Unavailable(fmt::format("the CUDA driver does not provide {} (driver too old?)", name));
  fn = reinterpret_cast<F>(p);
}

}  // namespace

const Driver& driver() {
  static Driver d;
  static std::once_flag once;
  std::call_once(once, [] {
    entry("cuCtxGetCurrent", d.ctx_get_current);
    entry("cuModuleLoadData", d.module_load_data);
    entry("cuModuleUnload", d.module_unload);
    entry("cuModuleGetFunction", d.module_get_function);
    entry("cuFuncSetAttribute", d.func_set_attribute);
    entry("cuLaunchKernel", d.launch_kernel);
    entry("cuGetErrorString", d.get_error_string);
    entry("cuOccupancyMaxActiveBlocksPerMultiprocessor", d.occupancy);
  });
  return d;
}

void cu_check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* s = "unknown error";
  if (driver().get_error_string) driver().get_error_string(r, &s);
  throw std::runtime_error(fmt::format("{} failed: {} ({})", what, static_cast<int>(r), s));
}

// [SECTION] device

DeviceInfo probe_device() {
  DeviceInfo d;
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) {
    d.reason = "no CUDA GPU found on this machine";
    return d;
  }
  if (e == cudaErrorInsufficientDriver) {
    d.reason = "no NVIDIA driver loaded, or the driver is older than this build's CUDA runtime";
    return d;
  }
  if (e != cudaSuccess) {
    d.reason = fmt::format("the CUDA runtime cannot reach a GPU: {} ({})", cudaGetErrorName(e), cudaGetErrorString(e));
    return d;
  }
  cudaDeviceProp prop{};
  if (const cudaError_t pe = cudaGetDeviceProperties(&prop, 0); pe != cudaSuccess) {
    d.reason = fmt::format("cudaGetDeviceProperties failed: {}", cudaGetErrorString(pe));
    return d;
  }
  d.available = true;
  d.name = prop.name;
  d.compute_major = prop.major;
  d.compute_minor = prop.minor;
  d.multiprocessors = prop.multiProcessorCount;
  d.shared_bytes_per_block_optin = static_cast<std::int64_t>(prop.sharedMemPerBlockOptin);
  cudaDriverGetVersion(&d.driver_version);
  cudaRuntimeGetVersion(&d.runtime_version);
  nvrtcVersion(&d.nvrtc_major, &d.nvrtc_minor);
  return d;
}

void require_device(const DeviceInfo& d) {
  if (!d.available) throw Unavailable(d.reason);
}

// [SECTION] NVRTC and modules


Compiled nvrtc_compile(const std::string& source, int want, bool need_exact_or_lower) {
  nvrtcProgram prog = nullptr;
  if (nvrtcCreateProgram(&prog, source.c_str(), "swz_generated.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS)
    throw std::runtime_error("nvrtcCreateProgram failed");
  std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram*)> guard(&prog, [](nvrtcProgram* p) { nvrtcDestroyProgram(p); });
  int n = 0;
  nvrtcGetNumSupportedArchs(&n);
  std::vector<int> archs(static_cast<std::size_t>(n));
  if (n) nvrtcGetSupportedArchs(archs.data());
  int best = 0;
  for (int a : archs)
    if (a <= want) best = std::max(best, a);
  if (!best) {
    int major = 0, minor = 0;
    nvrtcVersion(&major, &minor);
    const std::string why = fmt::format("NVRTC {}.{} cannot compile for compute capability {}.{}", major, minor, want / 10, want % 10);
    if (need_exact_or_lower) throw Unavailable(why);
    throw std::runtime_error(why);
  }
  Compiled c;
  c.cubin = best == want;
  const std::string arch = fmt::format("--gpu-architecture={}_{}", c.cubin ? "sm" : "compute", best);
  const char* opts[] = {arch.c_str(), "-std=c++17"};
  const nvrtcResult r = nvrtcCompileProgram(prog, 2, opts);
  std::size_t log_size = 0;
  nvrtcGetProgramLogSize(prog, &log_size);
  c.log.assign(log_size, '\0');
  if (log_size) nvrtcGetProgramLog(prog, c.log.data());
  while (!c.log.empty() && (c.log.back() == '\0' || c.log.back() == '\n')) c.log.pop_back();
  if (r != NVRTC_SUCCESS)
    throw std::runtime_error(fmt::format("NVRTC could not compile the generated kernel: {}\n{}", nvrtcGetErrorString(r), c.log));
  std::size_t size = 0;
  if (c.cubin) {
    nvrtcGetCUBINSize(prog, &size);
    c.image.resize(size);
    nvrtcGetCUBIN(prog, c.image.data());
  } else {
    nvrtcGetPTXSize(prog, &size);
    c.image.resize(size);
    nvrtcGetPTX(prog, c.image.data());
  }
  return c;
}


void launch(CUfunction f, unsigned gx, unsigned gy, unsigned threads, std::uint64_t shared_bytes, std::vector<void*> args) {
  cu_check(driver().launch_kernel(f, gx, gy, 1, threads, 1, 1, static_cast<unsigned>(shared_bytes), nullptr, args.data(), nullptr),
           "cuLaunchKernel");
  SWZ_CUDA(cudaGetLastError());
}



// [SECTION] counters (CUPTI range profiler)



namespace {

std::string cupti_reason(CUptiResult r, const char* what) {
  const char* s = nullptr;
  cuptiGetResultString(r, &s);
  std::string why = fmt::format("{} returned {} ({})", what, s ? s : "unknown", static_cast<int>(r));
  if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
    why += ": the driver restricts GPU performance counters to administrators (NVreg_RestrictProfilingToAdminUsers=1); "
           "run as root or ask the administrator to allow profiling";
  else if (r == CUPTI_ERROR_NOT_SUPPORTED || r == CUPTI_ERROR_NOT_COMPATIBLE)
    why += ": this GPU, driver or virtual machine does not offer the profiling counters";
  else if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
    why += ": another profiler (Nsight Compute?) already holds the counters";
  return why;
}
// A CUPTI parameter struct: zeroed, its size set.
template <typename T>
T params(std::size_t struct_size) {
  T p{};
  p.structSize = struct_size;
  return p;
}

void cupti(CUptiResult r, const char* what) {
  if (r != CUPTI_SUCCESS) throw CuptiFailure(cupti_reason(r, what));
}
#define SWZ_CUPTI(call) cupti((call), #call)

}  // namespace


RangeValues profile_kernels(std::vector<std::string> metrics, std::size_t ranges, const std::function<void()>& work, const std::string& chip,
                            CUcontext ctx) {
  std::vector<const char*> names;
  for (const auto& m : metrics) names.push_back(m.c_str());

  auto hi = params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  hi.pChipName = chip.c_str();
  SWZ_CUPTI(cuptiProfilerHostInitialize(&hi));
  CUpti_Profiler_Host_Object* host = hi.pHostObject;
  auto host_guard = std::unique_ptr<CUpti_Profiler_Host_Object, void (*)(CUpti_Profiler_Host_Object*)>(host, [](CUpti_Profiler_Host_Object* h) {
    auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = h;
    cuptiProfilerHostDeinitialize(&p);
  });
  auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = host;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  SWZ_CUPTI(cuptiProfilerHostConfigAddMetrics(&add));
  auto cs = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  cs.pHostObject = host;
  SWZ_CUPTI(cuptiProfilerHostGetConfigImageSize(&cs));
  std::vector<std::uint8_t> config(cs.configImageSize);
  auto ci = params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  ci.pHostObject = host;
  ci.pConfigImage = config.data();
  ci.configImageSize = config.size();
  SWZ_CUPTI(cuptiProfilerHostGetConfigImage(&ci));

  auto en = params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  en.ctx = ctx;
  SWZ_CUPTI(cuptiRangeProfilerEnable(&en));
  CUpti_RangeProfiler_Object* rp = en.pRangeProfilerObject;
  auto rp_guard = std::unique_ptr<CUpti_RangeProfiler_Object, void (*)(CUpti_RangeProfiler_Object*)>(rp, [](CUpti_RangeProfiler_Object* o) {
    auto p = params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = o;
    cuptiRangeProfilerDisable(&p);
  });

  auto ds = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  ds.pRangeProfilerObject = rp;
  ds.pMetricNames = names.data();
  ds.numMetrics = names.size();
  ds.maxNumOfRanges = ranges;
  ds.maxNumRangeTreeNodes = static_cast<std::uint32_t>(ranges);
  SWZ_CUPTI(cuptiRangeProfilerGetCounterDataSize(&ds));
  std::vector<std::uint8_t> data(ds.counterDataSize);
  auto di = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  di.pRangeProfilerObject = rp;
  di.counterDataSize = data.size();
  di.pCounterData = data.data();
  SWZ_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&di));

  auto sc = params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  sc.pRangeProfilerObject = rp;
  sc.configSize = config.size();
  sc.pConfig = config.data();
  sc.counterDataImageSize = data.size();
  sc.pCounterDataImage = data.data();
  sc.range = CUPTI_AutoRange;
  sc.replayMode = CUPTI_KernelReplay;
  sc.maxRangesPerPass = ranges;
  sc.numNestingLevels = 1;
  sc.minNestingLevel = 1;
  sc.passIndex = 0;
  sc.targetNestingLevel = 0;
  SWZ_CUPTI(cuptiRangeProfilerSetConfig(&sc));

  auto st = params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  st.pRangeProfilerObject = rp;
  SWZ_CUPTI(cuptiRangeProfilerStart(&st));
  work();
  SWZ_CUDA(cudaDeviceSynchronize());
  auto sp = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  sp.pRangeProfilerObject = rp;
  SWZ_CUPTI(cuptiRangeProfilerStop(&sp));
  auto dd = params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  dd.pRangeProfilerObject = rp;
  SWZ_CUPTI(cuptiRangeProfilerDecodeData(&dd));
  if (dd.numOfRangeDropped) throw CuptiFailure(fmt::format("the profiler dropped {} ranges", dd.numOfRangeDropped));

  auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = data.data();
  info.counterDataImageSize = data.size();
  SWZ_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
  if (info.numTotalRanges != ranges)
    throw CuptiFailure(fmt::format("the profiler recorded {} ranges for {} kernels", info.numTotalRanges, ranges));
  RangeValues out;
  out.metrics = metrics;
  for (std::size_t r = 0; r < info.numTotalRanges; ++r) {
    std::vector<double> values(names.size(), 0.0);
    auto ev = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    ev.pHostObject = host;
    ev.pCounterDataImage = data.data();
    ev.counterDataImageSize = data.size();
    ev.rangeIndex = r;
    ev.ppMetricNames = names.data();
    ev.numMetrics = names.size();
    ev.pMetricValues = values.data();
    SWZ_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&ev));
    out.per_range.push_back(std::move(values));
  }
  return out;
}



Profiler::Profiler() {
  try {
    auto ip = params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    SWZ_CUPTI(cuptiProfilerInitialize(&ip));
    auto cp = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    cp.deviceIndex = 0;
    SWZ_CUPTI(cuptiDeviceGetChipName(&cp));
    chip_ = cp.pChipName ? cp.pChipName : "";
    ok_ = true;
  } catch (const std::exception& e) {
    reason_ = e.what();
  }
}

}  // namespace swz::gpu::cuda
