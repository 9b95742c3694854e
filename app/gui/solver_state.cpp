#include "solver_state.h"

#include <fmt/format.h>

#include <chrono>
#include <system_error>
#include <thread>

#include "swz/error.h"
#include "swz/solve/solve_report.h"

namespace swz::gui {

namespace {
constexpr std::int64_t kFamilyMostElements = std::int64_t{1} << 16;
double now_seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
}  // namespace

SolverState::~SolverState() = default;  // a running worker owns its job through shared_ptr and finishes alone

const SolverAnswer& SolverState::answer(const Problem& problem, const ProblemSpec& key) {
  if (answer_ && answer_->key == key) return *answer_;
  SolverAnswer a;
  a.key = key;
  try {
    // The call `swizzle solve` makes, so the panel shows the CLI's answer: plain loads and stores,
    // ldmatrix and stmatrix tried, checked in full up to 2^16 elements and by sample beyond. The
    // family is counted by family() on a worker.
    SolveRequest request;
    request.count_family = false;
    SolveReport report = solve_spec(key, request);
    a.result = std::move(report.result);
    a.registers = std::move(report.registers);
    if (problem.grid) a.masks = masks_of(problem, a.result->offset_bases);
  } catch (const Error& e) {
    a.error = e.what();
  } catch (const SolverBug& e) {
    a.error = e.what();
  }
  answer_ = std::move(a);
  return *answer_;
}

std::optional<FamilyAnswer> SolverState::family(const Problem& problem, const ProblemSpec& key) {
  if (!problem.grid) return std::nullopt;
  // As `swizzle solve`: past 2^16 elements the answer is checked on a sample and the family is not
  // counted (a search exponential in the grid's rows, no answer in any time a panel can wait).
  if (problem.shared.elements() > kFamilyMostElements) {
    FamilyAnswer a;
    a.done = true;
    a.error = fmt::format("Family and repair: not counted past 2^16 elements (this tile has 2^{}), as swizzle solve",
                          problem.shared.coord_bits());
    return a;
  }
  if (job_) {
    std::lock_guard<std::mutex> lock(job_->mutex);
    if (job_->key == key) {
      if (job_->answer.done) return job_->answer;
      return std::nullopt;
    }
    // One worker at a time: a newer question waits until the running one is answered.
    if (!job_->answer.done) return std::nullopt;
  }
  // Stale or none: start a worker on a copy of the problem.
  auto job = std::make_shared<Job>();
  job->key = key;
  job->started = now_seconds();
  job_ = job;
  auto work = [job, problem]() {
    FamilyAnswer a;
    const double t0 = now_seconds();
    try {
      a.size = family_size(problem);
      a.repair = repair(problem, problem.masks);
    } catch (const std::exception& e) {
      a.error = e.what();
    }
    a.seconds = now_seconds() - t0;
    a.done = true;
    std::lock_guard<std::mutex> lock(job->mutex);
    job->answer = std::move(a);
  };
  try {
    std::thread(work).detach();
  } catch (const std::system_error&) {
    work();  // no threads to start (the browser's build): answered now, drawn from the next frame
  }
  return std::nullopt;
}

bool SolverState::busy() const {
  if (!job_) return false;
  std::lock_guard<std::mutex> lock(job_->mutex);
  return !job_->answer.done;
}

double SolverState::running_seconds() const { return job_ ? now_seconds() - job_->started : 0.0; }

}  // namespace swz::gui
