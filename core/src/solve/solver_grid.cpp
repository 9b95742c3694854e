// solver_grid.cpp: toggle grids (solver.h): which mask sets are conflict-free,
// how many there are, the lazy enumeration, and the fewest-flips repair.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <limits>

#include "solver_access.h"
#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/solve/solver.h"

namespace swz {

using namespace solve_detail;

// Not an anonymous namespace: MaskEnumerator::State (declared in the header) holds these types.
namespace solver_grid_detail {

// Geometry of a grid problem in its own bit order, built for fast searches:
// a vector keeps the toggleable columns G lowest so that a pivot-highest
// echelon basis splits into "inside G" and "outside G" parts.
struct GridSearch {
  int rows = 0, cols = 0, vec = 0;  // row bits r, column bits c, untouched low columns
  int within_word = 0;              // |W| (low columns inside one bank word)
  int seg_start = 0;                // offset bit where segments start
  int g = 0;                        // toggle columns that matter (modulo W)
  int kernel = 0;                   // toggle columns inside W (free)
  int first_seg_row = 0;            // rows j >= this are segment rows
  std::vector<int> perm;            // flat coordinate bit -> search bit (-1: inside W, dropped)
  std::vector<BitVec> threads_a, threads_b, fixed_segments;
  std::vector<BitVec> row_vec;  // row_vec[j] = m_j in search bits
  bool possible = true;         // fixed segment columns avoid both thread spans

  BitVec map(BitVec flat) const {
    BitVec out = 0;
    for (int i = 0; flat; ++i, flat >>= 1)
      if ((flat & 1u) && perm[static_cast<std::size_t>(i)] >= 0) out ^= BitVec{1} << perm[static_cast<std::size_t>(i)];
    return out;
  }
  // Toggle value x (bits over columns vec..cols-1) split into its G part (search bits) and kernel part.
  BitVec g_part(std::uint32_t toggles) const { return toggles >> kernel; }
};

// A pivot-highest echelon basis indexed by pivot; grid searches stay within 32 bits.
struct Echelon {
  std::array<BitVec, 32> by_pivot{};
  BitVec pivots = 0;
  BitVec reduce(BitVec v) const {
    while (BitVec hit = v & pivots) v ^= by_pivot[static_cast<std::size_t>(63 - std::countl_zero(hit))];
    return v;
  }
  bool insert(BitVec v) {
    v = reduce(v);
    if (!v) return false;
    const int p = 63 - std::countl_zero(v);
    by_pivot[static_cast<std::size_t>(p)] = v;
    pivots |= BitVec{1} << p;
    return true;
  }
};

// Vector widths of a grid problem's accesses under the row-major tile.
std::pair<int, int> grid_vectors(const Problem& p, const AccessInfo& a, const AccessInfo& b) {
  const SharedLayout rm = toggle_grid(p.shape, {});
  const auto& lin = rm.linear();
  const OffsetMap m = offset_map(lin.bases("offset"), lin.out_bits());
  const int widest = ilog2(static_cast<std::uint64_t>(128 / p.element_bits));
  return {widest_vector(a, m, widest, /*renumbered=*/false), widest_vector(b, m, widest, /*renumbered=*/false)};
}

// sides: the accesses whose conflicts count; the other side's thread span is left empty,
// so it constrains nothing.
GridSearch grid_search(const Problem& p, AccessSides sides = AccessSides::Both) {
  if (!p.grid) fail("preset '{}' has no toggle grid (its shared layout is not a row-major tile)", p.name);
  check_inputs(p.store, p.read, p.element_bits, p.bank);
  GridSearch gs;
  gs.rows = p.grid->row_bits;
  gs.cols = p.grid->col_bits;
  gs.vec = p.grid->vec_bits;
  gs.within_word = std::min(gs.cols, p.element_bits < 32 ? ilog2(static_cast<std::uint64_t>(32 / p.element_bits)) : 0);
  gs.seg_start = ilog2(static_cast<std::uint64_t>(p.bank.banks * p.bank.bank_bytes * 8 / p.element_bits));
  const int low = std::max(gs.vec, gs.within_word);
  gs.g = gs.cols - low;
  gs.kernel = std::max(0, gs.within_word - gs.vec);
  gs.first_seg_row = std::max(0, gs.seg_start - gs.cols);
  // Search bit order: G columns, then the other columns above W, then rows.
  gs.perm.assign(static_cast<std::size_t>(gs.rows + gs.cols), -1);
  int next = 0;
  for (int c = low; c < gs.cols; ++c) gs.perm[static_cast<std::size_t>(gs.rows + c)] = next++;
  for (int c = gs.within_word; c < low; ++c) gs.perm[static_cast<std::size_t>(gs.rows + c)] = next++;
  for (int j = 0; j < gs.rows; ++j) gs.perm[static_cast<std::size_t>(j)] = next++;
  const AccessInfo a = info_of(p.store, "writer", "A", p.element_bits), b = info_of(p.read, "reader", "B", p.element_bits);
  const auto [ka, kb] = grid_vectors(p, a, b);
  if (sides != AccessSides::Read)
    for (BitVec t : phase_threads(a, lane_phases(a, ka, p.element_bits, p.bank))) gs.threads_a.push_back(gs.map(t));
  if (sides != AccessSides::Write)
    for (BitVec t : phase_threads(b, lane_phases(b, kb, p.element_bits, p.bank))) gs.threads_b.push_back(gs.map(t));
  for (int c = std::max(gs.seg_start, 0); c < gs.cols; ++c) gs.fixed_segments.push_back(gs.map(BitVec{1} << (gs.rows + c)));
  for (int j = 0; j < gs.rows; ++j) gs.row_vec.push_back(gs.map(BitVec{1} << j));
  return gs;
}

// P_X = (segments so far) + T_X, for both accesses.
struct Pair {
  Echelon pa, pb;
};

std::optional<Pair> grid_root(const GridSearch& gs) {
  Pair root;
  for (BitVec t : gs.threads_a) root.pa.insert(t);
  for (BitVec t : gs.threads_b) root.pb.insert(t);
  for (BitVec f : gs.fixed_segments) {
    if (!root.pa.insert(f)) return std::nullopt;
    if (!root.pb.insert(f)) return std::nullopt;
  }
  return root;
}

// Adds row j with toggle value `toggles`; false when a thread direction enters Seg.
bool grid_step(const GridSearch& gs, const Pair& in, int j, std::uint32_t toggles, Pair& out) {
  const BitVec v = gs.row_vec[static_cast<std::size_t>(j)] ^ gs.g_part(toggles);
  if (in.pa.reduce(v) == 0 || in.pb.reduce(v) == 0) return false;
  out = in;
  out.pa.insert(v);
  out.pb.insert(v);
  return true;
}

std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
    fail("the family has more than 2^64 members; too large to count");
  return a * b;
}

// Toggle values of the last segment row that keep both spans clear. The bad
// values for one access form a coset rep + span(dirs) inside G (or nothing).
std::uint64_t count_last(const GridSearch& gs, const Pair& at, int j) {
  const BitVec mj = gs.row_vec[static_cast<std::size_t>(j)];
  const BitVec gmask = low_bits(gs.g);
  const std::uint64_t all = std::uint64_t{1} << gs.g;
  struct Coset {
    bool any = false;
    BitVec rep = 0;
    std::array<BitVec, 32> dirs{};
    int n = 0;
  };
  auto bad = [&](const Echelon& e) {
    Coset c;
    c.rep = e.reduce(mj);
    if (c.rep & ~gmask) return c;
    c.any = true;
    for (int p = 0; p < gs.g; ++p)
      if ((e.pivots >> p) & 1u) c.dirs[static_cast<std::size_t>(c.n++)] = e.by_pivot[static_cast<std::size_t>(p)];
    return c;
  };
  const Coset ca = bad(at.pa), cb = bad(at.pb);
  if (!ca.any && !cb.any) return all;
  if (!ca.any || !cb.any) return all - (std::uint64_t{1} << (ca.any ? ca.n : cb.n));
  // |A ∪ B| = |A| + |B| - |A ∩ B|; the cosets meet iff ra ^ rb is in span(A) + span(B),
  // and then in a coset of span(A) ∩ span(B), of dimension n_A + n_B - dim(span(A) + span(B)).
  Echelon sum;
  for (int i = 0; i < ca.n; ++i) sum.insert(ca.dirs[static_cast<std::size_t>(i)]);
  for (int i = 0; i < cb.n; ++i) sum.insert(cb.dirs[static_cast<std::size_t>(i)]);
  const int sum_dim = std::popcount(sum.pivots);
  const std::uint64_t inter = sum.reduce(ca.rep ^ cb.rep) == 0 ? std::uint64_t{1} << (ca.n + cb.n - sum_dim) : 0;
  return all - (std::uint64_t{1} << ca.n) - (std::uint64_t{1} << cb.n) + inter;
}

// Lemma 9.5 as a prune: the rows still to place must stay independent modulo
// P_X, and they can only use m_j.. and the toggle columns.
bool room_left(const GridSearch& gs, const Pair& at, int j) {
  const int need = gs.rows - j;
  for (const Echelon* e : {&at.pa, &at.pb}) {
    Echelon grow = *e;
    int gained = 0;
    for (int k = j; k < gs.rows; ++k) gained += grow.insert(gs.row_vec[static_cast<std::size_t>(k)]) ? 1 : 0;
    for (int k = 0; k < gs.g; ++k) gained += grow.insert(BitVec{1} << k) ? 1 : 0;
    if (gained < need) return false;
  }
  return true;
}

std::uint64_t count_from(const GridSearch& gs, const Pair& at, int j) {
  if (j == gs.rows) return 1;
  if (j == gs.rows - 1) return count_last(gs, at, j);
  if (j + 2 < gs.rows && !room_left(gs, at, j)) return 0;
  std::uint64_t total = 0;
  Pair next;
  for (std::uint32_t x = 0; x < (1u << gs.g); ++x)
    if (grid_step(gs, at, j, x << gs.kernel, next)) total += count_from(gs, next, j + 1);
  return total;
}

}  // namespace solver_grid_detail
using namespace solver_grid_detail;

std::optional<std::vector<std::uint32_t>> masks_of(const Problem& p, const LinearLayout& offset_bases) {
  if (p.shape.size() != 2 || offset_bases.shape() != p.shape) return std::nullopt;
  const int r = ilog2(static_cast<std::uint64_t>(p.shape[0])), c = ilog2(static_cast<std::uint64_t>(p.shape[1]));
  const auto& img = offset_bases.bases("offset");
  if (static_cast<int>(img.size()) != r + c) return std::nullopt;
  for (int i = 0; i < c; ++i)
    if (img[static_cast<std::size_t>(i)] != BitVec{1} << (r + i)) return std::nullopt;
  std::vector<std::uint32_t> masks;
  for (int j = 0; j < r; ++j) {
    const BitVec v = img[static_cast<std::size_t>(c + j)];
    if ((v & low_bits(r)) != BitVec{1} << j) return std::nullopt;
    masks.push_back(static_cast<std::uint32_t>(v >> r));
  }
  return masks;
}

bool masks_conflict_free(const Problem& p, const std::vector<std::uint32_t>& masks, AccessSides sides) {
  const GridSearch gs = grid_search(p, sides);
  if (static_cast<int>(masks.size()) > gs.rows) fail("{} masks given; the grid has {} row bits", masks.size(), gs.rows);
  std::optional<Pair> at = grid_root(gs);
  if (!at) return false;
  for (int j = 0; j < gs.rows; ++j) {
    const std::uint32_t m = j < static_cast<int>(masks.size()) ? masks[static_cast<std::size_t>(j)] : 0;
    if (m >> gs.cols) fail("mask {} (row bit {}) is wider than the {} columns", m, j, 1u << gs.cols);
    if (m & low_bits(gs.vec)) return false;  // outside the family: it moves a vector column
    if (j < gs.first_seg_row) continue;
    Pair next;
    if (!grid_step(gs, *at, j, m >> gs.vec, next)) return false;
    at = next;
  }
  return true;
}

std::uint64_t family_size(const Problem& p, AccessSides sides) {
  const GridSearch gs = grid_search(p, sides);
  const std::optional<Pair> root = grid_root(gs);
  if (!root) return 0;
  const int toggles = gs.cols - gs.vec;
  std::uint64_t factor = 1;
  for (int j = 0; j < gs.rows; ++j) {
    if (j < gs.first_seg_row)
      factor = checked_mul(factor, std::uint64_t{1} << toggles);
    else
      factor = checked_mul(factor, std::uint64_t{1} << gs.kernel);
  }
  return checked_mul(factor, count_from(gs, *root, gs.first_seg_row));
}

struct MaskEnumerator::State {
  GridSearch gs;
  bool started = false, done = false;
  std::vector<std::uint32_t> toggles;  // per row: the toggle value (columns vec..cols-1) being tried
  std::vector<Pair> stack;             // stack[j] = state before row j (segment rows only)
};

MaskEnumerator::MaskEnumerator(const Problem& p) : state_(std::make_unique<State>()) {
  state_->gs = grid_search(p);
  const std::optional<Pair> root = grid_root(state_->gs);
  state_->done = !root.has_value();
  state_->toggles.assign(static_cast<std::size_t>(state_->gs.rows), 0);
  state_->stack.resize(static_cast<std::size_t>(state_->gs.rows) + 1);
  if (root) state_->stack[0] = *root;
}
MaskEnumerator::~MaskEnumerator() = default;
MaskEnumerator::MaskEnumerator(MaskEnumerator&&) noexcept = default;
MaskEnumerator& MaskEnumerator::operator=(MaskEnumerator&&) noexcept = default;

std::optional<std::vector<std::uint32_t>> MaskEnumerator::next() {
  State& s = *state_;
  if (s.done) return std::nullopt;
  const GridSearch& gs = s.gs;
  const std::uint32_t limit = 1u << (gs.cols - gs.vec);
  // Try row j with toggle values starting at s.toggles[j]; descend; backtrack on exhaustion.
  int j = 0;
  if (s.started) {
    j = gs.rows - 1;
    if (j < 0) {
      s.done = true;
      return std::nullopt;
    }
    ++s.toggles[static_cast<std::size_t>(j)];
  }
  s.started = true;
  // stack index: state before row j is stack[j]; bank rows just copy.
  while (j >= 0 && j < gs.rows) {
    std::uint32_t& x = s.toggles[static_cast<std::size_t>(j)];
    bool placed = false;
    for (; x < limit; ++x) {
      if (j < gs.first_seg_row) {
        s.stack[static_cast<std::size_t>(j) + 1] = s.stack[static_cast<std::size_t>(j)];
        placed = true;
        break;
      }
      if (grid_step(gs, s.stack[static_cast<std::size_t>(j)], j, x, s.stack[static_cast<std::size_t>(j) + 1]) &&
          (j + 2 >= gs.rows || room_left(gs, s.stack[static_cast<std::size_t>(j) + 1], j + 1))) {
        placed = true;
        break;
      }
    }
    if (placed) {
      ++j;
      if (j < gs.rows) s.toggles[static_cast<std::size_t>(j)] = 0;
    } else {
      x = 0;
      --j;
      if (j >= 0) ++s.toggles[static_cast<std::size_t>(j)];
    }
  }
  if (j < 0 || gs.rows == 0) {
    // rows == 0: the single empty mask set, if the root is clear.
    if (gs.rows == 0 && j >= 0) {
      s.done = true;
      return std::vector<std::uint32_t>{};
    }
    s.done = true;
    return std::nullopt;
  }
  std::vector<std::uint32_t> masks;
  for (std::uint32_t t : s.toggles) masks.push_back(t << gs.vec);
  return masks;
}

Repair repair(const Problem& p, const std::vector<std::uint32_t>& current_in) {
  const GridSearch gs = grid_search(p);
  if (static_cast<int>(current_in.size()) > gs.rows) fail("{} masks given; the grid has {} row bits", current_in.size(), gs.rows);
  std::vector<std::uint32_t> current = current_in;
  current.resize(static_cast<std::size_t>(gs.rows), 0);
  for (std::size_t j = 0; j < current.size(); ++j)
    if (current[j] >> gs.cols) fail("mask {} (row bit {}) is wider than the {} columns", current[j], j, 1u << gs.cols);
  Repair out;
  const std::optional<Pair> root = grid_root(gs);
  if (!root || family_size(p) == 0) return out;
  out.possible = true;
  const std::uint32_t limit = 1u << (gs.cols - gs.vec);
  auto cost = [&](int j, std::uint32_t t) { return std::popcount((t << gs.vec) ^ current[static_cast<std::size_t>(j)]); };
  // Candidates per row, cheapest first.
  std::vector<std::vector<std::uint32_t>> order(static_cast<std::size_t>(gs.rows));
  for (int j = 0; j < gs.rows; ++j) {
    auto& o = order[static_cast<std::size_t>(j)];
    for (std::uint32_t t = 0; t < limit; ++t) o.push_back(t);
    std::stable_sort(o.begin(), o.end(), [&](std::uint32_t x, std::uint32_t y) { return cost(j, x) < cost(j, y); });
  }
  int best = std::numeric_limits<int>::max();
  std::vector<std::uint32_t> chosen(static_cast<std::size_t>(gs.rows), 0), best_masks;
  std::uint64_t nodes = 0;
  constexpr std::uint64_t kNodeLimit = 20'000'000;
  auto dfs = [&](auto&& self, int j, const Pair& at, int so_far) -> void {
    if (++nodes > kNodeLimit) {
      out.exact = false;
      return;
    }
    if (j == gs.rows) {
      if (so_far < best) {
        best = so_far;
        best_masks = chosen;
      }
      return;
    }
    Pair next;
    for (std::uint32_t t : order[static_cast<std::size_t>(j)]) {
      const int c = so_far + cost(j, t);
      if (c >= best) break;
      if (j < gs.first_seg_row) {
        chosen[static_cast<std::size_t>(j)] = t;
        self(self, j + 1, at, c);
        break;  // bank rows: the cheapest choice is as good as any
      }
      if (!grid_step(gs, at, j, t, next)) continue;
      if (j + 2 < gs.rows && !room_left(gs, next, j + 1)) continue;
      chosen[static_cast<std::size_t>(j)] = t;
      self(self, j + 1, next, c);
      if (best == 0) return;
    }
  };
  dfs(dfs, 0, *root, 0);
  out.flips = best;
  for (int j = 0; j < gs.rows; ++j) {
    const std::uint32_t m = best_masks[static_cast<std::size_t>(j)] << gs.vec;
    out.masks.push_back(m);
    const std::uint32_t diff = m ^ current[static_cast<std::size_t>(j)];
    for (int c = 0; c < gs.cols; ++c)
      if ((diff >> c) & 1u) out.cells.emplace_back(j, c);
  }
  return out;
}

}  // namespace swz
