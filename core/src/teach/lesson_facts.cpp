// lesson_facts.cpp: the claim quantities of lesson_facts.h.
#include "lesson_facts.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/sim/bank.h"
#include "swz/solve/solve_report.h"
#include "swz/solve/solver.h"
#include "swz/teach/lesson.h"

namespace swz {

std::vector<QuantityPart> quantity_parts(const std::string& q) {
  std::vector<QuantityPart> out;
  std::size_t pos = 0;
  while (pos < q.size()) {
    QuantityPart part;
    std::size_t end = pos;
    while (end < q.size() && q[end] != '.' && q[end] != '(') ++end;
    part.name = q.substr(pos, end - pos);
    pos = end;
    if (pos < q.size() && q[pos] == '(') {
      const std::size_t close = q.find(')', pos);
      if (close == std::string::npos) fail("quantity '{}': missing ')'", q);
      part.called = true;
      std::string inner = q.substr(pos + 1, close - pos - 1);
      std::size_t at = 0;
      while (!inner.empty() && at <= inner.size()) {
        const std::size_t comma = std::min(inner.find(',', at), inner.size());
        std::string item = inner.substr(at, comma - at);
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        const bool hex = item.size() > 2 && item[0] == '0' && (item[1] == 'x' || item[1] == 'X');
        std::int64_t v = 0;
        const char* b = item.data() + (hex ? 2 : 0);
        const char* e = item.data() + item.size();
        const auto [ptr, ec] = std::from_chars(b, e, v, hex ? 16 : 10);
        if (item.empty() || ec != std::errc() || ptr != e || v < 0)
          fail("quantity '{}': '{}' is not a non-negative integer", q, item);
        part.args.push_back(v);
        at = comma + 1;
      }
      pos = close + 1;
    }
    if (pos < q.size()) {
      if (q[pos] != '.') fail("quantity '{}' is malformed after '{}'", q, q.substr(0, pos));
      ++pos;
    }
    out.push_back(std::move(part));
  }
  return out;
}

void want_args(const std::string& q, const QuantityPart& p, std::size_t n) {
  if (p.args.size() != n) fail("quantity '{}': {}(...) takes {} number{}", q, p.name, n, n == 1 ? "" : "s");
}

namespace {

nlohmann::json swizzle_fact(const std::string& q, const std::vector<QuantityPart>& parts) {
  want_args(q, parts[0], 3);
  if (parts.size() != 2 || parts[1].name != "of") fail("quantity '{}': swizzle(B,M,S) is followed by .of(offset)", q);
  want_args(q, parts[1], 1);
  const int b = static_cast<int>(std::min<std::int64_t>(parts[0].args[0], 64)),
            m = static_cast<int>(std::min<std::int64_t>(parts[0].args[1], 64)),
            s = static_cast<int>(std::min<std::int64_t>(parts[0].args[2], 64));
  check_cute_swizzle(b, m, s);
  if (b + m + s > 40) fail("quantity '{}': Swizzle<{},{},{}> reaches past bit 40", q, b, m, s);
  return cute_swizzle_apply(b, m, s, static_cast<std::uint64_t>(parts[1].args[0]));
}

// The TMA mode whose pattern the step's shared layout is on its row-major tile, any row width:
// byte address a = (m * N + n) * bytes goes to a ^ (((a >> 7) & (W/16 - 1)) << 4) (NONE: a itself).
// Nothing when no mode's pattern is the layout.
const TmaSwizzleMode* tma_mode_of_layout(const Problem& p) {
  if (p.shape.size() != 2 || p.element_bits < 8 || p.element_bits % 8) return nullptr;
  const std::uint64_t bytes = static_cast<std::uint64_t>(p.element_bits / 8);
  for (const int width : {0, 32, 64, 128}) {
    const TmaSwizzleMode& mode = tma_swizzle_mode(width);
    const std::uint64_t chunk_mask = width ? static_cast<std::uint64_t>(width / 16 - 1) : 0;
    bool same = true;
    for (std::int64_t m = 0; m < p.shape[0] && same; ++m)
      for (std::int64_t n = 0; n < p.shape[1] && same; ++n) {
        const std::uint64_t a = static_cast<std::uint64_t>(m * p.shape[1] + n) * bytes;
        const std::uint64_t swizzled = a ^ (((a >> 7) & chunk_mask) << 4);
        same = p.shared.offset(p.shared.coords().flatten(Coords{m, n})) == swizzled / bytes;
      }
    if (same) return &mode;
  }
  return nullptr;
}

nlohmann::json tma_fact(const std::string& q, const std::vector<QuantityPart>& parts, const Problem& p) {
  if (!parts[0].called && parts.size() == 2 && !parts[1].called && (parts[1].name == "mode" || parts[1].name == "box_legal")) {
    if (p.shape.size() != 2) fail("quantity '{}' needs a 2-D tile", q);
    const TmaSwizzleMode* mode = tma_mode_of_layout(p);
    if (parts[1].name == "mode") return mode ? nlohmann::json(mode->driver_name) : nlohmann::json(nullptr);
    // The box's inner dimension, one row of the tile, may be at most the mode's width (NONE: no limit).
    return mode && (mode->swizzle_bytes == 0 || p.shape[1] * p.element_bits / 8 <= mode->max_inner_box_bytes);
  }
  want_args(q, parts[0], 1);
  const TmaSwizzleMode& mode = tma_swizzle_mode(static_cast<int>(std::min<std::int64_t>(parts[0].args[0], 1024)));
  const std::string what = parts.size() == 2 ? parts[1].name : "";
  const bool none = mode.swizzle_bytes == 0;
  if (parts.size() == 2 && !parts[1].called) {
    if (what == "name") return mode.driver_name;
    if (what == "repeat_bytes") return none ? nlohmann::json(nullptr) : nlohmann::json(mode.repeat_bytes);
    if (what == "max_inner_box_bytes") return none ? nlohmann::json(nullptr) : nlohmann::json(mode.max_inner_box_bytes);
    if (what == "shared_alignment") return mode.shared_alignment;
    if (what == "global_alignment") return mode.global_alignment;
    if (what == "inner_box_fits") {
      // Whether the step's tile, one row being the box's inner dimension, is a box this mode accepts.
      if (p.shape.size() != 2) fail("quantity '{}' needs a 2-D tile", q);
      return none || p.shape[1] * p.element_bits / 8 <= mode.max_inner_box_bytes;
    }
    if (what == "matches_layout") {
      // Whether the step's shared layout is this mode's pattern on its tile (the copy writes it so).
      if (none || p.shape.size() != 2) return false;
      try {
        return p.shared == tma_swizzle(mode.swizzle_bytes, p.shape, p.element_bits);
      } catch (const Error&) {
        return false;  // rows that are not this mode's width: not its pattern
      }
    }
  }
  if (what == "pattern_shift") {
    want_args(q, parts[1], 1);
    if (none) fail("quantity '{}': NONE has no pattern to shift", q);
    const auto base = static_cast<std::uint64_t>(parts[1].args[0]);
    if (base % static_cast<std::uint64_t>(mode.shared_alignment))
      fail("quantity '{}': TMA buffers are {}-byte aligned", q, mode.shared_alignment);
    return tma_relative_chunk(mode.swizzle_bytes, base, /*row128=*/0, /*chunk=*/0);  // line 0, chunk 0 lands at the shift itself
  }
  if (what == "box_row_shift") {
    want_args(q, parts[1], 1);
    if (none) fail("quantity '{}': NONE has no pattern to shift", q);
    const auto base = static_cast<std::uint64_t>(parts[1].args[0]);
    if (base % static_cast<std::uint64_t>(mode.shared_alignment))
      fail("quantity '{}': TMA buffers are {}-byte aligned", q, mode.shared_alignment);
    // Rows of the mode's widest box (W bytes of fp16): the smallest k such that every row y of a
    // buffer at `base` is swizzled as row y + k of a buffer at 0, found on the patterns themselves.
    const std::int64_t row_elements = mode.swizzle_bytes / 2, period = mode.repeat_bytes / mode.swizzle_bytes;
    const std::vector<std::int64_t> shape{2 * period, row_elements};
    const SharedLayout at_zero = tma_swizzle(mode.swizzle_bytes, shape, 16, 0),
                       at_base = tma_swizzle(mode.swizzle_bytes, shape, 16, base);
    const auto within_row = [&](const SharedLayout& l, std::int64_t y, std::int64_t n) {
      return static_cast<std::int64_t>(l.offset(l.coords().flatten({y, n}))) - y * row_elements;
    };
    for (std::int64_t k = 0; k < period; ++k) {
      bool same = true;
      for (std::int64_t y = 0; y < period && same; ++y)
        for (std::int64_t n = 0; n < row_elements && same; ++n) same = within_row(at_base, y, n) == within_row(at_zero, y + k, n);
      if (same) return k;
    }
    fail("quantity '{}': no row shift of the {}-byte pattern matches the buffer at 0x{:x}", q, mode.swizzle_bytes, base);
  }
  fail(
      "quantity '{}': tma(W) is followed by .name, .repeat_bytes, .max_inner_box_bytes, .shared_alignment, .global_alignment, "
      ".inner_box_fits, .matches_layout, .pattern_shift(base) or .box_row_shift(base); tma.mode and tma.box_legal take no width",
      q);
}

std::optional<nlohmann::json> xor_table_fact(const std::string& q, const std::vector<QuantityPart>& parts) {
  if (parts.size() != 2 || (parts[1].name != "column_spread" && parts[1].name != "bijection"))
    return std::nullopt;  // lesson.cpp's
  want_args(q, parts[0], 2);
  const std::int64_t rows = parts[0].args[0], cols = parts[0].args[1];
  if (rows < 1 || cols < 1 || rows > 1024 || cols > 1024)
    fail("quantity '{}': xor_table takes rows and columns between 1 and 1024", q);
  std::vector<std::vector<std::int64_t>> table;
  for (std::int64_t m = 0; m < rows; ++m) table.push_back(xor_swizzle_row(m, cols));
  if (parts[1].name == "column_spread") {
    for (std::int64_t n = 0; n < cols; ++n) {
      std::set<std::int64_t> landed;
      for (const auto& row : table) landed.insert(row[static_cast<std::size_t>(n)]);
      if (static_cast<std::int64_t>(landed.size()) != rows) return false;
    }
    return true;
  }
  std::set<std::pair<std::int64_t, std::int64_t>> cells;
  for (std::int64_t m = 0; m < rows; ++m)
    for (std::int64_t to : table[static_cast<std::size_t>(m)])
      if (to >= cols || !cells.insert({m, to}).second) return false;
  return true;
}

nlohmann::json offset_of(const std::string& q, const Access& access, const QuantityPart& call, const Problem& p) {
  want_args(q, call, 2);
  if (!p.shared.is_linear())
    fail("quantity '{}' needs a linear shared layout; this one is not ({})", q, p.shared.nonlinear_reason());
  const LinearLayout& l = access.layout;
  const std::int64_t reg = call.args[0], lane = call.args[1];
  if (reg >= (std::int64_t{1} << l.in_dim_bits("register")) || lane >= (std::int64_t{1} << l.in_dim_bits("lane")))
    fail("quantity '{}': register {} or lane {} is outside the access ({} registers, {} lanes)", q, reg, lane,
         std::int64_t{1} << l.in_dim_bits("register"), std::int64_t{1} << l.in_dim_bits("lane"));
  // The address map is M^{-1} (offset <- coords, by elimination) after the access: one matrix product.
  const LinearLayout address = l.compose(p.shared.linear().invert());
  const BitVec out = address.apply({{"register", static_cast<std::uint64_t>(reg)}, {"lane", static_cast<std::uint64_t>(lane)}});
  return address.unflatten(out).front();
}

nlohmann::json basis_of(const std::vector<BitVec>& vs, const Problem& p) {
  nlohmann::json j = nlohmann::json::array();
  for (BitVec v : vs) j.push_back(p.shared.coords().describe_out(v));
  return j;
}

nlohmann::json solve_fact(const std::string& q, const std::vector<QuantityPart>& parts, const Problem& p) {
  SolveResult r;
  try {
    // The call `swizzle solve` and the Solver panel make, so a claim states what both show.
    SolveRequest request;
    request.count_family = false;
    r = solve_problem(p, request).result;
  } catch (const SolverBug& e) {
    fail("quantity '{}': {}", q, e.what());
  }
  const std::string what = parts.size() >= 2 ? parts[1].name : "";
  if (parts.size() == 3 && (what == "write" || what == "read")) {
    const SideCost& c = what == "write" ? r.write_cost : r.read_cost;
    const std::string& field = parts[2].name;
    if (field == "wavefronts") return c.wavefronts;
    if (field == "ideal_wavefronts") return c.ideal_wavefronts;
    if (field == "instruction") return c.instruction;
    if (field == "vec_bits") return c.vec_bits;
  }
  // Lemma 9.5: no layout gives the side fewer wavefronts per instruction (with these vectors).
  if (parts.size() == 3 && what == "lower_bound" && (parts[2].name == "write_wavefronts" || parts[2].name == "read_wavefronts"))
    return parts[2].name == "write_wavefronts" ? r.bound.write_wavefronts : r.bound.read_wavefronts;
  if (parts.size() == 2) {
    if (what == "conflict_free") return r.conflict_free;
    if (what == "fallback") return r.fallback;
    const std::pair<const char*, const std::vector<BitVec>*> sets[] = {
        {"vec_basis", &r.vec},          {"split_a_basis", &r.split_a}, {"split_b_basis", &r.split_b},
        {"I_basis", &r.shared_threads}, {"E_basis", &r.only_a},        {"F_basis", &r.only_b},
        {"H_basis", &r.paired},         {"C_basis", &r.complement},    {"padding_basis", &r.padding},
        {"segment_basis", &r.segment},  {"bank_basis", &r.bank}};
    for (const auto& [name, vs] : sets)
      if (what == name) return basis_of(*vs, p);
  }
  fail(
      "quantity '{}': solve is followed by .write.X or .read.X (wavefronts, ideal_wavefronts, instruction, vec_bits), "
      ".lower_bound.write_wavefronts, .lower_bound.read_wavefronts, .conflict_free, "
      ".fallback or a set (.vec_basis, .split_a_basis, .split_b_basis, .I_basis, .E_basis, .F_basis, .H_basis, .C_basis, "
      ".padding_basis, .segment_basis, .bank_basis)",
      q);
}

}  // namespace

std::optional<nlohmann::json> measure_fact(const std::string& q, const Problem& p) {
  const std::string head = q.substr(0, q.find_first_of(".("));
  static const std::set<std::string> heads = {"swizzle",    "tma",   "xor_table",       "store",    "read",
                                              "element_at", "solve", "wavefront_bytes", "cp_async", "cp_async_cg",
                                              "banks",      "lanes", "phase",           "lane_pair"};
  if (!heads.count(head)) return std::nullopt;
  // What one wavefront moves, one word from each bank: the bank model's own width.
  if (q == "wavefront_bytes") return p.bank.banks * p.bank.bank_bytes;
  if (q == head + ".bytes_per_instruction") {
    // The bytes one instruction moves, counted on the lanes of its first instruction (each active
    // lane's vector), not from the phases: with wavefront_bytes, the ideal a lesson can work out.
    const Access& access = head == "store" ? p.store : p.read;
    const AccessResult sim = simulate(access, p.shared, p.element_bits, p.bank);
    const InstructionResult ir = trace_instruction(access, p.shared, p.element_bits, p.bank, /*warp=*/0, /*step=*/0);
    const auto active = std::count_if(ir.lanes.begin(), ir.lanes.end(), [](const LaneAccess& l) { return l.active; });
    return static_cast<std::int64_t>(active) * sim.vector.bits / 8;
  }
  if ((head == "store" || head == "read") && q.find(".offset_of(") != head.size()) return std::nullopt;  // lesson.cpp's
  const std::vector<QuantityPart> parts = quantity_parts(q);
  if (head == "swizzle") return swizzle_fact(q, parts);
  if (head == "tma") return tma_fact(q, parts, p);
  if (head == "xor_table") return xor_table_fact(q, parts);
  if (head == "solve") return solve_fact(q, parts, p);
  if (head == "cp_async" || head == "cp_async_cg") return copy_fact(q, parts, p);
  if (head == "banks" || head == "lanes" || head == "phase" || head == "lane_pair") return gpu_fact(q, parts, p);
  if (head == "element_at") {
    if (parts.size() != 1) fail("quantity '{}': nothing may follow element_at(offset)", q);
    want_args(q, parts[0], 1);
    const auto flat = p.shared.coord_at(static_cast<std::uint64_t>(parts[0].args[0]));
    if (!flat) return nlohmann::json(nullptr);
    return p.shared.coords().unflatten(*flat);
  }
  if (parts.size() != 2) fail("quantity '{}': nothing may follow {}.offset_of(register, lane)", q, head);
  return offset_of(q, head == "store" ? p.store : p.read, parts[1], p);
}

}  // namespace swz
