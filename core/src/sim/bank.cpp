#include "swz/sim/bank.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <functional>

#include "../int_bits.h"
#include "swz/error.h"
#include "swz/export/english.h"
#include "swz/sim/global_side.h"
#include "swz/sim/gpu.h"
#include "swz/sim/warp_access.h"

namespace swz {

namespace {

using int_bits::ilog2;
using int_bits::pow2;

void check_access(const Access& a, const BankModel& m, int element_bits, int max_in_bits = kMaxLinearAddressBits + 2) {
  check_bank_model(m);
  if (element_bits != 4 && element_bits != 8 && element_bits != 16 && element_bits != 32 && element_bits != 64)
    fail("element width {} bits is not one of 4, 8, 16, 32, 64", element_bits);
  for (const auto& d : a.layout.in_dims())
    if (d.name != "register" && d.name != "lane" && d.name != "warp" && d.name != "block")
      fail("an access layout has input dims register, lane, warp, block; not '{}'", d.name);
  const int lane_bits = a.layout.in_dim_bits("lane");
  if ((1 << lane_bits) != m.warp_size)
    fail("the access layout has {} lanes (2^{}); the bank model's warp has {}", 1 << lane_bits, lane_bits, m.warp_size);
  if (a.ldmatrix != 0 && a.ldmatrix != 1 && a.ldmatrix != 2 && a.ldmatrix != 4)
    fail("ldmatrix loads 1, 2 or 4 matrices, not {}", a.ldmatrix);
  if (a.ldmatrix || a.async_copy || a.trans) check_instruction(instruction_kind(a, a.async_copy ? 128 : 64), m);
  if (a.ldmatrix && m.warp_size != 32) fail("ldmatrix needs 32-lane warps");
  if (a.vec_bits != 0 && (!pow2(a.vec_bits) || a.vec_bits < element_bits || a.vec_bits > 128))
    fail("vector width {} bits must be a power of two between the element width ({}) and 128", a.vec_bits, element_bits);
  if (a.layout.in_bits() > max_in_bits) fail("the access has 2^{} lane-elements: too large", a.layout.in_bits());
}

}  // namespace

std::uint64_t broadcast_bits(const LinearLayout& layout, const char* dim) {
  std::uint64_t bits = 0;
  const auto bases = layout.bases(dim);
  for (std::size_t i = 0; i < bases.size(); ++i)
    if (bases[i] == 0) bits |= std::uint64_t{1} << i;
  return bits;
}

std::string coverage_gap(const LinearLayout& layout) {
  if (layout.is_surjective()) return "";
  return fmt::format("its bases reach 2^{} of the 2^{} elements", layout.image().dim(), layout.out_bits());
}

namespace {

struct Geometry {
  int lane_bits, reg_bits, warp_bits, vec_log2, steps, warps, lanes_per_phase, active_lanes;
  LanePhases lane_phases;
  int banks;  // the instruction's (AccessGeometry::bank)
  // Access::duplicates_predicated_off: the lane and warp id bits on a broadcast (zero) basis.
  std::uint64_t off_lanes = 0, off_warps = 0;
};


}  // namespace

std::int64_t global_source_address(const LinearLayout& layout, BitVec coord, int contiguous_dim, int element_bits,
                                   std::int64_t pitch_bytes) {
  const auto& dims = layout.out_dims();
  if (contiguous_dim < 0 || contiguous_dim >= static_cast<int>(dims.size()))
    fail("the global tensor's contiguous dim {} is not one of its {} dims", contiguous_dim, dims.size());
  const Coords c = layout.unflatten(coord);
  const std::int64_t row_bytes = (std::int64_t{1} << dims[static_cast<std::size_t>(contiguous_dim)].log2_size) * element_bits / 8;
  const std::int64_t pitch = global_row_pitch(row_bytes, pitch_bytes);
  std::int64_t row = 0;
  for (std::size_t d = 0; d < dims.size(); ++d)
    if (static_cast<int>(d) != contiguous_dim) row = (row << dims[d].log2_size) + c[d];
  return c[static_cast<std::size_t>(contiguous_dim)] * element_bits / 8 + row * pitch;
}

std::int64_t global_source_address(const Access& a, BitVec coord, int element_bits) {
  if (a.global_bytes) return (*a.global_bytes)[coord];
  return global_source_address(a.layout, coord, a.global_contiguous_dim, element_bits, a.global_pitch_bytes);
}

void check_bank_model(const BankModel& m) {
  if (!pow2(m.banks) || m.banks > 64) fail("bank count {} must be a power of two up to 64", m.banks);
  if (m.bank_bytes != 4) fail("banks are 4 bytes wide; {} is not supported", m.bank_bytes);
  if (!pow2(m.warp_size) || m.warp_size > 64) fail("warp size {} must be a power of two up to 64", m.warp_size);
  // A GPU that states its phases states them for its own banks and lanes only.
  const GpuModel& gpu = gpu_of(m);
  if (!gpu.phases.empty() && (m.banks != gpu.bank.banks || m.warp_size != gpu.bank.warp_size))
    fail("{} has {} banks and {}-lane wavefronts, not {} banks and {} lanes", gpu.title(), gpu.bank.banks, gpu.bank.warp_size,
         m.banks, m.warp_size);
}

OffsetBits offset_bits(const BankModel& model, int element_bits) {
  const int ebits_log = ilog2(static_cast<std::uint64_t>(element_bits));
  const int word_log = ilog2(static_cast<std::uint64_t>(model.bank_bytes * 8));
  return OffsetBits{std::max(0, word_log - ebits_log),
                    std::max(0, ilog2(static_cast<std::uint64_t>(model.banks)) + word_log - ebits_log)};
}

AccessGeometry access_geometry(const Access& access, int element_bits, int vector_bits, const BankModel& model) {
  return access_geometry(access, access.layout.in_dim_bits("lane"), element_bits, vector_bits, model);
}

AccessGeometry access_geometry(const Access& access, int lane_bits, int element_bits, int vector_bits, const BankModel& model) {
  AccessGeometry g;
  g.vector_bits = access.ldmatrix ? 128 : std::max(8, vector_bits ? vector_bits : access.vec_bits);
  g.active_lanes = access.ldmatrix ? 8 * access.ldmatrix : 1 << lane_bits;
  const InstructionBanks served = instruction_banks(instruction_kind(access, g.vector_bits), model);
  g.bank = served.bank;
  g.offset = offset_bits(g.bank, element_bits);
  g.lane_phases = served.phases;
  g.lanes_per_phase = std::min(1 << lane_bits, g.lane_phases.lanes_per_phase);
  if (g.lanes_per_phase != g.lane_phases.lanes_per_phase) g.lane_phases = contiguous_phases(g.lanes_per_phase);
  g.phases = g.active_lanes / g.lanes_per_phase;
  return g;
}

std::vector<BitVec> lane_bases_in_phase_order(const std::vector<BitVec>& lane_bases, const LanePhases& phases) {
  if (phases.contiguous()) return lane_bases;
  std::vector<BitVec> out;
  for (std::uint32_t column : phases.run_order(static_cast<int>(lane_bases.size()))) {
    BitVec v = 0;
    for (std::size_t bit = 0; bit < lane_bases.size(); ++bit)
      if (column & (1u << bit)) v ^= lane_bases[bit];
    out.push_back(v);
  }
  return out;
}

InstructionKind instruction_kind(const Access& a, int vec_bits) {
  const bool load = a.kind == AccessKind::Load;
  if (a.async_copy) {  // cp.async: 4 to 16 bytes; .cg (16 bytes only) where asked, or Triton's choice at 16 bytes
    const int bytes = std::max(4, vec_bits / 8);
    const bool bypass = a.copy_cache == Access::CopyCache::Cg || (a.copy_cache == Access::CopyCache::Triton && bytes == 16);
    return {WarpOp::AsyncCopy, bytes, 0, false, bypass, a.src_size};
  }
  if (a.ldmatrix) return {load ? WarpOp::LoadMatrix : WarpOp::StoreMatrix, 16, a.ldmatrix, a.trans};
  // .trans without ldmatrix: AMD's transposing read (ds_read_b64_tr_b16, gfx950), 64 bits a lane.
  if (a.trans && load) return {WarpOp::Load, 8, 0, true};
  return {load ? WarpOp::Load : WarpOp::Store, std::max(1, vec_bits / 8), 0, false};
}

std::string instruction_name(const Access& a, int vec_bits, const BankModel& model) {
  return instruction_name(instruction_kind(a, vec_bits), model);
}

VectorChoice choose_vector(const Access& a, const SharedLayout& s, int element_bits, const BankModel& m) {
  check_access(a, m, element_bits);
  if (a.layout.shape() != s.shape())
    fail("access layout covers a {} tensor but the shared layout is {}", fmt::join(a.layout.shape(), "x"),
         fmt::join(s.shape(), "x"));
  const int reg_bits = a.layout.in_dim_bits("register");
  const int max_by_width = ilog2(128 / element_bits);
  const int wanted = a.ldmatrix ? ilog2(128 / element_bits) : a.vec_bits ? ilog2(a.vec_bits / element_bits) : -1;
  // k registers vectorise when every group of 2^k consecutive registers lands on
  // 2^k consecutive offsets starting at a multiple of 2^k, for every lane and warp.
  const int in_bits = a.layout.in_bits();
  const auto regs = a.layout.bases("register");
  std::function<bool(int)> valid = [&](int k) {
    if (k > reg_bits) return false;
    for (int i = 0; i < k; ++i)
      if (regs[static_cast<std::size_t>(i)] == 0) return false;
    const BitVec group_mask = low_bits(k);
    const std::uint32_t v = 1u << k;
    for (BitVec x = 0; x < (BitVec{1} << in_bits); ++x) {
      if (x & group_mask) continue;  // group leaders only; registers are the lowest input bits
      const std::uint32_t base = s.offset(a.layout.apply_flat(x));
      if (base % v) return false;
      for (BitVec j = 1; j < v; ++j)
        if (s.offset(a.layout.apply_flat(x | j)) != base + j) return false;
    }
    return true;
  };
  if (s.is_linear()) {
    // A linear layout: offset(x | j) = offset(x) ^ offset(j), so the groups land on aligned
    // consecutive offsets exactly when registers 0..k-1 are offsets 1, 2, .., 2^(k-1) and no
    // other input basis touches an offset bit below k. Bases only: nothing is enumerated.
    std::vector<BitVec> images;
    for (int i = 0; i < in_bits; ++i) images.push_back(s.offset(a.layout.apply_flat(BitVec{1} << i)));
    valid = [&, images](int k) {
      if (k > reg_bits) return false;
      for (int i = 0; i < in_bits; ++i) {
        const BitVec off = images[static_cast<std::size_t>(i)];
        if (i < k ? off != (BitVec{1} << i) : (off & low_bits(k)) != 0) return false;
      }
      return true;
    };
  }
  VectorChoice c;
  if (wanted >= 0) {
    if (wanted > max_by_width) fail("vector of {} bits is wider than 128", a.vec_bits);
    if (!valid(wanted)) {
      if (a.ldmatrix)
        fail("{} needs each lane's 16-byte row contiguous and aligned in shared memory; this layout breaks it",
             instruction_name(a, 128, m));
      fail("{} needs {} consecutive registers at consecutive aligned offsets; this layout has fewer",
           with_article(fmt::format("{}-bit vector", a.vec_bits)), 1 << wanted);
    }
    c.elements = 1 << wanted;
    c.limit = "requested";
  } else {
    // A cp.async copies consecutive bytes on both sides: its vector ends where global memory's does.
    const int global_most = a.async_copy ? global_vector_log2(a, element_bits, max_by_width) : max_by_width;
    int k = 0;
    while (k < global_most && valid(k + 1)) ++k;
    c.elements = 1 << k;
    c.limit = k == max_by_width ? "128-bit maximum"
              : k >= reg_bits   ? "no more register bits"
              : k == global_most && valid(k + 1)
                  ? fmt::format("register bit r{} is not the next contiguous, aligned global address of the copy", k)
                  : fmt::format("register bit r{} is not the next contiguous offset", k);
  }
  c.bits = c.elements * element_bits;
  return c;
}

namespace {

// A copy issued as Triton issues it (a predicate per lane, no size register) whose lanes are masked
// one by one (Access::no_data), per instruction: with no lane masked it is the plain form; with
// every lane masked it is a copy predicated off, priced like one (its lanes at their pointers, the
// plain form); with some, the src-size form whose masked lanes move no data (Triton's matmul at a
// tile's edge, H200: tests/data/triton/copies/h200-20261129-edge-masks).
void per_lane_predicates(WarpRequest& request) {
  int taking = 0, masked = 0;
  for (std::size_t lane = 0; lane < request.address.size(); ++lane) {
    if (request.address[lane] < 0) continue;
    ++taking;
    masked += request.global[lane] < -1 ? 1 : 0;
  }
  if (masked > 0 && masked < taking) {
    request.kind.src_size = true;
    return;
  }
  for (std::int64_t& g : request.global)
    if (g < -1) g = -2 - g;  // at its pointer
}

// Evaluate one instruction: the lanes' byte addresses go to serve() (warp_access.h),
// which holds the bank model's rules; lanes recorded when `trace` is set.
template <class OffsetOf>
void run_instruction(const Access& a, const OffsetOf& offset_of, int ebits, const BankModel& m, const Geometry& g, int warp,
                     int step, bool trace, InstructionResult& out, WarpRequest* keep = nullptr) {
  const int vec_bits_total = (1 << g.vec_log2) * ebits;
  const BitVec warp_part = a.layout.apply("warp", static_cast<std::uint64_t>(warp));
  const BitVec reg_part = a.layout.apply("register", static_cast<std::uint64_t>(step) << g.vec_log2);
  WarpRequest request;
  request.kind = instruction_kind(a, vec_bits_total);
  request.address.assign(static_cast<std::size_t>(1 << g.lane_bits), -1);
  out.warp = warp;
  out.step = step;
  out.lanes.clear();
  const int word_bits = m.bank_bytes * 8;
  const bool warp_off = (static_cast<std::uint64_t>(warp) & g.off_warps) != 0;
  for (int lane = 0; lane < (1 << g.lane_bits); ++lane) {
    const bool active = lane < g.active_lanes && !warp_off && (static_cast<std::uint64_t>(lane) & g.off_lanes) == 0;
    const BitVec coord = a.layout.apply("lane", static_cast<std::uint64_t>(lane)) ^ warp_part ^ reg_part;
    const std::uint32_t off = offset_of(coord);
    const std::uint64_t first_bit = static_cast<std::uint64_t>(off) * static_cast<std::uint64_t>(ebits);
    if (active) request.address[static_cast<std::size_t>(lane)] = static_cast<std::int64_t>(first_bit / 8);
    if (a.async_copy) {
      request.global.resize(request.address.size(), -1);
      if (active) {
        const std::int64_t from = global_source_address(a, coord, ebits);
        const bool none = a.moves_no_data || (a.no_data && (*a.no_data)[coord] != 0);
        request.global[static_cast<std::size_t>(lane)] = none ? -2 - from : from;
      }
    }
    if (trace) {
      const std::uint64_t w0 = first_bit / static_cast<std::uint64_t>(word_bits);
      const std::uint64_t w1 =
          (first_bit + static_cast<std::uint64_t>(vec_bits_total) - 1) / static_cast<std::uint64_t>(word_bits);
      LaneAccess la;
      la.lane = lane;
      la.active = active;
      la.coord = coord;
      la.offset = off;
      la.byte_address = first_bit / 8;
      la.bank = static_cast<int>(w0 % static_cast<std::uint64_t>(g.banks));
      la.phase = active ? g.lane_phases.phase_of(lane) : -1;
      la.words = static_cast<int>(w1 - w0 + 1);
      la.register_index = step << g.vec_log2;
      out.lanes.push_back(la);
    }
  }
  if (a.async_copy && a.no_data && !a.moves_no_data && !a.src_size && request.kind.bypass) per_lane_predicates(request);
  const Service service = serve(request, m);
  if (keep) *keep = request;
  out.wavefronts = service.wavefronts;
  out.ideal = service.ideal;
  out.merged = service.merged;
  out.modelled = service.modelled;
  out.write_only = service.write_only_wavefronts;
  out.phase_wavefronts = service.pass_wavefronts;
  out.bank_words = service.bank_words;
  out.worst_phase_bank_words = service.worst_pass_bank_words;
}

auto by_table(const SharedLayout& s) {
  return [&s](BitVec coord) { return s.offset(coord); };
}

Geometry geometry(const Access& a, const VectorChoice& v, int ebits, const BankModel& m) {
  Geometry g{};
  g.lane_bits = a.layout.in_dim_bits("lane");
  g.reg_bits = a.layout.in_dim_bits("register");
  g.warp_bits = a.layout.in_dim_bits("warp");
  g.vec_log2 = ilog2(v.elements);
  g.steps = 1 << (g.reg_bits - g.vec_log2);
  g.warps = 1 << g.warp_bits;
  const AccessGeometry ag = access_geometry(a, ebits, v.bits, m);
  g.lanes_per_phase = ag.lanes_per_phase;
  g.lane_phases = ag.lane_phases;
  g.active_lanes = ag.active_lanes;
  g.banks = ag.bank.banks;
  if (a.duplicates_predicated_off) {
    g.off_lanes = broadcast_bits(a.layout, "lane");
    g.off_warps = broadcast_bits(a.layout, "warp");
  }
  return g;
}

}  // namespace

AccessResult simulate(const Access& a, const SharedLayout& s, int ebits, const BankModel& m) {
  AccessResult r;
  r.element_bits = ebits;
  r.vector = choose_vector(a, s, ebits, m);
  const Geometry g = geometry(a, r.vector, ebits, m);
  r.lanes_per_phase = g.lanes_per_phase;
  r.phases = g.active_lanes / g.lanes_per_phase;
  r.banks = g.banks;
  r.steps = g.steps;
  r.warps = g.warps;
  InstructionResult ir;
  std::int64_t write_only = 0;
  bool any_write_only = false;
  auto record = [&](int w, int st) {
    run_instruction(a, by_table(s), ebits, m, g, w, st, false, ir);
    r.total_wavefronts += ir.wavefronts;
    write_only += ir.write_only >= 0 ? ir.write_only : ir.wavefronts;
    any_write_only = any_write_only || ir.write_only >= 0;
    r.total_ideal += ir.ideal;
    r.merged = r.merged || ir.merged;
    r.modelled = r.modelled && ir.modelled;
    if (ir.wavefronts > r.wavefronts) {
      r.wavefronts = ir.wavefronts;
      r.ideal_wavefronts = ir.ideal;
    }
  };
  const std::int64_t instructions = std::int64_t{g.steps} * g.warps;
  if (!s.has_table() && instructions > AccessResult::kFullSimulation) {
    // No table: a sample (every instruction of a linear access under a linear layout costs the same).
    const auto sample = sample_instructions(g.warps, g.steps, 256);
    for (auto [w, st] : sample) record(w, st);
    r.sampled = true;
    r.simulated_instructions = static_cast<int>(sample.size());
    r.mean_wavefronts = static_cast<double>(r.total_wavefronts) / static_cast<double>(sample.size());
    const std::int64_t ideal_sum = r.total_ideal;
    r.total_wavefronts = r.total_wavefronts * instructions / static_cast<std::int64_t>(sample.size());
    r.total_ideal = ideal_sum * instructions / static_cast<std::int64_t>(sample.size());
    write_only = write_only * instructions / static_cast<std::int64_t>(sample.size());
  } else {
    r.per_instruction.reserve(static_cast<std::size_t>(instructions));
    r.per_instruction_ideal.reserve(static_cast<std::size_t>(instructions));
    for (int w = 0; w < g.warps; ++w)
      for (int st = 0; st < g.steps; ++st) {
        record(w, st);
        r.per_instruction.push_back(ir.wavefronts);
        r.per_instruction_ideal.push_back(ir.ideal);
      }
    r.simulated_instructions = static_cast<int>(instructions);
    r.mean_wavefronts = static_cast<double>(r.total_wavefronts) / static_cast<double>(instructions);
  }
  r.conflicts = r.wavefronts - r.ideal_wavefronts;
  if (any_write_only) r.total_write_only = write_only;
  return r;
}

std::vector<std::pair<int, int>> sample_instructions(int warps, int steps, int budget) {
  std::vector<std::pair<int, int>> out;
  const std::int64_t total = std::int64_t{warps} * steps;
  if (total <= budget) {
    for (int w = 0; w < warps; ++w)
      for (int st = 0; st < steps; ++st) out.emplace_back(w, st);
    return out;
  }
  for (int st = 0; st < std::min(steps, budget / 2); ++st) out.emplace_back(0, st);
  std::uint64_t x = 0x9E3779B97F4A7C15ull;  // a fixed sequence: the same sample every run
  while (static_cast<int>(out.size()) < budget) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const std::int64_t i = static_cast<std::int64_t>(x % static_cast<std::uint64_t>(total));
    out.emplace_back(static_cast<int>(i / steps), static_cast<int>(i % steps));
  }
  out.emplace_back(warps - 1, steps - 1);
  return out;
}

namespace {
// One instruction (warp, step) under the table, checked; its lanes kept when `trace`, its request into `keep`.
InstructionResult one_instruction(const Access& a, const SharedLayout& s, int ebits, const BankModel& m, int warp, int step,
                                  bool trace, WarpRequest* keep) {
  const VectorChoice v = choose_vector(a, s, ebits, m);
  const Geometry g = geometry(a, v, ebits, m);
  if (warp < 0 || warp >= g.warps) fail("warp {} is outside 0..{}", warp, g.warps - 1);
  if (step < 0 || step >= g.steps) fail("step {} is outside 0..{}", step, g.steps - 1);
  InstructionResult ir;
  run_instruction(a, by_table(s), ebits, m, g, warp, step, trace, ir, keep);
  return ir;
}
}  // namespace

InstructionResult trace_instruction(const Access& a, const SharedLayout& s, int ebits, const BankModel& m, int warp, int step) {
  return one_instruction(a, s, ebits, m, warp, step, /*trace=*/true, nullptr);
}

std::vector<InstructionResult> simulate_linear(const Access& a, const BitMatrix& to_offset, int vec_log2, int ebits,
                                               const BankModel& m, const std::vector<std::pair<int, int>>& warp_steps) {
  check_access(a, m, ebits, /*max_in_bits=*/48);
  if (to_offset.cols() != a.layout.out_bits() || to_offset.rows() != a.layout.out_bits())
    fail("the address function has {}x{} bits; the access covers {} coordinate bits", to_offset.rows(), to_offset.cols(),
         a.layout.out_bits());
  if (to_offset.rows() > 32) fail("element offsets above 2^32 are not simulated");
  VectorChoice v;
  v.elements = 1 << vec_log2;
  v.bits = v.elements * ebits;
  const Geometry g = geometry(a, v, ebits, m);
  const auto offset_of = [&to_offset](BitVec coord) { return static_cast<std::uint32_t>(to_offset.apply(coord)); };
  std::vector<InstructionResult> out;
  out.reserve(warp_steps.size());
  for (auto [warp, step] : warp_steps) {
    if (warp < 0 || warp >= g.warps || step < 0 || step >= g.steps)
      fail("instruction (warp {}, step {}) is outside the access", warp, step);
    InstructionResult ir;
    run_instruction(a, offset_of, ebits, m, g, warp, step, false, ir);
    out.push_back(std::move(ir));
  }
  return out;
}

WarpRequest warp_request(const Access& a, const SharedLayout& s, int ebits, const BankModel& m, int warp, int step) {
  WarpRequest request;
  one_instruction(a, s, ebits, m, warp, step, /*trace=*/false, &request);
  return request;
}

}  // namespace swz
