#include "model.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "swz/error.h"
#include "swz/factories.h"
#include "swz/problem_spec.h"

namespace swz::gui {

namespace {

int log2_of(std::int64_t v) { return std::countr_zero(static_cast<std::uint64_t>(v)); }

std::vector<Owner> owners_of(const LinearLayout& layout, std::size_t elements) {
  std::vector<Owner> out(elements);
  const int regs = 1 << layout.in_dim_bits("register");
  const int lanes = 1 << layout.in_dim_bits("lane");
  const int warps = 1 << layout.in_dim_bits("warp");
  for (int w = 0; w < warps; ++w) {
    const BitVec wpart = layout.apply("warp", static_cast<std::uint64_t>(w));
    for (int l = 0; l < lanes; ++l) {
      const BitVec lpart = wpart ^ layout.apply("lane", static_cast<std::uint64_t>(l));
      for (int r = 0; r < regs; ++r) {
        const BitVec c = lpart ^ layout.apply("register", static_cast<std::uint64_t>(r));
        Owner& o = out[c];
        if (o.lane < 0) o = Owner{l, w, r, 0};
        else ++o.sharers;
      }
    }
  }
  return out;
}

}  // namespace

Model build_model(const ProblemSpec& state) {
  Model m;
  m.problem = build_problem(state);
  const Problem& p = m.problem;
  m.analysis = analyze(p);

  const auto& shape = p.shape;
  m.row_bits = shape.size() >= 2 ? log2_of(shape[0]) : 0;
  m.col_bits = p.shared.coord_bits() - m.row_bits;

  const auto elements = static_cast<std::size_t>(p.shared.elements());
  m.bank.resize(elements);
  m.segment.resize(elements);
  for (std::size_t c = 0; c < elements; ++c) {
    const std::uint64_t byte = byte_address_of(p.shared.offset(c), p.element_bits);
    m.bank[c] = p.bank.bank_of(byte);
    m.segment[c] = p.bank.segment_of(byte);
  }
  m.owner_a = owners_of(p.store.layout, elements);
  m.owner_b = owners_of(p.read.layout, elements);

  // Physical memory: walk the allocation offset by offset.
  const int word_bits = p.bank.bank_bytes * 8;
  m.per_word = std::max(1, word_bits / p.element_bits);
  const std::uint64_t bytes = byte_address_of(p.shared.extent(), p.element_bits);
  const auto banks = static_cast<std::uint64_t>(p.bank.banks);
  const auto wbytes = static_cast<std::uint64_t>(p.bank.wavefront_bytes());
  m.segments = std::max<std::uint64_t>(1, (bytes + wbytes - 1) / wbytes);
  m.slot_coord.assign(static_cast<std::size_t>(m.segments * banks * static_cast<std::uint64_t>(m.per_word)), -1);
  const int words_per_element = std::max(1, p.element_bits / word_bits);
  for (std::uint64_t off = 0; off < p.shared.extent(); ++off) {
    const auto coord = p.shared.coord_at(off);
    if (!coord) continue;
    const std::uint64_t byte = byte_address_of(off, p.element_bits);
    const int sub = m.per_word > 1 ? static_cast<int>((off * static_cast<std::uint64_t>(p.element_bits) % static_cast<std::uint64_t>(word_bits)) /
                                                      static_cast<std::uint64_t>(p.element_bits))
                                   : 0;
    for (int w = 0; w < words_per_element; ++w) {
      const std::uint64_t b = byte + static_cast<std::uint64_t>(w * p.bank.bank_bytes);
      const std::uint64_t slot = (p.bank.segment_of(b) * banks + static_cast<std::uint64_t>(p.bank.bank_of(b))) *
                                     static_cast<std::uint64_t>(m.per_word) + static_cast<std::uint64_t>(sub);
      if (slot < m.slot_coord.size()) m.slot_coord[slot] = static_cast<std::int64_t>(*coord);
    }
  }
  return m;
}

StepTrace trace_step(const Model& m, Side side, int warp, int step) {
  const Problem& p = m.problem;
  const Access& a = m.access(side);
  const AccessResult& sim = m.analysis_of(side).simulated;
  StepTrace t;
  t.instruction = trace_instruction(a, p.shared, p.element_bits, p.bank, std::clamp(warp, 0, sim.warps - 1),
                                    std::clamp(step, 0, sim.steps - 1));
  const int lanes = static_cast<int>(t.instruction.lanes.size());
  const bool by_phase = sim.phases > 1;
  if (by_phase) {
    t.groups = sim.phases;
    for (int g = 0; g < t.groups; ++g)
      t.group_labels.push_back(
          fmt::format("phase {} (lanes {}-{})", g, g * sim.lanes_per_phase, (g + 1) * sim.lanes_per_phase - 1));
  } else {
    t.groups = lanes >= 2 ? 2 : 1;
    const int half = std::max(1, lanes / 2);
    for (int g = 0; g < t.groups; ++g) t.group_labels.push_back(fmt::format("threads {}-{}", g * half, std::min(lanes, (g + 1) * half) - 1));
  }
  const int half = std::max(1, lanes / 2);
  const BitVec warp_part = a.layout.apply("warp", static_cast<std::uint64_t>(t.instruction.warp));
  for (const LaneAccess& la : t.instruction.lanes) {
    if (!la.active) continue;
    const BitVec lane_part = warp_part ^ a.layout.apply("lane", static_cast<std::uint64_t>(la.lane));
    const int group = by_phase ? la.phase : std::min(t.groups - 1, la.lane / half);
    for (int j = 0; j < sim.vector.elements; ++j) {
      const BitVec c = lane_part ^ a.layout.apply("register", static_cast<std::uint64_t>(la.register_index + j));
      t.cells.push_back({c, la.lane, group});
    }
  }
  return t;
}

}  // namespace swz::gui
