// audit_amd.cpp: which shared layouts Triton 3.6 accepts for a buffer of an AMD (hip) module, for
// the audit's suggestions (audit_parts.h).
//
// The rule, from Triton 3.6's AMD pipeline:
//   - An MFMA operand (a ttg.local_load into #ttg.dot_op over #ttg.amd_mfma) reads kWidth contiguous
//     K elements per lane; the buffer Triton makes for it is a #ttg.swizzled_shared with vec = kWidth in
//     the buffer's order, perPhase and maxPhase from the bank count:
//       perPhase = max(1, banks * 32 / bits / inner), maxPhase = max(min(16 / perPhase, inner / vec), 1)
//     (lib/Dialect/TritonGPU/IR/Dialect.cpp, AMDMfmaEncodingAttr::composeSharedLayoutForOperand(): banks 32,
//     64 on gfx950, simdWidth 16; no swizzle, vec = perPhase = maxPhase = 1, where K is not contiguous on
//     gfx942). The audit offers the same family: vec = kWidth, the buffer's order, perPhase x maxPhase at most
//     16, maxPhase x vec at most the contiguous dim; or no swizzle.
//   - Any other buffer: #ttg.swizzled_shared in the buffer's order, vectors of at most 128 bits
//     (ds_read_b128 / ds_write_b128, the widest LDS access).
//   - #ttg.nvmma_shared (NVIDIA's wgmma / TMA encoding) and #ttg.shared_linear are never made by the AMD
//     passes for these ops, so they are not offered.
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "audit_parts.h"
#include "swz/sim/gpu.h"
#include "ttgir_named.h"

namespace swz::audit_parts {

namespace {

// The kWidth of an MFMA operand `op` loads from shared memory; 0 when `op` is no such load.
std::int64_t mfma_operand_k_width(const Op& op, const ttgir::Aliases& aliases) {
  const std::string kind = op.name.substr(op.name.find('.') + 1);
  if (kind != "local_load" || op.result_types.empty() || !op.result_types[0].encoding) return 0;
  try {
    const AttrNode dot = ttgir::resolve(*op.result_types[0].encoding, aliases);
    if (dot.layout_kind() != "dot_op" || !dot.field("parent") || dot.field("parent")->layout_kind() != "amd_mfma") return 0;
    return ttgir::detail::int_field(dot, "kWidth");
  } catch (const Error&) {
    return 0;
  }
}

struct AmdSwizzle {
  std::int64_t vec = 0, per_phase = 0, max_phase = 0;
  std::vector<std::int64_t> order;
};

std::optional<AmdSwizzle> amd_swizzle_of(const std::string& text) {
  try {
    const AttrNode a = ttgir::parse_attribute(text);
    if (a.layout_kind() != "swizzled_shared" && a.layout_kind() != "amd_rotating_shared") return std::nullopt;
    return AmdSwizzle{ttgir::detail::int_field(a, "vec"), ttgir::detail::int_field(a, "perPhase"),
                      ttgir::detail::int_field(a, "maxPhase"), ttgir::detail::list_field(a, "order")};
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::string order_text(const std::vector<std::int64_t>& order) { return fmt::format("[{}]", fmt::join(order, ", ")); }

}  // namespace

std::string amd_layout_rule(const std::string& candidate, const std::string& old_text, const Op& op,
                            const ttgir::Aliases& aliases, const std::vector<std::int64_t>& tile) {
  const auto c = amd_swizzle_of(candidate);
  if (!c)
    return "Triton's AMD passes make only #ttg.swizzled_shared (or amd_rotating_shared, padded_shared) buffers for these ops";
  const auto old = amd_swizzle_of(old_text);
  if (old && c->order != old->order)
    return fmt::format("order {} is not the buffer's {}: its global loads and stores are laid out along that order",
                       order_text(c->order), order_text(old->order));
  const std::int64_t k_width = mfma_operand_k_width(op, aliases);
  if (k_width == 0) return "";
  const bool none = c->vec == 1 && c->per_phase == 1 && c->max_phase == 1;
  const std::int64_t inner = c->order.empty() || tile.size() < 2 ? 0 : tile[static_cast<std::size_t>(c->order[0])];
  if (!none && c->vec != k_width)
    return fmt::format("an MFMA operand of kWidth {} takes vec = kWidth (composeSharedLayoutForOperand), not {}", k_width,
                       c->vec);
  if (!none && (c->per_phase * c->max_phase > 16 || c->max_phase * c->vec > inner))
    return fmt::format(
        "perPhase {} x maxPhase {} must be at most 16 and maxPhase x vec at most {} (composeSharedLayoutForOperand)",
        c->per_phase, c->max_phase, inner);
  return "";
}

std::vector<std::string> amd_shared_candidates(const std::vector<BufferUse>& users, const std::string& old_text,
                                               const std::vector<std::int64_t>& tile, int bits, const ttgir::Aliases& aliases) {
  std::vector<std::string> texts;
  const auto old = amd_swizzle_of(old_text);
  if (tile.size() != 2 || !old || old->order.size() != 2) return texts;
  std::int64_t k_width = 0;
  for (const BufferUse& u : users) k_width = std::max(k_width, mfma_operand_k_width(*u.op, aliases));
  const std::int64_t inner = tile[static_cast<std::size_t>(old->order[0])];
  const std::string order = order_text(old->order);
  auto add = [&](std::int64_t vec, std::int64_t per_phase, std::int64_t max_phase) {
    texts.push_back(fmt::format("#ttg.swizzled_shared<{{vec = {}, perPhase = {}, maxPhase = {}, order = {}}}>", vec, per_phase,
                                max_phase, order));
  };
  add(1, 1, 1);
  std::vector<std::int64_t> vecs;
  if (k_width)
    vecs.push_back(k_width);  // an MFMA operand: vec = kWidth only
  else
    for (std::int64_t vec = 1; vec * bits <= 128; vec *= 2) vecs.push_back(vec);
  for (const std::int64_t vec : vecs)
    for (std::int64_t max_phase = 2; max_phase * vec <= inner && max_phase <= 32; max_phase *= 2)
      for (std::int64_t per_phase = 1; per_phase <= 16; per_phase *= 2)
        if (!k_width || per_phase * max_phase <= 16) add(vec, per_phase, max_phase);
  return texts;
}

AmdTransposingRead amd_transposing_read(const Op& op, const ttgir::Aliases& aliases, const BankModel& bank, int bits) {
  const InstructionKind tr_b16{WarpOp::Load, 8, 0, true};
  if (!gpu_of(bank).has(tr_b16) || (bits != 16 && bits != 8)) return {};
  if (op.operand_types.empty() || op.result_types.empty() || !op.operand_types[0].encoding || !op.result_types[0].encoding)
    return {};
  const AttrNode dot = ttgir::resolve(*op.result_types[0].encoding, aliases);
  const AttrNode shared = ttgir::resolve(*op.operand_types[0].encoding, aliases);
  if (dot.layout_kind() != "dot_op" || !dot.field("parent") || dot.field("parent")->layout_kind() != "amd_mfma" ||
      shared.layout_kind() != "swizzled_shared")
    return {};
  const auto rank = static_cast<std::int64_t>(op.result_types[0].shape.size());
  const std::int64_t k_dim = ttgir::detail::int_field(dot, "opIdx") == 0 ? rank - 1 : rank - 2;
  const std::vector<std::int64_t> order = ttgir::detail::list_field(shared, "order");
  if (order.empty() || order[0] == k_dim) return {};  // K contiguous: the plain ds_read of kWidth elements
  if (bits == 8)
    return {false,
            "Triton issues ds_read_b64_tr_b8 here (K not contiguous in LDS, gfx950), not modelled: priced as the "
            "reads it would be without it"};
  return {true,
          "DS_READ_B64_TR_B16: Triton's transposing read of an MFMA operand whose K is not contiguous in LDS "
          "(TransLocalLoadOpConversion); lanes address 64 bits as chooseLLDsReadB64TrLayout lays them out"};
}

LinearLayout ds_read_tr_addresses(const LinearLayout& operand, int bits) {
  const auto registers_rotated = static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(64 / bits)));
  constexpr std::size_t kLanesRotated = 4;  // 16 lanes exchange their elements
  std::vector<BitVec> registers = operand.bases("register"), lanes = operand.bases("lane");
  if (registers.size() < registers_rotated || lanes.size() < kLanesRotated)
    fail("a transposing read needs {} register and {} lane bases; the operand layout has {} and {}", registers_rotated,
         kLanesRotated, registers.size(), lanes.size());
  std::vector<BitVec> unit(lanes.begin(), lanes.begin() + kLanesRotated);
  unit.insert(unit.end(), registers.begin(), registers.begin() + static_cast<std::ptrdiff_t>(registers_rotated));
  std::copy(unit.begin(), unit.begin() + static_cast<std::ptrdiff_t>(registers_rotated), registers.begin());
  std::copy(unit.begin() + static_cast<std::ptrdiff_t>(registers_rotated), unit.end(), lanes.begin());
  return operand.with_in_dim("register", registers).with_in_dim("lane", lanes);
}

// Triton lowers both to AMD's load-to-LDS forms of global / buffer loads (the `lds` modifier):
// the loaded data go to LDS without passing a register, at LDS addresses that are not a lane
// operand (LLVM's AMDGPU operand docs: with `lds` the destination register is ignored and the
// data are stored directly into LDS). No published table states how those writes meet the banks.
std::string amd_copy_to_lds_note(const std::string& op_name) {
  return fmt::format(
      "{}: a copy from global memory straight into LDS (the load-to-LDS form of AMD's global / buffer loads); its LDS "
      "writes are not priced: they carry no per-lane LDS address and no published table states their phases or banks",
      op_name);
}

}  // namespace swz::audit_parts
