#include "swz/sim/warp_access.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <map>

#include "swz/error.h"
#include "swz/sim/bank.h"
#include "swz/sim/gpu.h"

namespace swz {

std::string InstructionKind::name() const {
  switch (op) {
    case WarpOp::Load:
    case WarpOp::Store: {
      const char* base = op == WarpOp::Load ? "LDS" : "STS";
      return bytes < 4 ? fmt::format("{}.U{}", base, bytes * 8) : fmt::format("{}.{}", base, bytes * 8);
    }
    case WarpOp::LoadMatrix:
    case WarpOp::StoreMatrix:
      return fmt::format("{}.x{}{}", op == WarpOp::LoadMatrix ? "LDSM" : "STSM", matrices, trans ? ".trans" : "");
    case WarpOp::AsyncCopy:
      return fmt::format("LDGSTS.{}{}{}", bypass ? "BYPASS." : "", bytes * 8, src_size ? "" : ".NOZFILL");
  }
  return "?";
}

std::vector<InstructionKind> all_instruction_kinds() {
  std::vector<InstructionKind> kinds;
  for (WarpOp op : {WarpOp::Load, WarpOp::Store})
    for (int b : {1, 2, 4, 8, 16}) kinds.push_back({op, b, 0, false});
  for (WarpOp op : {WarpOp::LoadMatrix, WarpOp::StoreMatrix})
    for (int m : {1, 2, 4})
      for (bool t : {false, true}) kinds.push_back({op, 16, m, t});
  for (int b : {4, 8, 16}) kinds.push_back({WarpOp::AsyncCopy, b, 0, false});
  kinds.push_back({WarpOp::AsyncCopy, 16, 0, false, true});
  return kinds;
}

std::optional<InstructionKind> parse_instruction_kind(const std::string& name) {
  for (InstructionKind k : all_instruction_kinds()) {
    if (k.name() == name || (k.op == WarpOp::AsyncCopy && k.name() + ".ZFILL" == name)) return k;
    k.src_size = false;  // the same copy without the src-size operand
    if (k.op == WarpOp::AsyncCopy && k.name() == name) return k;
  }
  return std::nullopt;
}

// A wavefront moves banks x bank_bytes: a phase is as many lanes as that holds, so an instruction
// of distinct addresses costs at least (bytes it moves) / (bytes a wavefront moves). A matrix row
// is a lane's 16 bytes: 8 rows, one 8x8 matrix, a phase at 32 banks; 4 rows at 16 banks.
int phase_lanes(const InstructionKind& kind, const BankModel& model) {
  const int lane_bytes = std::max(kind.bytes, model.bank_bytes);
  return std::max(1, std::min(kind.addressed_lanes(model.warp_size), model.wavefront_bytes() / lane_bytes));
}

void check_request(const WarpRequest& r, const BankModel& model, std::int64_t shared_bytes) {
  check_bank_model(model);
  const InstructionKind& k = r.kind;
  const bool sizes_ok = k.is_matrix()               ? (k.bytes == 16 && (k.matrices == 1 || k.matrices == 2 || k.matrices == 4))
                        : k.op == WarpOp::AsyncCopy ? (k.bytes == 4 || k.bytes == 8 || k.bytes == 16)
                                                    : std::has_single_bit(static_cast<unsigned>(k.bytes)) && k.bytes <= 16;
  if (!sizes_ok) fail("{} bytes per lane is not an instruction the bank model knows", k.bytes);
  if (k.bypass && (k.op != WarpOp::AsyncCopy || k.bytes != 16)) fail("only a 16-byte cp.async can bypass L1 (cp.async.cg)");
  if (!k.src_size && k.op != WarpOp::AsyncCopy) fail("only a cp.async has a src-size operand to leave out");
  check_instruction(k, model);
  if (k.is_matrix() && model.warp_size != 32) fail("{} needs 32-lane warps", k.name());
  if (static_cast<int>(r.address.size()) != model.warp_size)
    fail("{} lane addresses given; the warp has {} lanes", r.address.size(), model.warp_size);
  for (std::size_t lane = 0; lane < r.address.size(); ++lane) {
    std::int64_t a = r.address[lane];
    if (a == -1) continue;
    if (a < 0 && k.op == WarpOp::AsyncCopy && !k.src_size)
      a = -2 - a;  // sits the copy out, holding shared offset X = -2 - a
    else if (a < 0)
      fail(
          "lane {}: address {} is negative (-1 marks an inactive lane; -2 - X a lane that sits out a cp.async without "
          "src-size holding shared offset X)",
          lane, a);
    if (a % k.bytes) fail("lane {}: address {} is not aligned to the {}-byte access of {}", lane, a, k.bytes, k.name());
    if (shared_bytes > 0 && a + k.bytes > shared_bytes)
      fail("lane {}: bytes {}..{} are outside the {} bytes of shared memory", lane, a, a + k.bytes - 1, shared_bytes);
  }
  if (r.global.empty()) return;
  if (k.op != WarpOp::AsyncCopy) fail("global source addresses belong to cp.async only, not {}", k.name());
  if (r.global.size() != r.address.size())
    fail("{} global source addresses given; the warp has {} lanes", r.global.size(), r.address.size());
  for (std::size_t lane = 0; lane < r.global.size(); ++lane) {
    const std::int64_t g = r.global[lane];
    if (g == -1) continue;
    const std::int64_t at = g < 0 ? -2 - g : g;  // -2 - X: moves no data, its pointer at X
    if (at % k.bytes) fail("lane {}: global address {} is not aligned to the {}-byte copy of {}", lane, at, k.bytes, k.name());
  }
}

namespace {

using Words = std::vector<std::uint64_t>;

void add_lane_words(Words& words, std::int64_t address, int bytes, const BankModel& m) {
  const auto first = static_cast<std::uint64_t>(address) / static_cast<std::uint64_t>(m.bank_bytes);
  const auto last =
      (static_cast<std::uint64_t>(address) + static_cast<std::uint64_t>(bytes) - 1) / static_cast<std::uint64_t>(m.bank_bytes);
  for (std::uint64_t w = first; w <= last; ++w) words.push_back(w);
}

void unique(Words& w) {
  std::sort(w.begin(), w.end());
  w.erase(std::unique(w.begin(), w.end()), w.end());
}

// Distinct words per bank of one pass, added to `bank_words`; returns the largest.
int pass_cost(const Words& words, const BankModel& m, std::vector<int>& bank_words) {
  std::vector<int> per_bank(static_cast<std::size_t>(m.banks), 0);
  for (std::uint64_t w : words) ++per_bank[static_cast<std::size_t>(w % static_cast<std::uint64_t>(m.banks))];
  for (std::size_t b = 0; b < per_bank.size(); ++b) bank_words[b] += per_bank[b];
  return words.empty() ? 0 : *std::max_element(per_bank.begin(), per_bank.end());
}

}  // namespace

namespace {

// True when every lane and its partner lane ^ `mask` read the same address
// (an inactive lane matches anything).
bool partners_share(const WarpRequest& r, int lanes, int mask) {
  for (int lane = 0; lane < lanes; ++lane) {
    const int other = lane ^ mask;
    if (other >= lanes) continue;
    const std::int64_t a = r.address[static_cast<std::size_t>(lane)], b = r.address[static_cast<std::size_t>(other)];
    if (a >= 0 && b >= 0 && a != b) return false;
  }
  return true;
}

}  // namespace

// The rules, as measured on the H100 (tests/data/hardware/, README "The bank model"):
//
//  1. Phases by lane id. A request is cut into groups of consecutive lanes that
//     each move at most one wavefront of data (banks x bank bytes: 128 bytes at
//     32 banks): all 32 lanes for accesses of 32 bits or less, 16 for 64-bit, 8
//     for 128-bit, and each 8x8 matrix (8 row addresses of 16 bytes) of
//     ldmatrix / stmatrix; at 16 banks half as many lanes, at 64 twice as many.
//  2. A phase costs the largest number of distinct words it needs from one
//     bank; lanes that read the same word share it (broadcast), lanes that
//     write it cost it once.
//  3. Paired lanes widen the phases of wide loads. When every lane reads the
//     same address as its neighbour lane ^ 1, or every lane the same address as
//     lane ^ 2 (inactive lanes match anything), a 64-bit or 128-bit load needs
//     only half the distinct requests, and its phases are twice as wide: one
//     phase of 32 lanes for LDS.64, two half-warps for LDS.128. No wider: a
//     128-bit load of one address for the whole warp still takes 2 wavefronts.
//     Stores, cp.async and ldmatrix / stmatrix never widen.
//  4. cp.async through L1 (.ca: LDGSTS.32, .64, .128) writes shared memory in
//     the store's phases, each lane once its global word has been read, and
//     the global words come through the same 32 banks (source bank: source
//     address / 4 mod 32, whatever the line), one lane of a source bank per
//     wavefront. A shared bank d takes every lane that writes it, one per
//     wavefront and none merged, and before the first of them can go, a source
//     bank s that feeds d may first serve all its lanes bound elsewhere:
//
//       phase cost = max over shared banks d of
//                    writes(d) + max over sources s feeding d of (reads(s) - reads(s) bound for d)
//
//     and a warp costs the sum of its phases. Example (4-byte copies, one
//     phase): lanes 0-3 read source banks 0,1,0,1 and write shared banks
//     0,1,1,0: bank 0 takes 2 writes, and its feeder source 0 has 1 lane bound
//     for bank 1: 3 wavefronts; with shared banks 0,1,0,1 instead, 2. A copy
//     that moves no data (src-size 0) reads nothing, and the rule is the store
//     rule without merging. Exact on every .ca copy measured: 6,250 on the H100
//     and an H200 (live, masked, half-masked; random, designed and tile
//     copies; tests/data/hardware/), the counter the same on both GPUs and from
//     run to run; and on 504 more on the H200 (2026-11-29), each designed copy
//     issued cold, after a load brought its lines into L1, and twice back to
//     back: L1's state does not change the count; and on 1,200 random copies
//     of a fresh seed (h200-sm90-ldgsts-seed20261129.jsonl). So 32 lanes copying 4 bytes
//     from a 16-byte-strided run cost 4, from rows 128 bytes apart 32, from 32
//     random lines of 1 MB about 4: the source banks serialize the copy, not
//     the lines.
//  5. cp.async around L1 (.cg: LDGSTS.BYPASS.128) writes shared memory in
//     wavefronts of 32-byte sectors. Lanes writing one 16-byte shared address
//     are kept once (the lowest lane). Lanes that read the same 16 bytes into
//     one 128-byte shared row, each to the same half of its 32-byte chunk as
//     the half of the sector it reads or each to the other, go in rounds from
//     the highest lane down, as a store's last lane wins: a lane's round is
//     how many lanes after it do so (0 for a lane whose 16 bytes no later
//     lane reads there), and units of two rounds never share a wavefront. In
//     a round, a sector's lanes that write one 32-byte shared chunk move as
//     one unit. Units can go together when they come from one 128-byte line
//     into one 128-byte shared row with the same 16-byte halves in the same
//     places, and a wavefront's units take their sectors (s, 0-3 in the line)
//     to bank groups (b, 0-3 in the row, 8 banks each) by one symmetry of the
//     square of four: a rotation (b = s + r mod 4) or a reflection
//     (b = r - s mod 4), one unit per sector. A unit fits one rotation and one
//     reflection; the count is the fewest wavefronts over those choices:
//
//       sectors = sum over (round, line, row, halves) of
//                 min over each unit's choice of sum over the 8 symmetries
//                 of the most units of one sector that chose it
//
//     Measured: 32 lanes copying 512 contiguous bytes to shared offset 144
//     (wrapping at 512: a rotation by one 16-byte slot) cost 12, 3 per line
//     (H100, h100-sm90-seed20261123.jsonl:1000); sectors 0 and 1 of a line
//     to bank groups 0 and 3 go in one wavefront (a reflection; H100,
//     h100-sm90-seed3.jsonl:6000). The XOR of sector and bank group (the rule
//     before, exact on every designed family) is the four symmetries that are
//     their own inverse; with the other four the misses on random copies went
//     from 148 to 15 (7 of them the XOR alone counted right; all 15 have two
//     lanes reading the same 16 bytes and measure 1 or 2 more). The rounds
//     (H200, 2026-11-29, h200-sm90-ldgsts-cgdup-20261129.jsonl): lanes 0 and
//     1 reading one 16 bytes into a row and lane 2 other bytes there, lane 2
//     shares a wavefront with lane 1 (the last reader) but never with lane
//     0; with lanes 2 and 3 reading a second 16 bytes, lanes 0 and 2 go
//     together and 1 and 3, not 0 and 3 or 1 and 2; lanes that read the
//     same bytes with their halves placed the other way, or into another
//     row, hold no lane back. A lane that moves no data counts as reading at
//     its pointer here too (h200-sm90-ldgsts-rerun-20261125-20261128.jsonl:
//     1392: two rows each with a lane copying global byte 0 and lanes that
//     move no data pointing there, 2 more than without rounds). Without
//     rounds 110 copies of the corpus missed, every one exact with them and
//     none exact before changed; then 376 copies drawn where the rounds and
//     two other readings part were measured (h200-sm90-ldgsts-cgrounds-
//     20261129.jsonl): all 376 exact, the rule before 50, counting every
//     held-back lane in one round 150.
//
//     Issued without the src-size operand (plain LDGSTS.E.BYPASS.128) a copy
//     costs `sectors`; with it (LDGSTS.E.BYPASS.128.ZFILL, as compilers emit a
//     masked copy) rule 4's count comes on top, and a lane that moves no data
//     (src-size 0) counts in both terms as reading wherever its pointer is.
//     So 32 lanes copying a contiguous 512 bytes to contiguous shared cost 4
//     (8 with src-size), each from a line of its own 32 (64). Measured on an
//     H200 (2026-11-28, README "cp.async .cg"): without src-size exact on the
//     602 designed copies whose lanes all move data and the 150 random ones;
//     with it on all 1,417. On the H100 every plain copy whose lanes all take
//     part (672), and all 418 with src-size. That reading of a lane that moves
//     no data is one of two a build gives (H200, 2026-11-29, experiments
//     zero-lanes and zfill): in other kernels such a lane only writes its
//     zeros, reading nothing and making no sector unit but keeping its 16-byte
//     slot (`write_only_wavefronts`, never more); each kernel counts one way in
//     every run and wherever its buffer lies, the bytes are zeros either way.
//     In every kernel measured the copies whose zero-fill predicate ptxas
//     made P0 count at the pointers (four kernels of three builds) and the
//     others (P1, P4, P6: four kernels of two builds, and calibrate's, P1
//     from nvcc 13.0) as writes only: all 988 copies of the committed probe's
//     runs (h200-sm90-ldgsts-calzero-20261129.jsonl, -zeroline-) and
//     calibrate's 169 such copies on both GPUs. The kind says
//     the form (src_size: LDGSTS.BYPASS.128,
//     the plain form LDGSTS.BYPASS.128.NOZFILL). A lane that sits out a plain
//     copy (its branch skips it) counts as copying from its pointer to the
//     shared offset its register holds (address -2 - X: holding X): 200 random
//     plain copies with 1 to 28 such lanes each, their registers computed
//     before any lane is left out, all exact (H200, 2026-11-29,
//     h200-sm90-ldgsts-cgheldx-20261129.jsonl; 100 src-size copies beside them
//     exact too, where such lanes do not count). What a lane that sits out
//     holds is the compiled code's: a build that computed the registers only
//     for the lanes that copy fit 29 of the 200 (experiments/README.md,
//     cg-held). Not modelled, and counted by the store rule with the reason in
//     the rule text: a src-size copy with a lane that moves no data whose
//     pointer is not known (global -1; -2 - X gives it), and a plain copy with
//     a lane that sits out without its registers (address -1).
//     Without the lanes' global addresses no cp.async is modelled.
namespace {

// Rule 5's wavefronts for units of one line and one row, each {sector, bank group} (0-3 each): a
// unit goes by its rotation (b - s) or its reflection (b + s), and a symmetry takes as many
// wavefronts as its most units of one sector. A row holds 8 distinct 16-byte addresses, so at
// most 8 units and 256 choices.
int symmetry_wavefronts(const std::vector<std::array<int, 2>>& members) {
  const auto n = static_cast<unsigned>(members.size());
  if (n > 8) fail("rule 5: {} sector units in one row, where a row holds 8 addresses", n);
  int best = static_cast<int>(n);
  for (unsigned choice = 0; choice < (1u << n); ++choice) {
    std::array<std::array<int, 4>, 8> per_sector{};  // [symmetry][sector]: 0-3 rotations, 4-7 reflections
    for (unsigned i = 0; i < n; ++i) {
      const auto [sector, group] = members[i];
      const bool reflect = (choice >> i) & 1u;
      const int symmetry = reflect ? 4 + (group + sector) % 4 : (group - sector + 4) % 4;
      ++per_sector[static_cast<std::size_t>(symmetry)][static_cast<std::size_t>(sector)];
    }
    int wavefronts = 0;
    for (const auto& counts : per_sector) wavefronts += *std::max_element(counts.begin(), counts.end());
    best = std::min(best, wavefronts);
  }
  return best;
}

// Rule 5's sectors' term: wavefronts that write the 32-byte sectors of a
// .cg copy's lanes into shared memory (32 banks of 4 bytes). `write_only`: a lane
// that moves no data takes its 16-byte slot and no unit (its pointer unused).
int bypass_sector_wavefronts(const WarpRequest& r, int lanes, bool write_only) {
  struct Copy {
    std::int64_t shared, source;  // byte addresses (source: at its pointer for a lane that moves no data)
    bool zero;                    // moves no data (src-size 0)
    bool crossed() const { return (source / 16) % 2 != (shared / 16) % 2; }
  };
  std::vector<Copy> copies;           // the lanes kept, in lane order
  std::vector<std::int64_t> written;  // 16-byte shared addresses already taken
  for (int lane = 0; lane < lanes; ++lane) {
    const std::int64_t a = r.address[static_cast<std::size_t>(lane)];
    if (a < 0 || std::find(written.begin(), written.end(), a / 16) != written.end()) continue;
    written.push_back(a / 16);
    const std::int64_t g = r.global[static_cast<std::size_t>(lane)];
    if (write_only && g < 0) continue;
    copies.push_back({a, g < 0 ? -2 - g : g, g < 0});
  }
  struct SectorUnit {
    std::int64_t sector, chunk;
    int round;       // lanes after its lanes that read their 16 bytes into their row, halves placed alike
    bool zero;       // lanes that move no data (src-size 0), at their pointer
    int half_to[2];  // shared half each source half goes to, -1: unused
  };
  std::vector<SectorUnit> units;
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const Copy& c = copies[i];
    const int in_round =
        static_cast<int>(std::count_if(copies.begin() + static_cast<std::ptrdiff_t>(i) + 1, copies.end(), [&](const Copy& later) {
          return later.source / 16 == c.source / 16 && later.shared / 128 == c.shared / 128 && later.crossed() == c.crossed();
        }));
    const int gh = static_cast<int>((c.source / 16) % 2), sh = static_cast<int>((c.shared / 16) % 2);
    auto it = std::find_if(units.begin(), units.end(), [&](const SectorUnit& u) {
      return u.sector == c.source / 32 && u.chunk == c.shared / 32 && u.round == in_round && u.zero == c.zero &&
             u.half_to[gh] < 0;
    });
    if (it == units.end()) it = units.insert(units.end(), SectorUnit{c.source / 32, c.shared / 32, in_round, c.zero, {-1, -1}});
    it->half_to[gh] = sh;
  }
  // Units that can share a wavefront: one round, one line, one row, the same halves. Each is
  // (sector in its line, bank group in its row).
  std::map<std::array<std::int64_t, 5>, std::vector<std::array<int, 2>>> classes;
  for (const SectorUnit& u : units)
    classes[{u.round, u.sector / 4, u.chunk / 4, u.half_to[0], u.half_to[1]}].push_back(
        {static_cast<int>(u.sector % 4), static_cast<int>(u.chunk % 4)});
  int cost = 0;
  for (const auto& [key, members] : classes) cost += symmetry_wavefronts(members);
  return cost;
}

// Why rule 5 cannot price a .cg copy (empty: it can): what the hardware counts is not in the request.
std::string bypass_unknown(const WarpRequest& r, int lanes) {
  for (int lane = 0; lane < lanes; ++lane) {
    const std::int64_t a = r.address[static_cast<std::size_t>(lane)], g = r.global[static_cast<std::size_t>(lane)];
    if (!r.kind.src_size && (a == -1 || g < 0))
      return fmt::format(
          "lane {} sits out a copy without src-size, and counts at whatever its registers hold, not given (address -2 - X "
          "and its pointer: holding shared offset X)",
          lane);
    if (a >= 0 && g == -1)
      return fmt::format("lane {} moves no data and counts where its pointer points, not given (-2 - X: at X)", lane);
  }
  return "";
}

// Rule 4 (and 5) at serve(): one cp.async.
Service serve_async_copy(const WarpRequest& r, const BankModel& m, Service s, int lanes) {
  const InstructionKind& k = r.kind;
  s.phases = (lanes + s.lanes_per_phase - 1) / s.lanes_per_phase;
  s.rule = "cp.async: each shared bank's writes after its sources' other lanes";
  const auto banks = static_cast<std::size_t>(m.banks);
  const int words = std::max(1, k.bytes / m.bank_bytes);
  auto bank_of = [&](std::int64_t address, int i) { return static_cast<std::size_t>((address / m.bank_bytes + i) % m.banks); };
  s.worst_pass_bank_words.assign(banks, 0);
  // Rule 4's count; `zero_reads`: a .cg lane that moves no data reads at its pointer (else it only
  // writes). `fill`: the service whose passes and banks it records.
  auto rule4 = [&](bool zero_reads, Service* fill) {
    int total = 0, worst = -1;
    for (int first = 0; first < lanes; first += s.lanes_per_phase) {
      std::vector<int> writes(banks, 0), reads(banks, 0);
      std::vector<int> feeds(banks * banks, 0);  // feeds[source * banks + shared]: lanes reading one, writing the other
      bool any = false;
      for (int lane = first; lane < std::min(lanes, first + s.lanes_per_phase); ++lane) {
        const std::int64_t a = r.address[static_cast<std::size_t>(lane)];
        if (a < 0) continue;
        any = true;
        std::int64_t g = r.global[static_cast<std::size_t>(lane)];
        for (int i = 0; i < words; ++i) ++writes[bank_of(a, i)];
        if (g < 0 && (!k.bypass || !zero_reads)) continue;  // moves no data: reads nothing
        if (g < 0) g = -2 - g;                              // .cg: counted where its pointer is
        for (int i = 0; i < words; ++i) {
          ++reads[bank_of(g, i)];
          for (int j = 0; j < words; ++j) ++feeds[bank_of(g, i) * banks + bank_of(a, j)];
        }
      }
      int cost = 0;
      for (std::size_t d = 0; d < banks; ++d) {
        if (!writes[d]) continue;
        int wait = 0;  // lanes a feeding source bank may serve first, bound elsewhere
        for (std::size_t src = 0; src < banks; ++src)
          if (const int f = feeds[src * banks + d]) wait = std::max(wait, reads[src] - f);
        cost = std::max(cost, writes[d] + wait);
        if (fill) fill->bank_words[d] += writes[d];
      }
      total += cost;
      if (!fill) continue;
      if (cost > worst) {
        worst = cost;
        fill->worst_pass_bank_words = writes;
      }
      fill->pass_wavefronts.push_back(cost);
      fill->ideal += any ? 1 : 0;
    }
    return total;
  };
  s.wavefronts += rule4(true, &s);
  if (k.bypass) {  // rule 5: the sectors' writes, and rule 4's count on top for the src-size form
    const int sectors = bypass_sector_wavefronts(r, lanes, false);
    std::vector<std::int64_t> chunks;  // 16-byte shared addresses written: 8 a wavefront at best
    for (int lane = 0; lane < lanes; ++lane)
      if (const std::int64_t a = r.address[static_cast<std::size_t>(lane)]; a >= 0) chunks.push_back(a / 16);
    std::sort(chunks.begin(), chunks.end());
    const int least = static_cast<int>((std::unique(chunks.begin(), chunks.end()) - chunks.begin() + 7) / 8);
    if (k.src_size) {
      s.rule = fmt::format("rule 5 (.cg with src-size): {} by the sources' banks + {} sectors", s.wavefronts, sectors);
      s.wavefronts += sectors;
      s.ideal += least;
      bool moves_nothing = false;
      for (std::size_t lane = 0; lane < static_cast<std::size_t>(lanes); ++lane)
        moves_nothing = moves_nothing || (r.address[lane] >= 0 && r.global[lane] < 0);
      if (moves_nothing) {
        s.write_only_wavefronts = rule4(false, nullptr) + bypass_sector_wavefronts(r, lanes, true);
        s.rule += fmt::format(" with the lanes that move no data reading at their pointers; {} where they only write",
                              s.write_only_wavefronts);
      }
    } else {
      s.rule = fmt::format("rule 5 (.cg without src-size): {} sectors", sectors);
      s.wavefronts = sectors;
      s.ideal = least;
      s.pass_wavefronts.clear();
    }
    s.pass_wavefronts.push_back(sectors);
  }
  return s;
}

}  // namespace

Service serve(const WarpRequest& r, const BankModel& model) {
  const InstructionKind& k = r.kind;
  Service s;
  const InstructionBanks served = instruction_banks(k, model);
  const BankModel& m = served.bank;  // the instruction's banks (gfx950's ds_write_b64: 32 of its 64)
  LanePhases phases = served.phases;
  s.lanes_per_phase = phases.lanes_per_phase;
  s.bank_words.assign(static_cast<std::size_t>(m.banks), 0);
  const int lanes = std::min(static_cast<int>(r.address.size()), k.addressed_lanes(m.warp_size));
  s.rule = phases.contiguous() ? "phases by lane id" : "phases by lane id (cosets of lane bits, not runs)";
  if (gpu_of(m).paired_lane_loads && k.op == WarpOp::Load && k.bytes > m.bank_bytes && s.lanes_per_phase < lanes &&
      (partners_share(r, lanes, 1) || partners_share(r, lanes, 2))) {
    s.lanes_per_phase *= 2;
    phases = contiguous_phases(s.lanes_per_phase);
    s.merged = true;
    s.rule = "paired lanes: phases twice as wide";
  }
  if (k.op == WarpOp::AsyncCopy) {
    // A lane that sits out a copy without src-size holding shared offset X (-2 - X): a .cg copy counts
    // it as copying from its pointer to X, a .ca copy not at all.
    const bool holds = std::any_of(r.address.begin(), r.address.end(), [](std::int64_t a) { return a < -1; });
    WarpRequest held;
    if (holds) {
      held = r;
      for (std::size_t lane = 0; lane < held.address.size(); ++lane) {
        std::int64_t& a = held.address[lane];
        if (a >= -1) continue;
        const bool counts = k.bypass && lane < held.global.size() && held.global[lane] >= 0;
        a = counts ? -2 - a : -1;
      }
    }
    const WarpRequest& q = holds ? held : r;
    const std::string unknown = q.global.empty() || !k.bypass ? "" : bypass_unknown(q, lanes);
    if (!q.global.empty() && (!k.bypass || (m.banks == 32 && m.bank_bytes == 4)) && unknown.empty())
      return serve_async_copy(q, m, s, lanes);
    s.modelled = false;
    if (!unknown.empty() && k.src_size && m.banks == 32 && m.bank_bytes == 4) {
      // Lanes that move no data whose pointers are not given: where they only write, the count
      // does not need them.
      WarpRequest anywhere = q;
      for (std::int64_t& g : anywhere.global) g = g == -1 ? -2 : g;
      s.write_only_wavefronts = serve_async_copy(anywhere, m, s, lanes).write_only_wavefronts;
    }
    if (r.global.empty()) {
      s.rule = "cp.async: not modelled without the lanes' global addresses; the store rule's count";
    } else if (!unknown.empty()) {
      s.rule = "cp.async.cg: not modelled (" + unknown + "); the store rule's count" +
               (s.write_only_wavefronts >= 0
                    ? fmt::format(" ({} where the lanes that move no data only write)", s.write_only_wavefronts)
                    : "");
    } else {
      s.rule = "cp.async.cg: not modelled but at 32 banks of 4 bytes; the store rule's count";
    }
  }
  s.phases = (lanes + s.lanes_per_phase - 1) / s.lanes_per_phase;
  std::vector<Words> phase_words(static_cast<std::size_t>(s.phases));
  const bool contiguous = phases.contiguous();
  for (int lane = 0; lane < lanes; ++lane) {
    const std::int64_t a = r.address[static_cast<std::size_t>(lane)];
    if (a < 0) continue;
    const int phase = contiguous ? lane / s.lanes_per_phase : phases.phase_of(lane);
    add_lane_words(phase_words[static_cast<std::size_t>(phase)], a, k.bytes, m);
  }
  s.worst_pass_bank_words.assign(static_cast<std::size_t>(m.banks), 0);
  int worst = -1;
  for (Words& words : phase_words) {
    unique(words);
    std::vector<int> this_pass(static_cast<std::size_t>(m.banks), 0);
    const int c = pass_cost(words, m, this_pass);
    for (std::size_t b = 0; b < this_pass.size(); ++b) s.bank_words[b] += this_pass[b];
    if (c > worst) {
      worst = c;
      s.worst_pass_bank_words = this_pass;
    }
    s.pass_wavefronts.push_back(c);
    s.wavefronts += c;
    s.ideal += words.empty() ? 0 : 1;
  }
  return s;
}

InstructionKind instruction_kind_named(const std::string& name) {
  if (const auto kind = parse_instruction_kind(name)) return *kind;
  std::string known;
  for (const InstructionKind& k : all_instruction_kinds()) known += (known.empty() ? "" : ", ") + k.name();
  fail("\"{}\" is not an instruction; known: {}", name, known);
}

WarpRequest lane_pair_request(const InstructionKind& kind, int lanes, int first, int second, std::int64_t apart) {
  if (first < 0 || second < 0 || first >= lanes || second >= lanes || first == second)
    fail("a lane pair is two different lanes of 0..{}, not {} and {}", lanes - 1, first, second);
  WarpRequest r;
  r.kind = kind;
  r.address.assign(static_cast<std::size_t>(lanes), -1);
  r.address[static_cast<std::size_t>(first)] = 0;
  r.address[static_cast<std::size_t>(second)] = apart;
  return r;
}

}  // namespace swz
