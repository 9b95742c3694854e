// transpose_codegen.cpp: the full-size transpose kernel for a problem's tile, its configurations
// and the layouts it is compared on (no CUDA needed here).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "gpu_internal.h"
#include "swz/error.h"
#include "swz/gpu.h"
#include "swz/layout/factories.h"

namespace swz::gpu {

using namespace detail;

// -- transpose ------------------------------------------------------------------

std::string transpose_unsupported_reason(const Problem& p) {
  if (p.shape.size() != 2) return fmt::format("the transpose needs a 2-D tile; this problem's is {}-D", p.shape.size());
  if (p.element_bits < 8) return "the transpose moves 8- to 64-bit elements";
  return "";
}

namespace {

// The access as `layout` (row-major or padded rows: contiguous along dim 1) can issue it: as given
// where it fits at least as wide, else plain LDS/STS of the same elements per lane (an ldmatrix /
// stmatrix side as the fragment it moves), the registers renumbered so those holding consecutive
// elements of a row come first, at the widest vector the layout allows.
Access plain_access_on(const Access& a, const SharedLayout& layout, int ebits, const BankModel& bank) {
  Access plain = a;
  if (a.ldmatrix) plain.layout = detail::matrix_fragment(a, ebits);
  plain.ldmatrix = 0;
  plain.trans = false;
  plain.vec_bits = 0;
  std::vector<BitVec> regs = plain.layout.bases("register");
  const int row_shift = layout.coords().out_offset(1);
  for (std::size_t i = 0; i < regs.size(); ++i) {
    const auto next =
        std::find(regs.begin() + static_cast<std::ptrdiff_t>(i), regs.end(), BitVec{1} << (row_shift + static_cast<int>(i)));
    if (next == regs.end()) break;
    std::rotate(regs.begin() + static_cast<std::ptrdiff_t>(i), next, next + 1);
  }
  plain.layout = plain.layout.with_in_dim("register", regs);
  try {
    if (choose_vector(a, layout, ebits, bank).bits >= choose_vector(plain, layout, ebits, bank).bits) return a;
  } catch (const swz::Error&) {  // the answer's vectors or matrix rows do not fit this layout
  }
  return plain;
}

}  // namespace

std::vector<TransposeVariantPlan> plan_transpose_variants(const Problem& p, const TransposeSpec& spec) {
  if (const std::string why = transpose_unsupported_reason(p); !why.empty()) fail("{}", why);
  const int eb = p.element_bits;
  int widest_bits = 32;  // padding keeps the widest side's rows aligned
  for (const Access* x : {&p.store, &p.read})
    widest_bits = std::max(widest_bits, x->ldmatrix ? 128 : choose_vector(*x, p.shared, eb, p.bank).bits);
  std::vector<TransposeVariantPlan> plans{{"chosen", p, ""}};
  for (auto [name, layout] : {std::pair<const char*, SharedLayout>{"unswizzled", row_major(p.shape)},
                              std::pair<const char*, SharedLayout>{"padded", padded(p.shape, std::max(1, widest_bits / eb))}}) {
    Problem q = p;
    q.store = plain_access_on(p.store, layout, eb, p.bank);
    q.read = plain_access_on(p.read, layout, eb, p.bank);
    q.set_shared(layout);
    plans.push_back({name, std::move(q), ""});
  }
  for (TransposeVariantPlan& v : plans) {
    try {
      (void)generate_transpose_source(v.problem, v.problem.shared, spec);
    } catch (const swz::Error& e) {
      v.not_run = e.what();
    }
  }
  return plans;
}

namespace {

// A lane's registers grouped into global vectors along out dim `dim`: each group is 2^log2
// registers holding 2^log2 consecutive elements along `dim`, aligned, for every lane and warp
// (one vector global access). The registers of a group need not be consecutive: the shared side
// numbers them (the solver's renumbering, a matrix fragment), and any registers whose coordinates
// differ only in the low log2 bits of `dim` make one group.
struct GlobalRuns {
  int log2 = 0;
  std::vector<std::vector<int>> groups;  // register indices; element j of the vector is groups[g][j]
};
GlobalRuns global_runs(const AccessPlan& p, const LinearLayout& names, int dim, int ebits) {
  const int shift = names.out_offset(dim);
  const int max_k =
      std::min(ilog2(static_cast<std::uint64_t>(128 / ebits)), names.out_dims()[static_cast<std::size_t>(dim)].log2_size);
  std::map<BitVec, int> register_of;
  bool injective = true;
  for (int r = 0; r < p.registers; ++r)
    injective = register_of.emplace(p.register_coords[static_cast<std::size_t>(r)], r).second && injective;
  GlobalRuns g;
  for (int k = injective ? max_k : 0; k > 0 && g.log2 == 0; --k) {
    const BitVec low = low_bits(k) << shift;
    bool clean = true;
    for (BitVec v : p.lane_images) clean = clean && !(v & low);
    for (BitVec v : p.warp_images) clean = clean && !(v & low);
    for (int i = 0; i < k; ++i) clean = clean && register_of.count(BitVec{1} << (shift + i));
    if (clean) g.log2 = k;
  }
  const BitVec low = low_bits(g.log2) << shift;
  for (int r = 0; r < p.registers; ++r) {
    const BitVec c = p.register_coords[static_cast<std::size_t>(r)];
    if (c & low) continue;
    std::vector<int> group{r};
    for (BitVec j = 1; j < (BitVec{1} << g.log2); ++j) group.push_back(register_of.at(c ^ (j << shift)));
    g.groups.push_back(std::move(group));
  }
  return g;
}

const char* vector_type(int bits) {
  switch (bits) {
    case 8:
      return "unsigned char";
    case 16:
      return "unsigned short";
    case 32:
      return "unsigned";
    case 64:
      return "swz_v2";
    default:
      return "swz_v4";
  }
}

}  // namespace

GeneratedSource generate_transpose_source(const Problem& p, const SharedLayout& layout, const TransposeSpec& spec) {
  if (const std::string why = transpose_unsupported_reason(p); !why.empty()) fail("{}", why);
  Problem q = p;
  q.set_shared(layout);
  check_supported(q);
  const int eb = q.element_bits;
  const int batch = spec.batch, groups = spec.groups;
  if (!is_transpose_count(batch)) fail("transpose batch {} is not 1, 2, 4 or 8", batch);
  if (!is_transpose_count(groups)) fail("transpose groups {} is not 1, 2, 4 or 8", groups);
  const std::int64_t tm = q.shape[0], tn = q.shape[1];
  // A block's tiles: its warp groups stacked along m, each group's batch along m or along n.
  const int along_m = spec.batch_along_n ? 1 : batch, along_n = spec.batch_along_n ? batch : 1;
  const std::int64_t block_rows = tm * along_m * groups, block_cols = tn * along_n;
  if (spec.rows <= 0 || spec.cols <= 0 || spec.rows % block_rows || spec.cols % block_cols)
    fail("a {}x{} matrix is not a whole number of {}x{} blocks ({} tiles of {}x{})", spec.rows, spec.cols, block_rows, block_cols,
         batch * groups, tm, tn);
  const std::int64_t n_blocks = spec.cols / block_cols, m_blocks = spec.rows / block_rows;
  if ((spec.m_fastest ? n_blocks : m_blocks) > 65535 || (spec.m_fastest ? m_blocks : n_blocks) > 0x7fffffff)
    fail("too many tiles for one launch");
  const AccessPlan a = plan_access(q.store, q.shared, eb, q.bank);
  const AccessPlan b = plan_access(q.read, q.shared, eb, q.bank);
  if (std::max(a.registers, b.registers) * batch > 256)
    fail("{} elements per thread; the register-resident transpose takes at most 256", std::max(a.registers, b.registers) * batch);
  const OffsetFunction f = offset_function(q.shared);
  const LinearLayout& names = q.shared.coords();
  const int m_bits = names.out_dims()[0].log2_size;
  const std::string mmask = fmt::format("0x{:x}u", low_bits(m_bits));
  // Each tile of the batch has its own copy of the layout, 128-byte aligned: same banks.
  const std::uint64_t tile_bytes = (q.shared.extent() * static_cast<std::uint64_t>(eb) / 8 + 127) / 128 * 128;
  GeneratedSource g;
  g.plan.element_bits = eb;
  g.plan.threads = 32 * a.warps * groups;
  g.plan.shared_bytes = tile_bytes * static_cast<std::uint64_t>(batch * groups);
  g.plan.offset_form = offset_form_name(f.form);
  g.plan.store_instruction = a.instruction;
  g.plan.read_instruction = b.instruction;
  g.plan.blocks_m = m_blocks;
  g.plan.blocks_n = n_blocks;
  if (g.plan.threads > 1024) fail("{} groups of {} warps exceed 1024 threads per block", groups, a.warps);
  if (g.plan.shared_bytes > 227 * 1024)
    fail("{} tiles need {} bytes of shared memory; a block gets at most 227 KB", batch * groups, g.plan.shared_bytes);
  const std::string T = mem_type(eb), R = reg_type(eb);
  const GlobalRuns runs_a = global_runs(a, names, 1, eb), runs_b = global_runs(b, names, 0, eb);
  const int ga = runs_a.log2, gb = runs_b.log2;
  const int gabits = (1 << ga) * eb, gbbits = (1 << gb) * eb;
  // Global accesses: plain C++, or PTX with the evict-first hint.
  auto ptx_type = [](int bits) -> std::string {
    switch (bits) {
      case 8:
        return "u8";
      case 16:
        return "u16";
      case 32:
        return "b32";
      case 64:
        return "v2.b32";
      default:
        return "v4.b32";
    }
  };

  std::string s = kPrelude;
  s += fmt::format(
      "// transpose {}x{} through {}x{} tiles, {} per warp group along {}, {} groups{}{}{}  element bits: {}  writer: {}  "
      "reader: {}  offsets: {}\n",
      spec.rows, spec.cols, tm, tn, batch, spec.batch_along_n ? "n" : "m", groups, spec.streaming ? ", evict-first" : "",
      spec.persistent ? ", grid-stride" : "", spec.loads_first ? ", loads first" : "", eb, a.instruction, b.instruction,
      g.plan.offset_form);
  s += "struct __align__(8) swz_v2 { unsigned x, y; };\nstruct __align__(16) swz_v4 { unsigned x, y, z, w; };\n";
  s += Emitter::offset_decls(f, "swz_offsets");
  s += kernel_head(
      "swz_transpose", g.plan.threads,
      fmt::format("const {0}* __restrict__ in, {0}* __restrict__ out, unsigned long long rows, unsigned long long cols", T));
  // Warp groups: each runs the problem's warps on its own tiles (swz_warp is the warp inside the group).
  s += fmt::format("  const unsigned swz_group = threadIdx.x >> {};\n", 5 + ilog2(static_cast<std::uint64_t>(a.warps)));
  s += fmt::format("  const unsigned swz_warp_in_group = swz_warp & {}u;\n  (void)swz_group; (void)swz_warp_in_group;\n",
                   a.warps - 1);
  auto in_group = [](std::string code) {
    for (std::size_t at = code.find("swz_warp >>"); at != std::string::npos; at = code.find("swz_warp >>", at))
      code.replace(at, 8, "swz_warp_in_group");
    return code;
  };
  s += in_group(Emitter::lane_coords(f, a, "a_coord", "a_off"));
  s += in_group(Emitter::lane_coords(f, b, "b_coord", "b_off"));
  // Which block of tiles: the launch grid's, or (grid-stride) every gridDim.x-th of them in turn.
  const std::int64_t total_blocks = n_blocks * m_blocks;
  // Element indices in 32 bits where every index of the matrix fits (8192^2 does): half the integer
  // work of 64-bit indices for each load and store address.
  const std::string index = spec.rows * spec.cols <= 0xffffffffLL ? "unsigned" : "unsigned long long";
  s += fmt::format("  const {0} swz_rows = ({0})rows, swz_cols = ({0})cols;\n  (void)swz_rows; (void)swz_cols;\n", index);
  auto block_coords = [&] {
    std::string c;
    std::string bn = spec.m_fastest ? "blockIdx.y" : "blockIdx.x", bm = spec.m_fastest ? "blockIdx.x" : "blockIdx.y";
    if (spec.persistent) {
      const std::int64_t fast = spec.m_fastest ? m_blocks : n_blocks;
      c += fmt::format("  const {1} swz_bfast = ({1})(swz_blk % {0}ull), swz_bslow = ({1})(swz_blk / {0}ull);\n", fast, index);
      bn = spec.m_fastest ? "swz_bslow" : "swz_bfast";
      bm = spec.m_fastest ? "swz_bfast" : "swz_bslow";
    }
    // Tile t of the group's batch: its first row m0_t and column n0_t.
    for (int t = 0; t < batch; ++t) {
      const int tn_t = spec.batch_along_n ? t : 0, tm_t = spec.batch_along_n ? 0 : t;
      c += fmt::format("  const {5} n0_{0} = (({5}){1} * {2}u + {3}u) * {4}u;\n", t, bn, along_n, tn_t, tn, index);
      c += fmt::format("  const {6} m0_{0} = ((({6}){1} * {2}u + swz_group) * {3}u + {4}u) * {5}u;\n", t, bm, groups, along_m,
                       tm_t, tm, index);
    }
    return c;
  };
  const char* comp[] = {"x", "y", "z", "w"};
  // 1. global loads along n (dim1), every tile of the batch
  auto global_loads = [&] {
    std::string code;
    for (int t = 0; t < batch; ++t) {
      for (const std::vector<int>& group : runs_a.groups) {
        const BitVec c = a.register_coords[static_cast<std::size_t>(group[0])];
        code += fmt::format("  {{\n    const unsigned c = a_coord ^ 0x{:x}u;\n", c);
        code +=
            fmt::format("    const {0}* p = in + (m0_{1} + (c & {2})) * swz_cols + n0_{1} + (c >> {3});\n", T, t, mmask, m_bits);
        const int words = gabits <= 32 ? 1 : gabits / 32;
        if (spec.streaming) {
          std::string outs, list;
          for (int w = 0; w < words; ++w) {
            outs += fmt::format("{}\"={}\"(w{})", w ? ", " : "", gabits < 32 ? "h" : "r", w);
            list += fmt::format("{}%{}", w ? ", " : "", w);
          }
          if (gabits < 32) {
            code += fmt::format("    unsigned short w0;\n    asm volatile(\"ld.global.cs.{} %0, [%1];\" : {} : \"l\"(p));\n",
                                ptx_type(gabits), outs);
          } else {
            std::string decl;
            for (int w = 0; w < words; ++w) decl += fmt::format("{}w{}", w ? ", " : "", w);
            code += fmt::format("    unsigned {};\n    asm volatile(\"ld.global.cs.{} {}, [%{}];\" : {} : \"l\"(p));\n", decl,
                                ptx_type(gabits), words == 1 ? std::string("%0") : "{" + list + "}", words, outs);
          }
        } else {
          code += fmt::format("    const {0} v = *reinterpret_cast<const {0}*>(p);\n", vector_type(gabits));
          for (int w = 0; w < words; ++w) {
            const std::string word = words == 1 ? (gabits < 32 ? "(unsigned)v" : "v") : fmt::format("v.{}", comp[w]);
            code += fmt::format("    const unsigned w{} = {};\n", w, word);
          }
        }
        for (int j = 0; j < (1 << ga); ++j)
          code += fmt::format("    a{}_{} = {};\n", t, group[static_cast<std::size_t>(j)], unpack_elem(eb, "w", j));
        code += "  }\n";
      }
    }
    return code;
  };
  for (int t = 0; t < batch; ++t)
    for (int r = 0; r < a.registers; ++r) s += fmt::format("  {} a{}_{};\n", R, t, r);
  if (spec.persistent)
    s += fmt::format("  for (unsigned long long swz_blk = blockIdx.x; swz_blk < {}ull; swz_blk += gridDim.x) {{\n", total_blocks);
  s += block_coords() + global_loads();
  // ptxas, left alone, interleaves the loads with the shared stores to save registers, so only a few
  // 16-byte loads per thread are in flight; a CTA fence keeps every load of the block ahead of them.
  if (spec.loads_first) s += "  __threadfence_block();\n";
  // 2. shared stores (the writer), barrier, 3. shared loads (the reader)
  for (int t = 0; t < batch; ++t) {
    const std::string base = fmt::format("(swz_sbase + swz_group * {}u + {}u)", tile_bytes * static_cast<std::uint64_t>(batch),
                                         tile_bytes * static_cast<std::uint64_t>(t));
    s += Emitter::shared_stores(
        a, f, eb, "a_coord_addr", "a_off", [&](int r) { return fmt::format("a{}_{}", t, r); }, false, base);
  }
  // A group's tiles are its own: with several groups per block each waits only for its own warps
  // (named barrier 1 + group, 32 x warps threads), so one group's loads in flight never hold up another's stores.
  const std::string barrier =
      groups == 1 ? std::string("__syncthreads();")
                  : fmt::format("asm volatile(\"bar.sync %0, {};\" :: \"r\"(swz_group + 1u) : \"memory\");", 32 * a.warps);
  s += "  " + barrier + "\n";
  for (int t = 0; t < batch; ++t) {
    const std::string base = fmt::format("(swz_sbase + swz_group * {}u + {}u)", tile_bytes * static_cast<std::uint64_t>(batch),
                                         tile_bytes * static_cast<std::uint64_t>(t));
    for (int r = 0; r < b.registers; ++r) s += fmt::format("  {} b{}_{};\n", R, t, r);
    s += Emitter::shared_loads(
        b, f, eb, "b_coord_addr", "b_off", [&](int r, const std::string& v) { return fmt::format("b{}_{} = {};", t, r, v); },
        false, base);
  }
  // 4. global stores along m (dim0) of out[n][m]
  for (int t = 0; t < batch; ++t) {
    for (const std::vector<int>& group : runs_b.groups) {
      const BitVec c = b.register_coords[static_cast<std::size_t>(group[0])];
      std::vector<std::string> elems;
      for (int r : group) elems.push_back(fmt::format("b{}_{}", t, r));
      s += fmt::format("  {{\n    const unsigned c = b_coord ^ 0x{:x}u;\n", c);
      s += fmt::format("    {0}* p = out + (n0_{2} + (c >> {1})) * swz_rows + m0_{2} + (c & {3});\n", T, m_bits, t, mmask);
      const int words = gbbits <= 32 ? 1 : gbbits / 32;
      std::vector<std::string> packed;
      for (int w = 0; w < words; ++w) packed.push_back(gbbits <= 32 && gbbits == eb ? elems[0] : pack_word(eb, elems, w));
      if (spec.streaming) {
        std::string ins, list;
        for (int w = 0; w < words; ++w) {
          ins += fmt::format(", \"{}\"(({})({}))", gbbits < 32 ? "h" : "r", gbbits < 32 ? "unsigned short" : "unsigned",
                             packed[static_cast<std::size_t>(w)]);
          list += fmt::format("{}%{}", w ? ", " : "", w + 1);
        }
        s += fmt::format("    asm volatile(\"st.global.cs.{} [%0], {};\" :: \"l\"(p){} : \"memory\");\n", ptx_type(gbbits),
                         words == 1 ? std::string("%1") : "{" + list + "}", ins);
      } else if (gbbits <= 32) {
        s += fmt::format("    *reinterpret_cast<{0}*>(p) = ({0}){1};\n", vector_type(gbbits), packed[0]);
      } else {
        std::string init;
        for (int w = 0; w < words; ++w) init += fmt::format("{}{}", w ? ", " : "", packed[static_cast<std::size_t>(w)]);
        s += fmt::format("    *reinterpret_cast<{0}*>(p) = {0}{{{1}}};\n", vector_type(gbbits), init);
      }
      s += "  }\n";
    }
  }
  if (spec.persistent) s += "  " + barrier + "  // the next block of tiles reuses shared memory\n  }\n";
  s += "}\n";
  g.source = std::move(s);
  return g;
}

std::vector<TransposeSpec> transpose_tuning_candidates(std::int64_t size, RunOptions::BlockOrder block_order) {
  std::vector<TransposeSpec> specs;
  for (bool persistent : {false, true})
    for (bool loads_first : {false, true})
      for (int groups : kTransposeCounts)
        for (int batch : kTransposeCounts)
          for (bool along_n : {false, true})
            for (bool m_fastest : {false, true}) {
              if (block_order != RunOptions::BlockOrder::Tuned && m_fastest != (block_order == RunOptions::BlockOrder::AlongM))
                continue;
              if (along_n && batch == 1) continue;  // one tile lies along neither
              TransposeSpec spec{size, size, batch, false, m_fastest, groups};
              spec.batch_along_n = along_n;
              spec.persistent = persistent;
              spec.loads_first = loads_first;
              specs.push_back(spec);
            }
  return specs;
}

}  // namespace swz::gpu
