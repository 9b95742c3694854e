#include "swz/teach/quiz.h"

#include <algorithm>

#include <fmt/format.h>

#include "swz/error.h"

namespace swz {

namespace {

// SplitMix64: a tiny generator whose sequence is the same on every platform (std distributions are not).
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
};

std::vector<std::string> names(const std::vector<BitVec>& vs, const Problem& p) {
  std::vector<std::string> out;
  for (BitVec v : vs) out.push_back(p.shared.coords().describe_out(v));
  return out;
}

std::string span_text(const std::vector<std::string>& basis) {
  return basis.empty() ? std::string("{0}") : fmt::format("span{{{}}}", fmt::join(basis, ", "));
}

}  // namespace

const std::vector<std::string>& quiz_presets() {
  static const std::vector<std::string> presets = {"transpose16x32", "toy8x8"};
  return presets;
}

void QuizScore::record(bool right) {
  ++asked;
  if (right) {
    ++correct;
    best_streak = std::max(best_streak, ++streak);
  } else {
    streak = 0;
  }
}

Problem problem_for_question(const QuizQuestion& q) {
  Problem p = make_preset(q.preset);
  p.set_masks(q.masks);
  return p;
}

QuizQuestion make_quiz_question(std::uint64_t seed) {
  Random rng{seed};
  const auto& presets = quiz_presets();
  return make_quiz_question(rng.next(), presets[rng.below(static_cast<std::uint32_t>(presets.size()))]);
}

QuizQuestion make_quiz_question(std::uint64_t seed, const std::string& preset) {
  const auto& presets = quiz_presets();
  if (std::find(presets.begin(), presets.end(), preset) == presets.end())
    fail("the quiz draws from {}, not '{}'", fmt::join(presets, ", "), preset);
  Random rng{seed};
  Problem p = make_preset(preset);
  const GridSpec g = *p.grid;
  QuizQuestion q;
  q.preset = preset;
  q.access = rng.below(5) == 0 ? LessonAccess::Store : LessonAccess::Read;
  // The read can lose up to one factor of two per row bit; the store never conflicts on a toggle grid.
  const int target_dim = q.access == LessonAccess::Read ? static_cast<int>(rng.below(static_cast<std::uint32_t>(g.row_bits + 1))) : 0;
  const std::uint32_t columns = std::uint32_t{1} << g.col_bits;
  ProblemAnalysis analysis;
  for (int attempt = 0; attempt < 400; ++attempt) {
    // Masks lean towards few bits, so strong conflicts turn up as often as none.
    std::vector<std::uint32_t> masks(static_cast<std::size_t>(g.row_bits));
    for (auto& m : masks) {
      const auto kind = rng.below(3);
      m = kind == 0 ? 0u : kind == 1 ? (std::uint32_t{1} << (g.vec_bits + rng.below(static_cast<std::uint32_t>(g.col_bits - g.vec_bits)))) : rng.below(columns);
      m &= ~((std::uint32_t{1} << g.vec_bits) - 1);
    }
    p.set_masks(masks);
    analysis = analyze(p);
    q.masks = p.masks;
    const AccessAnalysis& a = q.access == LessonAccess::Store ? analysis.store : analysis.read;
    if (!a.lemma.applies || a.lemma.intersection_dim == target_dim) break;
  }
  const AccessAnalysis& a = q.access == LessonAccess::Store ? analysis.store : analysis.read;
  q.wavefronts = a.simulated.wavefronts;
  q.ideal_wavefronts = a.simulated.ideal_wavefronts;
  q.verdict = verdict_text(a.simulated);
  q.lemma_applies = a.lemma.applies;
  q.intersection_dim = a.lemma.intersection_dim;
  q.segment_basis = names(a.lemma.segment_basis, p);
  q.thread_basis = names(a.lemma.thread_basis, p);
  q.intersection_basis = names(a.lemma.intersection_basis, p);
  for (int d = 0; d <= g.row_bits; ++d) q.choices.push_back(q.ideal_wavefronts << d);
  if (std::find(q.choices.begin(), q.choices.end(), q.wavefronts) == q.choices.end()) {
    q.choices.push_back(q.wavefronts);
    std::sort(q.choices.begin(), q.choices.end());
  }

  const char* thr = q.access == LessonAccess::Store ? "A_Thr" : "B_Thr";
  if (!q.lemma_applies) {
    q.explanation = fmt::format("The simulator counts {}; the subspace count does not apply here ({}).", q.verdict, a.lemma.reason);
  } else if (q.intersection_dim == 0) {
    q.explanation = fmt::format(
        "span(M_Seg) = {} and span({}) = {} share only the zero vector, so no two lanes served together sit in one bank "
        "at different addresses: {} wavefront{} per instruction, the ideal.",
        span_text(q.segment_basis), thr, span_text(q.thread_basis), q.wavefronts, q.wavefronts == 1 ? "" : "s");
  } else {
    q.explanation = fmt::format(
        "span(M_Seg) ∩ span({}) = {} has dimension {}: moving along any of these directions changes the lane and keeps the "
        "bank while changing the row of banks, so 2^{{{}}} = {} lanes queue on each bank: {}.",
        thr, span_text(q.intersection_basis), q.intersection_dim, q.intersection_dim, 1 << q.intersection_dim, q.verdict);
  }
  return q;
}

}  // namespace swz
