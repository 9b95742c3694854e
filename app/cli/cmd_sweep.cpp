// swizzle sweep: every toggle-grid configuration, brute force and algebra.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "command.h"
#include "common.h"
#include "swz/error.h"
#include "swz/sim/sweep.h"

namespace swz::cli {
namespace {

struct Options {
  ProblemArguments problem;
  bool json = false;
  int threads = 0;
  double max_minutes = 10;
  bool quiet = false;
};

// A sweep of a big grid the fast path does not cover (sub-word vectors, broadcast, ...)
// simulates every configuration in full: 2^21 of a 128x128 tile is hours. The core's
// projection is said (or refused past the limit) before the sweep starts; the progress
// reports project the whole again as it runs, and one past the limit stops the sweep, saying so.
class SweepWatch {
 public:
  SweepWatch(const Problem& p, double max_minutes, bool tty, bool json)
      : name_(p.name), bits_(p.grid ? p.grid->configs_log2() : 0), max_minutes_(max_minutes), tty_(tty), json_(json) {}
  void check(std::int64_t done, std::int64_t total) const {
    if (max_minutes_ <= 0 || total <= 0) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (elapsed < 2.0) return;  // too early to project
    const double projected_min = done > 0 ? elapsed * static_cast<double>(total) / static_cast<double>(done) / 60.0 : elapsed / 60.0;
    if (projected_min <= max_minutes_ && elapsed / 60.0 <= max_minutes_) return;
    // Worker threads are mid-configuration: report and leave at once, as an interrupted run would.
    std::fflush(stdout);
    const std::string why =
        done > 0 ? fmt::format("it would take about {:.0f} minutes ({} of {} done in {:.0f} s)", projected_min, done, total, elapsed)
                 : fmt::format("no configuration finished in {:.0f} s", elapsed);
    if (tty_) fmt::print(stderr, "\n");  // after the progress line
    print_failure(json_, "swizzle: error",
                  fmt::format("sweep of the 2**{} configurations of {} stopped: {}; the limit is {} minutes (--max-minutes; 0 = none)",
                              bits_, name_, why, max_minutes_));
    std::_Exit(2);
  }

 private:
  std::string name_;
  std::int64_t bits_;
  double max_minutes_;
  bool tty_;
  bool json_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// "40 ms", "12 s", "3.4 minutes", "2.5 hours".
std::string duration_text(double seconds) {
  if (seconds < 1) return fmt::format("{:.0f} ms", seconds * 1000);
  if (seconds < 90) return fmt::format("{:.0f} s", seconds);
  if (seconds < 5400) return fmt::format("{:.1f} minutes", seconds / 60);
  return fmt::format("{:.1f} hours", seconds / 3600);
}

nlohmann::json side_json(const SweepSide& side) {
  nlohmann::json hist = nlohmann::json::object();
  for (const auto& [w, n] : side.histogram) hist[std::to_string(w)] = n;
  nlohmann::json j{{"ideal_wavefronts", side.ideal_wavefronts},
                   {"conflict_free", side.conflict_free},
                   {"lemma_agrees", side.lemma_agrees},
                   {"histogram", hist},
                   {"path", side.path.fast ? "fast" : "simulate"}};
  if (!side.path.fast) j["slow_reason"] = side.path.reason;
  if (!side.first_disagreement.empty()) j["first_disagreement"] = side.first_disagreement;
  return j;
}

Register reg{{"sweep", "Simulate both sides of every toggle-grid configuration; check the lemma on each", 40, [](CLI::App& sub) {
  auto o = std::make_shared<Options>();
  // Any problem whose shared layout is a toggle grid (a row-major 2-D tile): a preset, or --src/--dst.
  add_problem_options(sub, o->problem, {"--mask", "--layout", "--shared"});
  sub.add_option("--threads", o->threads, "Worker threads, 1 to 256 (default: all cores)")->check(CLI::Range(1, 256));
  sub.add_flag("--json", o->json, "One JSON object on stdout");
  sub.add_option("--max-minutes", o->max_minutes, "Stop a sweep projected to run longer than this (0: no limit)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e6));
  sub.add_flag("-q,--quiet", o->quiet, "No progress bar");
  sub.callback([o] {
    const Problem p = load_problem(o->problem);
    // The bar goes to stderr, only on a terminal: piped or redirected output stays clean.
    const bool tty = isatty(fileno(stderr)) && !o->quiet;
    // A side off the fast path is said before any work, with the time the core projects for it.
    const SweepProjection plan = sweep_projection(p, o->threads);
    if (!plan.read.fast || !plan.write.fast) {
      std::string sides;
      for (const auto& [name, path] : {std::pair{"reads", plan.read}, std::pair{"writes", plan.write}})
        if (!path.fast) sides += fmt::format("{}{} ({})", sides.empty() ? "" : "; ", name, path.reason);
      const double minutes = plan.seconds / 60.0;
      if (o->max_minutes > 0 && minutes > o->max_minutes)
        fail("sweep of the 2**{} configurations of {} stopped: projected at {} before starting ({} simulated per configuration); "
             "the limit is {} minutes (--max-minutes; 0 = none)",
             p.grid->configs_log2(), p.name, duration_text(plan.seconds), sides, o->max_minutes);
      fmt::print(stderr,
                 "swizzle: note: {} off the fast path, simulated per configuration: projected {} for the 2**{} configurations "
                 "on {} thread{}\n",
                 sides, duration_text(plan.seconds), p.grid->configs_log2(), plan.threads, plan.threads == 1 ? "" : "s");
      std::fflush(stderr);
    }
    const SweepWatch watch(p, o->max_minutes, tty, o->json);
    auto progress = [tty, &watch](std::int64_t done, std::int64_t total) {
      watch.check(done, total);
      if (!tty) return;
      const int width = 40;
      const int filled = total ? static_cast<int>(width * done / total) : width;
      fmt::print(stderr, "\r[{}{}] {:3}%", std::string(static_cast<std::size_t>(filled), '#'),
                 std::string(static_cast<std::size_t>(width - filled), ' '), total ? 100 * done / total : 100);
      std::fflush(stderr);
    };
    const SweepResult r = sweep(p, progress, o->threads);
    if (tty) fmt::print(stderr, "\n");
    if (o->json) {
      nlohmann::json j{{"preset", p.name},
                       {"configs", r.configs},
                       {"conflict_free",
                        {{"read", r.read.conflict_free}, {"write", r.write.conflict_free}, {"both", r.conflict_free_both}}},
                       {"read", side_json(r.read)},
                       {"write", side_json(r.write)},
                       {"elapsed_ms", r.elapsed_ms},
                       {"threads", r.threads},
                       {"fast_path", r.fast_path}};
      print_json(j);
      return;
    }
    fmt::print("{}: {} configurations of the {}x{} toggle grid in {:.1f} ms ({} thread{})\n", p.name, r.configs,
               p.grid->row_bits, p.grid->col_bits - p.grid->vec_bits, r.elapsed_ms, r.threads, r.threads == 1 ? "" : "s");
    for (const auto& [name, side] : {std::pair{"read", &r.read}, std::pair{"write", &r.write}}) {
      fmt::print("{} wavefronts (worst instruction) -> configurations ({}):\n", name,
                 side->path.fast ? "fast path" : "simulated per configuration: " + side->path.reason);
      for (const auto& [w, n] : side->histogram) fmt::print("  {:>4} : {}\n", w, n);
    }
    fmt::print("conflict-free (worst instruction at the ideal wavefronts):\n");
    fmt::print("  reads:  {} (ideal {})\n  writes: {} (ideal {})\n  both:   {} (the conflict-free family of `swizzle solve`)\n",
               r.read.conflict_free, r.read.ideal_wavefronts, r.write.conflict_free, r.write.ideal_wavefronts,
               r.conflict_free_both);
    fmt::print("lemma agrees with the simulator: reads {} of {}, writes {} of {}\n", r.read.lemma_agrees, r.configs,
               r.write.lemma_agrees, r.configs);
    for (const auto& [name, side] : {std::pair{"reads", &r.read}, std::pair{"writes", &r.write}})
      if (!side->first_disagreement.empty())
        fmt::print("first disagreement ({}) at masks {} (see `swizzle analyze --mask`)\n", name,
                   format_masks(side->first_disagreement));
  });
}}};

}  // namespace
}  // namespace swz::cli
