// audit_gpu.cpp: the GPU a module is priced on (audit.h, audit_gpu()): its ttg.target's, or --gpu.
#include <fmt/format.h>

#include <cctype>

#include "swz/error.h"
#include "swz/kernel/audit.h"

namespace swz {

namespace {

// The gpu.h name for a ttg.target Triton writes: "hip:gfx942" -> gfx942, "cuda:90" -> sm_90,
// "cuda:100" -> sm_100, "cuda:80" / "cuda:86" / "cuda:89" -> sm_80 (Ampere and Ada share its banks
// and instructions); "" for a target the table has no row for.
std::string gpu_of_target(const std::string& target) {
  if (target.rfind("hip:", 0) == 0) {
    const std::string arch = target.substr(4, target.find(':', 4) == std::string::npos ? std::string::npos : target.find(':', 4) - 4);
    for (const GpuModel& g : all_gpus())
      if (g.name == arch) return g.name;
    return "";
  }
  if (target.rfind("cuda:", 0) != 0) return "";
  int cc = 0;
  std::size_t i = 5;
  for (; i < target.size() && cc < 10000 && std::isdigit(static_cast<unsigned char>(target[i])); ++i) cc = cc * 10 + (target[i] - '0');
  if (i == 5) return "";
  if (cc >= 80 && cc < 90) return "sm_80";
  if (cc == 90) return "sm_90";
  if (cc == 100) return "sm_100";
  return "";
}

}  // namespace

const GpuModel& audit_gpu(const ttgir::Module& m, std::string_view gpu, std::string* note) {
  const std::string from_target = gpu_of_target(m.target);
  std::string why;
  const GpuModel* chosen = nullptr;
  if (!gpu.empty()) {
    chosen = &gpu_named(gpu);  // throws, one line, for a name the table does not know
    if (chosen->bank.warp_size != m.threads_per_warp)
      fail("--gpu {} has {} lanes per {}; the module{} has {} (ttg.threads-per-warp)", gpu, chosen->bank.warp_size,
           chosen->vendor == Vendor::Amd ? "wavefront" : "warp", m.target.empty() ? "" : " (ttg.target " + m.target + ")",
           m.threads_per_warp);
    if (!from_target.empty() && from_target != chosen->name)
      why = fmt::format("priced on {} (--gpu {}), not on the module's ttg.target {} ({})", chosen->title(), gpu, m.target,
                        from_target);
    else if (chosen->name != all_gpus().front().name)
      why = fmt::format("priced on {} (--gpu {})", chosen->title(), gpu);
  } else if (!from_target.empty()) {
    chosen = &gpu_named(from_target);
    if (chosen->name != all_gpus().front().name) why = fmt::format("priced on {} (ttg.target {})", chosen->title(), m.target);
  } else {
    // No target the table knows: the H100, or the first GPU whose warps are the module's (64 lanes: gfx942).
    chosen = &all_gpus().front();
    for (const GpuModel& g : all_gpus())
      if (chosen->bank.warp_size != m.threads_per_warp && g.bank.warp_size == m.threads_per_warp) chosen = &g;
    if (chosen != &all_gpus().front() || (!m.target.empty() && m.target.rfind("cuda:", 0) != 0))
      why = fmt::format("{} names no GPU of the table; priced on {}",
                        m.target.empty() ? std::string("no ttg.target") : "ttg.target " + m.target, chosen->title());
  }
  if (chosen->bank.warp_size != m.threads_per_warp) {
    // A module whose warps the default GPU does not have (an unknown target of 64 lanes): no pricing stands.
    fail("the module has {} threads per warp (ttg.target {}), which {} does not; name its GPU with --gpu", m.threads_per_warp,
         m.target.empty() ? "none" : m.target, chosen->title());
  }
  if (note) *note = why;
  return *chosen;
}

}  // namespace swz
