// audit_sass.cpp: a kernel's copies priced as its SASS issues them (audit_sass.h).
#include "audit_sass.h"

#include <fmt/format.h>

#include <algorithm>

#include "audit_pipeline.h"
#include "swz/error.h"

namespace swz::audit_parts {

namespace {

// The kernel's name, from its tt.func line ("tt.func public @matmul(%a: ...").
std::string kernel_name(const ttgir::Module& m) {
  for (const auto& [line, text] : m.arithmetic) {
    const auto func = text.find("tt.func");
    const auto at = text.find('@', func == std::string::npos ? text.size() : func);
    if (func == std::string::npos || at == std::string::npos) continue;
    const auto end = text.find_first_of("( ", at);
    return text.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
  }
  fail("{}: no tt.func in the module to match a SASS function to", m.path);
}

// The bytes an LDGSTS moves per lane: ".128" 16, ".64" 8, else 4.
int ldgsts_bits(const std::string& opcode) {
  if (opcode.find(".128") != std::string::npos) return 128;
  if (opcode.find(".64") != std::string::npos) return 64;
  return 32;
}

// The pipeline stage a copy fills: its destination's buffer index when that is a constant
// (the prologue's copies: ttg.memdesc_index %buffers[%c1_i32]); empty in a loop or where not read.
std::optional<std::int64_t> prologue_stage(const ttgir::Module& m, const ttgir::Op& copy, const ttgir::PointerReader& reader,
                                           const KnownArguments& arguments) {
  for (const std::string& value : copy.operands)
    if (reader.loop_of(value)) return std::nullopt;
  for (const ttgir::Op& op : m.ops) {
    if (op.name != "ttg.memdesc_index" || op.results.empty() || op.results[0] != copy.operands[1]) continue;
    std::string why;
    return op.indices.empty() ? std::nullopt : reader.scalar(op.indices, arguments.values, why);
  }
  return std::nullopt;
}

}  // namespace

void price_copies_by_sass(AuditReport& report, const ttgir::Module& m, const std::vector<CopySite>& copies,
                          const sass::Listing& listing, const ttgir::PointerReader& reader, const BankModel& bank,
                          KnownArguments& arguments) {
  const sass::Function& function = listing.function(kernel_name(m));
  std::vector<const sass::Instruction*> ldgsts;
  for (const sass::Instruction& i : function.instructions)
    if (i.opcode.rfind("LDGSTS", 0) == 0) ldgsts.push_back(&i);
  // Each copy's LDGSTS per thread: its simulated steps.
  std::vector<int> steps;
  std::size_t issued = 0;
  std::string per_copy;
  for (const CopySite& c : copies) {
    if (!c.issued)
      fail("{}: its LDGSTS cannot be matched to {}'s copies: the copy at line {} is not priced ({})", listing.path, m.path,
           c.op->line, clipped(report.accesses[c.access].note, 120));
    steps.push_back(simulate(*c.issued, c.shared->layout, c.bits, bank).steps);
    issued += static_cast<std::size_t>(steps.back());
    per_copy += fmt::format("{}line {}: {}", per_copy.empty() ? "" : ", ", c.op->line, steps.back());
  }
  if (issued != ldgsts.size())
    fail("{}: function {} (line {}) issues {} LDGSTS; the {} cop{} of {} issue{} {} per thread ({}): not this module's SASS",
         listing.path, clipped(function.name), function.line, ldgsts.size(), copies.size(), copies.size() == 1 ? "y" : "ies",
         m.path, copies.size() == 1 ? "s" : "", issued, per_copy.empty() ? "none" : per_copy);
  // Which prologue stages move data at these arguments: a stage alone is priced at its ideal.
  std::vector<std::optional<std::int64_t>> stage;
  for (const CopySite& c : copies) stage.push_back(prologue_stage(m, *c.op, reader, arguments));
  std::size_t next = 0;
  for (std::size_t k = 0; k < copies.size(); ++k) {
    const CopySite& c = copies[k];
    CopySass sass;
    for (int s = 0; s < steps[k]; ++s) {
      const sass::Instruction& i = *ldgsts[next++];
      if (ldgsts_bits(i.opcode) != c.issued->vec_bits)
        fail("{}:{}: {} moves {} bytes a lane where the copy at {} line {} moves {}: not this module's SASS", listing.path,
             i.line, i.opcode, ldgsts_bits(i.opcode) / 8, m.path, c.op->line, c.issued->vec_bits / 8);
      sass.predicates.push_back(sass::predicate_operand(i));
      sass.lines.push_back(i.line);
    }
    AuditAccess& a = report.accesses[c.access];
    a.sass_lines = sass.lines;
    if (c.op->operands.size() < 3 || c.issued->vec_bits != 128) continue;  // only Triton's masked .cg form
    sass.alone = stage[k].has_value();
    for (std::size_t o = 0; o < copies.size() && sass.alone; ++o)
      if (o != k && copies[o].moves_data && stage[o] != stage[k]) sass.alone = false;
    sass.stage = stage[k] ? fmt::format("prologue stage {}", *stage[k]) : std::string();
    const auto priced = price_copy_issues(reader, *c.op, *c.issued, c.shared->layout, c.bits, bank, arguments, &sass);
    if (!priced || !priced->sass_priced) continue;
    a.executions = priced->executions;
    a.issued_wavefronts = priced->wavefronts;
    a.note = c.note_before + priced->note;
    if (priced->first) {  // the line's own price: its first execution, live
      a.wavefronts = *priced->first;
      a.conflicts = std::max(0.0, *priced->first - *priced->first_ideal);
    }
  }
}

}  // namespace swz::audit_parts
