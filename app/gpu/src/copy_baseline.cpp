// copy_baseline.cpp: the copy a transpose is measured against (CUDA builds only).
#include "copy_baseline.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

namespace swz::gpu::cuda {

// A 128-bit copy: each thread moves `vectors` uint4 per trip, grid-stride, optionally with the
// evict-first (.cs) hint; one kernel per (vectors, hint).
std::string copy_kernel_source() {
  std::string src;
  for (int v : {1, 2, 4})
    for (bool cs : {false, true})
      src += fmt::format(
          "extern \"C\" __global__ void swz_copy_v{0}{1}(const uint4* __restrict__ in, uint4* __restrict__ out, unsigned long "
          "long n) {{\n"
          "  const unsigned long long total = (unsigned long long)gridDim.x * blockDim.x;\n"
          "  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += total * {0}) {{\n"
          "    uint4 r[{0}];\n"
          "#pragma unroll\n"
          "    for (int k = 0; k < {0}; ++k) if (i + k * total < n) r[k] = {2};\n"
          "#pragma unroll\n"
          "    for (int k = 0; k < {0}; ++k) if (i + k * total < n) {3};\n"
          "  }}\n"
          "}}\n",
          v, cs ? "_cs" : "", cs ? "__ldcs(in + i + k * total)" : "in[i + k * total]",
          cs ? "__stcs(out + i + k * total, r[k])" : "out[i + k * total] = r[k]");
  // One thread spinning for `cycles` clocks: the lead-in that keeps the GPU busy while a timed launch is queued.
  src +=
      "extern \"C\" __global__ void swz_spin(long long cycles) {\n"
      "  const long long t0 = clock64();\n"
      "  while (clock64() - t0 < cycles) {}\n"
      "}\n";
  return src;
}

// Tunes the copy kernel (vectors per trip x hint x block size x grid) on `bytes` from in to out,
// then times it alternately with cudaMemcpy; the faster one is the baseline.
CopyBaseline tune_copy(const DeviceInfo& dev, void*& in_ptr, void*& out_ptr, std::size_t bytes, const RunOptions& o, Events& ev,
                       const std::function<void()>& memcpy_d2d, const Module& module) {
  CopyBaseline b;
  b.run = memcpy_d2d;
  b.name = "cudaMemcpy";
  if (bytes % 16 != 0) {
    b.memcpy_ms = ev.median_ms(o.warmup, o.repeats, memcpy_d2d);
    b.copy_kernel = "not run: the size is not a multiple of 16 bytes";
    return b;
  }
  struct Config {
    CUfunction fn;
    unsigned threads, grid;
    std::string what;
  };
  const auto n16 = std::make_shared<unsigned long long>(bytes / 16);  // the kernels' argument, alive as long as the baseline
  std::vector<Config> configs;
  for (int v : {1, 2, 4})
    for (bool cs : {false, true})
      for (unsigned threads : {256u, 1024u})
        for (bool resident : {false, true}) {
          const std::string name = fmt::format("swz_copy_v{}{}", v, cs ? "_cs" : "");
          CUfunction fn = module.function(name.c_str(), 0);
          unsigned grid =
              static_cast<unsigned>((*n16 + threads * static_cast<unsigned>(v) - 1) / (threads * static_cast<unsigned>(v)));
          if (resident) {
            int per_sm = 0;
            cu_check(driver().occupancy(&per_sm, fn, static_cast<int>(threads), 0),
                     "cuOccupancyMaxActiveBlocksPerMultiprocessor");
            grid = std::min(grid, static_cast<unsigned>(std::max(1, per_sm) * dev.multiprocessors));
          }
          configs.push_back({fn, threads, grid,
                             fmt::format("{} x 128-bit per thread per trip, {} threads/block, {} blocks{}{}", v, threads, grid,
                                         resident ? " (resident, grid-stride)" : "", cs ? ", .cs hint" : "")});
        }
  auto launcher = [&](const Config& c) {
    return [&in_ptr, &out_ptr, n16, fn = c.fn, grid = c.grid, threads = c.threads] {
      launch(fn, grid, 1, threads, 0, {&in_ptr, &out_ptr, n16.get()});
    };
  };
  // Three interleaved passes over every configuration, each sample a stream of the copy alone (as
  // the transposes are timed).
  std::vector<std::vector<float>> samples(configs.size());
  for (int pass = 0; pass < 3; ++pass)
    for (std::size_t i = 0; i < configs.size(); ++i) {
      const auto go = launcher(configs[i]);
      for (int w = 0; w < (pass == 0 ? o.warmup : 1); ++w) go();
      for (int r = 0; r < std::max(3, o.repeats / 6); ++r) samples[i].push_back(ev.time_stream(go));
    }
  std::size_t best = 0;
  for (std::size_t i = 1; i < configs.size(); ++i)
    if (Events::median(samples[i]) < Events::median(samples[best])) best = i;
  const auto best_copy = launcher(configs[best]);
  // The copy must copy: every byte compared once.
  {
    std::vector<std::uint8_t> a(bytes), c(bytes);
    SWZ_CUDA(cudaMemset(out_ptr, 0, bytes));
    best_copy();
    SWZ_CUDA(cudaDeviceSynchronize());
    SWZ_CUDA(cudaMemcpy(a.data(), in_ptr, bytes, cudaMemcpyDeviceToHost));
    SWZ_CUDA(cudaMemcpy(c.data(), out_ptr, bytes, cudaMemcpyDeviceToHost));
    if (a != c) throw std::runtime_error("the copy kernel did not copy its input exactly");
  }
  const auto [memcpy_ms, copy_ms] = ev.paired_median_ms(o.warmup, o.repeats, memcpy_d2d, best_copy);
  b.memcpy_ms = memcpy_ms;
  b.copy_kernel_ms = copy_ms;
  b.copy_kernel = configs[best].what;
  if (copy_ms < memcpy_ms) {
    b.run = best_copy;
    b.name = "copy kernel";
  }
  return b;
}

}  // namespace swz::gpu::cuda
