#include "swz/sim/global_side.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <set>

#include "swz/error.h"

namespace swz {

namespace {

// The bytes between rows of a pitch-placed global tensor (bank.cpp's placement).
std::int64_t copy_row_pitch(const Access& a, int ebits) {
  const auto& dims = a.layout.out_dims();
  const std::int64_t row_bytes =
      (std::int64_t{1} << dims[static_cast<std::size_t>(a.global_contiguous_dim)].log2_size) * ebits / 8;
  return global_row_pitch(row_bytes, a.global_pitch_bytes);
}

// Registers 0..k-1 as the pitch places them: each register bit i < k one element up the contiguous
// dim and nothing else, every other input bit leaving the low k bits of that dim alone (so a group
// never straddles), rows a multiple of the vector's bytes apart.
bool pitch_vector_fits(const Access& a, int ebits, int k) {
  const auto regs = a.layout.bases("register");
  if (k > static_cast<int>(regs.size())) return false;
  const auto dim = static_cast<std::size_t>(a.global_contiguous_dim);
  for (int i = 0; i < k; ++i) {
    const Coords c = a.layout.unflatten(regs[static_cast<std::size_t>(i)]);
    for (std::size_t d = 0; d < c.size(); ++d)
      if (c[d] != (d == dim ? (std::int64_t{1} << i) : 0)) return false;
  }
  const std::int64_t low = (std::int64_t{1} << k) - 1;
  for (const auto& in : a.layout.in_dims()) {
    const auto& bases = a.layout.bases(in.name);
    for (std::size_t i = in.name == "register" ? static_cast<std::size_t>(k) : 0; i < bases.size(); ++i)
      if (a.layout.unflatten(bases[i])[dim] & low) return false;
  }
  const std::int64_t vector_bytes = (std::int64_t{1} << k) * ebits / 8;
  return vector_bytes <= 1 || copy_row_pitch(a, ebits) % vector_bytes == 0;
}

// The same by enumeration, for addresses given element by element: every group of 2^k registers
// (the low k flat input bits) holds consecutive elements from an aligned base. The layout is
// linear, so the high input bits are walked in Gray code order, one basis XOR a step, and a
// group's members sit at the base's flat output XOR the low bits' own.
bool listed_vector_fits(const Access& a, int ebits, int k) {
  if (k > a.layout.in_dim_bits("register")) return false;
  const std::int64_t elem_bytes = std::max(1, ebits / 8);
  const std::int64_t vector_bytes = (std::int64_t{1} << k) * ebits / 8;
  const std::vector<std::int64_t>& bytes = *a.global_bytes;
  std::vector<BitVec> member(std::size_t{1} << k);  // flat outputs of the low bits' values
  for (std::size_t j = 1; j < member.size(); ++j) member[j] = a.layout.apply_flat(j);
  const int high = a.layout.in_bits() - k;
  std::vector<BitVec> column(static_cast<std::size_t>(high));
  for (int b = 0; b < high; ++b) column[static_cast<std::size_t>(b)] = a.layout.apply_flat(BitVec{1} << (b + k));
  BitVec flat = 0;  // the flat output of the group base (Gray code i, shifted past the low k bits)
  for (BitVec i = 0; i < (BitVec{1} << high); ++i) {
    if (i) flat ^= column[static_cast<std::size_t>(std::countr_zero(i))];
    const std::int64_t base = bytes[flat];
    if (vector_bytes > 1 && base % vector_bytes) return false;
    for (std::size_t j = 1; j < member.size(); ++j)
      if (bytes[flat ^ member[j]] != base + static_cast<std::int64_t>(j) * elem_bytes) return false;
  }
  return true;
}

}  // namespace

int global_vector_log2(const Access& a, int ebits, int most_log2) {
  int k = 0;
  while (k < most_log2 && (a.global_bytes ? listed_vector_fits(a, ebits, k + 1) : pitch_vector_fits(a, ebits, k + 1))) ++k;
  return k;
}

int global_vector_bits(const Access& a, int ebits) {
  return (1 << global_vector_log2(a, ebits, std::countr_zero(128u / static_cast<unsigned>(ebits)))) * ebits;
}

GlobalRequests global_requests(const Access& a, const SharedLayout& shared, int ebits, const BankModel& model) {
  if (!a.async_copy) fail("only a cp.async side reads global memory here");
  const AccessResult r = simulate(a, shared, ebits, model);
  GlobalRequests g;
  g.instructions = r.instructions();
  std::int64_t lines = 0;
  const auto sample = sample_instructions(r.warps, r.steps, AccessResult::kFullSimulation);
  for (const auto& [warp, step] : sample) {
    const WarpRequest q = warp_request(a, shared, ebits, model, warp, step);
    std::set<std::int64_t> sectors, line_set;
    for (std::int64_t at : q.global)
      if (at >= 0)
        for (std::int64_t b = at; b < at + q.kind.bytes; b += 32) {
          sectors.insert(b / 32);
          line_set.insert(b / 128);
        }
    g.total_sectors += static_cast<std::int64_t>(sectors.size());
    lines += static_cast<std::int64_t>(line_set.size());
    g.worst_sectors = std::max(g.worst_sectors, static_cast<int>(sectors.size()));
    const int active = static_cast<int>(std::count_if(q.address.begin(), q.address.end(), [](std::int64_t x) { return x >= 0; }));
    g.ideal_sectors = std::max(g.ideal_sectors, std::max(1, active * q.kind.bytes / 32));
  }
  const auto sampled = static_cast<double>(std::max<std::size_t>(1, sample.size()));
  g.sectors_per_request = static_cast<double>(g.total_sectors) / sampled;
  g.lines_per_request = static_cast<double>(lines) / sampled;
  g.total_sectors = static_cast<std::int64_t>(g.sectors_per_request * g.instructions + 0.5);  // the sample's mean x instructions
  return g;
}

CopyTrace copy_trace(const WarpRequest& r, const BankModel& m) {
  CopyTrace t;
  const InstructionKind& k = r.kind;
  if (k.op != WarpOp::AsyncCopy) fail("{} is no cp.async: it reads no global memory", k.name());
  t.modelled = !k.bypass && !r.global.empty();
  const int per_phase = phase_lanes(k, m);
  const int lanes = std::min(static_cast<int>(r.address.size()), k.addressed_lanes(m.warp_size));
  const int words = std::max(1, k.bytes / m.bank_bytes);
  const auto banks = static_cast<std::size_t>(m.banks);
  auto bank_of = [&](std::int64_t address, int i) { return static_cast<std::size_t>((address / m.bank_bytes + i) % m.banks); };
  std::set<std::int64_t> lines, sectors;
  for (int first = 0; first < lanes; first += per_phase) {
    const int phase = first / per_phase;
    std::vector<int> writes(banks, 0), reads(banks, 0), seen(banks, 0);
    std::vector<int> feeds(banks * banks, 0);  // feeds[source * banks + shared], as serve() counts them
    const std::size_t first_lane = t.lanes.size();
    for (int lane = first; lane < std::min(lanes, first + per_phase); ++lane) {
      CopyLane c;
      c.lane = lane;
      c.phase = phase;
      const std::int64_t a = r.address[static_cast<std::size_t>(lane)];
      const std::int64_t g = r.global.empty() ? -1 : r.global[static_cast<std::size_t>(lane)];
      if (a >= 0) {
        c.shared_bank = static_cast<int>(bank_of(a, 0));
        for (int i = 0; i < words; ++i) ++writes[bank_of(a, i)];
      }
      if (a >= 0 && g >= 0) {
        c.global = g;
        c.line = g / 128;
        c.sector = g / 32;
        c.source_bank = static_cast<int>(bank_of(g, 0));
        c.read_turn = ++seen[bank_of(g, 0)];
        for (std::int64_t b = g; b < g + k.bytes; b += 32) sectors.insert(b / 32);
        lines.insert(g / 128);
        for (int i = 0; i < words; ++i) {
          ++reads[bank_of(g, i)];
          for (int j = 0; j < words; ++j) ++feeds[bank_of(g, i) * banks + bank_of(a, j)];
        }
      }
      t.lanes.push_back(c);
    }
    for (std::size_t i = first_lane; i < t.lanes.size(); ++i)
      if (t.lanes[i].source_bank >= 0) t.lanes[i].reads_of_source = seen[static_cast<std::size_t>(t.lanes[i].source_bank)];
    int cost = 0;
    for (std::size_t d = 0; d < banks; ++d) {
      if (!writes[d]) continue;
      CopyBankTurns b;
      b.phase = phase;
      b.shared_bank = static_cast<int>(d);
      b.writes = writes[d];
      for (std::size_t src = 0; src < banks; ++src)
        if (const int f = feeds[src * banks + d]; f && reads[src] - f > b.wait) {
          b.wait = reads[src] - f;
          b.waited_on = static_cast<int>(src);
        }
      cost = std::max(cost, b.cost());
      t.banks.push_back(b);
    }
    t.phase_wavefronts.push_back(cost);
  }
  t.lines = static_cast<int>(lines.size());
  t.sectors = static_cast<int>(sectors.size());
  return t;
}

std::int64_t global_row_pitch(std::int64_t row_bytes, std::int64_t pitch_bytes) {
  return pitch_bytes > 0 ? pitch_bytes : std::max<std::int64_t>(128, (row_bytes + 127) / 128 * 128);
}

std::string copy_cache_name(const Access& a, int vec_bits) { return instruction_kind(a, vec_bits).bypass ? ".cg" : ".ca"; }

nlohmann::json global_side_json(const Access& a, const SharedLayout& shared, int ebits, const BankModel& model,
                                const std::string& placement) {
  const AccessResult r = simulate(a, shared, ebits, model);
  const GlobalRequests g = global_requests(a, shared, ebits, model);
  nlohmann::json j;
  j["cache"] = copy_cache_name(a, r.vector.bits);
  j["placement"] = placement;
  if (a.global_bytes) {
    j["layout"] = true;
  } else {
    j["contiguous_dim"] = a.global_contiguous_dim;
    j["pitch_bytes"] = copy_row_pitch(a, ebits);
  }
  j["sectors_per_request"] = g.sectors_per_request;
  j["worst_sectors_per_request"] = g.worst_sectors;
  j["ideal_sectors_per_request"] = g.ideal_sectors;
  j["lines_per_request"] = g.lines_per_request;
  j["total_sectors"] = g.total_sectors;
  return j;
}

std::string global_side_text(const Access& a, const SharedLayout& shared, int ebits, const BankModel& model,
                             const std::string& placement) {
  const AccessResult r = simulate(a, shared, ebits, model);
  const GlobalRequests g = global_requests(a, shared, ebits, model);
  std::string text = fmt::format("global side: {}; cp.async{}; {:.1f} sectors per request (ideal {}, worst {}), {:.1f} lines", placement,
                                 copy_cache_name(a, r.vector.bits), g.sectors_per_request, g.ideal_sectors, g.worst_sectors,
                                 g.lines_per_request);
  if (!r.modelled) text += "; .cg's shared write is not modelled: the count is the store rule's";
  return text;
}

}  // namespace swz
