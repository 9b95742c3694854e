// GPU: the current problem run on the GPU present, the hardware's wavefront
// counters beside the simulator's prediction, the data checked element by
// element and, when asked, the full-size transpose against cudaMemcpy. The run
// happens on a worker thread; the panel shows the last result with the problem
// it ran for. Greyed out, with the backend's own reason, when this build has no
// CUDA backend or the machine has no usable GPU.
#include <chrono>
#include <future>
#include <optional>

#include <fmt/format.h>

#include "panel.h"
#include "swz/error.h"
#include "swz/gpu.h"
#include "theme.h"
#include "widgets.h"
#include "workbench.h"

namespace swz::gui {

namespace {

struct Outcome {
  std::optional<gpu::RunResult> result;
  std::string error;     // Unavailable or swz::Error: why the run did not happen
  std::string problem;   // what it ran: the problem and its layout, as the status bar names it
  ProblemSpec state;    // the session's problem it ran for
  double seconds = 0;
};

Outcome run_on_gpu(Problem problem, ProblemSpec state, gpu::RunOptions options) {
  Outcome o;
  o.state = std::move(state);
  o.problem = problem.name;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    o.result = gpu::run(problem, options);
  } catch (const gpu::Unavailable& e) {
    o.error = e.what();
  } catch (const Error& e) {
    o.error = e.what();
  } catch (const std::exception& e) {
    o.error = fmt::format("the GPU run failed: {}", e.what());
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

void check_mark(bool ok) {
  const ImVec4 green(0.13f, 0.60f, 0.27f, 1), red(0.82f, 0.16f, 0.16f, 1);
  if (ok) ImGui::TextColored(green, "%s", sym("\xe2\x9c\x93", "ok"));
  else ImGui::TextColored(red, "%s", sym("\xe2\x9c\x97", "x"));
}

struct GpuPanel final : Panel {
  std::optional<gpu::DeviceInfo> device;
  std::future<Outcome> running;
  std::optional<Outcome> last;
  bool transpose = false;

  const char* id() const override { return "gpu"; }
  const char* title() const override { return "GPU"; }

  void draw(PanelContext& ctx) override {
    if (!device) device = gpu::device_info();  // probed once by the backend; never throws
    if (running.valid() && running.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
      last = running.get();
      if (last->error.empty()) ctx.bench.show_status(fmt::format("GPU run finished in {:.1f} s", last->seconds));
      else ctx.bench.show_error(last->error);
    }
    const bool busy = running.valid();

    const ImVec2 reason_min = ImGui::GetCursorScreenPos();
    if (!device->available) {
      ImGui::TextDisabled("No GPU run is possible here");
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("%s", device->reason.c_str());
      ImGui::PopTextWrapPos();
      ctx.probe("gpu.reason", reason_min, ImGui::GetItemRectMax());
      note("The prediction in the other panels needs no GPU. On a machine with one, `swizzle gpu` runs the same check from the command line.");
    } else {
      ImGui::PushFont(fonts().heading);
      ImGui::TextUnformatted(device->name.c_str());
      ImGui::PopFont();
      ImGui::TextDisabled("compute %d.%d, %d SMs, driver %d, NVRTC %d.%d", device->compute_major, device->compute_minor,
                          device->multiprocessors, device->driver_version, device->nvrtc_major, device->nvrtc_minor);
    }

    const bool can_run = device->available && !busy;
    if (!can_run) ImGui::BeginDisabled();
    if (ImGui::Button(busy ? "Running..." : "Run on the GPU")) {
      gpu::RunOptions o;
      o.transpose = transpose;
      o.transpose_tune = false;
      running = std::async(std::launch::async, run_on_gpu, ctx.model.problem, ctx.session.problem, o);
    }
    ctx.probe("gpu.run", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    ImGui::SameLine();
    ImGui::Checkbox("full-size transpose (8192x8192)", &transpose);
    if (!can_run) ImGui::EndDisabled();
    if (busy) {
      ImGui::SameLine();
      ImGui::TextDisabled("compiling with NVRTC and profiling...");
    }

    if (!last) return;
    ImGui::Separator();
    if (!last->error.empty()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(ImVec4(0.72f, 0.10f, 0.10f, 1.0f), "%s", last->error.c_str());
      ImGui::PopTextWrapPos();
      return;
    }
    const gpu::RunResult& r = *last->result;
    ImGui::TextDisabled("Ran %s, %s", last->problem.c_str(), r.layout.c_str());
    if (last->state != ctx.session.problem) {
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(0.80f, 0.50f, 0.05f, 1.0f), "(the problem has changed since: run again)");
    }

    // Data.
    ImGui::TextUnformatted("Data:");
    ImGui::SameLine();
    check_mark(r.correct);
    ImGui::SameLine();
    if (r.correct) ImGui::Text("the reader got what the writer stored (%lld elements checked)", static_cast<long long>(r.checked));
    else ImGui::Text("%lld of %lld elements differ; first: %s", static_cast<long long>(r.mismatches), static_cast<long long>(r.checked),
                     r.first_mismatch.c_str());
    ctx.probe("gpu.correct", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());

    // Counters beside the prediction.
    if (!r.counters_available) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(ImVec4(0.80f, 0.50f, 0.05f, 1.0f), "Counters not read: %s", r.counters_reason.c_str());
      ImGui::PopTextWrapPos();
    }
    if (ImGui::BeginTable("counters", 6, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      for (const char* h : {"access", "instruction", "count", "predicted", "measured", ""}) ImGui::TableSetupColumn(h);
      ImGui::TableHeadersRow();
      auto row = [&](const char* name, const gpu::AccessMeasurement& a, const char* probe) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(name);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(a.instruction.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%d", a.instructions);
        ImGui::TableNextColumn();
        ImGui::Text("%.2f (%lld)", a.predicted_wavefronts, static_cast<long long>(a.predicted_total));
        ImGui::TableNextColumn();
        if (a.measured) ImGui::Text("%.2f (%lld)", a.measured_wavefronts, static_cast<long long>(a.measured_total));
        else ImGui::TextDisabled("-");
        ImGui::TableNextColumn();
        if (a.measured) check_mark(a.matches());
        ctx.probe(probe, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
      };
      row("store (A)", r.store, "gpu.store");
      row("read (B)", r.read, "gpu.read");
      ImGui::EndTable();
    }
    ImGui::TextDisabled("wavefronts per instruction (kernel total); measured = the hardware's l1tex wavefront counters");

    // Throughput.
    const gpu::TransposeResult& t = r.transpose;
    if (!transpose && !t.ran) return;
    heading("Transpose");
    if (!t.ran) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("%s", t.reason.c_str());
      ImGui::PopTextWrapPos();
      return;
    }
    ImGui::TextDisabled("%lldx%lld, %d-bit elements; baseline %s (cudaMemcpy D2D %.0f GB/s, copy kernel %.0f GB/s)",
                        static_cast<long long>(t.rows), static_cast<long long>(t.cols), t.element_bits, t.baseline.c_str(), t.memcpy_gbs,
                        t.copy_kernel_gbs);
    if (ImGui::BeginTable("transpose", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      for (const char* h : {"layout", "predicted read", "GB/s", "% of baseline", "data"}) ImGui::TableSetupColumn(h);
      ImGui::TableHeadersRow();
      for (const gpu::TransposeVariant& v : t.variants) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(v.name.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", v.layout.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", v.predicted_read_wavefronts);
        ImGui::TableNextColumn();
        ImGui::Text("%.0f", v.bandwidth_gbs);
        ImGui::TableNextColumn();
        ImGui::Text("%.1f%%", v.percent_of_baseline());
        ImGui::TableNextColumn();
        if (v.ran) {
          check_mark(v.correct);
        } else {  // no kernel for this layout: said, not marked wrong
          ImGui::TextDisabled("not run");
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", v.not_run.c_str());
        }
      }
      ImGui::EndTable();
    }
  }
};

}  // namespace

std::unique_ptr<Panel> make_gpu_panel() { return std::make_unique<GpuPanel>(); }

}  // namespace swz::gui
