// solver_build.h (private to core/src/solve): the pieces of one construction
// (solver.cpp): the problem's geometry, the vectors both sides keep, the sets the
// construction builds for one pair of vector widths, and how a pair is costed.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

#include "solver_access.h"
#include "swz/error.h"
#include "swz/solve/solver.h"

namespace swz::solve_detail {

struct Geometry {
  int width = 0;  // coordinate bits d
  int ebits = 32;
  int seg_start = 0;         // first segment offset bit
  int within_word = 0;       // |W|: offset bits inside one bank word
  int widest = 0;            // log2 elements in 128 bits
  int segment_bits = 0;      // s
  int cap_a = 0, cap_b = 0;  // widest vector (log2 elements) each side may use: 128 bits or the caller's cap
};

// [SECTION] Vectors
//
// A lane's vector is 2^k consecutive offsets. Registers are a thread's own
// values, so a kernel may number them as it likes: the access vectorises to
// 2^k elements exactly when offsets 1, 2, .., 2^(k-1) lie in the span of its
// registers (R) and none of its lanes and warps (LW) moves an offset bit below
// k. So the widths are bounded by subspaces, not by register order:
//
//   k_x <= dim R_x - dim(R_x ∩ LW_x)                  (each side on its own)
//   min(k_a, k_b) <= dim R∩ - dim(R∩ ∩ (LW_a + LW_b))  (R∩ = R_a ∩ R_b: the vectors both use)

Subspace register_span(const AccessInfo& x, int w);
Subspace lane_warp_span(const AccessInfo& x, int w);

// Widest (log2) a subspace `space` allows once the directions of `avoid` are excluded.
int free_dim(const Subspace& space, const Subspace& avoid);

// The common vectors, best first: a basis of R_a ∩ R_b avoiding both accesses'
// lanes and warps, in the writer's register order where it can be (so its
// registers need no renumbering), then the reader's, then any. A side whose
// registers keep their numbering takes its own leading registers, in order,
// as long as they lie in the other's span.
std::vector<BitVec> common_vectors(const AccessInfo& a, const AccessInfo& b, int w);

struct VectorPlan {
  int k_a = 0, k_b = 0;
  const AccessInfo* wide = nullptr;  // the access whose registers hold all of Vec (the writer on a tie)
  const AccessInfo* narrow = nullptr;
  std::vector<BitVec> vec;  // Vo: offset images 2^0 .. 2^(kw-1); the first kn in both register spans
  // Bases of each side that must keep off its vector bits: lanes and warps, and
  // the later registers too when registers keep their numbering.
  std::vector<BitVec> fixed_wide, fixed_narrow;
};

// The bases of x a plan must keep off x's first k offset bits.
std::vector<BitVec> fixed_bases(const AccessInfo& x, int k);

// The vectors leave room for a complement Hi: no lane or warp of the wide
// access moves along Vec, and none of either (nor U) along the common part.
bool vectors_fit(const VectorPlan& p, int width);

// A plan for widths (k_a, k_b), the extra vectors U taken from `u_order`; nullopt when none fits.
std::optional<VectorPlan> plan_for(const AccessInfo& a, const AccessInfo& b, int ka, int kb, const std::vector<BitVec>& common,
                                   const std::vector<BitVec>& u_order, int width);

// Orders in which the wide access's extra vectors U are tried: its registers
// that are lanes of the other access first (the other side then reads them
// as bank bits, never as conflicts), or the common vectors not used first.
std::vector<std::vector<BitVec>> u_orders(const AccessInfo& wide, const AccessInfo& narrow, const std::vector<BitVec>& common,
                                          int kn, int width);

// [SECTION] Construction

// One finished construction for one pair of widths.
struct Built {
  std::vector<BitVec> images;  // offset images, low first
  std::vector<BitVec> within_word_extra, bank, segment;
  std::vector<BitVec> ta, tb, split_a, split_b, i_set, e_set, f_set, h_set, c_set, pad;
  int space_dim = 0;
  int claimed_a = 0, claimed_b = 0;  // dim(Seg ∩ T) in the construction
  Subspace hi, w_extra;
  std::vector<BitVec> w_full;
  Predicted pred_a, pred_b;
  int bound_a = 0, bound_b = 0, max_avoiding = 0;
  int vector_bits_total = 0;
};

// Vectors of `candidates` that lie in `space`, then the space's own basis.
std::vector<BitVec> within(const Subspace& space, const std::vector<BitVec>& candidates);

// Hi: a complement of Vec holding every lane and warp of the wide access,
// with U + Hi holding the narrow one's; the narrow access's lanes are paired
// with U (its extra vector bits) so that as few of them as possible stay in Hi.
// (Registers need no room: a renumbering moves them off the vector bits.)
Subspace choose_hi(const VectorPlan& plan, const Geometry& g, const BankModel& model, const std::vector<BitVec>& units);

Built build(const AccessInfo& a, const AccessInfo& b, const VectorPlan& plan, const Subspace& hi, const Geometry& g,
            const BankModel& model, const std::vector<BitVec>& low_candidates);

std::string names(const LinearLayout& c, const std::vector<BitVec>& vs);

// [SECTION] Choice
//
// Cost of one side = instructions x wavefronts per instruction (the wavefronts
// the warp waits for). Every pair of widths within the bounds is built; the
// lowest total over both sides wins, then the fewest instructions (wider vectors).

SideCost side_cost(const AccessInfo& x, const Predicted& p, int ebits);

struct Candidate {
  VectorPlan plan;
  Built built;
  SideCost a, b;
  std::int64_t total() const { return a.total_wavefronts + b.total_wavefronts; }
  std::int64_t instructions() const { return a.instructions + b.instructions; }
};

// Fewer wavefronts, then fewer instructions, then fewer loads: the reader's
// loads stall the warps that consume the data, the writer's stores do not.
bool cheaper(const Candidate& x, const Candidate& y);

// The most either side can vectorise (log2 elements): requested, or bounded by
// the cap and by its registers that avoid its lanes and warps.
int widest_for(const AccessInfo& x, int cap, int width);

WidthProof width_proof(const AccessInfo& a, const AccessInfo& b, const Geometry& g, int common, int built, int tried);

std::string registers_text(const Renumbering& rn, const char* letter);

void check_options(const SolveOptions& o, int ebits);

}  // namespace swz::solve_detail
