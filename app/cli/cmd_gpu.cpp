// swizzle gpu: run a problem's layout on the GPU; hardware counters beside the simulator.
//
// Exit status: 0 ran (see "correct" / "matches"), 2 bad input, 3 no GPU can run it
// here (no CUDA build, no device, no driver): one line on stderr says which.
// With --src/--dst the writer / reader access layouts come from files (the JSON
// of layout_io.h: reg_bases, lane_bases, warp_bases, shape, element_bits).
#include <cstdio>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "command.h"
#include "common.h"
#include "swz/error.h"
#include "swz/gpu.h"
#include "swz/io/atomic_file.h"
#include "swz/io/layout_io.h"
#include "swz/solve/solver.h"

namespace swz::cli {
namespace {

struct Options {
  ProblemArguments problem;
  bool json = false;
  bool no_counters = false;
  bool no_transpose = false;
  std::int64_t size = 8192;
  int repeats = 25;
  int rounds = 1;
  bool solve = false;
  bool print_source = false;
  std::string transpose_kernel;  // where the chosen layout's transpose kernel is written
  std::string block_order = "tuned";
  std::string transpose_config;  // JSON: run this configuration instead of tuning
};

Register reg{{"gpu", "Run the layout on the GPU: correctness, hardware counters vs prediction, transpose GB/s", 60, [](CLI::App& sub) {
  auto o = std::make_shared<Options>();
  add_problem_options(sub, o->problem);
  sub.add_flag("--json", o->json, "One JSON object on stdout");
  sub.add_flag("--no-counters", o->no_counters, "Skip the hardware counters");
  sub.add_flag("--no-transpose", o->no_transpose, "Skip the full-size transpose");
  sub.add_option("--size", o->size, "Transpose matrix size (rows = cols; a multiple of the tile)")->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 15));
  sub.add_option("--repeats", o->repeats, "Timed runs per measurement (median reported)")->check(CLI::Range(1, 1000));
  sub.add_option("--rounds", o->rounds, "Transpose timing rounds (each --repeats pairs of baseline and kernel samples, interleaved)")
      ->check(CLI::Range(1, 100));
  sub.add_flag("--solve", o->solve, "Run the solver's answer as given: its shared layout and each side's instructions (instead of the problem's)");
  sub.add_flag("--print-source", o->print_source, "Print the generated CUDA source and exit (no GPU needed)");
  sub.add_option("--transpose-kernel", o->transpose_kernel,
                 "Write the chosen layout's transpose kernel, as it ran, to this .cu file (its launch is in the output)");
  sub.add_option("--block-order", o->block_order,
                 "Which way consecutive transpose blocks walk: tuned (the faster in this run), n (along rows of the input) or m (down its columns)")
      ->check(CLI::IsMember({"tuned", "n", "m"}));
  sub.add_option("--transpose-config", o->transpose_config,
                 "Run this transpose configuration instead of tuning: a JSON object as a transpose.tuning entry of --json "
                 "writes it, e.g. '{\"tiles_per_block\": 2, \"blocks_walk_m_first\": true}' (keys left out keep their defaults; "
                 "\"evict_first_hint\": true sets the .cs cache hint, which the tuning leaves out)")
      ->excludes("--block-order");
  sub.footer("Exit status: 0 ran, 2 bad input, 3 no GPU available (no CUDA build, no device or driver).");
  sub.callback([o] {
    if (!o->transpose_kernel.empty() && o->no_transpose) throw Failure(2, "--transpose-kernel needs the transpose; drop --no-transpose");
    if (!o->transpose_config.empty() && o->no_transpose) throw Failure(2, "--transpose-config needs the transpose; drop --no-transpose");
    std::optional<gpu::TransposeSpec> config;
    if (!o->transpose_config.empty()) {
      const nlohmann::json j = nlohmann::json::parse(o->transpose_config, nullptr, false);
      if (j.is_discarded()) throw Failure(2, fmt::format("--transpose-config: not JSON: {}", o->transpose_config));
      try {
        config = gpu::transpose_config_from_json(j);
      } catch (const swz::Error& e) {
        throw Failure(2, fmt::format("--transpose-config: {}", e.what()));
      }
    }
    Problem p = load_problem(o->problem);
    // The solver's answer as given: its layout, and each side's instructions (vector widths,
    // ldmatrix / stmatrix, registers renumbered), which the generated kernels issue.
    if (o->solve) p = gpu::solved_problem(p);
    if (o->print_source) {
      std::fputs(gpu::generate_probe_source(p).source.c_str(), stdout);
      return;
    }
    gpu::RunOptions ro;
    ro.counters = !o->no_counters;
    ro.transpose = !o->no_transpose;
    ro.transpose_size = o->size;
    ro.repeats = o->repeats;
    ro.transpose_rounds = o->rounds;
    ro.block_order = o->block_order == "m"   ? gpu::RunOptions::BlockOrder::AlongM
                     : o->block_order == "n" ? gpu::RunOptions::BlockOrder::AlongN
                                             : gpu::RunOptions::BlockOrder::Tuned;
    ro.transpose_config = config;
    gpu::RunResult r;
    on_gpu([&] { r = gpu::run(p, ro); });
    if (!o->transpose_kernel.empty()) {
      const gpu::TransposeResult& t = r.transpose;
      if (!t.ran || t.kernel_source.empty()) throw Failure(1, fmt::format("--transpose-kernel: no transpose kernel ran ({})", t.reason));
      write_file_atomically(o->transpose_kernel, t.kernel_source);
    }
    if (o->json) {
      print_json(gpu::to_json(r));
      return;
    }
    std::fputs(gpu::to_text(r).c_str(), stdout);
  });
}}};

}  // namespace
}  // namespace swz::cli
