// audit_parts.cpp: the audit's helpers (audit_parts.h).
#include "audit_parts.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <set>

namespace swz::audit_parts {

bool only_stored(const Module& m, const std::string& value) {
  const auto uses = m.used_values.find(value);
  if (uses == m.used_values.end() || uses->second != 1) return false;
  for (const auto& [line_no, text] : m.arithmetic) {
    const std::size_t at = text.find("tt.store ");
    if (at == std::string::npos) continue;
    const std::size_t end = text.find(" : ", at);
    const std::string operands = text.substr(at + 9, end == std::string::npos ? std::string::npos : end - at - 9);
    const std::size_t comma = operands.find(", ");
    if (comma == std::string::npos) continue;
    const std::size_t next = operands.find(',', comma + 2);
    if (operands.substr(comma + 2, next == std::string::npos ? std::string::npos : next - comma - 2) == value) return true;
  }
  return false;
}

std::string predicated_off_note(const Access& a) {
  if (!a.duplicates_predicated_off) return "";
  const int off_lanes = std::popcount(broadcast_bits(a.layout, "lane"));
  const int off_warps = std::popcount(broadcast_bits(a.layout, "warp"));
  if (!off_lanes && !off_warps) return "";
  const int lane_bits = a.layout.in_dim_bits("lane"), warp_bits = a.layout.in_dim_bits("warp");
  return fmt::format(
      "; {} of {} warps x {} of {} lanes live, the others hold copies of their elements and are predicated "
      "off (a warp predicated off whole issues the instruction and writes nothing)",
      1 << (warp_bits - off_warps), 1 << warp_bits, 1 << (lane_bits - off_lanes), 1 << lane_bits);
}

bool stores_from_warp(const LinearLayout& layout, std::uint64_t w) { return (w & broadcast_bits(layout, "warp")) == 0; }

std::string attribute_text(const AttrNode& node, const ttgir::Aliases& aliases) {
  if (node.kind == AttrNode::Kind::Alias) {
    auto it = aliases.find(node.text);
    return it == aliases.end() ? "#" + node.text : it->second;
  }
  return "#" + node.text + "<...>";
}

std::string type_encoding_text(const Type& t, const ttgir::Aliases& aliases, const std::string& raw) {
  if (!t.encoding) return "";
  if (t.encoding->kind == AttrNode::Kind::Alias) return attribute_text(*t.encoding, aliases);
  // Inline attribute: cut it out of the raw type text.
  const std::size_t at = raw.find('#');
  if (at == std::string::npos) return "";
  int depth = 0;
  std::size_t end = at;
  for (; end < raw.size(); ++end) {
    if (raw[end] == '<') ++depth;
    if (raw[end] == '>') {
      if (depth == 0) break;
      if (--depth == 0) {
        ++end;
        break;
      }
    }
    if (raw[end] == ',' && depth == 0) break;
  }
  return raw.substr(at, end - at);
}

std::vector<std::int64_t> trailing(const std::vector<std::int64_t>& shape, std::size_t rank) {
  if (shape.size() <= rank) return shape;
  return {shape.end() - static_cast<std::ptrdiff_t>(rank), shape.end()};
}

std::string sass(const char* prefix, int bits) {
  const std::string p = prefix;
  const WarpOp op = p == "LDGSTS" ? WarpOp::AsyncCopy : p == "STS" ? WarpOp::Store : WarpOp::Load;
  return InstructionKind{op, std::max(1, bits / 8), 0, false}.name();  // the names warp_access.h gives
}

void fill(AuditAccess& a, const TritonSide& t, int element_bits) {
  a.issued = element_bits >= 8 ? std::optional<Access>(t.access) : std::nullopt;
  a.instructions = t.instructions;
  a.wavefronts = t.mean();
  a.ideal_wavefronts = t.ideal;
  a.worst_wavefronts = t.worst;
  a.conflicts = t.instructions ? static_cast<double>(t.wavefronts - t.ideal_total) / static_cast<double>(t.instructions) : 0.0;
  a.instruction = t.instruction;
}

void fill(AuditAccess& a, const AccessResult& r) {
  a.instructions = r.instructions();
  a.wavefronts = r.mean_wavefronts;
  a.ideal_wavefronts = r.ideal_wavefronts;
  a.worst_wavefronts = r.wavefronts;
  a.conflicts =
      r.instructions() ? static_cast<double>(r.total_wavefronts - r.total_ideal) / static_cast<double>(r.instructions()) : 0.0;
}

bool is_modelled_op(const std::string& name) {
  static const std::set<std::string> ops{"local_store", "local_load", "local_alloc", "async_copy_global_to_local",
                                         "convert_layout"};
  const auto dot = name.find('.');
  return ops.count(name.substr(dot + 1)) != 0 && (name.rfind("ttg.", 0) == 0 || name.rfind("triton_gpu.", 0) == 0);
}

bool is_no_data_op(const std::string& name) {
  static const std::set<std::string> ops{"local_dealloc",
                                         "async_commit_group",
                                         "async_wait",
                                         "memdesc_index",
                                         "memdesc_subslice",
                                         "memdesc_trans",
                                         "memdesc_reinterpret",
                                         "memdesc_subview",
                                         "warp_group_dot_wait",
                                         "fence_async_shared",
                                         "barrier",
                                         "predicate_stage",
                                         "mask",
                                         "mask.return",
                                         "warp_yield",
                                         "warp_return"};
  // AMD ops that move no data through LDS: amdg.in_thread_transpose reorders registers within each
  // thread (Triton 3.6 lowers it to extractvalue / insertelement, third_party/amd/lib/TritonAMDGPUToLLVM,
  // InThreadTransposeOpConversion; test/Conversion/amd/in_thread_transpose.mlir), and the buffer ops
  // load and store global memory through a buffer descriptor.
  static const std::set<std::string> amd{"in_thread_transpose", "buffer_load", "buffer_store", "buffer_atomic_rmw",
                                         "buffer_atomic_cas",   "upcast_mxfp", "cond_barrier", "instruction_sched_hint",
                                         "sched_barrier"};
  const auto dot = name.find('.');
  if (name.rfind("amdg.", 0) == 0 || name.rfind("amdgpu.", 0) == 0) return amd.count(name.substr(dot + 1)) != 0;
  return ops.count(name.substr(dot + 1)) != 0;
}

std::optional<std::pair<LinearLayout, bool>> ldmatrix_addresses(const LinearLayout& operand, const SharedLayout& shared) {
  const auto& reg = operand.bases("register");
  const auto& lane = operand.bases("lane");
  if (reg.size() < 3 || lane.size() != 5 || !shared.is_linear()) return std::nullopt;
  const auto& offsets = shared.linear().bases("offset");
  if (offsets.size() < 3) return std::nullopt;
  // The stored rows' contiguous direction: offset bits 0..2 (16 bytes of 16-bit elements).
  const std::vector<BitVec> contiguous{offsets[0], offsets[1], offsets[2]};
  const std::vector<BitVec> group_a{reg[0], lane[0], lane[1]}, group_b{lane[2], lane[3], lane[4]};
  bool trans = false;
  if (group_a != contiguous) {
    if (group_b != contiguous) return std::nullopt;
    trans = true;
  }
  const auto& vector = trans ? group_b : group_a;
  const auto& rows = trans ? group_a : group_b;
  std::vector<BitVec> regs = vector;
  for (std::size_t i = 3; i < reg.size(); ++i) regs.push_back(reg[i]);
  std::vector<BitVec> lanes = rows;
  lanes.push_back(reg[1]);
  lanes.push_back(reg[2]);
  LinearLayout addresses(
      {InDim{"register", regs}, InDim{"lane", lanes}, InDim{"warp", operand.bases("warp")}, InDim{"block", {}}},
      operand.out_dims());
  return std::make_pair(addresses, trans);
}

std::optional<std::pair<std::string, double>> named_equivalent(const Access& writer, const Access& reader, const Access& access,
                                                               const SharedLayout& best, int bits, const BankModel& bank) {
  const auto shape = best.shape();
  if (shape.size() != 2) return std::nullopt;
  const double w_best = simulate(writer, best, bits, bank).mean_wavefronts,
               r_best = simulate(reader, best, bits, bank).mean_wavefronts;
  auto try_attr = [&](const std::string& attr) -> std::optional<std::pair<std::string, double>> {
    try {
      const ttgir::Layout l = ttgir::convert(attr, shape, bits);
      if (!l.shared) return std::nullopt;
      if (simulate(writer, *l.shared, bits, bank).mean_wavefronts > w_best + 1e-9) return std::nullopt;
      if (simulate(reader, *l.shared, bits, bank).mean_wavefronts > r_best + 1e-9) return std::nullopt;
      return std::make_pair(attr, simulate(access, *l.shared, bits, bank).mean_wavefronts);
    } catch (const Error&) {
      return std::nullopt;
    }
  };
  for (int swizzle : {128, 64, 32})
    for (const char* transposed : {"false", "true"})
      if (auto found =
              try_attr(fmt::format("#ttg.nvmma_shared<{{swizzlingByteWidth = {}, transposed = {}, elementBitWidth = {}}}>",
                                   swizzle, transposed, bits)))
        return found;
  for (const char* order : {"[1, 0]", "[0, 1]"})
    for (int vec = 1; vec * bits <= 128; vec *= 2)
      for (int max_phase = 2; max_phase <= 32; max_phase *= 2)
        for (int per_phase = 1; per_phase <= 8; per_phase *= 2)
          if (auto found = try_attr(fmt::format("#ttg.swizzled_shared<{{vec = {}, perPhase = {}, maxPhase = {}, order = {}}}>",
                                                vec, per_phase, max_phase, order)))
            return found;
  return std::nullopt;
}

LinearLayout offsets_only(const LinearLayout& l) {
  return LinearLayout({InDim{"offset", l.bases("offset")}, InDim{"block", {}}}, l.out_dims());
}

int global_contiguous_dim(const std::string& layout_text, int rank) {
  const int last = rank - 1;
  AttrNode e;
  try {
    e = ttgir::parse_attribute(layout_text);
  } catch (const Error&) {
    return last;
  }
  const AttrNode* order = e.field("order");
  if (!order || order->kind != AttrNode::Kind::List || order->items.empty()) return last;
  const std::int64_t d = order->items.front().integer;
  return d >= 0 && d <= last ? static_cast<int>(d) : last;
}

int pointer_contiguity(const Op& op) {
  const auto c = op.attributes.find("contiguity = ");
  if (c == std::string::npos) return 0;
  const std::size_t end = op.attributes.find_first_not_of("0123456789", c + 13);
  const std::string digits = op.attributes.substr(c + 13, end == std::string::npos ? std::string::npos : end - c - 13);
  if (digits.empty() || digits.size() > 6) fail("contiguity is not a number");
  return std::stoi(digits);
}

}  // namespace swz::audit_parts
