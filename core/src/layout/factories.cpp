#include "swz/layout/factories.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <numeric>

#include <fmt/format.h>

#include "swz/error.h"

namespace swz {

namespace {

int log2_exact(std::int64_t v, const char* what) {
  if (v <= 0 || !std::has_single_bit(static_cast<std::uint64_t>(v))) fail("{} is {}: it must be a power of two", what, v);
  return std::countr_zero(static_cast<std::uint64_t>(v));
}

// Flattened unit vector along dim d scaled by `value` (a power of two).
BitVec along(const std::vector<OutDim>& outs, std::size_t d, std::int64_t value) {
  int off = 0;
  for (std::size_t i = 0; i < d; ++i) off += outs[i].log2_size;
  return static_cast<BitVec>(value) << off;
}

void check_order(const std::vector<std::int64_t>& order, std::size_t rank) {
  if (order.size() != rank) fail("order has {} entries for a rank-{} tensor", order.size(), rank);
  std::vector<std::int64_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < rank; ++i)
    if (sorted[i] != static_cast<std::int64_t>(i)) fail("order must be a permutation of 0..{}", rank - 1);
}

}  // namespace

LinearLayout distributed(const std::vector<std::int64_t>& shape, const std::vector<Coords>& reg,
                         const std::vector<Coords>& lane, const std::vector<Coords>& warp) {
  const auto outs = LinearLayout::out_dims_for_shape(shape);
  return LinearLayout::from_coordinates({{"register", reg}, {"lane", lane}, {"warp", warp}, {"block", {}}}, outs);
}

LinearLayout blocked(const std::vector<std::int64_t>& spt, const std::vector<std::int64_t>& tpw,
                     const std::vector<std::int64_t>& wpc, const std::vector<std::int64_t>& order,
                     const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  if (spt.size() != rank || tpw.size() != rank || wpc.size() != rank)
    fail("blocked layout: sizePerThread, threadsPerWarp and warpsPerCTA need {} entries each", rank);
  check_order(order, rank);
  const auto outs = LinearLayout::out_dims_for_shape(shape);
  // Build in a "wide" space: each dim gets enough bits for max(shape, covered).
  std::vector<std::int64_t> covered(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    log2_exact(spt[d], "sizePerThread entry");
    log2_exact(tpw[d], "threadsPerWarp entry");
    log2_exact(wpc[d], "warpsPerCTA entry");
    covered[d] = spt[d] * tpw[d] * wpc[d];
  }
  std::vector<OutDim> wide = outs;
  for (std::size_t d = 0; d < rank; ++d)
    wide[d].log2_size = std::max(outs[d].log2_size, std::countr_zero(static_cast<std::uint64_t>(covered[d])));
  InDim reg{"register", {}}, lane{"lane", {}}, warp{"warp", {}};
  std::vector<std::int64_t> step(rank, 1);
  auto add = [&](InDim& in, const std::vector<std::int64_t>& count) {
    for (std::int64_t o : order) {
      const auto d = static_cast<std::size_t>(o);
      for (std::int64_t k = 1; k < count[d]; k *= 2) in.bases.push_back(along(wide, d, step[d] * k));
      step[d] *= count[d];
    }
  };
  add(reg, spt);
  add(lane, tpw);
  add(warp, wpc);
  // Repeat registers over what the CTA does not cover, fastest dim first.
  for (std::int64_t o : order) {
    const auto d = static_cast<std::size_t>(o);
    for (std::int64_t k = step[d]; k < shape[d]; k *= 2) reg.bases.push_back(along(wide, d, k));
  }
  std::vector<InDim> ins{reg, lane, warp};
  // Narrow back to the real shape: bases past a dim's size become zero (broadcast),
  // as Triton's ensureLayoutNotLargerThan does.
  for (auto& in : ins)
    for (auto& b : in.bases) {
      BitVec nb = 0;
      int wo = 0, no = 0;
      for (std::size_t d = 0; d < rank; ++d) {
        nb |= ((b >> wo) & low_bits(outs[d].log2_size)) << no;
        wo += wide[d].log2_size;
        no += outs[d].log2_size;
      }
      b = nb;
    }
  ins.push_back({"block", {}});
  return LinearLayout(std::move(ins), outs);
}

LinearLayout mma_m16n8k16(MmaOperand operand, const std::vector<std::int64_t>& shape,
                          const std::vector<std::int64_t>& wpc) {
  if (shape.size() != 2) fail("mma fragments are 2-D; got a rank-{} shape", shape.size());
  if (wpc.size() != 2) fail("warpsPerCTA for mma needs 2 entries");
  const auto outs = LinearLayout::out_dims_for_shape(shape);
  const int wm = log2_exact(wpc[0], "warpsPerCTA[0]"), wn = log2_exact(wpc[1], "warpsPerCTA[1]");
  // One warp's fragment: (dim0, dim1) per register and lane bit.
  std::vector<std::pair<std::int64_t, std::int64_t>> reg, lane;
  std::int64_t tile0 = 16, tile1 = 8;
  switch (operand) {
    case MmaOperand::A:  // 16x16 (m x k): a0..a7
      reg = {{0, 1}, {8, 0}, {0, 8}};
      lane = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
      tile1 = 16;
      break;
    case MmaOperand::B:  // 16x8 (k x n): b0..b3
      reg = {{1, 0}, {8, 0}};
      lane = {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}};
      break;
    case MmaOperand::C:  // 16x8 (m x n): c0..c3
      reg = {{0, 1}, {8, 0}};
      lane = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
      break;
  }
  if (shape[0] < tile0 || shape[1] < tile1)
    fail("mma m16n8k16 tile needs at least {}x{}; shape is {}x{}", tile0, tile1, shape[0], shape[1]);
  std::vector<Coords> r, l, w;
  for (auto [a, b] : reg) r.push_back({a, b});
  for (auto [a, b] : lane) l.push_back({a, b});
  // Warps: dim1 (n) bits first, then dim0 (m); an operand that does not span a dim broadcasts.
  std::int64_t rep0 = tile0, rep1 = tile1;
  for (int i = 0; i < wn; ++i) {
    if (operand == MmaOperand::A) w.push_back({0, 0});
    else { if (rep1 >= shape[1]) fail("warpsPerCTA[1] = {} does not fit dim1 = {}", wpc[1], shape[1]); w.push_back({0, rep1}); rep1 *= 2; }
  }
  for (int i = 0; i < wm; ++i) {
    if (operand == MmaOperand::B) w.push_back({0, 0});
    else { if (rep0 >= shape[0]) fail("warpsPerCTA[0] = {} does not fit dim0 = {}", wpc[0], shape[0]); w.push_back({rep0, 0}); rep0 *= 2; }
  }
  for (std::int64_t k = rep1; k < shape[1]; k *= 2) r.push_back({0, k});
  for (std::int64_t k = rep0; k < shape[0]; k *= 2) r.push_back({k, 0});
  return LinearLayout::from_coordinates({{"register", r}, {"lane", l}, {"warp", w}, {"block", {}}}, outs);
}

LdMatrix ldmatrix(int matrices, bool trans, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& wpc) {
  if (matrices != 1 && matrices != 2 && matrices != 4) fail("ldmatrix loads 1, 2 or 4 matrices, not {}", matrices);
  if (shape.size() != 2) fail("ldmatrix tiles are 2-D");
  if (wpc.size() != 2) fail("warpsPerCTA for ldmatrix needs 2 entries");
  const std::int64_t rows = 8 * (matrices >= 2 ? 2 : 1), cols = 8 * (matrices == 4 ? 2 : 1);
  if (shape[0] < rows || shape[1] < cols)
    fail("ldmatrix .x{} covers {}x{}; the tile is {}x{}", matrices, rows, cols, shape[0], shape[1]);
  std::vector<Coords> r{{0, 1}, {0, 2}, {0, 4}};
  std::vector<Coords> l{{1, 0}, {2, 0}, {4, 0}};
  l.push_back(matrices >= 2 ? Coords{8, 0} : Coords{0, 0});
  l.push_back(matrices == 4 ? Coords{0, 8} : Coords{0, 0});
  std::vector<Coords> w;
  std::int64_t rep0 = rows, rep1 = cols;
  for (int i = 0; i < log2_exact(wpc[0], "warpsPerCTA[0]"); ++i) {
    if (rep0 >= shape[0]) fail("warpsPerCTA[0] does not fit the tile");
    w.push_back({rep0, 0}); rep0 *= 2;
  }
  for (int i = 0; i < log2_exact(wpc[1], "warpsPerCTA[1]"); ++i) {
    if (rep1 >= shape[1]) fail("warpsPerCTA[1] does not fit the tile");
    w.push_back({0, rep1}); rep1 *= 2;
  }
  for (std::int64_t k = rep1; k < shape[1]; k *= 2) r.push_back({0, k});
  for (std::int64_t k = rep0; k < shape[0]; k *= 2) r.push_back({k, 0});
  const auto outs = LinearLayout::out_dims_for_shape(shape);
  return {LinearLayout::from_coordinates({{"register", r}, {"lane", l}, {"warp", w}, {"block", {}}}, outs), matrices, trans};
}

namespace {
// A dense power-of-two tile stored dimension after dimension (`last_first`: the last dim
// lowest, row-major), built from its bases: no element is enumerated.
SharedLayout dense_layout(const std::vector<std::int64_t>& shape, bool last_first, const char* name) {
  const auto outs = LinearLayout::out_dims_for_shape(shape);
  std::vector<int> start(outs.size(), 0);
  for (std::size_t d = 1; d < outs.size(); ++d) start[d] = start[d - 1] + outs[d - 1].log2_size;
  std::vector<BitVec> bases;
  for (std::size_t k = 0; k < outs.size(); ++k) {
    const std::size_t d = last_first ? outs.size() - 1 - k : k;
    for (int i = 0; i < outs[d].log2_size; ++i) bases.push_back(BitVec{1} << (start[d] + i));
  }
  return SharedLayout::from_linear(LinearLayout({InDim{"offset", bases}}, outs), name);
}
}  // namespace

SharedLayout row_major(const std::vector<std::int64_t>& shape) { return dense_layout(shape, true, "row-major"); }

SharedLayout column_major(const std::vector<std::int64_t>& shape) { return dense_layout(shape, false, "column-major"); }

SharedLayout padded(const std::vector<std::int64_t>& shape, std::int64_t pad) {
  if (shape.size() != 2) fail("padding applies to 2-D tiles");
  if (pad < 0 || pad > 1024) fail("padding of {} elements is out of range 0..1024", pad);
  const auto n = static_cast<std::uint64_t>(shape[1] + pad);
  return SharedLayout::from_function(shape, [&](const Coords& c) {
    return static_cast<std::uint64_t>(c[0]) * n + static_cast<std::uint64_t>(c[1]);
  }, fmt::format("padded rows (stride {})", n),
  pad == 0 ? std::string{} : fmt::format("padding: offset = m*{} + n adds with carries; it is not linear over F2", n));
}

SharedLayout rotated(const std::vector<std::int64_t>& shape) {
  if (shape.size() != 2) fail("rotation applies to 2-D tiles");
  const auto n = static_cast<std::uint64_t>(shape[1]);
  return SharedLayout::from_function(shape, [&](const Coords& c) {
    const auto m = static_cast<std::uint64_t>(c[0]);
    return m * n + (static_cast<std::uint64_t>(c[1]) + m) % n;
  }, "rotated rows: offset = m*N + (n + m) mod N", "rotation: (n + m) mod N adds with carries; it is not linear over F2");
}

SharedLayout toggle_grid(const std::vector<std::int64_t>& shape, const std::vector<std::uint32_t>& masks) {
  if (shape.size() != 2) fail("the toggle grid applies to 2-D tiles");
  const auto outs = LinearLayout::out_dims_for_shape(shape);
  const int row_bits = outs[0].log2_size;
  if (static_cast<int>(masks.size()) > row_bits)
    fail("{} masks given; the tile has {} row bits", masks.size(), row_bits);
  for (std::size_t j = 0; j < masks.size(); ++j)
    if (masks[j] >= static_cast<std::uint64_t>(shape[1]))
      fail("mask {} (row bit {}) is wider than the {} columns", masks[j], j, shape[1]);
  std::string name = "row-major";
  if (std::any_of(masks.begin(), masks.end(), [](std::uint32_t m) { return m != 0; })) {
    name += " with XOR masks ";
    for (std::size_t j = 0; j < masks.size(); ++j) name += fmt::format("{}{}", j ? "," : "", masks[j]);
  }
  // coords -> offset by its columns, flat coordinate bits (row bits m_j first, then column bits n_k):
  //   m_j -> offset 2^(col_bits + j) ^ masks[j]      n_k -> offset 2^k
  // then inverted (a triangular matrix: always invertible) into Triton's offset -> coords.
  const int col_bits = outs[1].log2_size;
  std::vector<BitVec> address;
  for (int j = 0; j < row_bits; ++j)
    address.push_back((BitVec{1} << (col_bits + j)) ^ (static_cast<std::size_t>(j) < masks.size() ? masks[static_cast<std::size_t>(j)] : 0));
  for (int k = 0; k < col_bits; ++k) address.push_back(BitVec{1} << k);
  const auto inverse = BitMatrix::from_columns(row_bits + col_bits, address).inverse();
  return SharedLayout::from_linear(LinearLayout({InDim{"offset", inverse->columns()}}, outs), name);
}

namespace {
// The limits of Swizzle<B,M,S>'s parameters (factories.h): B 0..16, M 0..24, S -24..24.
constexpr int kCuteSwizzleMaxB = 16, kCuteSwizzleMaxM = 24, kCuteSwizzleMaxShift = 24;
}  // namespace

bool cute_swizzle_within_limits(int b, int m, int s) {
  return b >= 0 && b <= kCuteSwizzleMaxB && m >= 0 && m <= kCuteSwizzleMaxM && s >= -kCuteSwizzleMaxShift &&
         s <= kCuteSwizzleMaxShift;
}

std::string cute_swizzle_limits_text() {
  return fmt::format("B 0..{}, M 0..{}, S -{}..{}", kCuteSwizzleMaxB, kCuteSwizzleMaxM, kCuteSwizzleMaxShift,
                     kCuteSwizzleMaxShift);
}

std::optional<std::string> cute_swizzle_fault(int b, int m, int s) {
  if (!cute_swizzle_within_limits(b, m, s))
    return fmt::format("Swizzle<{},{},{}> is out of range ({})", b, m, s, cute_swizzle_limits_text());
  if (std::abs(s) < b)
    return fmt::format("Swizzle<{},{},{}>: |S| must be at least B, or the source bits would overlap the bits they change", b,
                       m, s);
  return std::nullopt;
}

void check_cute_swizzle(int b, int m, int s) {
  if (const std::optional<std::string> fault = cute_swizzle_fault(b, m, s)) fail("{}", *fault);
}

std::uint64_t cute_swizzle_apply(int b, int m, int s, std::uint64_t o) {
  const std::uint64_t yyy = ((std::uint64_t{1} << b) - 1) << (m + std::max(0, s));
  return s >= 0 ? o ^ ((o & yyy) >> s) : o ^ ((o & yyy) << -s);
}

std::vector<std::int64_t> CuteLayout::shape() const {
  std::vector<std::int64_t> out;
  for (const auto& modes : dims) {
    std::int64_t n = 1;
    for (const auto& md : modes) n *= md.size;
    out.push_back(n);
  }
  return out;
}

std::uint64_t CuteLayout::offset(const Coords& c) const {
  std::uint64_t o = 0;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    std::int64_t rest = c[d];
    for (const auto& md : dims[d]) {
      o += static_cast<std::uint64_t>((rest % md.size) * md.stride);
      rest /= md.size;
    }
  }
  return o;
}

std::string CuteLayout::to_string() const {
  auto mode = [](const std::vector<CuteMode>& ms, bool stride) {
    if (ms.size() == 1) return std::to_string(stride ? ms[0].stride : ms[0].size);
    std::string s = "(";
    for (std::size_t i = 0; i < ms.size(); ++i) s += (i ? "," : "") + std::to_string(stride ? ms[i].stride : ms[i].size);
    return s + ")";
  };
  std::string a = "(", b = "(";
  for (std::size_t d = 0; d < dims.size(); ++d) {
    a += (d ? "," : "") + mode(dims[d], false);
    b += (d ? "," : "") + mode(dims[d], true);
  }
  return a + "):" + b + ")";
}

namespace {
void check_cute_layout(const CuteLayout& layout) {
  if (layout.dims.empty()) fail("CuTe layout has no modes");
  for (const auto& modes : layout.dims)
    for (const auto& md : modes) {
      if (md.size <= 0) fail("CuTe mode size {} must be positive", md.size);
      if (md.stride < 0) fail("CuTe stride {} must not be negative", md.stride);
    }
}
}  // namespace

SharedLayout cute_plain(const CuteLayout& layout) {
  check_cute_layout(layout);
  return SharedLayout::from_function(layout.shape(), [&](const Coords& c) { return layout.offset(c); }, layout.to_string(),
                                     "the strides are not powers of two forming a permutation, so the map is not linear over F2");
}

SharedLayout cute_swizzle(int b, int m, int s, const CuteLayout& layout, SwizzleUnits units, int element_bits) {
  check_cute_swizzle(b, m, s);
  check_cute_layout(layout);
  const std::string name = fmt::format("Swizzle<{},{},{}> o {}{}", b, m, s, layout.to_string(),
                                       units == SwizzleUnits::Bytes ? " (byte addresses)" : "");
  if (units == SwizzleUnits::Elements)
    return SharedLayout::from_function(layout.shape(), [&](const Coords& c) { return cute_swizzle_apply(b, m, s, layout.offset(c)); }, name);
  if (element_bits < 8 || element_bits % 8) fail("a swizzle on byte addresses needs whole-byte elements, not {} bits", element_bits);
  const std::uint64_t eb = static_cast<std::uint64_t>(element_bits / 8);
  const int eb_log = std::countr_zero(eb);
  // Source and target bits both lie at or above bit M (targets at M for S > 0, at M + |S| for S < 0).
  if (m < eb_log) fail("Swizzle<{},{},{}> on bytes would split {}-byte elements", b, m, s, eb);
  return SharedLayout::from_function(layout.shape(), [&](const Coords& c) { return cute_swizzle_apply(b, m, s, layout.offset(c) * eb) / eb; }, name);
}

std::uint64_t tma_relative_chunk(int swizzle_bytes, std::uint64_t base, std::uint64_t row128, std::uint64_t chunk) {
  const std::uint64_t r = static_cast<std::uint64_t>(swizzle_bytes / 16);
  const std::uint64_t off = (base / 128) % r;
  return ((row128 + off) % r) ^ chunk;
}

const TmaSwizzleMode& tma_swizzle_mode(int swizzle_bytes) {
  // A mode XORs the 16-byte chunk index with log2(width / 16) bits of the 128-byte line
  // number, so its pattern spans 8 lines of its width; all three want 128-byte alignment.
  auto mode = [](int width, const char* name) { return TmaSwizzleMode{width, name, 8 * width, width, 128, 128}; };
  // NONE (the default) copies in global order: no pattern, no box limit of its own, but the global
  // tensor need only be 16-byte aligned (CUDA's table, seed 002).
  static const TmaSwizzleMode modes[] = {{0, "CU_TENSOR_MAP_SWIZZLE_NONE", 0, 0, 128, 16},
                                         mode(32, "CU_TENSOR_MAP_SWIZZLE_32B"), mode(64, "CU_TENSOR_MAP_SWIZZLE_64B"),
                                         mode(128, "CU_TENSOR_MAP_SWIZZLE_128B")};
  for (const TmaSwizzleMode& m : modes)
    if (m.swizzle_bytes == swizzle_bytes) return m;
  fail("TMA swizzle modes are NONE (0), 32B, 64B and 128B, not {}B", swizzle_bytes);
}

SharedLayout tma_swizzle(int swizzle_bytes, const std::vector<std::int64_t>& shape, int element_bits, std::uint64_t base) {
  if (swizzle_bytes == 0) fail("TMA swizzle modes are 32B, 64B and 128B; NONE does not swizzle");
  const TmaSwizzleMode& mode = tma_swizzle_mode(swizzle_bytes);
  if (shape.size() != 2) fail("TMA tiles are 2-D here");
  if (element_bits < 8 || element_bits % 8) fail("TMA swizzle needs whole-byte elements");
  if (base % static_cast<std::uint64_t>(mode.shared_alignment))
    fail("TMA needs {}-byte aligned shared memory; base 0x{:x} is not", mode.shared_alignment, base);
  const std::uint64_t eb = static_cast<std::uint64_t>(element_bits / 8);
  const std::uint64_t row_bytes = static_cast<std::uint64_t>(shape[1]) * eb;
  if (row_bytes != static_cast<std::uint64_t>(swizzle_bytes))
    fail("TMA {}B swizzle expects {}-byte rows (the box's inner dimension); these rows are {} bytes", swizzle_bytes, swizzle_bytes, row_bytes);
  const std::uint64_t rmask = static_cast<std::uint64_t>(swizzle_bytes / 16 - 1);
  const std::uint64_t repeat = static_cast<std::uint64_t>(mode.repeat_bytes);
  std::string name = fmt::format("TMA {}B swizzle", swizzle_bytes);
  std::string reason;
  if (base % repeat) {
    name += fmt::format(" (base 0x{:x}, pattern shifted by {})", base, (base / 128) % (rmask + 1));
    reason = fmt::format("base address 0x{:x} is not aligned to the {}-byte repeat: the pattern adds the base's row bits with carries", base, repeat);
  }
  return SharedLayout::from_function(shape, [=](const Coords& c) {
    const std::uint64_t a = base + (static_cast<std::uint64_t>(c[0]) * static_cast<std::uint64_t>(shape[1]) + static_cast<std::uint64_t>(c[1])) * eb;
    const std::uint64_t swizzled = a ^ (((a >> 7) & rmask) << 4);
    return (swizzled - base) / eb;
  }, name, reason);
}

SharedLayout triton_swizzled(int vec, int per_phase, int max_phase, const std::vector<std::int64_t>& order,
                             const std::vector<std::int64_t>& shape) {
  if (shape.size() != 2) fail("SwizzledSharedLayout is supported for 2-D tiles");
  check_order(order, 2);
  log2_exact(vec, "vec");
  log2_exact(per_phase, "perPhase");
  log2_exact(max_phase, "maxPhase");
  const auto inner = static_cast<std::size_t>(order[0]), outer = static_cast<std::size_t>(order[1]);
  const std::uint64_t cols = static_cast<std::uint64_t>(shape[inner]);
  return SharedLayout::from_function(shape, [=](const Coords& c) {
    const auto row = static_cast<std::uint64_t>(c[outer]), col = static_cast<std::uint64_t>(c[inner]);
    const std::uint64_t phase = (row / static_cast<std::uint64_t>(per_phase)) % static_cast<std::uint64_t>(max_phase);
    const std::uint64_t v = static_cast<std::uint64_t>(vec);
    const std::uint64_t swizzled = ((((col / v) ^ phase) * v) % cols) + col % v;
    return row * cols + swizzled;
  }, fmt::format("SwizzledSharedLayout(vec={}, perPhase={}, maxPhase={}, order=[{},{}])", vec, per_phase, max_phase, order[0], order[1]));
}

}  // namespace swz
