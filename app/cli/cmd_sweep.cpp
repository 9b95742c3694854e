// swizzle sweep: every toggle-grid configuration, brute force and algebra.
#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

#include "command.h"
#include "common.h"
#include "swz/sweep.h"

namespace swz::cli {
namespace {

struct Options {
  ProblemOptions problem;
  bool json = false;
  int threads = 0;
};

Register reg{{"sweep", "Simulate every toggle-grid configuration and check the lemma on each", 40, [](CLI::App& sub) {
  auto o = std::make_shared<Options>();
  sub.add_option("--preset", o->problem.preset, "Preset with a toggle grid")->default_str(kDefaultPreset);
  sub.add_option("--banks", o->problem.banks, "Number of banks");
  sub.add_option("--threads", o->threads, "Worker threads (default: all cores)");
  sub.add_flag("--json", o->json, "One JSON object on stdout");
  sub.callback([o] {
    const Problem p = load_problem(o->problem);
    const bool tty = isatty(fileno(stdout)) && !o->json;
    auto progress = [tty](std::int64_t done, std::int64_t total) {
      if (!tty) return;
      const int width = 40;
      const int filled = total ? static_cast<int>(width * done / total) : width;
      fmt::print("\r[{}{}] {:3}%", std::string(static_cast<std::size_t>(filled), '#'),
                 std::string(static_cast<std::size_t>(width - filled), ' '), total ? 100 * done / total : 100);
      std::fflush(stdout);
    };
    const SweepResult r = sweep(p, tty ? std::function<void(std::int64_t, std::int64_t)>(progress) : nullptr, o->threads);
    if (tty) fmt::print("\n");
    nlohmann::json hist = nlohmann::json::object();
    for (const auto& [w, n] : r.histogram) hist[std::to_string(w)] = n;
    if (o->json) {
      nlohmann::json j{{"preset", p.name}, {"configs", r.configs}, {"conflict_free", r.conflict_free},
                       {"lemma_agrees", r.lemma_agrees}, {"histogram", hist}, {"elapsed_ms", r.elapsed_ms},
                       {"threads", r.threads}, {"fast_path", r.fast_path}};
      if (!r.first_disagreement.empty()) j["first_disagreement"] = r.first_disagreement;
      print_json(j);
      return;
    }
    fmt::print("{}: {} configurations of the {}x{} toggle grid in {:.1f} ms ({} thread{})\n", p.name, r.configs,
               p.grid->row_bits, p.grid->col_bits - p.grid->vec_bits, r.elapsed_ms, r.threads, r.threads == 1 ? "" : "s");
    fmt::print("read wavefronts (worst instruction) -> configurations:\n");
    for (const auto& [w, n] : r.histogram) fmt::print("  {:>4} : {}\n", w, n);
    fmt::print("conflict-free: {}\nlemma agrees with the simulator: {} of {}\n", r.conflict_free, r.lemma_agrees, r.configs);
    if (!r.first_disagreement.empty())
      fmt::print("first disagreement at masks {} (see `swizzle analyze --mask`)\n", format_masks(r.first_disagreement));
  });
}}};

}  // namespace
}  // namespace swz::cli
