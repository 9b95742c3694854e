// lemma.h: bank conflicts as subspace intersections.
//
// With a linear shared layout M (offset bits -> coordinate bits), split the
// offset bits by what they select in the address:
//
//   element offset, low to high:  [ within-word | bank ........ | segment ... ]
//                                    (w < 32)      log2(banks)    the rest
//
// M_Seg = the images of the segment bits: moving an element along one of them
// keeps its bank and changes its row of banks. Thr = the lane bases of one
// phase (lanes that are served together). Two lanes of a phase collide
// exactly when their coordinates differ by a vector in both spans, so
// (Lemma 9.4)
//
//   wavefronts per phase = 2^dim(span(M_Seg) ∩ span(Thr))
//
// and the intersection's basis lists the bad directions. For elements
// narrower than a bank word, lanes that differ only inside a word share it
// (broadcast); the count is then 2^(dim(T ∩ M(Seg+W)) - dim(T ∩ M(W))) with W
// the within-word bits, which is the plain lemma when W = 0.
//
// Lemma 9.5: inside F2^d the largest subspace meeting neither span(U) nor
// span(V) (except in 0) has dimension d - max(dim U, dim V).
#pragma once

#include <string>
#include <vector>

#include "swz/sim/bank.h"

namespace swz {

struct LemmaResult {
  bool applies = false;
  std::string reason;                      // when it does not apply
  int vec_bits = 0;
  int phases = 1, lanes_per_phase = 32;
  std::vector<BitVec> segment_basis;       // M_Seg, as coordinates
  std::vector<BitVec> within_word_basis;   // W, as coordinates (w < 32)
  std::vector<BitVec> thread_basis;        // nonzero lane bases of one phase
  std::vector<BitVec> intersection_basis;  // bad directions
  int intersection_dim = 0;
  int wavefronts_per_phase = 1;            // 2^intersection_dim
  int predicted_wavefronts = 1;            // phases * 2^dim
  int ideal_wavefronts = 1;                // phases
};

// `vec_bits` = the vector width the simulator chose (AccessResult::vector.bits).
LemmaResult predict(const Access& access, const SharedLayout& shared, int element_bits, const BankModel& model, int vec_bits);

// Why the simulator and the lemma differ ("" when they agree).
std::string explain_difference(const LemmaResult& lemma, const AccessResult& simulated);

// Lemma 9.5.
int max_avoiding_dim(int d, int dim_u, int dim_v);

}  // namespace swz
