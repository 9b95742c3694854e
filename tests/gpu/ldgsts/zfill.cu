// zfill.cu: what a src-size .cg copy writes, and what the counter sees, for lanes that move no data.
//
//   zfill CASES          (nvcc -O2 -arch=sm_90 -o zfill zfill.cu; run under Nsight Compute for the counts)
//
// CASES: probe.cu's case lines (`cg16 0 a0..a31 g0..g31`; g -1: moves no data, pointer at byte 0;
// -2 - X: moves no data, pointer at X). Each case runs once in each of two kernels that issue the
// same copy (LDGSTS.E.BYPASS.128.ZFILL with its predicate): `late` computes the condition of its
// epilogue after the copy, where ptxas may reuse the copy's predicate register while the copy is in
// flight; `early` computes every register before the copy and fences them. After the copy each lane
// reads back its 16 bytes of shared memory. Prints, per case and kernel, the lanes that moved no
// data whose 16 bytes are not all zero ("zeros" when every such lane's bytes are 0): the global
// buffer holds 0x01 in every byte, so a lane that copied reads 0x01010101.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "case_line.h"

// The copy in four kernels of one build. Form: `size` takes src-size from a register (ptxas:
// LDGSTS.E.BYPASS.128.ZFILL with a predicate it derives), `select` from a selp of a predicate in
// the same asm (Triton's masked copy; ptxas: LDGSTS.E.BYPASS.128 with that predicate). Clobber: the
// asm's next instruction writes a predicate again (a setp whose store never runs), which ptxas may
// give the copy's predicate register while the copy is in flight; without it nothing writes a
// predicate before the copy completes.
template <bool Select, bool Clobber, int Hold, bool Guard = true>
__global__ void __launch_bounds__(32)
    zfill(const int* addr, const long long* gofs, const unsigned char* g, unsigned* sink, uint4* slot) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int a = addr[threadIdx.x];
  const long long go = gofs[threadIdx.x];
  const int held = a >= 0 ? a : a == -1 ? 0 : -2 - a;
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + static_cast<unsigned>(held);
  const unsigned char* src = g + (go >= 0 ? go : go == -1 ? 0 : -2 - go);
  const unsigned never = a == -7 ? 1u : 0u;  // 0 in every case: the clobbering store's condition
  // Hold: conditions false in every case, computed before the copy and used after it, so that
  // predicates live across the copy take the lowest predicate registers.
  const bool hold1 = Hold > 0 && go == -9, hold2 = Hold > 1 && go == -10;
  asm volatile("" ::"r"(s), "l"(src), "r"(never), "r"(hold1 ? 1 : 0), "r"(hold2 ? 1 : 0));
  __syncwarp();
  if (!Guard || a >= 0) {
    if constexpr (Select && Clobber)
      asm volatile(
          "{\n .reg .pred p;\n .reg .b32 n;\n setp.ne.b32 p, %2, 0;\n selp.b32 n, 16, 0, p;\n"
          " cp.async.cg.shared.global [%0], [%1], 16, n;\n setp.ne.b32 p, %3, 0;\n @p st.global.u32 [%4], %3;\n}" ::"r"(s),
          "l"(src), "r"(go >= 0 ? 1 : 0), "r"(never), "l"(sink)
          : "memory");
    else if constexpr (Select)
      asm volatile(
          "{\n .reg .pred p;\n .reg .b32 n;\n setp.ne.b32 p, %2, 0;\n selp.b32 n, 16, 0, p;\n"
          " cp.async.cg.shared.global [%0], [%1], 16, n;\n}" ::"r"(s),
          "l"(src), "r"(go >= 0 ? 1 : 0)
          : "memory");
    else if constexpr (Clobber)
      asm volatile(
          "{\n .reg .pred q;\n cp.async.cg.shared.global [%0], [%1], 16, %2;\n setp.ne.b32 q, %3, 0;\n"
          " @q st.global.u32 [%4], %3;\n}" ::"r"(s),
          "l"(src), "r"(go >= 0 ? 16 : 0), "r"(never), "l"(sink)
          : "memory");
    else
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(s), "l"(src), "r"(go >= 0 ? 16 : 0) : "memory");
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  if (hold1) sink[1] = 1;
  if (hold2) sink[2] = 2;
  __syncwarp();
  if (a >= 0) slot[threadIdx.x] = *reinterpret_cast<const uint4*>(smem + a);
}

// The same copy with no predicate computed before it: each lane's shared offset, pointer and
// whether it moves data come from arrays, so the copy's predicate (ptxas's zero-fill one, or the
// select's) is the kernel's first. Every lane copies (cases whose lanes all take part).
template <bool Select>
__global__ void __launch_bounds__(32)
    zfill_direct(const int* addr, const long long* pointer, const unsigned char* g, const unsigned* live, uint4* slot) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + static_cast<unsigned>(addr[threadIdx.x]);
  const unsigned char* src = g + pointer[threadIdx.x];
  const unsigned moves = live[threadIdx.x];
  if constexpr (Select)
    asm volatile(
        "{\n .reg .pred p;\n .reg .b32 n;\n setp.ne.b32 p, %2, 0;\n selp.b32 n, 16, 0, p;\n"
        " cp.async.cg.shared.global [%0], [%1], 16, n;\n}" ::"r"(s),
        "l"(src), "r"(moves)
        : "memory");
  else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(s), "l"(src), "r"(moves * 16) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncwarp();
  slot[threadIdx.x] = *reinterpret_cast<const uint4*>(smem + addr[threadIdx.x]);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: zfill CASES\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  const size_t global_bytes = size_t{64} << 20;
  unsigned char* g;
  int* addr;
  long long* gofs;
  unsigned* sink;
  uint4* slot;
  cudaMalloc(&g, global_bytes);
  cudaMemset(g, 1, global_bytes);
  cudaMalloc(&addr, 32 * sizeof(int));
  cudaMalloc(&gofs, 32 * sizeof(long long));
  cudaMalloc(&sink, 32 * sizeof(unsigned));
  cudaMalloc(&slot, 32 * sizeof(uint4));
  long long* pointer;
  unsigned* live;
  cudaMalloc(&pointer, 32 * sizeof(long long));
  cudaMalloc(&live, 32 * sizeof(unsigned));
  cudaFuncSetAttribute(zfill_direct<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
  cudaFuncSetAttribute(zfill_direct<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
  const int shared_bytes = 65536;
  using Kernel = void (*)(const int*, const long long*, const unsigned char*, unsigned*, uint4*);
  const struct {
    const char* name;
    Kernel kernel;
  } kernels[] = {{"size", zfill<false, false, 0>},
                 {"size, clobbered", zfill<false, true, 0>},
                 {"select", zfill<true, false, 0>},
                 {"select, clobbered", zfill<true, true, 0>},
                 {"size, one held", zfill<false, false, 1>},
                 {"size, two held", zfill<false, false, 2>},
                 {"select, one held", zfill<true, false, 1>},
                 {"select, two held", zfill<true, false, 2>},
                 {"size, every lane", zfill<false, false, 0, false>},
                 {"select, every lane", zfill<true, false, 0, false>}};
  for (const auto& k : kernels) cudaFuncSetAttribute(k.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
  ProbeCase c;
  bool bad = false;
  int n = 0;
  while (next_case(in, c, bad)) {
    if (bad || c.kind != "cg16" || c.mode != 0) {
      std::fprintf(stderr, "line %d: not a cg16 mode-0 case\n", n + 1);
      return 2;
    }
    const std::vector<int>& a = c.a;
    const std::vector<long long>& go = c.go;
    cudaMemcpy(addr, a.data(), 32 * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(gofs, go.data(), 32 * sizeof(long long), cudaMemcpyHostToDevice);
    const bool every = std::all_of(a.begin(), a.end(), [](int v) { return v >= 0; });
    std::vector<long long> p(32);
    std::vector<unsigned> moves(32);
    for (int lane = 0; lane < 32; ++lane) {
      p[lane] = go[lane] >= 0 ? go[lane] : go[lane] == -1 ? 0 : -2 - go[lane];
      moves[lane] = go[lane] >= 0;
    }
    cudaMemcpy(pointer, p.data(), 32 * sizeof(long long), cudaMemcpyHostToDevice);
    cudaMemcpy(live, moves.data(), 32 * sizeof(unsigned), cudaMemcpyHostToDevice);
    for (int i = 0; i < 10 + (every ? 2 : 0); ++i) {
      const char* name = i < 10 ? kernels[i].name : i == 10 ? "size, direct" : "select, direct";
      cudaMemset(slot, 0xff, 32 * sizeof(uint4));
      if (i == 10) zfill_direct<false><<<1, 32, shared_bytes>>>(addr, pointer, g, live, slot);
      if (i == 11) zfill_direct<true><<<1, 32, shared_bytes>>>(addr, pointer, g, live, slot);
      if (i < 10) kernels[i].kernel<<<1, 32, shared_bytes>>>(addr, gofs, g, sink, slot);
      std::vector<uint4> got(32);
      cudaMemcpy(got.data(), slot, 32 * sizeof(uint4), cudaMemcpyDeviceToHost);
      std::string copied;
      for (int lane = 0; lane < 32; ++lane) {
        if (a[lane] < 0 || go[lane] >= 0) continue;
        bool shared = false;  // a lane moving data writes the same 16 bytes
        for (int other = 0; other < 32; ++other) shared |= a[other] >= 0 && go[other] >= 0 && a[other] / 16 == a[lane] / 16;
        if (shared) continue;
        const uint4 v = got[lane];
        if (v.x | v.y | v.z | v.w) copied += " " + std::to_string(lane);
      }
      std::printf("case %d %s: %s\n", n, name, copied.empty() ? "zeros" : ("data in lanes" + copied).c_str());
    }
    ++n;
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}
