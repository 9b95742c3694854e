// audit_output.cpp: the audit as JSON and as the terminal table (audit.h).
#include <fmt/format.h>

#include "swz/kernel/audit.h"

namespace swz {

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
    j["wavefronts"] = opt(a.wavefronts);
    j["ideal_wavefronts"] = opt(a.ideal_wavefronts);
    j["worst_wavefronts"] = opt(a.worst_wavefronts);
    j["conflicts"] = opt(a.conflicts);
    j["shared_layout"] = a.shared_layout.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.shared_layout);
    j["distributed_layout"] = a.distributed_layout.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.distributed_layout);
    j["suggestion"] = opt(a.suggestion);
    j["suggestion_wavefronts"] = opt(a.suggestion_wavefronts);
    j["note"] = a.note;
    list.push_back(std::move(j));
  }
  return {{"path", report.path}, {"lines", report.lines}, {"num_warps", report.num_warps}, {"accesses", list}};
}

std::string format_audit(const AuditReport& report) {
  std::string s = fmt::format("{}: {} lines, {} warps, {} shared-memory accesses\n", report.path, report.lines, report.num_warps,
                              report.accesses.size());
  s += fmt::format("{:>6}  {:<30} {:<6} {:<13} {:>6} {:>11} {:>5} {:>5}  {}\n", "line", "op", "dir", "instruction", "instrs",
                   "wavefronts", "ideal", "worst", "loc / note");
  auto num = [](const std::optional<double>& v) { return v ? fmt::format("{:.2f}", *v) : std::string("-"); };
  auto inum = [](const std::optional<int>& v) { return v ? fmt::format("{}", *v) : std::string("-"); };
  int conflicted = 0;
  for (const auto& a : report.accesses) {
    const bool bad = a.wavefronts && a.ideal_wavefronts && *a.wavefronts > *a.ideal_wavefronts + 1e-9;
    conflicted += bad;
    std::string tail = a.loc;
    if (!a.note.empty() && (a.instruction == "not modelled" || a.instruction == "wgmma" || a.instruction == "tcgen05.mma" ||
                            a.instruction == "shuffle" || a.instruction == "registers"))
      tail += (tail.empty() ? "" : "  ") + a.note;
    s += fmt::format("{:>6}  {:<30} {:<6} {:<13} {:>6} {:>11} {:>5} {:>5}  {}{}\n", a.line, a.op, a.direction.value_or("-"),
                     a.instruction, a.instructions, num(a.wavefronts), inum(a.ideal_wavefronts), inum(a.worst_wavefronts),
                     bad ? "CONFLICT  " : "", tail);
    if (a.suggestion) s += fmt::format("        suggestion ({} wavefronts): {}\n", num(a.suggestion_wavefronts), *a.suggestion);
  }
  s += fmt::format("{} of {} accesses have bank conflicts\n", conflicted, report.accesses.size());
  return s;
}

}  // namespace swz
