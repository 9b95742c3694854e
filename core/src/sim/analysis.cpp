#include "swz/sim/analysis.h"

#include <fmt/format.h>

#include "swz/export/english.h"
#include "swz/sim/global_side.h"
#include "swz/sim/gpu.h"

namespace swz {

AccessAnalysis analyze_access(const Access& access, const SharedLayout& shared, int ebits, const BankModel& model) {
  AccessAnalysis a;
  a.simulated = simulate(access, shared, ebits, model);
  a.instruction = instruction_name(access, a.simulated.vector.bits, model);
  a.lemma = predict(access, shared, ebits, model, a.simulated.vector.bits);
  a.difference = explain_difference(a.lemma, a.simulated);
  if (access.async_copy && a.simulated.modelled && a.lemma.applies && a.lemma.vec_bits == a.simulated.vector.bits &&
      !a.difference.empty())
    a.difference = fmt::format("a cp.async's words come through the banks by their global source (bank model rule 4): the "
                               "lemma counts the shared side alone, {}, and the source banks' turns make {}",
                               counted(a.lemma.predicted_wavefronts, "wavefront"), a.simulated.wavefronts);
  return a;
}

ProblemAnalysis analyze(const Problem& p) {
  return {analyze_access(p.store, p.shared, p.element_bits, p.bank), analyze_access(p.read, p.shared, p.element_bits, p.bank)};
}

namespace {
nlohmann::json vectors(const std::vector<BitVec>& vs, const LinearLayout& names) {
  nlohmann::json j = nlohmann::json::array();
  for (BitVec v : vs) j.push_back(names.describe_out(v));
  return j;
}
}  // namespace

nlohmann::json to_json(const AccessAnalysis& a, const LinearLayout& names) {
  const AccessResult& s = a.simulated;
  nlohmann::json j;
  j["wavefronts"] = s.wavefronts;
  j["ideal_wavefronts"] = s.ideal_wavefronts;
  j["conflicts"] = s.conflicts;
  j["mean_wavefronts"] = s.mean_wavefronts;
  j["total_wavefronts"] = s.total_wavefronts;
  j["instructions"] = s.instructions();
  j["steps"] = s.steps;
  j["warps"] = s.warps;
  j["instruction"] = a.instruction;
  j["vec_bits"] = s.vector.bits;
  j["vec_limit"] = s.vector.limit;
  j["lanes_per_phase"] = s.lanes_per_phase;
  j["phases"] = s.phases;
  j["banks"] = s.banks;  // the instruction's own, where it has fewer than the GPU's
  j["merged"] = s.merged;
  j["per_step"] = s.per_instruction;  // empty when sampled
  j["sampled"] = s.sampled;
  j["simulated_instructions"] = s.simulated_instructions;
  j["verdict"] = verdict_text(s);
  j["lemma_applies"] = a.lemma.applies;
  if (a.lemma.applies) {
    j["predicted_wavefronts"] = a.lemma.predicted_wavefronts;
    j["intersection_dim"] = a.lemma.intersection_dim;
    j["intersection_basis"] = vectors(a.lemma.intersection_basis, names);
    j["segment_basis"] = vectors(a.lemma.segment_basis, names);
    j["thread_basis"] = vectors(a.lemma.thread_basis, names);
  } else {
    j["predicted_wavefronts"] = nullptr;
    j["intersection_dim"] = nullptr;
  }
  j["agrees"] = a.agrees();
  if (!a.agrees()) j["difference"] = a.difference;
  return j;
}

nlohmann::json to_json(const ProblemAnalysis& a, const Problem& p) {
  nlohmann::json j;
  j["preset"] = p.name;
  j["shape"] = p.shape;
  j["element_bits"] = p.element_bits;
  j["gpu"] = gpu_of(p.bank).name;
  j["banks"] = p.bank.banks;
  j["layout"] = p.shared.description();
  if (p.grid) j["masks"] = p.masks;
  j["store"] = to_json(a.store, p.shared.coords());
  if (p.store.async_copy) j["store"]["global"] = global_side_json(p.store, p.shared, p.element_bits, p.bank, p.copy_placement);
  j["read"] = to_json(a.read, p.shared.coords());
  return j;
}

std::string verdict_text(const AccessResult& r) {
  std::string s = counted(r.wavefronts, "wavefront");
  if (r.conflicts > 0) {
    const int ways = (r.wavefronts + r.ideal_wavefronts - 1) / r.ideal_wavefronts;
    s += fmt::format(", {}-way conflict", ways);
  }
  return s;
}

Verdict verdict_of(const AccessResult& r) {
  if (r.conflicts == 0) return Verdict::Ideal;
  return r.wavefronts <= 2 * r.ideal_wavefronts ? Verdict::Minor : Verdict::Severe;
}

}  // namespace swz
