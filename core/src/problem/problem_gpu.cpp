// problem_gpu.cpp: --gpu in a problem spec (problem_spec.h): the GPU's bank model, and a preset
// redrawn for its wavefronts.
#include <fmt/format.h>

#include <algorithm>

#include "spec_fields.h"
#include "swz/error.h"
#include "swz/sim/gpu.h"

namespace swz {

using spec_detail::refuse_field;

BankModel spec_bank_model(const ProblemSpec& s, BankModel model) {
  if (!s.gpu.empty()) {
    const GpuModel& gpu = gpu_named(s.gpu);
    if (s.banks && s.banks != gpu.bank.banks)
      refuse_field("banks", fmt::format("{} contradicts --gpu {}: {} has {} banks", s.banks, s.gpu, gpu.title(), gpu.bank.banks));
    if (s.warp_size && s.warp_size != gpu.bank.warp_size)
      refuse_field("warp_size", fmt::format("{} contradicts --gpu {}: {} has {}-lane warps", s.warp_size, s.gpu, gpu.title(),
                                            gpu.bank.warp_size));
    model = gpu.bank;
  }
  if (s.banks) model.banks = s.banks;
  if (s.warp_size) model.warp_size = s.warp_size;
  return model;
}

void spec_detail::use_gpu(Problem& p, const ProblemSpec& s) {
  const GpuModel& gpu = gpu_named(s.gpu);
  p.bank = spec_bank_model(s, p.bank);
  for (const Access* side : {&p.store, &p.read})
    if (side->ldmatrix || side->async_copy) try {
        check_instruction(instruction_kind(*side, 128), p.bank);
      } catch (const Error& e) {
        refuse_field("gpu", fmt::format("{} (the {} of {})", e.what(), side == &p.store ? "writer" : "reader", p.name));
      }
  const int lanes = 1 << std::max(p.store.layout.in_dim_bits("lane"), p.read.layout.in_dim_bits("lane"));
  if (lanes < gpu.bank.warp_size && !s.writer && !s.reader && p.shape.size() == 2 && !s.preset.empty()) {
    const std::string preset = p.name;
    p = custom_transpose(p.shape, p.element_bits, gpu.bank.warp_size);
    p.name = preset;
    p.bank = gpu.bank;
  }
}

}  // namespace swz
