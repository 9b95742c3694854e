// report.cpp: JSON and text views of a GPU run (no CUDA needed).
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "gpu_internal.h"
#include "swz/error.h"
#include "swz/gpu.h"

namespace swz::gpu {

namespace detail {

std::vector<BitVec> covered_coordinates(const Access& read) {
  const LinearLayout& l = read.layout;
  std::vector<BitVec> out;
  const int bits = l.in_bits();
  out.reserve(std::size_t{1} << bits);
  for (BitVec x = 0; x < (BitVec{1} << bits); ++x) out.push_back(l.apply_flat(x));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace detail

nlohmann::json to_json(const DeviceInfo& d) {
  nlohmann::json j;
  j["available"] = d.available;
  if (!d.available) {
    j["reason"] = d.reason;
    return j;
  }
  j["name"] = d.name;
  j["compute_capability"] = fmt::format("{}.{}", d.compute_major, d.compute_minor);
  j["multiprocessors"] = d.multiprocessors;
  j["driver_version"] = d.driver_version;
  j["runtime_version"] = d.runtime_version;
  j["nvrtc_version"] = fmt::format("{}.{}", d.nvrtc_major, d.nvrtc_minor);
  return j;
}

namespace {

nlohmann::json access_json(const AccessMeasurement& a) {
  nlohmann::json j;
  j["instruction"] = a.instruction;
  j["vector_bits"] = a.vector_bits;
  j["instructions"] = a.instructions;
  j["predicted_wavefronts"] = a.predicted_wavefronts;
  j["predicted_worst_wavefronts"] = a.predicted_worst;
  j["predicted_total_wavefronts"] = a.predicted_total;
  j["measured"] = a.measured;
  if (a.measured) {
    j["measured_wavefronts"] = a.measured_wavefronts;
    j["measured_total_wavefronts"] = a.measured_total;
    j["measured_conflicts"] = a.measured_conflicts;
    j["measured_instructions"] = a.measured_instructions >= 0 ? nlohmann::json(a.measured_instructions) : nlohmann::json(nullptr);
    j["matches"] = a.matches();
  } else {
    j["measured_wavefronts"] = nullptr;
    j["matches"] = nullptr;
  }
  return j;
}

// A transpose kernel configuration's fields under the names the result, each tuning entry and a
// fixed configuration (transpose_config_from_json) use.
struct ConfigCount {
  const char* key;
  int TransposeSpec::*field;
};
struct ConfigFlag {
  const char* key;
  bool TransposeSpec::*field;
};
constexpr ConfigCount kConfigCounts[] = {{"tiles_per_block", &TransposeSpec::batch}, {"warp_groups_per_block", &TransposeSpec::groups}};
constexpr ConfigFlag kConfigFlags[] = {{"evict_first_hint", &TransposeSpec::streaming},
                                       {"blocks_walk_m_first", &TransposeSpec::m_fastest},
                                       {"grid_stride", &TransposeSpec::persistent},
                                       {"loads_issued_before_stores", &TransposeSpec::loads_first},
                                       {"tiles_along_n", &TransposeSpec::batch_along_n}};
// Keys a run writes beside the configuration that a configuration read back ignores.
constexpr const char* kConfigReported[] = {"bandwidth_gbs", "threads_per_block", "grid_blocks"};

void put_transpose_config(nlohmann::json& j, const TransposeSpec& c) {
  for (const ConfigCount& k : kConfigCounts) j[k.key] = c.*k.field;
  for (const ConfigFlag& k : kConfigFlags) j[k.key] = c.*k.field;
}

}  // namespace

TransposeSpec transpose_config_from_json(const nlohmann::json& config) {
  if (!config.is_object()) fail("a transpose configuration is a JSON object (a transpose.tuning entry of `swizzle gpu --json`), not {}", config.dump());
  TransposeSpec spec;
  for (const auto& item : config.items()) {
    const std::string& key = item.key();
    const nlohmann::json& value = item.value();
    const auto named = [&key](const auto& k) { return key == k.key; };
    if (std::any_of(std::begin(kConfigReported), std::end(kConfigReported), [&key](const char* k) { return key == k; })) continue;
    if (const auto* k = std::find_if(std::begin(kConfigCounts), std::end(kConfigCounts), named); k != std::end(kConfigCounts)) {
      if (!value.is_number_integer() || !is_transpose_count(value.get<std::int64_t>())) fail("{}: {} is not 1, 2, 4 or 8", key, value.dump());
      spec.*k->field = value.get<int>();
    } else if (const auto* f = std::find_if(std::begin(kConfigFlags), std::end(kConfigFlags), named); f != std::end(kConfigFlags)) {
      if (!value.is_boolean()) fail("{}: {} is not true or false", key, value.dump());
      spec.*f->field = value.get<bool>();
    } else {
      std::string known;
      for (const ConfigCount& c : kConfigCounts) known += fmt::format("{}{}", known.empty() ? "" : ", ", c.key);
      for (const ConfigFlag& c : kConfigFlags) known += fmt::format(", {}", c.key);
      fail("unknown key '{}' (a configuration has {})", key, known);
    }
  }
  return spec;
}

nlohmann::json to_json(const RunResult& r) {
  nlohmann::json j;
  j["device"] = r.device.available ? nlohmann::json(r.device.name) : nlohmann::json(nullptr);
  j["device_info"] = to_json(r.device);
  j["problem"] = r.problem;
  j["layout"] = r.layout;
  j["element_bits"] = r.element_bits;
  j["correct"] = r.correct;
  j["checked_elements"] = r.checked;
  j["mismatches"] = r.mismatches;
  if (!r.correct) j["first_mismatch"] = r.first_mismatch;
  j["check_kernel_us"] = r.check_kernel_us;
  j["counters_available"] = r.counters_available;
  if (!r.counters_available) j["counters_reason"] = r.counters_reason;
  j["store"] = access_json(r.store);
  j["read"] = access_json(r.read);
  nlohmann::json t;
  const TransposeResult& tr = r.transpose;
  t["ran"] = tr.ran;
  if (!tr.ran) {
    t["reason"] = tr.reason;
    t["bandwidth_gbs"] = nullptr;
    t["memcpy_gbs"] = nullptr;
  } else {
    t["rows"] = tr.rows;
    t["cols"] = tr.cols;
    t["element_bits"] = tr.element_bits;
    t["tile"] = {tr.tile_rows, tr.tile_cols};
    t["threads_per_block"] = tr.threads_per_block;
    put_transpose_config(t, tr.config);
    t["grid_blocks"] = tr.grid_blocks();
    t["launch"] = {{"kernel", "swz_transpose"}, {"grid", {tr.grid_x, tr.grid_y, 1}}, {"threads", tr.threads_per_block},
                   {"dynamic_shared_bytes", tr.shared_bytes}, {"arguments", {"in", "out", "rows", "cols"}}};
    t["timing_rounds"] = tr.rounds;
    t["pairs_per_round"] = tr.repeats;
    nlohmann::json tune = nlohmann::json::array();
    for (const TransposeTuning& c : tr.tuning) {
      nlohmann::json one = {{"bandwidth_gbs", c.bandwidth_gbs}};
      put_transpose_config(one, c.config);
      tune.push_back(std::move(one));
    }
    t["tuning"] = tune;
    // The baseline: the faster of cudaMemcpy and the tuned copy kernel; beside bandwidth_gbs, the
    // baseline timed alternately with the chosen layout's kernel.
    t["memcpy_gbs"] = tr.memcpy_gbs;
    t["copy_kernel_gbs"] = tr.copy_kernel_gbs;
    t["copy_kernel"] = tr.copy_kernel;
    t["baseline"] = tr.baseline;
    t["baseline_gbs"] = tr.variants.empty() ? tr.baseline_gbs : tr.variants.front().baseline_gbs;
    t["baseline_gbs_all_variants"] = tr.baseline_gbs;
    t["baseline_ms"] = tr.baseline_ms;
    t["bandwidth_gbs"] = tr.variants.empty() ? nlohmann::json(nullptr) : nlohmann::json(tr.variants.front().bandwidth_gbs);
    t["percent_of_baseline"] = tr.variants.empty() ? nlohmann::json(nullptr) : nlohmann::json(tr.variants.front().percent_of_baseline());
    // Every variant that ran wrote every element right; a variant with no kernel is reported, not counted.
    t["correct"] = !tr.variants.empty() && tr.variants.front().ran &&
                   std::all_of(tr.variants.begin(), tr.variants.end(), [](const auto& v) { return !v.ran || v.correct; });
    nlohmann::json vs = nlohmann::json::array();
    for (const auto& v : tr.variants) {
      vs.push_back({{"name", v.name},
                    {"layout", v.layout},
                    {"ran", v.ran},
                    {"not_run", v.ran ? nlohmann::json(nullptr) : nlohmann::json(v.not_run)},
                    {"store_instruction", v.store_instruction},
                    {"read_instruction", v.read_instruction},
                    {"bandwidth_gbs", v.bandwidth_gbs},
                    {"milliseconds", v.milliseconds},
                    {"baseline_gbs", v.baseline_gbs},
                    {"percent_of_baseline", v.percent_of_baseline()},
                    {"correct", v.correct},
                    {"rounds", v.rounds},
                    {"percent_of_baseline_min_round", v.percent_min},
                    {"percent_of_baseline_max_round", v.percent_max},
                    {"predicted_store_wavefronts", v.predicted_store_wavefronts},
                    {"predicted_read_wavefronts", v.predicted_read_wavefronts}});
    }
    t["variants"] = vs;
  }
  j["transpose"] = t;
  return j;
}

namespace {

std::string access_line(const char* title, const AccessMeasurement& a) {
  std::string s = fmt::format("{:<6} {:<9} x{:<3} predicted {:>6.2f} wavefronts/instr", title, a.instruction, a.instructions,
                              a.predicted_wavefronts);
  if (a.measured) {
    s += fmt::format(", measured {:>6.2f} ({} total, {} conflicts) {}", a.measured_wavefronts, a.measured_total, a.measured_conflicts,
                     a.matches() ? "[match]" : "[DIFFERS]");
  } else {
    s += ", measured -";
  }
  return s;
}

}  // namespace

std::string to_text(const RunResult& r) {
  std::string s = fmt::format("device: {}\nproblem: {} ({}-bit elements), layout: {}\n", r.device.available ? r.device.name : r.device.reason,
                              r.problem, r.element_bits, r.layout);
  s += fmt::format("correct: {} ({} elements checked{}), check kernel {:.1f} us\n", r.correct ? "yes" : "NO", r.checked,
                   r.correct ? "" : fmt::format(", {} wrong; first: {}", r.mismatches, r.first_mismatch), r.check_kernel_us);
  if (!r.counters_available) s += fmt::format("counters: unavailable: {}\n", r.counters_reason);
  s += access_line("store", r.store) + "\n" + access_line("read", r.read) + "\n";
  const TransposeResult& t = r.transpose;
  const TransposeSpec& c = t.config;
  if (!t.ran) {
    s += fmt::format("transpose: not run: {}\n", t.reason);
  } else {
    s += fmt::format(
        "transpose {}x{} {}-bit, {}x{} tiles ({} per warp group{}, {} group{} per block{}{}{}{}, {} blocks)\n"
        "  baseline: {} (cudaMemcpy D2D {:.0f} GB/s, copy kernel {:.0f} GB/s: {})\n",
        t.rows, t.cols, t.element_bits, t.tile_rows, t.tile_cols, c.batch, c.batch_along_n ? " along n" : "", c.groups,
        c.groups == 1 ? "" : "s", c.streaming ? ", evict-first" : "", c.m_fastest ? ", blocks along m" : "",
        c.persistent ? ", grid-stride" : "", c.loads_first ? ", loads first" : "", t.grid_blocks(), t.baseline, t.memcpy_gbs,
        t.copy_kernel_gbs, t.copy_kernel);
    for (const auto& v : t.variants) {
      if (!v.ran) {
        s += fmt::format("  {:<11} not run: {}  ({})\n", v.name, v.not_run, v.layout);
        continue;
      }
      s += fmt::format("  {:<11} {:>7.0f} GB/s  {:>5.1f}% of the baseline ({:.0f} GB/s alongside; rounds {:.1f}-{:.1f}%)  {} / {}, read {:.2f} wf/instr  {}  ({})\n",
                       v.name, v.bandwidth_gbs, v.percent_of_baseline(), v.baseline_gbs, v.percent_min, v.percent_max, v.store_instruction,
                       v.read_instruction, v.predicted_read_wavefronts, v.correct ? "correct" : "WRONG", v.layout);
    }
  }
  return s;
}

}  // namespace swz::gpu
