// lesson_claims.cpp: what a lesson's claims may name, measured on a problem, and whether they hold.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "lesson_facts.h"
#include "swz/error.h"
#include "swz/layout/factories.h"
#include "swz/teach/lesson.h"

namespace swz {

namespace {

// "bank(3,5).rest" -> name "bank", args {3, 5}, rest ".rest". False when `text` has no call form.
bool parse_call(const std::string& text, std::string& name, std::vector<std::int64_t>& args, std::string& rest) {
  const auto open = text.find('(');
  if (open == std::string::npos || open == 0) return false;
  const auto close = text.find(')', open);
  if (close == std::string::npos) fail("quantity '{}': missing ')'", text);
  name = text.substr(0, open);
  rest = text.substr(close + 1);
  args.clear();
  const std::string inner = text.substr(open + 1, close - open - 1);
  std::size_t pos = 0;
  while (pos <= inner.size()) {
    const auto comma = inner.find(',', pos);
    std::string item = inner.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    std::int64_t v = 0;
    int base = 10;
    const char* b = item.data();
    if (item.size() > 2 && item[0] == '0' && (item[1] == 'x' || item[1] == 'X')) {
      b += 2;
      base = 16;
    }
    const char* e = item.data() + item.size();
    auto [ptr, ec] = std::from_chars(b, e, v, base);
    if (item.empty() || ec != std::errc() || ptr != e || v < 0)
      fail("quantity '{}': '{}' is not a non-negative integer", text, item);
    args.push_back(v);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return true;
}

BitVec element(const Problem& p, const std::string& q, const std::vector<std::int64_t>& args) {
  if (args.size() != p.shape.size())
    fail("quantity '{}' needs {} coordinates for the {} tensor", q, p.shape.size(), fmt::join(p.shape, "x"));
  for (std::size_t d = 0; d < args.size(); ++d)
    if (args[d] >= p.shape[d]) fail("quantity '{}': coordinate {} is outside the {} tensor", q, args[d], fmt::join(p.shape, "x"));
  return p.shared.coords().flatten(args);
}

std::uint64_t byte_of(const Problem& p, BitVec flat) { return byte_address_of(p.shared.offset(flat), p.element_bits); }

nlohmann::json basis(const LemmaResult& l, const std::vector<BitVec>& vs, const Problem& p) {
  if (!l.applies) return nullptr;
  nlohmann::json j = nlohmann::json::array();
  for (BitVec v : vs) j.push_back(p.shared.coords().describe_out(v));
  return j;
}

nlohmann::json side_quantity(const std::string& q, const std::string& what, const AccessAnalysis& a, const Problem& p,
                             int register_step) {
  const AccessResult& s = a.simulated;
  const LemmaResult& l = a.lemma;
  if (what == "wavefronts") return s.wavefronts;
  if (what == "ideal_wavefronts") return s.ideal_wavefronts;
  if (what == "conflicts") return s.conflicts;
  if (what == "ways") return (s.wavefronts + s.ideal_wavefronts - 1) / std::max(1, s.ideal_wavefronts);
  if (what == "verdict") return verdict_text(s);
  if (what == "steps") return s.steps;
  if (what == "vec_bits") return s.vector.bits;
  if (what == "step_wavefronts") {
    if (register_step < 0 || register_step >= s.steps)
      fail("quantity '{}': register step {} is outside 0..{}", q, register_step, s.steps - 1);
    return s.per_instruction[static_cast<std::size_t>(register_step)];
  }
  if (what == "lemma_applies") return l.applies;
  if (what == "agrees") return a.agrees();
  if (what == "intersection_dim") return l.applies ? nlohmann::json(l.intersection_dim) : nlohmann::json(nullptr);
  if (what == "predicted_wavefronts") return l.applies ? nlohmann::json(l.predicted_wavefronts) : nlohmann::json(nullptr);
  if (what == "intersection_basis") return basis(l, l.intersection_basis, p);
  if (what == "segment_basis") return basis(l, l.segment_basis, p);
  if (what == "thread_basis") return basis(l, l.thread_basis, p);
  if (what == "register_basis" || what == "lane_basis") {
    // What one thread holds in its registers and what the lanes tell apart, whether or not the lemma applies.
    const Access& access = q.rfind("store.", 0) == 0 ? p.store : p.read;
    nlohmann::json j = nlohmann::json::array();
    for (BitVec v : access.layout.bases(what == "register_basis" ? "register" : "lane"))
      if (v != 0) j.push_back(p.shared.coords().describe_out(v));
    return j;
  }
  fail(
      "unknown quantity '{}' (an access knows wavefronts, ideal_wavefronts, conflicts, ways, verdict, steps, vec_bits, "
      "step_wavefronts, lemma_applies, agrees, intersection_dim, predicted_wavefronts, intersection_basis, segment_basis, "
      "thread_basis, register_basis, lane_basis)",
      q);
}

}  // namespace

nlohmann::json measure(const std::string& q, const Problem& p, const ProblemAnalysis& a, int register_step) {
  if (auto fact = measure_fact(q, p)) return *fact;  // CuTe and TMA facts, XOR tables, addresses, the construction
  if (q.rfind("store.", 0) == 0) return side_quantity(q, q.substr(6), a.store, p, register_step);
  if (q.rfind("read.", 0) == 0) return side_quantity(q, q.substr(5), a.read, p, register_step);
  if (q == "masks") {
    if (!p.grid || p.masks.empty()) fail("quantity 'masks': the shared layout is not a toggle grid here");
    return p.masks;
  }
  if (q == "layout.linear") return p.shared.is_linear();
  if (q == "layout.description") return p.shared.description();
  if (q == "layout.size") return p.shared.elements();
  if (q == "layout.cosize") return p.shared.extent();  // CuTe's cosize: the elements to allocate, largest offset + 1
  std::string name, rest;
  std::vector<std::int64_t> args;
  if (parse_call(q, name, args, rest)) {
    if (name == "xor_table") {
      if (args.size() != 2 || args[0] < 1 || args[1] < 1 || args[0] > 1024 || args[1] > 1024)
        fail("quantity '{}': xor_table takes rows and columns between 1 and 1024", q);
      const std::int64_t rows = args[0], cols = args[1];
      if (rest == ".out_of_bounds") {
        nlohmann::json out = nlohmann::json::array();
        for (std::int64_t m = 0; m < rows; ++m) {
          const auto row = xor_swizzle_row(m, cols);
          for (std::int64_t n = 0; n < cols; ++n)
            if (row[static_cast<std::size_t>(n)] >= cols) out.push_back({m, n});
        }
        return out;
      }
      std::string row_name;
      std::vector<std::int64_t> row_args;
      std::string row_rest;
      if (!rest.empty() && rest[0] == '.' && parse_call(rest.substr(1), row_name, row_args, row_rest) && row_name == "row" &&
          row_args.size() == 1 && row_rest.empty()) {
        if (row_args[0] >= rows) fail("quantity '{}': row {} is outside the {} rows", q, row_args[0], rows);
        return xor_swizzle_row(row_args[0], cols);
      }
      fail("quantity '{}': xor_table(R,C) is followed by .row(m) or .out_of_bounds", q);
    }
    if (!rest.empty()) fail("unknown quantity '{}': nothing may follow {}(...)", q, name);
    if (name == "bank") return p.bank.bank_of(byte_of(p, element(p, q, args)));
    if (name == "offset") return p.shared.offset(element(p, q, args));
    if (name == "chunk") return (byte_of(p, element(p, q, args)) % 128) / 16;
    if (name == "column_banks" || name == "row_banks") {
      if (p.shape.size() != 2) fail("quantity '{}' needs a 2-D tensor", q);
      const bool column = name == "column_banks";
      const std::int64_t limit = column ? p.shape[1] : p.shape[0];
      if (args.size() != 1 || args[0] >= limit)
        fail("quantity '{}': give one {} index below {}", q, column ? "column" : "row", limit);
      std::set<int> banks;
      for (std::int64_t i = 0; i < (column ? p.shape[0] : p.shape[1]); ++i) {
        const Coords c = column ? Coords{i, args[0]} : Coords{args[0], i};
        banks.insert(p.bank.bank_of(byte_of(p, p.shared.coords().flatten(c))));
      }
      return banks.size();
    }
  }
  fail("unknown quantity '{}' (see assets/lessons/README.md for the list)", q);
}

namespace {

bool holds(const std::string& quantity, const nlohmann::json& expected, const nlohmann::json& actual) {
  const bool is_basis = quantity.size() > 6 && quantity.compare(quantity.size() - 6, 6, "_basis") == 0;
  if (is_basis && expected.is_array() && actual.is_array()) {
    auto sorted = [](const nlohmann::json& j) {
      std::vector<std::string> v;
      for (const auto& e : j) v.push_back(e.is_string() ? e.get<std::string>() : e.dump());
      std::sort(v.begin(), v.end());
      return v;
    };
    return sorted(expected) == sorted(actual);
  }
  return expected == actual;
}

}  // namespace

std::vector<ClaimCheck> check_claims(const LessonStep& step, const Problem& p, const ProblemAnalysis& a) {
  std::vector<ClaimCheck> out;
  for (const LessonClaim& c : step.claims) {
    ClaimCheck check{c, measure(c.quantity, p, a, step.step), false};
    check.holds = holds(c.quantity, c.expected, check.actual);
    out.push_back(std::move(check));
  }
  return out;
}

double planned_minutes_before(const Lesson& lesson, std::size_t step) {
  double total = 0;
  for (std::size_t i = 0; i < step && i < lesson.steps.size(); ++i) total += lesson.steps[i].minutes;
  return total;
}

std::vector<ClaimCheck> check_claims_on(const LessonStep& step, const ProblemSpec& state, int register_step) {
  std::optional<Problem> built;
  ProblemAnalysis a;
  std::vector<ClaimCheck> out;
  try {
    built = build_problem(state);
    a = analyze(*built);
  } catch (const Error& e) {  // a state the simulator refuses (ldmatrix on split rows): no claim holds there
    for (const LessonClaim& c : step.claims) out.push_back({c, fmt::format("does not apply here ({})", e.what()), false});
    return out;
  }
  const Problem& p = *built;
  for (const LessonClaim& c : step.claims) {
    ClaimCheck check{c, nullptr, false};
    try {
      check.actual = measure(c.quantity, p, a, register_step);
      check.holds = holds(c.quantity, c.expected, check.actual);
    } catch (const Error& e) {
      check.actual = fmt::format("does not apply here ({})", e.what());
    }
    out.push_back(std::move(check));
  }
  return out;
}

std::vector<ClaimCheck> check_claims(const LessonStep& step) {
  const Problem p = problem_for_step(step);
  return check_claims(step, p, analyze(p));
}

}  // namespace swz
