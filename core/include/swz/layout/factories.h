// factories.h: the layouts users meet, built from their usual parameters.
//
// Distributed layouts (register/lane/warp -> coords):
//   blocked        Triton's BlockedEncoding(sizePerThread, threadsPerWarp, warpsPerCTA, order)
//   mma_m16n8k16   mma.sync fragments of A (16x16), B (16x8, k x n), C/D (16x8)
//   ldmatrix       the row addresses lanes hand to ldmatrix .x1/.x2/.x4 (.trans)
// Shared layouts (where element (m, n) lives):
//   row_major / column_major, padded (non-linear), toggle_grid (the workbench),
//   cute_swizzle (Swizzle<B,M,S> o shape:stride), tma_swizzle (32B/64B/128B),
//   triton_swizzled (SwizzledSharedLayout(vec, perPhase, maxPhase, order)).
//
// Bit pictures, offsets drawn high bit first:
//   Swizzle<3,2,3>:  0b...YYY ZZZ xx  ->  ZZZ ^= YYY   (M=2 low bits kept, B=3, S=3)
//   toggle grid:     offset = m*N + (n ^ mask(m)),  mask(m) = XOR of C_j over set bits j of m
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "swz/layout/layout.h"
#include "swz/layout/shared.h"

namespace swz {

// -- distributed ------------------------------------------------------------
LinearLayout blocked(const std::vector<std::int64_t>& size_per_thread, const std::vector<std::int64_t>& threads_per_warp,
                     const std::vector<std::int64_t>& warps_per_cta, const std::vector<std::int64_t>& order,
                     const std::vector<std::int64_t>& shape);

// Per thread "take element (r, t)": identity-like layouts for hand-written accesses.
// lane bits / register bits map to the given coordinate vectors (as flat out bits).
LinearLayout distributed(const std::vector<std::int64_t>& shape, const std::vector<Coords>& reg,
                         const std::vector<Coords>& lane, const std::vector<Coords>& warp = {});

enum class MmaOperand { A, B, C };
// m16n8k16 fragments tiled over `shape` (A: MxK, B: KxN, C: MxN) and warps (warps_per_cta per dim).
LinearLayout mma_m16n8k16(MmaOperand operand, const std::vector<std::int64_t>& shape,
                          const std::vector<std::int64_t>& warps_per_cta = {1, 1});

// ldmatrix: the 16-byte rows lanes address (register bits = the row's 8 b16 elements,
// then further instructions; lane bits = rows; matrices x1/x2/x4). `trans` only
// changes who receives which element, not the addresses: the tile here is the
// stored one, rows along dim0 and the contiguous 8 elements along dim1.
struct LdMatrix {
  LinearLayout addresses;  // access layout for the bank simulator
  int matrices = 4;        // .x1 / .x2 / .x4
  bool trans = false;
};
LdMatrix ldmatrix(int matrices, bool trans, const std::vector<std::int64_t>& shape,
                  const std::vector<std::int64_t>& warps_per_cta = {1, 1});

// -- shared -----------------------------------------------------------------
SharedLayout row_major(const std::vector<std::int64_t>& shape);
SharedLayout column_major(const std::vector<std::int64_t>& shape);
SharedLayout padded(const std::vector<std::int64_t>& shape, std::int64_t pad);  // 2-D: offset = m*(N+pad) + n
SharedLayout rotated(const std::vector<std::int64_t>& shape);                  // 2-D: offset = m*N + (n + m) mod N

// masks[j] = C_j, the column mask folded in by row bit j (missing = 0). Checked: each
// mask fits the column count.
SharedLayout toggle_grid(const std::vector<std::int64_t>& shape, const std::vector<std::uint32_t>& masks);

// CuTe Swizzle<B,M,S>: o ^ ((o & yyy) >> S), yyy = ((1<<B)-1) << (M + max(0,S)); S < 0 shifts left.
std::uint64_t cute_swizzle_apply(int b, int m, int s, std::uint64_t offset);
// Which Swizzle<B,M,S> there are, said here alone (cute_swizzle(), lesson exercises, facts and
// quizzes all ask these):
//   B in 0..16, M in 0..24, S in -24..24   each parameter within its limits, and
//   |S| >= B                               the B source bits (YYY) lie clear of the B bits they change (ZZZ).
// Whether B, M and S each lie within their limits (|S| >= B aside: a range of them may span both).
bool cute_swizzle_within_limits(int b, int m, int s);
// Those limits in words: "B 0..16, M 0..24, S -24..24".
std::string cute_swizzle_limits_text();
// Why Swizzle<B,M,S> is none, naming it ("Swizzle<3,2,2>: |S| must be at least B, ..."); none when it is one.
std::optional<std::string> cute_swizzle_fault(int b, int m, int s);
// Throws swz::Error with cute_swizzle_fault's message.
void check_cute_swizzle(int b, int m, int s);

// A CuTe shape:stride layout, each output dim a list of (size, stride) sub-modes,
// first sub-mode fastest: ((8,2),(4,4)):((4,32),(1,64)) -> {{(8,4),(2,32)}, {(4,1),(4,64)}}.
struct CuteMode { std::int64_t size, stride; };
struct CuteLayout {
  std::vector<std::vector<CuteMode>> dims;
  std::vector<std::int64_t> shape() const;
  std::uint64_t offset(const Coords& c) const;
  std::string to_string() const;  // "(8,8):(1,8)"
};
enum class SwizzleUnits { Elements, Bytes };
SharedLayout cute_swizzle(int b, int m, int s, const CuteLayout& layout, SwizzleUnits units, int element_bits);
SharedLayout cute_plain(const CuteLayout& layout);

// What a TMA swizzle mode requires and does (CUDA's cuTensorMapEncodeTiled), kept in one
// place: tma_swizzle() checks its tiles against it and lessons quote it.
struct TmaSwizzleMode {
  int swizzle_bytes = 0;         // 32, 64 or 128: the width one row of the pattern spans; 0 for NONE
  const char* driver_name = "";  // the CUtensorMapSwizzle value, CU_TENSOR_MAP_SWIZZLE_128B
  int repeat_bytes = 0;          // the pattern repeats after this many bytes (8 rows of the width); 0 for NONE
  int max_inner_box_bytes = 0;   // the box's inner dimension may be at most the swizzle width; 0 (no such limit) for NONE
  int shared_alignment = 0;      // bytes; the copy refuses a less aligned shared buffer
  int global_alignment = 0;      // bytes; the tensor's global address
};
// Throws swz::Error for a width other than 0 (NONE), 32, 64 or 128.
const TmaSwizzleMode& tma_swizzle_mode(int swizzle_bytes);

// TMA swizzle on absolute byte addresses in 16-byte chunks (128B = Swizzle<3,4,3> on bytes,
// repeats every 1024 B; 64B = <2,4,3>, 512 B; 32B = <1,4,3>, 256 B). The tile is row-major,
// `base_address` the buffer's shared-memory address (TMA needs 128-byte alignment).
SharedLayout tma_swizzle(int swizzle_bytes, const std::vector<std::int64_t>& shape, int element_bits,
                         std::uint64_t base_address = 0);
// seed 002's relative formula: byte (y, x-chunk) of a buffer at `base_address` goes to chunk ((y + off) % R) ^ x.
std::uint64_t tma_relative_chunk(int swizzle_bytes, std::uint64_t base_address, std::uint64_t row128, std::uint64_t chunk);

// Triton SwizzledSharedLayout(vec, perPhase, maxPhase, order) on a 2-D tile.
SharedLayout triton_swizzled(int vec, int per_phase, int max_phase, const std::vector<std::int64_t>& order,
                             const std::vector<std::int64_t>& shape);

}  // namespace swz
