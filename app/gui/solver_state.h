// solver_state.h: the solver's answer for the current problem, cached by
// problem state. The construction is fast and runs on the UI thread; counting
// the toggle-grid family and searching for a repair can take seconds on big
// grids, so they run on a worker thread and the panel polls.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "session.h"
#include "swz/solve/solve_report.h"
#include "swz/solve/solver.h"

namespace swz::gui {

struct SolverAnswer {
  ProblemSpec key;                                   // the problem it answers
  std::optional<SolveResult> result;
  std::optional<RegisterSuggestion> registers;        // the register blocks `swizzle solve` suggests, if any
  std::string error;                                  // bad input, or a solver bug (simulator vs algebra)
  std::optional<std::vector<std::uint32_t>> masks;    // the answer as grid masks, when it is a grid layout
};

// The answer as a command: masks for a grid problem, else the shared layout (panel_solver.cpp).
std::optional<Command> solver_command(const SolverAnswer& answer);

// Family size and repair of a grid problem, computed in the background.
struct FamilyAnswer {
  bool done = false;
  std::uint64_t size = 0;
  Repair repair;
  std::string error;
  double seconds = 0;
};

class SolverState {
 public:
  ~SolverState();
  // The construction for `problem` (state `key`), recomputed when the key changed.
  const SolverAnswer& answer(const Problem& problem, const ProblemSpec& key);
  // Family and repair for a grid problem; starts the worker when stale. Null while computing.
  std::optional<FamilyAnswer> family(const Problem& problem, const ProblemSpec& key);
  bool busy() const;
  // How long the current family job has run.
  double running_seconds() const;

 private:
  struct Job {
    mutable std::mutex mutex;
    ProblemSpec key;
    FamilyAnswer answer;
    double started = 0;
  };
  std::optional<SolverAnswer> answer_;
  std::shared_ptr<Job> job_;
};

}  // namespace swz::gui
