// audit_parts.h (private to core/src/kernel): the pieces the audit (audit.cpp) is
// built from: the layouts of tensor and memdesc types, memdesc views followed to
// their allocation, and the instruction names Triton 3.6 lowers accesses to.
#pragma once

#include <fmt/format.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "swz/error.h"
#include "swz/kernel/audit.h"
#include "swz/kernel/triton_convert.h"
#include "swz/kernel/ttgir.h"
#include "swz/kernel/ttgir_module.h"
#include "swz/sim/bank.h"

namespace swz::audit_parts {

using ttgir::AttrNode;
using ttgir::Module;
using ttgir::Op;
using ttgir::Type;

// [SECTION] Layouts

// The attribute as text, a top-level alias replaced by its definition.
std::string attribute_text(const AttrNode& node, const ttgir::Aliases& aliases);

std::string type_encoding_text(const Type& t, const ttgir::Aliases& aliases, const std::string& raw);

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

std::vector<std::int64_t> trailing(const std::vector<std::int64_t>& shape, std::size_t rank);

std::string sass(const char* prefix, int bits);

void fill(AuditAccess& a, const AccessResult& r);
// The same from Triton 3.6's lowering of the access (triton_convert.h), and the access as it issues
// it (`issued`: none for sub-byte `element_bits`, which travel as bytes, not this problem's addresses).
void fill(AuditAccess& a, const TritonSide& t, int element_bits);

bool is_modelled_op(const std::string& name);

// Ops that move no tensor data through shared memory.
bool is_no_data_op(const std::string& name);

// ldmatrix.x4 into a dot operand: each lane of the operand layout holds two 16-bit elements of a
// matrix row (register 0, lanes 0-1 span 8 contiguous elements), lanes 2-4 pick the row, registers
// 1-2 the matrix. The row addresses lanes hand to ldmatrix follow from that:
//   row vector [r0 t0 t1] (16 bytes), row lanes [t2 t3 t4], matrix lanes [r1 r2], then the rest.
// For .trans the two groups swap roles (the stored rows run along the other dim).
// Returns the address layout, or nullopt when the operand does not have that shape.
std::optional<std::pair<LinearLayout, bool>> ldmatrix_addresses(const LinearLayout& operand, const SharedLayout& shared);

// The first nvmma_shared or swizzled_shared attribute (simplest first) under which the writer, the
// reader and `access` all do as well as under `best`; with `access`'s mean wavefronts.
std::optional<std::pair<std::string, double>> named_equivalent(const Access& writer, const Access& reader, const Access& access,
                                                               const SharedLayout& best, int bits, const BankModel& bank);

LinearLayout offsets_only(const LinearLayout& l);

// Triton 3.6's tt.store masks off the lanes and warps that hold copies of other lanes' data, and a
// warp it masks off whole issues no plain load (LDS) whose value only that store reads: ptxas
// branches it around the load with the store (the H200's counters on the kept kernels of
// tests/data/triton/scratch/h200-20261128: colsum_128x64_f16_w8, the fp16 row sums, the
// histogram). ldmatrix, a whole-warp instruction, is issued by every warp (colsum_64x128_f32_w8).
// True when `value`'s one reader is a tt.store of it (its second operand).
bool only_stored(const Module& m, const std::string& value);
// A cp.async whose lanes or warps hold copies of others' elements (broadcast bases): how many issue
// it live (Access::duplicates_predicated_off), as a clause for its line; "" when every one does.
std::string predicated_off_note(const Access& a);
// Whether warp `w` of `layout` holds data that no other warp holds first: none of its id's bits
// is a broadcast (zero) warp basis. These are the warps whose store is not masked off.
bool stores_from_warp(const LinearLayout& layout, std::uint64_t w);

// [SECTION] Rules (audit_rules.cpp): which layouts a buffer's consumers accept; "" when legal.

struct Nvmma {
  int swizzle_bytes = 0;
  bool transposed = false;
  int element_bits = 0;
};
std::optional<Nvmma> nvmma_of(const std::string& attribute);  // nullopt: not an nvmma_shared attribute
// NVMMA's canonical swizzles over a tile of `shape` (its trailing two dims).
std::string nvmma_rule(const Nvmma& n, const std::vector<std::int64_t>& shape, int element_bits);
// wgmma operand `operand` (0 = A, 1 = B) of `element` type ("f16", "f32", "f8E4M3FN", "i8") in `attribute`.
std::string wgmma_operand_rule(const std::string& attribute, int operand, const std::string& element, int element_bits,
                               const std::vector<std::int64_t>& shape);
bool wgmma_transposable(const std::string& element);
// tcgen05.mma operand `operand` (0 = A, 1 = B) in `attribute`: its descriptor describes nvmma_shared
// layouts (as wgmma's does), and the descriptor mode must be one sm100.h's operand rule allows
// for the type and major (tf32 MN-major: only the 32-byte-atom form, which nvmma_shared lacks).
std::string tcgen05_operand_layout_rule(const std::string& attribute, int operand, const std::string& element,
                                        int element_bits, const std::vector<std::int64_t>& shape);
// One clause for the audit's line: the operand's type, major and descriptor mode, and for tf32 the
// majorness Triton cannot give it ("tf32, K-major: SWIZZLE_128B; MN-major would need ...").
std::string tcgen05_operand_note(const std::string& attribute, int operand, const std::string& element);
std::string tma_box_rule(std::int64_t inner_box_bytes, int swizzle_bytes);

// [SECTION] Accesses

// The dim a cp.async's pointer tensor is contiguous along in global memory: the order[0] of its
// layout (attribute text; the coalescing pass sets it from the pointers' contiguity); the last of
// `rank` dims otherwise.
int global_contiguous_dim(const std::string& layout_text, int rank);
// A cp.async's `contiguity = N` (elements the pointers are known contiguous for); 0 when absent.
int pointer_contiguity(const Op& op);

struct Pending {
  std::size_t index;  // into the report
  Access access;
  std::shared_ptr<const Shared> shared;
  std::string root;        // SSA name of the allocation it views
  bool plain_view = true;  // the allocation's own layout (no subslice / transpose)
  int element_bits;
  // What priced it, to price it again under another layout.
  LinearLayout registers;
  std::string instruction_prefix;  // "STS", "LDS", "LDSM", "LDGSTS"
  int vec_bits = 0;
  std::string registers_key;  // the register layout's text, for the simulation cache
  const Op* op = nullptr;
};

// One op whose operand or result is a view of a buffer, with the type printed there.
struct BufferUse {
  const Op* op = nullptr;
  int operand = -1;          // operand index, or -1 for a result
  const Type* type = nullptr;
  int occurrence = 0;        // among the op's types with the same text, in print order
  bool plain_view = true;
};

// [SECTION] AMD (audit_amd.cpp): the shared layouts Triton 3.6's AMD passes accept for a buffer.
// The candidates for a buffer of `tile` (its trailing two dims) now in `old_text`: swizzled_shared in
// its order, vec = kWidth when an MFMA operand is loaded from it.
std::vector<std::string> amd_shared_candidates(const std::vector<BufferUse>& users, const std::string& old_text,
                                               const std::vector<std::int64_t>& tile, int bits, const ttgir::Aliases& aliases);
// Why `op` (a user of the buffer) does not accept `candidate` on an AMD target; "" when it does.
std::string amd_layout_rule(const std::string& candidate, const std::string& old_text, const Op& op,
                            const ttgir::Aliases& aliases, const std::vector<std::int64_t>& tile);

// gfx950's transposing LDS read. Triton lowers a ttg.local_load with a transposing ds_read when
// the target has one for the width, the result is a #ttg.dot_op over #ttg.amd_mfma and the source a
// #ttg.swizzled_shared whose fastest dim is not the operand's K (third_party/amd/lib/
// TritonAMDGPUToLLVM/MemoryOpToLLVM.cpp, TransLocalLoadOpConversion::canUseTransLoad: 16- and 8-bit).
struct AmdTransposingRead {
  bool modelled = false;  // ds_read_b64_tr_b16: priced as it is issued
  std::string note;       // why it applies, or that Triton issues a form not modelled (ds_read_b64_tr_b8)
};
AmdTransposingRead amd_transposing_read(const Op& op, const ttgir::Aliases& aliases, const BankModel& bank, int bits);
// The addresses a transposing read's lanes give: Triton's chooseLLDsReadB64TrLayout
// (lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp) rotates the operand layout's first
// log2(64 / bits) register bases and first 4 lane bases (a group of 16 lanes): the lanes' first
// lane bases become its registers, so each lane reads 64 contiguous bits along the non-K dim:
//   registers r0 r1 | lanes l0 l1 l2 l3  ->  registers l0 l1 | lanes l2 l3 r0 r1
LinearLayout ds_read_tr_addresses(const LinearLayout& operand, int bits);

// Why a copy from global memory straight into LDS on an AMD target (ttg.async_copy_global_to_local,
// amdg.buffer_load_to_local) is listed and not priced.
std::string amd_copy_to_lds_note(const std::string& op_name);

// Prices an LSU access under a shared layout, as the audit does (audit.cpp): fills the access's
// instruction and wavefronts; returns the access simulated and whether ldmatrix fell back.
using Pricer = std::function<std::pair<Access, bool>(AuditAccess&, AccessKind, const LinearLayout& registers,
                                                     const std::string& registers_key, const SharedLayout&,
                                                     const std::string& shared_key, int bits, const std::string& prefix,
                                                     int vec_bits)>;

// [SECTION] Suggestions (audit_suggest.cpp)

// Allocation SSA name -> every op that prints one of its views' types.
std::map<std::string, std::vector<BufferUse>> uses_of_buffers(const Module& m, const Auditor& au);

// For each buffer with a conflicted access: the legal layout that lowers the buffer's total
// wavefronts most, with its patch; or, for its conflicted accesses, why there is none.
void suggest(AuditReport& report, const Module& m, const Auditor& au, const std::vector<Pending>& pending,
             const std::map<std::string, std::vector<BufferUse>>& uses, const Pricer& price);

// [SECTION] The copy's register layout (audit_copy.cpp)

// For each conflicted cp.async: the register layout of the copied tensor that costs least without
// reading more global sectors per request; it replaces the buffer's shared-layout suggestion when
// it does better, else the access says why there is none.
void suggest_copy_layouts(AuditReport& report, const Module& m, const Auditor& au, const std::vector<Pending>& pending,
                          const Pricer& price);

}  // namespace swz::audit_parts
