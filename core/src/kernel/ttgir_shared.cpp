// ttgir_shared.cpp: Triton's shared layouts (swizzled_shared, amd_rotating_shared, nvmma_shared, padded_shared, shared_linear) as
// linear layouts with their padding.
#include "ttgir_named.h"

namespace swz::ttgir::detail {

// #ttg.swizzled_shared: row r XORs vec * ((r / perPhase) % maxPhase) into the column (Triton 3.6,
// LinearLayoutConversions.cpp, swizzledSharedToLinearLayout()). With `rotating`, AMD's
// #ttg.amd_rotating_shared (gfx942 matmul operands after amdg.in_thread_transpose): the phase is XORed
// with the row's block number (r / perPhase / maxPhase) % maxPhase, so rows one block of maxPhase * perPhase
// apart start on other banks (sharedToLinearLayoutAMDRotating(): blockNo, combinedPhase = phase ^ blockNo).
Named swizzled_shared(const AttrNode& a, const std::vector<std::int64_t>& shape, bool rotating) {
  const std::size_t rank = shape.size();
  const Named cga = cga_layout(a, rank);
  const auto per_cta = shape_per_cta(cga, shape);
  if (rank == 1) return combine(identity1d(per_cta[0], "offset", "dim0"), cga, shape);
  const std::int64_t vec = int_field(a, "vec"), per_phase = int_field(a, "perPhase"), max_phase = int_field(a, "maxPhase");
  if (vec < 1 || per_phase < 1 || max_phase < 1) fail("#{}: vec, perPhase and maxPhase must be positive", a.text);
  const auto order = list_field(a, "order");
  check_order(order, rank, a);
  const auto col = static_cast<std::size_t>(order[0]), row = static_cast<std::size_t>(order[1]);
  const std::int64_t cols = per_cta[col], rows = per_cta[row];
  Named cta{{dim_name(row), dim_name(col)}, {rows, cols}, {{"offset", {}}}};
  for (std::int64_t c = 1; c < cols; c *= 2) cta.ins[0].second.push_back({0, c});
  for (std::int64_t r = 1; r < rows; r *= 2) {
    const std::int64_t phase = (r / per_phase) % max_phase, block = rotating ? (r / max_phase / per_phase) % max_phase : 0;
    cta.ins[0].second.push_back({r, (vec * (phase ^ block)) % cols});
  }
  for (std::size_t i = 2; i < rank; ++i) {
    const auto d = static_cast<std::size_t>(order[i]);
    cta *= identity1d(per_cta[d], "offset", dim_name(d));
  }
  return combine(cta, cga, shape);
}

// Row-major reshape of the out space (the last dim fastest), Triton's reshapeLayout.
Named reshape_outs(const Named& n, const std::vector<std::int64_t>& shape) {
  auto flat_of = [&](const Basis& b) {
    std::int64_t flat = 0;
    for (std::size_t i = 0; i < n.outs.size(); ++i) flat = flat * n.sizes[i] + b[i];
    return flat;
  };
  Named r{standard_outs(shape.size()), shape, {}};
  for (const auto& [name, list] : n.ins) {
    r.ins.emplace_back(name, std::vector<Basis>{});
    for (const auto& b : list) {
      std::int64_t flat = flat_of(b);
      Basis v(shape.size());
      for (std::size_t i = shape.size(); i-- > 0;) {
        v[i] = flat % shape[i];
        flat /= shape[i];
      }
      r.ins.back().second.push_back(v);
    }
  }
  return r;
}

Named nvmma_shared(const AttrNode& a, const std::vector<std::int64_t>& shape, int element_bits) {
  const std::size_t rank = shape.size();
  const Named cga = cga_layout(a, rank);
  const auto per_cta = shape_per_cta(cga, shape);
  const std::int64_t swizzle = int_field(a, "swizzlingByteWidth");
  const bool transposed = int_field(a, "transposed", 0) != 0;
  const int bits = static_cast<int>(int_field(a, "elementBitWidth", element_bits));
  const bool fp4_padded = int_field(a, "fp4Padded", 0) != 0;
  if (fp4_padded) fail("#ttg.nvmma_shared with fp4Padded is not modelled");
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    fail("#ttg.nvmma_shared swizzlingByteWidth {} is not 0, 32, 64 or 128", swizzle);
  if (rank == 1) return combine(identity1d(per_cta[0], "offset", "dim0"), cga, shape);
  // The TMA box: at most 256 per dim, the contiguous dim at most one swizzle row.
  std::vector<std::int64_t> box = per_cta;
  for (auto& b : box) b = std::min<std::int64_t>(b, 256);
  const std::size_t contig = transposed ? 0 : rank - 1;
  if (swizzle) box[contig] = std::min<std::int64_t>(box[contig], swizzle * 8 / bits);
  const auto outs = standard_outs(rank);
  if (swizzle == 0) {
    Named layout = identity1d(box[rank - 1], "offset", outs[rank - 1]);
    for (std::size_t i = rank - 1; i-- > 0;) layout *= identity1d(box[i], "offset", outs[i]);
    layout = not_smaller_than(layout, shape_map(per_cta), outs);
    return combine(layout, cga, shape);
  }
  // Core matrix: 8 rows of one swizzle width; row r XORs 16-byte chunk (r / perPhase) % maxPhase.
  const std::int64_t per_phase = swizzle == 32 ? 4 : swizzle == 64 ? 2 : 1, max_phase = swizzle / 16;
  const std::int64_t vec = 128 / bits, tile_rows = 8, tile_cols = 8 * std::max<std::int64_t>(16, swizzle) / bits;
  std::array<std::int64_t, 2> collapsed{1, box.back()};
  for (std::size_t i = 0; i + 1 < rank; ++i) collapsed[0] *= box[i];
  if (transposed) std::swap(collapsed[0], collapsed[1]);
  if (collapsed[1] < tile_cols || collapsed[0] < tile_rows)
    fail("#ttg.nvmma_shared: a {}x{} tile is smaller than one {}x{} core matrix of {}-byte swizzle", collapsed[0], collapsed[1],
         tile_rows, tile_cols, swizzle);
  Named tile{{"dim0", "dim1"}, {tile_rows, tile_cols}, {{"offset", {}}}};
  for (std::int64_t c = 1; c < tile_cols; c *= 2) tile.ins[0].second.push_back({0, c});
  for (std::int64_t r = 1; r < tile_rows; r *= 2) tile.ins[0].second.push_back({r, vec * ((r / per_phase) % max_phase)});
  Named layout = not_smaller_than(tile, Shape{{"dim0", collapsed[0]}, {"dim1", collapsed[1]}}, {"dim0", "dim1"});
  std::vector<std::int64_t> box_shape = box;
  if (transposed) std::rotate(box_shape.begin(), box_shape.begin() + 1, box_shape.end());
  layout = reshape_outs(layout, box_shape);
  if (transposed) {
    // Out dim i of the result is dim order[i] of the reshaped layout, order = [rank-1, 0, 1, ...].
    std::vector<std::string> order{dim_name(rank - 1)};
    for (std::size_t i = 0; i + 1 < rank; ++i) order.push_back(dim_name(i));
    Named t = transpose_outs(layout, order);
    t.outs = outs;
    layout = t;
  }
  layout = not_smaller_than(layout, shape_map(per_cta), outs);
  return combine(layout, cga, shape);
}

Named shared_linear(const AttrNode& a, const std::vector<std::int64_t>& shape) {
  Named n{standard_outs(shape.size()), shape, {}};
  for (const char* in : {"offset", "block"}) {
    n.ins.emplace_back(in, std::vector<Basis>{});
    if (const AttrNode* f = a.field(in))
      for (const auto& b : f->items) {
        if (b.items.size() != shape.size())
          fail("#ttg.{}: an {} basis has {} coordinates for a rank-{} tensor", a.layout_kind(), in, b.items.size(), shape.size());
        Basis v;
        for (const auto& x : b.items) v.push_back(x.integer);
        n.ins.back().second.push_back(v);
      }
  }
  return n;
}

SharedResult convert_shared(const AttrNode& a, const std::vector<std::int64_t>& shape, int element_bits) {
  const std::string kind = a.layout_kind();
  for (auto s : shape) log2_of(s, "tensor dimension");
  if (kind == "shared" && int_field(a, "hasLeadingOffset", 0) != 0) {
    // Triton 3.0-3.2's #triton_gpu.shared with hasLeadingOffset: the MMAv3 layout nvmma_shared replaced.
    const std::int64_t per_phase = int_field(a, "perPhase"), max_phase = int_field(a, "maxPhase");
    const std::int64_t width = per_phase == 4 && max_phase == 2   ? 32
                               : per_phase == 2 && max_phase == 4 ? 64
                               : per_phase == 1 && max_phase == 8 ? 128
                                                                  : 0;
    if (!width) fail("#{}: hasLeadingOffset needs (perPhase, maxPhase) of (4, 2), (2, 4) or (1, 8)", a.text);
    const auto order = list_field(a, "order");
    check_order(order, shape.size(), a);
    AttrNode nv = a;
    auto set = [&](const char* key, std::int64_t v) {
      AttrNode n;
      n.kind = AttrNode::Kind::Integer;
      n.integer = v;
      nv.fields.emplace_back(key, n);
    };
    nv.fields.erase(std::remove_if(nv.fields.begin(), nv.fields.end(), [](const auto& f) { return f.first == "transposed"; }),
                    nv.fields.end());
    set("swizzlingByteWidth", width);
    set("transposed", shape.size() >= 2 && order[0] != static_cast<std::int64_t>(shape.size()) - 1);
    set("elementBitWidth", element_bits);
    return {nvmma_shared(nv, shape, element_bits), {}};
  }
  if (kind == "swizzled_shared" || kind == "shared") return {swizzled_shared(a, shape, false), {}};
  if (kind == "amd_rotating_shared") return {swizzled_shared(a, shape, true), {}};
  if (kind == "nvmma_shared") return {nvmma_shared(a, shape, element_bits), {}};
  if (kind == "shared_linear") return {shared_linear(a, shape), {}};
  if (kind == "padded_shared") {
    if (a.padding.empty()) fail("#ttg.padded_shared has no [interval:+padding] list");
    for (const auto& [interval, pad] : a.padding) {
      log2_of(interval, "padded_shared interval");
      log2_of(pad, "padded_shared padding");
    }
    Named linear;
    if (a.field("offset")) {
      linear = shared_linear(a, shape);
    } else {
      // Older form: an identity in `order` over `shape`.
      const auto order = list_field(a, "order");
      check_order(order, shape.size(), a);
      linear = combine(identity_nd("offset", shape, order), cga_layout(a, shape.size()), shape);
    }
    return {linear, a.padding};
  }
  fail("#{} is not modelled", a.text);
}

bool is_shared_kind(const std::string& kind) {
  return kind == "swizzled_shared" || kind == "shared" || kind == "nvmma_shared" || kind == "shared_linear" ||
         kind == "padded_shared" || kind == "amd_rotating_shared";
}

}  // namespace swz::ttgir::detail
