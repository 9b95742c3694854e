// solver.h: the optimal swizzle, constructed and proved.
//
// Given a writer A and a reader B (two distributed layouts of one tensor), we
// choose the shared layout M: offset bits -> coordinate bits. Split the
// offset bits of M by what they do in an address (element units, low first):
//
//   [ Vec | W' | Bank ............ | Seg ........... ]
//     |     |    rest of one row     one bit per extra
//     |     |    of banks            row of banks
//     |     within-word bits above Vec (elements narrower than 32 bits)
//     registers both accesses vectorise on (consecutive, up to 128 bits)
//
// By Lemma 9.4 an access of thread span T costs 2^dim(span(Seg) ∩ T)
// wavefronts per phase (modulo the within-word bits W), so the whole game is
// choosing span(Seg). The construction (seed 000, section 06):
//
//   1. Vec  = the registers A and B share, in the same order (a 128-bit
//      ldmatrix row or a requested width can force one side wider).
//   2. b, s = bank and segment bit counts.
//   3. Each access's phase split (64-bit: half warps, 128-bit: quarter warps,
//      ldmatrix: 8 lanes) drops the lane bits above the phase: T_A, T_B.
//   4. I = T_A ∩ T_B (never folded), E = T_A \ I, F = T_B \ I.
//   5. H = { e_i ^ f_i }: each flips a thread bit only A uses together with one
//      only B uses, so it is a thread direction of neither.
//   6. C = a complement of T_A + T_B: invisible to both.
//   7. Seg = H then C; if |H| + |C| < s, pad with the fewest conflicting
//      directions (unpaired E or F, then I, then F) and say so.
//   8. Bank = any completion (bank bits cannot create conflicts).
//
// Lemma 9.5 bounds every layout with these Vec/W' bits: in the n-dim space
// left, dim(Seg ∩ T) >= s + dim T - n, so each access needs at least
// 2^max(0, s + dim T - n) wavefronts per phase. The construction meets it for
// both accesses at once, and the brute-force simulator checks every answer.
//
// For toggle-grid problems (row-major tile, rows XORed by masks) the same
// question is asked of the masks: which mask sets are conflict-free, how many
// there are, and which is the fewest toggle flips away from the current one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "swz/sim/bank.h"
#include "swz/problem/access_sides.h"
#include "swz/problem/problem.h"
#include "swz/layout/shared.h"

namespace swz {

// The solver's own check failed: the simulator disagrees with the algebra.
// Never caught inside the core; front ends show it as a bug.
class SolverBug : public std::logic_error {
 public:
  explicit SolverBug(const std::string& message) : std::logic_error("solver bug: " + message) {}
};

// One named set of coordinate vectors in a trace step ("I" -> {n0}).
struct NamedSet {
  std::string name;
  std::vector<BitVec> vectors;  // flat coordinates (dim0 lowest), as LinearLayout::describe_out reads them
};

// One step of the construction, replayable by a front end.
struct SolveStep {
  std::string title;           // "Vectorization", "Sort the thread bits", ...
  std::string sentence;        // what was done and why, one or two sentences
  std::vector<NamedSet> sets;  // the sets this step produced or used
};

// Lemma 9.5 for the chosen vector and within-word bits.
struct LowerBound {
  int space_dim = 0;           // n: offset bits left after Vec and W'
  int segment_bits = 0;        // s
  int max_avoiding_dim = 0;    // n - max(dim T_A, dim T_B): the most segment bits that avoid both
  int write_conflict_dim = 0;  // dim(Seg ∩ T_A) can be no smaller
  int read_conflict_dim = 0;   // dim(Seg ∩ T_B) can be no smaller
  int write_wavefronts = 0;    // per instruction: phases * 2^write_conflict_dim
  int read_wavefronts = 0;
  std::string reason;  // one sentence
};

// What the caller asks of the solver.
struct SolveOptions {
  int write_vec_bits = 128;  // the widest vector the writer may use (bits per lane): a power of two, element width..128
  int read_vec_bits = 128;   // the same for the reader
  // A kernel may number a thread's registers as it likes, so a vector is any
  // 2^k offsets its registers span. Off: vectors are its registers 0..k-1 as the
  // layouts number them (a kernel that issues them in that order).
  bool renumber_registers = true;
  // Also try ldmatrix / stmatrix .x4 (and .trans for 16-bit) on each side whose
  // registers and lanes have an 8x8 b16 matrix's shape (sm_90: both; sm_75: ldmatrix).
  bool matrix_instructions = true;
  // How solve() checks the construction: the whole table and every instruction
  // (Full), a sample of instructions under the linear address function, no table
  // (Sample), or Full up to 2^kFullCheckBits elements and Sample beyond (Automatic).
  enum class Check { Automatic, Full, Sample } check = Check::Automatic;
  static constexpr int kFullCheckBits = 16;
};

// One side's cost: what the warp waits for.
struct SideCost {
  std::string instruction;            // the SASS: STS.128, LDS.U16, LDSM.x4.trans, STSM.x4, ...
  int vec_bits = 0;                   // bits per lane per instruction
  std::int64_t instructions = 0;      // warp instructions over the whole tensor
  int wavefronts = 0;                 // per instruction
  int ideal_wavefronts = 0;           // per instruction: the phases
  int conflicts = 0;                  // wavefronts - ideal, per instruction
  std::int64_t total_wavefronts = 0;  // instructions x wavefronts
};

// One pair of vector widths the solver considered.
struct WidthChoice {
  int write_vec_bits = 0, read_vec_bits = 0;  // the widths asked for (a built layout may let a side go wider)
  bool built = false;                         // false: see note
  SideCost write, read;                       // when built
  std::int64_t total_wavefronts = 0, instructions = 0;
  bool chosen = false;
  std::string note;  // why not built
};

// One pair of instructions the solver tried (plain loads and stores, ldmatrix, stmatrix).
struct InstructionChoice {
  std::string write_instruction, read_instruction;
  bool built = false;  // false: no layout serves this pair (note says why)
  std::int64_t total_wavefronts = 0, instructions = 0;
  bool chosen = false;
  std::string note;
};

// Why no side can vectorise wider than it does (upper bounds over every layout).
struct WidthProof {
  int write_max_bits = 0, read_max_bits = 0;  // each side on its own
  int common_max_bits = 0;                    // the narrower side
  std::string reason;
};

struct SolveResult {
  LinearLayout offset_bases;  // offset -> coords, in dims "offset" and "block" (empty)
  SharedLayout shared;        // the same layout as the simulator runs it (left empty when checked by sample)
  int element_bits = 32;
  int vec_bits = 0;          // bits per lane of Vec (element_bits * 2^|Vec|): the wider side's vector
  AccessResult write, read;  // simulated under `shared` (or a sample, see `sampled`)
  int claimed_write_wavefronts = 0, claimed_read_wavefronts = 0;  // predicted by the construction
  LowerBound bound;
  bool conflict_free = false;  // both accesses at their ideal
  bool fallback = false;       // conflict-free was impossible; the minimum was taken
  std::string check;           // what the simulator said about the claim (merges explained)
  bool sampled = false;        // the check ran a sample of instructions, without a table
  std::int64_t simulated_instructions = 0;

  // The accesses as the kernel issues them: registers renumbered so that each
  // lane's vector is its registers 0..k-1, and vec_bits set to the chosen width.
  // write_registers[i] says which original registers new register i is the XOR
  // of (bit j = register 2^j); the identity when not renumbered.
  Access writer, reader;
  std::vector<std::uint64_t> write_registers, read_registers;
  bool write_renumbered = false, read_renumbered = false;

  SideCost write_cost, read_cost;    // the chosen pair, from the algebra
  std::int64_t total_wavefronts() const { return write_cost.total_wavefronts + read_cost.total_wavefronts; }  // both sides
  std::int64_t total_instructions() const { return write_cost.instructions + read_cost.instructions; }
  WidthProof width;                  // no wider vectors exist
  std::vector<WidthChoice> choices;  // every pair of widths considered for the chosen instructions, widest first
  std::vector<InstructionChoice> instructions;  // every pair of instructions tried (first: plain loads and stores)
  std::string tradeoff;              // a wider pair that cost more, in one sentence; empty when none

  // The construction's sets, as coordinate vectors.
  std::vector<BitVec> vec, within_word, thread_a, thread_b, split_a, split_b;
  std::vector<BitVec> shared_threads /*I*/, only_a /*E*/, only_b /*F*/, paired /*H*/, complement /*C*/, padding;
  std::vector<BitVec> bank, segment;
  std::vector<SolveStep> trace;
};

// Throws swz::Error for bad input (shapes or thread counts differ, a layout
// that is not a bijection up to broadcast, bad widths or caps), before any work;
// throws SolverBug when the simulator contradicts the construction.
SolveResult solve(const Access& writer, const Access& reader, int element_bits, const BankModel& model,
                  const SolveOptions& options);
SolveResult solve(const Access& writer, const Access& reader, int element_bits, const BankModel& model);
SolveResult solve(const Problem& problem, const SolveOptions& options = {});

// The construction and its proof without the simulator check (what the
// benchmark times and the GUI may call per frame); `shared`, `write` and
// `read` are left empty.
SolveResult construct(const Access& writer, const Access& reader, int element_bits, const BankModel& model,
                      const SolveOptions& options);
SolveResult construct(const Access& writer, const Access& reader, int element_bits, const BankModel& model);

// The access as a kernel issues it under a shared layout (offset -> coords):
// registers renumbered so that its widest vector, at most `cap_bits` (or the
// width it asks for), is registers 0..k-1, and vec_bits set to that width.
// Throws swz::Error when a requested width does not fit the layout.
Access issue_under(const Access& access, const LinearLayout& offset_bases, int element_bits, int cap_bits = 128);

// `side` issuing the instruction a user named for it (a width in vec_bits, or ldmatrix / stmatrix)
// under `shared`, read as the solver reads its answer: unchanged where the layout as given serves
// it; an .x4 matrix side holding its data in the lanes as matrix_rows.h derives the rows; a
// width its registers as numbered do not give, with its registers renumbered (issue_under) where
// `shared` is linear. So analyze prices solve's answer on the layouts solve was given. Throws
// swz::Error with the simulator's message when neither serves.
Access issue_as_named(const Access& side, const SharedLayout& shared, int element_bits, const BankModel& model,
                      const std::vector<BitVec>* other_registers = nullptr);

// A sample of the answer's warp instructions, both sides (warp 0's first 8
// steps and the last instruction; every instruction of a linear layout costs
// the same): what `swizzle solve --probe-cases` writes for a GPU to measure.
// Needs the table (a result checked in full). Names: "write warp 0 step 3", ...
struct ProbeRequest {
  std::string name;
  WarpRequest request;
};
std::vector<ProbeRequest> probe_requests(const SolveResult& result, const BankModel& model);

// -- toggle grids -------------------------------------------------------------
// A grid problem's layout is offset(m, n) = m*N + (n ^ mask(m)). The family is
// every mask set (masks toggle only columns at or above GridSpec::vec_bits)
// under which both accesses are conflict-free at the vector widths the
// row-major tile gives them (AccessSides::Both; Read or Write count one side).
// Conflict-free means what a sweep (sim/sweep.h) simulates: every instruction
// at its ideal wavefronts, so family_size(p, s) == sweep(p).conflict_free(s)
// wherever the lemma agrees with the simulator on every configuration.

// masks[j] for a layout that is a toggle grid of this problem's shape, else nullopt.
std::optional<std::vector<std::uint32_t>> masks_of(const Problem& grid_problem, const LinearLayout& offset_bases);

// True when the accesses `sides` are conflict-free under these masks (algebra only).
bool masks_conflict_free(const Problem& grid_problem, const std::vector<std::uint32_t>& masks,
                         AccessSides sides = AccessSides::Both);

// Exact number of mask sets conflict-free for `sides`. Throws for non-grid problems.
std::uint64_t family_size(const Problem& grid_problem, AccessSides sides = AccessSides::Both);

// Lazy enumeration of the family, masks in increasing lexicographic order (row 0 first).
class MaskEnumerator {
 public:
  explicit MaskEnumerator(const Problem& grid_problem);
  ~MaskEnumerator();
  MaskEnumerator(MaskEnumerator&&) noexcept;
  MaskEnumerator& operator=(MaskEnumerator&&) noexcept;
  std::optional<std::vector<std::uint32_t>> next();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

struct Repair {
  bool possible = false;                   // the family is non-empty
  bool exact = true;                       // false only when the search hit its node limit
  int flips = 0;                           // toggles changed
  std::vector<std::uint32_t> masks;        // the repaired masks
  std::vector<std::pair<int, int>> cells;  // (row bit, column bit) of each flip
};
// Fewest toggle flips from `current` to a conflict-free mask set (exact).
Repair repair(const Problem& grid_problem, const std::vector<std::uint32_t>& current);

}  // namespace swz
