// sm100_cute.cpp: CuTe's sm100 atom names and printouts, and which descriptor modes a tcgen05
// operand may use (sm100.h).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "swz/error.h"
#include "swz/layout/sm100.h"

namespace swz {

namespace {

struct CuteTypeBits {
  std::string_view name;
  int bits;
};
// CuTe's element types as atoms name them (cutlass/numeric_types.h, cute/numeric/numeric_types.hpp).
constexpr std::array<CuteTypeBits, 14> kSm100CuteTypes{{{"half_t", 16},
                                                        {"bfloat16_t", 16},
                                                        {"tfloat32_t", 32},
                                                        {"float", 32},
                                                        {"float_e4m3_t", 8},
                                                        {"float_e5m2_t", 8},
                                                        {"int8_t", 8},
                                                        {"uint8_t", 8},
                                                        {"int16_t", 16},
                                                        {"uint16_t", 16},
                                                        {"int32_t", 32},
                                                        {"uint32_t", 32},
                                                        {"double", 64},
                                                        {"uint64_t", 64}}};

std::string_view sm100_drop_prefix(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix ? text.substr(prefix.size()) : text;
}

// CuTe's default type name for a width (what an atom is printed with when no type was named).
std::string_view default_cute_type(int element_bits) {
  switch (element_bits) {
    case 8:
      return "float_e4m3_t";
    case 16:
      return "half_t";
    case 32:
      return "tfloat32_t";
    default:
      return "double";
  }
}

}  // namespace

std::optional<int> cute_type_bits(std::string_view type) {
  type = sm100_drop_prefix(sm100_drop_prefix(type, "cute::"), "cutlass::");
  for (const CuteTypeBits& t : kSm100CuteTypes)
    if (t.name == type) return t.bits;
  return std::nullopt;
}

std::optional<CuteAtom> parse_cute_atom(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  std::string_view name = sm100_drop_prefix(text, "cute::");
  const std::string_view bare = sm100_drop_prefix(sm100_drop_prefix(name, "UMMA::"), "GMMA::");
  if (bare.substr(0, 7) != "Layout_") return std::nullopt;
  const std::size_t open = bare.find('<');
  if (open == std::string_view::npos || bare.back() != '>')
    fail("'{}': a CuTe atom names its element type, Layout_K_SW128_Atom<half_t>", text);
  const std::string_view atom = bare.substr(0, open), type = bare.substr(open + 1, bare.size() - open - 2);
  CuteAtom out;
  for (const UmmaMode& mode : umma_modes())
    for (Major major : {Major::K, Major::MN})
      if (atom == (major == Major::K ? mode.k_atom : mode.mn_atom) && !atom.empty()) {
        out.mode = &mode;
        out.major = major;
      }
  if (!out.mode)
    fail("'{}' is no CuTe sm100 atom: Layout_{{K,MN}}_{{INTER,SW32,SW64,SW128}}_Atom or Layout_MN_SW128_32B_Atom", atom);
  // The 32-byte atom is UMMA's alone (mma_traits_sm100.hpp); GMMA has the others.
  if (out.mode->layout_type == 1 && name.substr(0, 6) == "GMMA::")
    fail("'{}': Layout_MN_SW128_32B_Atom is UMMA's (sm_100), not GMMA's", text);
  const std::optional<int> bits = cute_type_bits(type);
  if (!bits)
    fail(
        "'{}': element type '{}' is not one of CuTe's: half_t, bfloat16_t, tfloat32_t, float, float_e4m3_t, float_e5m2_t, "
        "int8_t, uint8_t, ...",
        text, type);
  out.element_bits = *bits;
  out.type = std::string(type);
  return out;
}

std::string cute_atom_name(const CuteAtom& atom) {
  const char* name = atom.major == Major::K ? atom.mode->k_atom : atom.mode->mn_atom;
  if (!*name) return {};
  const std::string_view type = atom.type.empty() ? default_cute_type(atom.element_bits) : std::string_view(atom.type);
  return fmt::format("UMMA::{}<{}>", name, type);
}

std::vector<std::int64_t> cute_atom_shape(const CuteAtom& atom) {
  const std::int64_t along = atom.mode->span_bytes * 8 / atom.element_bits, rows = atom.mode->atom_rows;
  return atom.major == Major::K ? std::vector<std::int64_t>{rows, along} : std::vector<std::int64_t>{along, rows};
}

// CuTe prints ComposedLayout<Swizzle, smem_ptr_flag_bits<N>, Layout> as "Sw<B,M,S> o smem_ptr[Nb](unset) o L",
// the layout upcast to elements: K-major (_rows,_along):(_along,_1), MN-major (_along,_rows):(_1,_along).
std::string cute_atom_printout(const CuteAtom& atom) {
  const auto shape = cute_atom_shape(atom);
  const ByteSwizzle& s = atom.mode->swizzle;
  const std::int64_t along = atom.major == Major::K ? shape[1] : shape[0];
  const std::string layout = atom.major == Major::K ? fmt::format("(_{},_{}):(_{},_1)", shape[0], shape[1], along)
                                                    : fmt::format("(_{},_{}):(_1,_{})", shape[0], shape[1], along);
  return fmt::format("Sw<{},{},{}> o smem_ptr[{}b](unset) o {}", s.b, s.m, s.s, atom.element_bits, layout);
}

SharedLayout cute_atom_layout(const CuteAtom& atom, const std::vector<std::int64_t>& shape) {
  std::string name = cute_atom_name(atom);
  if (name.empty()) fail("CuTe has no {}-major atom for tcgen05 {}", major_name(atom.major), atom.mode->name);
  name += fmt::format(" (tcgen05 {}, Swizzle<{},{},{}> on byte addresses)", atom.mode->name, atom.mode->swizzle.b,
                      atom.mode->swizzle.m, atom.mode->swizzle.s);
  return byte_swizzled_tile(atom.mode->swizzle, atom.mode->span_bytes, atom.major, shape.empty() ? cute_atom_shape(atom) : shape,
                            atom.element_bits, 0, name);
}

namespace {

// An operand type's canonical name: the tcgen05 kinds' spellings, CuTe's and MLIR's alike.
std::string_view tcgen05_type(std::string_view type) {
  struct Alias {
    std::string_view name, canonical;
  };
  static constexpr std::array<Alias, 22> aliases{
      {{"tf32", "tf32"},         {"f32", "tf32"},  {"tfloat32_t", "tf32"}, {"float", "tf32"},        {"f16", "f16"},
       {"half_t", "f16"},        {"bf16", "bf16"}, {"bfloat16_t", "bf16"}, {"e4m3", "e4m3"},         {"f8E4M3FN", "e4m3"},
       {"float_e4m3_t", "e4m3"}, {"e5m2", "e5m2"}, {"f8E5M2", "e5m2"},     {"float_e5m2_t", "e5m2"}, {"i8", "i8"},
       {"int8_t", "i8"},         {"u8", "i8"},     {"uint8_t", "i8"},      {"e2m1", "f4"},           {"f4E2M1FN", "f4"},
       {"e3m2", "f6"},           {"e2m3", "f6"}}};
  for (const Alias& a : aliases)
    if (a.name == type) return a.canonical;
  fail("'{}' is no tcgen05 operand type: tf32 (f32), f16, bf16, e4m3, e5m2, i8, u8, e2m1, e3m2, e2m3", type);
}

}  // namespace

std::vector<const UmmaMode*> tcgen05_operand_modes(std::string_view type, Major major) {
  const std::string_view t = tcgen05_type(type);
  auto mode = [](int field) { return &umma_mode_of_field(field); };
  const std::vector<const UmmaMode*> sm90_order{mode(2), mode(4), mode(6), mode(0)};
  if (major == Major::K) return sm90_order;
  if (t == "f4" || t == "f6")
    fail(
        "tcgen05 reads {} operands K-major only (the instruction descriptor's major bit is valid for e4m3, e5m2, i8, "
        "f16, bf16 and tf32)",
        type);
  if (t == "tf32") return {mode(1)};
  return sm90_order;
}

std::string tcgen05_operand_rule(std::string_view type, Major major) {
  const auto modes = tcgen05_operand_modes(type, major);
  std::vector<std::string> names;
  for (const UmmaMode* m : modes) names.push_back(m->name);
  if (modes.size() == 1 && modes[0]->layout_type == 1)
    return fmt::format(
        "{} {}-major on tcgen05: {} (Swizzle<2,5,2> on byte addresses, CuTe's Layout_MN_SW128_32B_Atom) is "
        "the only layout; #ttg.nvmma_shared cannot express it (no 32-byte-atom form)",
        type, major_name(major), modes[0]->name);
  return fmt::format("{} {}-major on tcgen05: {}", type, major_name(major), fmt::join(names, ", "));
}

int tcgen05_operand_bits(std::string_view type) {
  const std::string_view t = tcgen05_type(type);
  if (t == "tf32") return 32;
  if (t == "f16" || t == "bf16") return 16;
  if (t == "f4" || t == "f6") fail("{} operands are packed below a byte; their tiles are not modelled here", type);
  return 8;
}

CuteAtom tcgen05_operand_atom(std::string_view type, Major major) {
  const std::string_view t = tcgen05_type(type);
  const int bits = tcgen05_operand_bits(type);
  const std::string_view cute_type = t == "f16"    ? "half_t"
                                     : t == "bf16" ? "bfloat16_t"
                                     : t == "e5m2" ? "float_e5m2_t"
                                     : t == "i8"   ? "int8_t"
                                                   : default_cute_type(bits);
  return CuteAtom{tcgen05_operand_modes(type, major).front(), major, bits, std::string(cute_type)};
}

SharedLayout tcgen05_operand_layout(std::string_view type, Major major, const std::vector<std::int64_t>& shape) {
  return cute_atom_layout(tcgen05_operand_atom(type, major), shape);
}

const TmaMode* tma_mode_for(const UmmaMode& mode) {
  for (const TmaMode& t : tma_modes())
    if (t.swizzle.b == mode.swizzle.b && t.swizzle.m == mode.swizzle.m && t.swizzle.s == mode.swizzle.s && !t.swizzle.flip_8b)
      return &t;
  return nullptr;
}

Tcgen05Answer tcgen05_operand_answer(std::string_view type, Major major, const std::vector<std::int64_t>& shape) {
  Tcgen05Answer a;
  a.type = std::string(type);
  a.major = major;
  a.modes = tcgen05_operand_modes(type, major);
  a.atom = tcgen05_operand_atom(type, major);
  a.atom_name = cute_atom_name(a.atom);
  a.atom_printout = cute_atom_printout(a.atom);
  a.tma = tma_mode_for(*a.atom.mode);
  a.descriptor_bits = umma_descriptor_swizzle_bits(*a.atom.mode, 0);
  a.nvmma_expressible = a.atom.mode->swizzle.m == 4;
  a.rule = tcgen05_operand_rule(type, major);
  a.layout = cute_atom_layout(a.atom, shape);
  return a;
}

}  // namespace swz
