// runtime_cuda.cpp: the correctness probe, the counters of a problem's accesses,
// the transpose and run() (CUDA builds only; the shared CUDA pieces are in
// cuda_support.h, the copy a transpose is measured against in copy_baseline.h).
//
// Index
//   [SECTION] correctness probe
//   [SECTION] transpose
//   [SECTION] run
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>

#include "copy_baseline.h"
#include "cuda_support.h"
#include "gpu_internal.h"
#include "swz/error.h"
#include "swz/gpu.h"
#include "swz/layout/factories.h"

namespace swz::gpu {

bool built_with_cuda() { return true; }

namespace {

using namespace cuda;  // NOLINT: this file is the CUDA runtime's own

// [SECTION] correctness probe

std::uint64_t element_mask(int ebits) { return low_bits(ebits); }

std::uint64_t read_element(const std::vector<std::uint8_t>& buf, std::size_t i, int ebits) {
  std::uint64_t v = 0;
  std::memcpy(&v, buf.data() + i * static_cast<std::size_t>(ebits / 8), static_cast<std::size_t>(ebits / 8));
  return v;
}
void write_element(std::vector<std::uint8_t>& buf, std::size_t i, int ebits, std::uint64_t v) {
  std::memcpy(buf.data() + i * static_cast<std::size_t>(ebits / 8), &v, static_cast<std::size_t>(ebits / 8));
}

void fill_access_prediction(AccessMeasurement& m, const detail::AccessPlan& p, const AccessResult& sim) {
  m.instruction = p.instruction;
  m.vector_bits = sim.vector.bits;
  m.instructions = sim.instructions();
  m.predicted_wavefronts = sim.mean_wavefronts;
  m.predicted_worst = sim.wavefronts;
  m.predicted_ideal = sim.ideal_wavefronts;
  m.predicted_total = sim.total_wavefronts;
}

void run_probe(const Problem& p, const DeviceInfo& dev, const RunOptions& o, RunResult& out) {
  const GeneratedSource g = generate_probe_source(p);
  out.source = g.source;
  if (static_cast<std::int64_t>(g.plan.shared_bytes) > dev.shared_bytes_per_block_optin)
    fail("the layout needs {} bytes of shared memory; this GPU gives a block {}", g.plan.shared_bytes, dev.shared_bytes_per_block_optin);
  const Module mod(g.source, dev);
  CUfunction check = mod.function("swz_check", g.plan.shared_bytes);
  CUfunction store = mod.function("swz_store", g.plan.shared_bytes);
  CUfunction load = mod.function("swz_load", g.plan.shared_bytes);

  const int eb = p.element_bits;
  const int coord_bits = p.shared.coord_bits();
  const std::size_t n = std::size_t{1} << coord_bits;
  const std::size_t bytes = n * static_cast<std::size_t>(eb / 8);
  DeviceBuffer src(bytes), dst(bytes);
  void* src_ptr = src.get();
  void* dst_ptr = dst.get();
  std::vector<std::uint8_t> host_src(bytes), host_dst(bytes);
  const std::vector<BitVec> covered = detail::covered_coordinates(p.read);
  std::vector<bool> is_covered(n, false);
  for (BitVec c : covered) is_covered[c] = true;
  out.checked = static_cast<std::int64_t>(covered.size());

  // Values are digits of the coordinate (eb bits each), so every pair of coordinates differs in
  // some pass; each digit runs twice with two poisons, so no unwritten element can pass both.
  const int digits = (coord_bits + eb - 1) / eb;
  const std::uint64_t mask = element_mask(eb);
  const std::uint64_t poisons[2] = {0x5a5a5a5a5a5a5a5aull & mask, 0xa5a5a5a5a5a5a5a5ull & mask};
  std::int64_t wrong = 0;
  for (int d = 0; d < std::max(1, digits); ++d)
    for (int k = 0; k < 2; ++k) {
      const std::uint64_t poison = poisons[k];
      for (std::size_t c = 0; c < n; ++c) {
        const std::uint64_t v = eb >= 64 ? static_cast<std::uint64_t>(c) : (static_cast<std::uint64_t>(c) >> (d * eb)) & mask;
        write_element(host_src, c, eb, v);
        write_element(host_dst, c, eb, poison);
      }
      SWZ_CUDA(cudaMemcpy(src_ptr, host_src.data(), bytes, cudaMemcpyHostToDevice));
      SWZ_CUDA(cudaMemcpy(dst_ptr, host_dst.data(), bytes, cudaMemcpyHostToDevice));
      unsigned poison_word = static_cast<unsigned>(poisons[k] & 0xffffffffu);
      if (eb < 32) poison_word = k == 0 ? 0x5a5a5a5au : 0xa5a5a5a5u;
      launch(check, 1, 1, static_cast<unsigned>(g.plan.threads), g.plan.shared_bytes, {&src_ptr, &dst_ptr, &poison_word});
      SWZ_CUDA(cudaDeviceSynchronize());
      SWZ_CUDA(cudaMemcpy(host_dst.data(), dst_ptr, bytes, cudaMemcpyDeviceToHost));
      for (std::size_t c = 0; c < n; ++c) {
        const std::uint64_t got = read_element(host_dst, c, eb);
        const std::uint64_t want = is_covered[c] ? read_element(host_src, c, eb) : poison;
        if (got != want) {
          if (!wrong)
            out.first_mismatch = fmt::format("element {} (pass {}): got 0x{:x}, expected 0x{:x}{}", p.shared.coords().format_coords(c),
                                             2 * d + k, got, want, is_covered[c] ? "" : " (not read, should stay poisoned)");
          ++wrong;
        }
      }
    }
  out.mismatches = wrong;
  out.correct = wrong == 0;

  Events ev;
  unsigned poison_word = 0x5a5a5a5au;
  out.check_kernel_us = 1000.0 * ev.median_ms(o.warmup, o.repeats, [&] {
    launch(check, 1, 1, static_cast<unsigned>(g.plan.threads), g.plan.shared_bytes, {&src_ptr, &dst_ptr, &poison_word});
  });

  // Counters: one range for the writer's kernel, one for the reader's.
  if (!o.counters) {
    out.counters_reason = "not requested";
    return;
  }
  Profiler& prof = Profiler::instance();
  if (!prof.ok()) {
    out.counters_reason = prof.reason();
    return;
  }
  CUcontext ctx = nullptr;
  cu_check(driver().ctx_get_current(&ctx), "cuCtxGetCurrent");
  auto work = [&] {
    launch(store, 1, 1, static_cast<unsigned>(g.plan.threads), g.plan.shared_bytes, {&src_ptr});
    launch(load, 1, 1, static_cast<unsigned>(g.plan.threads), g.plan.shared_bytes, {&dst_ptr});
  };
  // stmatrix counts as its own instruction (op_shared_stsm), not as a shared store.
  std::vector<std::string> metrics = {kStWavefronts, kLdWavefronts, kStConflicts, kLdConflicts,
                                      p.store.ldmatrix ? kStsmInstructions : kStInstructions, kLdInstructions, kLdsmInstructions};
  RangeValues values;
  try {
    try {
      values = profile_kernels(metrics, 2, work, prof.chip(), ctx);
    } catch (const CuptiFailure&) {
      // The instruction counts are a cross-check; retry with the wavefront metrics alone.
      metrics.resize(4);
      values = profile_kernels(metrics, 2, work, prof.chip(), ctx);
    }
  } catch (const CuptiFailure& e) {
    out.counters_reason = e.what();
    return;
  }
  auto metric = [&](std::size_t range, const char* name) -> double {
    for (std::size_t i = 0; i < values.metrics.size(); ++i)
      if (values.metrics[i] == name) return values.per_range[range][i];
    return -1;
  };
  out.counters_available = true;
  auto fill = [&](AccessMeasurement& m, std::size_t range, const char* wf, const char* conf, bool is_store, bool matrix) {
    m.measured = true;
    m.measured_total = std::llround(metric(range, wf));
    m.measured_conflicts = std::llround(metric(range, conf));
    m.measured_wavefronts = m.instructions ? static_cast<double>(m.measured_total) / m.instructions : 0.0;
    const double inst = is_store ? metric(range, matrix ? kStsmInstructions : kStInstructions)
                        : matrix ? metric(range, kLdsmInstructions)
                                 : metric(range, kLdInstructions);
    m.measured_instructions = inst >= 0 ? std::llround(inst) : -1;
  };
  fill(out.store, 0, kStWavefronts, kStConflicts, true, p.store.ldmatrix != 0);
  fill(out.read, 1, kLdWavefronts, kLdConflicts, false, p.read.ldmatrix != 0);
}

// [SECTION] transpose

std::uint64_t transpose_value(std::uint64_t i, int ebits) {
  // A bijective mix of the index; the top bit cleared so no value equals the all-ones poison.
  std::uint64_t x = i * 0x9e3779b97f4a7c15ull;
  x ^= x >> 29;
  return x & (low_bits(ebits) >> 1);
}

void run_transpose(const Problem& p, const DeviceInfo& dev, const RunOptions& o, TransposeResult& t) {
  const std::string why = transpose_unsupported_reason(p);
  if (!why.empty()) {
    t.reason = why;
    return;
  }
  const int eb = p.element_bits;
  const std::int64_t size = o.transpose_size;
  t.rows = t.cols = size;
  t.element_bits = eb;
  t.tile_rows = p.shape[0];
  t.tile_cols = p.shape[1];
  const std::size_t count = static_cast<std::size_t>(size) * static_cast<std::size_t>(size);
  const std::size_t bytes = count * static_cast<std::size_t>(eb / 8);

  // The chosen layout at batch 1 must generate: a layout the transpose cannot run is reported before any allocation.
  t.threads_per_block = generate_transpose_source(p, p.shared, TransposeSpec{size, size, 1, false, false, 1}).plan.threads;

  DeviceBuffer in(bytes), out(bytes);
  {
    std::vector<std::uint8_t> host(bytes);
    for (std::size_t i = 0; i < count; ++i) write_element(host, i, eb, transpose_value(i, eb));
    SWZ_CUDA(cudaMemcpy(in.get(), host.data(), bytes, cudaMemcpyHostToDevice));
  }
  Events ev;
  void* in_ptr = in.get();
  void* out_ptr = out.get();
  const std::function<void()> memcpy_d2d = [&] { SWZ_CUDA(cudaMemcpyAsync(out_ptr, in_ptr, bytes, cudaMemcpyDeviceToDevice)); };
  auto gbs_of = [&](double ms) { return 2.0 * static_cast<double>(bytes) / (ms * 1e6); };
  const Module copy_module(copy_kernel_source(), dev);
  // Every timed run (copies, transposes, memcpy) starts behind ~50 us of GPU spin (100k cycles at
  // ~2 GHz), longer than a launch takes on the CPU.
  {
    CUfunction spin = copy_module.function("swz_spin", 0);
    auto cycles = std::make_shared<long long>(100000);
    ev.set_lead_in([spin, cycles] { launch(spin, 1, 1, 1, 0, {cycles.get()}); });
  }
  const CopyBaseline baseline = tune_copy(dev, in_ptr, out_ptr, bytes, o, ev, memcpy_d2d, copy_module);
  t.memcpy_gbs = gbs_of(baseline.memcpy_ms);
  t.copy_kernel_gbs = baseline.copy_kernel_ms > 0 ? gbs_of(baseline.copy_kernel_ms) : 0.0;
  t.copy_kernel = baseline.copy_kernel;
  t.baseline = baseline.name;

  // A compiled transpose kernel, ready to launch.
  struct Kernel {
    std::unique_ptr<Module> module;
    CUfunction fn = nullptr;
    GeneratedSource source;
    unsigned gx = 0, gy = 0;
  };
  // Source for a problem (layout and accesses) and configuration; nullopt when it does not fit
  // (registers, shared memory, tile count), with the reason in `no_kernel` when asked for.
  auto generate = [&](const Problem& q, const TransposeSpec& spec, std::string* no_kernel = nullptr) -> std::optional<GeneratedSource> {
    try {
      GeneratedSource g = generate_transpose_source(q, q.shared, spec);
      if (static_cast<std::int64_t>(g.plan.shared_bytes) > dev.shared_bytes_per_block_optin) {
        if (no_kernel) *no_kernel = fmt::format("{} bytes of shared memory; this GPU gives a block at most {}", g.plan.shared_bytes, dev.shared_bytes_per_block_optin);
        return std::nullopt;
      }
      return g;
    } catch (const swz::Error& e) {
      if (no_kernel) *no_kernel = e.what();
      return std::nullopt;
    }
  };
  const int want_arch = dev.compute_major * 10 + dev.compute_minor;
  // Loads a compiled image; the grid: one block per block of tiles, or (grid-stride) as many as are resident at once.
  auto load = [&](GeneratedSource g, Compiled image, const TransposeSpec& spec) -> Kernel {
    Kernel k;
    k.source = std::move(g);
    k.module = std::make_unique<Module>(std::move(image));
    k.fn = k.module->function("swz_transpose", k.source.plan.shared_bytes);
    const auto n_blocks = static_cast<unsigned>(k.source.plan.blocks_n), m_blocks = static_cast<unsigned>(k.source.plan.blocks_m);
    if (spec.persistent) {
      int per_sm = 0;
      cu_check(driver().occupancy(&per_sm, k.fn, k.source.plan.threads, static_cast<std::size_t>(k.source.plan.shared_bytes)),
               "cuOccupancyMaxActiveBlocksPerMultiprocessor");
      k.gx = std::min(n_blocks * m_blocks, static_cast<unsigned>(std::max(1, per_sm) * dev.multiprocessors));
      k.gy = 1;
    } else {
      k.gx = spec.m_fastest ? m_blocks : n_blocks;
      k.gy = spec.m_fastest ? n_blocks : m_blocks;
    }
    return k;
  };
  // NVRTC compiles independent programs concurrently: the configurations are compiled on every core.
  auto compile_all = [&](const std::vector<GeneratedSource>& sources) {
    std::vector<Compiled> images(sources.size());
    std::vector<std::string> errors(sources.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
      for (std::size_t i = next++; i < sources.size(); i = next++) {
        try {
          images[i] = nvrtc_compile(sources[i].source, want_arch, true);
        } catch (const std::exception& e) {
          errors[i] = e.what();
        }
      }
    };
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < threads && i < sources.size(); ++i) pool.emplace_back(worker);
    worker();
    for (auto& th : pool) th.join();
    for (const auto& e : errors)
      if (!e.empty()) throw std::runtime_error(e);
    return images;
  };
  unsigned long long rows = static_cast<unsigned long long>(size), cols = rows;
  auto launcher = [&](const Kernel& k) {
    return [&, fn = k.fn, gx = k.gx, gy = k.gy, threads = static_cast<unsigned>(k.source.plan.threads), smem = k.source.plan.shared_bytes] {
      launch(fn, gx, gy, threads, smem, {&in_ptr, &out_ptr, &rows, &cols});
    };
  };

  // Kernel configuration: the fastest on the chosen layout; every variant then runs with it. The
  // configurations are timed in interleaved passes, so drift (clocks, temperature) hits all alike.
  TransposeSpec best{size, size, 1, false, o.block_order == RunOptions::BlockOrder::AlongM, 1};
  if (o.transpose_config) {
    best = o.fixed_transpose_spec();
  } else if (o.transpose_tune) {
    std::vector<TransposeSpec> specs;
    std::vector<GeneratedSource> sources;
    for (const TransposeSpec& spec : transpose_tuning_candidates(size, o.block_order))
      if (std::optional<GeneratedSource> g = generate(p, spec)) {
        specs.push_back(spec);
        sources.push_back(std::move(*g));
      }
    std::vector<Compiled> images = compile_all(sources);
    std::vector<Kernel> kernels;
    for (std::size_t i = 0; i < specs.size(); ++i) kernels.push_back(load(std::move(sources[i]), std::move(images[i]), specs[i]));
    // A sample is a stream of the kernel alone (Events::time_stream), the way
    // tests/triton/transpose_peers.py times every peer. Timing each launch after a copy instead
    // favoured configurations that gain from the copy's lines left in L2 and lose in a stream.
    // Stage 1: every configuration; stage 2: the four fastest again, with more runs, for the choice.
    auto measure = [&](const std::vector<std::size_t>& which, int passes, int per_pass, std::vector<std::vector<float>>& samples) {
      for (int pass = 0; pass < passes; ++pass)
        for (std::size_t i : which) {
          const auto go = launcher(kernels[i]);
          for (int w = 0; w < (pass == 0 ? o.warmup : 1); ++w) go();
          for (int r = 0; r < per_pass; ++r) samples[i].push_back(ev.time_stream(go));
        }
    };
    std::vector<std::size_t> all(kernels.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    std::vector<std::vector<float>> samples(kernels.size());
    measure(all, 3, std::max(3, o.repeats / 6), samples);
    std::vector<double> gbs(kernels.size());
    for (std::size_t i = 0; i < kernels.size(); ++i) gbs[i] = gbs_of(Events::median(samples[i]));
    std::vector<std::size_t> order = all;
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return gbs[x] > gbs[y]; });
    order.resize(std::min<std::size_t>(order.size(), 4));
    std::vector<std::vector<float>> finals(kernels.size());
    measure(order, 5, std::max(5, o.repeats / 3), finals);
    for (std::size_t i : order) gbs[i] = gbs_of(Events::median(finals[i]));
    double best_gbs = -1;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      t.tuning.push_back({specs[i], gbs[i]});
      if (std::find(order.begin(), order.end(), i) != order.end() && gbs[i] > best_gbs) {
        best_gbs = gbs[i];
        best = specs[i];
      }
    }
  }
  t.threads_per_block = generate_transpose_source(p, p.shared, best).plan.threads;
  t.config = best;

  // The variants: each checked element for element, then timed against the copy.
  std::vector<std::uint8_t> host_out(bytes);
  // Each variant runs the accesses that fit its layout (plan_transpose_variants); one that has no
  // kernel here says why and is neither checked nor timed.
  std::vector<TransposeVariantPlan> candidates = plan_transpose_variants(p, best);
  std::vector<std::optional<Kernel>> kernels;
  {
    std::vector<GeneratedSource> sources;
    std::vector<std::size_t> which;
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (candidates[i].not_run.empty())
        if (std::optional<GeneratedSource> g = generate(candidates[i].problem, best, &candidates[i].not_run)) {
          sources.push_back(std::move(*g));
          which.push_back(i);
        }
    std::vector<Compiled> images = compile_all(sources);
    kernels.resize(candidates.size());
    for (std::size_t j = 0; j < which.size(); ++j) kernels[which[j]] = load(std::move(sources[j]), std::move(images[j]), best);
  }
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Problem& c = candidates[i].problem;
    TransposeVariant tv;
    tv.name = candidates[i].name;
    tv.layout = c.shared.description();
    tv.not_run = candidates[i].not_run;
    if (!kernels[i]) {
      t.variants.push_back(tv);
      continue;
    }
    tv.ran = true;
    const AccessResult store = simulate(c.store, c.shared, eb, c.bank), read = simulate(c.read, c.shared, eb, c.bank);
    tv.predicted_store_wavefronts = store.mean_wavefronts;
    tv.predicted_read_wavefronts = read.mean_wavefronts;
    tv.store_instruction = kernels[i]->source.plan.store_instruction;
    tv.read_instruction = kernels[i]->source.plan.read_instruction;
    if (i == 0) {
      t.grid_x = kernels[i]->gx;
      t.grid_y = kernels[i]->gy;
      t.shared_bytes = kernels[i]->source.plan.shared_bytes;
      t.kernel_source = kernels[i]->source.source;
    }
    const auto go = launcher(*kernels[i]);
    // Correctness on a poisoned output (all ones; no input value has its top bit set).
    SWZ_CUDA(cudaMemset(out_ptr, 0xff, bytes));
    go();
    SWZ_CUDA(cudaDeviceSynchronize());
    SWZ_CUDA(cudaMemcpy(host_out.data(), out_ptr, bytes, cudaMemcpyDeviceToHost));
    bool ok = true;
    const std::size_t nn = static_cast<std::size_t>(size);
    for (std::size_t r = 0; r < nn && ok; ++r)
      for (std::size_t col = 0; col < nn; ++col)
        if (read_element(host_out, r * nn + col, eb) != transpose_value(col * nn + r, eb)) {
          ok = false;
          break;
        }
    tv.correct = ok;
    t.variants.push_back(tv);
  }
  // Timing: rounds x variants, each round of a variant `repeats` pairs of (baseline, kernel)
  // samples taken alternately, each a stream of its own kind; the variants' rounds interleave.
  const int rounds = std::max(1, o.transpose_rounds);
  t.rounds = rounds;
  t.repeats = std::max(1, o.repeats);
  std::vector<std::vector<float>> copy_rounds(candidates.size()), kernel_rounds(candidates.size());
  for (int round = 0; round < rounds; ++round)
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (!kernels[i]) continue;
      const auto [copy_ms, kernel_ms] = ev.paired_median_ms(round == 0 ? o.warmup : 1, o.repeats, baseline.run, launcher(*kernels[i]));
      copy_rounds[i].push_back(static_cast<float>(copy_ms));
      kernel_rounds[i].push_back(static_cast<float>(kernel_ms));
    }
  std::vector<float> copy_samples;  // each variant's baseline median
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!kernels[i]) continue;
    TransposeVariant& tv = t.variants[i];
    const double copy_ms = Events::median(copy_rounds[i]), kernel_ms = Events::median(kernel_rounds[i]);
    tv.milliseconds = kernel_ms;
    tv.bandwidth_gbs = gbs_of(kernel_ms);
    tv.baseline_gbs = gbs_of(copy_ms);
    tv.rounds = rounds;
    tv.percent_min = 1e9;
    tv.percent_max = 0;
    for (std::size_t r = 0; r < copy_rounds[i].size(); ++r) {
      const double pct = 100.0 * static_cast<double>(copy_rounds[i][r]) / static_cast<double>(kernel_rounds[i][r]);
      tv.percent_min = std::min(tv.percent_min, pct);
      tv.percent_max = std::max(tv.percent_max, pct);
    }
    copy_samples.push_back(static_cast<float>(copy_ms));
  }
  if (!copy_samples.empty()) {
    t.baseline_ms = Events::median(copy_samples);
    t.baseline_gbs = gbs_of(t.baseline_ms);
  }
  t.ran = true;
}

}  // namespace

DeviceInfo device_info() {
  static const DeviceInfo info = probe_device();
  return info;
}

std::string compile_check(const std::string& source, int compute_major, int compute_minor) {
  return nvrtc_compile(source, compute_major * 10 + compute_minor, false).log;
}

// [SECTION] run

RunResult run(const Problem& problem, const RunOptions& options) {
  RunResult r;
  r.device = device_info();
  require_device(r.device);
  detail::check_supported(problem);
  SWZ_CUDA(cudaSetDevice(0));
  SWZ_CUDA(cudaFree(nullptr));  // make the primary context current
  r.problem = problem.name;
  r.layout = problem.shared.description();
  r.element_bits = problem.element_bits;
  // Predictions first: they validate the accesses (vector widths, shapes) before any GPU work.
  const AccessResult ss = simulate(problem.store, problem.shared, problem.element_bits, problem.bank);
  const AccessResult rs = simulate(problem.read, problem.shared, problem.element_bits, problem.bank);
  fill_access_prediction(r.store, detail::plan_access(problem.store, problem.shared, problem.element_bits, problem.bank), ss);
  fill_access_prediction(r.read, detail::plan_access(problem.read, problem.shared, problem.element_bits, problem.bank), rs);
  // A fixed transpose configuration must have a kernel for this problem (tile count, registers,
  // threads), so a bad one is refused before any GPU work too.
  if (options.transpose && options.transpose_config && transpose_unsupported_reason(problem).empty()) {
    try {
      (void)generate_transpose_source(problem, problem.shared, options.fixed_transpose_spec());
    } catch (const swz::Error& e) {
      fail("the transpose configuration has no kernel for this problem: {}", e.what());
    }
  }
  run_probe(problem, r.device, options, r);
  if (options.transpose) {
    run_transpose(problem, r.device, options, r.transpose);
  } else {
    r.transpose.reason = "not requested";
  }
  return r;
}

}  // namespace swz::gpu
