// quiz.cpp: kinds, checks and the draw; the questions about a preset's accesses
// (wavefronts, fix, conflict-free). Swizzle and TMA questions: quiz_facts.cpp.
//
// [SECTION] Kinds, checks
// [SECTION] wavefronts
// [SECTION] fix
// [SECTION] conflict-free
// [SECTION] The draw
#include "swz/teach/quiz.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "quiz_internal.h"
#include "swz/error.h"
#include "swz/sim/analysis.h"

namespace swz {

using quiz_detail::Random;

// [SECTION] Kinds, checks

namespace {
constexpr const char* kKindNames[kQuizKinds] = {"wavefronts", "fix", "conflict-free", "swizzle", "tma"};
}

const char* quiz_kind_name(QuizKind kind) { return kKindNames[static_cast<int>(kind)]; }

std::optional<QuizKind> parse_quiz_kind(const std::string& name) {
  for (int i = 0; i < kQuizKinds; ++i)
    if (name == kKindNames[i]) return static_cast<QuizKind>(i);
  return std::nullopt;
}

std::string quiz_kind_names() { return fmt::format("{}", fmt::join(kKindNames, ", ")); }

const char* tma_ask_name(TmaAsk ask) {
  switch (ask) {
    case TmaAsk::Mode:
      return "mode";
    case TmaAsk::Alignment:
      return "alignment";
    case TmaAsk::LargestBox:
      return "largest-box";
    case TmaAsk::Chunk:
      return "chunk";
  }
  return "?";
}

std::string check_quiz_question(const QuizQuestion& q) {
  if (q.prompt.empty()) return "the question has no prompt";
  if (q.choices.size() < 2)
    return fmt::format("'{}' has {} choice(s); a question needs at least two", q.prompt, q.choices.size());
  if (q.answer < 0 || q.answer >= static_cast<int>(q.choices.size()))
    return fmt::format("'{}': the right choice {} is not one of the {} choices", q.prompt, q.answer, q.choices.size());
  std::set<std::string> seen;
  for (const std::string& c : q.choices) {
    if (c.empty()) return fmt::format("'{}' has an empty choice", q.prompt);
    if (!seen.insert(c).second) return fmt::format("'{}' offers '{}' twice", q.prompt, c);
  }
  if (q.explanation.empty()) return fmt::format("'{}' has no explanation", q.prompt);
  return "";
}

std::string quiz_answer_line(const QuizQuestion& q) {
  return fmt::format("[{}] {} -> {}", quiz_kind_name(q.kind), q.prompt, q.right_choice());
}

std::vector<std::string> quiz_revealing_panels(const QuizQuestion& q) {
  switch (q.kind) {
    case QuizKind::Wavefronts:
    case QuizKind::Fix:
    case QuizKind::ConflictFree:
      // Counts (trace, algebra, layouts, problem), the solver's masks, banks to count by hand (tensor, memory,
      // grid), the lesson card's claims: all of them answer "how many" or "which fix".
      return {"problem", "grid", "tensor", "trace", "layouts", "matrix", "algebra", "memory", "solver", "lesson"};
    case QuizKind::Swizzle:
      return {"problem", "tensor", "layouts", "matrix", "memory", "lesson"};  // offsets before and after the swizzle
    case QuizKind::Tma:
      return {"problem", "tensor", "layouts", "memory", "lesson"};  // chunks, the base's shift, the card's mode table
  }
  return {};
}

namespace quiz_detail {

std::uint64_t stable_hash(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

void numeric_choices(QuizQuestion& q, std::vector<std::uint64_t> values, std::uint64_t right) {
  values.push_back(right);
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  q.choices.clear();
  for (std::uint64_t v : values) {
    if (v == right) q.answer = static_cast<int>(q.choices.size());
    q.choices.push_back(std::to_string(v));
  }
}

}  // namespace quiz_detail

namespace {

const char* access_name(QuizAccess a) {
  return a == QuizAccess::Store ? "store (A)" : a == QuizAccess::Read ? "read (B)" : "store and read";
}
LessonAccess lesson_access(QuizAccess a) { return a == QuizAccess::Store ? LessonAccess::Store : LessonAccess::Read; }

Problem preset_of(const std::string& name) {
  if (name.empty()) fail("preset: missing (swizzle presets lists them)");
  try {
    return make_preset(name);
  } catch (const Error& e) {
    fail("preset: {}", e.what());
  }
}

const AccessResult& pick(const ProblemAnalysis& a, QuizAccess access) {
  return access == QuizAccess::Store ? a.store.simulated : a.read.simulated;
}
bool ideal(const AccessResult& r) { return r.wavefronts == r.ideal_wavefronts; }
AccessAnalysis analyze_one(const Problem& p, QuizAccess access) {
  return analyze_access(access == QuizAccess::Store ? p.store : p.read, p.shared, p.element_bits, p.bank);
}

// Masks padded with zeros to one per row bit, so "0,0,0,16" reads as a full mask set.
std::vector<std::uint32_t> full_masks(const Problem& p, std::vector<std::uint32_t> masks) {
  if (p.grid) masks.resize(std::max(masks.size(), static_cast<std::size_t>(p.grid->row_bits)), 0u);
  return masks;
}
std::vector<std::uint32_t> trimmed(std::vector<std::uint32_t> masks) {
  while (!masks.empty() && masks.back() == 0) masks.pop_back();
  return masks;
}

std::string span_text(const std::vector<std::string>& basis) {
  return basis.empty() ? std::string("{0}") : fmt::format("span{{{}}}", fmt::join(basis, ", "));
}
std::vector<std::string> names(const std::vector<BitVec>& vs, const Problem& p) {
  std::vector<std::string> out;
  for (BitVec v : vs) out.push_back(p.shared.coords().describe_out(v));
  return out;
}

// Why an access takes what it takes, from the lemma.
std::string lemma_explanation(const AccessAnalysis& a, const Problem& p, LessonAccess access) {
  const std::string verdict = verdict_text(a.simulated);
  const char* thr = access == LessonAccess::Store ? "A_Thr" : "B_Thr";
  if (!a.lemma.applies)
    return fmt::format("The simulator counts {}; the subspace count does not apply here ({}).", verdict, a.lemma.reason);
  if (a.lemma.intersection_dim == 0)
    return fmt::format(
        "span(M_Seg) = {} and span({}) = {} share only the zero vector, so no two lanes served together sit in one bank "
        "at different addresses: {}, the ideal.",
        span_text(names(a.lemma.segment_basis, p)), thr, span_text(names(a.lemma.thread_basis, p)), verdict);
  return fmt::format(
      "span(M_Seg) ∩ span({}) = {} has dimension {}: moving along any of these directions changes the lane and keeps the "
      "bank while changing the row of banks, so 2^{{{}}} = {} lanes queue on each bank: {}.",
      thr, span_text(names(a.lemma.intersection_basis, p)), a.lemma.intersection_dim, a.lemma.intersection_dim,
      1 << a.lemma.intersection_dim, verdict);
}

std::vector<std::string> mask_details(const std::vector<std::uint32_t>& masks) {
  std::vector<std::string> out{fmt::format("Masks (row bit 0 first): {}", format_masks(masks))};
  for (std::size_t j = 0; j < masks.size(); ++j) {
    if (!masks[j]) continue;
    std::string cols;
    for (int b = 0; b < 32; ++b)
      if (masks[j] >> b & 1u) cols += fmt::format("{}n{}", cols.empty() ? "" : ", ", b);
    out.push_back(fmt::format("m{} folds into {}", j, cols));
  }
  return out;
}

void check_side(QuizAccess access) {
  if (access == QuizAccess::Both) fail("access: this kind asks about one access, \"store\" or \"read\"");
}

// [SECTION] wavefronts

namespace {

// A layout as a choice: what it does, not the preset's id for it ("XOR masks 2,4,8,16", not "xor-2m").
std::string layout_choice(const Problem& p, const std::string& name) {
  for (const Variant& v : p.variants)
    if (v.name == name) {
      if (v.masks) {
        if (std::all_of(v.masks->begin(), v.masks->end(), [](std::uint32_t m) { return m == 0; })) return "no swizzle";
        std::vector<std::uint32_t> trimmed = *v.masks;
        while (!trimmed.empty() && trimmed.back() == 0) trimmed.pop_back();
        return fmt::format("XOR masks {}", format_masks(trimmed));
      }
      return v.layout->description();
    }
  return name;
}

// The problem without the clause that names its usual layout ("...; TMA 64B swizzle", "..., with CuTe
// Swizzle<3,2,3>"): a question about which layout works must not say so above its choices.
std::string without_layout_clause(const std::string& description) {
  for (const char* clause : {"; TMA ", ", with CuTe "}) {
    const std::size_t at = description.find(clause);
    if (at != std::string::npos) return description.substr(0, at);
  }
  return description;
}

}  // namespace

QuizQuestion build_wavefronts(const QuizParams& params) {
  check_side(params.access);
  Problem p = preset_of(params.preset);
  QuizQuestion q;
  if (!params.layout.empty()) {
    if (!params.masks.empty()) fail("layout: give a named layout or masks, not both");
    try {
      p.apply_variant(params.layout);
    } catch (const Error& e) {
      fail("layout: {}", e.what());
    }
    q.details.push_back(fmt::format("Layout: {}", p.shared.description()));  // what it is, not the preset's id for it
  } else if (p.grid) {
    try {
      p.set_masks(params.masks);
    } catch (const Error& e) {
      fail("masks: {}", e.what());
    }
    q.details = mask_details(full_masks(p, params.masks));
  } else if (!params.masks.empty()) {
    fail("masks: preset '{}' has no toggle grid; name one of its layouts instead", params.preset);
  } else {
    q.details.push_back(fmt::format("Layout: {}", p.shared.description()));
  }
  const LessonAccess side = lesson_access(params.access);
  const AccessAnalysis a = analyze_one(p, params.access);
  const int answer = a.simulated.wavefronts, ideal_count = a.simulated.ideal_wavefronts;
  // Candidates: the ideal times each power of two up to past the answer; five of them around it.
  std::vector<std::uint64_t> candidates;
  for (int d = 0; d <= 6; ++d) candidates.push_back(static_cast<std::uint64_t>(ideal_count) << d);
  candidates.push_back(static_cast<std::uint64_t>(answer));
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  const auto at = static_cast<std::size_t>(std::find(candidates.begin(), candidates.end(), static_cast<std::uint64_t>(answer)) -
                                           candidates.begin());
  const std::size_t window = std::min<std::size_t>(5, candidates.size());
  const std::size_t before =
      quiz_detail::stable_hash(fmt::format("{}|{}|{}|{}", params.preset, params.layout, format_masks(params.masks), answer)) %
      window;
  const std::size_t first = std::min(candidates.size() - window, at >= before ? at - before : 0);
  quiz_detail::numeric_choices(
      q,
      {candidates.begin() + static_cast<std::ptrdiff_t>(first), candidates.begin() + static_cast<std::ptrdiff_t>(first + window)},
      static_cast<std::uint64_t>(answer));
  q.kind = QuizKind::Wavefronts;
  q.params = params;
  q.context = without_layout_clause(p.description);  // the "Layout:" line says which layout is asked about
  q.prompt = fmt::format("How many wavefronts does the worst instruction of the {} take?", access_name(params.access));
  q.explanation = lemma_explanation(a, p, side);
  ProblemSpec spec;
  spec.preset = params.preset;
  spec.variant = params.layout;
  if (params.layout.empty() && p.grid) spec.masks = trimmed(params.masks);
  q.problem = spec;
  q.show_access = side;
  return q;
}

// [SECTION] fix

QuizQuestion build_fix(const QuizParams& params) {
  check_side(params.access);
  Problem p = preset_of(params.preset);
  if (!p.grid)
    fail("preset: '{}' has no toggle grid, so no mask set can fix it (ask 'conflict-free' about its layouts)", params.preset);
  if (params.candidates.size() < 2) fail("choices: give at least two mask sets, e.g. [\"0,0,0,0\", \"2,4,8,16\"]");
  QuizQuestion q;
  std::vector<std::string> verdicts;
  std::vector<int> right;
  std::set<std::vector<std::uint32_t>> seen;
  std::vector<std::uint32_t> right_masks;
  for (const std::string& text : params.candidates) {
    std::vector<std::uint32_t> masks;
    try {
      masks = full_masks(p, parse_masks(text));
      p.set_masks(masks);
    } catch (const Error& e) {
      fail("choices: '{}': {}", text, e.what());
    }
    if (!seen.insert(trimmed(masks)).second) fail("choices: '{}' is offered twice", text);
    const AccessResult r = analyze_one(p, params.access).simulated;
    if (ideal(r)) {
      right.push_back(static_cast<int>(q.choices.size()));
      right_masks = masks;
    }
    q.choices.push_back(format_masks(masks));
    if (!ideal(r)) verdicts.push_back(fmt::format("{}: {}", q.choices.back(), verdict_text(r)));
  }
  if (right.size() != 1) {
    std::vector<std::string> fixes;
    for (int i : right) fixes.push_back(q.choices[static_cast<std::size_t>(i)]);
    fail("choices: {} of them make the {} conflict-free ({}); exactly one must", right.size(), access_name(params.access),
         right.empty() ? std::string("none") : fmt::format("{}", fmt::join(fixes, "; ")));
  }
  q.answer = right[0];
  p.set_masks({});
  const AccessResult before = analyze_one(p, params.access).simulated;
  p.set_masks(right_masks);
  const AccessAnalysis after = analyze_one(p, params.access);
  const LessonAccess side = lesson_access(params.access);
  q.kind = QuizKind::Fix;
  q.params = params;
  q.context = without_layout_clause(p.description);  // "...; TMA 128B swizzle" would name the fix
  q.details.push_back(fmt::format("Unswizzled, the {} takes {}.", access_name(params.access), verdict_text(before)));
  q.details.push_back("A mask set lists, for row bit 0 first, the column bits that row bit is XORed into.");
  q.prompt = fmt::format("Which of these mask sets makes the {} conflict-free?", access_name(params.access));
  q.explanation = fmt::format("With masks {}: {} The simulator gives the others: {}.", q.right_choice(),
                              lemma_explanation(after, p, side), fmt::join(verdicts, "; "));
  ProblemSpec spec;
  spec.preset = params.preset;
  spec.masks = trimmed(right_masks);
  q.problem = spec;
  q.show_access = side;
  return q;
}

// [SECTION] conflict-free


QuizQuestion build_conflict_free(const QuizParams& params) {
  Problem p = preset_of(params.preset);
  std::vector<std::string> layouts = params.candidates;
  if (layouts.empty())
    for (const Variant& v : p.variants) layouts.push_back(v.name);
  if (layouts.size() < 2)
    fail("choices: preset '{}' has {} named layout(s); a question needs two", params.preset, layouts.size());
  QuizQuestion q;
  std::vector<std::string> verdicts;
  std::vector<int> right;
  for (const std::string& name : layouts) {
    if (std::find(layouts.begin(), layouts.end(), name) != layouts.begin() + static_cast<std::ptrdiff_t>(q.choices.size()))
      fail("choices: '{}' is offered twice", name);
    Problem v = p;
    try {
      v.apply_variant(name);
    } catch (const Error& e) {
      fail("choices: {}", e.what());
    }
    const ProblemAnalysis a = analyze(v);
    const bool store_ok = ideal(a.store.simulated), read_ok = ideal(a.read.simulated);
    const bool ok = params.access == QuizAccess::Both    ? store_ok && read_ok
                    : params.access == QuizAccess::Store ? store_ok
                                                         : read_ok;
    if (ok) right.push_back(static_cast<int>(q.choices.size()));
    q.choices.push_back(layout_choice(p, name));
    verdicts.push_back(fmt::format("{}: store {}, read {}", q.choices.back(), verdict_text(a.store.simulated),
                                   verdict_text(a.read.simulated)));
  }
  if (right.size() != 1)
    fail("choices: {} of the layouts are conflict-free for the {} ({}); exactly one must be", right.size(),
         access_name(params.access), fmt::join(verdicts, "; "));
  q.answer = right[0];
  q.kind = QuizKind::ConflictFree;
  q.params = params;
  q.params.candidates = layouts;  // the layout names behind the choices, in their order
  q.context = without_layout_clause(p.description);
  q.prompt = params.access == QuizAccess::Both
                 ? std::string("Which layout is conflict-free for both the store and the read?")
                 : fmt::format("Which layout is conflict-free for the {}?", access_name(params.access));
  q.explanation = fmt::format("The simulator, layout by layout: {}.", fmt::join(verdicts, "; "));
  ProblemSpec spec;
  spec.preset = params.preset;
  spec.variant = layouts[static_cast<std::size_t>(q.answer)];
  q.problem = spec;
  q.show_access = params.access == QuizAccess::Store ? LessonAccess::Store : LessonAccess::Read;
  return q;
}

// [SECTION] The draw

// Masks lean towards few bits, so strong conflicts turn up as often as none.
std::vector<std::uint32_t> random_masks(Random& rng, const GridSpec& g) {
  const std::uint32_t columns = std::uint32_t{1} << g.col_bits;
  std::vector<std::uint32_t> masks(static_cast<std::size_t>(g.row_bits));
  for (auto& m : masks) {
    const auto kind = rng.below(3);
    m = kind == 0   ? 0u
        : kind == 1 ? (std::uint32_t{1} << (g.vec_bits + rng.below(static_cast<std::uint32_t>(g.col_bits - g.vec_bits))))
                    : rng.below(columns);
    m &= ~((std::uint32_t{1} << g.vec_bits) - 1);
  }
  return masks;
}

// The presets, each made once (the large ones take a moment).
const Problem& cached_preset(const std::string& name) {
  static std::map<std::string, Problem> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, make_preset(name)).first;
  return it->second;
}

QuizParams draw_wavefronts(Random& rng) {
  const auto& presets = quiz_presets(QuizKind::Wavefronts);
  QuizParams params;
  params.kind = QuizKind::Wavefronts;
  params.preset = presets[rng.below(static_cast<std::uint32_t>(presets.size()))];
  Problem p = cached_preset(params.preset);
  params.access = rng.below(3) == 0 ? QuizAccess::Store : QuizAccess::Read;
  if (!p.grid || rng.below(3) == 0) {  // one of its named layouts
    params.layout = p.variants[rng.below(static_cast<std::uint32_t>(p.variants.size()))].name;
    return params;
  }
  // Random masks aiming at a drawn conflict degree (or the last draw).
  const GridSpec g = *p.grid;
  const int target_dim = static_cast<int>(rng.below(static_cast<std::uint32_t>(std::min(g.row_bits, 4) + 1)));
  const int attempts = p.shape[0] * p.shape[1] > 4096 ? 12 : 200;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    params.masks = random_masks(rng, g);
    p.set_masks(params.masks);
    const AccessAnalysis a = analyze_one(p, params.access);
    if (!a.lemma.applies || a.lemma.intersection_dim == target_dim) break;
  }
  return params;
}

QuizParams draw_fix(Random& rng) {
  const auto& presets = quiz_presets(QuizKind::Fix);
  for (int draw = 0; draw < 64; ++draw) {
    QuizParams params;
    params.kind = QuizKind::Fix;
    params.preset = presets[rng.below(static_cast<std::uint32_t>(presets.size()))];
    Problem p = cached_preset(params.preset);
    const GridSpec g = *p.grid;
    p.set_masks({});
    const ProblemAnalysis unswizzled = analyze(p);
    std::vector<QuizAccess> sides;
    for (QuizAccess s : {QuizAccess::Store, QuizAccess::Read})
      if (!ideal(pick(unswizzled, s))) sides.push_back(s);
    params.access = sides[rng.below(static_cast<std::uint32_t>(sides.size()))];
    // The right one: a named mask set that fixes this access, else a drawn one.
    std::vector<std::vector<std::uint32_t>> fixes;
    for (const Variant& v : p.variants)
      if (v.masks && !trimmed(*v.masks).empty()) {
        p.set_masks(*v.masks);
        if (ideal(analyze_one(p, params.access).simulated)) fixes.push_back(full_masks(p, *v.masks));
      }
    const int attempts = p.shape[0] * p.shape[1] > 4096 ? 16 : 120;
    std::vector<std::vector<std::uint32_t>> wrong{full_masks(p, {})};
    for (int attempt = 0; attempt < attempts && (fixes.empty() || wrong.size() < 4); ++attempt) {
      const std::vector<std::uint32_t> masks = random_masks(rng, g);
      p.set_masks(masks);
      auto& into = ideal(analyze_one(p, params.access).simulated) ? fixes : wrong;
      if (std::find(into.begin(), into.end(), masks) == into.end() && (&into == &fixes || wrong.size() < 4))
        into.push_back(masks);
    }
    if (fixes.empty() || wrong.size() < 2) continue;  // this draw found no fix: draw again
    params.candidates.push_back(format_masks(fixes[rng.below(static_cast<std::uint32_t>(fixes.size()))]));
    for (const auto& m : wrong) params.candidates.push_back(format_masks(m));
    rng.shuffle(params.candidates);
    return params;
  }
  fail("no fix question found in 64 draws");  // every preset drawn has one; a safeguard against a changed preset
}

QuizParams draw_conflict_free(Random& rng) {
  const auto& presets = quiz_presets(QuizKind::ConflictFree);
  for (int draw = 0; draw < 64; ++draw) {
    QuizParams params;
    params.kind = QuizKind::ConflictFree;
    params.preset = presets[rng.below(static_cast<std::uint32_t>(presets.size()))];
    const Problem& p = cached_preset(params.preset);
    std::vector<QuizAccess> sides{QuizAccess::Both, QuizAccess::Store, QuizAccess::Read};
    rng.shuffle(sides);
    for (QuizAccess side : sides) {
      std::vector<std::string> right, wrong;
      for (const Variant& v : p.variants) {
        Problem with = p;
        with.apply_variant(v.name);
        const ProblemAnalysis a = analyze(with);
        const bool ok = side == QuizAccess::Both ? ideal(a.store.simulated) && ideal(a.read.simulated) : ideal(pick(a, side));
        (ok ? right : wrong).push_back(v.name);
      }
      if (right.empty() || wrong.empty()) continue;
      params.access = side;
      params.candidates = wrong;
      params.candidates.push_back(right[rng.below(static_cast<std::uint32_t>(right.size()))]);
      rng.shuffle(params.candidates);
      return params;
    }
  }
  fail("no conflict-free question found in 64 draws");  // a safeguard against a changed preset
}

}  // namespace

const std::vector<std::string>& quiz_presets(QuizKind kind) {
  static const std::vector<std::vector<std::string>> by_kind = [] {
    std::vector<std::vector<std::string>> out(kQuizKinds);
    for (const PresetInfo& info : list_presets()) {
      const Problem& p = cached_preset(info.name);
      out[static_cast<int>(QuizKind::Wavefronts)].push_back(info.name);
      if (p.grid) {
        Problem unswizzled = p;
        unswizzled.set_masks({});
        const ProblemAnalysis a = analyze(unswizzled);
        if (!ideal(a.store.simulated) || !ideal(a.read.simulated)) out[static_cast<int>(QuizKind::Fix)].push_back(info.name);
      }
      if (p.variants.size() >= 2) out[static_cast<int>(QuizKind::ConflictFree)].push_back(info.name);
    }
    // The presets whose layouts are the swizzles these kinds ask about (quiz_facts.cpp).
    out[static_cast<int>(QuizKind::Swizzle)] = {"cute8x8", "tma128_fp16", "ldmatrix_a_fp16"};
    out[static_cast<int>(QuizKind::Tma)] = {"tma128_fp16", "ldmatrix_a_fp16"};
    return out;
  }();
  return by_kind[static_cast<std::size_t>(kind)];
}

QuizQuestion build_quiz_question(const QuizParams& params) {
  QuizQuestion q;
  switch (params.kind) {
    case QuizKind::Wavefronts:
      q = build_wavefronts(params);
      break;
    case QuizKind::Fix:
      q = build_fix(params);
      break;
    case QuizKind::ConflictFree:
      q = build_conflict_free(params);
      break;
    case QuizKind::Swizzle:
      q = quiz_detail::build_swizzle(params);
      break;
    case QuizKind::Tma:
      q = quiz_detail::build_tma(params);
      break;
  }
  if (const std::string why = check_quiz_question(q); !why.empty()) fail("{}", why);
  return q;
}

QuizQuestion make_quiz_question(std::uint64_t seed, QuizKind kind) {
  Random rng{seed};
  QuizParams params;
  switch (kind) {
    case QuizKind::Wavefronts:
      params = draw_wavefronts(rng);
      break;
    case QuizKind::Fix:
      params = draw_fix(rng);
      break;
    case QuizKind::ConflictFree:
      params = draw_conflict_free(rng);
      break;
    case QuizKind::Swizzle:
      params = quiz_detail::draw_swizzle(rng);
      break;
    case QuizKind::Tma:
      params = quiz_detail::draw_tma(rng);
      break;
  }
  return build_quiz_question(params);
}

QuizQuestion make_quiz_question(std::uint64_t seed) {
  Random rng{seed};
  const auto kind = static_cast<QuizKind>(rng.below(kQuizKinds));
  return make_quiz_question(rng.next(), kind);
}

}  // namespace swz
