// probe.cu: one cp.async per launch, for experiments on the copy's counters.
//
// Reads cases from a text file, one per line:
//   KIND MODE a0 .. a31 g0 .. g31
// KIND: ca4 ca8 ca16 cg16 (src-size in a register: LDGSTS...ZFILL), ca4n ca8n ca16n cg16n (no
// src-size: plain LDGSTS), cg16p (the copy under a guard predicate, `@p cp.async.cg`; ptxas may
// issue it as a plain LDGSTS in a branch: see probe.sass), cg16u (src-size 16 or 0 selected from a
// predicate next to the copy, as Triton 3.6 lowers a masked copy: `selp`, then the operand; in
// modes 300 + 10 S + X the predicate is the launch's uniform k > 0), cg16i (the ignore-src predicate
// operand, true where the copy moves no data).
// MODE: 0 cold (the copy alone), 1 warm (each live lane first loads its source word with
// ld.global.ca, so the copy's lines sit in L1), 2 twice (the same copy issued twice back to back:
// the second finds its lines in L1 for .ca), 3 four (the copy, then three more back to back, copy
// k at shared +2048 k and global +8192 k: a warp's four copies of one stage of Triton's int8
// 128x128x64 A tile), 10 W + S (W = 1, 2 or 4 warps, S = 1 or 2 stages, .cg only: that tile's
// prologue as the kernel issues it, every warp its four copies of mode 3 at once, warp w at
// shared +512 w and global +2048 w; with S = 2 a barrier, then the next stage's four at shared
// +8192 and global +64), 100 + 10 W + S (the same, each stage's copies committed as a group of
// their own, cp.async.commit_group, as Triton's LDGDEPBAR does), 300 + 10 S + X (the same tile from
// addresses the kernel computes itself: see int8_tile), 400 + 10 S + V (that tile in one of nine
// forms of the copy, 500 + 10 S + V the same unchecked: see int8_forms).
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

#include "case_line.h"

// Form 0: src-size in a register (LDGSTS...ZFILL, as compilers emit a masked copy); form 1: no
// src-size (a plain LDGSTS; a lane whose copy moves no data sits it out instead); form 2: a
// guard predicate, false where the copy moves no data; form 3: src-size chosen in the asm from a
// predicate, 16 or 0, as Triton lowers a masked copy (`selp`, then the src-size operand); form 4:
// the ignore-src predicate operand, true where the copy moves no data.
template <int Bytes, bool Bypass, int Form>
__device__ void copy(unsigned s, const unsigned char* src, bool live) {
  if constexpr (Form == 3) {
    static_assert(Bypass, "the selected src-size form is a .cg copy");
    asm volatile(
        "{\n .reg .pred p;\n .reg .b32 n;\n setp.ne.b32 p, %2, 0;\n selp.b32 n, 16, 0, p;\n"
        " cp.async.cg.shared.global [%0], [%1], 16, n;\n}" ::"r"(s),
        "l"(src), "r"(live ? 1 : 0)
        : "memory");
  } else if constexpr (Form == 4) {
    static_assert(Bypass, "the ignore-src form is a .cg copy");
    asm volatile("{\n .reg .pred p;\n setp.eq.b32 p, %2, 0;\n cp.async.cg.shared.global [%0], [%1], 16, p;\n}" ::"r"(s), "l"(src),
                 "r"(live ? 1 : 0)
                 : "memory");
  } else if constexpr (Form == 2) {
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
__global__ void __launch_bounds__(32)
    probe(const int* addr, const long long* gofs, const unsigned char* g, int mode, unsigned* sink) {
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
  // Every lane computes its shared offset and pointer before any lane is left out, so a lane that
  // sits the copy out holds the registers its case gives (without this the compiler computes them
  // only for the lanes that copy, and the others hold whatever came before).
  asm volatile("" ::"r"(s), "l"(src));
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
// registers (STL) come before its first stage. The case's addresses are not read. Forms 3 and 4
// take their predicate from the launch (k > 0, as the kernel masks its first stage with K > 0),
// the others copy unconditionally.
template <int Form>
__global__ void __launch_bounds__(128) int8_tile(const unsigned char* g, int stages, int spill, int k, unsigned* sink) {
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
    for (int c = 0; c < 4; ++c)
      copy<16, true, Form>(s + 8192 * stage + 2048 * c, src + 64 * stage + 8192 * c, Form >= 3 ? k > 0 : true);
    asm volatile("cp.async.commit_group;" ::: "memory");
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  if (spill == 3) sink[0] = local[t & 7] + smem[0];  // never: keeps both alive
}

// Modes 400 + 10 S + V: that tile's prologue (four warps, S stages a barrier apart, a commit group a
// stage, addresses from the thread index) in one of nine forms, each global address in a register
// the compiler cannot fold (`mov` in asm): V = 1 the predicate operand (`LDGSTS ..., P`, the copy's
// ignore-src false as k > 0), 2 the same with the global address as register + 64 (`[R.64+0x40]`),
// 3 the predicate computed as "nothing to copy" and kept for a guarded store as well (so ptxas may
// hand the copy its negation, `..., !P`), 4 that with + 64, 5 no predicate operand with + 64, 6 no
// predicate operand (the plain form), 7 the predicate operand after three local-memory stores
// (the kernel's spills come between its barrier and its second stage), 8 that after three
// local-memory loads, 9 that with the warps sleeping 4 us before each later stage (the earlier
// stage's data back first). probe.sass shows what ptxas made of each. After the copies every
// thread checks the bytes it copied against their source and counts a lane that differs in
// sink[31], which the host reports; modes 500 + 10 S + V are the same launches without the check
// (the same code, the check's loop run zero times). With SWZ_PROBE_SPIN=N in the environment each
// warp waits N clocks after each copy. The case's addresses are not read.
template <int V>
__global__ void __launch_bounds__(128)
    int8_forms(const unsigned char* g, int stages, int k, int check, long long spin, unsigned* sink) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int t = threadIdx.x, row = t / 4, chunk = t % 4;
  const unsigned offset = row * 64 + 16 * (chunk ^ ((row >> 1) & 3));
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + offset;
  const unsigned char* src = g + row * 256 + 16 * chunk;
  constexpr int imm = (V == 2 || V == 4 || V == 5) ? 64 : 0;
  volatile unsigned local[8];
  unsigned loaded = 0;
  for (int stage = 0; stage < stages; ++stage) {
    if (stage) __syncthreads();
    if constexpr (V == 9)
      if (stage) __nanosleep(4000);
    if constexpr (V == 7)
      for (int i = 0; i < 3; ++i) local[(i + t + stage) & 7] = static_cast<unsigned>(t + i);
    if constexpr (V == 8)
      for (int i = 0; i < 3; ++i) loaded += local[(i + t + stage) & 7];
    for (int c = 0; c < 4; ++c) {
      const unsigned d = s + 8192 * stage + 2048 * c;
      const unsigned char* p;
      asm volatile("mov.b64 %0, %1;" : "=l"(p) : "l"(src + 64 * stage + 8192 * c - imm));
      if constexpr (V == 3 || V == 4)
        asm volatile(
            "{\n .reg .pred q;\n setp.lt.s32 q, %2, 1;\n @q st.global.u32 [%4], %2;\n"
            " cp.async.cg.shared.global [%0], [%1+%3], 16, q;\n}" ::"r"(d),
            "l"(p), "r"(k), "n"(imm), "l"(sink + c)
            : "memory");
      else if constexpr (V == 5 || V == 6)
        asm volatile("cp.async.cg.shared.global [%0], [%1+%2], 16;" ::"r"(d), "l"(p), "n"(imm) : "memory");
      else
        asm volatile("{\n .reg .pred q;\n setp.lt.s32 q, %2, 1;\n cp.async.cg.shared.global [%0], [%1+%3], 16, q;\n}" ::"r"(d),
                     "l"(p), "r"(k), "n"(imm)
                     : "memory");
      if (spin) {  // SWZ_PROBE_SPIN: the warp waits this many clocks after each copy
        const long long start = clock64();
        while (clock64() - start < spin) {
        }
      }
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  bool bad = false;
  for (int stage = 0; stage < stages * check; ++stage)
    for (int c = 0; c < 4; ++c)
      for (int i = 0; i < 16; ++i) bad |= smem[offset + 8192 * stage + 2048 * c + i] != src[64 * stage + 8192 * c + i];
  if (bad) atomicAdd(sink + 31, 1u);
  if (k == -7) sink[0] = loaded + local[t & 7];  // never: keeps the local array alive
}

template <int V>
void launch_forms(int v, const unsigned char* g, int stages, int check, long long spin, int shared_bytes, unsigned* sink) {
  if constexpr (V <= 9) {
    if (v == V)
      int8_forms<V><<<1, 128, shared_bytes>>>(g, stages, 256, check, spin, sink);
    else
      launch_forms<V + 1>(v, g, stages, check, spin, shared_bytes, sink);
  }
}

template <int V>
void set_forms(int shared_bytes) {
  if constexpr (V <= 9) {
    cudaFuncSetAttribute(int8_forms<V>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
    set_forms<V + 1>(shared_bytes);
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: probe CASES\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  // SWZ_PROBE_BASE: bytes the cases' global offsets start past the buffer's start (the same
  // offsets, another place in memory); the buffer grows by as much.
  const char* base_text = std::getenv("SWZ_PROBE_BASE");
  const size_t base = base_text ? std::strtoull(base_text, nullptr, 10) : 0;
  const size_t global_bytes = (size_t{64} << 20) + base;
  unsigned char* g;
  int* addr;
  long long* gofs;
  unsigned* sink;
  cudaMalloc(&g, global_bytes);
  cudaMemset(g, 1, global_bytes);
  g += base;
  cudaMalloc(&addr, 32 * sizeof(int));
  cudaMalloc(&gofs, 32 * sizeof(long long));
  cudaMalloc(&sink, 32 * sizeof(unsigned));
  cudaMemset(sink, 0, 32 * sizeof(unsigned));
  const int shared_bytes = 65536;
  const char* spin_text = std::getenv("SWZ_PROBE_SPIN");  // modes 400+: clocks each warp waits after each copy
  const long long spin = spin_text ? std::atoll(spin_text) : 0;
  auto set = [&](auto kernel) { cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes); };
#define SWZ_KINDS(X)                                                                                          \
  X(ca4, 4, false, 0)                                                                                         \
  X(ca8, 8, false, 0)                                                                                         \
  X(ca16, 16, false, 0)                                                                                       \
  X(cg16, 16, true, 0) X(ca4n, 4, false, 1) X(ca8n, 8, false, 1) X(ca16n, 16, false, 1) X(cg16n, 16, true, 1) \
      X(cg16p, 16, true, 2) X(cg16u, 16, true, 3) X(cg16i, 16, true, 4)
#define SWZ_SET(name, b, bypass, form) \
  set(probe<b, bypass, form, 1>), set(probe<b, bypass, form, 2>), set(probe<b, bypass, form, 4>);
  SWZ_KINDS(SWZ_SET)
  set(prologue<true, 0>), set(prologue<true, 1>), set(prologue<true, 2>), set(prologue<true, 3>), set(prologue<true, 4>);
  set(int8_tile<0>), set(int8_tile<1>), set(int8_tile<2>), set(int8_tile<3>), set(int8_tile<4>);
  set_forms<1>(shared_bytes);
  ProbeCase c;
  bool bad = false;
  int n = 0;
  while (next_case(in, c, bad)) {
    const std::string& kind = c.kind;
    const int mode = c.mode;
    const std::vector<int>& a = c.a;
    const std::vector<long long>& go = c.go;
    if (bad) {
      std::fprintf(stderr, "line %d: bad case\n", n + 1);
      return 2;
    }
    cudaMemcpy(addr, a.data(), 32 * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(gofs, go.data(), 32 * sizeof(long long), cudaMemcpyHostToDevice);
    const int tile = mode % 100;  // modes 1WS commit each stage's copies as a group
    const bool tile_mode =
        (mode >= 10 && mode < 200 && (tile == 11 || tile == 12 || tile == 21 || tile == 22 || tile == 41 || tile == 42)) ||
        mode == 310 || mode == 311 || mode == 320 || mode == 321 ||
        (mode > 410 && mode < 530 && mode % 100 > 10 && mode % 100 < 30 && mode % 10 >= 1);
    if (!(mode >= 0 && mode <= 3) && !(tile_mode && kind.rfind("cg16", 0) == 0)) {
      std::fprintf(stderr,
                   "line %d: mode %d is not 0-3 (or for the cg16 kinds: [100 +] 10 W + S, W 1, 2 or 4, S 1 or 2; 300 + 10 S "
                   "+ X, X 0 or 1; [400 or 500] + 10 S + V, V 1-9)\n",
                   n + 1, mode);
      return 2;
    }
    bool known = false;
#define SWZ_LAUNCH(name, b, bypass, form)                                                                         \
  if (kind == #name) {                                                                                            \
    if (mode >= 400 && bypass)                                                                                    \
      launch_forms<1>(mode % 10, g, mode / 10 % 10, mode < 500, spin, shared_bytes, sink);                        \
    else if (mode >= 300 && bypass)                                                                               \
      int8_tile<form><<<1, 128, shared_bytes>>>(g, (mode - 300) / 10, mode % 10, 256, sink);                      \
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
    unsigned differing = 0;
    cudaMemcpy(&differing, sink + 31, sizeof differing, cudaMemcpyDeviceToHost);
    if (differing) {
      std::fprintf(stderr, "line %d: %u threads found bytes other than their source in shared memory\n", n + 1, differing);
      cudaMemset(sink + 31, 0, sizeof differing);
    }
    ++n;
  }
  std::printf("%d cases\n", n);
  return 0;
}
