// probe.cu: one cp.async per launch, for experiments on the copy's counters.
//
// Reads cases from a text file, one per line:
//   KIND MODE a0 .. a31 g0 .. g31
// KIND: ca4 ca8 ca16 cg16 (src-size in a register: LDGSTS...ZFILL), ca4n ca8n ca16n cg16n (no
// src-size: plain LDGSTS), cg16p (the copy under a guard predicate, `@p cp.async.cg`, as Triton
// writes a masked copy; ptxas may issue it as a plain LDGSTS in a branch: see probe.sass).
// MODE: 0 cold (the copy alone), 1 warm (each live lane first loads its source word with
// ld.global.ca, so the copy's lines sit in L1), 2 twice (the same copy issued twice back to back:
// the second finds its lines in L1 for .ca), 3 four (the copy, then three more back to back, copy
// k at shared +2048 k and global +8192 k: a warp's four copies of one stage of Triton's int8
// 128x128x64 A tile), 10 W + S (W = 1, 2 or 4 warps, S = 1 or 2 stages, .cg only: that tile's
// prologue as the kernel issues it, every warp its four copies of mode 3 at once, warp w at
// shared +512 w and global +2048 w; with S = 2 a barrier, then the next stage's four at shared
// +8192 and global +64), 100 + 10 W + S (the same, each stage's copies committed as a group of
// their own, cp.async.commit_group, as Triton's LDGDEPBAR does), 300 + 10 S + X (the same tile from
// addresses the kernel computes itself: see int8_tile).
// a: shared byte offsets (-1: the lane sits the copy out; -2 - X: it sits out holding shared
// offset X in its register), g: global byte offsets (-1: the copy moves no data, src-size 0, its
// pointer at the buffer's start; -2 - X: the same, its pointer at byte X). Each case is one
// launch (of one warp but in modes 10 W + S), so a profiler that keeps one row per launch gives
// one row per case, in file order.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

// Form 0: src-size in a register (LDGSTS...ZFILL, as compilers emit a masked copy); form 1: no
// src-size (a plain LDGSTS; a lane whose copy moves no data sits it out instead); form 2: a
// guard predicate, false where the copy moves no data.
template <int Bytes, bool Bypass, int Form>
__device__ void copy(unsigned s, const unsigned char* src, bool live) {
  if constexpr (Form == 2) {
    static_assert(Bypass, "the guarded form is a .cg copy");
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n @p cp.async.cg.shared.global [%0], [%1], 16;\n}" ::"r"(s), "l"(src),
                 "r"(live ? 1 : 0)
                 : "memory");
  } else if constexpr (Form == 1) {
    if (!live) return;
    if constexpr (Bypass)
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(src) : "memory");
    else
      asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(s), "l"(src), "n"(Bytes) : "memory");
  } else if constexpr (Bypass) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(s), "l"(src), "r"(live ? 16 : 0) : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(s), "l"(src), "n"(Bytes), "r"(live ? Bytes : 0)
                 : "memory");
  }
}

// Times: 2 for mode 2, 4 for mode 3; the kernels of mode 0 and 1 hold one copy (a plain LDGSTS.BYPASS whose lanes
// are all predicated off still counts, so a kernel issues no copy it does not mean).
template <int Bytes, bool Bypass, int Form, int Times>
__global__ void __launch_bounds__(32) probe(const int* addr, const long long* gofs, const unsigned char* g, int mode,
                                            unsigned* sink) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int a = addr[threadIdx.x];
  const long long go = gofs[threadIdx.x];
  const int held = a >= 0 ? a : a == -1 ? 0 : -2 - a;  // the shared offset the lane's register holds
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + static_cast<unsigned>(held);
  const unsigned char* src = g + (go >= 0 ? go : go == -1 ? 0 : -2 - go);
  if (mode == 1 && a >= 0 && go >= 0) {
    unsigned v, zero;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(src));
    asm volatile("and.b32 %0, %1, 0;" : "=r"(zero) : "r"(v));  // the copy waits for the load
    src += zero;
  }
  __syncwarp();
  if (a >= 0) copy<Bytes, Bypass, Form>(s, src, go >= 0);
  if constexpr (Times == 2)
    if (a >= 0) copy<Bytes, Bypass, Form>(s, src, go >= 0);
  if constexpr (Times == 4)
    if (a >= 0) {
      copy<Bytes, Bypass, Form>(s + 2048, src + 8192, go >= 0);
      copy<Bytes, Bypass, Form>(s + 4096, src + 16384, go >= 0);
      copy<Bytes, Bypass, Form>(s + 6144, src + 24576, go >= 0);
    }
  asm volatile("cp.async.wait_all;" ::: "memory");
  if (a == -1 && go == -3) sink[0] = smem[0];  // never: keeps the shared buffer alive
}

// Modes 10 W + S: W warps each issuing four copies a stage, S stages a barrier apart.
template <bool Bypass, int Form>
__global__ void __launch_bounds__(128)
    prologue(const int* addr, const long long* gofs, const unsigned char* g, int stages, bool groups, unsigned* sink) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int a = addr[lane];
  const long long go = gofs[lane];
  const int held = (a >= 0 ? a : a == -1 ? 0 : -2 - a) + 512 * warp;
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + static_cast<unsigned>(held);
  const unsigned char* src = g + (go >= 0 ? go : go == -1 ? 0 : -2 - go) + 2048 * warp;
  for (int stage = 0; stage < stages; ++stage) {
    if (stage) __syncthreads();
    if (a >= 0)
      for (int k = 0; k < 4; ++k) copy<16, Bypass, Form>(s + 8192 * stage + 2048 * k, src + 64 * stage + 8192 * k, go >= 0);
    if (groups) asm volatile("cp.async.commit_group;" ::: "memory");
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  if (a == -1 && go == -3) sink[0] = smem[0];  // never: keeps the shared buffer alive
}

// Modes 300 + 10 S + X: that tile's prologue with its addresses computed from the thread index as
// the kernel computes them (no load before the copies), four warps, S stages a barrier apart, each
// stage a commit group of its own; X = 1: eight local-memory stores first, as the kernel's spilled
// registers (STL) come before its first stage. The case's addresses are not read.
template <int Form>
__global__ void __launch_bounds__(128) int8_tile(const unsigned char* g, int stages, int spill, unsigned* sink) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int t = threadIdx.x, row = t / 4, chunk = t % 4;
  const unsigned s =
      static_cast<unsigned>(__cvta_generic_to_shared(smem)) + static_cast<unsigned>(row * 64 + 16 * (chunk ^ ((row >> 1) & 3)));
  const unsigned char* src = g + row * 256 + 16 * chunk;
  volatile unsigned local[8];
  if (spill)
    for (int i = 0; i < 8; ++i) local[(i + t) & 7] = static_cast<unsigned>(t + i);
  for (int stage = 0; stage < stages; ++stage) {
    if (stage) __syncthreads();
    for (int k = 0; k < 4; ++k) copy<16, true, Form>(s + 8192 * stage + 2048 * k, src + 64 * stage + 8192 * k, true);
    asm volatile("cp.async.commit_group;" ::: "memory");
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  if (spill == 3) sink[0] = local[t & 7] + smem[0];  // never: keeps both alive
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: probe CASES\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  const size_t global_bytes = size_t{64} << 20;
  unsigned char* g;
  int* addr;
  long long* gofs;
  unsigned* sink;
  cudaMalloc(&g, global_bytes);
  cudaMemset(g, 1, global_bytes);
  cudaMalloc(&addr, 32 * sizeof(int));
  cudaMalloc(&gofs, 32 * sizeof(long long));
  cudaMalloc(&sink, 32 * sizeof(unsigned));
  const int shared_bytes = 65536;
  auto set = [&](auto kernel) { cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes); };
#define SWZ_KINDS(X)                                                                                       \
  X(ca4, 4, false, 0)                                                                                      \
  X(ca8, 8, false, 0) X(ca16, 16, false, 0) X(cg16, 16, true, 0) X(ca4n, 4, false, 1) X(ca8n, 8, false, 1) \
      X(ca16n, 16, false, 1) X(cg16n, 16, true, 1) X(cg16p, 16, true, 2)
#define SWZ_SET(name, b, bypass, form) \
  set(probe<b, bypass, form, 1>), set(probe<b, bypass, form, 2>), set(probe<b, bypass, form, 4>);
  SWZ_KINDS(SWZ_SET)
  set(prologue<true, 0>), set(prologue<true, 1>), set(prologue<true, 2>);
  set(int8_tile<0>), set(int8_tile<1>), set(int8_tile<2>);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string kind;
    int mode;
    ls >> kind >> mode;
    std::vector<int> a(32);
    std::vector<long long> go(32);
    for (int& v : a) ls >> v;
    for (long long& v : go) ls >> v;
    if (!ls) {
      std::fprintf(stderr, "line %d: bad case\n", n + 1);
      return 2;
    }
    cudaMemcpy(addr, a.data(), 32 * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(gofs, go.data(), 32 * sizeof(long long), cudaMemcpyHostToDevice);
    const int tile = mode % 100;  // modes 1WS commit each stage's copies as a group
    const bool tile_mode =
        (mode >= 10 && mode < 200 && (tile == 11 || tile == 12 || tile == 21 || tile == 22 || tile == 41 || tile == 42)) ||
        mode == 310 || mode == 311 || mode == 320 || mode == 321;
    if (!(mode >= 0 && mode <= 3) && !(tile_mode && kind.rfind("cg16", 0) == 0)) {
      std::fprintf(stderr,
                   "line %d: mode %d is not 0-3 (or for cg16, cg16n, cg16p: [100 +] 10 W + S, W 1, 2 or 4, S 1 or 2; 300 + 10 S "
                   "+ X, X 0 or 1)\n",
                   n + 1, mode);
      return 2;
    }
    bool known = false;
#define SWZ_LAUNCH(name, b, bypass, form)                                                                         \
  if (kind == #name) {                                                                                            \
    if (mode >= 300 && bypass)                                                                                    \
      int8_tile<form><<<1, 128, shared_bytes>>>(g, (mode - 300) / 10, mode % 10, sink);                           \
    else if (mode >= 10 && bypass)                                                                                \
      prologue<bypass, form><<<1, 32 * (tile / 10), shared_bytes>>>(addr, gofs, g, tile % 10, mode >= 100, sink); \
    else if (mode == 2)                                                                                           \
      probe<b, bypass, form, 2><<<1, 32, shared_bytes>>>(addr, gofs, g, mode, sink);                              \
    else if (mode == 3)                                                                                           \
      probe<b, bypass, form, 4><<<1, 32, shared_bytes>>>(addr, gofs, g, mode, sink);                              \
    else                                                                                                          \
      probe<b, bypass, form, 1><<<1, 32, shared_bytes>>>(addr, gofs, g, mode, sink);                              \
    known = true;                                                                                                 \
  }
    SWZ_KINDS(SWZ_LAUNCH)
    if (!known) {
      std::fprintf(stderr, "line %d: unknown kind %s\n", n + 1, kind.c_str());
      return 2;
    }
    if (cudaDeviceSynchronize() != cudaSuccess) {
      std::fprintf(stderr, "line %d: %s\n", n + 1, cudaGetErrorString(cudaGetLastError()));
      return 1;
    }
    ++n;
  }
  std::printf("%d cases\n", n);
  return 0;
}
