// audit_pipeline.cpp: the copies of a pipelined loop as issued (audit_pipeline.h).
#include "audit_pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "swz/error.h"

namespace swz::audit_parts {

namespace {

// How one execution of a masked copy issues: every lane predicated off, every lane live, or some
// lanes off (its mask differs lane by lane: a tile's edge). Ordered so that a tally starts with Off.
enum class Issue { Off, Live, Edge };

constexpr std::int64_t kMostExecutions = std::int64_t{1} << 20;  // a trip count past this is not a tile loop

// The pointer tensor at iteration `i`, from its value at the first iteration and the change of one:
// Triton's address arithmetic is affine in the induction variable.
ttgir::Affine at_iteration(const ttgir::Affine& first, const std::vector<std::int64_t>& delta, std::int64_t i) {
  ttgir::Affine f = first;
  for (std::size_t e = 0; e < f.constant.size(); ++e) f.constant[e] += i * delta[e];
  return f;
}

// Values for the unknown arguments of a loop bound `name`, so that the loop runs `trip` times: a
// bound of one unknown argument is solved for it (rounded up to its tt.divisibility); said by `arguments`.
std::string assume_bound(const ttgir::PointerReader& reader, const std::string& name, std::int64_t lower, std::int64_t step,
                         std::int64_t trip, KnownArguments& arguments) {
  const ttgir::Followed f = reader.follow_with(name, arguments.values);
  if (!f.value) return f.why_not;
  const ttgir::Affine& v = *f.value;
  if (v.uniform_unknown || v.coefficient.size() != 1 || v.constant.size() != 1)
    return fmt::format("{} is not one unknown argument plus a constant", name);
  const auto& [argument, coefficient] = *v.coefficient.begin();
  if (coefficient.front() == 0) return fmt::format("{} does not move with {}", name, argument);
  std::int64_t value = (lower + trip * step - v.constant.front()) / coefficient.front();
  std::int64_t divisibility = 1;
  if (const auto a = reader.arguments().find(argument); a != reader.arguments().end() && a->second.divisibility)
    divisibility = std::max<std::int64_t>(1, *a->second.divisibility);
  value = (value + divisibility - 1) / divisibility * divisibility;
  arguments.values.emplace(argument, value);
  return "";
}

// The arguments a value reads, said once each ("; %K taken as 256").
std::string said_arguments(const ttgir::PointerReader& reader, const std::vector<std::string>& names,
                           const KnownArguments& arguments) {
  std::string out;
  std::vector<std::string> done;
  for (const std::string& name : names) {
    const ttgir::Followed f = reader.follow(name);
    if (!f.value) continue;
    for (const auto& [argument, coefficient] : f.value->coefficient) {
      if (std::find(done.begin(), done.end(), argument) != done.end() || arguments.said(argument).empty()) continue;
      done.push_back(argument);
      out += (out.empty() ? "" : ", ") + arguments.said(argument);
    }
  }
  return out;
}

// The arguments a mask reads, said once each ("%N = 96 (given), %K taken as 256").
std::string said_inputs(const ttgir::PointerReader& reader, const std::string& mask, const KnownArguments& arguments) {
  std::string out;
  for (const std::string& input : reader.inputs_of(mask))
    if (const std::string said = arguments.said(input); !said.empty()) out += (out.empty() ? "" : ", ") + said;
  return out;
}

// The predicate operands of a copy's LDGSTS, each once ("P1", "P0, P1").
std::string registers_of(const CopySass& sass) {
  std::vector<std::string> seen;
  for (const std::string& p : sass.predicates)
    if (std::find(seen.begin(), seen.end(), p) == seen.end()) seen.push_back(p.empty() ? "no predicate operand" : p);
  return fmt::format("{}", fmt::join(seen, ", "));
}

// What the SASS decided for a live masked .cg copy, and what that rests on.
std::string sass_note(const CopySass& sass) {
  const std::string registers = registers_of(sass), lines = fmt::format("{}", fmt::join(sass.lines, ", "));
  const auto p0 = std::count(sass.predicates.begin(), sass.predicates.end(), "P0");
  const std::string decided = sass.alone
                                  ? fmt::format("its {} is the only stage moving data at these arguments: its ideal", sass.stage)
                              : p0 == static_cast<std::ptrdiff_t>(sass.predicates.size()) ? std::string("its ideal")
                              : p0 > 0 ? std::string("the LDGSTS reading P0 at their ideal, the others by rule 5")
                                       : std::string("rule 5");
  return fmt::format(
      "; its LDGSTS (SASS lines {}) read {}: {} (H200: a live masked .cg copy of Triton's kernels counted its ideal where "
      "its predicate operand is P0 or its prologue stage alone moved data, else rule 5)",
      lines, registers, decided);
}

// What the SASS decided for a masked .cg copy predicated off.
std::string sass_off_note(const CopySass& sass) {
  const auto not_p0 = std::count(sass.predicates.begin(), sass.predicates.end(), "!P0");
  return fmt::format(
      "; predicated off, its LDGSTS read {}: {} (H200: a predicated-off masked .cg copy of Triton's kernels counted rule 5 at "
      "its pointers where its predicate operand is !P0, its shared writes alone otherwise)",
      registers_of(sass),
      not_p0 == 0 ? "its shared writes alone (rule 4 without merging)"
      : not_p0 == static_cast<std::ptrdiff_t>(sass.predicates.size())
          ? "rule 5 at its pointers"
          : "rule 5 at its pointers where !P0, else its writes alone");
}

}  // namespace

std::optional<CopyIssues> price_copy_issues(const ttgir::PointerReader& reader, const ttgir::Op& op, const Access& access,
                                            const SharedLayout& shared, int bits, const BankModel& bank,
                                            KnownArguments& arguments, const CopySass* sass) {
  if (op.operands.size() < 2 || !access.global_bytes) return std::nullopt;
  // Every loop's runtime bound valued first, so that a prologue copy's mask (K > 64) reads the
  // same %K its loop runs to.
  for (const ttgir::Loop& l : reader.loops()) {
    std::string why;
    const auto lb = reader.scalar(l.lower, arguments.values, why);
    const auto st = lb ? reader.scalar(l.step, arguments.values, why) : std::nullopt;
    if (lb && st && *st > 0 && !reader.scalar(l.upper, arguments.values, why))
      (void)assume_bound(reader, l.upper, *lb, *st, /*trip=*/64, arguments);
  }
  const std::string& pointer = op.operands[0];
  const std::string mask = op.operands.size() > 2 ? op.operands[2] : std::string();
  const ttgir::Loop* loop = nullptr;
  for (const std::string& value : {pointer, op.operands[1], mask})
    if (const ttgir::Loop* l = value.empty() ? nullptr : reader.loop_of(value); l && (!loop || l->line > loop->line)) loop = l;

  CopyIssues out;
  std::string how;  // what the executions rest on
  ttgir::Values env = arguments.values;
  std::int64_t lower = 0, step = 0;
  if (loop) {
    std::string why;
    const auto lb = reader.scalar(loop->lower, env, why);
    const auto st = lb ? reader.scalar(loop->step, env, why) : std::nullopt;
    if (!lb || !st || *st <= 0) return std::nullopt;  // priced at its first iteration, as read
    lower = *lb;
    step = *st;
    const auto ub = reader.scalar(loop->upper, env, why);  // a runtime bound not given was assumed above
    if (!ub) return std::nullopt;
    out.executions = std::max<std::int64_t>(0, (*ub - lower + step - 1) / step);
    if (out.executions > kMostExecutions) return std::nullopt;
    // The loop named by its induction variable: a note that names no line moves with a dump's modules (audit_dump.cpp).
    how = fmt::format("issued {} times by the scf.for over {} (from {} to {} step {}; {})", out.executions, loop->induction,
                      lower, *ub, step, said_arguments(reader, {loop->upper}, arguments));
  }
  if (out.executions == 0) {
    out.wavefronts = 0;
    out.note = "; " + how + ": never issued";
    return out;
  }

  // The pointers at the first iteration and the change per iteration (linear in the induction variable).
  auto pointers_at = [&](std::int64_t i) {
    ttgir::Values at = env;
    if (loop) at[loop->induction] = lower + i * step;
    return reader.follow_with(pointer, at);
  };
  const ttgir::Followed first = pointers_at(0);
  if (!first.value) return std::nullopt;
  std::vector<std::int64_t> delta(first.value->constant.size(), 0);
  if (loop && out.executions > 1) {
    const ttgir::Followed second = pointers_at(1), third = pointers_at(2);
    if (!second.value || !third.value || second.value->coefficient != first.value->coefficient) return std::nullopt;
    for (std::size_t e = 0; e < delta.size(); ++e) {
      delta[e] = second.value->constant[e] - first.value->constant[e];
      if (third.value->constant[e] - second.value->constant[e] != delta[e]) return std::nullopt;  // not affine in it
    }
  }

  const bool bypass = access.vec_bits == 128;  // Triton's 16-byte copies are .cg (bank.h)
  // The SASS's predicate operands decide a live masked .cg copy's count (CopySass).
  const bool by_sass = sass && bypass && !mask.empty();
  auto at_ideal = [&](std::size_t k) { return sass->alone || sass->predicates[k] == "P0"; };
  // An execution's placement: its lanes' global bytes and, where its mask differs lane by lane (a
  // tile's edge), the elements whose lanes move no data.
  using Placement = std::tuple<Issue, std::vector<std::int64_t>, std::vector<std::uint8_t>>;
  struct Price {
    double count = 0, ideal = 0;  // wavefronts per instruction
  };
  std::map<Placement, Price> priced;
  std::map<std::pair<Issue, double>, std::int64_t> tally;  // (how issued, wavefronts) -> executions
  std::string mask_why;
  double total = 0;
  std::optional<std::pair<double, double>> below;  // the live execution with the lowest ideal under its count: {ideal, count}
  std::optional<std::pair<double, double>> below_off;  // the same among those predicated off
  bool sass_live = false, sass_off = false;            // a live / predicated-off execution priced by what the SASS says
  // A mask read lane by lane (a tile's edge: `rows < M`) is read at one program: the program ids
  // not given are taken as 0. Arguments it reads that are not given leave it unread.
  ttgir::Values program;
  std::string programs_taken, missing;
  if (!mask.empty()) {
    const std::map<std::string, int>& ids = reader.program_ids();
    for (const std::string& input : reader.inputs_of(mask)) {
      if (env.count(input)) continue;
      if (ids.count(input)) {
        program[input] = 0;
        programs_taken += (programs_taken.empty() ? "" : ", ") + input + " = 0";
      } else {
        missing += (missing.empty() ? "" : ", ") + input;
      }
    }
  }
  for (std::int64_t i = 0; i < out.executions; ++i) {
    ttgir::Values at = env;
    if (loop) at[loop->induction] = lower + i * step;
    Issue issue = Issue::Live;
    std::vector<std::uint8_t> off;  // by flat coordinate, where the mask differs lane by lane
    if (!mask.empty() && mask_why.empty()) {
      ttgir::Values mask_at = at;
      mask_at.insert(program.begin(), program.end());
      std::string why;
      if (const auto on = reader.scalar(mask, mask_at, why)) {
        issue = *on != 0 ? Issue::Live : Issue::Off;
      } else if (const ttgir::Followed m = reader.follow_with(mask, mask_at);
                 m.value && m.value->coefficient.empty() && !m.value->uniform_unknown) {
        for (std::int64_t bit : by_coordinate(*m.value, access.layout, mask_at)) off.push_back(bit == 0 ? 1 : 0);
        const auto masked = std::count(off.begin(), off.end(), std::uint8_t{1});
        issue = masked == 0 ? Issue::Live : masked == static_cast<std::ptrdiff_t>(off.size()) ? Issue::Off : Issue::Edge;
        if (issue != Issue::Edge) off.clear();
      } else {
        mask_why = missing.empty()
                       ? why
                       : fmt::format("it reads {}, not given (--arg NAME=VALUE: a tile's edge is priced lane by lane)", missing);
      }
    }
    std::vector<std::int64_t> bytes = global_addresses(at_iteration(*first.value, delta, i), access.layout, env);
    Placement key{issue, std::move(bytes), std::move(off)};
    auto it = priced.find(key);
    if (it == priced.end()) {
      Access issued = access;
      issued.global_bytes = std::make_shared<const std::vector<std::int64_t>>(std::get<1>(key));
      // Predicated off a copy reads nothing: a 4- or 8-byte copy, and a 16-byte one in the prologue, as
      // measured, cost their shared writes alone; a 16-byte one in the loop is priced by rule 5 at its pointers.
      issued.moves_no_data = issue == Issue::Off && (!bypass || !loop);
      if (issue == Issue::Edge) issued.no_data = std::make_shared<const std::vector<std::uint8_t>>(std::get<2>(key));
      const AccessResult r = simulate(issued, shared, bits, bank);
      const double instructions = std::max(1, r.steps * r.warps);
      // An instruction with some lanes masked counts its write-only count (bank.cpp, per_lane_predicates).
      double count = issue == Issue::Edge && r.total_write_only >= 0 ? static_cast<double>(r.total_write_only) / instructions
                                                                     : r.mean_wavefronts;
      if (by_sass && issue == Issue::Live && !r.per_instruction.empty() &&
          sass->predicates.size() == static_cast<std::size_t>(r.steps)) {
        std::int64_t sum = 0;
        for (std::size_t k = 0; k < r.per_instruction.size(); ++k)
          sum += at_ideal(k % sass->predicates.size()) ? r.per_instruction_ideal[k] : r.per_instruction[k];
        count = static_cast<double>(sum) / instructions;
        out.sass_priced = sass_live = true;
      }
      if (by_sass && issue == Issue::Off && !r.per_instruction.empty() &&
          sass->predicates.size() == static_cast<std::size_t>(r.steps)) {
        Access writes = issued, sectors = issued;  // its shared writes alone; rule 5 at its pointers
        writes.moves_no_data = true;
        sectors.moves_no_data = false;
        const AccessResult w = simulate(writes, shared, bits, bank), f = simulate(sectors, shared, bits, bank);
        std::int64_t sum = 0;
        for (std::size_t k = 0; k < w.per_instruction.size() && k < f.per_instruction.size(); ++k)
          sum += sass->predicates[k % sass->predicates.size()] == "!P0" ? f.per_instruction[k] : w.per_instruction[k];
        count = static_cast<double>(sum) / instructions;
        out.sass_priced = sass_off = true;
      }
      it = priced.emplace(std::move(key), Price{count, static_cast<double>(r.total_ideal) / instructions}).first;
    }
    const Price& p = it->second;
    total += p.count;
    if (i == 0 && issue == Issue::Live) {
      out.first = p.count;
      out.first_ideal = p.ideal;
    }
    out.moves_data = out.moves_data || issue != Issue::Off;
    ++tally[{issue, p.count}];
    auto& lowest = issue == Issue::Off ? below_off : below;
    if (p.ideal < p.count && (!lowest || p.ideal < lowest->first)) lowest = std::make_pair(p.ideal, p.count);
  }
  out.wavefronts = total / static_cast<double>(out.executions);
  // Triton masks a copy with src-size 16 or 0 from a predicate, which ptxas issues as LDGSTS with a
  // predicate operand; on the H200 such a live .cg copy of Triton's matmuls counted its ideal where
  // that operand is P0 or its stage was the only one moving data, else rule 5, the instruction's
  // other fields and its addresses alike (tests/data/triton/copies/h200-20261130-edited: cubins edited).
  // The register is ptxas's choice, not in the module, so the line prices rule 5 and names the ideal.
  std::string lower_end =
      bypass && !mask.empty() && below && !sass_live
          ? fmt::format(
                "; masked as Triton masks it (LDGSTS with a predicate operand) a .cg copy has also measured only its "
                "ideal, {:.2f} against {:.2f} here (H200: where the SASS gives it predicate P0, or its pipeline stage "
                "is the only one moving data), so this is the upper end; with the kernel's SASS (--sass) the audit prices it by "
                "its "
                "LDGSTS's register",
                below->first, below->second)
          : std::string();
  if (sass_live) lower_end = sass_note(*sass);

  std::string parts;
  for (const auto& [what, count] : tally)
    parts += fmt::format("{}{} {} at {:.2f}", parts.empty() ? "" : ", ", count,
                         what.first == Issue::Live  ? "live"
                         : what.first == Issue::Off ? "predicated off"
                                                    : "partly masked",
                         what.second);
  if (!loop && tally.size() == 1 && tally.begin()->first.first == Issue::Live && mask_why.empty()) {  // issued once, live
    out.note = lower_end;
    return out;
  }
  out.note = "; " + (how.empty() ? std::string("issued once") : how) + ": " + parts;
  if (!mask.empty()) {
    if (!mask_why.empty())
      out.note += fmt::format(" (its mask {} not evaluated: {}; priced live)", mask, mask_why);
    else if (const std::string said = said_inputs(reader, mask, arguments);
             !said.empty() && (!loop || tally.rbegin()->first.first == Issue::Edge))
      out.note += fmt::format(" (mask {} with {})", mask, said);
  }
  // Predicated off, Triton's .cg copies of six matmuls counted their shared writes alone in every
  // prologue stage and those or rule 5 in the loop (H200, tests/data/triton/copies/h200-20261129-predicated-off,
  // h200-20261130-edited).
  if (tally.begin()->first.first == Issue::Off)
    out.note += sass_off  ? sass_off_note(*sass)
                : !bypass ? "; predicated off it writes zeros and reads nothing (rule 4: the store rule without merging)"
                : !loop   ? "; predicated off in the prologue a .cg copy writes zeros and reads nothing: its shared writes alone "
                            "(rule 4 without merging), as every such copy of six Triton matmuls measured (H200)"
                : below_off
                    ? fmt::format(
                          "; predicated off a .cg copy writes zeros, priced by rule 5 at its pointers, the upper end: such "
                          "copies have also measured only their ideal, {:.2f} against {:.2f} here (H200: every prologue "
                          "stage of five matmuls, some loops)",
                          below_off->first, below_off->second)
                    : "; predicated off a .cg copy writes zeros, priced by rule 5 at its pointers, here its ideal";
  if (tally.rbegin()->first.first == Issue::Edge)
    out.note += fmt::format(
        "; partly masked (a tile's edge{}): an instruction with some lanes masked counts as the src-size form whose masked "
        "lanes only write their zeros, one with all masked as predicated off (H200: Triton's matmuls at M, N and K edges)",
        programs_taken.empty() ? std::string() : ", at program " + programs_taken);
  out.note += lower_end;
  return out;
}

}  // namespace swz::audit_parts
