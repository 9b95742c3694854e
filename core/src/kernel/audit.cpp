// audit.cpp: the shared-memory audit of a TTGIR module (audit.h).
//
// Index:
//   [SECTION] Layouts      tensor / memdesc types -> simulator inputs
//   [SECTION] Accesses     one entry per op, simulated
//   [SECTION] Suggestions  the solver's layout per buffer
//   [SECTION] Output       JSON and the terminal table
#include "swz/kernel/audit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <memory>
#include <set>

#include "swz/error.h"
#include "swz/solve/solver.h"
#include "swz/kernel/triton_convert.h"

namespace swz {

namespace {

using ttgir::AttrNode;
using ttgir::Module;
using ttgir::Op;
using ttgir::Type;

// [SECTION] Layouts

// The attribute as text, a top-level alias replaced by its definition.
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

struct Distributed {
  LinearLayout layout;
  std::string text;
  std::string kind;
};

struct Shared {
  SharedLayout layout;
  std::string text;
};

// SSA memdesc views: result -> (source, origin of a subslice, is a transpose).
struct View {
  std::string source;
  std::vector<std::int64_t> origin;
  bool transposed = false;
};

struct Auditor {
  explicit Auditor(const Module& module) : m(module) {}
  const Module& m;
  BankModel bank;
  std::map<std::string, View> views;
  std::map<std::string, std::string> raw_types;  // for error messages only

  std::string root_of(std::string name, std::vector<std::int64_t>* origin, bool* plain) const {
    for (int hops = 0; hops < 64; ++hops) {
      auto it = views.find(name);
      if (it == views.end()) return name;
      if (!it->second.origin.empty()) {
        *plain = false;
        if (origin) {
          if (origin->empty())
            *origin = it->second.origin;
          else
            for (std::size_t i = 0; i < origin->size() && i < it->second.origin.size(); ++i) (*origin)[i] += it->second.origin[i];
        }
      }
      if (it->second.transposed) *plain = false;
      name = it->second.source;
    }
    return name;
  }

  // Kernels repeat the same few layouts many times: each is converted once.
  mutable std::map<std::string, std::shared_ptr<const Distributed>> distributed_cache;
  mutable std::map<std::string, std::shared_ptr<const Shared>> shared_cache;

  const Distributed& distributed(const Type& t, int element_bits) const {
    if (t.kind != Type::Kind::Tensor || !t.encoding) fail("a tensor type without a layout");
    const std::string key = fmt::format("{}|{}", t.text, element_bits);
    if (auto it = distributed_cache.find(key); it != distributed_cache.end()) return *it->second;
    const ttgir::Layout l = ttgir::convert(*t.encoding, t.shape, element_bits, m.aliases);
    if (l.kind != LayoutKind::Distributed) fail("a tensor with a shared layout");
    auto d = std::make_shared<const Distributed>(Distributed{l.linear, type_encoding_text(t, m.aliases, t.text), l.kind_name});
    return *distributed_cache.emplace(key, d).first->second;
  }

  // The layout a memdesc value is accessed through, over `shape` (its trailing dims).
  // The view and the allocation it belongs to.
  struct SharedView {
    std::shared_ptr<const Shared> layout;
    std::string root;
    bool plain_view = true;
  };
  SharedView shared(const Type& t, const std::string& value, const std::vector<std::int64_t>& shape, int element_bits) const {
    if (t.kind != Type::Kind::MemDesc || !t.encoding) fail("a memdesc type without a layout");
    SharedView v;
    std::vector<std::int64_t> origin;
    v.root = root_of(value, &origin, &v.plain_view);
    const std::string key =
        fmt::format("{}|{}|{}|{}|{}", t.text, fmt::join(shape, "x"), fmt::join(origin, ","), v.plain_view, element_bits);
    auto it = shared_cache.find(key);
    if (it == shared_cache.end())
      it = shared_cache.emplace(key, std::make_shared<const Shared>(shared_uncached(t, shape, element_bits, origin, Shared{})))
               .first;
    v.layout = it->second;
    return v;
  }

  Shared shared_uncached(const Type& t, const std::vector<std::int64_t>& shape, int element_bits,
                         std::vector<std::int64_t> origin, Shared s) const {
    s.text = attribute_text(*t.encoding, m.aliases);
    if (m.num_ctas > 1) fail("modules with {} CTAs per CGA are not modelled", m.num_ctas);
    // A subslice prints its allocation's shape last: the layout lives on that shape.
    std::vector<std::int64_t> layout_shape = shape;
    if (!t.alloc_shape.empty()) {
      layout_shape.assign(t.alloc_shape.end() - static_cast<std::ptrdiff_t>(std::min(shape.size(), t.alloc_shape.size())),
                          t.alloc_shape.end());
    }
    const ttgir::Layout l = ttgir::convert(*t.encoding, layout_shape, element_bits, m.aliases);
    if (l.kind != LayoutKind::Shared || !l.shared) fail("a memdesc with a distributed layout");
    if (layout_shape == shape) {
      s.layout = *l.shared;
      return s;
    }
    // The window of the subslice: absolute offsets of the parent layout.
    origin.resize(shape.size(), 0);
    if (!origin.empty() && origin.size() > shape.size())
      origin.erase(origin.begin(), origin.end() - static_cast<std::ptrdiff_t>(shape.size()));
    const SharedLayout parent = *l.shared;
    s.layout = SharedLayout::from_function(
        shape,
        [&](const Coords& c) {
          Coords p = c;
          for (std::size_t i = 0; i < p.size(); ++i) p[i] += origin[i];
          return static_cast<std::uint64_t>(parent.offset(parent.coords().flatten(p)));
        },
        s.text + " (subslice)");
    return s;
  }
};

std::vector<std::int64_t> trailing(const std::vector<std::int64_t>& shape, std::size_t rank) {
  if (shape.size() <= rank) return shape;
  return {shape.end() - static_cast<std::ptrdiff_t>(rank), shape.end()};
}

std::string sass(const char* prefix, int bits) {
  if (bits >= 32) return fmt::format("{}.{}", prefix, bits);
  return fmt::format("{}.U{}", prefix, bits);
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

// Ops that move no tensor data through shared memory.
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
  const auto dot = name.find('.');
  return ops.count(name.substr(dot + 1)) != 0;
}

// ldmatrix.x4 into a dot operand: each lane of the operand layout holds two 16-bit elements of a
// matrix row (register 0, lanes 0-1 span 8 contiguous elements), lanes 2-4 pick the row, registers
// 1-2 the matrix. The row addresses lanes hand to ldmatrix follow from that:
//   row vector [r0 t0 t1] (16 bytes), row lanes [t2 t3 t4], matrix lanes [r1 r2], then the rest.
// For .trans the two groups swap roles (the stored rows run along the other dim).
// Returns the address layout, or nullopt when the operand does not have that shape.
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

// The first nvmma_shared or swizzled_shared attribute (simplest first) under which the writer, the
// reader and `access` all do as well as under `best`; with `access`'s mean wavefronts.
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

// [SECTION] Accesses

struct Pending {
  std::size_t index;  // into the report
  Access access;
  std::shared_ptr<const Shared> shared;
  std::string root;        // SSA name of the allocation it views
  bool plain_view = true;  // the allocation's own layout (no subslice / transpose)
  int element_bits;
};

}  // namespace

AuditReport audit(const Module& m) {
  AuditReport report;
  report.path = m.path;
  report.lines = m.lines;
  report.num_warps = m.num_warps;
  Auditor au(m);
  au.bank.warp_size = m.threads_per_warp;
  std::vector<Pending> pending;  // simulated LSU accesses, for suggestions
  std::map<std::string, AccessResult> simulations;

  auto entry = [&](const Op& op) {
    AuditAccess a;
    a.op = op.name;
    a.line = op.line;
    a.loc = op.loc;
    return a;
  };
  auto not_modelled = [&](const Op& op, const std::string& why) {
    AuditAccess a = entry(op);
    a.instruction = "not modelled";
    a.note = why;
    report.accesses.push_back(std::move(a));
  };
  auto lsu = [&](const Op& op, AccessKind kind, const Distributed& d, const Auditor::SharedView& view, int bits,
                 const std::string& instruction_prefix, int vec_bits, const std::string& note) {
    const Shared& s = *view.layout;
    AuditAccess a = entry(op);
    a.direction = kind == AccessKind::Store ? "store" : "load";
    if (d.layout.shape() != s.layout.shape())
      fail("the register tensor is {} but the shared view is {}", fmt::join(d.layout.shape(), "x"),
           fmt::join(s.layout.shape(), "x"));
    Access access{d.layout, kind, 0, vec_bits};
    std::string instruction;
    if (instruction_prefix == "LDSM") {
      if (const auto lds = ldmatrix_addresses(d.layout, s.layout)) {
        access = Access{lds->first, kind, 4, 0};
        instruction = lds->second ? "LDSM.x4.trans" : "LDSM.x4";
      }
    }
    const std::string key = fmt::format("{}|{}|{}|{}|{}|{}|{}", static_cast<int>(kind), d.text, fmt::join(d.layout.shape(), "x"),
                                        s.text, s.layout.description(), vec_bits, access.ldmatrix);
    auto cached = simulations.find(key);
    if (cached == simulations.end()) cached = simulations.emplace(key, simulate(access, s.layout, bits, au.bank)).first;
    const AccessResult& r = cached->second;
    fill(a, r);
    a.instruction = !instruction.empty() ? instruction
                                         : sass(instruction_prefix == "LDSM" ? "LDS" : instruction_prefix.c_str(), r.vector.bits);
    a.shared_layout = s.text;
    a.distributed_layout = d.text;
    a.element_bits = bits;
    (kind == AccessKind::Store ? a.writer : a.reader) = d.layout;
    if (s.layout.is_linear()) a.shared_offsets = offsets_only(s.layout.linear());
    a.note = instruction_prefix == "LDSM" && instruction.empty()
                 ? "an mma operand whose registers do not follow ldmatrix's pattern: modelled as vector loads"
                 : note;
    if (m.target.rfind("hip", 0) != 0 && instruction_prefix != "LDGSTS" && s.layout.is_linear()) {
      // Triton 3.6's own lowering of local_store / local_alloc / local_load on NVIDIA targets:
      // stmatrix / ldmatrix wherever the registers hold its tile, not only for mma operands.
      try {
        const TritonSide t = triton_local_access(d.layout, s.layout.linear(), bits, kind == AccessKind::Load, au.bank,
                                                 triton_target(m.target));
        a.instructions = t.instructions;
        a.wavefronts = t.mean();
        a.ideal_wavefronts = t.ideal;
        a.worst_wavefronts = t.worst;
        a.conflicts =
            t.instructions ? static_cast<double>(t.wavefronts - t.ideal_total) / static_cast<double>(t.instructions) : 0.0;
        a.instruction = t.instruction;
        a.note = note;
      } catch (const Error&) {
        // Not a buffer Triton's lowering addresses this way: the simulator's own vector choice above.
      }
    }
    if (m.target.rfind("hip", 0) == 0) {
      // AMD: LDS instructions by width; the bank rules applied are the NVIDIA ones measured here.
      a.instruction = fmt::format("{}_b{}", kind == AccessKind::Store ? "ds_write" : "ds_read", r.vector.bits);
      a.note =
          "AMD target: LDS modelled with the NVIDIA bank rules (32 banks of 4 bytes)" + (a.note.empty() ? "" : "; " + a.note);
    }
    pending.push_back({report.accesses.size(), access, view.layout, view.root, view.plain_view, bits});
    report.accesses.push_back(std::move(a));
  };

  for (const Op& op : m.ops) {
    const std::string kind = op.name.substr(op.name.find('.') + 1);
    try {
      // Views: remember where each memdesc comes from.
      if (kind == "memdesc_index" || kind == "memdesc_subview" || kind == "memdesc_subslice" || kind == "memdesc_trans" ||
          kind == "memdesc_reinterpret") {
        if (!op.results.empty() && !op.operands.empty()) {
          View v{op.operands[0], {}, kind == "memdesc_trans"};
          if (kind == "memdesc_subslice" || kind == "memdesc_subview") {
            // %x[0, 32] : the static offsets in brackets after the source.
            std::size_t at = 0;
            const std::string& idx = op.indices;
            while (at < idx.size()) {
              while (at < idx.size() && (idx[at] == ' ' || idx[at] == ',')) ++at;
              if (at >= idx.size()) break;
              if (!std::isdigit(static_cast<unsigned char>(idx[at]))) fail("memdesc_subslice with non-constant offsets");
              std::size_t used = 0;
              v.origin.push_back(std::stoll(idx.substr(at), &used));
              at += used;
            }
          }
          au.views[op.results[0]] = v;
        }
        continue;
      }
      if (is_no_data_op(op.name)) continue;
      if (op.name == "tt.reduce" || op.name == "tt.scan") {
        // Along an axis held by one warp Triton 3.6 combines in registers and with shuffles; along
        // one split across warps the partial results go through its scratch in shared memory.
        const char* what = kind == "reduce" ? "a reduction" : "a scan";
        if (op.operand_types.empty() || op.operand_types[0].kind != Type::Kind::Tensor) {
          not_modelled(op, fmt::format("{}: {} whose operand types were not printed", op.name, what));
          continue;
        }
        const std::size_t at = op.attributes.find("axis = ");
        if (at == std::string::npos) fail("{} without an axis", op.name);
        const std::size_t axis = static_cast<std::size_t>(std::stoi(op.attributes.substr(at + 7)));
        const Type& src = op.operand_types[0];
        if (axis >= src.shape.size()) fail("axis {} of a rank-{} tensor", axis, src.shape.size());
        const Distributed& d = au.distributed(src, std::max(8, src.element_bits));
        auto along = [&](const char* in) {
          int n = 0;
          for (BitVec b : d.layout.bases(in)) n += d.layout.unflatten(b)[axis] != 0;
          return n;
        };
        const int warps = along("warp"), lanes = along("lane");
        AuditAccess a = entry(op);
        a.distributed_layout = d.text;
        if (warps == 0) {
          a.instruction = lanes ? "shuffle" : "registers";
          a.note = lanes ? fmt::format("{} along axis {} within each warp: shuffles, no shared memory", what, axis)
                         : fmt::format("{} along axis {} within each thread: registers only", what, axis);
          report.accesses.push_back(std::move(a));
          continue;
        }
        a.instruction = "not modelled";
        a.note = fmt::format(
            "{} along axis {} across {} warps: partial results go through Triton's reduction scratch in shared "
            "memory (not modelled)",
            what, axis, 1 << warps);
        report.accesses.push_back(std::move(a));
        continue;
      }
      if (op.name.rfind("tt.", 0) == 0) {
        // tt.gather, tt.histogram, descriptor ops: may go through shared memory, not modelled.
        not_modelled(op, fmt::format("{} may use shared memory (Triton's lowering of it is not modelled)", op.name));
        continue;
      }
      if (op.name.rfind("ttng.", 0) == 0 || op.name.rfind("triton_nvidia_gpu.", 0) == 0) {
        if (kind == "warp_group_dot" || kind == "tc_gen5_mma" || kind == "tc_gen5_mma_scaled") {
          const bool wgmma = kind == "warp_group_dot";
          for (std::size_t i = 0; i < op.operand_types.size() && i < 2; ++i) {
            const Type& t = op.operand_types[i];
            if (t.kind != Type::Kind::MemDesc || !t.encoding) continue;
            if (t.memory_space && t.memory_space->kind == AttrNode::Kind::Alias) {
              auto it = m.aliases.find(t.memory_space->text);
              if (it != m.aliases.end() && it->second.find("tensor_memory") != std::string::npos) continue;
            }
            AuditAccess a = entry(op);
            a.direction = "load";
            a.instruction = wgmma ? "wgmma" : "tcgen05.mma";
            a.shared_layout = attribute_text(*t.encoding, m.aliases);
            a.note = fmt::format("operand {} read from shared memory by {}: no LSU bank model applies", i == 0 ? "A" : "B",
                                 wgmma ? "wgmma" : "tcgen05");
            report.accesses.push_back(std::move(a));
          }
          continue;
        }
        if (kind.find("barrier") != std::string::npos || kind == "arrive_barrier" || kind == "barrier_expect")
          not_modelled(op, fmt::format("{}: an mbarrier (8 bytes of shared memory), no tensor data", op.name));
        else if (kind.find("tma") != std::string::npos)
          not_modelled(op, fmt::format("{}: TMA moves whole boxes by the copy engine; no LSU bank model applies", op.name));
        else
          not_modelled(op, fmt::format("{} is not modelled", op.name));
        continue;
      }
      if (!is_modelled_op(op.name)) {
        not_modelled(op, fmt::format("{} is not modelled", op.name));
        continue;
      }
      if (kind == "local_alloc") {
        if (op.operands.empty()) continue;  // an allocation only
        if (op.operand_types.empty() || op.result_types.empty()) fail("local_alloc with a source needs its types");
        const Type& src = op.operand_types[0];
        const Type& dst = op.result_types[0];
        const int bits = dst.element_bits ? dst.element_bits : src.element_bits;
        const Distributed& d = au.distributed(src, bits);
        const Auditor::SharedView s =
            au.shared(dst, op.results.empty() ? "" : op.results[0], trailing(dst.shape, src.shape.size()), bits);
        lsu(op, AccessKind::Store, d, s, bits, "STS", 0, "");
        continue;
      }
      if (kind == "local_store") {
        if (op.operand_types.size() < 1 || op.result_types.empty() || op.operands.size() < 2)
          fail("local_store needs its operands and types");
        const Type& src = op.operand_types[0];
        const Type& dst = op.result_types[0];
        const int bits = dst.element_bits ? dst.element_bits : src.element_bits;
        lsu(op, AccessKind::Store, au.distributed(src, bits),
            au.shared(dst, op.operands[1], trailing(dst.shape, src.shape.size()), bits), bits, "STS", 0, "");
        continue;
      }
      if (kind == "local_load") {
        if (op.operand_types.empty() || op.result_types.empty() || op.operands.empty())
          fail("local_load needs its operand and types");
        const Type& src = op.operand_types[0];
        const Type& dst = op.result_types[0];
        const int bits = src.element_bits ? src.element_bits : dst.element_bits;
        const Distributed& d = au.distributed(dst, bits);
        bool ldmatrix = false;
        if (d.kind == "dot_op" && dst.encoding) {
          const AttrNode e = ttgir::resolve(*dst.encoding, m.aliases);
          if (const AttrNode* parent = e.field("parent")) {
            const AttrNode p = ttgir::resolve(*parent, m.aliases);
            ldmatrix = p.layout_kind() == "nvidia_mma" && bits == 16 && m.threads_per_warp == 32;
          }
        }
        lsu(op, AccessKind::Load, d, au.shared(src, op.operands[0], trailing(src.shape, dst.shape.size()), bits), bits,
            ldmatrix ? "LDSM" : "LDS", 0, ldmatrix ? "ldmatrix into an mma operand" : "");
        continue;
      }
      if (kind == "async_copy_global_to_local") {
        if (op.operand_types.empty() || op.result_types.empty() || op.operands.size() < 2)
          fail("async_copy_global_to_local needs its operands and types");
        const Type& src = op.operand_types[0];
        const Type& dst = op.result_types[0];
        const int bits = dst.element_bits;
        const Distributed& d = au.distributed(src, bits);
        const Auditor::SharedView s = au.shared(dst, op.operands[1], trailing(dst.shape, src.shape.size()), bits);
        // cp.async moves 4, 8 or 16 bytes per lane: the pointer contiguity caps it.
        int vec_bits = 0;
        // The profiler's shared-memory counters follow cp.async's global side, so these figures are the STS model's.
        std::string note = "cp.async (simulated as stores of this width)";
        if (const auto c = op.attributes.find("contiguity = "); c != std::string::npos) {
          const std::string digits = op.attributes.substr(c + 13, op.attributes.find_first_not_of("0123456789", c + 13) - c - 13);
          if (digits.empty() || digits.size() > 6) fail("contiguity is not a number");
          const int contiguity = std::stoi(digits);
          vec_bits = std::clamp(contiguity * bits, 32, 128);
          const VectorChoice widest = choose_vector(Access{d.layout, AccessKind::Store, 0, 0}, s.layout->layout, bits, au.bank);
          if (vec_bits > widest.bits) vec_bits = 0;
          note = fmt::format("cp.async (simulated as stores of this width), pointer contiguity {}", contiguity);
        }
        lsu(op, AccessKind::Store, d, s, bits, "LDGSTS", vec_bits, note);
        continue;
      }
      if (kind == "convert_layout") {
        if (op.operand_types.empty() || op.result_types.empty()) fail("convert_layout needs its types");
        const Type& src = op.operand_types[0];
        const Type& dst = op.result_types[0];
        const int bits = src.element_bits ? src.element_bits : 32;
        const Distributed& from = au.distributed(src, bits);
        const Distributed& to = au.distributed(dst, bits);
        AuditAccess a = entry(op);
        a.distributed_layout = from.text + " -> " + to.text;
        // Which data leaves a warp? Same per-warp element sets (lanes and registers) -> no shared memory.
        const LinearLayout& S = from.layout;
        const LinearLayout& D = to.layout;
        std::vector<BitVec> s_rl = S.bases("register"), d_rl = D.bases("register");
        const Subspace s_r = Subspace::span(s_rl, S.out_bits()), d_r = Subspace::span(d_rl, D.out_bits());
        for (BitVec b : S.bases("lane")) s_rl.push_back(b);
        for (BitVec b : D.bases("lane")) d_rl.push_back(b);
        const Subspace s_w = Subspace::span(s_rl, S.out_bits()), d_w = Subspace::span(d_rl, D.out_bits());
        bool in_warp = s_w == d_w && S.bases("warp").size() == D.bases("warp").size();
        for (std::size_t i = 0; in_warp && i < S.bases("warp").size(); ++i)
          in_warp = s_w.contains(S.bases("warp")[i] ^ D.bases("warp")[i]);
        bool in_thread = in_warp && s_r == d_r && S.bases("lane").size() == D.bases("lane").size();
        for (std::size_t i = 0; in_thread && i < S.bases("lane").size(); ++i)
          in_thread = s_r.contains(S.bases("lane")[i] ^ D.bases("lane")[i]);
        if (in_warp) {
          a.instruction = in_thread ? "registers" : "shuffle";
          const std::int64_t regs = std::int64_t{1} << S.bases("register").size();
          a.instructions = in_thread ? 0 : regs * ((bits + 31) / 32) * (std::int64_t{1} << S.bases("warp").size());
          a.note = in_thread ? "every thread keeps its elements: a register permutation"
                             : "data stays in its warp: warp shuffles (one SHFL per 32-bit register, an upper bound)";
          report.accesses.push_back(std::move(a));
          continue;
        }
        a.writer = S;
        a.reader = D;
        a.element_bits = bits;
        // The conversion's two accesses on its line: the writer's stores, then the reader's loads.
        auto side = [&](const char* direction, const std::string& layout_text, const std::string& scratch,
                        const std::string& note, auto&& fill_side) {
          AuditAccess x = a;
          x.direction = direction;
          fill_side(x);
          x.shared_layout = scratch;
          x.distributed_layout = layout_text;
          x.note = note;
          report.accesses.push_back(std::move(x));
        };
        std::optional<TritonConversion> triton;
        std::string refused;
        try {
          triton = triton_convert_layout(S, D, bits, au.bank, triton_target(m.target));
        } catch (const Error& e) {
          refused = e.what();
        }
        if (triton) {
          // Triton 3.6's own scratch layout and instructions (triton_convert.h).
          const std::string scratch = ttgir::shared_linear_attribute(triton->scratch);
          a.shared_offsets = offsets_only(triton->scratch);
          std::string note = "through shared memory; Triton 3.6's scratch layout";
          if (triton->rounds > 1) note += fmt::format(", in {} rounds through a buffer of one", triton->rounds);
          if (m.target.rfind("hip", 0) == 0) note += "; AMD target: LDS modelled with the NVIDIA bank rules";
          for (const bool store : {true, false}) {
            const TritonSide& t = store ? triton->store : triton->load;
            side(store ? "store" : "load", store ? from.text : to.text, scratch, note, [&](AuditAccess& x) {
              x.instructions = t.instructions;
              x.wavefronts = t.mean();
              x.ideal_wavefronts = t.ideal;
              x.worst_wavefronts = t.worst;
              x.conflicts =
                  t.instructions ? static_cast<double>(t.wavefronts - t.ideal_total) / static_cast<double>(t.instructions) : 0.0;
              x.instruction = t.instruction;
            });
          }
          continue;
        }
        // Not a conversion Triton 3.6 lowers this way: the solver's conflict-free layout, with the
        // registers as the layouts number them, shows what the data movement costs at best.
        SolveOptions stand_in;
        stand_in.renumber_registers = false;
        stand_in.check = SolveOptions::Check::Full;
        const SolveResult t =
            solve(Access{S, AccessKind::Store, 0, 0}, Access{D, AccessKind::Load, 0, 0}, bits, au.bank, stand_in);
        const std::string scratch = ttgir::shared_linear_attribute(t.offset_bases);
        const std::string note =
            "through shared memory; scratch layout: the solver's (Triton 3.6's not modelled here: " + refused + ")";
        a.shared_offsets = offsets_only(t.offset_bases);
        side("store", from.text, scratch, note, [&](AuditAccess& x) {
          fill(x, t.write);
          x.instruction = sass("STS", t.write.vector.bits);
        });
        side("load", to.text, scratch, note, [&](AuditAccess& x) {
          fill(x, t.read);
          x.instruction = sass("LDS", t.read.vector.bits);
        });
        continue;
      }
    } catch (const Error& e) {
      not_modelled(op, e.what());
    } catch (const SolverBug& e) {
      not_modelled(op, e.what());
    } catch (const std::exception& e) {  // never let one odd op stop the audit of the rest
      not_modelled(op, fmt::format("internal: {}", e.what()));
    }
  }

  // [SECTION] Suggestions: the solver's layout for a buffer's writer and reader.
  // The first writer and reader of each allocation (views of the whole buffer only).
  std::map<std::string, std::pair<const Pending*, const Pending*>> sides;
  for (const Pending& q : pending) {
    if (!q.plain_view || q.root.empty()) continue;
    auto& [writer, reader] = sides[q.root];
    if (q.access.kind == AccessKind::Store && !writer) writer = &q;
    if (q.access.kind == AccessKind::Load && !reader) reader = &q;
  }
  // Each access's partner: the buffer's first reader for a store, its first writer for a load.
  for (const Pending& p : pending) {
    if (!p.plain_view) continue;
    const auto [writer, reader] = sides[p.root];
    AuditAccess& a = report.accesses[p.index];
    if (!a.reader && reader && reader->access.layout.shape() == p.access.layout.shape())
      a.reader = report.accesses[reader->index].reader;
    if (!a.writer && writer && writer->access.layout.shape() == p.access.layout.shape())
      a.writer = report.accesses[writer->index].writer;
  }
  std::map<std::string, std::optional<std::pair<std::string, double>>> solved;
  for (const Pending& p : pending) {
    AuditAccess& a = report.accesses[p.index];
    if (!a.wavefronts || !a.ideal_wavefronts || *a.wavefronts <= *a.ideal_wavefronts + 1e-9) continue;
    if (!p.plain_view) continue;
    auto [writer, reader] = sides[p.root];
    if (!writer || writer->access.layout.shape() != p.access.layout.shape()) writer = &p;
    if (!reader || reader->access.layout.shape() != p.access.layout.shape()) reader = &p;
    const std::string key =
        fmt::format("{}|{}|{}|{}", report.accesses[writer->index].distributed_layout,
                    report.accesses[reader->index].distributed_layout, a.distributed_layout, static_cast<int>(p.access.kind));
    auto it = solved.find(key);
    if (it == solved.end()) {
      std::optional<std::pair<std::string, double>> answer;
      try {
        Access w = writer->access, rd = reader->access;
        w.kind = AccessKind::Store;
        w.ldmatrix = 0;  // no writer in the module: the reader's own rows stand in for it
        rd.kind = AccessKind::Load;
        // The module's accesses keep their register numbering; the suggestion is simulated on the whole table.
        SolveOptions as_written;
        as_written.renumber_registers = false;
        as_written.check = SolveOptions::Check::Full;
        const SolveResult r = solve(w, rd, p.element_bits, au.bank, as_written);
        const AccessResult mine = simulate(p.access, r.shared, p.element_bits, au.bank);
        // Compared in total: under the new layout the access may move wider vectors in fewer instructions.
        if (static_cast<double>(mine.total_wavefronts) + 1e-9 < *a.wavefronts * static_cast<double>(a.instructions)) {
          answer = {{ttgir::shared_linear_attribute(r.offset_bases), mine.mean_wavefronts}};
          // A Triton attribute people already write, when one does as well as the solver's layout.
          if (auto named = named_equivalent(w, rd, p.access, r.shared, p.element_bits, au.bank))
            answer = {{named->first, named->second}};
        }
      } catch (const Error&) {
      } catch (const SolverBug&) {
      }
      it = solved.emplace(key, answer).first;
    }
    if (it->second) {
      a.suggestion = it->second->first;
      a.suggestion_wavefronts = it->second->second;
    }
  }
  return report;
}

AuditReport audit_module(const std::string& text, const std::string& path) { return audit(ttgir::read_module(text, path)); }

// [SECTION] Output

nlohmann::json to_json(const AuditReport& report) {
  nlohmann::json list = nlohmann::json::array();
  auto opt = [](const auto& v) -> nlohmann::json { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  for (const auto& a : report.accesses) {
    nlohmann::json j;
    j["op"] = a.op;
    j["line"] = a.line;
    j["loc"] = a.loc.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.loc);
    j["direction"] = opt(a.direction);
    j["instruction"] = a.instruction;
    j["instructions"] = a.instructions;
    j["wavefronts"] = opt(a.wavefronts);
    j["ideal_wavefronts"] = opt(a.ideal_wavefronts);
    j["worst_wavefronts"] = opt(a.worst_wavefronts);
    j["conflicts"] = opt(a.conflicts);
    j["shared_layout"] = a.shared_layout.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.shared_layout);
    j["distributed_layout"] = a.distributed_layout.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.distributed_layout);
    j["suggestion"] = opt(a.suggestion);
    j["suggestion_wavefronts"] = opt(a.suggestion_wavefronts);
    j["note"] = a.note;
    list.push_back(std::move(j));
  }
  return {{"path", report.path}, {"lines", report.lines}, {"num_warps", report.num_warps}, {"accesses", list}};
}

std::string format_audit(const AuditReport& report) {
  std::string s = fmt::format("{}: {} lines, {} warps, {} shared-memory accesses\n", report.path, report.lines, report.num_warps,
                              report.accesses.size());
  s += fmt::format("{:>6}  {:<30} {:<6} {:<13} {:>6} {:>11} {:>5} {:>5}  {}\n", "line", "op", "dir", "instruction", "instrs",
                   "wavefronts", "ideal", "worst", "loc / note");
  auto num = [](const std::optional<double>& v) { return v ? fmt::format("{:.2f}", *v) : std::string("-"); };
  auto inum = [](const std::optional<int>& v) { return v ? fmt::format("{}", *v) : std::string("-"); };
  int conflicted = 0;
  for (const auto& a : report.accesses) {
    const bool bad = a.wavefronts && a.ideal_wavefronts && *a.wavefronts > *a.ideal_wavefronts + 1e-9;
    conflicted += bad;
    std::string tail = a.loc;
    if (!a.note.empty() && (a.instruction == "not modelled" || a.instruction == "wgmma" || a.instruction == "tcgen05.mma" ||
                            a.instruction == "shuffle" || a.instruction == "registers"))
      tail += (tail.empty() ? "" : "  ") + a.note;
    s += fmt::format("{:>6}  {:<30} {:<6} {:<13} {:>6} {:>11} {:>5} {:>5}  {}{}\n", a.line, a.op, a.direction.value_or("-"),
                     a.instruction, a.instructions, num(a.wavefronts), inum(a.ideal_wavefronts), inum(a.worst_wavefronts),
                     bad ? "CONFLICT  " : "", tail);
    if (a.suggestion) s += fmt::format("        suggestion ({} wavefronts): {}\n", num(a.suggestion_wavefronts), *a.suggestion);
  }
  s += fmt::format("{} of {} accesses have bank conflicts\n", conflicted, report.accesses.size());
  return s;
}

}  // namespace swz
