#include "capture.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "platform.h"
#include "workbench.h"

namespace swz::gui {

void service_capture(Platform& platform, Workbench& bench) {
  if (!bench.capture_due()) return;
  const auto request = bench.take_capture();
  if (!request) return;
  platform.finish();
  int w = 0, h = 0;
  const std::vector<unsigned char> pixels = platform.read_pixels(w, h);
  int x0 = 0, y0 = 0, x1 = w, y1 = h;
  if (!request->panel.empty()) {
    const auto probe = bench.probe("panel." + request->panel);
    if (!probe) {
      bench.capture_finished(request->path, fmt::format("cannot take a picture of the '{}' panel: it is hidden (show it from the View menu)",
                                                        request->panel));
      return;
    }
    const ImVec2 s = ImGui::GetIO().DisplayFramebufferScale;
    x0 = std::clamp(static_cast<int>(std::floor(probe->min.x * s.x)), 0, w);
    y0 = std::clamp(static_cast<int>(std::floor(probe->min.y * s.y)), 0, h);
    x1 = std::clamp(static_cast<int>(std::ceil(probe->max.x * s.x)), x0, w);
    y1 = std::clamp(static_cast<int>(std::ceil(probe->max.y * s.y)), y0, h);
  }
  const int cw = x1 - x0, ch = y1 - y0;
  std::vector<unsigned char> crop(static_cast<std::size_t>(cw) * static_cast<std::size_t>(ch) * 4);
  for (int y = 0; y < ch; ++y)
    std::copy_n(pixels.data() + (static_cast<std::size_t>(y0 + y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x0)) * 4,
                static_cast<std::size_t>(cw) * 4, crop.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(cw) * 4);
  std::string error;
  if (!write_png(request->path.string(), crop, cw, ch, error)) {
    bench.capture_finished(request->path, error);
    return;
  }
  bench.capture_finished(request->path, {});
}

}  // namespace swz::gui
