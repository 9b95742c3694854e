#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <functional>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/problem/problem.h"

namespace swz {

// [SECTION] Problem

SharedLayout Problem::layout_for_masks(const std::vector<std::uint32_t>& m) const {
  if (!grid) fail("preset '{}' has no toggle grid (its shared layout is not a row-major tile)", name);
  if (static_cast<int>(m.size()) > grid->row_bits) fail("{} masks given; the grid has {} row bits", m.size(), grid->row_bits);
  for (std::size_t j = 0; j < m.size(); ++j) {
    if (m[j] >> grid->col_bits)
      fail("mask {} (row bit {}) is wider than the {} columns", m[j], j, std::int64_t{1} << grid->col_bits);
  }
  return toggle_grid(shape, m);
}

void Problem::set_masks(const std::vector<std::uint32_t>& m) {
  shared = layout_for_masks(m);
  masks = m;
  masks.resize(static_cast<std::size_t>(grid->row_bits), 0);
}

void Problem::set_shared(SharedLayout layout) {
  if (layout.shape() != shape)
    fail("shared layout is {} but the problem's tensor is {}", fmt::join(layout.shape(), "x"), fmt::join(shape, "x"));
  shared = std::move(layout);
  masks.clear();
}

void Problem::apply_variant(const std::string& variant) {
  for (const auto& v : variants)
    if (v.name == variant) {
      if (v.masks)
        set_masks(*v.masks);
      else
        set_shared(*v.layout);
      return;
    }
  std::string known;
  for (const auto& v : variants) known += (known.empty() ? "" : ", ") + v.name;
  fail("preset '{}' has no layout '{}' (known: {})", name, variant, known);
}

GridSpec grid_for(const Problem& p) {
  if (p.shape.size() != 2) fail("the toggle grid needs a 2-D tile");
  GridSpec g;
  g.row_bits = std::countr_zero(static_cast<std::uint64_t>(p.shape[0]));
  g.col_bits = std::countr_zero(static_cast<std::uint64_t>(p.shape[1]));
  const SharedLayout rm = toggle_grid(p.shape, {});
  const int a = choose_vector(p.store, rm, p.element_bits, p.bank).elements;
  const int b = choose_vector(p.read, rm, p.element_bits, p.bank).elements;
  g.vec_bits = std::min(g.col_bits, std::countr_zero(static_cast<unsigned>(std::max(a, b))));
  return g;
}

std::vector<std::uint32_t> parse_masks(const std::string& text) {
  std::vector<std::uint32_t> out;
  if (text.empty()) return out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    std::uint32_t v = 0;
    const char* b = item.data();
    const char* e = item.data() + item.size();
    int base = 10;
    if (item.size() > 2 && item[0] == '0' && (item[1] == 'x' || item[1] == 'X')) {
      b += 2;
      base = 16;
    }
    auto [ptr, ec] = std::from_chars(b, e, v, base);
    if (item.empty() || ec != std::errc() || ptr != e) fail("mask list '{}': '{}' is not a non-negative integer", text, item);
    out.push_back(v);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  if (out.size() > 30) fail("mask list '{}' has {} entries; at most 30", text, out.size());
  return out;
}

void trim_masks(std::vector<std::uint32_t>& masks) {
  while (!masks.empty() && masks.back() == 0) masks.pop_back();
}

std::string format_masks(const std::vector<std::uint32_t>& masks) {
  std::string s;
  for (std::size_t i = 0; i < masks.size(); ++i) s += fmt::format("{}{}", i ? "," : "", masks[i]);
  return s;
}

// [SECTION] Presets

namespace {

Access load(LinearLayout l, int vec_bits = 0) { return Access{std::move(l), AccessKind::Load, 0, vec_bits}; }
Access store(LinearLayout l, int vec_bits = 0) { return Access{std::move(l), AccessKind::Store, 0, vec_bits}; }

// Grid problem scaffold: row-major tile, masks zero, the named mask variants.
Problem grid_problem(std::string name, std::string description, std::vector<std::int64_t> shape, int ebits, Access a, Access b,
                     std::vector<Variant> named, BankModel bank = {}) {
  Problem p;
  p.name = std::move(name);
  p.description = std::move(description);
  p.shape = std::move(shape);
  p.element_bits = ebits;
  p.bank = bank;
  p.store = std::move(a);
  p.read = std::move(b);
  p.grid = grid_for(p);
  p.variants.push_back({"unswizzled", std::vector<std::uint32_t>{}, std::nullopt});
  for (auto& v : named) p.variants.push_back(std::move(v));
  p.set_masks({});
  return p;
}

Variant masks(std::string name, std::vector<std::uint32_t> m) { return {std::move(name), std::move(m), std::nullopt}; }

Problem transpose16x32() {
  // Seed example: store A: step r, thread t writes (m=r, n=t); read B: thread t reads (t mod 16, 2r + t/16).
  const std::vector<std::int64_t> shape{16, 32};
  auto a = distributed(shape, {{1, 0}, {2, 0}, {4, 0}, {8, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}});
  auto b = distributed(shape, {{0, 2}, {0, 4}, {0, 8}, {0, 16}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}});
  // As in the seed, every instruction moves one 32-bit element per lane (the solver would widen the writes otherwise).
  Problem p = grid_problem("transpose16x32", "16x32 fp32 transpose through shared memory, one warp (the seed example)", shape, 32,
                           store(a, 32), load(b, 32),
                           {masks("xor-m", {1, 2, 4, 8}),
                            masks("xor-2m", {2, 4, 8, 16}),
                            {"padded", std::nullopt, padded(shape, 1)},
                            {"rotated", std::nullopt, rotated(shape)}});
  return p;
}

Problem toy8x8() {
  const std::vector<std::int64_t> shape{8, 8};
  auto a = distributed(shape, {{1, 0}, {2, 0}, {4, 0}}, {{0, 1}, {0, 2}, {0, 4}});  // thread t writes (r, t)
  auto b = distributed(shape, {{0, 1}, {0, 2}, {0, 4}}, {{1, 0}, {2, 0}, {4, 0}});  // thread t reads (t, r)
  BankModel toy{8, 4, 8};
  // Scalar accesses, one element per thread per cycle, as on the toy GPU.
  return grid_problem("toy8x8", "toy GPU: 8 banks, 8 threads, 8x8 transpose (swizzle x ^= row)", shape, 32, store(a, 32),
                      load(b, 32), {masks("xor-row", {1, 2, 4})}, toy);
}

Problem cute8x8() {
  const std::vector<std::int64_t> shape{8, 8};
  // Write down columns (lane t -> (t%8, t/8 + 4r)); read along rows (lanes 0-7 -> row r, lanes 8-31 repeat them).
  auto a = distributed(shape, {{0, 4}}, {{1, 0}, {2, 0}, {4, 0}, {0, 1}, {0, 2}});
  auto b = distributed(shape, {{1, 0}, {2, 0}, {4, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 0}, {0, 0}});
  const CuteLayout col_major{{{{8, 1}}, {{8, 8}}}};
  Problem p;
  p.name = "cute8x8";
  p.description = "8x8 fp32 column-major tile (8,8):(1,8) read along rows, with CuTe Swizzle<3,2,3>";
  p.shape = shape;
  p.element_bits = 32;
  p.store = store(a, 32);
  p.read = load(b, 32);  // one element per lane per row, as the tutorial counts
  p.variants = {{"unswizzled", std::nullopt, cute_plain(col_major)},
                {"swizzle323", std::nullopt, cute_swizzle(3, 2, 3, col_major, SwizzleUnits::Elements, 32)}};
  p.set_shared(*p.variants[0].layout);
  return p;
}

// A 128-bit row-major copy (the TMA / cp.async writer): lanes take 16-byte chunks along rows.
LinearLayout vector_copy(const std::vector<std::int64_t>& shape, int ebits, std::int64_t warps) {
  const std::int64_t v = 128 / ebits;
  const std::int64_t per_row = std::max<std::int64_t>(1, shape[1] / v);
  const std::int64_t tpw1 = std::min<std::int64_t>(32, per_row);
  return blocked({1, v}, {32 / tpw1, tpw1}, {warps, 1}, {1, 0}, shape);
}

Problem tma128() {
  const std::vector<std::int64_t> shape{64, 64};
  auto a = vector_copy(shape, 16, 1);
  auto b = ldmatrix(4, false, shape).addresses;
  Problem p =
      grid_problem("tma128_fp16", "64x64 fp16 tile: 128-bit row copies in, ldmatrix.x4 out; TMA 128B swizzle", shape, 16,
                   store(a), Access{b, AccessKind::Load, 4, 0},
                   {masks("tma-128B", {8, 16, 32}), {"tma-128B-base-0x80", std::nullopt, tma_swizzle(128, shape, 16, 0x80)}});
  return p;
}

Problem ldmatrix64() {
  const std::vector<std::int64_t> shape{64, 32};
  auto a = vector_copy(shape, 16, 1);
  auto b = ldmatrix(4, false, shape).addresses;
  return grid_problem("ldmatrix_a_fp16", "64x32 fp16 mma.sync A tile (64-byte rows) read by ldmatrix.x4; TMA 64B swizzle", shape,
                      16, store(a), Access{b, AccessKind::Load, 4, 0}, {masks("tma-64B", {0, 8, 16})});
}

Problem tma32() {
  // The 32B mode's widest box: 16 fp16 (32 bytes) per row, four rows to a 128-byte line.
  const std::vector<std::int64_t> shape{64, 16};
  auto a = vector_copy(shape, 16, 1);
  auto b = ldmatrix(4, false, shape).addresses;
  return grid_problem("tma32_fp16", "64x16 fp16 tile (32-byte rows): 128-bit row copies in, ldmatrix.x4 out; TMA 32B swizzle",
                      shape, 16, store(a), Access{b, AccessKind::Load, 4, 0}, {masks("tma-32B", {0, 0, 8})});
}

Problem transpose128(int ebits, std::int64_t warps) {
  const std::vector<std::int64_t> shape{128, 128};
  const std::int64_t v = 128 / ebits;
  const std::int64_t per_row = 128 / v;
  const std::int64_t t1 = std::min<std::int64_t>(32, per_row), t0 = 32 / t1;
  auto a = blocked({1, v}, {t0, t1}, {warps, 1}, {1, 0}, shape);
  auto b = blocked({v, 1}, {t1, t0}, {1, warps}, {0, 1}, shape);
  const char* type = ebits == 8 ? "fp8" : ebits == 16 ? "fp16" : "fp32";
  return grid_problem(
      fmt::format("transpose128_{}_{}w", type, warps),
      fmt::format("128x128 {} transpose over {} warps: 128-bit row loads in, 128-bit column reads out", type, warps), shape,
      ebits, store(a), load(b), {});
}

Problem mma_to_blocked() {
  const std::vector<std::int64_t> shape{64, 64};
  auto a = mma_m16n8k16(MmaOperand::C, shape, {2, 2});
  auto b = blocked({1, 8}, {4, 8}, {4, 1}, {1, 0}, shape);
  return grid_problem("mma_to_blocked_fp16",
                      "64x64 fp16 mma.sync C/D fragments (4 warps) stored, read back as 128-bit blocked rows", shape, 16,
                      store(a), load(b), {});
}

Problem blocked_to_mma() {
  const std::vector<std::int64_t> shape{64, 32};
  auto a = blocked({1, 8}, {8, 4}, {4, 1}, {1, 0}, shape);
  auto b = mma_m16n8k16(MmaOperand::A, shape, {4, 1});
  return grid_problem("blocked_to_mma_a_fp16",
                      "64x32 fp16 blocked global tile stored, read as mma.sync A fragments with LDS (4 warps)", shape, 16,
                      store(a), load(b), {});
}

struct Entry {
  const char* name;
  std::function<Problem()> make;
};

const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries = {
      {"transpose16x32", transpose16x32},
      {"toy8x8", toy8x8},
      {"cute8x8", cute8x8},
      {"tma128_fp16", tma128},
      {"ldmatrix_a_fp16", ldmatrix64},
      {"tma32_fp16", tma32},
      {"transpose128_fp8_4w", [] { return transpose128(8, 4); }},
      {"transpose128_fp16_4w", [] { return transpose128(16, 4); }},
      {"transpose128_fp32_4w", [] { return transpose128(32, 4); }},
      {"transpose128_fp16_8w", [] { return transpose128(16, 8); }},
      {"mma_to_blocked_fp16", mma_to_blocked},
      {"blocked_to_mma_a_fp16", blocked_to_mma},
  };
  return entries;
}

}  // namespace

std::vector<PresetInfo> list_presets() {
  std::vector<PresetInfo> out;
  for (const auto& e : registry()) out.push_back({e.name, e.make().description});
  return out;
}

Problem make_preset(const std::string& name) {
  for (const auto& e : registry())
    if (name == e.name) return e.make();
  std::string known;
  for (const auto& e : registry()) known += (known.empty() ? "" : ", ") + std::string(e.name);
  fail("unknown preset '{}' (known: {})", name, known);
}

}  // namespace swz
