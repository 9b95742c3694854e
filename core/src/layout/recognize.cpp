#include "swz/layout/recognize.h"

#include <fmt/format.h>

#include <bit>

#include "../int_bits.h"
#include "swz/layout/factories.h"
#include "swz/layout/sm100.h"

namespace swz {

namespace {

using int_bits::ilog2;

// Offsets of the unit coordinate vectors: for a linear layout they fix every offset.
std::vector<std::uint64_t> unit_offsets(const SharedLayout& s) {
  std::vector<std::uint64_t> out;
  for (int i = 0; i < s.coord_bits(); ++i) out.push_back(s.offset(BitVec{1} << i));
  return out;
}

CuteLayout major_layout(const std::vector<std::int64_t>& shape, bool row_major) {
  CuteLayout l;
  l.dims.resize(shape.size());
  std::int64_t stride = 1;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const std::size_t d = row_major ? shape.size() - 1 - k : k;
    l.dims[d] = {{shape[d], stride}};
    stride *= shape[d];
  }
  return l;
}

void match_cute(const SharedLayout& s, int ebits, std::vector<LayoutMatch>& out) {
  const auto f = unit_offsets(s);
  const int bits = s.coord_bits();
  for (bool row : {true, false}) {
    if (!row && s.shape().size() < 2) continue;
    const CuteLayout base = major_layout(s.shape(), row);
    std::vector<std::uint64_t> b;
    for (int i = 0; i < bits; ++i) b.push_back(base.offset(s.coords().unflatten(BitVec{1} << i)));
    bool found = false;
    for (int sb = 1; sb <= bits / 2 && !found; ++sb)
      for (int m = 0; m + sb <= bits && !found; ++m)
        for (int sh = sb; m + sh + sb <= bits && !found; ++sh) {
          bool same = true;
          for (int i = 0; i < bits && same; ++i)
            same = cute_swizzle_apply(sb, m, sh, b[static_cast<std::size_t>(i)]) == f[static_cast<std::size_t>(i)];
          if (!same) continue;
          found = true;
          LayoutMatch lm{"cute", fmt::format("CuTe Swizzle<{},{},{}> o {} on element offsets", sb, m, sh, base.to_string()), {}};
          lm.params = {{"B", sb}, {"M", m}, {"S", sh}, {"row_major", row ? 1 : 0}, {"bytes", 0}};
          if (ebits >= 8 && ebits % 8 == 0)
            lm.name += fmt::format(" (= Swizzle<{},{},{}> on byte addresses)", sb, m + ilog2(ebits / 8), sh);
          out.push_back(std::move(lm));
        }
  }
}

void match_tma(const SharedLayout& s, int ebits, std::vector<LayoutMatch>& out) {
  if (s.shape().size() != 2 || ebits < 8 || ebits % 8) return;
  for (const TmaMode& mode : tma_modes()) {
    if (mode.span_bytes == 0 || s.shape()[1] * (ebits / 8) != mode.span_bytes) continue;
    if (mode.swizzle.flip_8b ? ebits > 64 : ebits / 8 > (1 << mode.swizzle.m)) continue;
    if (!(s == tma_mode_layout(mode, s.shape(), ebits))) continue;
    const ByteSwizzle& z = mode.swizzle;
    const std::string tail(std::string_view(mode.driver_name).substr(std::string_view("CU_TENSOR_MAP_SWIZZLE_").size()));
    // The Hopper modes keep their names ("TMA 128B swizzle"); sm_100's name themselves.
    std::string name = mode.sm100_only ? fmt::format("TMA {} (sm_100; = Swizzle<{},{},{}>{} on byte addresses)", tail, z.b, z.m,
                                                     z.s, z.flip_8b ? " and bit 3 ^= bit 7" : "")
                                       : fmt::format("TMA {} swizzle (= Swizzle<{},4,3> on byte addresses)", tail, z.b);
    out.push_back({"tma", std::move(name), {{"swizzle_bytes", mode.span_bytes}, {"tma_mode", mode.value}}});
  }
}

// tcgen05 descriptor modes of a K-major ([MN, K], K contiguous) or MN-major tile, with CuTe's atom.
void match_tcgen05(const SharedLayout& s, int ebits, std::vector<LayoutMatch>& out) {
  if (s.shape().size() != 2 || ebits < 8 || ebits % 8) return;
  for (const UmmaMode& mode : umma_modes()) {
    if (mode.layout_type == 0 || ebits / 8 > (1 << mode.swizzle.m)) continue;  // none is row- / column-major
    for (Major major : {Major::K, Major::MN}) {
      const std::int64_t along = s.shape()[major == Major::K ? 1 : 0];
      if (along * (ebits / 8) != mode.span_bytes || !(s == umma_layout(mode, major, s.shape(), ebits))) continue;
      const std::string atom = cute_atom_name(CuteAtom{&mode, major, ebits, {}});
      out.push_back({"tcgen05",
                     fmt::format("tcgen05 {} ({}-major, UMMA::LayoutType {}; Swizzle<{},{},{}> on byte addresses{}{})", mode.name,
                                 major_name(major), mode.layout_type, mode.swizzle.b, mode.swizzle.m, mode.swizzle.s,
                                 atom.empty() ? "" : "; CuTe ", atom),
                     {{"layout_type", mode.layout_type}, {"mn_major", major == Major::MN ? 1 : 0}}});
    }
  }
}

void match_triton_swizzled(const SharedLayout& s, std::vector<LayoutMatch>& out) {
  if (s.shape().size() != 2) return;
  const auto f = unit_offsets(s);
  for (const std::vector<std::int64_t>& order : {std::vector<std::int64_t>{1, 0}, std::vector<std::int64_t>{0, 1}}) {
    const auto inner = static_cast<std::size_t>(order[0]), outer = static_cast<std::size_t>(order[1]);
    const std::uint64_t cols = static_cast<std::uint64_t>(s.shape()[inner]), rows = static_cast<std::uint64_t>(s.shape()[outer]);
    // The factory's formula on one element; it is linear in the ranges searched below.
    auto offset = [&](std::uint64_t row, std::uint64_t col, std::uint64_t vec, std::uint64_t per, std::uint64_t max) {
      const std::uint64_t phase = (row / per) % max;
      return row * cols + ((((col / vec) ^ phase) * vec) % cols) + col % vec;
    };
    for (std::uint64_t vec = 1; vec <= cols; vec *= 2)
      for (std::uint64_t per = 1; per <= rows; per *= 2)
        for (std::uint64_t max = 2; max * vec <= cols && max * per <= rows; max *= 2) {
          bool same = true;
          for (int i = 0; i < s.coord_bits() && same; ++i) {
            const Coords c = s.coords().unflatten(BitVec{1} << i);
            same = offset(static_cast<std::uint64_t>(c[outer]), static_cast<std::uint64_t>(c[inner]), vec, per, max) ==
                   f[static_cast<std::size_t>(i)];
          }
          if (!same) continue;
          const auto v = static_cast<int>(vec), p = static_cast<int>(per), m = static_cast<int>(max);
          if (!(s == triton_swizzled(v, p, m, order, s.shape()))) continue;
          out.push_back({"triton_swizzled",
                         fmt::format("Triton SwizzledSharedLayout(vec={}, perPhase={}, maxPhase={}, order=[{}, {}])", v, p, m,
                                     order[0], order[1]),
                         {{"vec", v}, {"perPhase", p}, {"maxPhase", m}, {"order0", order[0]}, {"order1", order[1]}}});
        }
  }
}

// Triton's nvmmaSharedToLinearLayout for a 2-D tile: an 8-row core of
// swizzle-width rows, then the remaining rows, then the remaining column blocks.
std::optional<std::vector<Coords>> nvmma_bases(std::int64_t rows, std::int64_t cols, int swizzle, int ebits) {
  const std::int64_t tile_cols = std::int64_t{swizzle} * 8 / ebits;
  if (cols < tile_cols || rows < 8) return std::nullopt;
  const std::int64_t vec = 128 / ebits, per = 128 / swizzle, max = swizzle / 16;
  std::vector<Coords> b;
  for (std::int64_t c = 1; c < tile_cols; c *= 2) b.push_back({0, c});
  for (std::int64_t r = 1; r < 8; r *= 2) b.push_back({r, vec * ((r / per) % max)});
  for (std::int64_t r = 8; r < rows; r *= 2) b.push_back({r, 0});
  for (std::int64_t c = tile_cols; c < cols; c *= 2) b.push_back({0, c});
  return b;
}

void match_nvmma(const SharedLayout& s, int ebits, std::vector<LayoutMatch>& out) {
  if (s.shape().size() != 2 || ebits < 8 || !s.is_linear()) return;
  const auto& actual = s.linear().bases("offset");
  for (int swizzle : {32, 64, 128})
    for (bool transposed : {false, true}) {
      const std::int64_t rows = transposed ? s.shape()[1] : s.shape()[0], cols = transposed ? s.shape()[0] : s.shape()[1];
      auto b = nvmma_bases(rows, cols, swizzle, ebits);
      if (!b) continue;
      std::vector<BitVec> expected;
      for (auto& c : *b) {
        if (transposed) std::swap(c[0], c[1]);
        expected.push_back(s.coords().flatten(c));
      }
      if (expected != actual) continue;
      out.push_back({"nvmma",
                     fmt::format("Triton NVMMASharedLayout(swizzle_byte_width={}, element_bitwidth={}, transposed={})", swizzle,
                                 ebits, transposed ? "true" : "false"),
                     {{"swizzle_byte_width", swizzle}, {"element_bitwidth", ebits}, {"transposed", transposed ? 1 : 0}}});
    }
}

}  // namespace

std::vector<LayoutMatch> recognize(const SharedLayout& s, int element_bits) {
  std::vector<LayoutMatch> out;
  if (s.shape().empty()) return out;
  if (s == row_major(s.shape())) out.push_back({"row_major", "row-major", {}});
  if (s.shape().size() >= 2 && s == column_major(s.shape())) out.push_back({"column_major", "column-major", {}});
  if (!s.is_linear()) return out;
  match_cute(s, element_bits, out);
  match_tma(s, element_bits, out);
  match_tcgen05(s, element_bits, out);
  match_triton_swizzled(s, out);
  match_nvmma(s, element_bits, out);
  return out;
}

}  // namespace swz
