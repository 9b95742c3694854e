// triton_convert.cpp: Triton 3.6's convert_layout through shared memory (triton_convert.h).
//
// Index:
//   [SECTION] F2 helpers        echelon forms with the lowest set bit as pivot, as Triton's
//   [SECTION] Layouts           flat register / lane / warp bases and their preimages
//   [SECTION] Scratch layout    candidate tiles, segment, bank, reps; the ld/st fallback
//   [SECTION] Lowering          per side: the instructions issued and their wavefronts
#include "swz/kernel/triton_convert.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <utility>
#include <vector>

#include "bits.h"
#include "swz/error.h"

namespace swz {

namespace {

using Bases = std::vector<BitVec>;

using kernel_bits::log2_of;
using kernel_bits::lowest_bit;
bool contains(const Bases& list, BitVec v) { return std::find(list.begin(), list.end(), v) != list.end(); }

// [SECTION] F2 helpers

// Fully reduced rows: each row's lowest set bit is its pivot and no other row has it. The pivot
// set (and so the complement and the nullspace below) does not depend on the rows' order.
Bases reduced_rows(const Bases& vectors) {
  Bases rows;
  for (BitVec v : vectors) {
    for (BitVec r : rows)
      if ((v >> lowest_bit(r)) & 1u) v ^= r;
    if (!v) continue;
    for (BitVec& r : rows)
      if ((r >> lowest_bit(v)) & 1u) r ^= v;
    rows.push_back(v);
  }
  return rows;
}

std::vector<bool> pivots(const Bases& rows, int dim) {
  std::vector<bool> is_pivot(static_cast<std::size_t>(dim), false);
  for (BitVec r : rows) is_pivot[static_cast<std::size_t>(lowest_bit(r))] = true;
  return is_pivot;
}

// Vectors orthogonal to all of `vectors`, one per free column, in column order.
Bases nullspace(const Bases& vectors, int dim) {
  const Bases rows = reduced_rows(vectors);
  const std::vector<bool> is_pivot = pivots(rows, dim);
  Bases out;
  for (int col = 0; col < dim; ++col) {
    if (is_pivot[static_cast<std::size_t>(col)]) continue;
    BitVec v = BitVec{1} << col;
    for (BitVec r : rows)
      if ((r >> col) & 1u) v ^= BitVec{1} << lowest_bit(r);
    out.push_back(v);
  }
  return out;
}

// span(a) ∩ span(b). For unit vectors (the usual case) it keeps a's order, which the heuristics
// below rely on; otherwise the order is the nullspace construction's.
Bases intersection(const Bases& a, const Bases& b, int dim) {
  if (std::all_of(a.begin(), a.end(), std::has_single_bit<BitVec>) &&
      std::all_of(b.begin(), b.end(), std::has_single_bit<BitVec>)) {
    Bases out;
    for (BitVec v : a)
      if (contains(b, v)) out.push_back(v);
    return out;
  }
  Bases joint = nullspace(a, dim);
  const Bases nb = nullspace(b, dim);
  joint.insert(joint.end(), nb.begin(), nb.end());
  return nullspace(joint, dim);
}

// Unit vectors of the non-pivot columns: they complete span(basis) to the whole space.
Bases complement(const Bases& basis, int dim) {
  const std::vector<bool> is_pivot = pivots(reduced_rows(basis), dim);
  Bases out;
  for (int col = 0; col < dim; ++col)
    if (!is_pivot[static_cast<std::size_t>(col)]) out.push_back(BitVec{1} << col);
  return out;
}

Bases without(const Bases& list, const Bases& drop) {
  Bases out;
  for (BitVec v : list)
    if (!contains(drop, v)) out.push_back(v);
  return out;
}

// [SECTION] Layouts

// A distributed layout as flat bases; registers that repeat data are gone (Triton drops them
// before anything else, and restores the copies after the load).
struct Flat {
  Bases reg, lane, warp;
  int dim = 0;
  Bases rounds = {};  // in scratch offsets (in_offsets): the registers that pick the round, taken out of `reg`
  BitVec at(std::uint64_t lane_id, std::uint64_t warp_id) const {
    BitVec v = 0;
    for (std::size_t i = 0; i < lane.size(); ++i)
      if ((lane_id >> i) & 1u) v ^= lane[i];
    for (std::size_t i = 0; i < warp.size(); ++i)
      if ((warp_id >> i) & 1u) v ^= warp[i];
    return v;
  }
};

Flat flat_of(const LinearLayout& l) {
  for (BitVec b : l.bases("block"))
    if (b) fail("the conversion moves data between CTAs, which Triton 3.6 does not lower through shared memory");
  Flat f;
  for (BitVec b : l.bases("register"))
    if (b) f.reg.push_back(b);
  f.lane = l.bases("lane");
  f.warp = l.bases("warp");
  f.dim = l.out_bits();
  return f;
}

// Which register / lane / warp bits of `a` hold a given coordinate: the preimage that uses only
// the first independent inputs (registers, then lanes, then warps), others left at zero.
class Preimage {
 public:
  explicit Preimage(const Flat& a) : regs_(static_cast<int>(a.reg.size())), lanes_(static_cast<int>(a.lane.size())) {
    Bases inputs = a.reg;
    inputs.insert(inputs.end(), a.lane.begin(), a.lane.end());
    inputs.insert(inputs.end(), a.warp.begin(), a.warp.end());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      BitVec v = inputs[i], which = BitVec{1} << i;
      for (const auto& [r, w] : rows_)
        if ((v >> lowest_bit(r)) & 1u) v ^= r, which ^= w;
      if (!v) continue;
      for (auto& [r, w] : rows_)
        if ((r >> lowest_bit(v)) & 1u) r ^= v, w ^= which;
      rows_.emplace_back(v, which);
    }
  }
  // Input bits (registers lowest); nullopt when the coordinate is not held at all.
  std::optional<BitVec> of(BitVec coord) const {
    BitVec which = 0;
    for (const auto& [r, w] : rows_)
      if ((coord >> lowest_bit(r)) & 1u) coord ^= r, which ^= w;
    if (coord) return std::nullopt;
    return which;
  }
  BitVec register_part(BitVec in) const { return in & low_bits(regs_); }
  BitVec lane_part(BitVec in) const { return (in >> regs_) & low_bits(lanes_); }

 private:
  int regs_, lanes_;
  std::vector<std::pair<BitVec, BitVec>> rows_;
};

// [SECTION] Scratch layout

// A memory instruction's 16-byte tile: lanes that hold consecutive 32-bit words (`contiguous`)
// and lanes that give the row addresses of one phase (`address`).
struct Tile {
  std::vector<int> contiguous, address;
};
const Tile kLdSt{{}, {0, 1, 2}};
const Tile kMatrix{{0, 1}, {2, 3, 4}};
const Tile kMatrixTrans{{2, 3, 4}, {0, 1}};

struct Scratch {
  Bases vector, bank, segment, reps;
  Bases offsets() const {
    Bases all = vector;
    for (const Bases* part : {&bank, &segment, &reps}) all.insert(all.end(), part->begin(), part->end());
    return all;
  }
};

// The tile shared by `a` (n_reg_a registers, then lanes `lanes_a`) and `b`, or nullopt.
std::optional<Bases> shared_tile(const Flat& a, const Flat& b, int n_reg_a, int n_reg_b, const std::vector<int>& lanes_a,
                                 const std::vector<int>& lanes_b) {
  if (n_reg_a < n_reg_b) return shared_tile(b, a, n_reg_b, n_reg_a, lanes_b, lanes_a);
  Bases tile = intersection(a.reg, b.reg, a.dim);
  if (static_cast<int>(tile.size()) < n_reg_b) return std::nullopt;
  tile.resize(static_cast<std::size_t>(n_reg_b));
  for (int i : lanes_a)
    if (i >= static_cast<int>(a.lane.size()) || !a.lane[static_cast<std::size_t>(i)]) return std::nullopt;
  for (int i : lanes_b)
    if (i >= static_cast<int>(b.lane.size()) || !b.lane[static_cast<std::size_t>(i)]) return std::nullopt;
  const Preimage in_a(a);
  // b's first contiguous lanes must be registers of a, the rest exactly a's contiguous lanes.
  for (int i = 0; i < n_reg_a - n_reg_b; ++i) {
    const auto p = in_a.of(b.lane[static_cast<std::size_t>(lanes_b[static_cast<std::size_t>(i)])]);
    if (!p || !in_a.register_part(*p)) return std::nullopt;
  }
  const std::size_t skip = lanes_b.size() - lanes_a.size();
  for (std::size_t k = 0; k < lanes_a.size(); ++k) {
    const auto p = in_a.of(b.lane[static_cast<std::size_t>(lanes_b[skip + k])]);
    if (!p || in_a.lane_part(*p) != (BitVec{1} << lanes_a[k])) return std::nullopt;
  }
  for (int i : lanes_b) tile.push_back(b.lane[static_cast<std::size_t>(i)]);
  return tile;
}

// Segment bits: free unit coordinates first, then writer-only ^ reader-only pairs, and only when
// short of those, bits that conflict on one side.
Bases segment_bits(const Bases& bank_src, const Bases& bank_dst, int dim, int length) {
  auto in = [](const Bases& s, BitVec v) { return v && contains(s, v); };
  Bases seg;
  for (int b = 0; b < dim; ++b)
    if (!in(bank_src, BitVec{1} << b) && !in(bank_dst, BitVec{1} << b)) seg.push_back(BitVec{1} << b);
  if (static_cast<int>(seg.size()) >= length) {
    seg.resize(static_cast<std::size_t>(length));
    return seg;
  }
  Bases only_src, only_dst;
  for (BitVec v : bank_src)
    if (v && !in(bank_dst, v) && !contains(only_src, v)) only_src.push_back(v);
  for (BitVec v : bank_dst)
    if (v && !in(bank_src, v) && !contains(only_dst, v)) only_dst.push_back(v);
  if (only_src.size() > only_dst.size()) std::swap(only_src, only_dst);
  std::sort(only_src.begin(), only_src.end());
  std::sort(only_dst.begin(), only_dst.end());
  const int a = static_cast<int>(only_src.size());
  const int conflicted = std::min(std::max(0, length - a - static_cast<int>(seg.size())), a);
  for (int i = conflicted; i < a; ++i)
    seg.push_back(only_src[static_cast<std::size_t>(i)] ^ only_dst[static_cast<std::size_t>(i)]);
  seg.insert(seg.end(), only_src.begin(), only_src.begin() + conflicted);
  seg.insert(seg.end(), only_dst.begin(), only_dst.begin() + conflicted);
  if (static_cast<int>(seg.size()) > length) seg.resize(static_cast<std::size_t>(length));
  return seg;
}

Scratch build_scratch(const Flat& src, const Flat& dst, int bits, const Bases& vec, const Bases& tile_src, const Bases& tile_dst,
                      int keep_in_segment = 0) {
  const int dim = src.dim;
  const int v = static_cast<int>(vec.size());
  // One row of the 32 banks is 1024 bits.
  const int bank_len = std::min(std::max(0, log2_of(1024 / ((std::int64_t{1} << v) * bits))), dim - v);
  Bases bank_src = vec, bank_dst = vec;
  bank_src.insert(bank_src.end(), tile_src.begin(), tile_src.end());
  bank_dst.insert(bank_dst.end(), tile_dst.begin(), tile_dst.end());
  const Bases seg = segment_bits(bank_src, bank_dst, dim, dim - bank_len - v);
  Bases vec_seg = vec;
  vec_seg.insert(vec_seg.end(), seg.begin(), seg.end());
  Scratch s;
  s.vector = vec;
  s.bank = complement(vec_seg, dim);
  // A segment bit that is a register on both sides is a round of its own, except the first
  // `keep_in_segment` of them: those stay in one round so that a matrix instruction on both
  // sides can still move four (or two) matrices at once.
  for (BitVec b : seg) {
    const bool both = contains(src.reg, b) && contains(dst.reg, b);
    if (both && keep_in_segment > 0) {
      --keep_in_segment;
      s.segment.push_back(b);
    } else {
      (both ? s.reps : s.segment).push_back(b);
    }
  }
  return s;
}

// Triton's estimate (log2) of a pair's conflicts: tile bits falling on the first bank word's
// bits or on segment bits.
int log_conflicts(const Bases& tile_src, const Bases& tile_dst, const Scratch& s, int bits, int dim) {
  Bases hot = s.offsets();
  const int first_word = log2_of(std::max(1, 32 / bits));
  if (static_cast<int>(hot.size()) > first_word) hot.resize(static_cast<std::size_t>(first_word));
  hot.insert(hot.end(), s.segment.begin(), s.segment.end());
  return static_cast<int>(intersection(hot, tile_src, dim).size() + intersection(hot, tile_dst, dim).size());
}

// Fallback when no instruction pair shares a 16-byte tile: plain ld/st.
Scratch ld_st_scratch(const Flat& src, const Flat& dst, int bits) {
  const int dim = src.dim;
  Bases vec = intersection(src.reg, dst.reg, dim);
  if (static_cast<int>(vec.size()) > log2_of(128 / bits)) vec.resize(static_cast<std::size_t>(log2_of(128 / bits)));
  std::optional<bool> src_fills;
  if ((std::int64_t{1} << vec.size()) * bits < 32) {
    const std::size_t per_word = static_cast<std::size_t>(log2_of(32 / bits));
    Bases warp_src, warp_dst;
    for (BitVec w : src.warp)
      if (w) warp_src.push_back(w);
    for (BitVec w : dst.warp)
      if (w) warp_dst.push_back(w);
    const Bases src_regs = intersection(without(src.reg, vec), warp_dst, dim);
    const Bases dst_regs = intersection(without(dst.reg, vec), warp_src, dim);
    // Registers of one side held by different warps on the other: vectorising them costs the
    // other side nothing. The side with more of them, ties to the lower coordinate.
    if (src_regs.size() == dst_regs.size() && !src_regs.empty())
      src_fills = *std::min_element(src_regs.begin(), src_regs.end()) < *std::min_element(dst_regs.begin(), dst_regs.end());
    else
      src_fills = src_regs.size() > dst_regs.size();
    const Bases& chosen = *src_fills ? src_regs : dst_regs;
    vec.insert(vec.end(), chosen.begin(), chosen.end());
    if (vec.size() < per_word) {
      const Bases both = intersection(warp_src, warp_dst, dim);
      vec.insert(vec.end(), both.begin(), both.end());
    }
    for (std::size_t i = 0; vec.size() < per_word && (i < warp_src.size() || i < warp_dst.size()); ++i) {
      if (i < warp_src.size() && !contains(vec, warp_src[i])) vec.push_back(warp_src[i]);
      if (vec.size() < per_word && i < warp_dst.size() && !contains(vec, warp_dst[i])) vec.push_back(warp_dst[i]);
    }
    // At most one bank word: wider on one side only would conflict on the other.
    if (vec.size() > per_word) vec.resize(per_word);
  }
  const int wide = log2_of(std::max<std::int64_t>(1, ((std::int64_t{1} << vec.size()) * bits) / 32));
  auto drop_back = [wide](const Bases& lanes) {
    return Bases(lanes.begin(), lanes.end() - std::min<std::ptrdiff_t>(wide, static_cast<std::ptrdiff_t>(lanes.size())));
  };
  Scratch s = build_scratch(src, dst, bits, vec, drop_back(src.lane), drop_back(dst.lane));
  if (wide < 2) {
    // Bank bits that are registers of the side that filled the word go first (fewer
    // permutations of registers on that side).
    std::vector<std::size_t> src_banks, dst_banks;
    for (std::size_t i = 0; i < s.bank.size(); ++i) {
      if (contains(src.reg, s.bank[i])) src_banks.push_back(i);
      if (contains(dst.reg, s.bank[i])) dst_banks.push_back(i);
    }
    std::vector<std::size_t> order =
        src_fills ? (*src_fills ? src_banks : dst_banks) : (src_banks.size() > dst_banks.size() ? src_banks : dst_banks);
    for (std::size_t i = 0; i < s.bank.size(); ++i)
      if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);
    Bases bank;
    for (std::size_t i : order) bank.push_back(s.bank[i]);
    s.bank = bank;
  }
  return s;
}

enum class Instr { LdSt = 0, Matrix = 1, MatrixTrans = 2 };

struct Choice {
  Scratch scratch;
  Instr store = Instr::LdSt, load = Instr::LdSt;
};

Choice choose_scratch(const Flat& src, const Flat& dst, int bits, const TritonTarget& target) {
  // Per side: ld/st.shared always; stmatrix for the writer, ldmatrix for the reader where the
  // target has them.
  std::vector<std::pair<Instr, const Tile*>> store_options = {{Instr::LdSt, &kLdSt}}, load_options = store_options;
  for (const bool load : {false, true}) {
    if (!(load ? target.ldmatrix : target.stmatrix)) continue;
    auto& options = load ? load_options : store_options;
    if (bits <= 32) options.push_back({Instr::Matrix, &kMatrix});
    if (bits == 16) options.push_back({Instr::MatrixTrans, &kMatrixTrans});
  }
  const int total = log2_of(128 / bits);
  // The lane tile of one side: its first registers outside the vector, then its address lanes.
  auto side_tile = [](const Tile& t, const Flat& f, const Bases& vec) -> std::optional<Bases> {
    Bases tile;
    const std::size_t regs_needed = 3 - t.address.size();
    for (BitVec r : f.reg)
      if (tile.size() < regs_needed && !contains(vec, r)) tile.push_back(r);
    if (tile.size() < regs_needed) return std::nullopt;
    for (int i : t.address) {
      if (i >= static_cast<int>(f.lane.size())) return std::nullopt;
      tile.push_back(f.lane[static_cast<std::size_t>(i)]);
    }
    return tile;
  };
  std::optional<Choice> best;
  int best_conflicts = 0;
  for (const auto& [store, ts] : store_options)
    for (const auto& [load, td] : load_options) {
      const auto vec = shared_tile(src, dst, total - static_cast<int>(ts->contiguous.size()),
                                   total - static_cast<int>(td->contiguous.size()), ts->contiguous, td->contiguous);
      if (!vec) continue;
      const auto tile_src = side_tile(*ts, src, *vec), tile_dst = side_tile(*td, dst, *vec);
      if (!tile_src || !tile_dst) continue;
      // Registers a tile needs beyond its lanes: none for ld/st, 2 for either matrix form (.x4).
      // When both sides are matrix instructions, that many common registers are kept in a round.
      auto missing = [](const Tile& t) { return static_cast<int>(t.contiguous.size() + t.address.size()) - 3; };
      const int keep = std::min(missing(*ts), missing(*td));
      Choice c{build_scratch(src, dst, bits, *vec, *tile_src, *tile_dst, keep), store, load};
      const int conflicts = log_conflicts(*tile_src, *tile_dst, c.scratch, bits, src.dim);
      if (!best || conflicts < best_conflicts ||
          (conflicts == best_conflicts && c.scratch.reps.size() > best->scratch.reps.size())) {
        best = c;
        best_conflicts = conflicts;
      }
    }
  if (best) return *best;
  return Choice{ld_st_scratch(src, dst, bits), Instr::LdSt, Instr::LdSt};
}

// [SECTION] Lowering

// One side in scratch offsets (element units) within a round; the registers that pick the round
// are taken out.
Flat in_offsets(const Flat& side, const Scratch& s) {
  const Bases offsets = s.offsets();
  Flat scratch_flat{offsets, {}, {}, side.dim};  // the scratch as "registers" to invert
  const Preimage where(scratch_flat);
  auto offset_of = [&](BitVec coord) {
    const auto p = where.of(coord);
    if (!p) fail("internal: the scratch layout does not cover the tensor");
    return *p;
  };
  const int round_bit = static_cast<int>(offsets.size() - s.reps.size());
  Flat out;
  out.dim = round_bit;
  std::vector<bool> used(side.reg.size(), false);
  std::vector<BitVec> regs;
  for (BitVec r : side.reg) regs.push_back(offset_of(r));
  for (std::size_t j = 0; j < s.reps.size(); ++j) {
    const BitVec want = BitVec{1} << (round_bit + static_cast<int>(j));
    std::size_t k = 0;
    while (k < regs.size() && (used[k] || regs[k] != want)) ++k;
    if (k == regs.size()) fail("internal: a round of the scratch layout is not a register");
    used[k] = true;
    out.rounds.push_back(want);
  }
  for (std::size_t k = 0; k < regs.size(); ++k)
    if (!used[k]) out.reg.push_back(regs[k]);
  for (BitVec l : side.lane) out.lane.push_back(offset_of(l));
  for (BitVec w : side.warp) out.warp.push_back(offset_of(w));
  return out;
}

// Every XOR-combination of `bases`, 0 first.
Bases combinations(const Bases& bases) {
  Bases out{0};
  for (BitVec b : bases) {
    const std::size_t n = out.size();
    for (std::size_t i = 0; i < n; ++i) out.push_back(out[i] ^ b);
  }
  return out;
}

// The side's instruction as the bank simulator's access (TritonSide::access): `registers` and
// `lanes` in buffer offsets, as the instruction takes them; `offsets` maps them back to coords.
Access issued_access(const Flat& cvt, Bases registers, const Bases& lanes, const LinearLayout& offsets, AccessKind kind,
                     int matrices, bool trans, int vec_bits) {
  registers.insert(registers.end(), cvt.rounds.begin(), cvt.rounds.end());
  const auto coords = [&](Bases v) {
    for (BitVec& b : v) b = offsets.apply("offset", b);
    return v;
  };
  LinearLayout layout({InDim{"register", coords(registers)}, InDim{"lane", coords(lanes)}, InDim{"warp", coords(cvt.warp)},
                       InDim{"block", {}}},
                      offsets.out_dims());
  return Access{std::move(layout), kind, matrices, vec_bits, trans};
}

// Serves one warp request per (warp, instruction); `lane_offset` gives each lane's element offset.
template <typename LaneOffset>
void serve_all(TritonSide& side, const Flat& cvt, const Bases& per_instruction, int active_lanes, int bits,
               const BankModel& model, LaneOffset lane_offset) {
  side.instruction = side.kind.name();
  const std::uint64_t warps = std::uint64_t{1} << cvt.warp.size();
  for (std::uint64_t w = 0; w < warps; ++w)
    for (BitVec base : combinations(per_instruction)) {
      WarpRequest r{side.kind, std::vector<std::int64_t>(static_cast<std::size_t>(model.warp_size), -1), {}};
      for (int lane = 0; lane < active_lanes && lane < model.warp_size; ++lane)
        r.address[static_cast<std::size_t>(lane)] =
            static_cast<std::int64_t>(byte_address_of(lane_offset(static_cast<std::uint64_t>(lane), w) ^ base, bits));
      const Service s = serve(r, model);
      ++side.instructions;
      side.wavefronts += s.wavefronts;
      side.ideal_total += s.ideal;
      if (s.wavefronts > side.worst) side.worst = s.wavefronts, side.ideal = s.ideal;
    }
}

// ld.shared / st.shared: the vector is the longest run of registers at offsets 1, 2, 4, ... that
// no other bit touches, up to 128 bits.
TritonSide lower_ld_st(const Flat& cvt, bool load, int bits, const BankModel& model, const LinearLayout& offsets) {
  auto vector_of = [&](int k) -> std::optional<Bases> {
    Bases unit;
    for (int i = 0; i < k; ++i) {
      if (!contains(cvt.reg, BitVec{1} << i)) return std::nullopt;
      unit.push_back(BitVec{1} << i);
    }
    for (const Bases& part : {without(cvt.reg, unit), cvt.lane, cvt.warp})
      for (BitVec b : part)
        if (b & low_bits(k)) return std::nullopt;
    return unit;
  };
  int k = log2_of(128 / bits);
  while (k > 0 && !vector_of(k)) --k;
  TritonSide side;
  side.kind = InstructionKind{load ? WarpOp::Load : WarpOp::Store, (bits << k) / 8, 0, false};
  const Bases vector = *vector_of(k), others = without(cvt.reg, vector);
  serve_all(side, cvt, others, model.warp_size, bits, model, [&](std::uint64_t lane, std::uint64_t w) { return cvt.at(lane, w); });
  Bases registers = vector;
  registers.insert(registers.end(), others.begin(), others.end());
  side.access = issued_access(cvt, registers, cvt.lane, offsets, load ? AccessKind::Load : AccessKind::Store, 0, false, bits << k);
  return side;
}

// ldmatrix / stmatrix (.trans): 32-bit words of registers, rows of 16 bytes; .x4 when there are
// registers for four matrices.
std::optional<TritonSide> lower_matrix(const Flat& cvt, bool load, bool trans, int bits, const BankModel& model,
                                       const LinearLayout& offsets) {
  if (model.warp_size != 32 || (!trans && bits > 32) || (trans && bits != 16)) return std::nullopt;
  const int per_word = log2_of(32 / bits);
  if (cvt.lane.size() < 5) return std::nullopt;
  Bases row_lanes, per_instruction;
  int vec = 0;
  if (!trans) {
    // Registers fill a 32-bit word, lanes 0-1 four words: 16 contiguous bytes.
    Bases regs;
    for (int i = 0; i < per_word; ++i) {
      if (!contains(cvt.reg, BitVec{1} << i)) return std::nullopt;
      regs.push_back(BitVec{1} << i);
    }
    const Bases others = without(cvt.reg, regs);
    if (cvt.lane[0] != (BitVec{1} << per_word) || cvt.lane[1] != (BitVec{2} << per_word)) return std::nullopt;
    const BitVec tile = low_bits(per_word + 2);
    for (BitVec b : others)
      if (b & tile) return std::nullopt;
    for (std::size_t i = 2; i < cvt.lane.size(); ++i)
      if (cvt.lane[i] & tile) return std::nullopt;
    for (BitVec b : cvt.warp)
      if (b & tile) return std::nullopt;
    vec = std::min<int>(2, static_cast<int>(others.size()));
    row_lanes = {cvt.lane[2], cvt.lane[3], cvt.lane[4]};
    row_lanes.insert(row_lanes.end(), others.begin(), others.begin() + vec);
    per_instruction.assign(others.begin() + vec, others.end());
  } else {
    // Lanes 2-4 hold the 8 consecutive elements of a row; nothing else may touch those bits.
    if (static_cast<int>(cvt.reg.size()) < per_word) return std::nullopt;
    for (int i = 0; i < 3; ++i)
      if (cvt.lane[static_cast<std::size_t>(i + 2)] != (BitVec{1} << i)) return std::nullopt;
    for (const Bases* part : {&cvt.reg, &cvt.warp})
      for (BitVec b : *part)
        if (b & 7u) return std::nullopt;
    if ((cvt.lane[0] & 7u) || (cvt.lane[1] & 7u)) return std::nullopt;
    vec = std::min<int>(2, static_cast<int>(cvt.reg.size()) - 1);
    row_lanes = {cvt.reg[0], cvt.lane[0], cvt.lane[1]};
    row_lanes.insert(row_lanes.end(), cvt.reg.begin() + 1, cvt.reg.begin() + 1 + vec);
    per_instruction.assign(cvt.reg.begin() + 1 + vec, cvt.reg.end());
  }
  TritonSide side;
  side.kind = InstructionKind{load ? WarpOp::LoadMatrix : WarpOp::StoreMatrix, 16, 1 << vec, trans};
  // Lane l addresses row (l mod 8) of matrix (l / 8).
  serve_all(side, cvt, per_instruction, 8 << vec, bits, model, [&](std::uint64_t lane, std::uint64_t w) {
    BitVec a = cvt.at(0, w);
    for (std::size_t i = 0; i < row_lanes.size(); ++i)
      if ((lane >> i) & 1u) a ^= row_lanes[i];
    return a;
  });
  // As the simulator takes a matrix access: the row's 16 bytes are the lowest offsets, lanes past
  // the 8N that address rows are idle.
  Bases registers;
  for (int i = 0; i < log2_of(128 / bits); ++i) registers.push_back(BitVec{1} << i);
  registers.insert(registers.end(), per_instruction.begin(), per_instruction.end());
  Bases lanes = row_lanes;
  lanes.resize(cvt.lane.size(), 0);
  side.access = issued_access(cvt, registers, lanes, offsets, load ? AccessKind::Load : AccessKind::Store, 1 << vec, trans, 0);
  return side;
}

TritonSide lower_side(const Flat& cvt, Instr instr, bool load, int bits, const BankModel& model, const LinearLayout& offsets) {
  if (instr == Instr::LdSt) return lower_ld_st(cvt, load, bits, model, offsets);
  if (auto side = lower_matrix(cvt, load, instr == Instr::MatrixTrans, bits, model, offsets)) return *side;
  fail("internal: Triton's {} lowering rejects the scratch layout it chose", load ? "ldmatrix" : "stmatrix");
}

}  // namespace

TritonTarget triton_target(const std::string& target) {
  if (target.rfind("hip", 0) == 0) return {false, false};
  if (target.rfind("cuda:", 0) == 0) {
    int cc = 0;
    for (std::size_t i = 5; i < target.size() && cc < 10000 && target[i] >= '0' && target[i] <= '9'; ++i)
      cc = cc * 10 + (target[i] - '0');
    if (cc > 0) return {cc >= 75, cc >= 90};
  }
  return {};
}

TritonConversion triton_convert_layout(const LinearLayout& src, const LinearLayout& dst, int element_bits, const BankModel& model,
                                       const TritonTarget& target) {
  if (src.out_dims() != dst.out_dims()) fail("the two layouts cover different tensors");
  if (element_bits <= 0 || element_bits > 128 || !std::has_single_bit(static_cast<unsigned>(element_bits)))
    fail("{}-bit elements: Triton 3.6 moves powers of two up to 128 bits through shared memory", element_bits);
  // Sub-byte elements travel as bytes.
  const int bits = std::max(8, element_bits);
  const Flat s = flat_of(src), d = flat_of(dst);
  if (s.warp.size() != d.warp.size()) fail("the two layouts have different numbers of warps");
  const Choice c = choose_scratch(s, d, bits, target);
  TritonConversion out;
  out.element_bits = bits;
  out.rounds = 1 << c.scratch.reps.size();
  out.scratch = LinearLayout({InDim{"offset", c.scratch.offsets()}, InDim{"block", {}}}, src.out_dims());
  out.store = lower_side(in_offsets(s, c.scratch), c.store, false, bits, model, out.scratch);
  out.load = lower_side(in_offsets(d, c.scratch), c.load, true, bits, model, out.scratch);
  for (TritonSide* side : {&out.store, &out.load}) {
    side->instructions *= out.rounds;
    side->wavefronts *= out.rounds;
    side->ideal_total *= out.rounds;
  }
  return out;
}

TritonSide triton_local_access(const LinearLayout& regs, const LinearLayout& offsets, int element_bits, bool load,
                               const BankModel& model, const TritonTarget& target) {
  if (regs.out_dims() != offsets.out_dims()) fail("the registers and the buffer cover different tensors");
  if (element_bits <= 0 || element_bits > 128 || !std::has_single_bit(static_cast<unsigned>(element_bits)))
    fail("{}-bit elements: Triton 3.6 moves powers of two up to 128 bits through shared memory", element_bits);
  const int bits = std::max(8, element_bits);
  const Flat side = flat_of(regs);
  Scratch buffer;
  for (BitVec b : offsets.bases("offset")) {
    if (!b) fail("the buffer repeats elements (a zero offset basis)");
    buffer.vector.push_back(b);
  }
  if (static_cast<int>(buffer.vector.size()) != offsets.out_bits()) fail("the buffer does not hold the tensor one to one");
  const Flat cvt = in_offsets(side, buffer);
  if (load ? target.ldmatrix : target.stmatrix)
    for (const bool trans : {false, true})
      if (auto matrix = lower_matrix(cvt, load, trans, bits, model, offsets)) return *matrix;
  return lower_ld_st(cvt, load, bits, model, offsets);
}

}  // namespace swz
