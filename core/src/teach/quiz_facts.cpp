// quiz_facts.cpp: swizzle questions (where CuTe's Swizzle<B,M,S> sends an offset)
// and TMA questions (which mode, what alignment, the largest box, where a chunk
// lands). Every answer is computed by the layout factories (factories.h):
// cute_swizzle_apply() and tma_swizzle(), the same code the presets use.
//
//   Swizzle<3,2,3> on an offset:  0b YYY ZZZ xx   ->   ZZZ ^= YYY
//                                      ^^^ bits M+S .. M+S+B-1, shifted right by S onto ZZZ
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "quiz_internal.h"
#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/problem/problem.h"

namespace swz::quiz_detail {

namespace {

std::string binary(std::uint64_t v, int bits) {
  std::string s;
  for (int b = bits - 1; b >= 0; --b) s += (v >> b & 1u) ? '1' : '0';
  return "0b" + s;
}

// The presets' layouts that are these swizzles, to show after the reveal.
std::optional<ProblemSpec> spec_for(const std::string& preset, const std::string& variant) {
  ProblemSpec spec;
  spec.preset = preset;
  spec.variant = variant;
  return spec;
}

}  // namespace

// [SECTION] swizzle

QuizQuestion build_swizzle(const QuizParams& params) {
  const int b = params.swizzle_b, m = params.swizzle_m, s = params.swizzle_s;
  try {
    check_cute_swizzle(b, m, s);
  } catch (const Error& e) {
    fail("swizzle: {}", e.what());
  }
  if (params.offset >= (std::uint64_t{1} << 24)) fail("offset: {} is past the 24 bits a Swizzle acts on", params.offset);
  const std::uint64_t o = params.offset;
  const std::uint64_t right = cute_swizzle_apply(b, m, s, o);
  const std::uint64_t field = (std::uint64_t{1} << b) - 1;
  const int shift = std::abs(s);
  const std::uint64_t yyy = field << (m + std::max(0, s));
  // The usual slips, each a whole wrong rule applied to the same offset.
  const std::uint64_t zzz = field << (m + std::max(0, -s));
  std::vector<std::uint64_t> slips = {
      s >= 0 ? o ^ ((o & zzz) << shift) : o ^ ((o & zzz) >> shift),                 // moved the bits the wrong way
      s >= 0 ? o ^ (o >> shift) : o ^ ((o << shift) & 0xffffffu),                   // forgot the mask
      o,                                                                            // left it alone
      s >= 0 ? o ^ ((o & (field << shift)) >> shift) : o ^ ((o & field) << shift),  // forgot that M low bits stay put
      s >= 0 ? o + ((o & yyy) >> shift) : o + ((o & yyy) << shift),                 // added instead of XOR
      // Shifted one bit too few or too many: the bits land next to where they belong.
      shift == 0 ? o : s > 0 ? o ^ ((o & yyy) >> (shift - 1)) : o ^ ((o & yyy) << (shift - 1)),
      s >= 0 ? o ^ ((o & yyy) >> (shift + 1)) : o ^ ((o & yyy) << (shift + 1)),
  };
  std::vector<std::uint64_t> wrong;
  for (std::uint64_t v : slips)
    if (v != right && std::find(wrong.begin(), wrong.end(), v) == wrong.end()) wrong.push_back(v);
  if (wrong.empty())
    fail("offset: Swizzle<{},{},{}> and every usual slip send {} to {}; pick an offset with a bit in YYY (mask 0x{:x})", b, m, s,
         o, right, yyy);
  if (wrong.size() > 4) wrong.resize(4);
  QuizQuestion q;
  numeric_choices(q, wrong, right);
  q.kind = QuizKind::Swizzle;
  q.params = params;
  const int top = std::max(static_cast<int>(std::bit_width(std::max(o, right))), m + shift + b);
  q.context = fmt::format("CuTe Swizzle<{},{},{}>: o ^ ((o & YYY) {} {}), YYY = 0x{:x} (bits {} to {})", b, m, s,
                          s >= 0 ? ">>" : "<<", shift, yyy, m + std::max(0, s), m + std::max(0, s) + b - 1);
  q.details.push_back(fmt::format("offset {} = {} = 0x{:x}", o, binary(o, top), o));
  q.prompt = fmt::format("Which offset does Swizzle<{},{},{}> map offset {} to?", b, m, s, o);
  const std::uint64_t moved = s >= 0 ? (o & yyy) >> shift : (o & yyy) << shift;
  q.explanation = fmt::format(
      "o & YYY = {} keeps bits {} to {}; shifted {} by {} it is {}, which lands on bits {} to {} (the M = {} lowest bits stay "
      "put). "
      "{} ^ {} = {} = {}. Slips give other numbers: moving the bits the other way, forgetting the mask or M, adding instead of "
      "XOR.",
      binary(o & yyy, top), m + std::max(0, s), m + std::max(0, s) + b - 1, s >= 0 ? "right" : "left", shift, binary(moved, top),
      m + std::max(0, -s), m + std::max(0, -s) + b - 1, m, o, moved, right, binary(right, top));
  if (b == 3 && m == 2 && s == 3) q.problem = spec_for("cute8x8", "swizzle323");
  if (b == 3 && m == 4 && s == 3) q.problem = spec_for("tma128_fp16", "tma-128B");
  if (b == 2 && m == 4 && s == 3) q.problem = spec_for("ldmatrix_a_fp16", "tma-64B");
  q.show_access = LessonAccess::Read;
  return q;
}

QuizParams draw_swizzle(Random& rng) {
  // The swizzles the presets use (cute8x8's on elements, the TMA modes' on bytes) and CuTe's fp16 atom.
  static const int table[][3] = {{3, 2, 3}, {3, 4, 3}, {2, 4, 3}, {1, 4, 3}, {3, 3, 3}, {2, 3, 3}};
  const auto& row = table[rng.below(static_cast<std::uint32_t>(std::size(table)))];
  QuizParams params;
  params.kind = QuizKind::Swizzle;
  params.swizzle_b = row[0];
  params.swizzle_m = row[1];
  params.swizzle_s = row[2];
  const int bits = row[1] + row[2] + row[0];
  const std::uint64_t yyy = ((std::uint64_t{1} << row[0]) - 1) << (row[1] + row[2]);
  do params.offset = rng.below(std::uint32_t{1} << bits);
  while ((params.offset & yyy) == 0);
  return params;
}

// [SECTION] tma

namespace {

constexpr int kModes[] = {32, 64, 128};

// Does the core's TMA code take `mode` on rows of `row_bytes` (fp16 elements)?
bool mode_takes_rows(int mode, int row_bytes) {
  try {
    (void)tma_swizzle(mode, {8, row_bytes / 2}, /*element_bits=*/16);
    return true;
  } catch (const Error&) {
    return false;
  }
}

void check_mode(int mode) {
  if (mode != 32 && mode != 64 && mode != 128) fail("mode: the TMA swizzle modes are 32, 64 and 128 (bytes), not {}", mode);
}

std::string mode_name(int mode) { return mode ? fmt::format("CU_TENSOR_MAP_SWIZZLE_{}B", mode) : "CU_TENSOR_MAP_SWIZZLE_NONE"; }

std::optional<ProblemSpec> preset_for_mode(int mode, std::uint64_t base = 0) {
  if (mode == 128 && base % 1024 == 0) return spec_for("tma128_fp16", "tma-128B");
  if (mode == 128 && base % 1024 == 128) return spec_for("tma128_fp16", "tma-128B-base-0x80");
  if (mode == 64 && base % 512 == 0) return spec_for("ldmatrix_a_fp16", "tma-64B");
  return std::nullopt;
}

}  // namespace

QuizQuestion build_tma(const QuizParams& params) {
  QuizQuestion q;
  q.kind = QuizKind::Tma;
  q.params = params;
  q.show_access = LessonAccess::Read;
  switch (params.ask) {
    case TmaAsk::Mode: {
      const int box = params.box_bytes;
      if (box != 32 && box != 64 && box != 128 && box != 256)
        fail("box_bytes: ask about an inner box of 32, 64, 128 or 256 bytes, not {}", box);
      int right = 0;
      for (int mode : kModes)
        if (mode_takes_rows(mode, box)) right = mode;
      for (int mode : {0, 32, 64, 128}) {
        if (mode == right) q.answer = static_cast<int>(q.choices.size());
        q.choices.push_back(mode_name(mode));
      }
      q.context = fmt::format("A TMA box whose inner dimension is {} bytes, swizzled across the whole row.", box);
      q.prompt = "Which swizzle mode goes in the tensor map?";
      // What the narrower mode does with this box, as the tensor map's own check says (seed 002: the
      // inner box may be at most the swizzle width, so it is refused, never half swizzled).
      const bool narrower_refuses = right > 32 && !mode_takes_rows(right / 2, box);
      q.explanation =
          right ? fmt::format(
                      "The {}B mode XORs the 16-byte chunks of each {}-byte row: its swizzle width is the row. {}A wider "
                      "one needs rows padded to its width.",
                      right, right,
                      narrower_refuses ? fmt::format("The tensor map refuses a narrower mode: a {}B mode takes inner boxes "
                                                     "of at most {} bytes. ",
                                                     right / 2, right / 2)
                                       : std::string())
                : fmt::format(
                      "No swizzle mode spans a {}-byte inner box: the widest, 128B, needs the inner dimension to be at most 128 "
                      "bytes, so the box is loaded unswizzled (or split into 128-byte boxes).",
                      box);
      q.problem = preset_for_mode(right);
      return q;
    }
    case TmaAsk::Alignment: {
      check_mode(params.mode_bytes);
      const int mode = params.mode_bytes;
      const SharedLayout aligned = tma_swizzle(mode, {8, mode / 2}, 16, 0);
      std::uint64_t right = 0;
      std::vector<std::uint64_t> all;
      for (std::uint64_t a = 128; a <= 2048; a *= 2) {
        all.push_back(a);
        if (!right && tma_swizzle(mode, {8, mode / 2}, 16, a) == aligned) right = a;
      }
      numeric_choices(q, all, right);
      q.context = fmt::format("The TMA {} mode on a buffer in shared memory.", mode_name(mode));
      q.prompt = "To how many bytes must the buffer be aligned to see the pattern unshifted, as the tables draw it?";
      q.explanation = fmt::format(
          "The {}B mode XORs address bits 7 and up into the chunk bits, so its pattern repeats every {} bytes. A buffer at a "
          "multiple of "
          "{} starts at the pattern's first row; at a smaller multiple of 128 (which is all TMA itself requires) the pattern is "
          "shifted by "
          "(address / 128) % {} lines of 128 bytes.",
          mode, right, right, mode / 16);
      q.problem = preset_for_mode(mode);
      return q;
    }
    case TmaAsk::LargestBox: {
      check_mode(params.mode_bytes);
      const int mode = params.mode_bytes;
      std::uint64_t right = 0;
      std::vector<std::uint64_t> all;
      for (int box = 16; box <= 256; box *= 2) {
        all.push_back(static_cast<std::uint64_t>(box));
        if (mode_takes_rows(mode, box)) right = static_cast<std::uint64_t>(box);
      }
      numeric_choices(q, all, right);
      q.context = fmt::format("The TMA {} mode.", mode_name(mode));
      q.prompt = "What is the largest inner box dimension, in bytes, this mode takes?";
      q.explanation = fmt::format(
          "The mode's swizzle width is {} bytes: it permutes the {} 16-byte chunks of a {}-byte row, so the inner dimension may "
          "be at most "
          "{} bytes (a narrower box is padded to the swizzle width in shared memory).",
          mode, mode / 16, mode, right);
      q.problem = preset_for_mode(mode);
      return q;
    }
    case TmaAsk::Chunk: {
      check_mode(params.mode_bytes);
      const int mode = params.mode_bytes, chunks = mode / 16;
      if (params.base % 128 || params.base >= (std::uint64_t{1} << 20))
        fail("base: TMA needs a 128-byte aligned buffer below 1 MiB, not 0x{:x}", params.base);
      if (params.row < 0 || params.row >= 64) fail("row: ask about rows 0 to 63, not {}", params.row);
      if (params.chunk < 0 || params.chunk >= chunks)
        fail("chunk: a {}-byte row has chunks 0 to {}, not {}", mode, chunks - 1, params.chunk);
      const SharedLayout layout = tma_swizzle(mode, {64, mode / 2}, 16, params.base);
      const std::uint64_t element = layout.offset(layout.coords().flatten({params.row, params.chunk * 8}));
      const std::uint64_t byte = element * 2;
      const auto right = static_cast<std::uint64_t>((byte % static_cast<std::uint64_t>(mode)) / 16);
      const auto y = static_cast<std::uint64_t>(params.row), x = static_cast<std::uint64_t>(params.chunk);
      const std::uint64_t r = static_cast<std::uint64_t>(chunks);
      const std::uint64_t line = (params.base + y * static_cast<std::uint64_t>(mode)) / 128;
      std::vector<std::uint64_t> wrong = {x, (y % r) ^ x, (line % 8) ^ x % r, (x + y) % r, (x + 1) % r};
      std::vector<std::uint64_t> kept;
      for (std::uint64_t v : wrong)
        if (v != right && v < r && std::find(kept.begin(), kept.end(), v) == kept.end() && kept.size() < 3) kept.push_back(v);
      for (std::uint64_t v = 0; v < r && kept.size() < 3; ++v)  // every chunk of the row is a choice when slips run out
        if (v != right && std::find(kept.begin(), kept.end(), v) == kept.end()) kept.push_back(v);
      numeric_choices(q, kept, right);
      q.context = fmt::format("TMA {} mode, buffer at 0x{:x}, rows of {} bytes (fp16).", mode_name(mode), params.base, mode);
      q.prompt = fmt::format("Chunk {} (bytes {} to {}) of row {}: at which 16-byte chunk of the row does it land?", params.chunk,
                             params.chunk * 16, params.chunk * 16 + 15, params.row);
      q.explanation = fmt::format(
          "The mode XORs the chunk index with address bits 7 and up, (address / 128) % {}. Row {} starts at 0x{:x}, in 128-byte "
          "line {}, "
          "so chunk {} lands at chunk {}{}.",
          r, y, params.base + y * static_cast<std::uint64_t>(mode), line, x, right,
          params.base % (128 * r)
              ? fmt::format(" (the base is not aligned to the {}-byte repeat, so the pattern is shifted)", 128 * r)
              : "");
      q.problem = preset_for_mode(mode, params.base);
      return q;
    }
  }
  fail("ask: unknown");
}

QuizParams draw_tma(Random& rng) {
  QuizParams params;
  params.kind = QuizKind::Tma;
  params.ask = static_cast<TmaAsk>(rng.below(4));
  params.mode_bytes = kModes[rng.below(3)];
  params.box_bytes = 32 << rng.below(4);
  params.base = rng.below(3) == 0 ? 128u * rng.below(8) : 0u;
  params.row = static_cast<int>(rng.below(16));
  params.chunk = static_cast<int>(rng.below(static_cast<std::uint32_t>(params.mode_bytes / 16)));
  return params;
}

}  // namespace swz::quiz_detail
