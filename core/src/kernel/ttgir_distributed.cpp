// ttgir_distributed.cpp: Triton's distributed layouts (blocked, slice, nvidia_mma, dot_op, amd_mfma, amd_wmma, linear) as linear
// layouts, built as Triton builds them.
#include "ttgir_named.h"

namespace swz::ttgir::detail {

Named blocked_layout(const AttrNode& a, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  const auto spt = list_field(a, "sizePerThread"), tpw = list_field(a, "threadsPerWarp"), wpc = list_field(a, "warpsPerCTA"),
             order = list_field(a, "order");
  check_rank(spt, rank, "sizePerThread", a);
  check_rank(tpw, rank, "threadsPerWarp", a);
  check_rank(wpc, rank, "warpsPerCTA", a);
  check_order(order, rank, a);
  for (std::size_t d = 0; d < rank; ++d) {
    log2_of(spt[d], "sizePerThread entry");
    log2_of(tpw[d], "threadsPerWarp entry");
    log2_of(wpc[d], "warpsPerCTA entry");
  }
  const Named cta = identity_nd("register", spt, order) * identity_nd("lane", tpw, order) * identity_nd("warp", wpc, order);
  return combine(cta, cga_layout(a, rank), shape);
}

// One mma tile: kWidth registers along the inner dim, 4 lanes along it, 8 lanes along the outer dim,
// then register repeats along outer and inner (Triton's nvidiaMmaTile).
Named nvidia_mma_tile(const std::vector<std::int64_t>& tile_shape, std::int64_t k_width, const std::vector<std::int64_t>& order,
                      const std::vector<std::int64_t>& rep_order) {
  Named cta = identity_nd("register", std::vector<std::int64_t>(rep_order.size(), 1), rep_order);
  const std::string inner = dim_name(static_cast<std::size_t>(order[0])), outer = dim_name(static_cast<std::size_t>(order[1]));
  const std::int64_t inner_size = tile_shape[static_cast<std::size_t>(order[0])],
                     outer_size = tile_shape[static_cast<std::size_t>(order[1])];
  if (outer_size % 8 != 0 || inner_size % (4 * k_width) != 0)
    fail("mma tile {}x{} does not fit kWidth {}", outer_size, inner_size, k_width);
  cta *= identity1d(k_width, "register", inner) * identity1d(4, "lane", inner) * identity1d(8, "lane", outer) *
         identity1d(outer_size / 8, "register", outer) * identity1d(inner_size / (k_width * 4), "register", inner);
  return cta;
}

struct NvidiaMma {
  int version = 2;
  std::vector<std::int64_t> warps, instr;
};

NvidiaMma nvidia_mma_params(const AttrNode& a, std::size_t rank) {
  NvidiaMma m;
  m.version = static_cast<int>(int_field(a, "versionMajor"));
  if (m.version != 2 && m.version != 3) fail("#ttg.nvidia_mma versionMajor {} is not modelled (2 and 3 are)", m.version);
  m.warps = list_field(a, "warpsPerCTA");
  check_rank(m.warps, rank, "warpsPerCTA", a);
  m.instr = list_field(a, "instrShape", std::vector<std::int64_t>{16, 8});
  if (m.version == 3 && m.instr.size() < 2) fail("#ttg.nvidia_mma v3 needs instrShape [16, N, K]");
  return m;
}

Named nvidia_mma_layout(const AttrNode& a, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  if (rank < 2) fail("#ttg.nvidia_mma needs a rank-2 (or batched) tensor");
  const NvidiaMma m = nvidia_mma_params(a, rank);
  std::vector<std::int64_t> tile(rank, 1);
  tile[rank - 2] = 16;
  tile[rank - 1] = m.version == 2 ? 8 : m.instr[1];
  const auto order = matrix_order(rank, true);
  Named cta = nvidia_mma_tile(tile, /*k_width=*/2, order, order);
  cta *= transpose_outs(identity_nd("warp", m.warps, matrix_order(rank, /*row_major=*/m.version != 3)), cta.outs);
  return combine(cta, cga_layout(a, rank), shape);
}

// Warps of a dot operand: the parent's warp grid, broadcast along K.
Named broadcast_warps(const std::vector<std::int64_t>& warps, const std::vector<std::int64_t>& warp_order, std::size_t k_dim) {
  Named n;
  for (auto d : warp_order) {
    const auto du = static_cast<std::size_t>(d);
    n *= du == k_dim ? zeros1d(warps[du], "warp", dim_name(du)) : identity1d(warps[du], "warp", dim_name(du));
  }
  return n;
}

Named nvidia_dot_layout(const AttrNode& dot, const AttrNode& parent, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  const NvidiaMma m = nvidia_mma_params(parent, rank);
  const int op = static_cast<int>(int_field(dot, "opIdx"));
  const std::int64_t k_width = int_field(dot, "kWidth", 2);
  log2_of(k_width, "kWidth");
  if (op != 0 && m.version == 3)
    fail("#ttg.dot_op opIdx 1 over an mma v3 parent is read from shared memory; not a register layout");
  std::vector<std::int64_t> tile(rank, 1);
  if (op == 0) {
    tile[rank - 2] = 16;
    tile[rank - 1] = k_width * 8;
  } else {
    tile[rank - 2] = k_width * 8;
    tile[rank - 1] = 8;
  }
  const auto order = dot_operand_order(op, rank, /*k_contig=*/true);
  Named cta = nvidia_mma_tile(tile, k_width, order, order);
  const std::size_t k_dim = op == 0 ? rank - 1 : rank - 2;
  cta *= transpose_outs(broadcast_warps(m.warps, matrix_order(rank, m.version != 3), k_dim), cta.outs);
  return combine(cta, cga_layout(parent, rank), shape);
}

struct Mfma {
  int version = 3;
  std::int64_t m = 32, n = 32;
  bool transposed = false;
  int element_bits = 32;
  std::vector<std::int64_t> warps, tiles_per_warp;
};

Mfma mfma_params(const AttrNode& a, std::size_t rank) {
  Mfma p;
  p.version = static_cast<int>(int_field(a, "version", 3));
  p.warps = list_field(a, "warpsPerCTA");
  check_rank(p.warps, rank, "warpsPerCTA", a);
  std::vector<std::int64_t> instr;
  if (a.field("instrShape")) {
    instr = list_field(a, "instrShape");
  } else {
    instr = {int_field(a, "MDim"), int_field(a, "NDim")};
  }
  if (instr.size() < 2) fail("#ttg.amd_mfma instrShape needs M and N");
  p.m = instr[0];
  p.n = instr[1];
  p.transposed = int_field(a, "isTransposed", 0) != 0;
  p.element_bits = static_cast<int>(int_field(a, "elementBitWidth", 32));
  p.tiles_per_warp = list_field(a, "tilesPerWarp", std::vector<std::int64_t>(rank, 1));
  check_rank(p.tiles_per_warp, rank, "tilesPerWarp", a);
  if (!((p.m == 32 && p.n == 32) || (p.m == 16 && p.n == 16) || (p.m == 64 && p.n == 4) || (p.m == 4 && p.n == 64)))
    fail("#ttg.amd_mfma instrShape {}x{} is not modelled", p.m, p.n);
  return p;
}

Named amd_mfma_layout(const AttrNode& a, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  if (rank < 2 || rank > 3) fail("#ttg.amd_mfma needs a rank-2 or rank-3 tensor");
  const Mfma p = mfma_params(a, rank);
  const bool batch = rank == 3;
  const std::size_t m_index = batch ? 1 : 0, n_index = m_index + 1;
  const std::string dim_m = dim_name(m_index), dim_n = dim_name(n_index);
  const int height = p.element_bits == 64 ? 1 : 4;
  constexpr int warp_size = 64;
  const std::int64_t tiles = (p.m * p.n) / (warp_size * height);
  Named tile;
  if (!p.transposed) {
    tile = identity1d(height, "register", dim_m) * (identity1d(p.n, "lane", dim_n) * identity1d(warp_size / p.n, "lane", dim_m));
    if (tiles > 0) tile *= identity1d(tiles, "register", dim_m);
  } else {
    tile = identity1d(height, "register", dim_n) * (identity1d(p.m, "lane", dim_m) * identity1d(warp_size / p.m, "lane", dim_n));
    if (tiles > 0) tile *= identity1d(tiles, "register", dim_n);
  }
  tile = transpose_outs(tile, {dim_n, dim_m});
  tile *= identity1d(p.tiles_per_warp[n_index], "register", dim_n);
  tile *= identity1d(p.warps[n_index], "warp", dim_n);
  const std::int64_t n_reps = shape[n_index] / (p.n * p.warps[n_index] * p.tiles_per_warp[n_index]);
  tile *= identity1d(std::max<std::int64_t>(n_reps, 1), "register", dim_n);
  tile *= identity1d(p.tiles_per_warp[m_index], "register", dim_m);
  tile *= identity1d(p.warps[m_index], "warp", dim_m);
  if (batch) {
    tile *= identity1d(1, "register", "dim0");
    tile *= identity1d(1, "lane", "dim0");
    tile *= identity1d(p.warps[0], "warp", "dim0");
  }
  return combine(tile, cga_layout(a, rank), shape);
}

Named mfma_dot_layout(const AttrNode& dot, const AttrNode& parent, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  const Mfma p = mfma_params(parent, rank);
  const int op = static_cast<int>(int_field(dot, "opIdx"));
  const std::int64_t k_width = int_field(dot, "kWidth");
  log2_of(k_width, "kWidth");
  const std::size_t k_dim = op == 0 ? rank - 1 : rank - 2;
  const std::int64_t k_size = shape[k_dim];
  const std::int64_t non_k_instr = op == 0 ? p.m : p.n;
  if (non_k_instr != 32 && non_k_instr != 16) fail("#ttg.dot_op over amd_mfma {}x{} is not modelled", p.m, p.n);
  // Bases as (k, non-k) pairs.
  std::vector<Basis> reg, lane;
  for (std::int64_t e = 1; e < k_width; e *= 2) reg.push_back({e, 0});
  for (std::int64_t l = 1; l < non_k_instr; l *= 2) lane.push_back({0, l});
  const std::int64_t k_lanes = 64 / non_k_instr;  // 2 for 32-wide, 4 for 16-wide
  for (std::int64_t l = 1; l < k_lanes; l *= 2) lane.push_back({k_width * l, 0});
  const std::int64_t k_tile = k_width * k_lanes;
  for (std::int64_t r = k_tile; r < k_size; r *= 2) reg.push_back({r, 0});
  // tilesPerWarp: each warp holds that many instruction tiles along the non-K dim (Triton 3.6,
  // LinearLayoutConversions.cpp, mfmaDotToLinearLayout(): identity1D(tilePerWarpNonK, kRegister, dimNonK)).
  const std::int64_t tiles_non_k = p.tiles_per_warp[op == 0 ? rank - 2 : rank - 1];
  log2_of(tiles_non_k, "tilesPerWarp entry");
  for (std::int64_t t = 1; t < tiles_non_k; t *= 2) reg.push_back({0, non_k_instr * t});
  const auto order = dot_operand_order(op, rank, /*k_contig=*/true);
  Named tile{{dim_name(static_cast<std::size_t>(order[0])), dim_name(static_cast<std::size_t>(order[1]))},
             {1, 1},
             {{"register", reg}, {"lane", lane}}};
  infer_sizes(tile);
  if (rank == 3) tile *= identity1d(1, "register", "dim0") * identity1d(1, "lane", "dim0");
  const auto outs = standard_outs(rank);
  const Named warps = broadcast_warps(p.warps, matrix_order(rank, true), k_dim);
  Named cta = transpose_outs(tile, outs) * transpose_outs(warps, outs);
  return combine(cta, cga_layout(parent, rank), shape);
}

Named amd_wmma_layout(const AttrNode& a, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  if (rank != 2) fail("#ttg.amd_wmma is modelled for rank-2 tensors");
  const int version = static_cast<int>(int_field(a, "version", 1));
  const bool transposed = int_field(a, "isTranspose", int_field(a, "isTransposed", 0)) != 0;
  const auto warps = list_field(a, "warpsPerCTA");
  check_rank(warps, rank, "warpsPerCTA", a);
  const auto tiles_per_warp = list_field(a, "tilesPerWarp", std::vector<std::int64_t>(rank, 1));
  const std::string dim_m = transposed ? "dim1" : "dim0", dim_n = transposed ? "dim0" : "dim1";
  Named tile;
  if (version == 1) {
    // 16 lanes along N; each holds every other row of M, lanes 16..31 the odd rows.
    tile = Named{
        {dim_m, dim_n}, {16, 16}, {{"register", {{2, 0}, {4, 0}, {8, 0}}}, {"lane", {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}}}}};
  } else if (version == 2 || version == 3) {
    tile = Named{
        {dim_m, dim_n}, {16, 16}, {{"register", {{1, 0}, {2, 0}, {4, 0}}}, {"lane", {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}}}}};
  } else {
    fail("#ttg.amd_wmma version {} is not modelled", version);
  }
  tile = transpose_outs(tile, {"dim1", "dim0"});
  Named cta;
  for (auto d : matrix_order(rank, true)) {
    cta *= identity1d(tiles_per_warp[static_cast<std::size_t>(d)], "register", dim_name(static_cast<std::size_t>(d)));
    cta *= identity1d(warps[static_cast<std::size_t>(d)], "warp", dim_name(static_cast<std::size_t>(d)));
  }
  cta = transpose_outs(cta, standard_outs(rank));
  return combine(tile * cta, cga_layout(a, rank), shape);
}

Named linear_layout(const AttrNode& a, const std::vector<std::int64_t>& shape) {
  Named n{standard_outs(shape.size()), shape, {}};
  for (const char* in : {"register", "lane", "warp", "block"}) {
    n.ins.emplace_back(in, std::vector<Basis>{});
    if (const AttrNode* f = a.field(in))
      for (const auto& b : f->items) {
        if (b.items.size() != shape.size())
          fail("#ttg.linear: a {} basis has {} coordinates for a rank-{} tensor", in, b.items.size(), shape.size());
        Basis v;
        for (const auto& x : b.items) v.push_back(x.integer);
        n.ins.back().second.push_back(v);
      }
  }
  return n;
}

Named slice_layout(const AttrNode& a, const std::vector<std::int64_t>& shape, const Aliases& aliases) {
  const auto dim = static_cast<std::size_t>(int_field(a, "dim"));
  const AttrNode* parent = a.field("parent");
  if (!parent) fail("#ttg.slice has no parent");
  if (dim > shape.size()) fail("#ttg.slice dim {} is out of range", dim);
  std::vector<std::int64_t> parent_shape = shape;
  parent_shape.insert(parent_shape.begin() + static_cast<std::ptrdiff_t>(dim), 1);
  const Named p = convert_distributed(resolve(*parent, aliases), parent_shape, aliases);
  Named r{standard_outs(shape.size()), shape, {}};
  for (const auto& [name, list] : p.ins) {
    r.ins.emplace_back(name, std::vector<Basis>{});
    for (const auto& b : list) {
      Basis v;
      for (std::size_t d = 0; d < b.size(); ++d)
        if (d != dim) v.push_back(b[d]);
      // Registers that no longer move anything are dropped, as Triton does.
      if (name == "register" && std::all_of(v.begin(), v.end(), [](std::int64_t x) { return x == 0; })) continue;
      r.ins.back().second.push_back(v);
    }
  }
  return r;
}

Named convert_distributed(const AttrNode& a, const std::vector<std::int64_t>& shape, const Aliases& aliases) {
  if (a.kind != AttrNode::Kind::Dialect) fail("expected a layout attribute");
  const std::string kind = a.layout_kind();
  for (auto s : shape) log2_of(s, "tensor dimension");
  if (kind == "blocked") return blocked_layout(a, shape);
  if (kind == "slice") return slice_layout(a, shape, aliases);
  if (kind == "nvidia_mma") return nvidia_mma_layout(a, shape);
  if (kind == "amd_mfma") return amd_mfma_layout(a, shape);
  if (kind == "amd_wmma") return amd_wmma_layout(a, shape);
  if (kind == "linear") return linear_layout(a, shape);
  if (kind == "dot_op") {
    const AttrNode* parent = a.field("parent");
    if (!parent) fail("#ttg.dot_op has no parent");
    const AttrNode p = resolve(*parent, aliases);
    const std::string pk = p.layout_kind();
    if (pk == "nvidia_mma") return nvidia_dot_layout(a, p, shape);
    if (pk == "amd_mfma") return mfma_dot_layout(a, p, shape);
    fail("#ttg.dot_op over #{} is not modelled", p.text);
  }
  fail("#{} is not modelled", a.text);
}

}  // namespace swz::ttgir::detail
