// The register layout the answer would rather have: each lane a block along both dims.
#include <algorithm>
#include <bit>

#include "swz/solve/solve_report.h"

namespace swz {
namespace {

BitVec bit_of(const LinearLayout& l, int dim, int i) { return BitVec{1} << (l.out_offset(dim) + i); }

bool holds(const std::vector<BitVec>& bases, BitVec v) { return std::find(bases.begin(), bases.end(), v) != bases.end(); }

// The first dim other than `avoid` whose lowest k bits are each a register basis: the side's vector.
int vector_dim(const LinearLayout& l, int k, int avoid) {
  for (int d = 0; d < l.rank(); ++d) {
    if (d == avoid || l.out_dims()[static_cast<std::size_t>(d)].log2_size < k) continue;
    bool all = true;
    for (int i = 0; i < k && all; ++i) all = holds(l.bases("register"), bit_of(l, d, i));
    if (all) return d;
  }
  return -1;
}

// `l` with the lowest `rows_log2` bits of dim `other` made register bases, each traded for the
// highest register basis outside the block (which takes the lane or warp basis's place), so the
// lane count and each lane's register count stay. Stops at the first bit it cannot bring in;
// returns how many it did.
int bring_into_registers(LinearLayout& l, int own, int other, int k, int rows_log2) {
  std::vector<BitVec> block;
  for (int i = 0; i < k; ++i) block.push_back(bit_of(l, own, i));
  for (int i = 0; i < k && i < l.out_dims()[static_cast<std::size_t>(other)].log2_size; ++i) block.push_back(bit_of(l, other, i));
  std::vector<InDim> ins = l.in_dims();
  const auto find_dim = [&](const char* name) { return std::find_if(ins.begin(), ins.end(), [&](const InDim& d) { return d.name == name; }); };
  const auto reg = find_dim("register");
  int done = 0;
  for (; done < rows_log2; ++done) {
    const BitVec want = bit_of(l, other, done);
    if (holds(reg->bases, want)) continue;
    BitVec* from = nullptr;  // where `want` is now: a lane or warp basis
    for (const char* name : {"lane", "warp"}) {
      const auto it = find_dim(name);
      if (it == ins.end()) continue;
      for (BitVec& b : it->bases)
        if (b == want) from = &b;
    }
    BitVec* spare = nullptr;  // the highest register basis outside the block
    for (BitVec& b : reg->bases)
      if (b != 0 && !holds(block, b)) spare = &b;
    if (!from || !spare) break;
    std::swap(*from, *spare);
  }
  // The rows brought in, in ascending order in the places they took.
  std::vector<std::size_t> places;
  std::vector<BitVec> rows;
  for (std::size_t j = 0; j < reg->bases.size(); ++j)
    if (holds(block, reg->bases[j]) && !holds(l.bases("register"), reg->bases[j])) {
      places.push_back(j);
      rows.push_back(reg->bases[j]);
    }
  std::sort(rows.begin(), rows.end());
  for (std::size_t i = 0; i < places.size(); ++i) reg->bases[places[i]] = rows[i];
  l = LinearLayout(std::move(ins), l.out_dims());
  return done;
}

}  // namespace

std::optional<RegisterSuggestion> suggest_register_blocks(const Problem& p, const SolveResult& answer, const SolveOptions& options) {
  const Access& w = p.store;
  const Access& r = p.read;
  if (w.layout.rank() != 2 || w.ldmatrix || r.ldmatrix || w.async_copy || r.async_copy || p.element_bits > 64) return std::nullopt;
  const int k = std::countr_zero(static_cast<unsigned>(128 / p.element_bits));  // elements in 16 bytes, log2
  const int own_w = vector_dim(w.layout, k, -1);
  const int own_r = vector_dim(r.layout, k, own_w);
  if (own_w < 0 || own_r < 0) return std::nullopt;
  // Both sides take the same number of rows: as many as each side's registers allow, at most k
  // (a side that took more takes them again, up to the other's).
  RegisterSuggestion s;
  s.write_layout = w.layout;
  s.read_layout = r.layout;
  const int rows_w = bring_into_registers(s.write_layout, own_w, own_r, k, k);
  const int rows_r = bring_into_registers(s.read_layout, own_r, own_w, k, k);
  const int rows_log2 = std::min(rows_w, rows_r);
  if (rows_log2 == 0) return std::nullopt;
  if (rows_w > rows_log2) {
    s.write_layout = w.layout;
    bring_into_registers(s.write_layout, own_w, own_r, k, rows_log2);
  }
  if (rows_r > rows_log2) {
    s.read_layout = r.layout;
    bring_into_registers(s.read_layout, own_r, own_w, k, rows_log2);
  }
  s.rows = 1 << rows_log2;
  Access sw = w, sr = r;
  sw.layout = s.write_layout;
  sr.layout = s.read_layout;
  s.result = solve(sw, sr, p.element_bits, p.bank, options);
  if (s.result.total_instructions() >= answer.total_instructions() || s.result.total_wavefronts() > answer.total_wavefronts()) return std::nullopt;
  return s;
}

}  // namespace swz
