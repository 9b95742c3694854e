// quiz.h: multiple-choice questions whose answers the core computes.
//
// A question is a prompt, a few choices (plain strings), the index of the right
// one, an explanation, and where it helps the problem to put on the workbench
// after the reveal. Every question is built from its parameters (QuizParams) by
// asking the simulator, the lemma, the layout factories or the TMA code; nothing
// in a choice is typed in. Kinds:
//
//   wavefronts     how many wavefronts does this access take (masks or a named layout of a preset)
//   fix            which of these mask sets makes this access conflict-free (the others simulated to conflict)
//   conflict-free  which named layout of a preset is conflict-free (for the store and the read, or one access)
//   swizzle        what does CuTe Swizzle<B,M,S> map offset X to (distractors are the usual slips)
//   tma            which TMA swizzle mode fits an inner box, its alignment, its largest box, where a 16-byte chunk lands
//
// make_quiz_question(seed) draws parameters, then builds from them: the same seed
// gives the same question on every platform. build_quiz_question(params) is what a
// question set file (quiz_set.h) calls for its explicit questions. Every question
// is validated (check_quiz_question: at least two choices, all distinct, one right).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "swz/problem/problem_spec.h"
#include "swz/teach/lesson.h"
#include "swz/teach/quiz_score.h"  // QuizScore, the one scoring rule

namespace swz {

enum class QuizKind { Wavefronts, Fix, ConflictFree, Swizzle, Tma };
inline constexpr int kQuizKinds = 5;
const char* quiz_kind_name(QuizKind kind);  // "wavefronts", "fix", "conflict-free", "swizzle", "tma"
std::optional<QuizKind> parse_quiz_kind(const std::string& name);
std::string quiz_kind_names();  // "wavefronts, fix, conflict-free, swizzle, tma"

// Which access a question is about; Both only for conflict-free.
enum class QuizAccess { Store, Read, Both };

// What a TMA question asks.
enum class TmaAsk { Mode, Alignment, LargestBox, Chunk };
const char* tma_ask_name(TmaAsk ask);  // "mode", "alignment", "largest-box", "chunk"

// Everything a question is built from. Each kind reads its own members.
struct QuizParams {
  QuizKind kind = QuizKind::Wavefronts;
  // wavefronts, fix, conflict-free
  std::string preset;
  std::string layout;                // wavefronts: a named layout of the preset ("" = `masks`)
  std::vector<std::uint32_t> masks;  // wavefronts: toggle-grid masks, row bit 0 first
  QuizAccess access = QuizAccess::Read;
  std::vector<std::string> candidates;  // fix: mask sets ("2,4,8,16"); conflict-free: layout names (empty = all)
  // swizzle
  int swizzle_b = 3, swizzle_m = 3, swizzle_s = 3;
  std::uint64_t offset = 0;
  // tma
  TmaAsk ask = TmaAsk::Mode;
  int mode_bytes = 128;    // 32, 64 or 128 (the CU_TENSOR_MAP_SWIZZLE_*B mode)
  int box_bytes = 128;     // Mode: the inner box dimension in bytes
  std::uint64_t base = 0;  // Chunk: the buffer's shared-memory address
  int row = 0, chunk = 0;  // Chunk: 128-byte line `row`, 16-byte chunk `chunk` before the swizzle
};

struct QuizQuestion {
  QuizKind kind = QuizKind::Wavefronts;
  QuizParams params;                 // what it was built from
  std::string context;               // one line above the prompt: the problem or the swizzle
  std::vector<std::string> details;  // short lines under the context (masks, the shape, ...)
  std::string prompt;
  std::vector<std::string> choices;    // distinct
  int answer = 0;                      // index into choices
  std::string explanation;             // a few sentences; '^' is XOR, '^{k}' a power (math_text.h)
  std::optional<ProblemSpec> problem;  // to show on the workbench after the reveal
  LessonAccess show_access = LessonAccess::Read;
  const std::string& right_choice() const { return choices[static_cast<std::size_t>(answer)]; }
};

// "" when the question is well formed; else what is wrong with it.
std::string check_quiz_question(const QuizQuestion& q);

// Builds the question the parameters describe; throws swz::Error naming the parameter
// (preset, layout, masks, choices, swizzle, offset, mode, box_bytes, base, row, chunk).
QuizQuestion build_quiz_question(const QuizParams& params);

// A question of any kind (or of `kind`) from `seed`.
QuizQuestion make_quiz_question(std::uint64_t seed);
QuizQuestion make_quiz_question(std::uint64_t seed, QuizKind kind);

// Presets each kind draws from.
const std::vector<std::string>& quiz_presets(QuizKind kind);

// The workbench panels (ids as in lesson views, plus "lesson" for the lesson card's claims) that
// can show this question's answer while it is open: every panel that counts wavefronts or runs the
// solver for a question about an access; offset views for a swizzle; offsets, chunks and the
// card's claims for a TMA question. The quiz hides them until the question is answered.
std::vector<std::string> quiz_revealing_panels(const QuizQuestion& q);

// One line per question, for answer keys: "prompt -> right choice".
std::string quiz_answer_line(const QuizQuestion& q);

}  // namespace swz
