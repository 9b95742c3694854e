#include "swz/algebra/lemma.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "swz/error.h"

namespace swz {

int max_avoiding_dim(int d, int dim_u, int dim_v) { return std::max(0, d - std::max(dim_u, dim_v)); }

LemmaResult predict(const Access& access, const SharedLayout& shared, int ebits, const BankModel& model, int vec_bits) {
  LemmaResult r;
  r.vec_bits = vec_bits;
  const AccessGeometry geometry = access_geometry(access, ebits, vec_bits, model);
  r.lanes_per_phase = geometry.lanes_per_phase;
  r.phases = geometry.phases;
  r.ideal_wavefronts = r.phases;
  if (!shared.is_linear()) {
    r.reason = "the shared layout is not linear: " + shared.nonlinear_reason();
    return r;
  }
  const LinearLayout& m = shared.linear();
  const auto& offset_bases = m.bases("offset");
  const int n = static_cast<int>(offset_bases.size());
  const int within_word = geometry.offset.within_word;
  const int seg_start = geometry.offset.segment_start;
  const int width = m.out_bits();
  for (int i = 0; i < n; ++i) {
    if (i < within_word) r.within_word_basis.push_back(offset_bases[static_cast<std::size_t>(i)]);
    if (i >= seg_start) r.segment_basis.push_back(offset_bases[static_cast<std::size_t>(i)]);
  }
  // A phase is the first lane bases once the phases are runs (AMD's ds_read_b128: cosets of lane bits).
  const auto lanes = lane_bases_in_phase_order(access.layout.bases("lane"), geometry.lane_phases);
  const int phase_bits = std::countr_zero(static_cast<unsigned>(r.lanes_per_phase));
  for (int i = 0; i < phase_bits && i < static_cast<int>(lanes.size()); ++i)
    if (lanes[static_cast<std::size_t>(i)] != 0) r.thread_basis.push_back(lanes[static_cast<std::size_t>(i)]);
  const Subspace threads = Subspace::span(r.thread_basis, width);
  const Subspace words = Subspace::span(r.within_word_basis, width);
  Subspace seg_and_words = Subspace::span(r.segment_basis, width).sum(words);
  const Subspace bad = threads.intersect(seg_and_words);
  const Subspace shared_word = threads.intersect(words);
  r.intersection_basis = extend_basis(shared_word, bad.basis());
  r.intersection_dim = static_cast<int>(r.intersection_basis.size());
  r.wavefronts_per_phase = 1 << r.intersection_dim;
  r.predicted_wavefronts = r.phases * r.wavefronts_per_phase;
  r.applies = true;
  return r;
}

std::string explain_difference(const LemmaResult& lemma, const AccessResult& sim) {
  if (!lemma.applies) return lemma.reason;
  if (sim.vector.bits != lemma.vec_bits) return fmt::format("the lemma was evaluated for {}-bit vectors, the simulator used {}", lemma.vec_bits, sim.vector.bits);
  if (lemma.predicted_wavefronts == sim.wavefronts) return "";
  if (sim.merged && sim.wavefronts < lemma.predicted_wavefronts)
    return fmt::format("the lemma's count is an upper bound here: every lane reads the same address as its partner lane "
                       "(lane ^ 1 or lane ^ 2), so the hardware serves this {}-bit load in phases twice as wide ({} lanes, "
                       "measured on the H100) and needs {} wavefronts where the lemma's {} phases of {} lanes give {}",
                       sim.vector.bits, 2 * lemma.lanes_per_phase, sim.wavefronts, lemma.phases, lemma.lanes_per_phase,
                       lemma.predicted_wavefronts);
  return fmt::format("the lemma predicts {} wavefronts but the simulator counts {}: this is a bug, please report it",
                     lemma.predicted_wavefronts, sim.wavefronts);
}

}  // namespace swz
