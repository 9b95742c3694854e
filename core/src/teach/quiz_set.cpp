#include "swz/teach/quiz_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "swz/error.h"
#include "swz/export/english.h"
#include "swz/io/layout_io.h"
#include "swz/io/limits.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_paths.h"

namespace swz {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kMaxQuestions = 1000;

// Reads one question's keys; every message starts with the key, the caller adds file and question.
struct Keys {
  const json& j;
  std::set<std::string> used;

  bool has(const std::string& key) {
    used.insert(key);
    return j.contains(key);
  }
  std::string text(const std::string& key) {
    if (!has(key)) fail("{}: missing", key);
    if (!j[key].is_string()) fail("{}: must be a string, not {}", key, j[key].dump());
    return j[key].get<std::string>();
  }
  std::int64_t integer(const std::string& key, std::int64_t lo, std::int64_t hi) {
    if (!has(key)) fail("{}: missing", key);
    const json& v = j[key];
    if (!v.is_number_integer()) fail("{}: must be a whole number, not {}", key, v.dump());
    const auto n = v.get<std::int64_t>();
    if (n < lo || n > hi) fail("{}: {} is outside {} to {}", key, n, lo, hi);
    return n;
  }
  // Masks as [2, 4, 8, 16] or "2,4,8,16".
  std::string masks_text(const json& v, const std::string& key) {
    if (v.is_string()) return v.get<std::string>();
    if (!v.is_array()) fail("{}: a mask set is a list of numbers or a string like \"2,4,8,16\", not {}", key, v.dump());
    std::vector<std::string> parts;
    for (const json& m : v) {
      if (!m.is_number_unsigned()) fail("{}: mask {} is not a whole number >= 0", key, m.dump());
      parts.push_back(std::to_string(m.get<std::uint64_t>()));
    }
    return fmt::format("{}", fmt::join(parts, ","));
  }
  QuizAccess access(QuizAccess fallback, bool both_allowed) {
    if (!has("access")) return fallback;
    const std::string a = text("access");
    if (a == "store") return QuizAccess::Store;
    if (a == "read") return QuizAccess::Read;
    if (a == "both" && both_allowed) return QuizAccess::Both;
    fail("access: '{}' is not {}", a, both_allowed ? "\"store\", \"read\" or \"both\"" : "\"store\" or \"read\"");
  }
  // Keys no kind of question has are refused before any is read, so a misspelling is named as one.
  void known_only(std::initializer_list<const char*> keys) {
    for (const auto& item : j.items()) {
      const std::string& key = item.key();
      if (std::none_of(keys.begin(), keys.end(), [&key](const char* k) { return key == k; }))
        fail("unknown key '{}' (see assets/quizzes/README.md)", key);
    }
  }
  void no_others() {
    for (const auto& [key, value] : j.items())
      if (!used.count(key)) fail("{}: does not apply to this question (see assets/quizzes/README.md)", key);
  }
};

QuizQuestion parse_question(const json& j) {
  if (!j.is_object()) fail("must be an object, not {}", j.dump());
  Keys k{j, {}};
  std::optional<QuizKind> kind;
  if (k.has("kind")) {
    const std::string name = k.text("kind");
    kind = parse_quiz_kind(name);
    if (!kind) fail("kind: unknown kind '{}' (kinds: {})", name, quiz_kind_names());
  }
  if (j.contains("seed"))
    k.known_only({"kind", "seed"});
  else if (kind == QuizKind::Wavefronts)
    k.known_only({"kind", "preset", "access", "layout", "masks"});
  else if (kind == QuizKind::Fix || kind == QuizKind::ConflictFree)
    k.known_only({"kind", "preset", "access", "choices"});
  else if (kind == QuizKind::Swizzle)
    k.known_only({"kind", "swizzle", "offset"});
  else if (kind == QuizKind::Tma)
    k.known_only({"kind", "ask", "box_bytes", "mode", "row", "chunk", "base"});
  if (k.has("seed")) {
    const auto seed = static_cast<std::uint64_t>(k.integer("seed", 0, std::int64_t{1} << 52));
    k.no_others();
    return kind ? make_quiz_question(seed, *kind) : make_quiz_question(seed);
  }
  if (!kind) fail("kind: missing (kinds: {}), or give a 'seed'", quiz_kind_names());
  QuizParams p;
  p.kind = *kind;
  switch (*kind) {
    case QuizKind::Wavefronts:
      p.preset = k.text("preset");
      p.access = k.access(QuizAccess::Read, false);
      if (k.has("layout")) p.layout = k.text("layout");
      if (k.has("masks")) {
        try {
          p.masks = parse_masks(k.masks_text(j["masks"], "masks"));
        } catch (const Error& e) {
          fail("masks: {}", e.what());
        }
      }
      break;
    case QuizKind::Fix:
    case QuizKind::ConflictFree:
      p.preset = k.text("preset");
      p.access = k.access(*kind == QuizKind::Fix ? QuizAccess::Read : QuizAccess::Both, *kind == QuizKind::ConflictFree);
      if (k.has("choices")) {
        if (!j["choices"].is_array()) fail("choices: must be a list, not {}", j["choices"].dump());
        for (const json& c : j["choices"]) {
          if (*kind == QuizKind::Fix)
            p.candidates.push_back(k.masks_text(c, "choices"));
          else if (c.is_string())
            p.candidates.push_back(c.get<std::string>());
          else
            fail("choices: a layout name is a string, not {}", c.dump());
        }
      } else if (*kind == QuizKind::Fix) {
        fail("choices: missing (the mask sets to choose from, e.g. [\"0,0,0,0\", \"2,4,8,16\"])");
      }
      break;
    case QuizKind::Swizzle: {
      if (!k.has("swizzle")) fail("swizzle: missing ([B, M, S], e.g. [3, 2, 3])");
      const json& s = j["swizzle"];
      if (!s.is_array() || s.size() != 3 || !std::all_of(s.begin(), s.end(), [](const json& v) { return v.is_number_integer(); }))
        fail("swizzle: must be [B, M, S], three whole numbers, not {}", s.dump());
      p.swizzle_b = s[0].get<int>();
      p.swizzle_m = s[1].get<int>();
      p.swizzle_s = s[2].get<int>();
      p.offset = static_cast<std::uint64_t>(k.integer("offset", 0, (std::int64_t{1} << 24) - 1));
      break;
    }
    case QuizKind::Tma: {
      const std::string ask = k.text("ask");
      if (ask == "mode")
        p.ask = TmaAsk::Mode;
      else if (ask == "alignment")
        p.ask = TmaAsk::Alignment;
      else if (ask == "largest-box")
        p.ask = TmaAsk::LargestBox;
      else if (ask == "chunk")
        p.ask = TmaAsk::Chunk;
      else
        fail("ask: '{}' is not \"mode\", \"alignment\", \"largest-box\" or \"chunk\"", ask);
      if (p.ask == TmaAsk::Mode)
        p.box_bytes = static_cast<int>(k.integer("box_bytes", 1, 1 << 20));
      else
        p.mode_bytes = static_cast<int>(k.integer("mode", 1, 1 << 20));
      if (p.ask == TmaAsk::Chunk) {
        p.row = static_cast<int>(k.integer("row", 0, 1 << 20));
        p.chunk = static_cast<int>(k.integer("chunk", 0, 1 << 20));
        if (k.has("base")) p.base = static_cast<std::uint64_t>(k.integer("base", 0, std::int64_t{1} << 40));
      }
      break;
    }
  }
  k.no_others();
  return build_quiz_question(p);
}

}  // namespace

QuizSet parse_quiz_set(const json& j, const std::string& name, const std::string& origin) {
  if (!j.is_object()) fail("{}: a quiz set is a JSON object", origin);
  for (const auto& [key, value] : j.items())
    if (key != "format" && key != "version" && key != "title" && key != "summary" && key != "assumes" && key != "questions")
      fail("{}: unknown key '{}' (see assets/quizzes/README.md)", origin, key);
  if (!j.contains("format") || j["format"] != "swizzle-workbench-quiz")
    fail("{}: format: must be \"swizzle-workbench-quiz\"", origin);
  if (!j.contains("version") || j["version"] != 1) fail("{}: version: must be 1", origin);
  QuizSet set;
  set.name = name;
  if (!j.contains("title") || !j["title"].is_string() || j["title"].get<std::string>().empty())
    fail("{}: title: missing or not a string", origin);
  set.title = j["title"].get<std::string>();
  if (j.contains("summary")) {
    if (!j["summary"].is_string()) fail("{}: summary: must be a string", origin);
    set.summary = j["summary"].get<std::string>();
  }
  if (j.contains("assumes")) {
    const auto& a = j["assumes"];
    if (!a.is_array() || a.empty()) fail("{}: assumes: must be a list of lesson names (the lessons the set follows)", origin);
    for (const auto& lesson : a) {
      if (!lesson.is_string() || lesson.get<std::string>().empty())
        fail("{}: assumes: each lesson is named by a string, not {}", origin, lesson.dump());
      set.assumes.push_back(lesson.get<std::string>());
    }
  }
  if (!j.contains("questions") || !j["questions"].is_array() || j["questions"].empty())
    fail("{}: questions: must be a list of at least one question", origin);
  if (j["questions"].size() > kMaxQuestions)
    fail("{}: questions: {} is more than {}", origin, j["questions"].size(), kMaxQuestions);
  std::size_t index = 0;
  for (const json& qj : j["questions"]) {
    ++index;
    std::string kind = qj.is_object() && qj.contains("kind") && qj["kind"].is_string() ? qj["kind"].get<std::string>() : "";
    if (kind.empty() && qj.is_object() && qj.contains("seed")) kind = "seed";
    try {
      set.questions.push_back(parse_question(qj));
    } catch (const Error& e) {
      fail("{}: question {}{}: {}", origin, index, kind.empty() ? "" : fmt::format(" ({})", kind), e.what());
    }
    // The same question twice (a seed that draws one the set also asks outright) wastes a question of the room's.
    const QuizQuestion& added = set.questions.back();
    for (std::size_t k = 0; k + 1 < set.questions.size(); ++k) {
      const QuizQuestion& earlier = set.questions[k];
      if (earlier.context == added.context && earlier.prompt == added.prompt && earlier.details == added.details &&
          earlier.right_choice() == added.right_choice())  // other distractors do not make it another question
        fail("{}: question {}{}: asks the same as question {}", origin, index, kind.empty() ? "" : fmt::format(" ({})", kind),
             k + 1);
    }
  }
  return set;
}

QuizSet load_quiz_set_file(const fs::path& path) {
  const std::string origin = path.filename().string();
  std::string text;
  try {
    text = read_text_file(path.string(), std::size_t{1} << 20);
  } catch (const Error& e) {
    fail("{}: {}", origin, e.what());
  }
  return parse_quiz_set(parse_json(text, origin), path.stem().string(), origin);
}

std::optional<fs::path> find_quizzes_dir(std::string& why) {
  const LessonDirSearch s = find_lessons_dir();
  if (!s.found) {
    why = s.message();
    return std::nullopt;
  }
  const fs::path dir = s.found->parent_path() / "quizzes";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    why = fmt::format("no quiz folder {} beside the lessons", dir.string());
    return std::nullopt;
  }
  return dir;
}

fs::path resolve_quiz_set(const std::string& what) {
  const fs::path p(what);
  std::error_code ec;
  if (p.extension() == ".json" || fs::exists(p, ec)) return p;
  std::string why;
  const auto dir = find_quizzes_dir(why);
  if (!dir) fail("quiz set '{}': {}", what, why);
  const fs::path file = *dir / (what + ".json");
  if (!fs::exists(file, ec)) {
    std::string known;
    for (const fs::path& f : lesson_files(*dir)) known += (known.empty() ? "" : ", ") + f.stem().string();
    fail("no quiz set '{}' in {} (sets: {})", what, dir->string(), known.empty() ? "none" : known);
  }
  return file;
}

json to_json(const QuizQuestion& q) {
  json j = {
      {"kind", quiz_kind_name(q.kind)}, {"context", q.context}, {"details", q.details},      {"prompt", q.prompt},
      {"choices", q.choices},           {"answer", q.answer},   {"right", q.right_choice()}, {"explanation", q.explanation}};
  if (q.problem) j["problem"] = to_json(*q.problem);
  return j;
}

std::vector<std::string> quiz_set_untaught(const QuizSet& set, const std::vector<Lesson>& lessons) {
  // What the lessons teach: the presets their steps show, CuTe's Swizzle, TMA modes.
  std::set<std::string> taught;
  std::string names;
  for (const Lesson& l : lessons) {
    names += (names.empty() ? "" : ", ") + l.name;
    for (const LessonStep& s : l.steps) {
      if (!s.problem.preset.empty()) taught.insert("the preset " + s.problem.preset);
      if (s.problem.shared && s.problem.shared->origin.find("Swizzle<") != std::string::npos)
        taught.insert("CuTe's Swizzle<B,M,S>");
      for (const LessonClaim& c : s.claims) {
        if (c.quantity.rfind("swizzle(", 0) == 0) taught.insert("CuTe's Swizzle<B,M,S>");
        if (c.quantity.rfind("tma(", 0) == 0 || c.quantity.rfind("tma.", 0) == 0) taught.insert("TMA swizzle modes");
      }
    }
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < set.questions.size(); ++i) {
    const QuizQuestion& q = set.questions[i];
    const std::string needs = q.kind == QuizKind::Swizzle ? "CuTe's Swizzle<B,M,S>"
                              : q.kind == QuizKind::Tma   ? "TMA swizzle modes"
                                                          : "the preset " + q.params.preset;
    if (!taught.count(needs))
      out.push_back(fmt::format("question {} ({}): none of {} teaches {}", i + 1, quiz_kind_name(q.kind),
                                names.empty() ? "the lessons (none assumed)" : names, needs));
  }
  return out;
}

std::string quiz_set_contents(const QuizSet& set) {
  int kinds[kQuizKinds] = {};
  for (const QuizQuestion& q : set.questions) ++kinds[static_cast<int>(q.kind)];
  std::string counts;
  for (int k = 0; k < kQuizKinds; ++k)
    if (kinds[k])
      counts +=
          (counts.empty() ? "" : ", ") + counted(kinds[k], fmt::format("{} question", quiz_kind_name(static_cast<QuizKind>(k))));
  const std::string all = counted(static_cast<std::int64_t>(set.questions.size()), "question");
  return counts.empty() ? all : fmt::format("{} ({})", all, counts);
}

}  // namespace swz
