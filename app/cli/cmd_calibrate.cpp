// swizzle calibrate: measure random warp instructions on this machine's GPU and
// hold the bank model to them; with --gpu, write an AMD GPU's cases for its LDS probe.
//
// Exit status: 0 every case agrees with the model, 1 some disagree, 2 bad input,
// 3 no GPU (or no counters) here: one line on stderr says why.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "command.h"
#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/gpu.h"
#include "swz/sim/amd_corpus.h"
#include "swz/sim/corpus.h"
#include "swz/sim/gpu.h"

namespace swz::cli {
namespace {

struct Options {
  int cases = 5000;
  std::uint64_t seed = 0;
  bool seed_given = false;
  std::string kinds;
  std::string output;
  std::string input;  // --input: measure these cases
  std::string cubin;
  bool json = false;
  bool quiet = false;
  bool designed = false;  // --designed: the designed cp.async families instead of random cases
  bool cases_given = false;
  std::size_t batch = 256;
  std::string gpu;  // --gpu: an AMD GPU whose cases to write for lds_probe.hip
  bool batch_given = false;
};

std::vector<InstructionKind> parse_kinds(const std::string& list) {
  if (list.empty()) return all_instruction_kinds();
  std::vector<InstructionKind> kinds;
  std::stringstream ss(list);
  std::string name;
  while (std::getline(ss, name, ',')) {
    const auto k = parse_instruction_kind(name);
    if (!k || !k->src_size) {  // the probe issues every cp.async with its src-size operand
      std::string known;
      for (const auto& a : all_instruction_kinds()) known += (known.empty() ? "" : ", ") + a.name();
      fail("--kinds: \"{}\" is not an instruction the probe runs; it runs {}", name, known);
    }
    kinds.push_back(*k);
  }
  return kinds;
}

// --gpu gfx942 -o plan.jsonl: the cases for lds_probe.hip to measure on that AMD GPU, written, not
// measured (no AMD backend here); `to_amd_corpus.py fill` adds the counters, `swizzle replay` checks.
void write_amd_plan(const Options& o) {
  const GpuModel& gpu = gpu_named(o.gpu);
  if (gpu.vendor != Vendor::Amd)
    fail(
        "--gpu: {}: calibrate measures this machine's NVIDIA GPU as it is; --gpu names an AMD GPU whose cases it writes "
        "for tests/gpu/amd/lds_probe.hip",
        gpu.title());
  if (o.output.empty()) fail("--gpu {}: give -o FILE, where the cases to measure go", gpu.name);
  if (!o.input.empty() || !o.cubin.empty() || o.batch_given)
    fail("--gpu {} writes cases for lds_probe.hip: --input, --cubin and --batch do not apply", gpu.name);
  const std::vector<InstructionKind> kinds = amd_probe_instructions_named(gpu, o.kinds);
  const std::vector<AmdCorpusCase> cases =
      o.designed ? amd_designed_cases(gpu, kinds) : amd_random_cases(gpu, o.cases_given ? o.cases : 1000, o.seed, kinds);
  std::string text;
  for (const AmdCorpusCase& c : cases) text += to_plan_jsonl(c) + "\n";
  write_file_atomically(o.output, text);
  if (o.json) {
    nlohmann::json j{{"gpu", gpu.name}, {"cases", cases.size()}, {"written", o.output}, {"designed", o.designed}};
    if (!o.designed) j["seed"] = o.seed;
    print_json(j);
  } else {
    fmt::print("{} cases for {} written to {}{}: measure them on the GPU, then replay:\n", cases.size(), gpu.title(), o.output,
               o.designed ? " (the designed lane pairs)" : fmt::format(" (seed {})", o.seed));
    fmt::print("  hipcc -O2 --offload-arch={} -o lds_probe tests/gpu/amd/lds_probe.hip\n", gpu.name);
    fmt::print("  python3 tests/gpu/amd/to_amd_corpus.py plan {} > plan.txt\n", o.output);
    fmt::print("  rocprofv3 --pmc SQ_INSTS_LDS SQ_LDS_BANK_CONFLICT --output-format csv -d out -o lds -- ./lds_probe plan.txt\n");
    fmt::print(
        "  python3 tests/gpu/amd/to_amd_corpus.py fill {} out/lds_counter_collection.csv \"DEVICE\" DATE > measured.jsonl\n",
        o.output);
    fmt::print("  swizzle replay measured.jsonl\n");
  }
}

Register reg{
    {"calibrate", "Measure random warp instructions on this GPU and check the bank model against them", 70, [](CLI::App& sub) {
       auto o = std::make_shared<Options>();
       sub.add_option("--cases", o->cases, "How many instructions to measure (spread over the kinds)")
           ->check(CLI::Range(1, 200000))
           ->each([o](const std::string&) { o->cases_given = true; });
       sub.add_option("--seed", o->seed, "Seed of the random cases (default: from the clock, printed)")
           ->each([o](const std::string&) { o->seed_given = true; });
       sub.add_option("--kinds", o->kinds,
                      "Comma-separated instructions (default all): LDS.U8 .. LDS.128, STS.*, LDSM.x1/x2/x4[.trans], STSM.*, "
                      "LDGSTS.32/64/128");
       sub.add_option("-o,--output", o->output, "Write the measured corpus here (one JSON object per line)");
       sub.add_option("--input", o->input,
                      "Measure these cases (a corpus file, e.g. from `swizzle solve --probe-cases`) instead of random ones");
       sub.add_flag("--designed", o->designed,
                    "Measure the designed cp.async families (shared x source patterns, live and masked copies) of the LDGSTS "
                    "kinds instead of random cases (with --gpu: write the designed lane pairs)");
       sub.add_option("--cubin", o->cubin, "Also write the probe kernels' machine code here (for cuobjdump -sass)");
       sub.add_option("--batch", o->batch, "Cases per profiler session")
           ->check(CLI::Range(1, 4096))
           ->each([o](const std::string&) { o->batch_given = true; });
       sub.add_option("--gpu", o->gpu,
                      "An AMD GPU (gfx942, gfx950, mi300x ...): write its cases to -o for tests/gpu/amd/lds_probe.hip to measure "
                      "(random, or --designed lane pairs; --kinds ds_read_b64,...) instead of measuring here");
       sub.add_flag("--json", o->json, "One JSON object on stdout (the replay report, the counters read, the device)");
       sub.add_flag("-q,--quiet", o->quiet, "No progress on stderr");
       sub.footer(
           "Exit status: 0 the model agrees on every case, 1 some cases disagree, 2 bad input, 3 no GPU or counters here.");
       sub.callback([o] {
         if (!o->seed_given) o->seed = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
         if (!o->gpu.empty()) {
           if (o->designed && (o->seed_given || o->cases_given))
             fail("--designed writes its fixed lane pairs: --seed and --cases do not apply");
           write_amd_plan(*o);
           return;
         }
         const std::vector<InstructionKind> kinds = parse_kinds(o->kinds);
         if (!o->input.empty() && (o->seed_given || !o->kinds.empty()))
           fail("--input measures the file's cases: --seed and --kinds do not apply");
         if (o->designed && !o->input.empty()) fail("--designed and --input each choose the cases: give one");
         if (o->designed && (o->seed_given || o->cases_given))
           fail("--designed measures its fixed families of copies: --seed and --cases do not apply");
         std::vector<CorpusCase> cases;
         if (!o->input.empty())
           cases = read_corpus_file(o->input);
         else if (o->designed)
           cases = designed_copy_cases(kinds);  // the cp.async kinds among them (all when --kinds is not given)
         else
           cases = generate_cases(o->cases, o->seed, kinds);
         const bool progress = !o->quiet && isatty(STDERR_FILENO);
         gpu::CalibrationOptions co;
         co.progress = [&](std::size_t done, std::size_t total) {
           if (progress) fmt::print(stderr, "\rmeasured {}/{} cases", done, total);
         };
         gpu::CalibrationInfo info;
         on_gpu([&] {
           if (!o->cubin.empty()) {
             const gpu::DeviceInfo d = gpu::device_info();
             if (!d.available) throw gpu::Unavailable(d.reason);
             const std::vector<char> image = gpu::calibration_cubin(kinds, d.compute_major, d.compute_minor);
             write_file_atomically(o->cubin, std::string_view(image.data(), image.size()));
           }
           info = gpu::calibrate(cases, co);
         });
         if (progress) fmt::print(stderr, "\n");
         if (!o->output.empty()) {
           std::string text;
           for (const CorpusCase& c : cases) text += to_jsonl(c) + "\n";
           write_file_atomically(o->output, text);
         }
         ReplayReport report;
         replay_into(report, cases, BankModel{});
         if (o->json) {
           nlohmann::json j = to_json(report);
           j["device"] = gpu::to_json(info.device);
           j["seed"] = o->seed;
           j["metrics"] = info.metrics;
           j["notes"] = info.notes;
           if (!o->output.empty()) j["written"] = o->output;
           print_json(j);
         } else {
           fmt::print("{} cases on {} (seed {}){}\n", cases.size(), info.device.name, o->seed,
                      o->output.empty() ? "" : fmt::format(", written to {}", o->output));
           for (const std::string& n : info.notes) fmt::print("note: {}\n", n);
           std::fputs(to_text(report).c_str(), stdout);
         }
         std::fflush(stdout);
         if (report.all.disagree() > 0) std::exit(1);
       });
     }}};

}  // namespace
}  // namespace swz::cli
