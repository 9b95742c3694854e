// cuda_support.h: the CUDA pieces every GPU job shares (CUDA builds only):
// errors, the driver's entry points, the device, NVRTC modules, launches,
// device buffers, event timing and the CUPTI range profiler.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>

#include "swz/gpu.h"

namespace swz::gpu::cuda {

// [SECTION] errors and driver entry points

[[noreturn]] void cuda_fail(const char* what, cudaError_t e);
#define SWZ_CUDA(call)                                 \
  do {                                                 \
    const cudaError_t swz_e = (call);                  \
    if (swz_e != cudaSuccess) cuda_fail(#call, swz_e); \
  } while (0)

struct Driver {
  CUresult (*ctx_get_current)(CUcontext*) = nullptr;
  CUresult (*module_load_data)(CUmodule*, const void*) = nullptr;
  CUresult (*module_unload)(CUmodule) = nullptr;
  CUresult (*module_get_function)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*func_set_attribute)(CUfunction, CUfunction_attribute, int) = nullptr;
  CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void**,
                            void**) = nullptr;
  CUresult (*get_error_string)(CUresult, const char**) = nullptr;
  CUresult (*occupancy)(int*, CUfunction, int, std::size_t) = nullptr;
};

const Driver& driver();
void cu_check(CUresult r, const char* what);

// [SECTION] device

DeviceInfo probe_device();
void require_device(const DeviceInfo& d);

// [SECTION] NVRTC and modules

struct Compiled {
  std::vector<char> image;
  bool cubin = false;
  std::string log;
};

// NVRTC: real machine code for `want` (major*10+minor) when NVRTC knows it, else PTX for the
// newest arch it knows below it (the driver finishes the job).
Compiled nvrtc_compile(const std::string& source, int want, bool need_exact_or_lower);

class Module {
 public:
  Module(const std::string& source, const DeviceInfo& dev) : Module(nvrtc_compile(source, dev.compute_major * 10 + dev.compute_minor, true)) {}
  explicit Module(Compiled c) {
    image_ = std::move(c.image);
    cu_check(driver().module_load_data(&module_, image_.data()), "cuModuleLoadData");
  }
  ~Module() {
    if (module_) driver().module_unload(module_);
  }
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  CUfunction function(const char* name, std::uint64_t shared_bytes) const {
    CUfunction f = nullptr;
    cu_check(driver().module_get_function(&f, module_, name), "cuModuleGetFunction");
    cu_check(driver().func_set_attribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(shared_bytes)),
             "cuFuncSetAttribute(max dynamic shared memory)");
    return f;
  }

 private:
  CUmodule module_ = nullptr;
  std::vector<char> image_;
};

void launch(CUfunction f, unsigned gx, unsigned gy, unsigned threads, std::uint64_t shared_bytes, std::vector<void*> args);

class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) { SWZ_CUDA(cudaMalloc(&ptr_, std::max<std::size_t>(bytes, 16))); }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

class Events {
 public:
  Events() {
    SWZ_CUDA(cudaEventCreate(&start_));
    SWZ_CUDA(cudaEventCreate(&stop_));
  }
  ~Events() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
  // Median milliseconds of `repeats` timed calls of `work`, after `warmup` untimed ones.
  template <typename F>
  double median_ms(int warmup, int repeats, F&& work) {
    for (int i = 0; i < warmup; ++i) work();
    SWZ_CUDA(cudaDeviceSynchronize());
    std::vector<float> ms;
    for (int i = 0; i < std::max(1, repeats); ++i) ms.push_back(time_once(work));
    return median(ms);
  }
  // Medians of `first` and `second` sampled alternately (each sample a stream of its own kind,
  // time_stream), so drift (clocks, temperature) hits both alike and neither is timed on what the
  // other left in L2.
  template <typename F, typename G>
  std::pair<double, double> paired_median_ms(int warmup, int repeats, F&& first, G&& second) {
    for (int i = 0; i < warmup; ++i) {
      first();
      second();
    }
    SWZ_CUDA(cudaDeviceSynchronize());
    std::vector<float> a, b;
    for (int i = 0; i < std::max(1, repeats); ++i) {
      a.push_back(time_stream(first));
      b.push_back(time_stream(second));
    }
    return {median(a), median(b)};
  }
  // Work queued before each timed call (a short GPU spin), so the GPU is still busy while the CPU
  // records the start event and launches: the time is the kernel's, not the launch's. Without it a
  // ~100 us kernel timed from an idle GPU also counts the few microseconds the launch takes.
  void set_lead_in(std::function<void()> lead_in) { lead_in_ = std::move(lead_in); }
  template <typename F>
  float time_once(F&& work) {
    return timed([] {}, work);
  }
  // One sample of `work` as it runs in a stream of its own kind: one untimed launch, then
  // kStreamLaunches timed back to back; milliseconds per launch. A kernel timed right after another
  // finds that kernel's lines in L2 (on the H100 a copy of 2 x 64 MB ran at about 3,100 GB/s after
  // kernels without the evict-first hint and 2,800 after kernels with it), so the timed launches
  // follow only their own kind.
  static constexpr int kStreamLaunches = 10;
  template <typename F>
  float time_stream(F&& work) {
    return timed(work, [&] {
             for (int k = 0; k < kStreamLaunches; ++k) work();
           }) /
           kStreamLaunches;
  }
  static double median(std::vector<float> ms) {
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    return n % 2 ? ms[n / 2] : 0.5 * (static_cast<double>(ms[n / 2 - 1]) + static_cast<double>(ms[n / 2]));
  }

 private:
  // Milliseconds of `work`, queued after the lead-in and `untimed`.
  template <typename U, typename F>
  float timed(U&& untimed, F&& work) {
    if (lead_in_) lead_in_();
    untimed();
    SWZ_CUDA(cudaEventRecord(start_));
    work();
    SWZ_CUDA(cudaEventRecord(stop_));
    SWZ_CUDA(cudaEventSynchronize(stop_));
    float t = 0;
    SWZ_CUDA(cudaEventElapsedTime(&t, start_, stop_));
    return t;
  }
  cudaEvent_t start_{}, stop_{};
  std::function<void()> lead_in_;
};

// [SECTION] counters (CUPTI range profiler)

inline constexpr const char* kStWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr const char* kLdWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr const char* kStConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
inline constexpr const char* kLdConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr const char* kStInstructions = "smsp__sass_inst_executed_op_shared_st.sum";
inline constexpr const char* kLdInstructions = "smsp__sass_inst_executed_op_shared_ld.sum";
inline constexpr const char* kLdsmInstructions = "smsp__inst_executed_op_ldsm.sum";
inline constexpr const char* kStsmInstructions = "smsp__inst_executed_op_shared_stsm.sum";

struct CuptiFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RangeValues {
  std::vector<std::vector<double>> per_range;  // [range][metric]
  std::vector<std::string> metrics;
};

// Runs `work` (kernel launches) under the range profiler, one range per kernel (auto
// range, kernel replay), and evaluates `metrics` for every range.
RangeValues profile_kernels(std::vector<std::string> metrics, std::size_t ranges, const std::function<void()>& work, const std::string& chip,
                            CUcontext ctx);

class Profiler {
 public:
  // Sets up CUPTI once per process; records why when it cannot.
  static Profiler& instance() {
    static Profiler p;
    return p;
  }
  bool ok() const { return ok_; }
  const std::string& reason() const { return reason_; }
  const std::string& chip() const { return chip_; }

 private:
  Profiler();
  bool ok_ = false;
  std::string reason_, chip_;
};

}  // namespace swz::gpu::cuda
