// lesson.cpp: lesson files, validated against the core (claims are measured in lesson_claims.cpp).
//
// [SECTION] Validation   keys, values and highlight targets of a lesson file
// [SECTION] Loading      files and directories
#include "swz/teach/lesson.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <mutex>
#include <set>
#include <utility>

#include "lesson_facts.h"
#include "swz/error.h"
#include "swz/io/json_describe.h"
#include "swz/io/layout_io.h"
#include "swz/io/limits.h"
#include "swz/layout/factories.h"
#include "swz/teach/lesson_exercise.h"
#include "swz/teach/quiz_set.h"

namespace swz {

const std::vector<std::string>& lesson_panel_ids() {
  static const std::vector<std::string> ids = {"problem", "grid",    "tensor", "trace", "layouts",
                                               "matrix",  "algebra", "memory", "solver"};
  return ids;
}

std::vector<std::int64_t> xor_swizzle_row(std::int64_t row, std::int64_t cols) {
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(std::max<std::int64_t>(0, cols)));
  for (std::int64_t n = 0; n < cols; ++n) out.push_back(n ^ row);
  return out;
}

namespace {

// Building a preset (its variants' tables, the grid geometry) costs more than copying one, and a
// lesson's steps, and then its claim checks, ask for the same few presets over and over.
Problem preset_copy(const std::string& name) {
  static std::mutex mutex;
  static std::vector<std::pair<std::string, Problem>> cache;  // most recently used last
  {
    const std::lock_guard<std::mutex> lock(mutex);
    for (auto it = cache.begin(); it != cache.end(); ++it)
      if (it->first == name) {
        std::rotate(it, it + 1, cache.end());
        return cache.back().second;
      }
  }
  Problem p = make_preset(name);  // throws for an unknown name: nothing is cached
  const std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 4) cache.erase(cache.begin());
  cache.emplace_back(name, p);
  return p;
}

}  // namespace

Problem problem_for_step(const LessonStep& s) {
  ProblemSpec preset_only;
  preset_only.preset = s.problem.preset;
  if (s.problem == preset_only) return preset_copy(s.problem.preset);  // most steps: the preset's tables, built once
  return build_problem(s.problem);
}

// [SECTION] Validation

namespace {

const char* type_name(const nlohmann::json& j) {
  if (j.is_null()) return "null";
  if (j.is_boolean()) return "a true/false value";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_array()) return "a list";
  return "an object";
}

bool same_kind(const nlohmann::json& a, const nlohmann::json& b) {
  return (a.is_number() && b.is_number()) || (a.is_boolean() && b.is_boolean()) || (a.is_string() && b.is_string()) ||
         (a.is_array() && b.is_array()) || (a.is_null() && b.is_null());
}

void check_keys(const nlohmann::json& j, const std::vector<std::string>& known, const std::string& where) {
  for (const auto& item : j.items())
    if (std::find(known.begin(), known.end(), item.key()) == known.end())
      fail("{}unknown key '{}' (known: {})", where, item.key(), fmt::join(known, ", "));
}

std::string text_of(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.contains(key)) fail("{}missing '{}'", where, key);
  if (!j[key].is_string() || j[key].get<std::string>().empty()) fail("{}'{}' must be a non-empty string", where, key);
  return j[key].get<std::string>();
}

int int_of(const nlohmann::json& v, const char* key, const std::string& where) {
  if (!v.is_number_integer()) fail("{}'{}' must be an integer, not {}", where, key, describe_json_value(v));
  // Checked before narrowing: 4294967296 is not step 0.
  if (v.is_number_unsigned() ? v.get<std::uint64_t>() > 1000000u
                             : (v.get<std::int64_t>() < -1000000 || v.get<std::int64_t>() > 1000000))
    fail("{}'{}' = {} is outside -1000000..1000000", where, key, v.dump());
  return v.get<int>();
}

// "tensor.cell.3.5" -> {3, 5} after the prefix; nullopt when `target` does not start with it.
std::optional<std::vector<std::int64_t>> indices_after(const std::string& target, const std::string& prefix, std::size_t count) {
  if (target.rfind(prefix, 0) != 0) return std::nullopt;
  std::vector<std::int64_t> out;
  std::size_t pos = prefix.size();
  while (pos <= target.size()) {
    const auto dot = target.find('.', pos);
    const std::string item = target.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || v < 0) return std::vector<std::int64_t>{};
    out.push_back(v);
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  if (out.size() != count) return std::vector<std::int64_t>{};
  return out;
}

void check_highlight(const std::string& target, const Problem& p) {
  static const std::vector<std::string> fixed = {"trace.read",    "trace.store",       "trace.play",
                                                 "algebra.agree", "layouts.a.picture", "layouts.b.picture",
                                                 "solver.run",    "solver.apply",      "grid.solver"};
  if (std::find(fixed.begin(), fixed.end(), target) != fixed.end()) return;
  if (target.rfind("panel:", 0) == 0) {
    const std::string id = target.substr(6);
    const auto& ids = lesson_panel_ids();
    if (std::find(ids.begin(), ids.end(), id) == ids.end())
      fail("highlight '{}': no panel '{}' (panels: {})", target, id, fmt::join(ids, ", "));
    return;
  }
  const std::int64_t rows = p.shape.empty() ? 1 : p.shape[0];
  const std::int64_t cols = p.shared.elements() / std::max<std::int64_t>(1, rows);
  auto in_range = [&](std::int64_t v, std::int64_t limit, const char* what) {
    if (v >= limit) fail("highlight '{}': {} {} is outside 0..{}", target, what, v, limit - 1);
  };
  auto malformed = [&](const char* form) { fail("highlight '{}' is malformed (expected {})", target, form); };
  if (auto v = indices_after(target, "tensor.cell.", 2)) {
    if (v->empty()) malformed("tensor.cell.ROW.COLUMN");
    in_range((*v)[0], rows, "row");
    in_range((*v)[1], cols, "column");
    return;
  }
  if (auto v = indices_after(target, "tensor.row.", 1)) {
    if (v->empty()) malformed("tensor.row.ROW");
    in_range((*v)[0], rows, "row");
    return;
  }
  if (auto v = indices_after(target, "tensor.col.", 1)) {
    if (v->empty()) malformed("tensor.col.COLUMN");
    in_range((*v)[0], cols, "column");
    return;
  }
  if (auto v = indices_after(target, "grid.cell.", 2)) {
    if (v->empty()) malformed("grid.cell.ROW_BIT.COLUMN_BIT");
    if (!p.grid) fail("highlight '{}': preset '{}' has no toggle grid", target, p.name);
    in_range((*v)[0], p.grid->row_bits, "row bit");
    in_range((*v)[1], p.grid->col_bits, "column bit");
    if ((*v)[1] < p.grid->vec_bits)
      fail("highlight '{}': column bit {} belongs to the vector and has no toggle", target, (*v)[1]);
    return;
  }
  if (auto v = indices_after(target, "trace.bar.", 1)) {
    if (v->empty()) malformed("trace.bar.BANK");
    in_range((*v)[0], p.bank.banks, "bank");
    return;
  }
  fail("unknown highlight '{}' (panel:ID, tensor.cell.R.C, tensor.row.R, tensor.col.C, grid.cell.J.K, trace.bar.B, or one of {})",
       target, fmt::join(fixed, ", "));
}

std::vector<std::uint32_t> masks_of(const nlohmann::json& v, const std::string& where) {
  if (v.is_string()) return parse_masks(v.get<std::string>());
  if (!v.is_array()) fail("{}'masks' must be a list of integers or a string like \"2,4,8,16\"", where);
  std::vector<std::uint32_t> out;
  for (const auto& e : v) {
    if (!e.is_number_integer() || e.get<std::int64_t>() < 0 || e.get<std::int64_t>() > 0xffffffffLL)
      fail("{}'masks' entry {} is not a non-negative integer", where, e.dump());
    out.push_back(e.get<std::uint32_t>());
  }
  return out;
}

// An object of quantity: value ('claims', an exercise's 'goal'), each measured on the step's problem.
std::vector<LessonClaim> parse_claims(const nlohmann::json& j, const std::string& key, const Problem& p, const ProblemAnalysis& a,
                                      int register_step, const std::string& where) {
  if (!j.is_object()) fail("{}'{}' must be an object of quantity: value", where, key);
  std::vector<LessonClaim> out;
  for (const auto& item : j.items()) {
    const nlohmann::json actual = measure(item.key(), p, a, register_step);
    const nlohmann::json& expected = item.value();
    if (actual.is_null() && !expected.is_null())
      fail("claim '{}' has no value here: the subspace lemma does not apply to this layout", item.key());
    if (!same_kind(expected, actual))
      fail("claim '{}' expects {}, but the quantity is {}", item.key(), type_name(expected), type_name(actual));
    out.push_back({item.key(), expected});
  }
  return out;
}

std::vector<std::string> paragraphs_of(const nlohmann::json& v, const std::string& key, const std::string& where) {
  std::vector<std::string> out;
  if (v.is_string()) out.push_back(v.get<std::string>());
  else if (v.is_array())
    for (const auto& para : v) {
      if (!para.is_string()) fail("{}'{}' must be a string or a list of strings", where, key);
      out.push_back(para.get<std::string>());
    }
  else
    fail("{}'{}' must be a string or a list of strings", where, key);
  return out;
}

// An exercise's CuTe moves: {"swizzle": {"B": [lo, hi], "M": [lo, hi], "S": [lo, hi]}}, over the
// plain layout under the step's own shared layout, which must be one of the swizzles they allow.
SwizzleMoves parse_swizzle_moves(const nlohmann::json& moves, const LessonStep& s, const std::string& where) {
  check_keys(moves, {"swizzle"}, where + "'exercise.moves': ");
  const auto& sw = moves["swizzle"];
  if (!sw.is_object())
    fail("{}'exercise.moves.swizzle' must be an object like {{\"B\": [0, 3], \"M\": [0, 4], \"S\": [1, 6]}}", where);
  check_keys(sw, {"B", "M", "S"}, where + "'exercise.moves.swizzle': ");
  SwizzleMoves m;
  const std::pair<const char*, std::array<int, 2>*> ranges[] = {{"B", &m.b}, {"M", &m.m}, {"S", &m.s}};
  for (const auto& [key, range] : ranges) {
    const std::string name = fmt::format("exercise.moves.swizzle.{}", key);
    if (!sw.contains(key)) fail("{}'{}' is missing: give its range as [lo, hi]", where, name);
    const auto& r = sw[key];
    if (!r.is_array() || r.size() != 2) fail("{}'{}' must be a range [lo, hi]", where, name);
    (*range)[0] = int_of(r[0], name.c_str(), where);
    (*range)[1] = int_of(r[1], name.c_str(), where);
    if ((*range)[0] > (*range)[1]) fail("{}'{}' is [{}, {}]: lo must not exceed hi", where, name, (*range)[0], (*range)[1]);
  }
  // Each range is lo <= hi, so it stays within the limits when both its ends do.
  if (!cute_swizzle_within_limits(m.b[0], m.m[0], m.s[0]) || !cute_swizzle_within_limits(m.b[1], m.m[1], m.s[1]))
    fail("{}'exercise.moves.swizzle' reaches outside Swizzle's own limits ({})", where, cute_swizzle_limits_text());
  if (!s.problem.shared)
    fail("{}'exercise': its moves are a CuTe swizzle's parameters, and this step gives no 'shared' CuTe layout", where);
  if (const std::int64_t n = exercise_swizzle_states(m); n > kExerciseMaxStates)
    fail("{}'exercise.moves.swizzle' allows {} swizzles, more than the {} a check searches: narrow the ranges", where, n,
         kExerciseMaxStates);
  if (!find_swizzle_start(m, s.problem.shared->layout))
    fail("{}'exercise': the step's layout is no Swizzle<B,M,S> of a plain CuTe layout with B in {}..{}, M in {}..{}, S in {}..{}",
         where, m.b[0], m.b[1], m.m[0], m.m[1], m.s[0], m.s[1]);
  return m;
}

// A step's exercise (lesson_exercise.h): its goal is measured on the step's problem like a claim,
// its moves are the toggle grid's and bounded, so `lesson check` can search them all.
LessonExercise parse_exercise(const nlohmann::json& j, const LessonStep& s, const Problem& p, const ProblemAnalysis& a,
                              const std::string& where) {
  if (!j.is_object()) fail("{}'exercise' must be an object", where);
  check_keys(j, {"task", "goal", "moves", "hints"}, where + "'exercise': ");
  LessonExercise e;
  e.task = text_of(j, "task", where + "'exercise': ");
  if (!j.contains("goal")) fail("{}'exercise': missing 'goal'", where);
  e.goal = parse_claims(j["goal"], "exercise.goal", p, a, s.step, where);
  if (e.goal.empty()) fail("{}'exercise.goal' is empty: name what the learner must reach", where);
  if (j.contains("hints")) {
    e.hints = paragraphs_of(j["hints"], "exercise.hints", where);
    for (const std::string& h : e.hints)
      if (h.empty()) fail("{}'exercise.hints' has an empty hint", where);
  }
  if (!j.contains("moves") || !j["moves"].is_object())
    fail("{}'exercise.moves' must be an object like {{\"toggles\": 2}}", where);
  if (j["moves"].contains("swizzle")) {
    e.swizzle = parse_swizzle_moves(j["moves"], s, where);
    return e;
  }
  if (!p.grid || p.grid->col_bits <= p.grid->vec_bits || s.problem.shared || !s.problem.variant.empty())
    fail("{}'exercise': its moves are toggles of the grid, and this step's layout is not a toggle-grid layout with toggles", where);
  if (!s.view.shows("grid") || (!s.view.focus.empty() && s.view.focus != "grid"))
    fail("{}'exercise': the moves are made on the toggle grid, which this step's view does not show", where);
  const auto& moves = j["moves"];
  check_keys(moves, {"toggles", "masks"}, where + "'exercise.moves': ");
  if (moves.empty()) fail("{}'exercise.moves' must give \"toggles\", \"masks\" or both", where);
  if (moves.contains("toggles")) e.toggles = int_of(moves["toggles"], "exercise.moves.toggles", where);
  if (moves.contains("masks")) e.masks = int_of(moves["masks"], "exercise.moves.masks", where);
  if ((moves.contains("toggles") && e.toggles < 1) || (moves.contains("masks") && e.masks < 1))
    fail("{}'exercise.moves' allows no move: give 1 or more", where);
  if (const std::int64_t n = exercise_states(e, *p.grid); n > kExerciseMaxStates)
    fail("{}'exercise.moves' allow {} states, more than the {} a check searches: allow fewer moves", where,
         n >= (std::int64_t{1} << 40) ? "over 2^{40}" : std::to_string(n), kExerciseMaxStates);
  return e;
}

// A step's prediction: the quantity is measured on the step's problem and must be a whole number
// the card does not already state (not one of the step's claims).
LessonPrediction parse_prediction(const nlohmann::json& j, const LessonStep& s, const Problem& p, const ProblemAnalysis& a,
                                  const std::string& where) {
  if (!j.is_object()) fail("{}'predict' must be an object like {{\"ask\": \"...\", \"quantity\": \"read.wavefronts\"}}", where);
  check_keys(j, {"ask", "quantity"}, where + "'predict': ");
  LessonPrediction out{text_of(j, "ask", where + "'predict': "), text_of(j, "quantity", where + "'predict': ")};
  const nlohmann::json value = measure(out.quantity, p, a, s.step);
  if (!value.is_number_integer())
    fail("{}'predict.quantity' '{}' is {} here, not a whole number a learner can type", where, out.quantity,
         describe_json_value(value));
  for (const LessonClaim& c : s.claims)
    if (c.quantity == out.quantity)
      fail("{}'predict.quantity' '{}' is also a claim of the step: the card would show the answer", where, out.quantity);
  return out;
}

LessonStep parse_step(const nlohmann::json& j, const LessonStep* previous, const std::string& where) {
  if (!j.is_object()) fail("{}a step must be an object", where);
  check_keys(j,
             {"title", "text", "notes", "minutes", "problem", "preset", "layout", "masks", "shared", "access", "step",
              "highlight", "claims", "view", "exercise", "predict"},
             where);
  LessonStep s;
  bool have_problem = false;
  if (previous) {
    s.problem = previous->problem;
    have_problem = true;
    s.access = previous->access;
    s.step = previous->step;
    s.view = previous->view;
  }
  s.title = text_of(j, "title", where);
  if (!j.contains("text")) fail("{}missing 'text'", where);
  s.paragraphs = paragraphs_of(j["text"], "text", where);
  if (s.paragraphs.empty() ||
      std::all_of(s.paragraphs.begin(), s.paragraphs.end(), [](const std::string& t) { return t.empty(); }))
    fail("{}'text' is empty", where);
  if (j.contains("minutes")) {  // the lecture's plan for this step (presenter view)
    const auto& m = j["minutes"];
    if (!m.is_number() || !(m.get<double>() > 0.0) || m.get<double>() > 90.0)
      fail("{}'minutes' must be a number of minutes above 0 and at most 90, not {}", where, m.dump());
    s.minutes = m.get<double>();
  }
  if (j.contains("notes")) {  // speaker notes: shown in the presenter view only
    s.notes = paragraphs_of(j["notes"], "notes", where);
  }

  const int layout_keys =
      static_cast<int>(j.contains("layout")) + static_cast<int>(j.contains("masks")) + static_cast<int>(j.contains("shared"));
  if (layout_keys > 1) fail("{}give only one of 'layout', 'masks' and 'shared'", where);
  if (j.contains("problem")) {
    if (j.contains("preset") || layout_keys)
      fail("{}'problem' gives the whole problem: leave out 'preset', 'layout', 'masks' and 'shared'", where);
    s.problem = spec_from_json(j["problem"], where + "'problem.");
    have_problem = true;
    s.step = 0;
  }
  if (j.contains("preset")) {
    const std::string preset = text_of(j, "preset", where);
    if (!have_problem || preset != s.problem.preset) {  // a new preset starts from its default layout
      s.problem = ProblemSpec{};
      s.problem.preset = preset;
      s.step = 0;
    }
    have_problem = true;
  }
  if (!have_problem) fail("{}the first step must name a 'preset' or a 'problem'", where);
  if (j.contains("layout")) set_named_layout(s.problem, text_of(j, "layout", where));
  if (j.contains("masks")) {
    s.problem.shared.reset();
    s.problem.variant.clear();
    s.problem.masks = masks_of(j["masks"], where);
  }
  if (j.contains("shared")) {
    const std::string shared_text = text_of(j, "shared", where);
    const LayoutFile f = parse_layout_text(shared_text, "'shared'");
    if (f.kind != LayoutKind::Shared) fail("{}'shared' is a distributed layout; a shared layout maps offsets to elements", where);
    // Normalised through the JSON form, as the workbench stores layouts it loads.
    s.problem.masks.clear();
    s.problem.variant.clear();
    s.problem.shared = SpecLayout{layout_from_json(layout_to_json(f.layout)).layout, shared_text};
  }
  if (j.contains("access")) {
    const auto& a = j["access"];
    if (a == "store")
      s.access = LessonAccess::Store;
    else if (a == "read")
      s.access = LessonAccess::Read;
    else
      fail("{}'access' must be \"store\" or \"read\", not {}", where, a.dump());
  }
  if (j.contains("step")) {
    s.step = int_of(j["step"], "step", where);
    if (s.step < 0) fail("{}'step' must be 0 or more", where);
  }

  const Problem p = problem_for_step(s);
  const ProblemAnalysis a = analyze(p);
  const int steps = (s.access == LessonAccess::Store ? a.store : a.read).simulated.steps;
  if (s.step >= steps)
    fail("{}register step {} is outside the {}'s steps 0..{}", where, s.step, s.access == LessonAccess::Store ? "store" : "read",
         steps - 1);

  if (j.contains("highlight")) {
    if (!j["highlight"].is_array()) fail("{}'highlight' must be a list of strings", where);
    for (const auto& h : j["highlight"]) {
      if (!h.is_string()) fail("{}'highlight' must be a list of strings", where);
      check_highlight(h.get<std::string>(), p);
      s.highlight.push_back(h.get<std::string>());
    }
  }
  if (j.contains("view")) s.view = parse_lesson_view(j["view"], where);
  check_lesson_view(s.view, p, s.highlight, where);
  if (j.contains("claims")) s.claims = parse_claims(j["claims"], "claims", p, a, s.step, where);
  if (j.contains("exercise")) s.exercise = parse_exercise(j["exercise"], s, p, a, where);
  if (j.contains("predict")) s.predict = parse_prediction(j["predict"], s, p, a, where);
  return s;
}

}  // namespace

Lesson parse_lesson(const nlohmann::json& j, const std::string& name, const std::string& origin) {
  const std::string top = origin + ": ";
  if (!j.is_object()) fail("{}a lesson is a JSON object", top);
  check_keys(j, {"format", "version", "title", "summary", "order", "quiz", "steps"}, top);
  if (!j.contains("format") || j["format"] != kLessonFormat) fail("{}'format' must be \"{}\"", top, kLessonFormat);
  if (!j.contains("version") || j["version"] != kLessonVersion) fail("{}'version' must be {}", top, kLessonVersion);
  Lesson l;
  l.name = name;
  l.title = text_of(j, "title", top);
  if (j.contains("summary")) l.summary = text_of(j, "summary", top);
  if (j.contains("order")) l.order = int_of(j["order"], "order", top);
  if (j.contains("quiz")) {  // the set must load now, not in front of the class
    l.quiz = text_of(j, "quiz", top);
    try {
      (void)load_quiz_set_file(resolve_quiz_set(l.quiz));
    } catch (const Error& e) {
      fail("{}'quiz': {}", top, e.what());
    }
  }
  if (!j.contains("steps") || !j["steps"].is_array() || j["steps"].empty()) fail("{}'steps' must be a non-empty list", top);
  const auto& steps = j["steps"];
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& sj = steps[i];
    std::string label = fmt::format("{}: step {}", origin, i + 1);
    if (sj.is_object() && sj.contains("title") && sj["title"].is_string())
      label += fmt::format(" (\"{}\")", sj["title"].get<std::string>());
    const std::string where = label + ": ";
    try {
      l.steps.push_back(parse_step(sj, l.steps.empty() ? nullptr : &l.steps.back(), where));
    } catch (const Error& e) {
      const std::string what = e.what();
      if (what.rfind(where, 0) == 0) throw;
      fail("{}{}", where, what);
    }
  }
  return l;
}

// [SECTION] Loading

Lesson load_lesson_file(const std::filesystem::path& path) {
  const std::string origin = path.filename().string();
  std::string text;
  try {
    text = read_text_file(path.string(), std::size_t{4} << 20);
  } catch (const Error& e) {
    fail("{}: {}", origin, e.what());
  }
  return parse_lesson(parse_json(text, origin), path.stem().string(), origin);
}

std::vector<std::filesystem::path> lesson_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return out;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_regular_file(ec) && entry.path().extension() == ".json") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace swz
