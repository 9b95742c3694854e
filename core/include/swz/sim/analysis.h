// analysis.h: one access or a whole problem, simulated and predicted side by side.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "swz/algebra/lemma.h"
#include "swz/problem/problem.h"

namespace swz {

struct AccessAnalysis {
  AccessResult simulated;
  std::string instruction;  // the SASS the access issues at the simulated width (instruction_name)
  LemmaResult lemma;
  std::string difference;  // "" when predicted == simulated; else why
  bool agrees() const { return difference.empty(); }
};

AccessAnalysis analyze_access(const Access& access, const SharedLayout& shared, int element_bits, const BankModel& model);

struct ProblemAnalysis {
  AccessAnalysis store, read;
};
ProblemAnalysis analyze(const Problem& problem);

// JSON views (the CLI's --json output; keys documented in README).
nlohmann::json to_json(const AccessAnalysis& a, const LinearLayout& coords_names);
nlohmann::json to_json(const ProblemAnalysis& a, const Problem& p);

// "1 wavefront", "2 wavefronts, 2-way conflict"; the verdict color class.
std::string verdict_text(const AccessResult& r);
enum class Verdict { Ideal, Minor, Severe };  // green, amber, red
Verdict verdict_of(const AccessResult& r);

}  // namespace swz
