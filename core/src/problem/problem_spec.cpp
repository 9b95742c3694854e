#include "swz/problem/problem_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>

#include "../int_bits.h"
#include "spec_fields.h"
#include "swz/error.h"
#include "swz/export/english.h"
#include "swz/io/json_describe.h"
#include "swz/io/layout_io.h"
#include "swz/io/limits.h"
#include "swz/layout/factories.h"
#include "swz/sim/gpu.h"
#include "swz/solve/solver.h"

namespace swz {

using nlohmann::json;
using spec_detail::parse_spec_text;
using spec_detail::refused_field;
using spec_detail::use_gpu;

namespace {

// [SECTION] Fields: the JSON key and the flag of each, so every message names both.

const std::vector<ProblemFlag> kFlags = {
    {"--spec", "spec", &ProblemArguments::spec,
     "The whole problem as one JSON object (the keys below), e.g. a session's 'problem'"},
    {"--preset", "preset", &ProblemArguments::preset,
     "Preset problem to start from (see `swizzle presets`; default transpose16x32)"},
    {"--mask", "masks", &ProblemArguments::mask,
     "Toggle-grid masks C_j per row bit, lowest first (1,2,4,8 = XOR m; 2,4,8,16 = XOR 2m)"},
    {"--layout", "variant", &ProblemArguments::layout, "A preset's named shared layout (e.g. xor-2m, padded, swizzle323)"},
    {"--shared", "shared", &ProblemArguments::shared,
     "Shared layout file (JSON offset_bases, Triton text, a Triton attribute such as #ttg.nvmma_shared, CuTe)"},
    {"--src", "writer", &ProblemArguments::src,
     "Writer (A) layout file (JSON, Triton text, a Triton attribute such as #ttg.blocked<...>)"},
    {"--dst", "reader", &ProblemArguments::dst,
     "Reader (B) layout file (JSON, Triton text, a Triton attribute such as #ttg.dot_op<...>)"},
    {"--shape", "shape", &ProblemArguments::shape,
     "ROWSxCOLS (powers of two from 2 to 32768), e.g. 64x128: the preset redrawn as a transpose of that tile, and the tensor "
     "a bare Triton attribute in a layout file lays out"},
    {"--bits", "element_bits", &ProblemArguments::bits,
     "Element width in bits: 4, 8, 16, 32 or 64 (default: the preset's, or the files')"},
    {"--gpu", "gpu", &ProblemArguments::gpu,
     "GPU: sm_90 (H100, H200; default), sm_80 (A100), sm_100 (B200), gfx942 (MI300X), gfx950 (MI355X), or an alias: its "
     "banks, lanes, phases and instructions (--banks and --warp-size may only repeat its own)"},
    {"--banks", "banks", &ProblemArguments::banks, "Number of banks: a power of two from 1 to 64 (32; 8 for the toy GPU)"},
    {"--warp-size", "warp_size", &ProblemArguments::warp_size, "Lanes per warp: 32, or 64 for a 64-lane wave (AMD wave64)"},
    {"--write-vec-bits", "write_vec_bits", &ProblemArguments::write_vec_bits,
     "Widest vector the writer may use, bits per lane: 8, 16, 32, 64 or 128"},
    {"--read-vec-bits", "read_vec_bits", &ProblemArguments::read_vec_bits,
     "Widest vector the reader may use, bits per lane: 8, 16, 32, 64 or 128"},
    {"--write-matrix", "write_matrix", &ProblemArguments::write_matrix,
     "The writer issues stmatrix: x1, x2 or x4 matrices, .trans for the transposing form (x4.trans); its layout gives the "
     "16-byte rows lanes address"},
    {"--read-matrix", "read_matrix", &ProblemArguments::read_matrix,
     "The reader issues ldmatrix, as --write-matrix (x1, x2, x4, x4.trans)"},
    {"--write-copy", "write_copy", &ProblemArguments::write_copy,
     "The writer issues cp.async from global memory: ca through L1 (rule 4 of the bank model) or cg around it (16 bytes a lane; rule 5)"},
    {"--global-dim", "global_dim", &ProblemArguments::global_dim,
     "cp.async: the global tensor's contiguous dim (default: the last, row-major)"},
    {"--global-pitch", "global_pitch", &ProblemArguments::global_pitch,
     "cp.async: bytes between the global tensor's rows (default: the smallest multiple of 128 that holds a row)"},
    {"--global-layout", "global_layout", &ProblemArguments::global_layout,
     "cp.async: each element's place in global memory, as a layout file of offsets over the tile (instead of dim and pitch)"},
};

}  // namespace

std::string spec_detail::field(const char* key) {
  for (const ProblemFlag& f : kFlags)
    if (std::string_view(f.key) == key) return fmt::format("{} ({})", f.key, f.flag);
  return key;
}

namespace {

using spec_detail::field;

[[noreturn]] void field_error(const char* key, const std::string& what) { fail("{}: {}", field(key), what); }

using int_bits::pow2;

// `text` as a T when all of it is one: decimal digits (a leading '-' allowed) in T's range.
template <class T>
std::optional<T> spec_whole_number(const std::string& text) {
  T v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return !text.empty() && ec == std::errc() && ptr == text.data() + text.size() ? std::optional<T>(v) : std::nullopt;
}

int parse_int(const std::string& text, const char* key) {
  if (const auto v = spec_whole_number<int>(text)) return *v;
  field_error(key, fmt::format("'{}' is not a whole number", text));
}

// The ranges every form shares: each returns why a value is refused ("" when it is not).
std::string element_bits_problem(int bits) {
  return bits == 0 || bits == 4 || bits == 8 || bits == 16 || bits == 32 || bits == 64
             ? ""
             : fmt::format("{} is not 4, 8, 16, 32 or 64", bits);
}
std::string banks_problem(int banks) {
  return banks == 0 || (pow2(banks) && banks <= 64) ? "" : fmt::format("{} is not a power of two from 1 to 64", banks);
}
std::string warp_size_problem(int lanes) {
  return lanes == 0 || (pow2(lanes) && lanes <= 64) ? "" : fmt::format("{} is not a power of two up to 64", lanes);
}
std::string gpu_problem(const std::string& name) {
  if (name.empty()) return "";
  try {
    (void)gpu_named(name);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
std::string vec_bits_problem(int bits) {
  return bits == 0 || (pow2(bits) && bits >= 8 && bits <= 128) ? "" : fmt::format("{} is not 8, 16, 32, 64 or 128", bits);
}
// "x4", "x2.trans", ...: the matrices and .trans of an ldmatrix / stmatrix side.
std::optional<InstructionKind> matrix_form(const std::string& text, bool load) {
  const auto kind = parse_instruction_kind(std::string(load ? "LDSM." : "STSM.") + text);
  if (!kind || !kind->is_matrix()) return std::nullopt;
  return kind;
}
std::string matrix_problem(const std::string& text, bool load) {
  return text.empty() || matrix_form(text, load)
             ? ""
             : fmt::format("'{}' is not x1, x2 or x4 (.trans for the transposing form)", text);
}
std::string shape_problem(const std::vector<std::int64_t>& shape) {
  if (shape.empty()) return "";
  if (shape.size() != 2) return fmt::format("a tile is ROWSxCOLS; {} sizes given", shape.size());
  for (auto s : shape)
    if (!pow2(s) || s < 2 || s > kMaxTileSide) return fmt::format("{} is not a power of two from 2 to {}", s, kMaxTileSide);
  return "";
}

}  // namespace

void spec_detail::refuse_field(const char* key, const std::string& what) { field_error(key, what); }

std::optional<std::pair<const char*, std::string>> spec_detail::refused_field(const ProblemSpec& s) {
  const std::pair<const char*, std::string> checks[] = {
      {"shape", shape_problem(s.shape)},
      {"element_bits", element_bits_problem(s.element_bits)},
      {"gpu", gpu_problem(s.gpu)},
      {"banks", banks_problem(s.banks)},
      {"warp_size", warp_size_problem(s.warp_size)},
      {"write_vec_bits", vec_bits_problem(s.write_vec_bits)},
      {"read_vec_bits", vec_bits_problem(s.read_vec_bits)},
      {"write_matrix", matrix_problem(s.write_matrix, /*load=*/false)},
      {"read_matrix", matrix_problem(s.read_matrix, /*load=*/true)},
  };
  for (const auto& c : checks)
    if (!c.second.empty()) return c;
  return spec_detail::refused_copy_field(s);
}

namespace {

void check_shape(const std::vector<std::int64_t>& shape) {
  if (const std::string why = shape_problem(shape); !why.empty()) field_error("shape", why);
}

std::string name_of(const SpecLayout& l) { return l.origin.empty() ? "the layout" : l.origin; }

// "the problem's tensor is 16x32 (preset transpose16x32, the default)": where the tensor a layout
// must cover comes from, so a user who named no preset learns which one the problem is.
std::string problem_tensor(const std::vector<std::int64_t>& shape, const ProblemSpec& s) {
  const std::string from = !s.shape.empty() ? field("shape")
                           : s.preset.empty()
                               ? std::string("the writer's")
                               : fmt::format("preset {}{}", s.preset, s.preset == kDefaultPreset ? ", the default" : "");
  return fmt::format("the problem's tensor is {} ({})", fmt::join(shape, "x"), from);
}

Access replaced_access(const SpecLayout& l, AccessKind kind, const std::vector<std::int64_t>& shape, const char* key,
                       const ProblemSpec& s) {
  if (!l.layout.has_in_dim("register") || !l.layout.has_in_dim("lane"))
    field_error(key, fmt::format("{} is not a distributed layout (register/lane/warp bases)", name_of(l)));
  if (l.layout.shape() != shape)
    field_error(
        key, fmt::format("{} covers a {} tensor but {}", name_of(l), fmt::join(l.layout.shape(), "x"), problem_tensor(shape, s)));
  return Access{l.layout, kind, /*ldmatrix=*/0, /*vec_bits=*/0};
}

// The element width the spec's layouts state, all agreeing with each other and with `element_bits`
// (--bits) when given; 0 when none states one.
int stated_element_bits(const ProblemSpec& s) {
  int stated = 0;
  const char* stated_by = nullptr;
  for (const auto& [l, key] : {std::pair{&s.writer, "writer"}, std::pair{&s.reader, "reader"}, std::pair{&s.shared, "shared"}}) {
    if (!*l || !(*l)->element_bits) continue;
    const int bits = *(*l)->element_bits;
    if (s.element_bits && bits != s.element_bits)
      field_error(
          key, fmt::format("{} states {}-bit elements but {} is {}", name_of(**l), bits, field("element_bits"), s.element_bits));
    if (stated && bits != stated)
      field_error(
          key, fmt::format("{} states {}-bit elements but {} states {}-bit ones", name_of(**l), bits, field(stated_by), stated));
    stated = bits;
    stated_by = key;
  }
  return stated;
}

// The shared layout is one choice: a second one beside it would be dropped without a word.
void check_one_shared_choice(const ProblemSpec& s) {
  std::vector<std::string> given;
  if (s.shared) given.push_back(fmt::format("{} {}", field("shared"), name_of(*s.shared)));
  if (!s.variant.empty()) given.push_back(fmt::format("{} '{}'", field("variant"), s.variant));
  if (!s.masks.empty()) given.push_back(fmt::format("{} {}", field("masks"), format_masks(s.masks)));
  if (given.size() > 1)
    fail("{} given beside {}: the shared layout is one of shared (--shared), variant (--layout) and masks (--mask)", given[1],
         given[0]);
}

SpecLayout read_layout(const std::string& path, bool shared, const char* key, std::optional<int>& element_bits,
                       const LayoutHints& hints, const TextSource& files) {
  LayoutFile f;
  try {
    f = load_layout_file(path, hints, files);
  } catch (const Error& e) {
    field_error(key, e.what());
  }
  if ((f.kind == LayoutKind::Shared) != shared)
    field_error(key, fmt::format("{}: expected a {} layout ({}), found a {} one", path, shared ? "shared" : "distributed",
                                 shared ? "offset_bases" : "register/lane/warp bases", shared ? "distributed" : "shared"));
  if (f.element_bits && !shared) {
    if (element_bits && *element_bits != *f.element_bits)
      field_error(key, fmt::format("{}: element_bits {} differs from the other file's {}", path, *f.element_bits, *element_bits));
    element_bits = f.element_bits;
  }
  return SpecLayout{std::move(f.layout), path, f.element_bits};
}

}  // namespace

const std::vector<ProblemFlag>& problem_flags() { return kFlags; }

std::optional<std::string>& ProblemArguments::slot(std::string_view flag) {
  for (const ProblemFlag& f : kFlags)
    if (flag == f.flag) return this->*f.argument;
  fail("'{}' is not a problem flag", flag);
}

// [SECTION] Building

Problem custom_transpose(const std::vector<std::int64_t>& shape, int ebits, int warp_lanes) {
  check_shape(shape);
  if (shape.empty()) field_error("shape", "a custom tile needs a shape");
  if (ebits != 8 && ebits != 16 && ebits != 32 && ebits != 64)
    field_error("element_bits", fmt::format("a transpose tile takes 8, 16, 32 or 64-bit elements, not {}", ebits));
  const std::int64_t v = std::min<std::int64_t>(128 / ebits, std::min(shape[0], shape[1]));
  const std::int64_t lanes = warp_lanes;
  const std::int64_t t1 = std::min<std::int64_t>(lanes, shape[1] / v), t0 = lanes / t1;
  const std::int64_t r1 = std::min<std::int64_t>(lanes, shape[0] / v), r0 = lanes / r1;
  const std::int64_t elements = shape[0] * shape[1];
  const std::int64_t warps = std::clamp<std::int64_t>(elements / (lanes * v * 8), 1, 4);
  Problem p;
  p.name = "custom";
  p.description = fmt::format("{}x{} {}-bit transpose over {} warp{}: row copies in, column reads out", shape[0], shape[1], ebits,
                              warps, warps == 1 ? "" : "s");
  p.shape = shape;
  p.element_bits = ebits;
  p.store = Access{blocked({1, v}, {t0, t1}, {warps, 1}, {1, 0}, shape), AccessKind::Store, 0, 0};
  p.read = Access{blocked({v, 1}, {r1, r0}, {1, warps}, {0, 1}, shape), AccessKind::Load, 0, 0};
  p.bank.warp_size = warp_lanes;
  p.grid = grid_for(p);
  p.variants.push_back({"unswizzled", std::vector<std::uint32_t>{}, std::nullopt});
  p.set_masks({});
  return p;
}

Problem build_problem(const ProblemSpec& given) {
  if (const auto refused = refused_field(given)) field_error(refused->first, refused->second);
  check_one_shared_choice(given);
  ProblemSpec s = given;  // the element width the layouts state stands for --bits left out
  if (!s.element_bits)
    s.element_bits = stated_element_bits(given);
  else
    (void)stated_element_bits(given);
  Problem p;
  bool regrid = false;
  if (s.preset.empty()) {
    if (!s.writer || !s.reader)
      field_error("preset", "a custom problem (no preset) needs both the writer (--src) and the reader (--dst)");
    // A custom problem's shape is its layouts'; --shape may say it again (it shapes bare Triton attributes).
    if (!s.shape.empty() && s.shape != s.writer->layout.shape())
      field_error("shape", fmt::format("is {} but the layouts cover a {} tensor", fmt::join(s.shape, "x"),
                                       fmt::join(s.writer->layout.shape(), "x")));
    p.name = "custom";
    p.shape = s.writer->layout.shape();
    p.element_bits = s.element_bits ? s.element_bits : 16;
    p.store = replaced_access(*s.writer, AccessKind::Store, p.shape, "writer", s);
    p.read = replaced_access(*s.reader, AccessKind::Load, p.shape, "reader", s);
    p.description =
        fmt::format("{} {}-bit: writer {}, reader {}", fmt::join(p.shape, "x"), p.element_bits,
                    s.writer->origin.empty() ? "given" : s.writer->origin, s.reader->origin.empty() ? "given" : s.reader->origin);
    p.shared = row_major(p.shape);
    regrid = p.shape.size() == 2;
  } else {
    try {
      p = make_preset(s.preset);
    } catch (const Error& e) {
      field_error("preset", e.what());
    }
    if (!s.shape.empty() && s.shape != p.shape) {
      const std::string preset = p.name;
      p = custom_transpose(s.shape, s.element_bits ? s.element_bits : p.element_bits);
      p.name = preset;
    }
    if (s.element_bits && s.element_bits != p.element_bits) {
      p.element_bits = s.element_bits;
      regrid = true;
    }
    if (s.writer) {
      p.store = replaced_access(*s.writer, AccessKind::Store, p.shape, "writer", s);
      regrid = true;
    }
    if (s.reader) {
      p.read = replaced_access(*s.reader, AccessKind::Load, p.shape, "reader", s);
      regrid = true;
    }
  }
  // Every element needs a thread to write it and one to read it (the solver refuses the same, in the same words).
  for (const auto& [access, key] : {std::pair{&p.store, "writer"}, std::pair{&p.read, "reader"}})
    if (const std::string gap = coverage_gap(access->layout); !gap.empty())
      field_error(key, fmt::format("the {} does not cover the tensor: {}", key, gap));
  if (!s.gpu.empty()) {
    use_gpu(p, s);
    regrid = true;
  }
  p.bank = spec_bank_model(s, p.bank);
  const int lanes = 1 << std::max(p.store.layout.in_dim_bits("lane"), p.read.layout.in_dim_bits("lane"));
  if (lanes > p.bank.warp_size)
    field_error("warp_size", fmt::format("the layouts have {} lanes but the warp has {}{}", lanes, p.bank.warp_size,
                                         lanes == 64 ? " (give --warp-size 64 for a 64-lane wave, as on AMD wave64)" : ""));
  check_bank_model(p.bank);
  if (s.write_vec_bits) p.store.vec_bits = s.write_vec_bits;
  if (s.read_vec_bits) p.read.vec_bits = s.read_vec_bits;
  for (const auto& [bits, key] : {std::pair{s.write_vec_bits, "write_vec_bits"}, std::pair{s.read_vec_bits, "read_vec_bits"}})
    if (bits && bits < p.element_bits)
      field_error(key, fmt::format("{} is narrower than one {}-bit element", with_article(fmt::format("{}-bit vector", bits)),
                                   p.element_bits));
  // stmatrix / ldmatrix: 16-byte rows of elements up to 32 bits (.trans: 16-bit ones), 32-lane warps.
  for (const bool load : {false, true}) {
    const std::string& text = load ? s.read_matrix : s.write_matrix;
    if (text.empty()) continue;
    const char* key = load ? "read_matrix" : "write_matrix";
    const InstructionKind kind = *matrix_form(text, load);
    try {
      check_instruction(kind, p.bank);
    } catch (const Error& e) {
      field_error(key, e.what());
    }
    if (load ? s.read_vec_bits : s.write_vec_bits)
      field_error(
          key, fmt::format("{} moves 16-byte rows: leave out {}", kind.name(), field(load ? "read_vec_bits" : "write_vec_bits")));
    if (p.element_bits > 32 || (kind.trans && p.element_bits != 16))
      field_error(key, fmt::format("{} does not move {}-bit elements ({} 16-bit ones)", kind.name(), p.element_bits,
                                   kind.trans ? "only" : "up to 32-bit, .trans only"));
    if (p.bank.warp_size != 32) field_error(key, fmt::format("{} needs 32-lane warps", kind.name()));
    Access& side = load ? p.read : p.store;
    side.ldmatrix = kind.matrices;
    side.trans = kind.trans;
  }
  spec_detail::apply_copy_side(p, s);  // before the grid and the named widths: a copy's vector ends where global memory's does
  regrid = regrid || !s.write_copy.empty() || s.banks || s.warp_size || s.write_vec_bits || s.read_vec_bits || !s.write_matrix.empty() ||
           !s.read_matrix.empty();
  if (regrid && p.shape.size() == 2) {
    try {
      p.grid = grid_for(p);
    } catch (const Error&) {
      p.grid.reset();  // not a row-major tile of these accesses: no toggle grid, the layouts still analyze
    }
    if (p.grid) p.set_masks({});
  }
  if (s.shared && s.shared->layout.shape() != p.shape)  // before the layout's tables are built (2^24 elements take a second)
    field_error("shared", fmt::format("{} covers a {} tensor but {}", name_of(*s.shared),
                                      fmt::join(s.shared->layout.shape(), "x"), problem_tensor(p.shape, s)));
  try {
    if (s.shared) {
      p.set_shared(SharedLayout::from_linear(s.shared->layout, s.shared->origin));
    } else if (!s.variant.empty()) {
      p.apply_variant(s.variant);
    } else if (!s.masks.empty() || p.grid) {
      p.set_masks(s.masks);
    }
  } catch (const Error& e) {
    field_error(s.shared ? "shared" : !s.variant.empty() ? "variant" : "masks", e.what());
  }
  // A side whose instruction the user named issues it under the shared layout as the solver reads
  // its answer (solver.h: issue_as_named), so analyze prices that answer on these layouts.
  const std::vector<BitVec> held[2] = {p.read.layout.bases("register"), p.store.layout.bases("register")};
  for (const bool load : {false, true}) {
    const bool matrix = !(load ? s.read_matrix : s.write_matrix).empty();
    if (!matrix && !(load ? s.read_vec_bits : s.write_vec_bits)) continue;
    Access& side = load ? p.read : p.store;
    try {
      side = issue_as_named(side, p.shared, p.element_bits, p.bank, &held[load ? 1 : 0]);
    } catch (const Error& e) {
      field_error(load ? (matrix ? "read_matrix" : "read_vec_bits") : (matrix ? "write_matrix" : "write_vec_bits"), e.what());
    }
  }
  spec_detail::check_copy_width(p);
  return p;
}

std::optional<ProblemSpec> spec_of(const Problem& p) {
  ProblemSpec s;
  s.preset = p.name;
  Problem preset;
  try {
    preset = make_preset(p.name);
  } catch (const Error&) {
    return std::nullopt;
  }
  if (p.bank.gpu != preset.bank.gpu) s.gpu = gpu_of(p.bank).name;
  const BankModel& base = s.gpu.empty() ? preset.bank : gpu_named(s.gpu).bank;
  if (p.bank.banks != base.banks) s.banks = p.bank.banks;
  if (p.bank.warp_size != base.warp_size) s.warp_size = p.bank.warp_size;
  const auto candidates = [&]() {
    std::vector<ProblemSpec> out;
    if (p.grid) {
      ProblemSpec m = s;
      m.masks = p.masks;
      trim_masks(m.masks);
      out.push_back(m);
    }
    for (const Variant& v : p.variants) {
      ProblemSpec named = s;
      if (v.masks)
        named.masks = *v.masks;
      else
        named.variant = v.name;
      out.push_back(named);
    }
    return out;
  }();
  for (const ProblemSpec& c : candidates) {
    try {
      const Problem again = build_problem(c);
      if (again.shared == p.shared && again.store.layout == p.store.layout && again.read.layout == p.read.layout &&
          again.element_bits == p.element_bits && again.bank == p.bank && !p.store.async_copy)  // a copy's source is no preset's
        return c;
    } catch (const Error&) {
    }
  }
  return std::nullopt;
}

// [SECTION] Command line

std::vector<std::int64_t> parse_shape(const std::string& text) {
  std::vector<std::int64_t> out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t x = text.find('x', pos);
    const std::string item = text.substr(pos, x == std::string::npos ? std::string::npos : x - pos);
    const auto v = spec_whole_number<std::int64_t>(item);
    if (!v) field_error("shape", fmt::format("'{}' is not ROWSxCOLS (e.g. 64x128)", text));
    out.push_back(*v);
    if (x == std::string::npos) break;
    pos = x + 1;
  }
  check_shape(out);
  return out;
}

ProblemSpec parse_problem_arguments(const ProblemArguments& a, bool check_problem, const TextSource& files) {
  ProblemSpec s;
  if (a.spec) {
    for (const ProblemFlag& f : kFlags)
      if (f.argument != &ProblemArguments::spec && a.*f.argument)
        fail("--spec gives the whole problem: leave out the other problem flags");
    s = parse_spec_text(read_text(*a.spec, files), *a.spec);
    if (check_problem) (void)build_problem(s);  // checked now, before any work
    return s;
  }
  const int shared_choices = (a.mask ? 1 : 0) + (a.layout ? 1 : 0) + (a.shared ? 1 : 0);
  if (shared_choices > 1) fail("give only one of --mask, --layout and --shared");
  const bool custom = a.src && a.dst && !a.preset;
  s.preset = custom ? "" : a.preset.value_or(kDefaultPreset);
  if (a.preset && a.preset->empty()) field_error("preset", "an empty name (see `swizzle presets`)");
  if (a.shape) s.shape = parse_shape(*a.shape);
  if (a.bits) {
    s.element_bits = parse_int(*a.bits, "element_bits");
    if (s.element_bits == 0) field_error("element_bits", "0 is not 4, 8, 16, 32 or 64");
  }
  // --shape and --bits also give a bare Triton attribute (#ttg.blocked<...>) its tensor.
  const LayoutHints hints{s.shape, s.element_bits ? std::optional<int>(s.element_bits) : std::nullopt};
  std::optional<int> file_bits;
  if (a.src) s.writer = read_layout(*a.src, /*shared=*/false, "writer", file_bits, hints, files);
  if (a.dst) s.reader = read_layout(*a.dst, /*shared=*/false, "reader", file_bits, hints, files);
  if (a.bits) {
    if (file_bits && *file_bits != s.element_bits)
      field_error("element_bits", fmt::format("{} differs from the files' element_bits {}", s.element_bits, *file_bits));
  } else if (file_bits) {
    s.element_bits = *file_bits;
  }
  const auto number = [](const std::optional<std::string>& text, const char* key, int& out) {
    if (!text) return;
    out = parse_int(*text, key);
    if (out == 0) field_error(key, "0 is not allowed (leave the flag out for the default)");
  };
  if (a.gpu) s.gpu = *a.gpu;
  number(a.banks, "banks", s.banks);
  number(a.warp_size, "warp_size", s.warp_size);
  number(a.write_vec_bits, "write_vec_bits", s.write_vec_bits);
  number(a.read_vec_bits, "read_vec_bits", s.read_vec_bits);
  s.write_matrix = a.write_matrix.value_or("");
  s.read_matrix = a.read_matrix.value_or("");
  s.write_copy = a.write_copy.value_or("");
  if (a.global_dim) s.global_dim = parse_int(*a.global_dim, "global_dim");
  if (a.global_pitch) {
    const auto pitch = spec_whole_number<std::int64_t>(*a.global_pitch);
    if (!pitch || *pitch <= 0)
      field_error("global_pitch", fmt::format("'{}' is not a whole number of bytes from 1 to 2^30", *a.global_pitch));
    s.global_pitch = *pitch;
  }
  if (a.global_layout) {
    std::optional<int> unused;
    s.global_layout = read_layout(*a.global_layout, /*shared=*/true, "global_layout", unused, hints, files);
  }
  if (const auto refused = refused_field(s)) field_error(refused->first, refused->second);
  if (a.mask) s.masks = parse_masks(*a.mask);
  if (a.layout) set_named_layout(s, *a.layout);
  if (a.shared) {
    std::optional<int> unused;
    s.shared = read_layout(*a.shared, /*shared=*/true, "shared", unused, hints, files);
  }
  if (check_problem) (void)build_problem(s);  // every field checked now, before any work
  return s;
}

void set_named_layout(ProblemSpec& s, const std::string& name) {
  s.shared.reset();
  s.masks.clear();
  s.variant = name;
  if (s.preset.empty() || !s.shape.empty() || s.writer || s.reader) return;  // the preset's own accesses only
  ProblemSpec preset_only;
  preset_only.preset = s.preset;
  for (const Variant& v : build_problem(preset_only).variants)
    if (v.name == name && v.masks) {
      s.masks = *v.masks;
      s.variant.clear();
    }
}

std::vector<std::string> problem_arguments(const ProblemSpec& s, const std::string& stem) {
  std::vector<std::string> w;
  const auto add = [&w](const char* flag, std::string value) {
    w.emplace_back(flag);
    w.push_back(std::move(value));
  };
  const auto file = [&](const std::optional<SpecLayout>& l, const char* role) {
    // A file name the user can pass back: the origin when it is one, else the file the export's JSON form writes.
    const bool path_like = l && !l->origin.empty() && l->origin.find(' ') == std::string::npos;
    return path_like ? l->origin : fmt::format("{}.{}.json", stem, role);
  };
  if (!s.preset.empty()) add("--preset", s.preset);  // none: a custom problem, --src and --dst below
  if (!s.shape.empty()) add("--shape", fmt::format("{}", fmt::join(s.shape, "x")));
  if (s.element_bits) add("--bits", std::to_string(s.element_bits));
  if (s.writer) add("--src", file(s.writer, "writer"));
  if (s.reader) add("--dst", file(s.reader, "reader"));
  if (!s.gpu.empty()) add("--gpu", s.gpu);
  if (s.banks) add("--banks", std::to_string(s.banks));
  if (s.warp_size) add("--warp-size", std::to_string(s.warp_size));
  if (s.write_vec_bits) add("--write-vec-bits", std::to_string(s.write_vec_bits));
  if (s.read_vec_bits) add("--read-vec-bits", std::to_string(s.read_vec_bits));
  if (!s.write_matrix.empty()) add("--write-matrix", s.write_matrix);
  if (!s.read_matrix.empty()) add("--read-matrix", s.read_matrix);
  if (!s.write_copy.empty()) add("--write-copy", s.write_copy);
  if (s.global_dim) add("--global-dim", std::to_string(*s.global_dim));
  if (s.global_pitch) add("--global-pitch", std::to_string(s.global_pitch));
  if (s.global_layout) add("--global-layout", file(s.global_layout, "global"));
  if (s.shared) {
    add("--shared", file(s.shared, "shared"));
  } else if (!s.variant.empty()) {
    add("--layout", s.variant);
  } else {
    std::vector<std::uint32_t> masks = s.masks;
    trim_masks(masks);
    if (!masks.empty()) add("--mask", format_masks(masks));
  }
  return w;
}

}  // namespace swz
