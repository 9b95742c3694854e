// audit_output.cpp: the audit as JSON and as the terminal table; its fixes written into the
// module's text (audit.h).
#include <fmt/format.h>

#include <algorithm>

#include "swz/error.h"
#include "swz/kernel/audit.h"
#include "swz/problem/problem.h"
#include "swz/sim/bank.h"

namespace swz {

AuditCounts count_accesses(const AuditReport& report) {
  AuditCounts c;
  for (const auto& a : report.accesses) {
    if (a.wavefronts) {
      ++c.modelled;
      const bool conflicted = a.ideal_wavefronts && *a.wavefronts > *a.ideal_wavefronts + 1e-9;
      c.conflicted += conflicted;
      c.at_optimum += conflicted && a.at_optimum && !a.suggestion;
    } else if (a.index_dependent) {
      ++c.index_dependent;
    } else if (a.instruction == "not modelled") {
      ++c.not_modelled;
    } else {
      ++c.other;
    }
  }
  return c;
}

namespace {

nlohmann::json suggestion_json(const AuditSuggestion& s) {
  auto opt = [](const auto& v) -> nlohmann::json { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  const bool shared = s.target == AuditSuggestion::Target::SharedLayout;
  nlohmann::json change{{"old", s.old_layout}, {"new", s.new_layout}};
  nlohmann::json consumers = nlohmann::json::array();
  for (const auto& c : s.consumers)
    consumers.push_back({{"line", c.line}, {"op", c.op}, {"role", c.role}, {"legal", c.refusal.empty()}});
  nlohmann::json patch = nlohmann::json::array();
  for (const auto& p : s.patch)
    patch.push_back({{"line", p.line}, {"occurrence", p.occurrence}, {"old", p.old_text}, {"new", p.new_text}});
  return {{"buffer", s.buffer},
          {"line", s.line},
          {"shared_layout", shared ? change : nlohmann::json(nullptr)},
          {"distributed_layout", shared ? nlohmann::json(nullptr) : change},
          {"instruction_after", s.instruction_after},
          {"instructions_after", s.instructions_after},
          {"wavefronts_after", s.wavefronts_after},
          {"total_wavefronts_before", s.total_wavefronts_before},
          {"total_wavefronts_after", s.total_wavefronts_after},
          {"global_sectors_before", opt(s.global_sectors_before)},
          {"global_sectors_after", opt(s.global_sectors_after)},
          {"consumers", consumers},
          {"chosen", s.chosen},
          {"basis", s.basis},
          {"patch", patch}};
}

}  // namespace

nlohmann::json to_json(const AuditReport& report) {
  nlohmann::json list = nlohmann::json::array();
  auto opt = [](const auto& v) -> nlohmann::json { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  for (const auto& a : report.accesses) {
    nlohmann::json j;
    j["op"] = a.op;
    j["line"] = a.line;
    j["loc"] = a.loc.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.loc);
    j["direction"] = opt(a.direction);
    j["instruction"] = a.instruction;
    j["instructions"] = a.instructions;
    j["predicated_off"] = a.predicated_off;
    j["executions"] = a.executions;
    j["issued_wavefronts"] = a.issued_wavefronts ? nlohmann::json(*a.issued_wavefronts) : nlohmann::json(nullptr);
    if (!a.sass_lines.empty()) j["sass_lines"] = a.sass_lines;
    j["wavefronts"] = opt(a.wavefronts);
    j["ideal_wavefronts"] = opt(a.ideal_wavefronts);
    j["worst_wavefronts"] = opt(a.worst_wavefronts);
    j["index_dependent"] = a.index_dependent;
    j["conflicts"] = opt(a.conflicts);
    j["shared_layout"] = a.shared_layout.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.shared_layout);
    j["distributed_layout"] = a.distributed_layout.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.distributed_layout);
    // An index into "suggestions": a buffer's suggestion lists every op using it, so one copy per
    // access would grow with the square of the accesses.
    j["suggestion"] = opt(a.suggestion_index);
    j["suggestion_wavefronts"] = opt(a.suggestion_wavefronts);
    j["no_suggestion"] = a.no_suggestion.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.no_suggestion);
    j["at_optimum"] = a.at_optimum && !a.suggestion;
    j["note"] = a.note;
    list.push_back(std::move(j));
  }
  nlohmann::json suggestions = nlohmann::json::array();
  for (const auto& s : report.suggestions) suggestions.push_back(suggestion_json(s));
  const AuditCounts c = count_accesses(report);
  nlohmann::json module = nullptr;
  if (report.module_count > 1)
    module = {{"index", report.module_index},
              {"count", report.module_count},
              {"first_line", report.first_line},
              {"header", report.header.empty() ? nlohmann::json(nullptr) : nlohmann::json(report.header)}};
  return {{"path", report.path},
          {"module", module},
          {"lines", report.lines},
          {"num_warps", report.num_warps},
          {"gpu", report.gpu},
          {"gpu_note", report.gpu_note.empty() ? nlohmann::json(nullptr) : nlohmann::json(report.gpu_note)},
          {"accesses", list},
          {"suggestions", suggestions},
          {"summary",
           {{"modelled", c.modelled},
            {"conflicted", c.conflicted},
            {"not_modelled", c.not_modelled},
            {"index_dependent", c.index_dependent},
            {"other", c.other}}}};
}

std::string consumers_summary(const AuditSuggestion& s, std::size_t shown) {
  std::string users;
  for (std::size_t i = 0; i < s.consumers.size() && i < shown; ++i)
    users += fmt::format("{}line {} {}", i ? ", " : "", s.consumers[i].line, s.consumers[i].role);
  if (s.consumers.size() > shown)
    users += fmt::format(", and {} more op{} ({} in all)", s.consumers.size() - shown, s.consumers.size() - shown == 1 ? "" : "s",
                         s.consumers.size());
  return users;
}

std::optional<int> instruction_vector_bits(const std::string& instruction) {
  const std::size_t dot = instruction.rfind('.');
  if (dot == std::string::npos || instruction.find("SM.") != std::string::npos) return std::nullopt;  // LDSM / STSM
  std::string width = instruction.substr(dot + 1);
  if (!width.empty() && (width.front() == 'U' || width.front() == 'S')) width.erase(0, 1);
  if (width.empty() || !std::all_of(width.begin(), width.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  return std::stoi(width);
}

ProblemSpec audit_layouts(const AuditReport& report, std::size_t index) {
  const AuditAccess& a = report.accesses.at(index);
  if (!a.writer || !a.reader || !a.shared_offsets)
    fail("{}:{}: {} has no writer, reader and linear shared layout to load", report.path, a.line, a.op);
  const std::string origin = fmt::format("{}:{}", report.path.substr(report.path.find_last_of('/') + 1), a.line);
  ProblemSpec spec;
  spec.preset = "";
  if (a.writer->shape().size() == 2) spec.shape = a.writer->shape();  // a tile; other ranks: the layouts' shape alone
  spec.element_bits = a.element_bits;
  spec.writer = SpecLayout{*a.writer, origin + " writer"};
  spec.reader = SpecLayout{*a.reader, origin + " reader"};
  spec.shared = SpecLayout{*a.shared_offsets, origin + " shared"};
  return spec;
}

ProblemSpec audit_problem(const AuditReport& report, std::size_t index) {
  const AuditAccess& a = report.accesses.at(index);
  ProblemSpec spec = audit_layouts(report, index);
  const std::string origin = fmt::format("{}:{}", report.path.substr(report.path.find_last_of('/') + 1), a.line);
  const bool store = a.direction == std::optional<std::string>("store");
  // The other side: on a convert_layout's own line, else the buffer's access of the other direction
  // whose layout this one carries as its partner.
  const AuditAccess* partner = nullptr;
  for (const AuditAccess& b : report.accesses) {
    if (&b == &a || !b.direction || b.direction == a.direction || b.shared_layout != a.shared_layout) continue;
    const bool same_line = b.line == a.line;
    const bool paired = store ? b.reader && *b.reader == *a.reader : b.writer && *b.writer == *a.writer;
    if (same_line || (!partner && paired)) partner = &b;
    if (same_line) break;
  }
  // Each side as its instruction issues it (AuditAccess::issued), so the problem simulates what the
  // audit priced; a side with no partner is its register layout at the widest vector it allows.
  const auto issue = [&spec, &origin](const AuditAccess& side, bool writer) {
    const Access& access = *side.issued;
    const std::string matrix =
        access.ldmatrix ? fmt::format("x{}{}", access.ldmatrix, access.trans ? ".trans" : "") : std::string();
    (writer ? spec.writer : spec.reader) =
        SpecLayout{access.layout, fmt::format("{} {}", origin, writer ? "writer" : "reader")};
    (writer ? spec.write_matrix : spec.read_matrix) = matrix;
    (writer ? spec.write_vec_bits : spec.read_vec_bits) = access.ldmatrix ? 0 : access.vec_bits;
  };
  if (a.issued) issue(a, store);
  if (partner && partner->issued) issue(*partner, !store);
  if (!a.issued) {
    // A side the audit did not price over this layout: the width its instruction names, where the layout allows it.
    int& side = store ? spec.write_vec_bits : spec.read_vec_bits;
    side = instruction_vector_bits(a.instruction).value_or(0);
    if (side) {
      try {
        const Problem problem = build_problem(spec);
        (void)choose_vector(store ? problem.store : problem.read, problem.shared, problem.element_bits, problem.bank);
      } catch (const Error&) {
        side = 0;
      }
    }
  }
  return spec;
}

std::string module_label(const AuditReport& report) {
  if (report.module_count <= 1) return report.path;
  return fmt::format("{}, module {} of {} (line {}{})", report.path, report.module_index, report.module_count, report.first_line,
                     report.header.empty() ? "" : ": " + report.header);
}

std::string format_audit(const AuditReport& report) {
  std::string s = fmt::format("{}: {} lines, {} warps, {} shared-memory accesses\n", module_label(report), report.lines,
                              report.num_warps, report.accesses.size());
  if (!report.gpu_note.empty()) s += "  " + report.gpu_note + "\n";
  s += fmt::format("{:>6}  {:<30} {:<6} {:<13} {:>6} {:>11} {:>5} {:>5}  {}\n", "line", "op", "dir", "instruction", "instrs",
                   "wavefronts", "ideal", "worst", "loc / note");
  auto num = [](const std::optional<double>& v) { return v ? fmt::format("{:.2f}", *v) : std::string("-"); };
  auto inum = [](const std::optional<int>& v) { return v ? fmt::format("{}", *v) : std::string("-"); };
  for (const auto& a : report.accesses) {
    const bool bad = a.wavefronts && a.ideal_wavefronts && *a.wavefronts > *a.ideal_wavefronts + 1e-9;
    std::string tail = a.loc;
    if (!a.note.empty() && (a.instruction == "not modelled" || a.instruction == "wgmma" || a.instruction == "tcgen05.mma" ||
                            a.instruction == "tensor memory" || a.instruction == "shuffle" || a.instruction == "registers" ||
                            a.instruction.rfind("LDGSTS", 0) == 0 || a.index_dependent ||
                            (a.op == "tt.gather" && a.direction == "load")))  // a gather's loads: how many is the compiler's
      tail += (tail.empty() ? "" : "  ") + a.note;
    s += fmt::format("{:>6}  {:<30} {:<6} {:<13} {:>6} {:>11} {:>5} {:>5}  {}{}\n", a.line, a.op, a.direction.value_or("-"),
                     a.instruction, a.instructions, num(a.wavefronts), inum(a.ideal_wavefronts), inum(a.worst_wavefronts),
                     bad ? "CONFLICT  " : "", tail);
    if (a.suggestion_index) {
      const AuditSuggestion& g = report.suggestions.at(*a.suggestion_index);
      s += fmt::format("        suggestion ({} wavefronts): {}\n", num(a.suggestion_wavefronts), *a.suggestion);
      s += fmt::format("        checked against: {}\n", consumers_summary(g));
      if (a.alternative_index) {
        const AuditSuggestion& alt = report.suggestions.at(*a.alternative_index);
        s += fmt::format("        alternative ({:.2f} wavefronts, {} x{}, {}): {} {}\n", alt.wavefronts_after, alt.instruction_after,
                         alt.instructions_after, alt.basis,
                         alt.target == AuditSuggestion::Target::DistributedLayout ? "copy layout" : "shared layout", alt.new_layout);
      }
    } else if (!a.no_suggestion.empty()) {
      s += fmt::format("        no suggestion: {}\n", a.no_suggestion);
    }
  }
  const AuditCounts c = count_accesses(report);
  // Never a bare "0 conflicts" over a kernel with accesses that were not priced.
  s += fmt::format("{} of {} modelled accesses have bank conflicts{}; {} not modelled{}", c.conflicted, c.modelled,
                   c.at_optimum ? fmt::format(" ({} at the optimum: no legal layout does better)", c.at_optimum) : "",
                   c.not_modelled, c.not_modelled ? " (not priced: the kernel may have conflicts there)" : "");
  if (c.index_dependent)
    s += fmt::format(
        "; {} priced only between ideal and worst (addresses are index values read at run time: the kernel may "
        "have conflicts there)",
        c.index_dependent);
  if (c.other) s += fmt::format("; {} without an LSU bank model (wgmma / tcgen05 operands, tensor memory, shuffles, registers)", c.other);
  s += "\n";
  return s;
}

// [SECTION] Fixes

std::string apply_patches(const std::string& text, const std::vector<AuditPatch>& patches) {
  std::vector<std::string> lines;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      if (start < text.size()) lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::vector<AuditPatch> order = patches;
  // On one line, later occurrences first: replacing one does not renumber the ones before it.
  std::stable_sort(order.begin(), order.end(), [](const AuditPatch& a, const AuditPatch& b) {
    return a.line != b.line ? a.line < b.line : a.occurrence > b.occurrence;
  });
  std::vector<std::string> inserted(lines.size());
  for (const AuditPatch& p : order) {
    if (p.line < 1 || static_cast<std::size_t>(p.line) > lines.size()) fail("patch: line {} is past the end of the module", p.line);
    std::string& line = lines[static_cast<std::size_t>(p.line - 1)];
    if (p.old_text.empty()) {
      inserted[static_cast<std::size_t>(p.line - 1)] += "\n" + p.new_text;
      continue;
    }
    std::size_t at = line.find(p.old_text);
    for (int i = 0; i < p.occurrence && at != std::string::npos; ++i) at = line.find(p.old_text, at + p.old_text.size());
    if (at == std::string::npos) fail("patch: line {} does not hold '{}'", p.line, p.old_text);
    line.replace(at, p.old_text.size(), p.new_text);
  }
  std::string out;
  out.reserve(text.size() + 256);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += lines[i];
    out += inserted[i];
    if (i + 1 < lines.size() || (!text.empty() && text.back() == '\n')) out += '\n';
  }
  return out;
}

namespace {
double modelled_total(const AuditReport& r) {
  double total = 0;
  for (const auto& a : r.accesses)
    if (a.wavefronts) total += *a.wavefronts * static_cast<double>(a.instructions);
  return total;
}
}  // namespace

std::string fix_module(const std::string& text, const AuditReport& report) {
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < report.suggestions.size(); ++i)
    if (report.suggestions[i].chosen) chosen.push_back(i);
  return fix_module(text, report, chosen);
}

std::string fix_module(const std::string& text, const AuditReport& report, const std::vector<std::size_t>& chosen) {
  if (chosen.empty()) {
    const AuditCounts c = count_accesses(report);
    if (c.conflicted == 0 && c.not_modelled > 0) {
      for (const auto& a : report.accesses)
        if (a.instruction == "not modelled")
          fail("{}:{}: nothing to fix: no modelled access has a bank conflict, and {} accesses are not modelled (the first: {})",
               report.path, a.line, c.not_modelled, a.op);
    }
    if (c.conflicted == 0) fail("{}: nothing to fix: no modelled access has a bank conflict", report.path);
    for (const auto& a : report.accesses)
      if (!a.no_suggestion.empty()) fail("{}:{}: nothing to fix: {}", report.path, a.line, a.no_suggestion);
    fail("{}: nothing to fix: no conflicted access has a legal layout that does better", report.path);
  }
  std::vector<AuditPatch> patches;
  for (std::size_t i : chosen) {
    if (i >= report.suggestions.size()) fail("no suggestion {} (the audit made {})", i, report.suggestions.size());
    const auto& p = report.suggestions[i].patch;
    patches.insert(patches.end(), p.begin(), p.end());
  }
  // A module of a file holding several: its own text is patched and written, its lines counted
  // from its first.
  std::string_view module_text = text;
  if (report.module_count > 1 || report.first_line > 1) {
    const auto spans = ttgir::split_modules(text);
    const std::size_t at = static_cast<std::size_t>(report.module_index - 1);
    if (at >= spans.size() || spans[at].first_line != report.first_line)
      fail("{}: module {} of the report is not in this text", report.path, report.module_index);
    module_text = module_text.substr(spans[at].begin, spans[at].end - spans[at].begin);
    for (AuditPatch& p : patches) p.line -= report.first_line - 1;
  }
  std::string fixed = apply_patches(std::string(module_text), patches);
  AuditReport again;
  try {
    again = audit_module(fixed, report.path, report.gpu);
  } catch (const Error& e) {
    fail("{}: the patched module does not read back ({})", report.path, e.what());
  }
  if (count_accesses(again).not_modelled > count_accesses(report).not_modelled)
    fail("{}: the patched module has accesses the audit cannot model; not written", report.path);
  if (!(modelled_total(again) + 1e-9 < modelled_total(report)))
    fail("{}: the patched module does not audit better ({:.0f} wavefronts, before {:.0f}); not written", report.path,
         modelled_total(again), modelled_total(report));
  return fixed;
}

}  // namespace swz
