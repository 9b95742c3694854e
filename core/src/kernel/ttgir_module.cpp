// ttgir_module.cpp: the line reader of ttgir_module.h.
#include "swz/kernel/ttgir_module.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>
#include <unordered_map>

#include "swz/error.h"

namespace swz::ttgir {

namespace {

struct Context {
  const std::string& path;
  int line = 0;
  [[noreturn]] void error(std::size_t column0, const std::string& expected) const {
    fail("{}:{}:{}: expected {}", path, line, column0 + 1, expected);
  }
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Calls visit(i) for each index i of `line` outside double-quoted strings (a backslash inside a
// string escapes the next character); visit may move i forward past what it consumed. Returns
// whether the line ends inside a string.
template <class Visit>
bool visit_outside_strings(std::string_view line, Visit&& visit) {
  bool in_string = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else {
      visit(i);
    }
  }
  return in_string;
}

// Bracket depth change of a line, strings skipped; throws on a closer with no opener inside the line's own brackets.
struct Brackets {
  int braces = 0;  // { } may span lines (regions); others must close on their line
};

void check_line_brackets(std::string_view line, std::size_t indent, Brackets& state, const Context& ctx) {
  static thread_local std::vector<std::pair<char, std::size_t>> stack;
  stack.clear();
  const bool open_string = visit_outside_strings(line, [&](std::size_t i) {
    const char c = line[i];
    switch (c) {
      case '(':
        if (i + 1 < line.size() && line[i + 1] == '{') break;  // "({": a region; its "})" closes it
        stack.emplace_back(c, i);
        break;
      case '[':
      case '<':
        stack.emplace_back(c, i);
        break;
      case '{':
        stack.emplace_back(c, i);
        break;
      case ')':
      case ']':
      case '>': {
        if (c == '>' && i > 0 && line[i - 1] == '-') break;  // "->"
        const char open = c == ')' ? '(' : c == ']' ? '[' : '<';
        if (c == '>' && (stack.empty() || stack.back().first != '<')) break;  // a comparison, e.g. in a predicate name
        if (c == ')' && i > 0 && line[i - 1] == '}' && (stack.empty() || stack.back().first != '(')) break;  // "})"
        if (stack.empty() || stack.back().first != open)
          ctx.error(indent + i, fmt::format("no '{}' here (nothing open to close)", c));
        stack.pop_back();
        break;
      }
      case '}':
        if (!stack.empty() && stack.back().first == '{') {
          stack.pop_back();
        } else if (!stack.empty()) {
          ctx.error(indent + i, fmt::format("'{}' to close the '{}' at column {}",
                                            stack.back().first == '('   ? ')'
                                            : stack.back().first == '[' ? ']'
                                                                        : '>',
                                            stack.back().first, indent + stack.back().second + 1));
        } else {
          if (state.braces == 0) ctx.error(indent + i, "no '}' here (no region is open)");
          --state.braces;
        }
        break;
      default:
        break;
    }
  });
  if (open_string) ctx.error(indent + line.size(), "a closing '\"'");
  for (const auto& [c, at] : stack) {
    if (c == '{') {
      ++state.braces;
      continue;
    }
    ctx.error(indent + line.size(), fmt::format("'{}' to close the '{}' at column {}",
                                                c == '('   ? ')'
                                                : c == '[' ? ']'
                                                           : '>',
                                                c, indent + at + 1));
  }
}

// Position of the first top-level occurrence of `sep`, or npos (outside any brackets and strings).
std::size_t find_top(std::string_view s, std::string_view sep) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '"') in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '(' || c == '[' || c == '{' || c == '<')
      ++depth;
    else if ((c == ')' || c == ']' || c == '}' || (c == '>' && !(i > 0 && s[i - 1] == '-'))) && depth > 0)
      --depth;
    else if (depth == 0 && s.substr(i, sep.size()) == sep)
      return i;
  }
  return std::string_view::npos;
}

// Top-level split (outside any brackets) on a separator.
std::vector<std::string_view> split_top(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> parts;
  for (std::size_t at = find_top(s, sep); at != std::string_view::npos; at = find_top(s, sep)) {
    parts.push_back(s.substr(0, at));
    s = s.substr(at + sep.size());
  }
  parts.push_back(s);
  return parts;
}

bool interesting(std::string_view op) {
  for (std::string_view p : {"ttg.", "triton_gpu.", "ttng.", "triton_nvidia_gpu.", "amdg.", "amdgpu."})
    if (op.substr(0, p.size()) == p) return true;
  // tt ops whose lowering may go through shared memory.
  for (std::string_view o : {"tt.reduce", "tt.scan", "tt.gather", "tt.histogram", "tt.descriptor_load", "tt.descriptor_store",
                             "tt.descriptor_gather", "tt.descriptor_scatter", "tt.descriptor_reduce"})
    if (op == o) return true;
  return false;
}

// A type list: "(a, b)", "a, b", "a * b" (warp_group_dot). Kernels repeat a few types: each is parsed once.
std::vector<Type> parse_types(std::string_view text, std::size_t column0, const Context& ctx,
                              std::unordered_map<std::string, Type>& cache) {
  std::vector<Type> types;
  text = trim(text);
  if (text.size() >= 2 && text.front() == '(' && text.back() == ')') text = text.substr(1, text.size() - 2);
  for (auto comma : split_top(text, ","))
    for (auto part : split_top(comma, " * ")) {
      std::string t(trim(part));
      if (t.empty()) continue;
      if (t.front() == '<') t = "!ttg.memdesc" + t;  // async_copy prints its destination as <...>
      if (auto it = cache.find(t); it != cache.end()) {
        types.push_back(it->second);
        continue;
      }
      try {
        types.push_back(parse_type(t));
        cache.emplace(t, types.back());
      } catch (const Error& e) {
        ctx.error(column0 + static_cast<std::size_t>(part.data() - text.data()), fmt::format("a type ({})", e.what()));
      }
    }
  return types;
}

// The file:line:col inside a loc(...) text, or a #locN it refers to.
struct LocDef {
  std::string direct;  // "file.py:12:5"
  std::string ref;     // "#loc3"
};

LocDef parse_loc(std::string_view body) {
  LocDef d;
  // loc("file":12:5), loc("name"("file":1:2)), loc("name"(#loc3)), loc(callsite(#loc1 at #loc2)), loc(fused[...]), loc(unknown)
  std::size_t q = body.find('"');
  while (q != std::string_view::npos) {
    const std::size_t end = body.find('"', q + 1);
    if (end == std::string_view::npos) break;
    if (end + 1 < body.size() && body[end + 1] == ':') {
      std::size_t p = end + 2;
      while (p < body.size() && (std::isdigit(static_cast<unsigned char>(body[p])) || body[p] == ':')) ++p;
      d.direct = fmt::format("{}{}", body.substr(q + 1, end - q - 1), body.substr(end + 1, p - end - 1));
      return d;
    }
    q = body.find('"', end + 1);
  }
  if (const std::size_t h = body.find("#loc"); h != std::string_view::npos) {
    std::size_t p = h + 1;
    while (p < body.size() && (std::isalnum(static_cast<unsigned char>(body[p])) || body[p] == '_')) ++p;
    d.ref = std::string(body.substr(h, p - h));
  }
  return d;
}

// Takes a trailing " loc(...)" off an op's text into the op (its file:line:col, or the #locN it names).
void take_trailing_loc(std::string_view& body, Op& op) {
  const std::size_t l = body.rfind(" loc(");
  if (l == std::string_view::npos || body.back() != ')') return;
  const std::string_view loc = body.substr(l + 1);
  const LocDef d = parse_loc(loc.substr(4, loc.size() - 5));
  op.loc_ref = d.direct.empty() ? d.ref : std::string(loc);
  op.loc = d.direct;
  body = body.substr(0, l);
  while (!body.empty() && std::isspace(static_cast<unsigned char>(body.back()))) body.remove_suffix(1);
}

// An alias's first use in the module (its definition may follow).
struct Reference {
  std::string name;  // without '#'
  int line = 0;
  std::size_t column0 = 0;
  bool operator<(const Reference& o) const { return line != o.line ? line < o.line : column0 < o.column0; }
};

// A layout attribute to verify (check_attribute) once the module line gave the threads per warp.
struct CheckedAttribute {
  int line = 0;
  std::size_t column0 = 0;      // where the attribute starts
  std::string_view line_text;   // the line, trimmed (to point at a key), or empty
  std::size_t indent = 0;       // columns before line_text
  AttrNode attribute;
};

// Every "#name" of a line outside strings: alias uses are remembered (the first of each name), a
// dialect attribute name is checked for a misspelling of one of Triton's. `#locN` names are
// locations, which are not layouts (a module split from a dump may lose their definitions).
void scan_references(std::string_view line, std::size_t indent, int line_no, std::unordered_map<std::string, Reference>& uses,
                     const Context& ctx) {
  if (line.find('#') == std::string_view::npos) return;
  visit_outside_strings(line, [&](std::size_t& i) {
    const char c = line[i];
    // "%x#0" is a result of a multi-result op, not an attribute.
    if (c != '#' || i + 1 >= line.size() || !(std::isalpha(static_cast<unsigned char>(line[i + 1])) || line[i + 1] == '_')) return;
    std::size_t p = i + 1;
    while (p < line.size() && (std::isalnum(static_cast<unsigned char>(line[p])) || line[p] == '_' || line[p] == '.' || line[p] == '$'))
      ++p;
    const std::string_view name = line.substr(i + 1, p - i - 1);
    const bool definition = i == 0;  // "#name = ..." defines it
    if (const std::size_t dot = name.find('.'); dot != std::string_view::npos) {
      const std::string_view dialect = name.substr(0, dot);
      if (dialect == "ttg" || dialect == "triton_gpu")
        if (const auto known = misspelled_attribute_kind(name.substr(dot + 1)))
          fail("{}:{}:{}: #{} is not a Triton attribute (did you mean #{}.{}?)", ctx.path, line_no, indent + i + 1, name, dialect,
               *known);
    } else if (!definition && !name.empty() && name.substr(0, 3) != "loc") {
      uses.try_emplace(std::string(name), Reference{std::string(name), line_no, indent + i});
    }
    i = p - 1;
  });
}

bool known_layout_attribute(std::string_view value) {
  for (std::string_view dialect : {"#ttg.", "#triton_gpu."}) {
    if (value.substr(0, dialect.size()) != dialect) continue;
    const std::string_view kind = value.substr(dialect.size(), value.find('<') - dialect.size());
    for (std::string_view k : {"blocked", "slice", "nvidia_mma", "dot_op", "amd_mfma", "amd_wmma", "linear", "swizzled_shared",
                               "nvmma_shared", "padded_shared", "shared_linear", "amd_rotating_shared"})
      if (kind == k) return true;
  }
  return false;
}

// Reads one module line by line: each kind of line has its step, and finish() checks what only
// the whole module shows (regions closed, aliases defined and free of cycles, attributes valid).
struct ModuleReader {
  Module m;
  Context ctx;
  Brackets brackets;
  std::unordered_map<std::string, LocDef> locs;
  std::unordered_map<std::string, Type> types;
  std::unordered_map<std::string, Reference> references;  // alias name -> its first use
  std::vector<CheckedAttribute> checked;                   // layout attributes to verify once the module line is read
  std::vector<std::pair<std::size_t, int>> region_ops;     // tt.reduce / tt.scan waiting for their "})" line
  bool saw_module = false;

  explicit ModuleReader(const std::string& path) : ctx{path} {}

  void read_line(std::string_view raw) {
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    const std::string_view line = trim(raw);
    if (line.empty() || line.substr(0, 2) == "//") return;
    const std::size_t indent = static_cast<std::size_t>(line.data() - raw.data());
    check_line_brackets(line, indent, brackets, ctx);
    scan_references(line, indent, ctx.line, references, ctx);
    if (line.front() == '#') return alias_line(line, indent);
    if (line.substr(0, 6) == "module") return module_line(line, indent);
    // "}) : (types) -> types loc(...)": the end of a tt.reduce / tt.scan region, which prints the
    // op's types and location there.
    if (line.substr(0, 2) == "})" && !region_ops.empty() && brackets.braces == region_ops.back().second - 1)
      return region_end_line(line, indent);
    op_line(line, indent);
  }

  // "#name = value": a location, or an alias (kept as text; layout attributes parsed to be checked).
  void alias_line(std::string_view line, std::size_t indent) {
    const std::size_t eq = line.find(" = ");
    if (eq == std::string_view::npos) ctx.error(indent + line.size(), "' = ' after an alias name");
    const std::string name(trim(line.substr(1, eq - 1)));
    const std::string_view value = trim(line.substr(eq + 3));
    if (value.substr(0, 4) == "loc(") {
      locs[name] = parse_loc(value);
      return;
    }
    // MLIR refuses a second definition of an alias, even with the same text.
    if (const auto earlier = m.alias_lines.find(name); earlier != m.alias_lines.end())
      ctx.error(indent + 1, fmt::format("a new alias name (#{} is already defined on line {})", name, earlier->second));
    // Layout attributes we model must parse; other dialects' (debug info, ...) are kept as text.
    if (known_layout_attribute(value)) {
      try {
        checked.push_back({ctx.line, indent + eq + 3, line, indent, parse_attribute(std::string(value))});
      } catch (const Error& e) {
        ctx.error(indent + eq + 3, fmt::format("an attribute ({})", e.what()));
      }
    }
    m.aliases[name] = std::string(value);
    m.alias_lines[name] = ctx.line;
  }

  // "module attributes {...} {": warps, lanes, CTAs and target.
  void module_line(std::string_view line, std::size_t indent) {
    saw_module = true;
    const std::size_t a = line.find("attributes {");
    if (a == std::string_view::npos) return;
    const std::size_t close = line.rfind('}');
    try {
      const AttrNode dict = parse_attribute(std::string(line.substr(a + 11, close - a - 10)));
      for (const auto& [k, v] : dict.fields) {
        if (k == "ttg.num-warps" || k == "triton_gpu.num-warps") m.num_warps = static_cast<int>(v.integer);
        if (k == "ttg.threads-per-warp" || k == "triton_gpu.threads-per-warp") m.threads_per_warp = static_cast<int>(v.integer);
        if (k == "ttg.num-ctas" || k == "triton_gpu.num-ctas") m.num_ctas = static_cast<int>(v.integer);
        if (k == "ttg.target" || k == "triton_gpu.target") m.target = v.text;
      }
    } catch (const Error& e) {
      ctx.error(indent + a + 11, fmt::format("module attributes ({})", e.what()));
    }
  }

  // An op's signature: "(operands) -> results" after its " : ", into the op.
  void signature(Op& op, std::string_view sig, std::size_t column0, bool results_may_be_scalar) {
    const std::size_t arrow = find_top(sig, " -> ");
    op.operand_types = parse_types(arrow == std::string_view::npos ? sig : sig.substr(0, arrow), column0, ctx, types);
    if (arrow == std::string_view::npos) return;
    try {
      op.result_types = parse_types(sig.substr(arrow + 4), column0 + arrow + 4, ctx, types);
    } catch (const Error&) {
      if (!results_may_be_scalar) throw;  // a scalar result (f32) is no type we model: only tensor results are kept
    }
  }

  void region_end_line(std::string_view line, std::size_t indent) {
    Op& op = m.ops[region_ops.back().first];
    region_ops.pop_back();
    std::string_view body = line.substr(2);
    take_trailing_loc(body, op);
    if (const std::size_t colon = find_top(body, " : "); colon != std::string_view::npos) {
      const std::string_view sig = trim(body.substr(colon + 3));
      signature(op, sig, indent + static_cast<std::size_t>(sig.data() - line.data()), /*results_may_be_scalar=*/true);
    }
  }

  // "[%r, ... =] name operands {attributes} : types loc(...)"; ops of dialects that cannot touch
  // shared memory are skipped.
  void op_line(std::string_view line, std::size_t indent) {
    std::string_view rest = line;
    std::vector<std::string> results;
    if (rest.front() == '%') {
      const std::size_t eq = find_top(rest, " = ");
      if (eq == std::string_view::npos) ctx.error(indent + rest.size(), "' = ' after the results");
      for (auto r : split_top(rest.substr(0, eq), ",")) {
        std::string name(trim(r));
        if (name.empty() || name.front() != '%') ctx.error(indent, "a result name (%name)");
        results.push_back(std::move(name));
      }
      rest = trim(rest.substr(eq + 3));
    }
    // Every value the line reads: a reduction result nobody reads is never loaded (audit_scratch.cpp).
    for (std::size_t p = rest.find('%'); p != std::string_view::npos; p = rest.find('%', p + 1)) {
      std::size_t e = p + 1;
      while (e < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[e])) || rest[e] == '_' || rest[e] == '#')) ++e;
      ++m.used_values[std::string(rest.substr(p, e - p))];
    }
    std::string_view op_name;
    if (!rest.empty() && rest.front() == '"') {
      const std::size_t q = rest.find('"', 1);
      op_name = rest.substr(1, q - 1);
    } else {
      std::size_t p = 0;
      while (p < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[p])) || rest[p] == '_' || rest[p] == '.')) ++p;
      op_name = rest.substr(0, p);
    }
    if (op_name.empty()) {
      if (!results.empty()) ctx.error(indent + static_cast<std::size_t>(rest.data() - line.data()), "an op name after '='");
      return;  // "} loc(...)", "^bb0(...)", ...
    }
    if (!interesting(op_name)) {
      if (op_name.substr(0, 3) == "tt." || op_name.substr(0, 6) == "arith." || op_name == "scf.for")
        m.arithmetic.emplace_back(ctx.line, std::string(line));  // read by ttgir_pointer.h
      return;
    }
    Op op;
    op.line = ctx.line;
    op.column = static_cast<int>(indent + static_cast<std::size_t>(rest.data() - line.data())) + 1;
    op.name = std::string(op_name);
    op.results = std::move(results);
    std::string_view body = rest.substr(op_name.size() + (rest.front() == '"' ? 2 : 0));
    take_trailing_loc(body, op);
    const std::size_t colon = find_top(body, " : ");
    operands(op, colon == std::string_view::npos ? body : body.substr(0, colon), line, indent);
    if (colon != std::string_view::npos && op.name != "tt.reduce" && op.name != "tt.scan") {
      const std::string_view sig = body.substr(colon + 3);
      signature(op, sig, indent + static_cast<std::size_t>(sig.data() - line.data()), /*results_may_be_scalar=*/false);
    }
    const bool opens_region = (op.name == "tt.reduce" || op.name == "tt.scan") && line.substr(line.size() - 2) == "({";
    m.ops.push_back(std::move(op));
    if (opens_region) region_ops.emplace_back(m.ops.size() - 1, brackets.braces);
  }

  // The operands before the " : ", the static indices after the first ("%x[0, 32]"), the attributes.
  void operands(Op& op, std::string_view head, std::string_view line, std::size_t indent) {
    for (std::size_t i = 0; i < head.size(); ++i) {
      if (head[i] == '{' || (head[i] == '<' && i + 1 < head.size() && head[i + 1] == '{')) {
        const std::size_t close = head.rfind('}');
        if (close != std::string_view::npos && close > i) op.attributes = std::string(head.substr(i, close - i + 1));
        break;
      }
      if (head[i] != '%') continue;
      std::size_t p = i + 1;
      while (p < head.size() && (std::isalnum(static_cast<unsigned char>(head[p])) || head[p] == '_' || head[p] == '#')) ++p;
      op.operands.emplace_back(head.substr(i, p - i));
      std::size_t q = p;
      while (q < head.size() && head[q] == ' ') ++q;
      if (op.operands.size() == 1 && q < head.size() && head[q] == '[') {
        p = q;
        const std::size_t close = head.find(']', p);
        if (close == std::string_view::npos) ctx.error(indent + static_cast<std::size_t>(head.data() - line.data()) + p, "']'");
        op.indices = std::string(head.substr(p + 1, close - p - 1));
      }
      i = p - 1;
    }
  }

  // What only the whole module shows, then the locations resolved.
  void finish(const ModuleSpan& span) {
    const std::string& path = ctx.path;
    const int line_no = ctx.line;
    if (brackets.braces != 0)
      fail("{}:{}:1: expected '}}' to close {} open region{}", path, line_no + 1, brackets.braces,
           brackets.braces == 1 ? "" : "s");
    if (!saw_module && m.ops.empty() && m.aliases.empty())
      fail("{}:{}:1: expected a TTGIR module (module attributes {{...}} {{ ... }})", path, span.first_line);
    // Definitions and no module: a file cut before its module line audits nothing, which is no answer.
    if (!saw_module && m.ops.empty())
      fail(
          "{}:{}:1: expected the module line (module attributes {{...}} {{) after {} alias definition{}: the text ends before "
          "its module",
          path, line_no + 1, m.aliases.size(), m.aliases.size() == 1 ? "" : "s");
    check_references();
    check_attributes();
    resolve_locations();
  }

  // What Triton's verifier would refuse: an alias never defined (the first in file order), aliases
  // that refer to themselves (ttgir::check_aliases, at the line that closes the cycle).
  void check_references() const {
    const Reference* undefined = nullptr;
    for (const auto& [name, use] : references)
      if (!m.aliases.count(name) && !locs.count(name) && (!undefined || use < *undefined)) undefined = &use;
    if (undefined)
      fail("{}:{}:{}: #{} is used but never defined", ctx.path, undefined->line, undefined->column0 + 1, undefined->name);
    check_aliases(m.aliases, AliasPlaces{ctx.path, m.alias_lines});
  }

  // A layout attribute Triton does not have, or whose keys or values no layout of its kind has.
  void check_attributes() {
    for (const Op& op : m.ops)
      for (const auto* list : {&op.operand_types, &op.result_types})
        for (const Type& t : *list)
          if (t.encoding && t.encoding->kind == AttrNode::Kind::Dialect)
            checked.push_back({op.line, static_cast<std::size_t>(op.column - 1), {}, 0, *t.encoding});
    for (const CheckedAttribute& c : checked)
      if (const auto problem = check_attribute(c.attribute, m.threads_per_warp)) {
        std::size_t column0 = c.column0;
        // Point at the key when the line shows it.
        if (!problem->key.empty())
          if (const std::size_t at = c.line_text.find(problem->key + " ="); at != std::string_view::npos) column0 = c.indent + at;
        fail("{}:{}:{}: {}", ctx.path, c.line, column0 + 1, problem->message);
      }
  }

  // #locN references to file:line:col (definitions may follow their uses; chains end within 32 hops).
  void resolve_locations() {
    auto resolve_loc = [&](std::string ref) -> std::string {
      for (int hops = 0; hops < 32 && !ref.empty(); ++hops) {
        auto it = locs.find(ref.substr(1));
        if (it == locs.end()) return "";
        if (!it->second.direct.empty()) return it->second.direct;
        ref = it->second.ref;
      }
      return "";
    };
    for (auto& op : m.ops)
      if (op.loc.empty() && !op.loc_ref.empty() && op.loc_ref.front() == '#') op.loc = resolve_loc(op.loc_ref);
  }
};

}  // namespace

Module read_module(std::string_view text, const std::string& path) {
  return read_module(text, path, ModuleSpan{0, text.size(), 1, ""}, 1, 1);
}

Module read_module(std::string_view file_text, const std::string& path, const ModuleSpan& span, int index, int count) {
  const std::string_view text = file_text.substr(span.begin, span.end - span.begin);
  ModuleReader reader(path);
  Module& m = reader.m;
  m.path = path;
  m.first_line = span.first_line;
  m.index = index;
  m.count = count;
  m.header = span.header;
  reader.ctx.line = span.first_line - 1;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    ++reader.ctx.line;
    reader.read_line(text.substr(start, end - start));
    start = end + 1;
  }
  m.lines = reader.ctx.line - span.first_line + 1;
  reader.finish(span);
  return std::move(reader.m);
}

std::vector<ModuleSpan> split_modules(std::string_view text) {
  std::vector<ModuleSpan> spans;
  ModuleSpan current;
  bool has_module = false, closed = false, has_content = false;
  int depth = 0, line_no = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim(text.substr(start, end - start));
    ++line_no;
    const std::size_t line_begin = start;
    start = end + 1;
    if (line.empty()) continue;
    // "// -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //"
    const bool header = line.substr(0, 9) == "// -----/";
    const bool module_line = line.substr(0, 7) == "module " || line == "module" || line.substr(0, 7) == "module{";
    const bool layout_alias = line.front() == '#' && line.substr(0, 4) != "#loc";
    if ((header && has_content) || (closed && (layout_alias || module_line))) {
      current.end = line_begin;
      spans.push_back(std::move(current));
      current = ModuleSpan{line_begin, 0, line_no, ""};
      has_module = closed = has_content = false;
      depth = 0;
    }
    if (header) {
      std::string_view h = line.substr(std::min(line.size(), line.find("-----//") + 7));
      if (const std::size_t tail = h.rfind("//-----"); tail != std::string_view::npos) h = h.substr(0, tail);
      current.header = std::string(trim(h));
      continue;
    }
    if (line.substr(0, 2) == "//") continue;
    has_content = true;
    if (module_line) has_module = true;
    if (!has_module) continue;
    visit_outside_strings(line, [&](std::size_t i) { depth += line[i] == '{' ? 1 : line[i] == '}' ? -1 : 0; });
    if (depth <= 0) closed = true;
  }
  current.end = text.size();
  spans.push_back(std::move(current));
  return spans;
}

}  // namespace swz::ttgir
