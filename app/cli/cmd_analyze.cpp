// swizzle analyze: both accesses of a problem, simulated and predicted.
#include <fmt/format.h>

#include "command.h"
#include "common.h"
#include "swz/sim/analysis.h"
#include "swz/sim/global_side.h"

namespace swz::cli {
namespace {

struct Options {
  ProblemArguments problem;
  bool json = false;
};

void print_access(const char* title, const AccessAnalysis& a, const LinearLayout& names) {
  const AccessResult& s = a.simulated;
  fmt::print("{}: {} per instruction (ideal {}), {} instruction{}, {}-bit vectors ({})\n", title, verdict_text(s),
             s.ideal_wavefronts, s.instructions(), s.instructions() == 1 ? "" : "s", s.vector.bits, a.instruction);
  if (s.sampled)
    fmt::print("  per step: a sample of {} of the {} instructions simulated (no table)\n", s.simulated_instructions,
               s.instructions());
  else
    fmt::print("  per step: {}\n", fmt::join(s.per_instruction, " "));
  if (a.lemma.applies) {
    std::vector<std::string> basis;
    for (BitVec v : a.lemma.intersection_basis) basis.push_back(names.describe_out(v));
    fmt::print("  algebra: dim(span(M_Seg) ∩ span(Thr)) = {} {{{}}}, predicted {} x 2**{} = {} wavefronts {}\n",
               a.lemma.intersection_dim, fmt::join(basis, ", "), a.lemma.phases, a.lemma.intersection_dim,
               a.lemma.predicted_wavefronts, a.agrees() ? "(agrees)" : "(differs)");
  }
  if (!a.agrees()) fmt::print("  note: {}\n", a.difference);
}

Register reg{{"analyze", "Simulate and predict the store and the read of a problem", 20, [](CLI::App& sub) {
  auto o = std::make_shared<Options>();
  add_problem_options(sub, o->problem);
  sub.add_flag("--json", o->json, "One JSON object on stdout");
  sub.callback([o] {
    const Problem p = load_problem(o->problem);
    const ProblemAnalysis a = analyze(p);
    if (o->json) {
      print_json(to_json(a, p));
      return;
    }
    fmt::print("{}: {}\nshared layout: {}\n", p.name, p.description, p.shared.description());
    print_access("store", a.store, p.shared.coords());
    if (p.store.async_copy) fmt::print("  {}\n", global_side_text(p.store, p.shared, p.element_bits, p.bank, p.copy_placement));
    print_access("read", a.read, p.shared.coords());
  });
}}};

}  // namespace
}  // namespace swz::cli
