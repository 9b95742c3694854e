// export_parts.cpp: the pieces every export form shares (export_parts.h).
#include "export_parts.h"

namespace swz::export_parts {

std::string comment_safe(std::string_view text) {
  std::string out;
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\\')
      out += '/';
    else if (c == '?' && !out.empty() && out.back() == '?')
      out += " ?";
    else if (c >= 0x20 && c < 0x7f)
      out += ch;
    else if (c == '\n' || c == '\r' || c == '\t')
      out += ' ';
    else
      out += '_';
  }
  return out;
}

void comment_lines(std::string& out, std::string_view text, std::string_view prefix, std::string_view marker) {
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    std::string safe = comment_safe(line);
    while (!safe.empty() && safe.back() == ' ') safe.pop_back();
    out += safe.empty() ? fmt::format("{}\n", marker) : fmt::format("{}{}{}\n", marker, prefix, safe);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

std::string shape_text(const std::vector<std::int64_t>& shape) { return fmt::format("{}", fmt::join(shape, "x")); }

void check_request(const ExportRequest& r, ExportFormat format) {
  check_export_name(r.name, format);
  if (r.element_bits != 4 && r.element_bits != 8 && r.element_bits != 16 && r.element_bits != 32 && r.element_bits != 64)
    fail("element_bits {} is not one of 4, 8, 16, 32, 64", r.element_bits);
  check_bank_model(r.bank);
  if (r.shared.shape().empty()) fail("nothing to export: the shared layout is empty");
}

std::int64_t param(const LayoutMatch& m, std::string_view key) {
  for (const auto& [name, value] : m.params)
    if (name == key) return value;
  return 0;
}

KnownForms known_forms(const SharedLayout& shared, int element_bits) {
  KnownForms k;
  for (const LayoutMatch& m : recognize(shared, element_bits)) {
    k.names.push_back(m.name);
    if (m.family == "cute" && (!k.cute || (param(m, "row_major") && !param(*k.cute, "row_major")))) k.cute = m;
    if (m.family == "row_major" && shared.shape().size() == 2 && element_bits >= 8 && k.tma_mode.empty())
      k.tma_mode = "CU_TENSOR_MAP_SWIZZLE_NONE";
    if (m.family == "tma" && (k.tma_mode.empty() || k.tma_mode == "CU_TENSOR_MAP_SWIZZLE_NONE")) {
      const TmaMode& mode = tma_mode_of_value(static_cast<int>(param(m, "tma_mode")));
      k.tma_mode = mode.driver_name;
      k.repeat_bytes = static_cast<std::int64_t>(mode.swizzle.repeat_bytes());
    }
    if (m.family == "tcgen05" && !k.umma) {
      const UmmaMode& mode = umma_mode_of_field(static_cast<int>(param(m, "layout_type")));
      k.umma = CuteAtom{&mode, param(m, "mn_major") ? Major::MN : Major::K, element_bits, {}};
      k.repeat_bytes = std::max(k.repeat_bytes, static_cast<std::int64_t>(mode.swizzle.repeat_bytes()));
    }
    if (m.family == "triton_swizzled" && k.triton_mlir.empty()) {
      k.triton_mlir =
          fmt::format("#ttg.swizzled_shared<{{vec = {}, perPhase = {}, maxPhase = {}, order = [{}, {}]}}>", param(m, "vec"),
                      param(m, "perPhase"), param(m, "maxPhase"), param(m, "order0"), param(m, "order1"));
      k.triton_gluon =
          fmt::format("ttgl.SwizzledSharedLayout(vec={}, per_phase={}, max_phase={}, order=[{}, {}])", param(m, "vec"),
                      param(m, "perPhase"), param(m, "maxPhase"), param(m, "order0"), param(m, "order1"));
    }
    if (m.family == "nvmma") {
      // NVMMA is what Triton picks for TMA and wgmma operands: prefer it over the generic swizzled form.
      const bool transposed = param(m, "transposed") != 0;
      k.triton_mlir = fmt::format("#ttg.nvmma_shared<{{swizzlingByteWidth = {}, transposed = {}, elementBitWidth = {}}}>",
                                  param(m, "swizzle_byte_width"), transposed, param(m, "element_bitwidth"));
      k.triton_gluon = fmt::format("ttgl.NVMMASharedLayout(swizzle_byte_width={}, element_bitwidth={}, rank=2, transposed={})",
                                   param(m, "swizzle_byte_width"), param(m, "element_bitwidth"), transposed ? "True" : "False");
      k.repeat_bytes = std::max(k.repeat_bytes, 8 * param(m, "swizzle_byte_width"));
    }
  }
  return k;
}

std::int64_t alignment_bytes(const ExportRequest& r, const KnownForms& known) {
  const auto tile = static_cast<std::int64_t>(byte_address_of(static_cast<std::uint64_t>(r.shared.elements()), r.element_bits));
  const std::int64_t wanted = std::max<std::int64_t>(r.bank.wavefront_bytes(), known.repeat_bytes);
  return std::max<std::int64_t>(16, std::min(tile, wanted));
}

std::vector<Term> shift_terms(const std::vector<BitVec>& columns, const std::vector<int>& arg_of,
                              const std::vector<int>& bit_of) {
  std::map<std::pair<int, int>, BitVec> groups;  // (arg, -shift) -> mask: arguments in order, larger shifts first
  for (std::size_t j = 0; j < columns.size(); ++j)
    for (BitVec v = columns[j]; v != 0; v &= v - 1) {
      const int k = std::countr_zero(v);
      groups[{arg_of[j], bit_of[j] - k}] |= BitVec{1} << bit_of[j];
    }
  std::vector<Term> terms;
  for (const auto& [key, mask] : groups) terms.push_back({key.first, -key.second, mask});
  return terms;
}

std::string terms_expression(const std::vector<Term>& terms, const std::vector<std::string>& arg_names) {
  if (terms.empty()) return "0u";
  std::string s;
  for (const Term& t : terms) {
    if (!s.empty()) s += " ^ ";
    const std::string masked = fmt::format("({} & 0x{:x}u)", arg_names[static_cast<std::size_t>(t.arg)], t.mask);
    if (t.shift == 0)
      s += masked;
    else if (t.shift > 0)
      s += fmt::format("({} << {})", masked, t.shift);
    else
      s += fmt::format("({} >> {})", masked, -t.shift);
  }
  return s;
}

HeaderMaps header_maps(const LinearLayout& lin, int element_bits) {
  HeaderMaps h;
  const int rank = lin.rank();
  for (int d = 0; d < rank; ++d) {
    h.dim_names.push_back(rank == 2 ? (d == 0 ? "row" : "col") : fmt::format("dim{}", d));
    h.dim_bits.push_back(lin.out_dims()[static_cast<std::size_t>(d)].log2_size);
  }
  const int bits = lin.out_bits();
  const std::vector<BitVec>& to_coords = lin.bases("offset");  // offset bit k -> flat coordinate
  const BitMatrix forward = BitMatrix::from_columns(bits, to_coords);
  const BitMatrix inverse = *forward.inverse();  // flat coordinate bit -> offset bits (checked by SharedLayout)

  // offset(): inputs are the flat coordinate bits.
  std::vector<int> arg_of, bit_of;
  for (int d = 0; d < rank; ++d)
    for (int i = 0; i < h.dim_bits[static_cast<std::size_t>(d)]; ++i) {
      arg_of.push_back(d);
      bit_of.push_back(i);
    }
  h.offset_expr = terms_expression(shift_terms(inverse.columns(), arg_of, bit_of), h.dim_names);

  // <dim>_of(off): inputs are offset bits; outputs one dim at a time.
  const std::vector<int> zero_args(static_cast<std::size_t>(bits), 0);
  std::vector<int> offset_bit;
  for (int k = 0; k < bits; ++k) offset_bit.push_back(k);
  for (int d = 0; d < rank; ++d) {
    std::vector<BitVec> cols;
    for (BitVec c : to_coords) cols.push_back((c >> lin.out_offset(d)) & low_bits(h.dim_bits[static_cast<std::size_t>(d)]));
    h.coord_exprs.push_back(terms_expression(shift_terms(cols, zero_args, offset_bit), {"off"}));
  }
  const BitMatrix rows = inverse.transpose();
  for (int k = 0; k < bits; ++k) h.offset_rows.push_back(rows.column(k));

  // Byte addresses: bit-address space = log2(element_bits) bits inside the element,
  // then the row-major element index (last dim fastest), as users of raw pointers count.
  const int inner = std::countr_zero(static_cast<unsigned>(element_bits));
  std::vector<BitVec> bit_map;  // bit-address bit -> swizzled bit-address bits
  for (int c = 0; c < inner; ++c) bit_map.push_back(BitVec{1} << c);
  for (int d = rank - 1; d >= 0; --d)
    for (int i = 0; i < h.dim_bits[static_cast<std::size_t>(d)]; ++i)
      bit_map.push_back(inverse.column(lin.out_offset(d) + i) << inner);
  const int width = static_cast<int>(bit_map.size());
  bool byte_map = width > 3;
  for (int c = 0; c < width && byte_map; ++c)
    byte_map = c < 3 ? bit_map[static_cast<std::size_t>(c)] < 8 : (bit_map[static_cast<std::size_t>(c)] & 7) == 0;
  if (byte_map) {
    std::vector<BitVec> bytes;
    for (int c = 3; c < width; ++c) bytes.push_back(bit_map[static_cast<std::size_t>(c)] >> 3);
    const BitMatrix swizzle = BitMatrix::from_columns(width - 3, bytes);
    const BitMatrix unswizzle = *swizzle.inverse();
    const std::vector<int> args(bytes.size(), 0);
    std::vector<int> byte_bit;
    for (std::size_t b = 0; b < bytes.size(); ++b) byte_bit.push_back(static_cast<int>(b));
    h.has_byte_map = true;
    h.swizzle_bytes_expr = terms_expression(shift_terms(swizzle.columns(), args, byte_bit), {"byte"});
    h.unswizzle_bytes_expr = terms_expression(shift_terms(unswizzle.columns(), args, byte_bit), {"byte"});
  }
  return h;
}

std::string access_summary(const char* title, const AccessAnalysis& a) {
  const AccessResult& s = a.simulated;
  std::string text = fmt::format("{}: {} per instruction (ideal {}), {} instruction{}, {}-bit vectors", title, verdict_text(s),
                                 s.ideal_wavefronts, s.instructions(), s.instructions() == 1 ? "" : "s", s.vector.bits);
  if (a.lemma.applies)
    text += fmt::format("\n  algebra (Lemma 9.4): {} x 2**{} = {} wavefront{}{}", a.lemma.phases, a.lemma.intersection_dim,
                        a.lemma.predicted_wavefronts, a.lemma.predicted_wavefronts == 1 ? "" : "s",
                        a.agrees() ? ", as simulated" : "");
  if (!a.agrees()) text += fmt::format("\n  note: {}", a.difference);
  return text;
}

std::string access_layout_text(const Access& access) {
  std::string text;
  if (access.ldmatrix) text += fmt::format("ldmatrix.x{} row addresses:\n", access.ldmatrix);
  return text + to_triton_text(access.layout);
}

void append_problem_comments(std::string& out, const Problem& p) {
  comment_lines(out, fmt::format("Problem: {}: {}", p.name, p.description));
  if (p.grid && !p.masks.empty())
    comment_lines(out, fmt::format("Masks C_j per row bit, lowest first: {}", format_masks(p.masks)));
  const ProblemAnalysis a = analyze(p);
  out += "//\n";
  comment_lines(out, access_summary("Store (A, the writer)", a.store));
  comment_lines(out, access_layout_text(p.store), "     ");
  out += "//\n";
  comment_lines(out, access_summary("Read (B, the reader)", a.read));
  comment_lines(out, access_layout_text(p.read), "     ");
}

void append_array(std::string& out, const std::string& qualifiers, const std::string& decl,
                  const std::vector<std::string>& items) {
  out += fmt::format("{} {} = {{{}}};\n", qualifiers, decl, fmt::join(items, ", "));
}

std::optional<std::int64_t> padded_row_stride(const SharedLayout& shared) {
  if (shared.is_linear() || shared.shape().size() != 2) return std::nullopt;
  const LinearLayout& coords = shared.coords();
  std::int64_t stride = -1;
  for (BitVec flat = 0; flat < static_cast<BitVec>(shared.elements()); ++flat) {
    const Coords c = coords.unflatten(flat);
    if (c[0] == 1 && c[1] == 0) stride = shared.offset(flat);
  }
  if (stride <= shared.shape()[1]) return std::nullopt;
  for (BitVec flat = 0; flat < static_cast<BitVec>(shared.elements()); ++flat) {
    const Coords c = coords.unflatten(flat);
    if (static_cast<std::int64_t>(shared.offset(flat)) != c[0] * stride + c[1]) return std::nullopt;
  }
  return stride;
}

}  // namespace swz::export_parts
