// export.cpp: the header, Triton, CuTe and JSON writers (see export.h).
//
// [SECTION] Text helpers
// [SECTION] Known forms (CuTe, TMA, Triton)
// [SECTION] Linear maps as shift/mask/XOR terms
// [SECTION] Header
// [SECTION] Padded rows
// [SECTION] Triton, CuTe, JSON
// [SECTION] Names, formats, commands
// [SECTION] Files
#include "swz/export/export.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>

#include "swz/sim/analysis.h"
#include "swz/error.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"
#include "swz/layout/recognize.h"

namespace swz {

namespace {

// [SECTION] Text helpers

// Input text reduced to printable ASCII for a `//` comment: no newline can end
// the comment, no trailing backslash can splice the next line into it, no "??"
// can form a trigraph in older modes.
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

// Appends each line of `text` as a comment line: `marker` ("//" or "#"), then `prefix`.
void comment_lines(std::string& out, std::string_view text, std::string_view prefix = " ", std::string_view marker = "//") {
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

const LinearLayout& linear_or_fail(const ExportRequest& r, std::string_view what) {
  if (!r.shared.is_linear())
    fail("cannot export '{}' as {}: it is not linear over F2 ({}); only XOR-linear layouts have a shift/XOR form",
         r.shared.description(), what, r.shared.nonlinear_reason());
  return r.shared.linear();
}

void check_request(const ExportRequest& r, ExportFormat format) {
  check_export_name(r.name, format);
  if (r.element_bits != 4 && r.element_bits != 8 && r.element_bits != 16 && r.element_bits != 32 && r.element_bits != 64)
    fail("element_bits {} is not one of 4, 8, 16, 32, 64", r.element_bits);
  check_bank_model(r.bank);
  if (r.shared.shape().empty()) fail("nothing to export: the shared layout is empty");
}

// [SECTION] Known forms (CuTe, TMA, Triton)

std::int64_t param(const LayoutMatch& m, std::string_view key) {
  for (const auto& [name, value] : m.params)
    if (name == key) return value;
  return 0;
}

// The names recognize() finds, turned into what each ecosystem writes.
struct KnownForms {
  std::vector<std::string> names;         // every name the layout goes by
  std::optional<LayoutMatch> cute;        // a CuTe Swizzle<B,M,S> of a row- (preferred) or column-major tile
  std::string tma_mode;                   // CU_TENSOR_MAP_SWIZZLE_*, "" when none
  std::int64_t repeat_bytes = 0;          // bytes after which a TMA / NVMMA pattern repeats (0: none)
  std::string triton_mlir, triton_gluon;  // a named Triton shared layout, "" when none
};

KnownForms known_forms(const SharedLayout& shared, int element_bits) {
  KnownForms k;
  for (const LayoutMatch& m : recognize(shared, element_bits)) {
    k.names.push_back(m.name);
    if (m.family == "cute" && (!k.cute || (param(m, "row_major") && !param(*k.cute, "row_major")))) k.cute = m;
    if (m.family == "row_major" && shared.shape().size() == 2 && element_bits >= 8 && k.tma_mode.empty())
      k.tma_mode = "CU_TENSOR_MAP_SWIZZLE_NONE";
    if (m.family == "tma") {
      k.tma_mode = fmt::format("CU_TENSOR_MAP_SWIZZLE_{}B", param(m, "swizzle_bytes"));
      k.repeat_bytes = 8 * param(m, "swizzle_bytes");
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

// The base alignment Triton is told: the analysis assumed the tile starts a row of banks,
// and a TMA / NVMMA pattern needs its repeat length; never more than the tile, at least 16.
std::int64_t alignment_bytes(const ExportRequest& r, const KnownForms& known) {
  const auto tile = static_cast<std::int64_t>(byte_address_of(static_cast<std::uint64_t>(r.shared.elements()), r.element_bits));
  const std::int64_t wanted = std::max<std::int64_t>(r.bank.wavefront_bytes(), known.repeat_bytes);
  return std::max<std::int64_t>(16, std::min(tile, wanted));
}

// [SECTION] Linear maps as shift/mask/XOR terms

// (argument & mask) moved left by `shift` bits (right when negative).
struct Term {
  int arg = 0;
  int shift = 0;
  BitVec mask = 0;
};

// A linear map whose input bit j belongs to argument arg_of[j] as its bit bit_of[j],
// columns[j] = image of input bit j, as terms grouped by (argument, shift).
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

// The pieces of a linear, invertible layout the header is made of.
struct HeaderMaps {
  std::vector<std::string> dim_names;                    // row, col (2-D) or dim0, dim1, ...
  std::vector<int> dim_bits;                             // log2 of each dim
  std::string offset_expr;                               // offset(dims...)
  std::vector<std::string> coord_exprs;                  // per dim, of `off`
  std::vector<BitVec> offset_rows;                       // offset_rows[k] = coordinate bits XORed into offset bit k
  bool has_byte_map = false;                             // false for 4-bit elements whose pairs the layout splits
  std::string swizzle_bytes_expr, unswizzle_bytes_expr;  // of `byte`
};

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

// [SECTION] Header

std::string access_summary(const char* title, const AccessAnalysis& a) {
  const AccessResult& s = a.simulated;
  std::string text = fmt::format("{}: {} per instruction (ideal {}), {} instruction{}, {}-bit vectors", title, verdict_text(s),
                                 s.ideal_wavefronts, s.instructions(), s.instructions() == 1 ? "" : "s", s.vector.bits);
  if (a.lemma.applies)
    text += fmt::format("\n  algebra (Lemma 9.4): {} x 2^{} = {} wavefront{}{}", a.lemma.phases, a.lemma.intersection_dim,
                        a.lemma.predicted_wavefronts, a.lemma.predicted_wavefronts == 1 ? "" : "s",
                        a.agrees() ? ", as simulated" : "");
  if (!a.agrees()) text += fmt::format("\n  note: {}", a.difference);
  return text;
}

// Access layouts print register/lane/warp bases; the block dim is irrelevant to one CTA.
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

void append_array(std::string& out, const std::string& decl, const std::vector<std::string>& items) {
  out += fmt::format("inline constexpr {} = {{{}}};\n", decl, fmt::join(items, ", "));
}

}  // namespace

std::string export_header(const ExportRequest& r) {
  check_request(r, ExportFormat::Header);
  const LinearLayout& lin = linear_or_fail(r, "a C++ header");
  const HeaderMaps h = header_maps(lin, r.element_bits);
  const KnownForms known = known_forms(r.shared, r.element_bits);
  const int rank = lin.rank();
  const std::string& ns = r.name;
  const std::string hd = upper(ns) + "_HOST_DEVICE";
  const std::string guard = upper(ns) + "_SWIZZLE_H";
  const std::int64_t elements = r.shared.elements();
  const std::uint64_t tile_bytes = byte_address_of(static_cast<std::uint64_t>(elements), r.element_bits);
  const std::string command = r.command.empty() ? default_command(r, ExportFormat::Header, ns + ".h") : r.command;
  // offset() leaves the parameters of size-1 dims unnamed: nothing reads them.
  const auto signature = [&](bool unnamed_unused) {
    std::vector<std::string> params;
    for (std::size_t d = 0; d < h.dim_names.size(); ++d)
      params.push_back(
          fmt::format("std::uint32_t {}", h.dim_bits[d] || !unnamed_unused ? h.dim_names[d] : "/*" + h.dim_names[d] + "*/"));
    return fmt::format("{}", fmt::join(params, ", "));
  };
  const std::string dims_call = fmt::format("{}", fmt::join(h.dim_names, ", "));

  std::string out;
  // -- comment block --
  comment_lines(out, fmt::format("{}.h: shared-memory layout \"{}\"", ns, r.shared.description()));
  comment_lines(
      out, fmt::format("for a {} tile of {}-bit elements, as shifts, ANDs and XORs.", shape_text(lin.shape()), r.element_bits));
  out += "//\n";
  comment_lines(out, fmt::format("Generated by swizzle {}. Regenerate with:", SWZ_VERSION));
  comment_lines(out, command, "   ");
  out += "//\n";
  comment_lines(out,
                fmt::format("{} banks of {} bytes; coordinates ({}) = ({})", r.bank.banks, r.bank.bank_bytes, dims_call, [&] {
                  std::vector<std::string> names;
                  for (int d = 0; d < rank; ++d) names.push_back(fmt::format("dim{}", d));
                  return fmt::format("{}", fmt::join(names, ", "));
                }()));
  if (r.problem) append_problem_comments(out, *r.problem);
  out += "//\n";
  if (known.names.empty())
    comment_lines(out, "Known as: no named family (CuTe, TMA, Triton); the linear form below is exact.");
  else
    comment_lines(out, "Known as:");
  for (const std::string& n : known.names) comment_lines(out, n, "   ");
  out += "//\n";
  comment_lines(out, "Offset bits, high to low, each the XOR of these coordinate bits:");
  for (int k = lin.out_bits() - 1; k >= 0; --k)
    comment_lines(out, fmt::format("offset bit {:>2} = {}", k, lin.describe_out(h.offset_rows[static_cast<std::size_t>(k)])),
                  "   ");
  out += "//\n";
  comment_lines(out, "The layout in Triton's form (offset -> coordinates):");
  comment_lines(out, to_triton_text(lin), "  ");

  // -- code --
  out += fmt::format("\n#ifndef {0}\n#define {0}\n\n#include <cstdint>\n\n", guard);
  out += fmt::format("#if defined(__CUDACC__)\n#define {0} __host__ __device__\n#else\n#define {0}\n#endif\n\n", hd);
  out += fmt::format("namespace {} {{\n\n", ns);

  out += fmt::format("inline constexpr std::uint32_t rank = {}u;\n", rank);
  if (rank == 2) {
    out += fmt::format("inline constexpr std::uint32_t rows = {}u;  // dim0\n", lin.shape()[0]);
    out += fmt::format("inline constexpr std::uint32_t cols = {}u;  // dim1\n", lin.shape()[1]);
  }
  {
    std::vector<std::string> sizes;
    for (std::int64_t s : lin.shape()) sizes.push_back(fmt::format("{}u", s));
    append_array(out, fmt::format("std::uint32_t shape[{}]", rank), sizes);
  }
  out += fmt::format("inline constexpr std::uint32_t elements = {}u;\n", elements);
  out += fmt::format("inline constexpr std::uint32_t element_bits = {}u;\n", r.element_bits);
  out += fmt::format("inline constexpr std::uint32_t tile_bytes = {}u;\n", tile_bytes);
  out += fmt::format("inline constexpr std::uint32_t banks = {}u;\n", r.bank.banks);
  out += fmt::format("inline constexpr std::uint32_t bank_bytes = {}u;\n", r.bank.bank_bytes);
  if (r.problem && r.problem->grid && !r.problem->masks.empty()) {
    out +=
        "// masks[j]: the column bits row bit j XORs in: offset(m, n) = m*cols + (n ^ mask(m)),\n"
        "// mask(m) = XOR of masks[j] over the set bits j of m.\n";
    std::vector<std::string> items;
    for (std::uint32_t m : r.problem->masks) items.push_back(fmt::format("{}u", m));
    append_array(out, fmt::format("std::uint32_t masks[{}]", items.size()), items);
  }
  if (!lin.bases("offset").empty()) {
    out +=
        "// offset_bases[i] = the coordinates stored at element offset 2^i (Triton's offset_bases);\n"
        "// the element at offset o is the XOR of offset_bases[i] over the set bits i of o.\n";
    std::vector<std::string> items;
    for (BitVec b : lin.bases("offset")) {
      std::vector<std::string> c;
      for (std::int64_t x : lin.unflatten(b)) c.push_back(fmt::format("{}u", x));
      items.push_back(fmt::format("{{{}}}", fmt::join(c, ", ")));
    }
    append_array(out, fmt::format("std::uint32_t offset_bases[{}][{}]", items.size(), rank), items);
  }
  out += fmt::format(
      "// The layout as Triton's MLIR attribute (any linear layout has this form).\n"
      "inline constexpr char triton_shared_linear[] =\n    \"{}\";\n",
      to_mlir(lin, r.element_bits, static_cast<int>(alignment_bytes(r, known))));
  if (!known.triton_mlir.empty())
    out += fmt::format(
        "// The same layout as a named Triton shared layout ({}).\ninline constexpr char triton_layout[] =\n    \"{}\";\n",
        known.triton_gluon, known.triton_mlir);
  if (!known.tma_mode.empty())
    out += fmt::format(
        "// The TMA swizzle mode that writes this layout (tensor map of a {}x{} box, base aligned to {} bytes).\n"
        "inline constexpr char tma_swizzle_mode[] = \"{}\";\n",
        lin.shape()[0], lin.shape()[1], std::max<std::int64_t>(128, known.repeat_bytes), known.tma_mode);
  out += "\n";

  out += fmt::format("// Element offset of ({}) from the tile's start. Coordinates are taken modulo the shape.\n", dims_call);
  out += fmt::format("{} constexpr std::uint32_t offset({}) {{\n  return {};\n}}\n\n", hd, signature(true), h.offset_expr);

  out += "// The inverse: the coordinates of the element at element offset `off` (modulo elements).\n";
  for (int d = 0; d < rank; ++d) {
    const std::string& expr = h.coord_exprs[static_cast<std::size_t>(d)];
    out += fmt::format("{} constexpr std::uint32_t {}_of(std::uint32_t {}) {{\n  return {};\n}}\n", hd,
                       h.dim_names[static_cast<std::size_t>(d)], expr == "0u" ? "/*off*/" : "off", expr);
  }
  {
    std::vector<std::string> members, calls;
    for (const auto& n : h.dim_names) {
      members.push_back(fmt::format("std::uint32_t {};", n));
      calls.push_back(fmt::format("{}_of(off)", n));
    }
    out += fmt::format("struct coord {{\n  {}\n}};\n", fmt::join(members, "\n  "));
    out += fmt::format("{} constexpr coord coord_of(std::uint32_t off) {{\n  return coord{{{}}};\n}}\n\n", hd,
                       fmt::join(calls, ", "));
  }

  const int byte_shift = std::countr_zero(static_cast<unsigned>(r.element_bits)) - 3;
  out += "// Byte forms, for code that swizzles raw pointers.\n";
  if (byte_shift >= 0) {
    out += fmt::format("// Byte offset of ({}) from the tile's start: offset * {}.\n", dims_call, r.element_bits / 8);
    const std::string expr =
        byte_shift == 0 ? fmt::format("offset({})", dims_call) : fmt::format("offset({}) << {}", dims_call, byte_shift);
    out += fmt::format("{} constexpr std::uint32_t byte_offset({}) {{\n  return {};\n}}\n", hd, signature(false), expr);
  } else {
    out += fmt::format(
        "// The byte holding ({}): two 4-bit elements share a byte; the element is its\n"
        "// low nibble when offset({}) is even.\n",
        dims_call, dims_call);
    out += fmt::format("{} constexpr std::uint32_t byte_offset({}) {{\n  return offset({}) >> 1;\n}}\n", hd, signature(false),
                       dims_call);
  }
  if (h.has_byte_map) {
    out +=
        "// Where the byte at row-major byte offset `byte` of the unswizzled tile (last\n"
        "// dim fastest) lives in this layout, and back; offsets are taken modulo tile_bytes.\n";
    out += fmt::format("{} constexpr std::uint32_t swizzle_byte_offset(std::uint32_t byte) {{\n  return {};\n}}\n", hd,
                       h.swizzle_bytes_expr);
    out += fmt::format("{} constexpr std::uint32_t unswizzle_byte_offset(std::uint32_t byte) {{\n  return {};\n}}\n", hd,
                       h.unswizzle_bytes_expr);
  } else {
    out +=
        "// No swizzle_byte_offset: this layout moves the two 4-bit elements of a byte apart,\n"
        "// so it has no form on whole bytes.\n";
  }
  out += fmt::format("\n}}  // namespace {}\n", ns);
  if (known.cute) {
    const LayoutMatch& m = *known.cute;
    const std::int64_t b = param(m, "B"), mm = param(m, "M"), sh = param(m, "S");
    out += fmt::format("\n// {}.\n// Compiled only where CuTe's header is on the include path.\n", comment_safe(m.name));
    out += "#if defined(__has_include)\n#if __has_include(<cute/swizzle.hpp>)\n#include <cute/swizzle.hpp>\n";
    out += fmt::format(
        "namespace {} {{\n// On element offsets of the {}-major tile: cute_swizzle{{}}(plain offset) == offset(...).\n", ns,
        param(m, "row_major") ? "row" : "column");
    out += fmt::format("using cute_swizzle = cute::Swizzle<{}, {}, {}>;\n", b, mm, sh);
    if (r.element_bits >= 8)
      out += fmt::format("// On byte addresses of the same tile.\nusing cute_swizzle_bytes = cute::Swizzle<{}, {}, {}>;\n", b,
                         mm + std::countr_zero(static_cast<unsigned>(r.element_bits / 8)), sh);
    out += fmt::format("}}  // namespace {}\n#endif\n#endif\n", ns);
  }
  out += fmt::format("\n#undef {}\n\n#endif  // {}\n", hd, guard);
  return out;
}

// [SECTION] Padded rows

// The row stride S when the layout is offset(m, n) = m*S + n on a 2-D tile with S > n's range:
// rows of padding, the one non-XOR layout CuTe (as strides) and Triton (padded_shared) both write.
namespace {

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

}  // namespace

// [SECTION] Triton, CuTe, JSON

std::string export_triton(const ExportRequest& r) {
  check_request(r, ExportFormat::Triton);
  if (const auto stride = padded_row_stride(r.shared)) {
    const std::int64_t rows = r.shared.shape()[0], cols = r.shared.shape()[1], pad = *stride - cols;
    const std::string command = r.command.empty() ? default_command(r, ExportFormat::Triton, r.name + ".py") : r.command;
    std::string out;
    auto comment = [&](std::string_view text) { comment_lines(out, text, " ", "#"); };
    comment(fmt::format("{}: shared-memory layout \"{}\" of a {}x{} tile of {}-bit elements: after every {} elements (a row), {} of "
                        "padding, so row m starts at element m*{}",
                        r.name, r.shared.description(), rows, cols, r.element_bits, cols, pad, *stride));
    comment(fmt::format("Generated by swizzle {}. Regenerate with:", SWZ_VERSION));
    comment("  " + command);
    if (r.problem) comment(fmt::format("Problem: {}: {}", r.problem->name, r.problem->description));
    out += "\nfrom triton.experimental.gluon import language as ttgl\n\n";
    out += fmt::format("{} = ttgl.PaddedSharedLayout.with_identity_for([[{}, {}]], [{}, {}], [1, 0])\n", r.name, cols, pad, rows, cols);
    out += fmt::format("\n# As an MLIR attribute:\n{}_mlir = \"#ttg.padded_shared<[{}:+{}] {{order = [1, 0], shape = [{}, {}]}}>\"\n", r.name,
                       cols, pad, rows, cols);
    return out;
  }
  const LinearLayout& lin = linear_or_fail(r, "a Triton layout");
  const KnownForms known = known_forms(r.shared, r.element_bits);
  const std::int64_t alignment = alignment_bytes(r, known);
  const std::string command = r.command.empty() ? default_command(r, ExportFormat::Triton, r.name + ".py") : r.command;
  std::string out;
  auto comment = [&](std::string_view text) { comment_lines(out, text, " ", "#"); };
  comment(fmt::format("{}: shared-memory layout \"{}\" of a {} tile of {}-bit elements", r.name, r.shared.description(),
                      shape_text(lin.shape()), r.element_bits));
  comment(fmt::format("Generated by swizzle {}. Regenerate with:", SWZ_VERSION));
  comment("  " + command);
  if (r.problem) comment(fmt::format("Problem: {}: {}", r.problem->name, r.problem->description));
  for (const std::string& n : known.names) comment("Known as: " + n);
  out += "#\n";
  comment("LinearLayout::toString():");
  comment(to_triton_text(lin));
  std::vector<std::string> bases;
  for (BitVec b : lin.bases("offset")) bases.push_back(fmt::format("[{}]", fmt::join(lin.unflatten(b), ", ")));
  out += "\nfrom triton.experimental.gluon import language as ttgl\n\n";
  out += fmt::format("{} = ttgl.SharedLinearLayout(\n    offset_bases=[{}],\n    block_bases=[],\n    alignment={},\n)\n", r.name,
                     fmt::join(bases, ", "), alignment);
  if (!known.triton_gluon.empty())
    out += fmt::format("\n# The same layout under its Triton name:\n{}_named = {}\n", r.name, known.triton_gluon);
  out += fmt::format("\n# As MLIR attributes:\n{}_mlir = \"{}\"\n", r.name,
                     to_mlir(lin, r.element_bits, static_cast<int>(alignment)));
  if (!known.triton_mlir.empty()) out += fmt::format("{}_named_mlir = \"{}\"\n", r.name, known.triton_mlir);
  return out;
}

std::string export_json(const ExportRequest& r) {
  check_request(r, ExportFormat::Json);
  const LinearLayout& lin = linear_or_fail(r, "a JSON layout");
  nlohmann::json j = layout_to_json(lin, r.element_bits);
  j["name"] = r.name;
  return j.dump(2) + "\n";
}

namespace {

// CuTe's shape or stride text ("((8,2),4)") as a type: cute::Shape<cute::Shape<cute::Int<8>, ...>, ...>.
std::string cute_tuple_type(std::string_view text, std::size_t& pos, const char* tuple) {
  if (pos < text.size() && text[pos] == '(') {
    ++pos;
    std::vector<std::string> items;
    while (true) {
      items.push_back(cute_tuple_type(text, pos, tuple));
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ')') {
        ++pos;
        break;
      }
      fail("malformed CuTe layout text '{}'", text);
    }
    return fmt::format("cute::{}<{}>", tuple, fmt::join(items, ", "));
  }
  const std::size_t start = pos;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
  if (pos == start) fail("malformed CuTe layout text '{}'", text);
  return fmt::format("cute::Int<{}>", text.substr(start, pos - start));
}

std::string cute_layout_type(std::string_view shape_stride) {
  const std::size_t colon = shape_stride.find(':');
  if (colon == std::string_view::npos) fail("malformed CuTe layout text '{}'", shape_stride);
  std::size_t pos = 0;
  const std::string_view shape = shape_stride.substr(0, colon), stride = shape_stride.substr(colon + 1);
  std::string shape_type = cute_tuple_type(shape, pos, "Shape");
  pos = 0;
  std::string stride_type = cute_tuple_type(stride, pos, "Stride");
  return fmt::format("cute::Layout<{}, {}>", shape_type, stride_type);
}

}  // namespace

std::string export_cute(const ExportRequest& r) {
  check_request(r, ExportFormat::Cute);
  if (const auto stride = padded_row_stride(r.shared)) {
    const std::int64_t rows = r.shared.shape()[0], cols = r.shared.shape()[1];
    const std::string form = fmt::format("(_{},_{}):(_{},_1)", rows, cols, *stride);
    const std::string command = r.command.empty() ? default_command(r, ExportFormat::Cute, r.name + ".hpp") : r.command;
    const std::string guard = upper(r.name) + "_CUTE_HPP";
    std::string out;
    comment_lines(out, fmt::format("{}.hpp: shared-memory layout \"{}\" of a {}x{} tile of {}-bit elements, in CuTe.", r.name,
                                   r.shared.description(), rows, cols, r.element_bits));
    comment_lines(out, fmt::format("CuTe form: {} (padding as a row stride, in elements).", form));
    out += "//\n";
    comment_lines(out, fmt::format("Generated by swizzle {}. Regenerate with:", SWZ_VERSION));
    comment_lines(out, command, "   ");
    if (r.problem) comment_lines(out, fmt::format("Problem: {}: {}", r.problem->name, r.problem->description));
    out += fmt::format("\n#ifndef {0}\n#define {0}\n\n#include <cute/layout.hpp>\n", guard);
    out += fmt::format("\nnamespace {} {{\n\n", r.name);
    out += fmt::format("// Element offset of (m, n): m*{} + n. No swizzle: the padding spreads the rows over the banks.\nusing layout = {};\n",
                       *stride, cute_layout_type(fmt::format("({},{}):({},1)", rows, cols, *stride)));
    out += fmt::format("\n}}  // namespace {}\n\n#endif  // {}\n", r.name, guard);
    return out;
  }
  const LinearLayout& lin = linear_or_fail(r, "a CuTe layout");
  const std::optional<std::string> form = to_cute(lin);
  if (!form)
    fail(
        "'{}' has no CuTe form: it is not a Swizzle<B,M,S> of a power-of-two shape:stride layout (use --format header or triton)",
        r.shared.description());
  // "Swizzle<B,M,S> o SHAPE:STRIDE" or a plain "SHAPE:STRIDE".
  std::string swizzle, base = *form;
  if (const std::size_t o = form->find(" o "); form->rfind("Swizzle<", 0) == 0 && o != std::string::npos) {
    swizzle = form->substr(0, o);
    base = form->substr(o + 3);
  }
  const std::string command = r.command.empty() ? default_command(r, ExportFormat::Cute, r.name + ".hpp") : r.command;
  const std::string guard = upper(r.name) + "_CUTE_HPP";
  std::string out;
  comment_lines(out, fmt::format("{}.hpp: shared-memory layout \"{}\" of a {} tile of {}-bit elements, in CuTe.", r.name,
                                 r.shared.description(), shape_text(lin.shape()), r.element_bits));
  comment_lines(out, fmt::format("CuTe form: {} (the swizzle acts on element offsets).", *form));
  out += "//\n";
  comment_lines(out, fmt::format("Generated by swizzle {}. Regenerate with:", SWZ_VERSION));
  comment_lines(out, command, "   ");
  if (r.problem) comment_lines(out, fmt::format("Problem: {}: {}", r.problem->name, r.problem->description));
  out += fmt::format("\n#ifndef {0}\n#define {0}\n\n#include <cute/layout.hpp>\n", guard);
  if (!swizzle.empty()) out += "#include <cute/swizzle.hpp>\n#include <cute/swizzle_layout.hpp>\n";
  out += fmt::format("\nnamespace {} {{\n\n", r.name);
  out += fmt::format("// Element offset of a coordinate before any swizzle.\nusing base_layout = {};\n", cute_layout_type(base));
  if (swizzle.empty()) {
    out += "// No swizzle: the layout is a plain shape:stride layout.\nusing layout = base_layout;\n";
  } else {
    const std::string args = swizzle.substr(8, swizzle.size() - 9);  // "B,M,S"
    int b = 0, m = 0, sh = 0;
    if (std::sscanf(args.c_str(), "%d,%d,%d", &b, &m, &sh) != 3) fail("malformed CuTe swizzle '{}'", swizzle);
    out += fmt::format("using swizzle = cute::Swizzle<{}, {}, {}>;\n", b, m, sh);
    if (r.element_bits >= 8)
      out += fmt::format(
          "// The same swizzle on byte addresses (as CuTe's shared-memory atoms and TMA apply it).\n"
          "using swizzle_bytes = cute::Swizzle<{}, {}, {}>;\n",
          b, m + std::countr_zero(static_cast<unsigned>(r.element_bits / 8)), sh);
    out +=
        "// The swizzled layout: layout{}(coord) is the element offset of coord.\n"
        "using layout = decltype(cute::composition(swizzle{}, base_layout{}));\n";
  }
  out += fmt::format("\n}}  // namespace {}\n\n#endif  // {}\n", r.name, guard);
  return out;
}

std::string export_text(const ExportRequest& r, ExportFormat format) {
  switch (format) {
    case ExportFormat::Header:
      return export_header(r);
    case ExportFormat::Triton:
      return export_triton(r);
    case ExportFormat::Cute:
      return export_cute(r);
    case ExportFormat::Json:
      return export_json(r);
  }
  fail("unknown export format");
}

ExportRequest ExportRequest::from_spec(const ProblemSpec& spec, std::string name) {
  ExportRequest r = from_problem(build_problem(spec), std::move(name));
  r.spec = spec;
  return r;
}

ExportRequest ExportRequest::from_problem(const Problem& problem, std::string name) {
  ExportRequest r;
  r.name = std::move(name);
  r.shared = problem.shared;
  r.element_bits = problem.element_bits;
  r.bank = problem.bank;
  r.problem = problem;
  r.spec = spec_of(problem);  // a preset's layout regenerates from its flags; others from the JSON file
  return r;
}

ExportRequest ExportRequest::from_layout(SharedLayout shared, int element_bits, std::string name, std::string origin) {
  ExportRequest r;
  r.name = std::move(name);
  r.layout_origin = std::move(origin);
  r.shared = std::move(shared);
  r.element_bits = element_bits;
  return r;
}

// [SECTION] Names, formats, commands

namespace {
constexpr std::array<std::string_view, 4> kFormatNames{"header", "triton", "cute", "json"};
constexpr std::array<std::string_view, 4> kFormatExtensions{".h", ".py", ".hpp", ".json"};

// C++20 keywords and alternative tokens, and names the generated code relies on.
constexpr std::string_view kCppReserved[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char", "char8_t",
    "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr", "constinit", "const_cast", "continue",
    "co_await", "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
    "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable",
    "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
    "register", "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast",
    "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union",
    "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
    // not keywords, but a namespace of that name breaks the header or its includes
    "std", "cute", "main", "uint32_t", "NULL", "assert", "errno", "defined"};
// Python keywords and the module alias the Triton output imports.
constexpr std::string_view kPythonReserved[] = {
    "False",  "None",     "True", "and",    "as",      "assert", "async",  "await",  "break", "class",  "continue", "def",
    "del",    "elif",     "else", "except", "finally", "for",    "from",   "global", "if",    "import", "in",       "is",
    "lambda", "nonlocal", "not",  "or",     "pass",    "raise",  "return", "try",    "while", "with",   "yield",    "ttgl"};
// Macros <cstdint> defines (INT8_MAX, UINT32_C, SIZE_MAX, ...) would expand inside the header.
constexpr std::string_view kMacroPrefixes[] = {"INT", "UINT", "SIZE_", "PTRDIFF_", "SIG_ATOMIC_", "WCHAR_", "WINT_"};

template <std::size_t N>
bool contains(const std::string_view (&list)[N], std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}
}  // namespace

std::string export_name_problem(std::string_view name, ExportFormat format) {
  if (name.empty()) return "the name is empty; give a C++ identifier such as tile_swizzle";
  if (name.size() > 64) return fmt::format("the name is {} characters long; at most 64", name.size());
  const auto is_alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  for (char c : name)
    if (!is_alpha(c) && !is_digit(c))
      return fmt::format("'{}' is not a C++ identifier: only letters, digits and '_' may appear (found '{}')", comment_safe(name),
                         comment_safe(std::string_view(&c, 1)));
  if (is_digit(name[0])) return fmt::format("'{}' is not a C++ identifier: it starts with a digit", name);
  if (name.find("__") != std::string_view::npos || (name[0] == '_' && name.size() > 1 && name[1] >= 'A' && name[1] <= 'Z'))
    return fmt::format("'{}' is reserved for the implementation in C++ (double underscore, or underscore + capital)", name);
  if (contains(kCppReserved, name))
    return fmt::format("'{}' is a C++ keyword or a name the generated code uses; choose another", name);
  const bool all_upper = std::none_of(name.begin(), name.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  for (std::string_view prefix : kMacroPrefixes)
    if (all_upper && name.substr(0, prefix.size()) == prefix)
      return fmt::format("'{}' may clash with a <cstdint> macro; choose another name", name);
  if (format == ExportFormat::Triton && contains(kPythonReserved, name))
    return fmt::format("'{}' is a Python keyword or a name the Triton output uses; choose another", name);
  return {};
}

void check_export_name(std::string_view name, ExportFormat format) {
  const std::string problem = export_name_problem(name, format);
  if (!problem.empty()) fail("invalid name: {}", problem);
}

ExportFormat parse_export_format(std::string_view text) {
  for (std::size_t i = 0; i < kFormatNames.size(); ++i)
    if (text == kFormatNames[i]) return static_cast<ExportFormat>(i);
  fail("unknown format '{}' (known: {})", comment_safe(text), fmt::join(kFormatNames, ", "));
}

std::string_view export_format_name(ExportFormat format) { return kFormatNames[static_cast<std::size_t>(format)]; }
std::string_view export_extension(ExportFormat format) { return kFormatExtensions[static_cast<std::size_t>(format)]; }

std::string shell_join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ' ';
    const bool plain = !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             std::strchr("_-+=.,/:@%", c) != nullptr;
    });
    if (plain) {
      out += w;
      continue;
    }
    out += '\'';
    for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::string default_command(const ExportRequest& r, ExportFormat format, const std::string& output_path) {
  std::vector<std::string> words{"swizzle", "export"};
  if (r.spec) {
    const std::vector<std::string> problem = problem_arguments(*r.spec, r.name);
    words.insert(words.end(), problem.begin(), problem.end());
  } else {
    words.insert(words.end(), {"--shared", r.layout_origin.empty() ? r.name + ".json" : r.layout_origin});
    if (!r.problem && r.element_bits != 32) words.insert(words.end(), {"--bits", std::to_string(r.element_bits)});
    if (r.problem && r.bank.banks != 32) words.insert(words.end(), {"--banks", std::to_string(r.bank.banks)});
  }
  words.insert(words.end(), {"--name", r.name});
  if (format != ExportFormat::Header) words.insert(words.end(), {"--format", std::string(export_format_name(format))});
  const std::string& out = r.output.empty() ? output_path : r.output;
  if (!out.empty() && out != "-") words.insert(words.end(), {"-o", out});
  return shell_join(words);
}

// [SECTION] Files

SolvedLayout solved_layout_from_json(const nlohmann::json& j, const std::string& origin) {
  if (!j.is_object()) fail("{}: a solve result is one JSON object", origin);
  if (!j.contains("shared")) fail("{}: no 'shared' layout in it (expected the output of `swizzle solve --json`)", origin);
  SolvedLayout s;
  if (j.contains("preset")) {
    if (!j.at("preset").is_string()) fail("{}: 'preset' must be a string", origin);
    s.preset = j.at("preset").get<std::string>();
  }
  LayoutFile f;
  try {
    f = layout_from_json(j.at("shared"));
  } catch (const Error& e) {
    fail("{}: 'shared': {}", origin, e.what());
  }
  if (f.kind != LayoutKind::Shared) fail("{}: 'shared' is a distributed layout; expected offset_bases", origin);
  s.shared = SharedLayout::from_linear(f.layout, origin);
  s.element_bits = f.element_bits;
  if (!s.element_bits && j.contains("element_bits") && j.at("element_bits").is_number_integer())
    s.element_bits = j.at("element_bits").get<int>();
  return s;
}

SolvedLayout load_solved_layout(const std::string& path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_text_file(path));
  } catch (const nlohmann::json::exception& e) {
    fail("{}: not valid JSON ({})", path, e.what());
  }
  return solved_layout_from_json(j, path);
}

}  // namespace swz
