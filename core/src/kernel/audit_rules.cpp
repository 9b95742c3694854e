// audit_rules.cpp: which shared layouts the ops that use a buffer accept (audit_parts.h).
//
// A suggestion changes a buffer's layout for every op that uses it, not only for the access it
// was made for. These are the consumers' own rules, as Triton 3.6 and PTX state them:
//
//   wgmma          reads shared operands through a matrix descriptor, which describes
//                  nvmma_shared layouts only (Triton's WGMMA lowering builds the descriptor from
//                  NVMMASharedEncodingAttr). PTX's wgmma.mma_async has transpose immediates
//                  (imm-trans-a / imm-trans-b) for .f16 / .bf16 alone: tf32, e4m3 / e5m2 and s8
//                  operands are K-major only (Triton's WGMMAOpPattern::getPtxAsm asserts
//                  "WGMMA type or shape is not supported" otherwise). K is dim 1 of A (MxK) and
//                  dim 0 of B (KxN): K-major is transposed = false for A, transposed = true for B.
//   nvmma_shared   canonical swizzles only: swizzlingByteWidth 0, 32, 64 or 128; a core matrix is
//                  8 rows of max(16, swizzle) bytes, so the contiguous dim holds at least that many
//                  bytes (Triton's nvmmaSharedToLinearLayout; getCanonicalSwizzle's widths).
//   TMA            a box's inner dim is at most the swizzle width and a multiple of 16 bytes; the
//                  tensor descriptor carries the swizzle mode, so a buffer a TMA copy fills or
//                  drains keeps its layout (the descriptor is not part of the module's layouts).
//   tcgen05        reads shared operands through its shared-memory descriptor, built from
//                  nvmma_shared as wgmma's is; the descriptor's mode must suit the operand's type and
//                  major (sm100.h, CuTe's sm100 selector): tf32 MN-major takes only SWIZZLE_128B_BASE32B,
//                  which no nvmma_shared expresses (triton issue #9252), so Triton keeps tf32 K-major.
#include <fmt/format.h>

#include "audit_parts.h"
#include "swz/layout/sm100.h"

namespace swz::audit_parts {

std::optional<Nvmma> nvmma_of(const std::string& attribute) {
  if (attribute.find("nvmma_shared") == std::string::npos) return std::nullopt;
  try {
    const AttrNode a = ttgir::parse_attribute(attribute);
    if (a.layout_kind() != "nvmma_shared") return std::nullopt;
    Nvmma n;
    auto integer = [&](const char* key, std::int64_t fallback) {
      const AttrNode* f = a.field(key);
      return f && (f->kind == AttrNode::Kind::Integer || f->kind == AttrNode::Kind::Bool) ? f->integer : fallback;
    };
    n.swizzle_bytes = static_cast<int>(integer("swizzlingByteWidth", -1));
    n.transposed = integer("transposed", 0) != 0;
    n.element_bits = static_cast<int>(integer("elementBitWidth", 0));
    return n;
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::string nvmma_rule(const Nvmma& n, const std::vector<std::int64_t>& shape, int element_bits) {
  if (n.swizzle_bytes != 0 && n.swizzle_bytes != 32 && n.swizzle_bytes != 64 && n.swizzle_bytes != 128)
    return fmt::format("nvmma_shared swizzles 0, 32, 64 or 128 bytes, not {}", n.swizzle_bytes);
  if (n.element_bits != element_bits)
    return fmt::format("nvmma_shared's elementBitWidth {} is not the buffer's {}-bit elements", n.element_bits, element_bits);
  if (shape.size() < 2) return "";
  const std::int64_t contiguous = n.transposed ? shape[shape.size() - 2] : shape.back();
  const std::int64_t rows = n.transposed ? shape.back() : shape[shape.size() - 2];
  const std::int64_t row_bytes = std::max(16, n.swizzle_bytes);
  if (contiguous * element_bits / 8 < row_bytes)
    return fmt::format("a {}-byte nvmma swizzle needs {} bytes along the contiguous dim; the tile has {}", n.swizzle_bytes,
                       row_bytes, contiguous * element_bits / 8);
  if (rows < 8) return fmt::format("an nvmma core matrix has 8 rows; the tile has {}", rows);
  return "";
}

bool wgmma_transposable(const std::string& element) { return element == "f16" || element == "bf16"; }

std::string wgmma_operand_rule(const std::string& attribute, int operand, const std::string& element, int element_bits,
                               const std::vector<std::int64_t>& shape) {
  const char* name = operand == 0 ? "A" : "B";
  const auto n = nvmma_of(attribute);
  if (!n) return fmt::format("wgmma reads operand {} through a matrix descriptor, which describes nvmma_shared layouts only", name);
  if (std::string rule = nvmma_rule(*n, shape, element_bits); !rule.empty()) return rule;
  // Measured, not documented: Triton 3.6 stops at "Failed to find a valid layout" (ConvertTritonGPUToLLVM) on a
  // tf32 matmul whose B tile, filled by cp.async, was given swizzlingByteWidth = 0 (H100, 2026-11-25).
  if (n->swizzle_bytes == 0)
    return fmt::format("Triton 3.6 could not lower wgmma operand {} without a swizzle (swizzlingByteWidth = 0: \"Failed to find a "
                       "valid layout\", measured)",
                       name);
  const bool k_major = operand == 0 ? !n->transposed : n->transposed;
  if (!k_major && !wgmma_transposable(element))
    return fmt::format("wgmma takes {} operands K-major only (the transpose bit exists for f16/bf16 alone): operand {} needs transposed = {}",
                       element == "f32" ? "tf32" : element, name, operand == 0 ? "false" : "true");
  return "";
}

namespace {
// The descriptor mode an nvmma_shared swizzle width stands for (16-byte atoms: 0, 32, 64, 128 bytes).
const UmmaMode& umma_mode_of_nvmma(int swizzle_bytes) {
  return umma_mode_of_field(swizzle_bytes == 128 ? 2 : swizzle_bytes == 64 ? 4 : swizzle_bytes == 32 ? 6 : 0);
}
}  // namespace

std::string tcgen05_operand_layout_rule(const std::string& attribute, int operand, const std::string& element, int element_bits,
                                        const std::vector<std::int64_t>& shape) {
  const char* name = operand == 0 ? "A" : "B";
  const auto n = nvmma_of(attribute);
  if (!n)
    return fmt::format("tcgen05 reads operand {} through a shared-memory descriptor, built from nvmma_shared layouts only", name);
  if (std::string rule = nvmma_rule(*n, shape, element_bits); !rule.empty()) return rule;
  // The descriptor allows SWIZZLE_NONE, but whether Triton 3.6 lowers tcgen05 from an unswizzled
  // nvmma_shared is not checked here (its wgmma lowering refused one, measured): not suggested.
  if (n->swizzle_bytes == 0)
    return fmt::format(
        "tcgen05 operand {} without a swizzle (swizzlingByteWidth = 0): Triton 3.6's lowering of it is unchecked "
        "here, so no suggestion drops the swizzle",
        name);
  const Major major = (operand == 0 ? !n->transposed : n->transposed) ? Major::K : Major::MN;
  try {
    const auto modes = tcgen05_operand_modes(element, major);
    const UmmaMode& mode = umma_mode_of_nvmma(n->swizzle_bytes);
    for (const UmmaMode* legal : modes)
      if (legal == &mode) return "";
    return fmt::format("{} (operand {}); nvmma_shared gives {}", tcgen05_operand_rule(element, major), name, mode.name);
  } catch (const Error& e) {
    return fmt::format("operand {}: {}", name, e.what());
  }
}

std::string tcgen05_operand_note(const std::string& attribute, int operand, const std::string& element) {
  const auto n = nvmma_of(attribute);
  if (!n) return "";
  const Major major = (operand == 0 ? !n->transposed : n->transposed) ? Major::K : Major::MN;
  try {
    (void)tcgen05_operand_modes(element, major);  // the type is one tcgen05 reads
    std::string note = fmt::format("{}{}, {}-major: {}", element, element == "f32" ? " as tf32" : "", major_name(major),
                                   umma_mode_of_nvmma(n->swizzle_bytes).name);
    if (major == Major::K && tcgen05_operand_modes(element, Major::MN).front()->layout_type == 1)
      note +=
          "; MN-major it would need SWIZZLE_128B_BASE32B (Swizzle<2,5,2>), which #ttg.nvmma_shared cannot express "
          "(triton issue #9252)";
    return note;
  } catch (const Error&) {
    return "";
  }
}

std::string tma_box_rule(std::int64_t inner_box_bytes, int swizzle_bytes) {
  if (inner_box_bytes % 16 != 0) return fmt::format("a TMA box's inner dim is a multiple of 16 bytes, not {}", inner_box_bytes);
  if (swizzle_bytes > 0 && inner_box_bytes > swizzle_bytes)
    return fmt::format("a TMA box's inner dim ({} bytes) is at most the swizzle width ({} bytes)", inner_box_bytes,
                       swizzle_bytes);
  return "";
}

}  // namespace swz::audit_parts
