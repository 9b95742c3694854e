// lesson_facts.h: claim quantities that reach past one simulated access.
//
//   swizzle(B,M,S).of(o)                 CuTe's Swizzle<B,M,S> applied to offset o
//   tma(W).name, .repeat_bytes, .max_inner_box_bytes, .shared_alignment, .global_alignment
//   tma(W).pattern_shift(BASE)           128-byte lines the W-byte pattern is shifted by on a buffer at BASE
//   tma(W).box_row_shift(BASE)           the same in rows of the mode's widest box (W bytes a row)
//   tma(W).inner_box_fits                the step's tile rows are a box the W-byte mode accepts (W = 0: NONE)
//   tma(W).matches_layout                the step's shared layout is the W-byte mode's pattern on its tile
//   tma.mode, tma.box_legal              the mode whose pattern the shared layout is (any row width; null: none);
//                                        whether that mode accepts the tile's rows as its box
//   xor_table(R,C).column_spread         every column's R elements land in R different columns
//   xor_table(R,C).bijection             every (m, n ^ m) is inside the tile and no two coincide
//   store.offset_of(REG,LANE), read.offset_of(REG,LANE)
//                                        the offset a lane's register touches: M^{-1} composed with the access
//   element_at(o)                        the element [m, n] stored at offset o (null for padding)
//   wavefront_bytes                      what one wavefront moves: banks x bank bytes
//   store.bytes_per_instruction, read.bytes_per_instruction
//                                        what one instruction moves, counted on its lanes: over
//                                        wavefront_bytes, the fewest wavefronts it can take
//   solve.write.*, solve.read.*          the construction's answer: wavefronts, ideal_wavefronts, instruction, vec_bits
//   solve.conflict_free, solve.fallback  whether it reaches the ideal; whether it had to pad
//   solve.X_basis                        its sets: vec, split_a, split_b, I, E, F, H, C, padding, segment, bank
//   cp_async(BYTES,SOURCE,SHARED).X      one warp's cp.async.ca, lane i from global i*SOURCE to shared i*SHARED
//   cp_async_cg(SOURCE,SHARED).X         the same, 16 bytes around L1 as Triton issues it (a predicate, no size register)
//   cp_async.rows(PITCH).X               the step's store as a cp.async from a row-major global tile, rows PITCH
//                                        bytes apart; X: wavefronts, ideal_wavefronts, instruction, modelled (and
//                                        source_banks, shared_banks for a strided warp): lesson_copy_facts.cpp
//   banks, lanes                         the step's GPU's banks and lanes per warp or wavefront
//   phase(BYTES,LANE).read_lanes, .write_lanes
//                                        the lanes one phase of a BYTES-wide read or write serves with LANE
//   lane_pair(BYTES,A,B,APART).read_conflict, .write_conflict, .read_passes, .write_passes
//                                        lanes A and B alone, at bytes 0 and APART: more passes than
//                                        without a conflict; the passes (lesson_gpu_facts.cpp)
//
// Each is computed by the core's own code (the factories, the solver, the layout algebra).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "swz/problem/problem.h"

namespace swz {

// One name of a quantity with its arguments:
// "tma(64).pattern_shift(0x80)" -> {"tma", {64}}, {"pattern_shift", {128}}.
struct QuantityPart {
  std::string name;
  std::vector<std::int64_t> args;
  bool called = false;  // written with parentheses
};
// Throws swz::Error naming the quantity when it is malformed (an argument that is not a
// non-negative integer, a missing ')').
std::vector<QuantityPart> quantity_parts(const std::string& quantity);

// The value of `quantity` when it is one of the above, nullopt when it is not; throws
// swz::Error for one of the above with bad arguments.
// The cp.async quantities (lesson_copy_facts.cpp); `parts` are the quantity's, its head cp_async or cp_async_cg.
nlohmann::json copy_fact(const std::string& quantity, const std::vector<QuantityPart>& parts, const Problem& problem);
// The GPU quantities (lesson_gpu_facts.cpp); the head banks, lanes, phase or lane_pair.
nlohmann::json gpu_fact(const std::string& quantity, const std::vector<QuantityPart>& parts, const Problem& problem);
// Throws swz::Error naming the quantity unless `part` has `n` arguments.
void want_args(const std::string& quantity, const QuantityPart& part, std::size_t n);

std::optional<nlohmann::json> measure_fact(const std::string& quantity, const Problem& problem);

}  // namespace swz
