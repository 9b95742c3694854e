// copy_baseline.h: the copy a transpose is measured against: the faster of cudaMemcpy device to
// device and a 128-bit copy kernel tuned on the same bytes (CUDA builds only).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "cuda_support.h"
#include "swz/gpu.h"

namespace swz::gpu::cuda {

// The copy kernels (swz_copy_v{1,2,4}[_cs]: 1, 2 or 4 uint4 per thread per trip, grid-stride,
// optionally with the evict-first hint) and swz_spin, the GPU sleep every timed run is queued behind.
std::string copy_kernel_source();

struct CopyBaseline {
  std::function<void()> run;  // the faster copy
  std::string name;           // "cudaMemcpy" or "copy kernel"
  std::string copy_kernel;    // the tuned kernel's configuration
  double memcpy_ms = 0, copy_kernel_ms = 0;
};

// Tunes the copy kernel of `module` (copy_kernel_source: vectors per trip x hint x block size x
// grid) on `bytes` from in to out, checks that it copies, then times it alternately with
// `memcpy_d2d`; the faster of the two is the baseline. The pointers are read when a copy runs.
CopyBaseline tune_copy(const DeviceInfo& dev, void*& in_ptr, void*& out_ptr, std::size_t bytes, const RunOptions& o, Events& ev,
                       const std::function<void()>& memcpy_d2d, const Module& module);

}  // namespace swz::gpu::cuda
