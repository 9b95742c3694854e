// lds_probe.hip: one wavefront issues chosen LDS reads or writes, for rocprofv3's counters.
//
// Build on a machine with ROCm (no GPU needed to build):
//   hipcc -O2 --offload-arch=gfx942 --offload-arch=gfx950 -o lds_probe lds_probe.hip
// Run under rocprofv3 (README "AMD: a measured corpus of your own"):
//   rocprofv3 --pmc SQ_INSTS_LDS SQ_LDS_BANK_CONFLICT --output-format csv -d out -o lds -- ./lds_probe plan.txt
//
// plan.txt (written by to_amd_corpus.py plan): one case per line,
//   INSTRUCTION REPEAT a0 a1 .. a63
// INSTRUCTION: ds_read_b32 ds_read_b64 ds_read_b128 ds_write_b32 ds_write_b64 ds_write_b128.
// a: the LDS byte address of each of the 64 lanes (-1: the lane sits the instruction out, through
// the exec mask). Each case is one launch of one 64-lane wavefront issuing the instruction REPEAT
// times, so rocprofv3 keeps one row per counter per case, in file order.
#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define PROBE_CHECK(call)                                                                   \
  do {                                                                                      \
    hipError_t probe_status = (call);                                                       \
    if (probe_status != hipSuccess) {                                                       \
      std::fprintf(stderr, "lds_probe: %s: %s\n", #call, hipGetErrorString(probe_status)); \
      std::exit(3);                                                                         \
    }                                                                                       \
  } while (0)

typedef unsigned u32x2 __attribute__((ext_vector_type(2)));
typedef unsigned u32x4 __attribute__((ext_vector_type(4)));

// Op: 0..2 reads of 4/8/16 bytes, 3..5 writes of 4/8/16 bytes.
template <int Op>
__global__ void __launch_bounds__(64) lds_probe(const int* address, int repeat, unsigned* sink) {
  extern __shared__ __attribute__((aligned(16))) unsigned char lds[];
  const int lane = threadIdx.x;
  const int a = address[lane];
  unsigned acc = 0;
  if (a >= 0) {
    const unsigned at = static_cast<unsigned>(reinterpret_cast<uintptr_t>(lds)) + static_cast<unsigned>(a);
    for (int r = 0; r < repeat; ++r) {
      if constexpr (Op == 0) {
        unsigned v;
        asm volatile("ds_read_b32 %0, %1\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(at) : "memory");
        acc += v;
      } else if constexpr (Op == 1) {
        u32x2 v;
        asm volatile("ds_read_b64 %0, %1\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(at) : "memory");
        acc += v.x ^ v.y;
      } else if constexpr (Op == 2) {
        u32x4 v;
        asm volatile("ds_read_b128 %0, %1\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(at) : "memory");
        acc += v.x ^ v.y ^ v.z ^ v.w;
      } else if constexpr (Op == 3) {
        asm volatile("ds_write_b32 %0, %1\n s_waitcnt lgkmcnt(0)" ::"v"(at), "v"(lane) : "memory");
      } else if constexpr (Op == 4) {
        u32x2 v = {static_cast<unsigned>(lane), 0u};
        asm volatile("ds_write_b64 %0, %1\n s_waitcnt lgkmcnt(0)" ::"v"(at), "v"(v) : "memory");
      } else {
        u32x4 v = {static_cast<unsigned>(lane), 0u, 0u, 0u};
        asm volatile("ds_write_b128 %0, %1\n s_waitcnt lgkmcnt(0)" ::"v"(at), "v"(v) : "memory");
      }
    }
  }
  sink[lane] = acc;
}

namespace {

const char* const kInstructions[] = {"ds_read_b32",  "ds_read_b64",  "ds_read_b128",
                                     "ds_write_b32", "ds_write_b64", "ds_write_b128"};
const int kBytes[] = {4, 8, 16, 4, 8, 16};

template <int Op>
void launch(const int* address, int repeat, unsigned* sink, size_t lds_bytes) {
  PROBE_CHECK(hipFuncSetAttribute(reinterpret_cast<const void*>(&lds_probe<Op>),
                                  hipFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(lds_bytes)));
  hipLaunchKernelGGL(lds_probe<Op>, dim3(1), dim3(64), lds_bytes, 0, address, repeat, sink);
  PROBE_CHECK(hipGetLastError());
  PROBE_CHECK(hipDeviceSynchronize());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: lds_probe plan.txt\n");
    return 2;
  }
  std::ifstream plan(argv[1]);
  if (!plan) {
    std::fprintf(stderr, "lds_probe: cannot open %s\n", argv[1]);
    return 2;
  }
  int device_lds = 0;
  PROBE_CHECK(hipDeviceGetAttribute(&device_lds, hipDeviceAttributeMaxSharedMemoryPerBlock, 0));
  int* address = nullptr;
  unsigned* sink = nullptr;
  PROBE_CHECK(hipMalloc(&address, 64 * sizeof(int)));
  PROBE_CHECK(hipMalloc(&sink, 64 * sizeof(unsigned)));
  std::string text;
  for (int line = 1; std::getline(plan, text); ++line) {
    if (text.empty()) continue;
    std::istringstream in(text);
    std::string name;
    int repeat = 0;
    std::vector<int> lanes(64);
    in >> name >> repeat;
    for (int& a : lanes) in >> a;
    int op = -1;
    for (int i = 0; i < 6; ++i)
      if (name == kInstructions[i]) op = i;
    if (!in || op < 0 || repeat < 1) {
      std::fprintf(stderr, "lds_probe: %s:%d: expected INSTRUCTION REPEAT and 64 addresses\n", argv[1], line);
      return 2;
    }
    long long top = 16;
    for (int lane = 0; lane < 64; ++lane) {
      if (lanes[lane] < -1 || (lanes[lane] >= 0 && lanes[lane] % kBytes[op] != 0)) {
        std::fprintf(stderr, "lds_probe: %s:%d: lane %d: address %d is not -1 or aligned to %d bytes\n", argv[1], line, lane,
                     lanes[lane], kBytes[op]);
        return 2;
      }
      top = std::max<long long>(top, lanes[lane] + kBytes[op]);
    }
    if (top > device_lds) {
      std::fprintf(stderr, "lds_probe: %s:%d: addresses reach byte %lld; this GPU's LDS per block is %d bytes\n", argv[1], line,
                   top, device_lds);
      return 2;
    }
    PROBE_CHECK(hipMemcpy(address, lanes.data(), 64 * sizeof(int), hipMemcpyHostToDevice));
    const size_t lds_bytes = static_cast<size_t>((top + 15) / 16 * 16);
    switch (op) {
      case 0: launch<0>(address, repeat, sink, lds_bytes); break;
      case 1: launch<1>(address, repeat, sink, lds_bytes); break;
      case 2: launch<2>(address, repeat, sink, lds_bytes); break;
      case 3: launch<3>(address, repeat, sink, lds_bytes); break;
      case 4: launch<4>(address, repeat, sink, lds_bytes); break;
      default: launch<5>(address, repeat, sink, lds_bytes); break;
    }
  }
  PROBE_CHECK(hipFree(address));
  PROBE_CHECK(hipFree(sink));
  return 0;
}
