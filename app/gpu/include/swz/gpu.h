// gpu.h: run a problem's exact layout on a real GPU and read the hardware's answer.
//
// The core predicts; this backend measures. From a Problem (writer A, reader B,
// the shared layout between them, the element width) it generates the CUDA
// source of kernels for exactly that layout, compiles them at run time for the
// GPU present, and reports three things:
//
//   correctness  the reader gets what the writer stored, element for element
//                (one block: poison shared memory, A stores known data, B reads
//                it back into global memory, the host compares every element B
//                covers)
//   counters     shared-memory wavefronts and bank conflicts of each access,
//                read from the hardware counters through CUPTI's range profiler
//                on a one-block kernel per access, beside swz::simulate's count
//                (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{st,ld}.sum)
//   throughput   a full-size transpose (default 8192 x 8192) that moves every
//                tile through shared memory with A, B and the layout, in GB/s
//                counting bytes read + written, beside cudaMemcpy device to
//                device in the same run and beside the unswizzled (row-major)
//                and padded (one bank word per row) layouts
//
// How addresses are made: the generated kernel computes each lane's shared
// offset from the same numbers the simulator uses. Linear layouts become XORs of
// compile-time constants (offset(c) = XOR of offset(e_i) over set bits i of
// coordinate c, and the access layout's bases likewise); affine layouts (padded
// rows) become m*stride + n; anything else reads the core's offset table. Only
// integers computed here reach the source text, never user strings, so input
// cannot inject code.
//
// This header has no CUDA types. A build without the CUDA toolkit serves it
// from a fallback whose device_info() says "built without CUDA" and whose run()
// throws Unavailable; source generation works in every build.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "swz/sim/corpus.h"
#include "swz/problem/problem.h"
#include "swz/solve/solver.h"

namespace swz::gpu {

// Exit status of `swizzle gpu` when no GPU can run it (no CUDA build, no device,
// driver too old); bad input stays 2.
inline constexpr int kExitUnavailable = 3;

// The backend cannot run here; what() says exactly why.
class Unavailable : public std::runtime_error {
 public:
  explicit Unavailable(const std::string& why) : std::runtime_error(why) {}
};

// True when this build has the CUDA backend (else every run() throws Unavailable).
bool built_with_cuda();

struct DeviceInfo {
  bool available = false;
  std::string reason;          // why not, when !available
  std::string name;            // "NVIDIA H100 80GB HBM3"
  int compute_major = 0, compute_minor = 0;
  int multiprocessors = 0;
  std::int64_t shared_bytes_per_block_optin = 0;
  int driver_version = 0, runtime_version = 0, nvrtc_major = 0, nvrtc_minor = 0;
};
// Never throws; probes device 0 once and caches the answer.
DeviceInfo device_info();

// -- source generation (no GPU needed) ----------------------------------------

// What the kernels will run: one entry per access, as the simulator chose it.
struct KernelPlan {
  int element_bits = 32;
  int threads = 32;                 // 32 * warps of the access layouts
  std::uint64_t shared_bytes = 0;   // the layout's extent, rounded up to 16
  std::string offset_form;          // "linear (XOR)", "affine", "table"
  std::string store_instruction, read_instruction;  // the writer's and reader's shared instructions ("STS.128", "LDSM.x4.trans")
  std::int64_t blocks_m = 0, blocks_n = 0;          // the transpose: blocks of tiles down the matrix (m) and across it (n)
};

struct GeneratedSource {
  std::string source;               // CUDA C++ for NVRTC
  KernelPlan plan;
  // Kernels in `source` (extern "C"):
  //   swz_check(const T* src, T* dst)   poison, A stores src, barrier, B reads into dst
  //   swz_store(const T* src)           A's stores only (counters)
  //   swz_load(T* dst)                  B's loads only (counters)
};
// Throws swz::Error for what the backend cannot run (4-bit elements, over 1024
// threads, a layout over 227 KB).
GeneratedSource generate_probe_source(const Problem& problem);

// The problem as the solver answers it: its shared layout, and the writer and reader as the
// answer issues them (registers renumbered, vector widths, ldmatrix / stmatrix [.trans] where
// chosen), which the generated kernels then run as given. `options` default to the solver's
// own, checked in full (a kernel's tile has a table).
Problem solved_problem(const Problem& problem, std::optional<SolveOptions> options = std::nullopt);

// The transpose: tile (m, n) of a rows x cols matrix goes in through A, out
// through B, to out[n][m]. Needs a 2-D problem whose accesses are LDS/STS (not
// ldmatrix); `layout` replaces the problem's shared layout (variants).
// A block moves `batch` tiles per warp group (each in its own copy of the layout, 128-byte
// aligned so the bank pattern is the layout's), stacked along m, where each output row gets
// batch x longer runs, or along n, where each input row does: more bytes in flight either way.
struct TransposeSpec {
  std::int64_t rows = 8192, cols = 8192;
  int batch = 1;           // tiles per warp group, along m (or along n: batch_along_n)
  bool streaming = false;  // global loads/stores with the .cs (evict-first) cache hint
  bool m_fastest = false;  // consecutive blocks walk down m (output rows) instead of along n
  int groups = 1;          // independent copies of the problem's warps per block, each on its own tiles and its own barrier
  bool persistent = false; // grid-stride: as many blocks as fit on the GPU at once, each looping over blocks of tiles
  bool loads_first = false; // a memory fence after the global loads: all of a block's loads in flight before its first shared store
  bool batch_along_n = false;  // a warp group's tiles side by side along n (input rows) instead of along m
};
// The counts a block may take of tiles per warp group (batch) and of warp groups (groups): the
// tuning tries each, and a fixed configuration names one.
inline constexpr int kTransposeCounts[] = {1, 2, 4, 8};
inline constexpr bool is_transpose_count(std::int64_t count) {
  for (const int c : kTransposeCounts)
    if (c == count) return true;
  return false;
}
GeneratedSource generate_transpose_source(const Problem& problem, const SharedLayout& layout, const TransposeSpec& spec);
// "" when the problem can run as a transpose, else why not.
std::string transpose_unsupported_reason(const Problem& problem);

// The layouts a transpose is compared on, each with the accesses that run on it. The chosen layout
// runs the problem's accesses; the unswizzled (row-major) and padded layouts run them too where
// they fit, and otherwise each side that does not fit issues the same registers with plain LDS/STS
// (an ldmatrix / stmatrix side as its fragment, a requested vector width as the widest the layout
// allows), so the global side of every variant is the same kernel. Padding is 16 bytes where a
// side moves 16-byte rows or vectors, else one bank word. A variant with no kernel at `spec`
// (shared memory, registers) keeps `not_run`, the reason, and is neither timed nor checked.
struct TransposeVariantPlan {
  std::string name;     // "chosen", "unswizzled", "padded"
  Problem problem;      // the layout and the accesses this variant runs
  std::string not_run;  // "" when it has a kernel at the spec
};
std::vector<TransposeVariantPlan> plan_transpose_variants(const Problem& problem, const TransposeSpec& spec);

// Compiles generated source with NVRTC for compute capability major.minor (no GPU
// needed) and returns the compiler's log; throws std::runtime_error with the log
// when it does not compile, Unavailable in a build without CUDA.
std::string compile_check(const std::string& source, int compute_major = 9, int compute_minor = 0);

// -- measurement (needs a GPU) ------------------------------------------------

struct AccessMeasurement {
  std::string instruction;           // "STS.32", "LDS.128", "LDSM.x4", ...
  int vector_bits = 0;
  int instructions = 0;              // per kernel (steps x warps)
  // swz::simulate
  double predicted_wavefronts = 0;   // mean per instruction
  int predicted_worst = 0;           // worst instruction
  int predicted_ideal = 0;           // ideal of the worst instruction
  std::int64_t predicted_total = 0;
  // hardware counters (valid when measured)
  bool measured = false;
  double measured_wavefronts = 0;    // per instruction = total / instructions
  std::int64_t measured_total = 0;   // ..._wavefronts_mem_shared_op_{st,ld}.sum
  std::int64_t measured_conflicts = 0;  // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{st,ld}.sum
  std::int64_t measured_instructions = -1;  // SASS instructions executed, -1 when not read
  bool matches() const { return measured && measured_total == predicted_total; }
};

struct TransposeVariant {
  std::string name;           // "chosen", "unswizzled", "padded"
  std::string layout;         // the layout's description
  bool ran = false;           // false: no kernel exists for this layout at the configuration (`not_run` says why)
  std::string not_run;
  std::string store_instruction, read_instruction;  // what the variant's writer and reader issue on its layout
  double predicted_store_wavefronts = 0, predicted_read_wavefronts = 0;  // mean per instruction
  double milliseconds = 0;    // median
  double bandwidth_gbs = 0;   // (bytes read + written) / median time
  double baseline_gbs = 0;    // the copy baseline (TransposeResult::baseline) of the same bytes, timed alternately with this kernel
  double percent_of_baseline() const { return baseline_gbs > 0 ? 100.0 * bandwidth_gbs / baseline_gbs : 0.0; }
  bool correct = false;       // every output element checked
  // Each round times `repeats` alternating (baseline copy, kernel) pairs; the rounds of all variants are
  // interleaved. milliseconds / baseline_gbs are the medians over the rounds' medians.
  int rounds = 1;
  double percent_min = 0, percent_max = 0;  // lowest / highest round's % of the baseline
};

// One kernel configuration tried on the chosen layout before the variants run.
struct TransposeTuning {
  TransposeSpec config;
  double bandwidth_gbs = 0;   // median over every timed run of this configuration
};

struct TransposeResult {
  bool ran = false;
  std::string reason;         // why not, when !ran
  std::int64_t rows = 0, cols = 0;
  int element_bits = 0;
  std::int64_t tile_rows = 0, tile_cols = 0;
  int threads_per_block = 0;
  TransposeSpec config;       // the configuration every variant ran with (fastest on the chosen layout)
  std::vector<TransposeTuning> tuning;
  // The chosen layout's kernel as it ran (CUDA C++, extern "C" swz_transpose(const T* in, T* out,
  // unsigned long long rows, unsigned long long cols)) and its launch: grid, threads, dynamic shared
  // bytes; so another harness can time the very kernel.
  std::string kernel_source;
  unsigned grid_x = 0, grid_y = 0;
  std::uint64_t shared_bytes = 0;
  unsigned grid_blocks() const { return grid_x * grid_y; }  // blocks launched
  int rounds = 1, repeats = 0;  // timing: rounds x (baseline copy, kernel) pairs per variant
  // The copy a transpose is measured against: the faster of cudaMemcpy device to device and a
  // 128-bit vectorised copy kernel tuned like the transpose (vectors per thread, block size,
  // grid, cache hint), the two timed alternately before the variants run.
  double memcpy_gbs = 0;           // cudaMemcpy device to device, same bytes
  double copy_kernel_gbs = 0;      // the tuned copy kernel
  std::string copy_kernel;         // its configuration
  std::string baseline;            // "cudaMemcpy" or "copy kernel"
  double baseline_ms = 0, baseline_gbs = 0;  // median over the variants' paired runs
  std::vector<TransposeVariant> variants;  // chosen first
};

struct RunOptions {
  bool counters = true;          // read the hardware counters
  bool transpose = true;         // run the full-size transpose
  std::int64_t transpose_size = 8192;  // rows = cols
  bool transpose_tune = true;    // try transpose_tuning_candidates on the chosen layout, keep the fastest
  int repeats = 25;              // timed runs (median reported)
  int warmup = 3;
  int transpose_rounds = 1;      // rounds of `repeats` (memcpy, kernel) pairs per transpose variant, interleaved
  // Which way consecutive blocks walk (TransposeSpec::m_fastest): the tuning's choice, or fixed.
  // The two orders can rank differently in another program's allocation and timing, so a caller
  // comparing kernels in its own harness can ask for each.
  enum class BlockOrder { Tuned, AlongN, AlongM };
  BlockOrder block_order = BlockOrder::Tuned;
  // Run this configuration as given instead of tuning (rows and cols are transpose_size):
  // a configuration an earlier run chose or listed in its tuning, timed again alone.
  std::optional<TransposeSpec> transpose_config;
  // That configuration at transpose_size (only when transpose_config is set).
  TransposeSpec fixed_transpose_spec() const {
    TransposeSpec spec = *transpose_config;
    spec.rows = spec.cols = transpose_size;
    return spec;
  }
};

// The kernel configurations the transpose's tuning tries at size x size: tiles per warp group and
// warp groups per block each 1/2/4/8, a group's tiles along m or along n, grid-stride or not, loads
// first or not, and the block orders `block_order` allows. None carries the evict-first hint (TransposeSpec::streaming): on the
// H100 the tuning on its own buffers ranked it up to 0.9% faster, and the same kernels ran 0.2-2.3% slower with it on PyTorch's
// tensors, since its worth follows where the buffers lie, so a choice made here would not hold on the caller's buffers. A fixed
// configuration (RunOptions::transpose_config) may still set it.
std::vector<TransposeSpec> transpose_tuning_candidates(std::int64_t size, RunOptions::BlockOrder block_order);

struct RunResult {
  DeviceInfo device;
  std::string problem, layout;
  int element_bits = 0;
  // correctness of the one-block kernel
  bool correct = false;
  std::int64_t checked = 0, mismatches = 0;
  std::string first_mismatch;    // "" when correct
  double check_kernel_us = 0;    // median time of that kernel
  // counters
  bool counters_available = false;
  std::string counters_reason;   // why not, when unavailable or not asked for
  AccessMeasurement store, read;
  TransposeResult transpose;
  std::string source;            // the generated probe source
};

// Throws Unavailable (no GPU / no CUDA build) or swz::Error (a problem the
// backend cannot run). Counter and transpose failures do not throw: they are
// reported in the result with their reason.
RunResult run(const Problem& problem, const RunOptions& options = {});

// The CLI's --json object (keys documented in README): device, correct,
// store.{measured,predicted}_wavefronts, read.*, transpose.{bandwidth_gbs,memcpy_gbs}, ...
nlohmann::json to_json(const RunResult& result);
nlohmann::json to_json(const DeviceInfo& device);
// A transpose configuration from the JSON a run writes for it: the keys of the result's transpose
// object and of each transpose.tuning entry (tiles_per_block, warp_groups_per_block,
// evict_first_hint, blocks_walk_m_first, grid_stride, loads_issued_before_stores); a key left out
// keeps its default, and an entry's measured or derived keys (bandwidth_gbs, threads_per_block,
// grid_blocks) are ignored, so a tuning entry reads as it was written. Throws swz::Error naming
// the key for an unknown key or a bad value.
TransposeSpec transpose_config_from_json(const nlohmann::json& config);
// Human-readable report.
std::string to_text(const RunResult& result);

// -- calibration: single warp instructions on raw addresses ------------------
//
// Each case of a corpus (corpus.h) runs as exactly its instruction (inline PTX:
// ld/st.shared, ldmatrix, stmatrix, cp.async) in one warp of a one-block
// kernel, one launch per case, and the range profiler reads that launch's
// shared-memory wavefronts and instruction count. Many cases share one module
// and one profiler session.

// The probe kernels' CUDA source, one kernel per kind (no GPU needed).
std::string generate_calibration_source(const std::vector<InstructionKind>& kinds);
// The kernel that runs `kind` in that source.
std::string calibration_kernel_name(const InstructionKind& kind);
// The SASS opcode (as cuobjdump prints it) the kernel for `kind` must contain, as a regular expression.
std::string expected_sass(const InstructionKind& kind);
// The PTX instruction the generated kernels write for `kind` (ld/st[.volatile].shared, ldmatrix,
// stmatrix, cp.async), as a regular expression; "" for kinds they do not issue.
std::string expected_ptx(const InstructionKind& kind);

struct CalibrationOptions {
  std::size_t batch = 256;  // cases per profiler session
  std::string date;         // stamped on every case (YYYY-MM-DD)
  std::function<void(std::size_t done, std::size_t total)> progress;
};
struct CalibrationInfo {
  DeviceInfo device;
  std::vector<std::string> metrics;  // the counters that were read
  std::vector<std::string> notes;    // counters this GPU does not offer, and what follows
};
// Measures every case in place (device, cc, date, wavefronts, instructions).
// Throws Unavailable without a GPU or counters, swz::Error for a case that is
// not valid for the probe's shared memory.
CalibrationInfo calibrate(std::vector<CorpusCase>& cases, const CalibrationOptions& options = {});
// The probe module compiled to machine code for compute capability major.minor (for cuobjdump).
std::vector<char> calibration_cubin(const std::vector<InstructionKind>& kinds, int compute_major, int compute_minor);

}  // namespace swz::gpu
