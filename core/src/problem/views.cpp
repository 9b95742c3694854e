#include "swz/problem/views.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <optional>

#include "swz/algebra/f2.h"
#include "swz/error.h"

namespace swz {

// Past this many cells on a side a picture is a window of kWindowSide x kWindowSide cells.
constexpr std::int64_t kWindowAfter = 256, kWindowSide = 128;

TensorWindow tensor_window(std::int64_t rows, std::int64_t cols) {
  TensorWindow w;
  w.rows = rows;
  w.cols = cols;
  const bool window = rows > kWindowAfter || cols > kWindowAfter;
  w.shown_rows = window ? std::min(rows, kWindowSide) : rows;
  w.shown_cols = window ? std::min(cols, kWindowSide) : cols;
  return w;
}

std::string TensorWindow::note() const {
  if (!windowed()) return "";
  return fmt::format("drawn: rows {}-{} and columns {}-{} of {}x{} (a larger picture is unreadable)", first_row,
                     first_row + shown_rows - 1, first_col, first_col + shown_cols - 1, rows, cols);
}

ElementPlace place_of(const Problem& p, BitVec coord) {
  ElementPlace out;
  const std::uint32_t offset = p.shared.offset(coord);
  const std::uint64_t byte = byte_address_of(offset, p.element_bits);
  out.offset = static_cast<std::int64_t>(offset);
  out.bank = p.bank.bank_of(byte);
  out.segment = p.bank.segment_of(byte);
  return out;
}

ElementPlaces element_places(const Problem& p, const std::vector<BitVec>& coords) {
  ElementPlaces out;
  out.bank.reserve(coords.size());
  out.segment.reserve(coords.size());
  out.offset.reserve(coords.size());
  for (BitVec c : coords) {
    const ElementPlace place = place_of(p, c);
    out.bank.push_back(place.bank);
    out.segment.push_back(place.segment);
    out.offset.push_back(place.offset);
  }
  return out;
}

ElementPlaces element_places(const Problem& p) {
  std::vector<BitVec> every(static_cast<std::size_t>(p.shared.elements()));
  for (std::size_t c = 0; c < every.size(); ++c) every[c] = c;
  return element_places(p, every);
}

CellNumbers parse_cell_numbers(std::string_view text) {
  if (text == "none") return CellNumbers::None;
  if (text == "bank") return CellNumbers::Bank;
  if (text == "offset") return CellNumbers::Offset;
  fail("cell numbers '{}': expected none, bank or offset", text);
}

std::string_view cell_numbers_name(CellNumbers numbers) {
  switch (numbers) {
    case CellNumbers::Bank:
      return "bank";
    case CellNumbers::Offset:
      return "offset";
    case CellNumbers::None:
      break;
  }
  return "none";
}

std::int64_t cell_number(const ElementPlaces& places, std::size_t coord, CellNumbers numbers) {
  switch (numbers) {
    case CellNumbers::Bank:
      return places.bank[coord];
    case CellNumbers::Offset:
      return places.offset[coord];
    case CellNumbers::None:
      break;
  }
  return -1;
}

std::vector<ElementOwner> owners_of(const Access& access) {
  const LinearLayout& l = access.layout;
  if (l.out_bits() > 24) fail("the access covers 2^{} elements; pictures of it stop at 2^24", l.out_bits());
  std::vector<ElementOwner> table(static_cast<std::size_t>(l.out_size()));
  const std::uint64_t regs = std::uint64_t{1} << l.in_dim_bits("register");
  const std::uint64_t lanes = std::uint64_t{1} << l.in_dim_bits("lane");
  const std::uint64_t warps = std::uint64_t{1} << l.in_dim_bits("warp");
  for (std::uint64_t w = 0; w < warps; ++w) {
    const BitVec warp_part = l.apply("warp", w);
    for (std::uint64_t t = 0; t < lanes; ++t) {
      const BitVec lane_part = warp_part ^ l.apply("lane", t);
      for (std::uint64_t r = 0; r < regs; ++r) {
        ElementOwner& o = table[lane_part ^ l.apply("register", r)];
        if (o.holders++ == 0) {
          o.lane = static_cast<int>(t);
          o.warp = static_cast<int>(w);
          o.reg = static_cast<int>(r);
        }
      }
    }
  }
  return table;
}

// [SECTION] Solving a layout for the inputs that reach an element
//
// Rows (image, key) in echelon form over the images' highest bits (pivots strictly decreasing): a row
// only has image bits at or below its pivot, so reducing by the rows in order clears each pivot once,
// and the XOR of the keys used says which inputs add up to what was cleared.
namespace {

int keyed_pivot(BitVec v) { return 63 - std::countl_zero(v); }

HolderIndex::Row keyed_reduce(const std::vector<HolderIndex::Row>& rows, HolderIndex::Row r) {
  for (const HolderIndex::Row& row : rows)
    if ((r.image >> keyed_pivot(row.image)) & 1u) {
      r.image ^= row.image;
      r.key ^= row.key;
    }
  return r;
}

// Adds `r` reduced; returns the key of a kernel vector instead when its image reduces to zero.
std::optional<BitVec> keyed_insert(std::vector<HolderIndex::Row>& rows, HolderIndex::Row r) {
  r = keyed_reduce(rows, r);
  if (r.image == 0) return r.key;
  const auto at = std::find_if(rows.begin(), rows.end(),
                               [&](const HolderIndex::Row& row) { return keyed_pivot(row.image) < keyed_pivot(r.image); });
  rows.insert(at, r);
  return std::nullopt;
}

}  // namespace

HolderIndex::HolderIndex(const Access& access) {
  const LinearLayout& l = access.layout;
  register_bits_ = l.in_dim_bits("register");
  lane_bits_ = l.in_dim_bits("lane");
  const int warp_bits = l.in_dim_bits("warp");
  const int key_bits = register_bits_ + lane_bits_ + warp_bits;
  Subspace kernel(key_bits);
  for (int k = 0; k < key_bits; ++k) {
    const char* dim = k < register_bits_ ? "register" : k < register_bits_ + lane_bits_ ? "lane" : "warp";
    const int bit = k < register_bits_                ? k
                    : k < register_bits_ + lane_bits_ ? k - register_bits_
                                                      : k - register_bits_ - lane_bits_;
    if (const auto null = keyed_insert(rows_, Row{l.apply(dim, std::uint64_t{1} << bit), BitVec{1} << k})) kernel.insert(*null);
  }
  kernel_ = kernel.basis();
}

ElementOwner HolderIndex::owner(BitVec coord) const {
  const Row solved = keyed_reduce(rows_, Row{coord, 0});
  BitVec key = solved.key;
  ElementOwner o;
  if (solved.image != 0) return o;  // outside the layout's image: nobody holds it
  // The least key of the coset key + kernel: clear each kernel pivot from the top.
  for (BitVec k : kernel_)
    if ((key >> keyed_pivot(k)) & 1u) key ^= k;
  o.reg = static_cast<int>(key & low_bits(register_bits_));
  o.lane = static_cast<int>((key >> register_bits_) & low_bits(lane_bits_));
  o.warp = static_cast<int>(key >> (register_bits_ + lane_bits_));
  o.holders = 1 << kernel_.size();
  return o;
}

std::vector<ElementOwner> owners_of(const Access& access, const std::vector<BitVec>& coords) {
  const HolderIndex index(access);
  std::vector<ElementOwner> out;
  out.reserve(coords.size());
  for (BitVec c : coords) out.push_back(index.owner(c));
  return out;
}

std::vector<BitVec> held_within(const Access& access, int warp, int lane, BitVec outside, std::size_t most) {
  const LinearLayout& l = access.layout;
  const BitVec base = l.apply("warp", static_cast<std::uint64_t>(warp)) ^ l.apply("lane", static_cast<std::uint64_t>(lane));
  // Registers r with (base ^ R(r)) & outside == 0: solve R(r) & outside = base & outside, then add the kernel.
  std::vector<HolderIndex::Row> rows;
  std::vector<BitVec> free;  // registers whose images lie inside: any sum of them may be added
  for (int i = 0; i < l.in_dim_bits("register"); ++i)
    if (const auto null = keyed_insert(rows, {l.apply("register", std::uint64_t{1} << i) & outside, BitVec{1} << i}))
      free.push_back(*null);
  const HolderIndex::Row solved = keyed_reduce(rows, {base & outside, 0});
  BitVec reg = solved.key;
  std::vector<BitVec> out;
  if (solved.image != 0) return out;  // none of this thread's elements is inside
  // Every solution: reg plus a sum of the free registers, in Gray-code order (one XOR per step).
  const std::uint64_t count = free.size() >= 63 ? ~std::uint64_t{0} : std::uint64_t{1} << free.size();
  for (std::uint64_t i = 0; i < count && out.size() < most; ++i) {
    if (i) reg ^= free[static_cast<std::size_t>(std::countr_zero(i))];
    out.push_back(base ^ l.apply("register", reg));
  }
  return out;
}

MemoryView memory_view(const Problem& p) { return memory_view(p, ~std::uint64_t{0}); }

MemoryView memory_view(const Problem& p, std::uint64_t most_segments) {
  // Walk the allocation offset by offset; an element wider than a bank word fills several words.
  MemoryView m;
  const int word_bits = p.bank.bank_bytes * 8;
  m.banks = p.bank.banks;
  m.per_word = std::max(1, word_bits / p.element_bits);
  const std::uint64_t bytes = byte_address_of(p.shared.extent(), p.element_bits);
  const auto banks = static_cast<std::uint64_t>(p.bank.banks);
  const auto row_bytes = static_cast<std::uint64_t>(p.bank.wavefront_bytes());
  m.total_segments = std::max<std::uint64_t>(1, (bytes + row_bytes - 1) / row_bytes);
  m.segments = std::min(m.total_segments, std::max<std::uint64_t>(1, most_segments));
  m.slot_coord.assign(static_cast<std::size_t>(m.segments * banks * static_cast<std::uint64_t>(m.per_word)), -1);
  const int words_per_element = std::max(1, p.element_bits / word_bits);
  const auto ebits = static_cast<std::uint64_t>(p.element_bits);
  // The offsets in the shown segments (an element may straddle the last one's end; its words past it are dropped).
  const std::uint64_t offsets = std::min<std::uint64_t>(p.shared.extent(), (m.segments * row_bytes * 8 + ebits - 1) / ebits);
  for (std::uint64_t off = 0; off < offsets; ++off) {
    const auto coord = p.shared.coord_at(off);
    if (!coord) continue;  // padding
    const std::uint64_t byte = byte_address_of(off, p.element_bits);
    const auto sub = m.per_word > 1 ? off * ebits % static_cast<std::uint64_t>(word_bits) / ebits : 0;
    for (int w = 0; w < words_per_element; ++w) {
      const std::uint64_t b = byte + static_cast<std::uint64_t>(w * p.bank.bank_bytes);
      const std::uint64_t slot = (p.bank.segment_of(b) * banks + static_cast<std::uint64_t>(p.bank.bank_of(b))) *
                                     static_cast<std::uint64_t>(m.per_word) +
                                 sub;
      if (slot < m.slot_coord.size()) m.slot_coord[slot] = static_cast<std::int64_t>(*coord);
    }
  }
  return m;
}

StepTrace trace_step(const Problem& p, AccessKind side, const AccessResult& sim, int warp, int step) {
  const Access& a = side == AccessKind::Store ? p.store : p.read;
  StepTrace t;
  t.instruction = trace_instruction(a, p.shared, p.element_bits, p.bank, std::clamp(warp, 0, sim.warps - 1),
                                    std::clamp(step, 0, sim.steps - 1));
  if (a.async_copy)
    t.copy = copy_trace(warp_request(a, p.shared, p.element_bits, p.bank, t.instruction.warp, t.instruction.step), p.bank);
  const int lanes = static_cast<int>(t.instruction.lanes.size());
  const bool by_phase = sim.phases > 1;
  const int half = std::max(1, lanes / 2);
  if (by_phase) {
    t.groups = sim.phases;
    for (int g = 0; g < t.groups; ++g)
      t.group_labels.push_back(
          fmt::format("phase {} (lanes {}-{})", g, g * sim.lanes_per_phase, (g + 1) * sim.lanes_per_phase - 1));
  } else {
    t.groups = lanes >= 2 ? 2 : 1;
    for (int g = 0; g < t.groups; ++g)
      t.group_labels.push_back(fmt::format("threads {}-{}", g * half, std::min(lanes, (g + 1) * half) - 1));
  }
  const BitVec warp_part = a.layout.apply("warp", static_cast<std::uint64_t>(t.instruction.warp));
  for (const LaneAccess& la : t.instruction.lanes) {
    if (!la.active) continue;
    const BitVec lane_part = warp_part ^ a.layout.apply("lane", static_cast<std::uint64_t>(la.lane));
    const int group = by_phase ? la.phase : std::min(t.groups - 1, la.lane / half);
    for (int j = 0; j < sim.vector.elements; ++j)
      t.cells.push_back(
          {lane_part ^ a.layout.apply("register", static_cast<std::uint64_t>(la.register_index + j)), la.lane, group});
  }
  return t;
}

}  // namespace swz
