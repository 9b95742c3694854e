#include "swz/problem/views.h"

#include <fmt/format.h>

#include <algorithm>

#include "swz/error.h"

namespace swz {

ElementPlaces element_places(const Problem& p) {
  const auto elements = static_cast<std::size_t>(p.shared.elements());
  ElementPlaces out;
  out.bank.resize(elements);
  out.segment.resize(elements);
  out.offset.resize(elements);
  for (std::size_t c = 0; c < elements; ++c) {
    out.offset[c] = static_cast<std::int64_t>(p.shared.offset(c));
    const std::uint64_t byte = byte_address_of(p.shared.offset(c), p.element_bits);
    out.bank[c] = p.bank.bank_of(byte);
    out.segment[c] = p.bank.segment_of(byte);
  }
  return out;
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

MemoryView memory_view(const Problem& p) {
  // Walk the allocation offset by offset; an element wider than a bank word fills several words.
  MemoryView m;
  const int word_bits = p.bank.bank_bytes * 8;
  m.banks = p.bank.banks;
  m.per_word = std::max(1, word_bits / p.element_bits);
  const std::uint64_t bytes = byte_address_of(p.shared.extent(), p.element_bits);
  const auto banks = static_cast<std::uint64_t>(p.bank.banks);
  const auto row_bytes = static_cast<std::uint64_t>(p.bank.wavefront_bytes());
  m.segments = std::max<std::uint64_t>(1, (bytes + row_bytes - 1) / row_bytes);
  m.slot_coord.assign(static_cast<std::size_t>(m.segments * banks * static_cast<std::uint64_t>(m.per_word)), -1);
  const int words_per_element = std::max(1, p.element_bits / word_bits);
  const auto ebits = static_cast<std::uint64_t>(p.element_bits);
  for (std::uint64_t off = 0; off < p.shared.extent(); ++off) {
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
