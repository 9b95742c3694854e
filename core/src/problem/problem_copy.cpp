// problem_copy.cpp: a problem's writer as a cp.async (LDGSTS) from global memory, and where each of
// its lanes reads (problem_spec.h: write_copy, global_dim, global_pitch, global_layout).
#include <fmt/format.h>

#include <memory>

#include "spec_fields.h"
#include "swz/error.h"
#include "swz/sim/global_side.h"

namespace swz {

namespace {

[[noreturn]] void copy_field_error(const char* key, const std::string& what) {
  fail("{}: {}", spec_detail::field(key), what);
}

// A global layout is a table of every element's place: read up to this many elements.
constexpr int kMaxGlobalLayoutBits = 24;

void place_by_layout(Problem& p, const SpecLayout& given) {
  const std::string name = given.origin.empty() ? "the layout" : given.origin;
  if (given.layout.shape() != p.shape)
    copy_field_error("global_layout", fmt::format("{} covers a {} tensor but the problem's tile is {}: it must place every "
                                                  "element of the tile",
                                                  name, fmt::join(given.layout.shape(), "x"), fmt::join(p.shape, "x")));
  if (given.layout.out_bits() > kMaxGlobalLayoutBits)
    copy_field_error("global_layout", fmt::format("a global layout is read up to 2^{} elements; the tile has 2^{}",
                                                  kMaxGlobalLayoutBits, given.layout.out_bits()));
  SharedLayout global;
  try {
    global = SharedLayout::from_linear(given.layout, name);
  } catch (const Error& e) {
    copy_field_error("global_layout", fmt::format("{} does not place each element of the tile once: {}", name, e.what()));
  }
  auto bytes = std::make_shared<std::vector<std::int64_t>>(std::size_t{1} << given.layout.out_bits());
  for (BitVec c = 0; c < bytes->size(); ++c)
    (*bytes)[c] = static_cast<std::int64_t>(byte_address_of(global.offset(c), p.element_bits));
  p.store.global_bytes = std::move(bytes);
  p.copy_placement = fmt::format("each element where the global layout {} puts it", name);
}

void place_by_pitch(Problem& p, const ProblemSpec& s) {
  const auto& dims = p.store.layout.out_dims();
  const int rank = static_cast<int>(dims.size());
  const int dim = s.global_dim.value_or(rank - 1);
  if (dim < 0 || dim >= rank)
    copy_field_error("global_dim", fmt::format("{} is not a dim of the {} tile (0 to {})", dim, fmt::join(p.shape, "x"), rank - 1));
  p.store.global_contiguous_dim = dim;
  const std::int64_t row_bits = (std::int64_t{1} << dims[static_cast<std::size_t>(dim)].log2_size) * p.element_bits;
  if (const std::int64_t pitch = s.global_pitch; pitch) {
    if (pitch * 8 % p.element_bits)
      copy_field_error("global_pitch", fmt::format("{} bytes is not a whole number of {}-bit elements", pitch, p.element_bits));
    if (pitch % 4)
      copy_field_error("global_pitch", fmt::format("{} bytes leaves rows off the 4-byte alignment every cp.async copy needs "
                                                   "(a multiple of 4)",
                                                   pitch));
    if (pitch * 8 < row_bits)
      copy_field_error("global_pitch", fmt::format("{} bytes is less than one row of dim {} ({} bytes): the rows would overlap", pitch,
                                                   dim, row_bits / 8));
  }
  p.store.global_pitch_bytes = s.global_pitch;
  const std::int64_t pitch = global_row_pitch(row_bits / 8, s.global_pitch);
  p.copy_placement = fmt::format("rows {} bytes apart{}, contiguous along dim{}", pitch, s.global_pitch ? "" : " (the default)", dim);
}

}  // namespace

std::optional<std::pair<const char*, std::string>> spec_detail::refused_copy_field(const ProblemSpec& s) {
  if (!s.write_copy.empty() && s.write_copy != "ca" && s.write_copy != "cg")
    return std::pair{"write_copy", fmt::format("'{}' is not ca or cg", s.write_copy)};
  if (s.global_pitch < 0 || s.global_pitch > kMaxGlobalPitch)
    return std::pair{"global_pitch", fmt::format("{} is not a number of bytes from 1 to 2^30", s.global_pitch)};
  if (s.global_dim && (*s.global_dim < 0 || *s.global_dim > 1024))
    return std::pair{"global_dim", fmt::format("{} is not a dim", *s.global_dim)};
  return std::nullopt;
}

void spec_detail::apply_copy_side(Problem& p, const ProblemSpec& s) {
  if (s.write_copy.empty() && !p.store.async_copy) {
    for (const auto& [given, key] : {std::pair{s.global_dim.has_value(), "global_dim"}, std::pair{s.global_pitch != 0, "global_pitch"},
                                     std::pair{s.global_layout.has_value(), "global_layout"}})
      if (given)
        copy_field_error(key, fmt::format("places a cp.async copy's source, but the writer is no copy: give {} (ca or cg)",
                                          field("write_copy")));
    return;
  }
  if (!s.write_matrix.empty())
    copy_field_error("write_copy", fmt::format("the writer issues stmatrix ({}); a cp.async copies from global memory instead",
                                               field("write_matrix")));
  if (s.global_layout && (s.global_dim || s.global_pitch))
    copy_field_error("global_layout", fmt::format("given beside {}: the global side is a layout, or a dim and a pitch",
                                                  field(s.global_dim ? "global_dim" : "global_pitch")));
  p.store.async_copy = true;  // a preset's own copy keeps its cache unless write_copy names one
  if (!s.write_copy.empty()) p.store.copy_cache = s.write_copy == "ca" ? Access::CopyCache::Ca : Access::CopyCache::Cg;
  if (s.global_layout)
    place_by_layout(p, *s.global_layout);
  else
    place_by_pitch(p, s);
  // The width a named vector asks for must be consecutive in global memory too.
  const int bits = global_vector_bits(p.store, p.element_bits);
  if (s.write_vec_bits > bits)
    copy_field_error("write_vec_bits", fmt::format("a {}-bit copy needs {} consecutive, aligned bytes in global memory; the global "
                                                   "side ({}) gives {}-bit vectors",
                                                   s.write_vec_bits, s.write_vec_bits / 8, p.copy_placement, bits));
  if (p.store.copy_cache == Access::CopyCache::Cg && bits < 128)
    copy_field_error("write_copy", fmt::format("cp.async.cg copies 16 bytes a lane; the global side ({}) gives {}-bit vectors",
                                               p.copy_placement, bits));
}

void spec_detail::check_copy_width(const Problem& p) {
  if (!p.store.async_copy || p.store.copy_cache != Access::CopyCache::Cg) return;
  const VectorChoice v = choose_vector(p.store, p.shared, p.element_bits, p.bank);
  if (v.bits < 128)
    copy_field_error("write_copy", fmt::format("cp.async.cg copies 16 bytes a lane; under the shared layout {} the writer moves "
                                               "{}-bit vectors ({})",
                                               p.shared.description(), v.bits, v.limit));
}

}  // namespace swz
