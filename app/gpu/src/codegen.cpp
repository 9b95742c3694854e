// codegen.cpp: CUDA source for a problem's exact layout, the one-tile probe kernels (no CUDA needed here).
//
// Every number in the generated text is an integer computed below from the
// core's layouts; no user string reaches it (the problem name appears only as a
// comment, filtered to [A-Za-z0-9_.-]).
//
// Per lane, an access layout (register, lane, warp -> coordinate) is linear, so
//   coord(r, lane, warp) = L(lane) ^ L(warp) ^ L(r)
// with L(lane) and L(warp) XORs of basis constants picked by the lane's bits,
// and L(r) a compile-time constant per register. The shared offset of that
// coordinate is emitted in one of three forms:
//   linear  offset(c) = XOR of offset(e_i) over the set bits of c (Triton's
//           shared linear layouts, the toggle grid, CuTe / TMA swizzles on
//           aligned buffers): per lane one XOR chain, per register one XOR
//   affine  offset = o0 + sum_d stride_d * c_d (padded rows)
//   table   offsets[c] from a read-only global array (anything else)
#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "gpu_internal.h"
#include "swz/error.h"
#include "swz/gpu.h"
#include "swz/layout/factories.h"
#include "swz/solve/solver.h"

namespace swz::gpu {

namespace detail {

int ilog2(std::uint64_t v) { return std::countr_zero(v); }

namespace {

std::string hex(std::uint64_t v) { return fmt::format("0x{:x}u", v); }

}  // namespace

const char* reg_type(int ebits) { return ebits == 64 ? "unsigned long long" : "unsigned"; }
const char* mem_type(int ebits) {
  switch (ebits) {
    case 8: return "unsigned char";
    case 16: return "unsigned short";
    case 32: return "unsigned";
    default: return "unsigned long long";
  }
}

namespace {

std::string safe_comment(const std::string& s) {
  std::string out;
  for (char c : s)
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.') out += c;
  return out.substr(0, 80);
}

}  // namespace

OffsetFunction offset_function(const SharedLayout& s) {
  OffsetFunction f;
  const int bits = s.coord_bits();
  f.coord_bits = bits;
  if (auto lin = fit_linear(s.offsets(), bits)) {
    f.form = OffsetForm::Linear;
    f.linear_images.assign(lin->begin(), lin->end());
    return f;
  }
  // Affine: offset = o0 + sum_d stride_d * c_d.
  const LinearLayout& names = s.coords();
  const int rank = names.rank();
  std::vector<std::int64_t> strides(static_cast<std::size_t>(rank), 0);
  const std::int64_t o0 = s.offset(0);
  for (int d = 0; d < rank; ++d) {
    if (names.out_dims()[static_cast<std::size_t>(d)].log2_size == 0) continue;
    strides[static_cast<std::size_t>(d)] = static_cast<std::int64_t>(s.offset(BitVec{1} << names.out_offset(d))) - o0;
  }
  bool affine = true;
  for (BitVec c = 0; c < (BitVec{1} << bits) && affine; ++c) {
    std::int64_t o = o0;
    for (int d = 0; d < rank; ++d) {
      const int w = names.out_dims()[static_cast<std::size_t>(d)].log2_size;
      o += strides[static_cast<std::size_t>(d)] * static_cast<std::int64_t>((c >> names.out_offset(d)) & low_bits(w));
    }
    affine = o == static_cast<std::int64_t>(s.offset(c));
  }
  if (affine) {
    f.form = OffsetForm::Affine;
    f.affine_base = o0;
    f.affine_strides = strides;
    for (int d = 0; d < rank; ++d) {
      f.dim_shift.push_back(names.out_offset(d));
      f.dim_bits.push_back(names.out_dims()[static_cast<std::size_t>(d)].log2_size);
    }
    return f;
  }
  if (bits > 16) fail("the shared layout is neither linear nor affine and has 2^{} elements; the GPU backend tables at most 2^16", bits);
  f.form = OffsetForm::Table;
  f.table = s.offsets();
  return f;
}

std::string offset_form_name(OffsetForm f) {
  switch (f) {
    case OffsetForm::Linear: return "linear (XOR)";
    case OffsetForm::Affine: return "affine";
    default: return "table";
  }
}

LinearLayout matrix_fragment(const Access& a, int ebits) {
  if (!a.ldmatrix) fail("matrix_fragment: not an ldmatrix / stmatrix access");
  if (ebits < 8 || ebits > 32 || (a.trans && ebits != 16))
    fail("{}{} moves {} elements; this problem has {}-bit elements", a.kind == AccessKind::Store ? "stmatrix" : "ldmatrix",
         a.trans ? ".trans" : "", a.trans ? "16-bit" : "8- to 32-bit", ebits);
  const int row_bits = ilog2(static_cast<std::uint64_t>(128 / ebits));  // elements of one 16-byte row
  const int word_bits = ilog2(static_cast<std::uint64_t>(32 / ebits));
  const int matrix_bits = ilog2(static_cast<std::uint64_t>(a.ldmatrix));
  const auto& regs = a.layout.bases("register");
  const auto& lanes = a.layout.bases("lane");
  if (static_cast<int>(regs.size()) < row_bits || static_cast<int>(lanes.size()) < 3 + matrix_bits)
    fail("an ldmatrix / stmatrix .x{} access needs {} register bits (a 16-byte row) and {} lane bits (rows); this one has {} and {}",
         a.ldmatrix, row_bits, 3 + matrix_bits, regs.size(), lanes.size());
  // Rows lanes 8j..8j+7 address: lane bits 0-2 pick the row, bits 3.. the matrix j.
  std::vector<BitVec> out_regs, out_lanes;
  if (!a.trans) {
    out_regs.assign(regs.begin(), regs.begin() + word_bits);                        // inside a 32-bit word
    for (int j = 0; j < matrix_bits; ++j) out_regs.push_back(lanes[static_cast<std::size_t>(3 + j)]);  // word j = matrix j
    out_lanes = {regs[static_cast<std::size_t>(word_bits)], regs[static_cast<std::size_t>(word_bits + 1)], lanes[0], lanes[1], lanes[2]};
  } else {
    out_regs = {lanes[0]};  // the two rows of a column pair
    for (int j = 0; j < matrix_bits; ++j) out_regs.push_back(lanes[static_cast<std::size_t>(3 + j)]);
    out_lanes = {lanes[1], lanes[2], regs[0], regs[1], regs[2]};
  }
  out_regs.insert(out_regs.end(), regs.begin() + row_bits, regs.end());  // further instructions
  return a.layout.with_in_dim("register", out_regs).with_in_dim("lane", out_lanes);
}

AccessPlan plan_access(const Access& a, const SharedLayout& s, int ebits, const BankModel& m) {
  AccessPlan p;
  p.vector = choose_vector(a, s, ebits, m);  // also checks that matrix rows and requested vectors fit the layout
  p.matrices = a.ldmatrix;
  p.trans = a.trans;
  p.store = a.kind == AccessKind::Store;
  const LinearLayout data = a.ldmatrix ? matrix_fragment(a, ebits) : a.layout;
  p.reg_bits = data.in_dim_bits("register");
  p.lane_bits = data.in_dim_bits("lane");
  p.warp_bits = data.in_dim_bits("warp");
  const int address_reg_bits = a.layout.in_dim_bits("register");
  const int vec_log2 = ilog2(static_cast<std::uint64_t>(p.vector.elements));  // matrix: one 16-byte row
  p.steps = 1 << (address_reg_bits - vec_log2);
  p.warps = 1 << p.warp_bits;
  p.registers = 1 << p.reg_bits;
  p.per_step = p.registers / p.steps;
  for (int i = 0; i < p.lane_bits; ++i) p.lane_images.push_back(data.apply("lane", std::uint64_t{1} << i));
  for (int i = 0; i < p.warp_bits; ++i) p.warp_images.push_back(data.apply("warp", std::uint64_t{1} << i));
  for (int r = 0; r < p.registers; ++r) p.register_coords.push_back(data.apply("register", static_cast<std::uint64_t>(r)));
  for (int i = 0; i < a.layout.in_dim_bits("lane"); ++i) p.address_lane_images.push_back(a.layout.apply("lane", std::uint64_t{1} << i));
  for (int step = 0; step < p.steps; ++step)
    p.step_coords.push_back(a.layout.apply("register", static_cast<std::uint64_t>(step) << vec_log2));
  p.instruction = instruction_name(a, p.vector.bits);  // the core's name, as `solve` and `analyze` print it
  return p;
}

namespace {
void check_shared_bytes(std::uint64_t bytes) {
  if (bytes > 227 * 1024) fail("the shared layout needs {} bytes; a block gets at most 227 KB", bytes);
}
}  // namespace

void check_runnable(const Problem& p) {
  if (p.element_bits != 8 && p.element_bits != 16 && p.element_bits != 32 && p.element_bits != 64)
    fail("the GPU backend moves 8-, 16-, 32- or 64-bit elements; this problem has {}-bit elements", p.element_bits);
  if (p.bank.banks != 32 || p.bank.bank_bytes != 4 || p.bank.warp_size != 32)
    fail("the GPU has 32 banks of 4 bytes and 32-lane warps; this problem models {} banks and {}-lane warps", p.bank.banks,
         p.bank.warp_size);
  for (const Access* a : {&p.store, &p.read})
    if (a->ldmatrix) (void)matrix_fragment(*a, p.element_bits);  // element width and shape of ldmatrix / stmatrix
  const int ws = p.store.layout.in_dim_bits("warp"), wr = p.read.layout.in_dim_bits("warp");
  if (ws != wr) fail("the writer runs on {} warps and the reader on {}; one block needs the same warps", 1 << ws, 1 << wr);
  if ((32 << ws) > 1024) fail("{} warps exceed 1024 threads per block", 1 << ws);
  // Any shared layout of the tile holds each of its elements (the writer's out space) once at least.
  check_shared_bytes(static_cast<std::uint64_t>(p.store.layout.out_size()) * static_cast<std::uint64_t>(p.element_bits) / 8);
}

void check_supported(const Problem& p) {
  check_runnable(p);
  check_shared_bytes(p.shared.extent() * static_cast<std::uint64_t>(p.element_bits) / 8);
  if (p.shared.shape() != p.shape) fail("the shared layout's shape differs from the problem's");
}

// -- emitting ---------------------------------------------------------------

const char* const kPrelude = R"(// Generated by Swizzle Workbench. Every constant below comes from the layouts.
__device__ __forceinline__ unsigned swz_smem_address(const void* p) {
  unsigned a;
  asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
  return a;
}
)";

namespace {

// XOR of `images` picked by the bits of swz_lane, and of the warp images by swz_warp.
std::string emit_lane_coord(const std::string& var, const std::vector<BitVec>& lane_images, const std::vector<BitVec>& warp_images) {
  std::string s = fmt::format("  unsigned {} = 0u;\n", var);
  for (std::size_t i = 0; i < lane_images.size(); ++i)
    if (lane_images[i]) s += fmt::format("  {} ^= ((swz_lane >> {}) & 1u) * {};\n", var, i, hex(lane_images[i]));
  for (std::size_t i = 0; i < warp_images.size(); ++i)
    if (warp_images[i]) s += fmt::format("  {} ^= ((swz_warp >> {}) & 1u) * {};\n", var, i, hex(warp_images[i]));
  return s;
}

std::uint64_t linear_offset(const OffsetFunction& f, BitVec c) {
  std::uint64_t o = 0;
  for (int i = 0; i < f.coord_bits; ++i)
    if ((c >> i) & 1) o ^= f.linear_images[static_cast<std::size_t>(i)];
  return o;
}

}  // namespace

std::string Emitter::offset_decls(const OffsetFunction& f, const std::string& name) {
  if (f.form != OffsetForm::Table) return "";
  std::string s = fmt::format("__device__ const unsigned {}[{}] = {{", name, f.table.size());
  for (std::size_t i = 0; i < f.table.size(); ++i) s += fmt::format("{}{}{}", i ? "," : "", i % 16 == 0 ? "\n  " : "", f.table[i]);
  return s + "\n};\n";
}

std::string Emitter::lane_coords(const OffsetFunction& f, const AccessPlan& p, const std::string& var, const std::string& off) {
  std::string s = emit_lane_coord(var, p.lane_images, p.warp_images);
  if (p.matrices) s += emit_lane_coord(var + "_addr", p.address_lane_images, p.warp_images);
  else s += fmt::format("  const unsigned {0}_addr = {0};\n", var);
  s += fmt::format("  (void){}_addr;\n", var);
  if (f.form != OffsetForm::Linear) return s;
  // Lane-constant part of the offset: offset(address coordinate of instruction 0) without its step.
  s += fmt::format("  unsigned {} = 0u;\n", off);
  for (std::size_t i = 0; i < p.address_lane_images.size(); ++i) {
    const std::uint64_t o = linear_offset(f, p.address_lane_images[i]);
    if (o) s += fmt::format("  {} ^= ((swz_lane >> {}) & 1u) * {};\n", off, i, hex(o));
  }
  for (std::size_t i = 0; i < p.warp_images.size(); ++i) {
    const std::uint64_t o = linear_offset(f, p.warp_images[i]);
    if (o) s += fmt::format("  {} ^= ((swz_warp >> {}) & 1u) * {};\n", off, i, hex(o));
  }
  return s;
}

// Expression: element offset of the coordinate lane coordinate ^ constant `step_coord`.
std::string Emitter::offset_expr(const OffsetFunction& f, const std::string& lane_coord, const std::string& lane_off, BitVec step_coord,
                                 const std::string& table_name) {
  const std::string c = fmt::format("({} ^ {})", lane_coord, hex(step_coord));
  switch (f.form) {
    case OffsetForm::Linear: return fmt::format("({} ^ {})", lane_off, hex(linear_offset(f, step_coord)));
    case OffsetForm::Affine: {
      std::string e = fmt::format("({}", f.affine_base);
      for (std::size_t d = 0; d < f.affine_strides.size(); ++d) {
        if (f.dim_bits[d] == 0 || f.affine_strides[d] == 0) continue;
        e += fmt::format(" + {} * (({} >> {}) & {})", f.affine_strides[d], c, f.dim_shift[d], hex(low_bits(f.dim_bits[d])));
      }
      return e + ")";
    }
    default: return fmt::format("{}[{}]", table_name, c);
  }
}

namespace {

// PTX text for one instruction of an access: a shared store / load of `bits` (8..128), or
// stmatrix / ldmatrix .x{matrices} with one 32-bit word per matrix.
// `exact`: .volatile, so ptxas keeps one SASS instruction per access (it may otherwise merge
// neighbouring accesses into wider ones, which changes what the counters see).
struct VectorOp {
  int bits;
  bool exact;
  int matrices = 0;
  bool trans = false;
  int words() const { return matrices ? matrices : bits <= 32 ? 1 : bits / 32; }
  std::string space() const { return exact ? "volatile.shared" : "shared"; }
  std::string list(int first) const {
    std::string l;
    for (int w = 0; w < words(); ++w) l += fmt::format("{}%{}", w ? ", " : "", first + w);
    return words() > 1 || matrices ? "{" + l + "}" : l;
  }
  std::string matrix(const char* op) const {
    return fmt::format("{}.sync.aligned.m8n8.x{}{}.shared.b16", op, matrices, trans ? ".trans" : "");
  }
  std::string type() const {
    switch (bits) {
      case 8: return ".u8";
      case 16: return ".u16";
      case 32: return ".b32";
      case 64: return ".v2.b32";
      default: return ".v4.b32";
    }
  }
  std::string st() const {
    if (matrices) return matrix("stmatrix") + " [%0], " + list(1) + ";";
    return "st." + space() + type() + " [%0], " + list(1) + ";";
  }
  std::string ld() const {
    if (matrices) return matrix("ldmatrix") + " " + list(0) + ", [%" + std::to_string(words()) + "];";
    return "ld." + space() + type() + " " + list(0) + ", [%" + std::to_string(words()) + "];";
  }
};

}  // namespace

std::string pack_word(int ebits, const std::vector<std::string>& elems, int w) {
  if (ebits == 64) return fmt::format("(unsigned)({} >> {})", elems[static_cast<std::size_t>(w / 2)], (w % 2) * 32);
  const int per = 32 / ebits;
  std::string e;
  for (int i = 0; i < per; ++i) {
    const std::size_t k = static_cast<std::size_t>(w * per + i);
    if (k >= elems.size()) break;
    e += fmt::format("{}({} << {})", i ? " | " : "", elems[k], i * ebits);
  }
  return "(" + e + ")";
}

std::string unpack_elem(int ebits, const std::string& words_prefix, int k) {
  if (ebits == 64)
    return fmt::format("((unsigned long long){0}{1} | ((unsigned long long){0}{2} << 32))", words_prefix, 2 * k, 2 * k + 1);
  if (ebits == 32) return fmt::format("{}{}", words_prefix, k);
  const int per = 32 / ebits;
  return fmt::format("(({}{} >> {}) & {})", words_prefix, k / per, (k % per) * ebits, hex(low_bits(ebits)));
}

// Writer: for each instruction, its registers -> one shared store. `value(r)` gives register r's text.
std::string Emitter::shared_stores(const AccessPlan& p, const OffsetFunction& f, int ebits, const std::string& lane_coord,
                                   const std::string& lane_off, const std::function<std::string(int)>& value, bool exact,
                                   const std::string& base) {
  std::string s;
  const VectorOp op{p.vector.bits, exact, p.matrices, p.trans};
  for (int step = 0; step < p.steps; ++step) {
    const int r0 = step * p.per_step;
    std::vector<std::string> elems;
    for (int j = 0; j < p.per_step; ++j) elems.push_back(value(r0 + j));
    const std::string off = offset_expr(f, lane_coord, lane_off, p.step_coords[static_cast<std::size_t>(step)], "swz_offsets");
    s += fmt::format("  {{  // {} step {}\n    const unsigned a = {} + {} * {}u;\n", p.instruction, step, base, off, ebits / 8);
    std::string operands;
    if (!p.matrices && op.bits < 32) {
      operands = fmt::format(", \"h\"((unsigned short){})", pack_word(ebits, elems, 0));
    } else {
      for (int w = 0; w < op.words(); ++w) operands += fmt::format(", \"r\"({})", pack_word(ebits, elems, w));
    }
    s += fmt::format("    asm volatile(\"{}\" :: \"r\"(a){} : \"memory\");\n  }}\n", op.st(), operands);
  }
  return s;
}

// Reader: for each instruction one shared load into words, then `sink(r, elem_expr)` per register.
std::string Emitter::shared_loads(const AccessPlan& p, const OffsetFunction& f, int ebits, const std::string& lane_coord,
                                  const std::string& lane_off, const std::function<std::string(int, const std::string&)>& sink,
                                  bool exact, const std::string& base) {
  std::string s;
  const VectorOp op{p.vector.bits, exact, p.matrices, p.trans};
  for (int step = 0; step < p.steps; ++step) {
    const int r0 = step * p.per_step;
    const std::string off = offset_expr(f, lane_coord, lane_off, p.step_coords[static_cast<std::size_t>(step)], "swz_offsets");
    s += fmt::format("  {{  // {} step {}\n    const unsigned a = {} + {} * {}u;\n", p.instruction, step, base, off, ebits / 8);
    if (!p.matrices && op.bits < 32) {
      s += fmt::format("    unsigned short h;\n    asm volatile(\"{}\" : \"=h\"(h) : \"r\"(a) : \"memory\");\n    unsigned w0 = h;\n",
                       op.ld());
    } else {
      std::string outs, decl;
      for (int w = 0; w < op.words(); ++w) {
        decl += fmt::format("{}w{}", w ? ", " : "", w);
        outs += fmt::format("{}\"=r\"(w{})", w ? ", " : "", w);
      }
      s += fmt::format("    unsigned {};\n    asm volatile(\"{}\" : {} : \"r\"(a) : \"memory\");\n", decl, op.ld(), outs);
    }
    for (int j = 0; j < p.per_step; ++j) s += "    " + sink(r0 + j, unpack_elem(ebits, "w", j)) + "\n";
    s += "  }\n";
  }
  return s;
}

std::string kernel_head(const char* name, int threads, const std::string& params) {
  return fmt::format("extern \"C\" __global__ void __launch_bounds__({}) {}({}) {{\n"
                     "  extern __shared__ __align__(1024) unsigned char swz_smem[];\n"
                     "  const unsigned swz_sbase = swz_smem_address(swz_smem);\n"
                     "  const unsigned swz_lane = threadIdx.x & 31u, swz_warp = threadIdx.x >> 5;\n"
                     "  (void)swz_sbase; (void)swz_lane; (void)swz_warp;\n",
                     threads, name, params);
}

}  // namespace detail

using namespace detail;

GeneratedSource generate_probe_source(const Problem& p) {
  check_supported(p);
  const int eb = p.element_bits;
  const AccessPlan a = plan_access(p.store, p.shared, eb, p.bank);
  const AccessPlan b = plan_access(p.read, p.shared, eb, p.bank);
  const OffsetFunction f = offset_function(p.shared);
  GeneratedSource g;
  g.plan.element_bits = eb;
  g.plan.threads = 32 * a.warps;
  g.plan.shared_bytes = (p.shared.extent() * static_cast<std::uint64_t>(eb) / 8 + 15) / 16 * 16;
  g.plan.offset_form = offset_form_name(f.form);
  g.plan.store_instruction = a.instruction;
  g.plan.read_instruction = b.instruction;
  const std::string T = mem_type(eb), R = reg_type(eb);

  std::string s = kPrelude;
  s += fmt::format("// problem: {}  element bits: {}  writer: {} x{}  reader: {} x{}  offsets: {}\n", safe_comment(p.name), eb,
                   a.instruction, a.steps * a.warps, b.instruction, b.steps * b.warps, g.plan.offset_form);
  s += Emitter::offset_decls(f, "swz_offsets");

  auto writer = [&](const std::string& src) {
    std::string w = Emitter::lane_coords(f, a, "a_coord", "a_off");
    w += Emitter::shared_stores(a, f, eb, "a_coord_addr", "a_off", [&](int r) {
      return fmt::format("(({}){}[a_coord ^ 0x{:x}u])", R, src, a.register_coords[static_cast<std::size_t>(r)]);
    }, /*exact=*/true);
    return w;
  };
  auto reader = [&](const std::string& dst) {
    std::string r = Emitter::lane_coords(f, b, "b_coord", "b_off");
    r += Emitter::shared_loads(b, f, eb, "b_coord_addr", "b_off", [&](int reg, const std::string& v) {
      return fmt::format("{}[b_coord ^ 0x{:x}u] = ({})({});", dst, b.register_coords[static_cast<std::size_t>(reg)], T, v);
    }, /*exact=*/true);
    return r;
  };

  const std::uint64_t words = g.plan.shared_bytes / 4;
  s += kernel_head("swz_check", g.plan.threads, fmt::format("const {0}* __restrict__ src, {0}* __restrict__ dst, unsigned poison", T));
  s += fmt::format("  for (unsigned i = threadIdx.x; i < {}u; i += {}u) reinterpret_cast<unsigned*>(swz_smem)[i] = poison;\n", words,
                   g.plan.threads);
  s += "  __syncthreads();\n  {\n" + writer("src") + "  }\n  __syncthreads();\n  {\n" + reader("dst") + "  }\n}\n\n";
  s += kernel_head("swz_store", g.plan.threads, fmt::format("const {}* __restrict__ src", T)) + writer("src") + "}\n\n";
  s += kernel_head("swz_load", g.plan.threads, fmt::format("{}* __restrict__ dst", T)) + reader("dst") + "}\n";
  g.source = std::move(s);
  return g;
}

Problem solved_problem(const Problem& problem, std::optional<SolveOptions> options) {
  check_runnable(problem);  // before the solver's full check, which tables every element
  SolveOptions o = options.value_or(SolveOptions{});
  if (!options) o.check = SolveOptions::Check::Full;
  const SolveResult s = swz::solve(problem.store, problem.read, problem.element_bits, problem.bank, o);
  if (s.sampled) fail("the solver checked this answer by sample and has no table of its layout for the kernels");
  Problem p = problem;
  p.grid.reset();
  p.store = s.writer;
  p.read = s.reader;
  p.set_shared(s.shared);
  return p;
}

}  // namespace swz::gpu
