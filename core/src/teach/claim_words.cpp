// claim_words.cpp: one phrase per kind of claim quantity (claim_words.h).
#include "swz/teach/claim_words.h"

#include <fmt/format.h>

#include <tuple>
#include <vector>

#include "lesson_facts.h"
#include "swz/error.h"
#include "swz/export/english.h"
#include "swz/export/svg.h"

namespace swz {

namespace {

// Values in words: numbers as written, text through math_text, lists joined, [m, n] as (m, n).
class ValueWords {
 public:
  explicit ValueWords(MathStyle style) : style_(style) {}
  std::string text(const std::string& s) const { return render_math(s, style_); }
  std::string operator()(const nlohmann::json& v) const {
    if (v.is_string()) return text(v.get<std::string>());
    if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
    if (v.is_null()) return "none";
    if (v.is_array()) {
      if (v.empty()) return "none";
      if (is_pair(v)) return fmt::format("({}, {})", (*this)(v[0]), (*this)(v[1]));
      std::string out;
      for (const nlohmann::json& item : v) out += (out.empty() ? "" : ", ") + (*this)(item);
      return out;
    }
    return text(v.dump());
  }
  // A count with its noun: "1 wavefront", "2 wavefronts".
  std::string count(const nlohmann::json& v, const std::string& noun) const {
    const bool one = v.is_number() && v.get<double>() == 1.0;
    return fmt::format("{} {}", (*this)(v), plural(one ? 1 : 2, noun));
  }
  // The basis vectors of a subspace: "span{m0 ⊕ n1, n2}", or the zero subspace.
  std::string span(const nlohmann::json& v) const {
    if (!v.is_array() || v.empty()) return "{0}";
    return "{" + (*this)(v) + "}";
  }
  static bool is_pair(const nlohmann::json& v) {
    return v.is_array() && v.size() == 2 && v[0].is_number_integer() && v[1].is_number_integer();
  }

 private:
  MathStyle style_;
};

bool truthy(const nlohmann::json& v) { return v.is_boolean() ? v.get<bool>() : !v.is_null(); }

// read.X, store.X: the simulator's facts about one access.
std::string access_words(const std::string& side, const std::vector<QuantityPart>& parts, const nlohmann::json& v,
                         const ValueWords& w) {
  const std::string the = side == "store" ? "the store" : "the read";
  const std::string The = side == "store" ? "The store" : "The read";
  const std::string& what = parts[1].name;
  if (what == "offset_of" && parts[1].args.size() == 2)
    return fmt::format("In {}, register {} of lane {} touches offset {}.", the, parts[1].args[0], parts[1].args[1], w(v));
  if (what == "wavefronts") return fmt::format("{} takes {} per instruction.", The, w.count(v, "wavefront"));
  if (what == "bytes_per_instruction") return fmt::format("One instruction of {} moves {} bytes.", the, w(v));
  if (what == "ideal_wavefronts") return fmt::format("{} needs at least {} per instruction.", The, w.count(v, "wavefront"));
  if (what == "conflicts")
    return fmt::format("{}'s worst instruction has {} beyond the ideal.", The, w.count(v, "extra wavefront"));
  if (what == "ways")
    return v == 1 ? fmt::format("{} is free of bank conflicts.", The)
                  : fmt::format("{} has {}.", The, with_article(w(v) + "-way bank conflict"));
  if (what == "verdict") return fmt::format("The workbench sums up {}: {}.", the, w(v));
  if (what == "steps") return fmt::format("{} takes {}.", The, w.count(v, "register step"));
  if (what == "vec_bits") return fmt::format("Each lane of {} moves {} bits per instruction.", the, w(v));
  if (what == "step_wavefronts") return fmt::format("At the register step shown, {} takes {}.", the, w.count(v, "wavefront"));
  if (what == "lemma_applies") return fmt::format("The subspace count {} to {}.", truthy(v) ? "applies" : "does not apply", the);
  if (what == "agrees")
    return fmt::format("For {}, the subspace count {} the simulator.", the, truthy(v) ? "agrees with" : "disagrees with");
  if (what == "intersection_dim")
    return fmt::format("For {}, the segment and thread subspaces meet in {}.", the, w.count(v, "dimension"));
  if (what == "predicted_wavefronts")
    return v.is_null() ? fmt::format("The subspace count predicts nothing for {}.", the)
                       : fmt::format("The subspace count predicts {} for {}.", w.count(v, "wavefront"), the);
  if (what == "intersection_basis")
    return fmt::format("For {}, the segment and thread subspaces meet in span{}.", the, w.span(v));
  if (what == "segment_basis") return fmt::format("For {}, one segment's bits span{}.", the, w.span(v));
  if (what == "thread_basis") return fmt::format("For {}, the bits one instruction's threads tell apart span{}.", the, w.span(v));
  if (what == "register_basis") return fmt::format("In {}, one thread's registers hold the bits {}.", the, w(v));
  if (what == "lane_basis") return fmt::format("In {}, the lanes tell apart the bits {}.", the, w(v));
  return "";
}

std::string tma_words(const std::vector<QuantityPart>& parts, const nlohmann::json& v, const ValueWords& w) {
  if (parts[0].args.empty()) {  // tma.mode, tma.box_legal: the mode the step's layout is
    if (parts[1].name == "mode")
      return v.is_null() ? "No TMA swizzle mode writes this shared layout."
                         : fmt::format("The shared layout is the pattern of {}.", w(v));
    return truthy(v) ? "The TMA mode of this layout accepts the tile's rows as its box."
                     : "No TMA mode both writes this layout and accepts the tile's rows as its box.";
  }
  const std::int64_t width = parts[0].args[0];
  const bool none = width == 0;
  const std::string mode = none ? "The TMA mode without swizzle" : fmt::format("The {}-byte TMA swizzle mode", width);
  const std::string& what = parts[1].name;
  if (what == "name") return fmt::format("{} is {}.", mode, w(v));
  if (what == "repeat_bytes")
    return v.is_null() ? fmt::format("{} has no repeating pattern.", mode)
                       : fmt::format("{} repeats every {} bytes.", mode, w(v));
  if (what == "max_inner_box_bytes")
    return v.is_null() ? fmt::format("{} puts no limit on the box's rows.", mode)
                       : fmt::format("{} takes boxes whose rows are at most {} bytes.", mode, w(v));
  if (what == "shared_alignment") return fmt::format("{} needs its shared buffer aligned to {} bytes.", mode, w(v));
  if (what == "global_alignment") return fmt::format("{} needs the global tensor aligned to {} bytes.", mode, w(v));
  if (what == "inner_box_fits") return fmt::format("{} {} this tile's rows as its box.", mode, truthy(v) ? "accepts" : "refuses");
  if (what == "matches_layout")
    return fmt::format("The shared layout {} the pattern of {}.", truthy(v) ? "is" : "is not",
                       none ? "the TMA mode without swizzle" : fmt::format("the {}-byte mode", width));
  if (what == "pattern_shift" && !parts[1].args.empty())
    return fmt::format("On a buffer at shared address 0x{:x}, the {}-byte pattern is shifted by {} of 128 bytes.",
                       parts[1].args[0], width, w.count(v, "line"));
  if (what == "box_row_shift" && !parts[1].args.empty())
    return fmt::format("On a buffer at shared address 0x{:x}, the {}-byte pattern is shifted by {} of its {}-byte box.",
                       parts[1].args[0], width, w.count(v, "row"), width);
  return "";
}

std::string xor_table_words(const std::vector<QuantityPart>& parts, const nlohmann::json& v, const ValueWords& w) {
  if (parts[0].args.size() != 2) return "";
  const std::string table = fmt::format("In the XOR table of {} rows and {} columns", parts[0].args[0], parts[0].args[1]);
  const std::string& what = parts[1].name;
  if (what == "row" && !parts[1].args.empty())
    return fmt::format("{}, row {} sends columns 0, 1, 2, ... to {}.", table, parts[1].args[0], w(v));
  if (what == "out_of_bounds")
    return v.empty() ? fmt::format("{}, every cell stays inside.", table)
                     : fmt::format("{}, the cells {} fall outside the columns.", table, w(v));
  if (what == "column_spread")
    return fmt::format(
        "{}, {}.", table,
        truthy(v) ? "each column's elements land in as many different columns" : "some column's elements share a column");
  if (what == "bijection")
    return fmt::format("{}, {}.", table,
                       truthy(v) ? "every cell stays inside and no two coincide: a bijection" : "the swizzle is not a bijection");
  return "";
}

std::string solve_words(const std::vector<QuantityPart>& parts, const nlohmann::json& v, const ValueWords& w) {
  if (parts.size() == 3 && (parts[1].name == "write" || parts[1].name == "read")) {
    const bool write = parts[1].name == "write";
    const std::string side = write ? "the write" : "the read";
    const std::string& what = parts[2].name;
    if (what == "wavefronts")
      return fmt::format("The solver's layout gives {} {} per instruction.", side, w.count(v, "wavefront"));
    if (what == "ideal_wavefronts")
      return fmt::format("With the solver's instructions, {} needs at least {}.", side, w.count(v, "wavefront"));
    if (what == "instruction") return fmt::format("The solver's layout {} with {}.", write ? "writes" : "reads", w(v));
    if (what == "vec_bits") return fmt::format("In the solver's answer, each lane of {} moves {} bits.", side, w(v));
  }
  if (parts.size() == 3 && parts[1].name == "lower_bound")
    return fmt::format("No layout gives the {} fewer than {} per instruction.",
                       parts[2].name == "write_wavefronts" ? "write" : "read", w.count(v, "wavefront"));
  if (parts.size() != 2) return "";
  const std::string& what = parts[1].name;
  if (what == "conflict_free")
    return truthy(v) ? "The solver's answer is free of bank conflicts." : "The solver's answer has bank conflicts.";
  if (what == "fallback")
    return truthy(v) ? "The solver had to fall back to a layout with conflicts." : "The solver did not need its fallback.";
  // Each set with its verb: "the vector bits V are spanned by n0, n1", "the complement C is spanned by n4".
  static const std::tuple<const char*, const char*, bool> sets[] = {
      {"vec_basis", "the vector bits V", true},       {"split_a_basis", "the writer's split", false},
      {"split_b_basis", "the reader's split", false}, {"I_basis", "the shared thread bits I", true},
      {"E_basis", "the writer's own bits E", true},   {"F_basis", "the reader's own bits F", true},
      {"H_basis", "the paired bits H", true},         {"C_basis", "the complement C", false},
      {"padding_basis", "the padding bits", true},    {"segment_basis", "the segment bits", true},
      {"bank_basis", "the bank bits", true}};
  for (const auto& [name, words, many] : sets)
    if (what == name) {
      const char* be = many ? "are" : "is";
      if (!v.is_array() || v.empty())
        return fmt::format("In the solver's construction, {} {} the zero subspace {{0}}.", words, be);
      return fmt::format("In the solver's construction, {} {} spanned by {}.", words, be, w(v));
    }
  return "";
}

// "16i": where lane i's byte is for a stride (0: every lane at byte 0).
std::string lane_byte(std::int64_t stride) { return stride == 0 ? "0" : stride == 1 ? "i" : fmt::format("{}i", stride); }

// cp_async(BYTES,SOURCE,SHARED).X, cp_async_cg(SOURCE,SHARED).X, cp_async.rows(PITCH).X (lesson_copy_facts.cpp).
std::string copy_words(const std::vector<QuantityPart>& parts, const nlohmann::json& v, const ValueWords& w) {
  const QuantityPart& head = parts[0];
  std::string copy;
  if (head.name == "cp_async" && !head.called && parts.size() == 3 && parts[1].args.size() == 1)
    copy = fmt::format("Issued as cp.async from global rows {} bytes apart, the store", parts[1].args[0]);
  else if (head.name == "cp_async" && head.args.size() == 3 && parts.size() == 2)
    copy = fmt::format("A warp's cp.async of {} bytes a lane, lane i from global byte {} to shared byte {},", head.args[0],
                       lane_byte(head.args[1]), lane_byte(head.args[2]));
  else if (head.name == "cp_async_cg" && head.args.size() == 2 && parts.size() == 2)
    copy = fmt::format("A warp's 16-byte cp.async.cg, lane i from global byte {} to shared byte {},", lane_byte(head.args[0]),
                       lane_byte(head.args[1]));
  else
    return "";
  const std::string& what = parts.back().name;
  if (what == "wavefronts") return fmt::format("{} takes {} per instruction.", copy, w.count(v, "wavefront"));
  if (what == "ideal_wavefronts") return fmt::format("{} would take {} with no conflict.", copy, w.count(v, "wavefront"));
  if (what == "instruction") return fmt::format("{} is {}.", copy, w(v));
  if (what == "modelled")
    return truthy(v) ? fmt::format("{} is priced by the core's cp.async rule.", copy)
                     : fmt::format("{} is not modelled: its count is the store rule's.", copy);
  if (what == "source_banks") return fmt::format("{} reads its sources from {}.", copy, w.count(v, "bank"));
  if (what == "shared_banks") return fmt::format("{} writes {} of shared memory.", copy, w.count(v, "bank"));
  return "";
}

// banks, lanes, phase(BYTES,LANE).X, lane_pair(BYTES,A,B,APART).X (lesson_gpu_facts.cpp).
std::string gpu_words(const std::vector<QuantityPart>& parts, const nlohmann::json& v, const ValueWords& w) {
  const QuantityPart& head = parts[0];
  if (parts.size() == 1 && head.name == "banks") return fmt::format("The GPU's shared memory has {}.", w.count(v, "bank"));
  if (parts.size() == 1 && head.name == "lanes") return fmt::format("A warp (a wavefront on AMD) has {}.", w.count(v, "lane"));
  if (parts.size() != 2) return "";
  const std::string& what = parts[1].name;
  const bool read = what.rfind("read_", 0) == 0;
  if (head.name == "phase" && head.args.size() == 2 && (what == "read_lanes" || what == "write_lanes"))
    return fmt::format("One pass of a {}-byte {} serves lane {} with lanes {}.", head.args[0], read ? "read" : "write",
                       head.args[1], w(v));
  if (head.name != "lane_pair" || head.args.size() != 4) return "";
  const std::string pair = fmt::format("Lanes {} and {} alone, {} bytes apart, {} {} bytes each", head.args[1], head.args[2],
                                       head.args[3], read ? "reading" : "writing", head.args[0]);
  if (what == "read_conflict" || what == "write_conflict")
    return truthy(v) ? fmt::format("{}, conflict: more passes than without.", pair) : fmt::format("{}, do not conflict.", pair);
  if (what == "read_passes" || what == "write_passes")
    return fmt::format("{}, take {}.", pair, v == 1 ? std::string("one pass") : fmt::format("{} passes", w(v)));
  return "";
}

std::string words_for(const std::string& q, const nlohmann::json& v, const ValueWords& w) {
  const std::vector<QuantityPart> parts = quantity_parts(q);
  if (parts.empty()) return "";
  const std::string& head = parts[0].name;
  const std::vector<std::int64_t>& args = parts[0].args;
  if ((head == "read" || head == "store") && parts.size() == 2) return access_words(head, parts, v, w);
  if (head == "tma" && parts.size() == 2) return tma_words(parts, v, w);
  if (head == "xor_table" && parts.size() == 2) return xor_table_words(parts, v, w);
  if (head == "solve" && parts.size() >= 2) return solve_words(parts, v, w);
  if (head == "cp_async" || head == "cp_async_cg") return copy_words(parts, v, w);
  if (head == "banks" || head == "lanes" || head == "phase" || head == "lane_pair") return gpu_words(parts, v, w);
  if (head == "masks") return fmt::format("The toggle grid's row masks are {}.", w(v));
  if (head == "wavefront_bytes") return fmt::format("One wavefront moves {} bytes, a word from each bank.", w(v));
  if (head == "layout" && parts.size() == 2) {
    const std::string& what = parts[1].name;
    if (what == "linear") return truthy(v) ? "The shared layout is linear over F2." : "The shared layout is not linear over F2.";
    if (what == "description") return fmt::format("The shared layout is {}.", w(v));
    if (what == "size") return fmt::format("The tensor has {}.", w.count(v, "element"));
    if (what == "cosize") return fmt::format("The layout needs room for {} in shared memory.", w.count(v, "element"));
  }
  if (parts.size() == 1 && args.size() == 2) {
    const std::string element = fmt::format("({}, {})", args[0], args[1]);
    if (head == "bank") return fmt::format("Element {} lives in bank {}.", element, w(v));
    if (head == "offset") return fmt::format("Element {} is stored at offset {}.", element, w(v));
    if (head == "chunk") return fmt::format("Element {} is in 16-byte chunk {} of its 128-byte line.", element, w(v));
  }
  if (parts.size() == 1 && args.size() == 1) {
    if (head == "column_banks") return fmt::format("Column {} touches {}.", args[0], w.count(v, "different bank"));
    if (head == "row_banks") return fmt::format("Row {} touches {}.", args[0], w.count(v, "different bank"));
    if (head == "element_at")
      return v.is_null() ? fmt::format("Offset {} is padding: no element is stored there.", args[0])
                         : fmt::format("Offset {} holds element {}.", args[0], w(v));
  }
  if (head == "swizzle" && parts.size() == 2 && args.size() == 3 && !parts[1].args.empty())
    return fmt::format("CuTe's Swizzle<{},{},{}> sends offset {} to {}.", args[0], args[1], args[2], parts[1].args[0], w(v));
  return "";
}

}  // namespace

std::string claim_in_words(const std::string& quantity, const nlohmann::json& value, MathStyle style) {
  // HTML: the sentence is built as Unicode text (⊕ and superscripts are UTF-8), then escaped whole,
  // so a value like Swizzle<1,3,3> never reads as markup.
  const ValueWords w(style == MathStyle::Html ? MathStyle::Unicode : style);
  std::string sentence;
  try {
    sentence = words_for(quantity, value, w);
  } catch (const Error&) {
    // A malformed quantity (the loader refuses those): written as it is, below.
  }
  if (sentence.empty()) sentence = fmt::format("{} is {}.", w.text(quantity), w(value));
  return style == MathStyle::Html ? xml_escape(sentence) : sentence;
}

}  // namespace swz
