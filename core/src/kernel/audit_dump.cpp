// audit_dump.cpp: the modules of dump files, each distinct text read and audited once (audit.h, DumpAuditor).
#include <cctype>
#include <functional>

#include "swz/error.h"
#include "swz/kernel/audit.h"

namespace swz {

namespace {

// A module's text without its dump header and the comment or blank lines around its IR, and
// how many lines were left out before and after it: identical modules printed after different
// passes differ only there.
struct ModuleBody {
  std::string_view text;
  int lines_before = 0, lines_after = 0;
};
ModuleBody module_body(std::string_view file_text, const ttgir::ModuleSpan& span) {
  const std::string_view text = file_text.substr(span.begin, span.end - span.begin);
  ModuleBody body;
  std::size_t begin = std::string_view::npos, end = 0;
  for (std::size_t at = 0; at < text.size();) {  // line by line, as ttgir::read_module counts them
    const std::size_t newline = text.find('\n', at);
    const std::size_t next = newline == std::string_view::npos ? text.size() : newline + 1;
    std::string_view line = text.substr(at, next - at);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
    if (!line.empty() && line.substr(0, 2) != "//") {
      if (begin == std::string_view::npos) begin = at;
      end = next;
      body.lines_after = 0;
    } else {
      ++(begin == std::string_view::npos ? body.lines_before : body.lines_after);
    }
    at = next;
  }
  if (begin != std::string_view::npos) body.text = text.substr(begin, end - begin);
  return body;
}

// Where `s` says "line N" (N a digit string), from `from` on; npos when it does not.
std::size_t find_line_number(const std::string& s, std::size_t from) {
  for (std::size_t at = s.find("line ", from); at != std::string::npos; at = s.find("line ", at + 1))
    if (at + 5 < s.size() && std::isdigit(static_cast<unsigned char>(s[at + 5]))) return at;
  return std::string::npos;
}

// The audit names a module line in a text only where a suggestion is refused for an op's sake
// ("line 86 ttng.warp_group_dot (...)", "... at line 95"), in the access's no_suggestion. A
// report that names one anywhere else is not remembered: that text would not move with the lines.
bool names_a_line_elsewhere(const AuditReport& r) {
  auto names = [](const std::string& s) { return find_line_number(s, 0) != std::string::npos; };
  for (const AuditAccess& a : r.accesses)
    for (const std::string* s : {&a.note, &a.instruction, &a.shared_layout, &a.distributed_layout, &a.loc})
      if (names(*s)) return true;
  for (const AuditSuggestion& g : r.suggestions) {
    if (names(g.basis) || names(g.old_layout) || names(g.new_layout) || names(g.instruction_after)) return true;
    for (const AuditConsumer& c : g.consumers)
      if (names(c.role) || names(c.refusal)) return true;
    for (const AuditPatch& p : g.patch)
      if (names(p.old_text) || names(p.new_text)) return true;
  }
  return false;
}

// Every "line N" of `s` becomes "line N+by".
void move_line_numbers(std::string& s, int by) {
  for (std::size_t at = find_line_number(s, 0); at != std::string::npos; at = find_line_number(s, at + 5)) {
    std::size_t end = at + 5;
    while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
    s.replace(at + 5, end - at - 5, std::to_string(std::stoi(s.substr(at + 5, end - at - 5)) + by));
  }
}

void move_report_lines(AuditReport& r, int by) {
  for (AuditAccess& a : r.accesses) {
    a.line += by;
    move_line_numbers(a.no_suggestion, by);
  }
  for (AuditSuggestion& g : r.suggestions) {
    g.line += by;
    for (AuditConsumer& c : g.consumers) c.line += by;
    for (AuditPatch& p : g.patch) p.line += by;
  }
}

}  // namespace

// The memory's key of a module is path + '\n' + its text; a module is looked up by the hash of
// its text and compared piece by piece, so its key is copied only when it is remembered.
struct DumpAuditor::ModuleText {
  std::string_view path, text;  // text: module_body's
  int body_first_line = 0, lines_outside_body = 0;
  std::size_t hash = 0;  // of `text`
  ModuleText(std::string_view file_text, std::string_view file_path, const ttgir::ModuleSpan& span) : path(file_path) {
    const ModuleBody body = module_body(file_text, span);
    text = body.text;
    body_first_line = span.first_line + body.lines_before;
    lines_outside_body = body.lines_before + body.lines_after;
    hash = std::hash<std::string_view>{}(text);
  }
  bool is_key(const std::string& key) const {
    return key.size() == path.size() + 1 + text.size() && key.compare(0, path.size(), path) == 0 && key[path.size()] == '\n' &&
           key.compare(path.size() + 1, text.size(), text) == 0;
  }
};

DumpAuditor::Remembered* DumpAuditor::find(const ModuleText& module_text) {
  const auto [first, last] = memory_.equal_range(module_text.hash);
  for (auto at = first; at != last; ++at)
    if (module_text.is_key(at->second.key)) return &at->second;
  return nullptr;
}

void DumpAuditor::check(std::string_view text, const std::string& path, const ttgir::ModuleSpan& span, int index, int count) {
  const ModuleText module_text(text, path, span);
  if (find(module_text)) return;  // the same text reads the same way
  (void)ttgir::read_module(text, path, span, index, count);
  remember(module_text);
}

DumpAuditor::Remembered& DumpAuditor::remember(const ModuleText& module_text) {
  std::string key;
  key.reserve(module_text.path.size() + 1 + module_text.text.size());
  key.append(module_text.path).append(1, '\n').append(module_text.text);
  if (text_held_ + key.size() > text_limit_) {
    memory_.clear();
    text_held_ = 0;
  }
  text_held_ += key.size();
  return memory_
      .emplace(module_text.hash,
               Remembered{std::move(key), module_text.body_first_line, module_text.lines_outside_body, std::nullopt})
      ->second;
}

AuditReport DumpAuditor::audit(std::string_view text, const std::string& path, const ttgir::ModuleSpan& span, int index, int count) {
  const ModuleText module_text(text, path, span);
  Remembered* const known = find(module_text);
  if (known && known->report) {
    const Remembered& was = *known;
    AuditReport r = *was.report;
    move_report_lines(r, module_text.body_first_line - was.body_first_line);
    r.lines += module_text.lines_outside_body - was.lines_outside_body;
    r.first_line = span.first_line;
    r.module_index = index;
    r.module_count = count;
    r.header = span.header;
    return r;
  }
  AuditReport r = swz::audit(ttgir::read_module(text, path, span, index, count), gpu_, arguments_, sass_.get());
  ++audits_done_;
  if (names_a_line_elsewhere(r)) return r;
  Remembered& entry = known ? *known : remember(module_text);  // known: read by check() before
  entry.body_first_line = module_text.body_first_line;
  entry.lines_outside_body = module_text.lines_outside_body;
  entry.report = r;
  return r;
}

AuditReport audit_module(const std::string& text, const std::string& path, std::string_view gpu, const ArgumentValues& arguments,
                         const sass::Listing* sass) {
  const auto spans = ttgir::split_modules(text);
  if (spans.size() > 1)
    fail("{}: holds {} modules (lines {} and {} begin the first two); audit them one by one", path, spans.size(),
         spans[0].first_line, spans[1].first_line);
  return audit(ttgir::read_module(text, path), gpu, arguments, sass);
}

std::vector<AuditReport> audit_modules(const std::string& text, const std::string& path, std::string_view gpu,
                                       const ArgumentValues& arguments) {
  const auto spans = ttgir::split_modules(text);
  std::vector<AuditReport> reports;
  DumpAuditor auditor(std::size_t{64} << 20, std::string(gpu), arguments);
  for (std::size_t i = 0; i < spans.size(); ++i)
    reports.push_back(auditor.audit(text, path, spans[i], static_cast<int>(i) + 1, static_cast<int>(spans.size())));
  return reports;
}

}  // namespace swz
