// runtime_none.cpp: the backend in a build without the CUDA toolkit.
//
// Source generation still works (codegen.cpp); anything that needs a GPU says
// exactly why it cannot run.
#include "swz/gpu.h"

namespace swz::gpu {

namespace {
#ifdef __EMSCRIPTEN__
constexpr const char* kWhy =
    "no CUDA in a web browser: a page cannot reach a GPU's CUDA driver. Run the desktop workbench or "
    "`swizzle gpu` on a machine with an NVIDIA GPU to measure layouts there";
#else
constexpr const char* kWhy =
    "this build has no CUDA backend: the CUDA toolkit was not found when it was configured "
    "(or SWZ_ENABLE_CUDA=OFF); rebuild with the toolkit to run layouts on a GPU";
#endif
}

bool built_with_cuda() { return false; }

DeviceInfo device_info() {
  DeviceInfo d;
  d.reason = kWhy;
  return d;
}

RunResult run(const Problem&, const RunOptions&) { throw Unavailable(kWhy); }

std::string compile_check(const std::string&, int, int) { throw Unavailable(kWhy); }

CalibrationInfo calibrate(std::vector<CorpusCase>&, const CalibrationOptions&) { throw Unavailable(kWhy); }

std::vector<char> calibration_cubin(const std::vector<InstructionKind>&, int, int) { throw Unavailable(kWhy); }

}  // namespace swz::gpu
