// ttgir_pointer.cpp: the address arithmetic of ttgir_pointer.h, read from the lines the module
// reader keeps (Module::arithmetic) and evaluated on demand.
#include "ttgir_pointer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <string_view>

#include "swz/error.h"

namespace swz::ttgir {

namespace {

constexpr int kDepthLimit = 512;                             // SSA chains of address arithmetic are a few dozen ops
constexpr std::size_t kElementLimit = std::size_t{1} << 20;  // a tile's elements; larger is not a tile

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '#' || c == '$' || c == '.'; }

// "%a_12" at `at` (which holds '%'): the SSA name.
std::string ssa_name(std::string_view s, std::size_t at) {
  std::size_t end = at + 1;
  while (end < s.size() && name_char(s[end])) ++end;
  return std::string(s.substr(at, end - at));
}

std::vector<std::string> operands_of(std::string_view head) {
  std::vector<std::string> names;
  for (std::size_t at = head.find('%'); at != std::string_view::npos; at = head.find('%', at + 1))
    names.push_back(ssa_name(head, at));
  return names;
}

std::optional<std::int64_t> integer_at(std::string_view s) {
  s = trimmed(s);
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || (end != s.data() + s.size() && name_char(*end))) return std::nullopt;
  return v;
}

// `key = N` inside an attribute dictionary.
std::optional<std::int64_t> attribute(std::string_view head, std::string_view key) {
  const std::size_t at = head.find(std::string(key) + " = ");
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = head.substr(at + key.size() + 3);
  rest = rest.substr(0, rest.find_first_of(" ,}"));
  return integer_at(rest);
}

// The first type of a list: "tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<...>" -> the first tensor.
std::string first_type(std::string_view s) {
  s = trimmed(s);
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    if (s[i] == '>' && !(i > 0 && s[i - 1] == '-')) --depth;
    if (s[i] == ',' && depth == 0) return std::string(trimmed(s.substr(0, i)));
  }
  return std::string(s);
}

std::int64_t product(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;
  return n;
}

struct Shaped {
  std::vector<std::int64_t> shape;
  std::string element;  // "i32", "!tt.ptr<f32>"
};
Shaped shape_of(const std::string& type) {
  if (type.rfind("tensor<", 0) != 0) return {{}, type};
  const Type t = parse_type(type);
  return {t.shape, t.element};
}

int pointee_bytes_of(const std::string& element) {
  if (element.rfind("!tt.ptr<", 0) != 0) return 0;
  const std::string pointee = element.substr(8, element.find_first_of(",>", 8) - 8);
  const int bits = element_bits_of(pointee);
  return bits >= 8 ? bits / 8 : 1;
}

bool uniform(const std::vector<std::int64_t>& v) {
  return std::all_of(v.begin(), v.end(), [&](std::int64_t x) { return x == v.front(); });
}

Affine splat(const Affine& scalar, const std::vector<std::int64_t>& shape) {
  Affine r;
  r.shape = shape;
  const auto n = static_cast<std::size_t>(product(shape));
  r.constant.assign(n, scalar.constant.front());
  for (const auto& [a, c] : scalar.coefficient) r.coefficient[a].assign(n, c.front());
  r.uniform_unknown = scalar.uniform_unknown;
  r.pointee_bytes = scalar.pointee_bytes;
  return r;
}

// b[i] = a[i with every dim of size 1 in a taken at 0] (tt.broadcast; a has the same rank).
Affine broadcast(const Affine& a, const std::vector<std::int64_t>& shape) {
  if (a.shape.size() != shape.size()) fail("tt.broadcast from rank {} to rank {}", a.shape.size(), shape.size());
  Affine r;
  r.shape = shape;
  const auto n = static_cast<std::size_t>(product(shape));
  std::vector<std::size_t> from(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t rest = i, source = 0, stride = 1;
    for (std::size_t d = shape.size(); d-- > 0;) {
      const auto dim = static_cast<std::size_t>(shape[d]);
      const std::size_t c = rest % dim;
      rest /= dim;
      if (a.shape[d] != 1) source += c * stride;
      stride *= static_cast<std::size_t>(a.shape[d]);
    }
    from[i] = source;
  }
  auto gather = [&](const std::vector<std::int64_t>& v) {
    std::vector<std::int64_t> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = v[from[i]];
    return out;
  };
  r.constant = gather(a.constant);
  for (const auto& [k, c] : a.coefficient) r.coefficient[k] = gather(c);
  r.uniform_unknown = a.uniform_unknown;
  r.pointee_bytes = a.pointee_bytes;
  return r;
}

// Element i of a value that is one scalar or one per element; operands of two different shapes
// (a malformed or cut kernel) are refused, never read past.
std::int64_t at(const std::vector<std::int64_t>& v, std::size_t i) {
  if (v.size() == 1) return v.front();
  if (i >= v.size()) fail("the address arithmetic combines tensors of different sizes ({} elements, element {} asked)", v.size(), i);
  return v[i];
}

// a + sign * scale * b, element by element (operands of one shape, or a scalar).
Affine add(const Affine& a, const Affine& b, std::int64_t b_scale) {
  Affine r;
  r.shape = a.size() >= b.size() ? a.shape : b.shape;
  const std::size_t n = std::max(a.size(), b.size());
  r.constant.resize(n);
  for (std::size_t i = 0; i < n; ++i) r.constant[i] = at(a.constant, i) + b_scale * at(b.constant, i);
  for (const auto* side : {&a, &b})
    for (const auto& [k, c] : side->coefficient) {
      auto& out = r.coefficient[k];
      out.resize(n, 0);
      for (std::size_t i = 0; i < n; ++i) out[i] += (side == &b ? b_scale : 1) * at(c, i);
    }
  r.uniform_unknown = a.uniform_unknown || b.uniform_unknown;
  return r;
}

// a * b where the product stays affine: an element-wise constant times anything, an argument times
// a constant. Two unknowns multiplied: a uniform unknown when both are the same for every element.
Affine multiply(const Affine& a, const Affine& b) {
  const bool a_known = a.coefficient.empty() && !a.uniform_unknown, b_known = b.coefficient.empty() && !b.uniform_unknown;
  Affine r;
  r.shape = a.size() >= b.size() ? a.shape : b.shape;
  const std::size_t n = std::max(a.size(), b.size());
  r.constant.resize(n);
  for (std::size_t i = 0; i < n; ++i) r.constant[i] = at(a.constant, i) * at(b.constant, i);
  for (const auto& [x, y] : {std::pair{&a, &b}, std::pair{&b, &a}})
    for (const auto& [k, c] : x->coefficient) {
      auto& out = r.coefficient[k];
      out.resize(n, 0);
      for (std::size_t i = 0; i < n; ++i) out[i] += at(c, i) * at(y->constant, i);
    }
  if (a_known || b_known) {
    const Affine& other = a_known ? b : a;
    const Affine& known = a_known ? a : b;
    // u * c stays uniform only if c is.
    if (other.uniform_unknown && !uniform(known.constant)) fail("an unknown scalar times a different value per element");
    r.uniform_unknown = other.uniform_unknown;
    return r;
  }
  // Both carry unknowns: their products must be the same for every element.
  auto varies = [](const Affine& x) {
    return std::any_of(x.coefficient.begin(), x.coefficient.end(), [](const auto& kv) { return !uniform(kv.second); });
  };
  if (varies(a) || varies(b) || (a.uniform_unknown && !uniform(b.constant)) || (b.uniform_unknown && !uniform(a.constant)))
    fail("a product of two unknowns that differs per element");
  r.uniform_unknown = true;
  return r;
}

// The integer ops followed only on values known per element (no argument, no unknown): a
// gather's indices computed from a range (`(i * 33) % B`, `i ^ 31`). Signed ones as LLVM's
// (truncating division); the unsigned ones of a negative value are refused.
std::optional<std::int64_t (*)(std::int64_t, std::int64_t)> known_only_op(const std::string& op) {
  using F = std::int64_t (*)(std::int64_t, std::int64_t);
  static const std::map<std::string, F> ops = {
      {"arith.remsi", [](std::int64_t a, std::int64_t b) { return a % b; }},
      {"arith.remui", [](std::int64_t a, std::int64_t b) { return a % b; }},
      {"arith.divsi", [](std::int64_t a, std::int64_t b) { return a / b; }},
      {"arith.divui", [](std::int64_t a, std::int64_t b) { return a / b; }},
      {"arith.andi", [](std::int64_t a, std::int64_t b) { return a & b; }},
      {"arith.ori", [](std::int64_t a, std::int64_t b) { return a | b; }},
      {"arith.xori", [](std::int64_t a, std::int64_t b) { return a ^ b; }},
      {"arith.shrsi", [](std::int64_t a, std::int64_t b) { return a >> b; }},
      {"arith.shrui", [](std::int64_t a, std::int64_t b) { return a >> b; }},
  };
  const auto it = ops.find(op);
  if (it == ops.end()) return std::nullopt;
  return it->second;
}

// `fn` on each element of two values known per element (no argument, no unknown; a scalar splat).
template <class F>
Affine elementwise(const Affine& a, const Affine& b, F fn) {
  for (const Affine* x : {&a, &b})
    if (!x->coefficient.empty() || x->uniform_unknown || x->pointee_bytes) fail("of a value not known per element");
  Affine r;
  r.shape = a.size() >= b.size() ? a.shape : b.shape;
  r.constant.resize(std::max(a.size(), b.size()));
  for (std::size_t i = 0; i < r.constant.size(); ++i) r.constant[i] = fn(at(a.constant, i), at(b.constant, i));
  return r;
}

Affine known_only(const std::string& op, const Affine& a, const Affine& b) {
  const auto fn = *known_only_op(op);
  const bool divides = op.find("rem") != std::string::npos || op.find("div") != std::string::npos;
  const bool shifts = op.find("shr") != std::string::npos, unsigned_op = op.back() == 'i' && op[op.size() - 2] == 'u';
  return elementwise(a, b, [&](std::int64_t x, std::int64_t y) {
    if (divides && y == 0) fail("a division by zero");
    if (shifts && (y < 0 || y > 62)) fail("a shift by {}", y);
    if (unsigned_op && (x < 0 || y < 0)) fail("an unsigned op of a negative value");
    return fn(x, y);
  });
}

// arith.cmpi's predicate on two integers (slt, ule, eq, ...); empty for one not evaluated. The
// unsigned ones read both as unsigned: values of one width sign-extended to 64 bits keep their
// unsigned order.
std::optional<bool> compare(std::string_view predicate, std::int64_t a, std::int64_t b) {
  if (predicate == "eq") return a == b;
  if (predicate == "ne") return a != b;
  const bool is_unsigned = !predicate.empty() && predicate.front() == 'u';
  if (predicate.size() != 3 || (!is_unsigned && predicate.front() != 's')) return std::nullopt;
  const std::string_view order = predicate.substr(1);
  const auto as = [&](auto x, auto y) -> std::optional<bool> {
    if (order == "lt") return x < y;
    if (order == "le") return x <= y;
    if (order == "gt") return x > y;
    if (order == "ge") return x >= y;
    return std::nullopt;
  };
  return is_unsigned ? as(static_cast<std::uint64_t>(a), static_cast<std::uint64_t>(b)) : as(a, b);
}

// arith.cmpi per element, 1 or 0: a mask's comparisons (`rows < M`), of values known per element.
Affine compared(std::string_view predicate, const Affine& a, const Affine& b) {
  return elementwise(a, b, [&](std::int64_t x, std::int64_t y) -> std::int64_t {
    const auto c = compare(predicate, x, y);
    if (!c) fail("predicate {} is not evaluated", predicate);
    return *c ? 1 : 0;
  });
}

}  // namespace

PointerReader::PointerReader(const Module& m) : module_(m) {
  // A layout conversion moves values between threads, never between elements: the same value.
  for (const Op& op : m.ops)
    if (op.name == "ttg.convert_layout" && !op.results.empty() && !op.operands.empty()) same_as_[op.results[0]] = op.operands[0];
  for (const auto& [line_no, text] : m.arithmetic) {
    std::string_view line = trimmed(text);
    if (line.rfind("tt.func", 0) == 0) {
      // %name: type {tt.divisibility = 16 : i32} loc(...), ...
      const std::size_t open = line.find('(');
      for (std::size_t at = line.find('%', open); at != std::string_view::npos && open != std::string_view::npos;
           at = line.find(", %", at + 1) == std::string_view::npos ? std::string_view::npos : line.find(", %", at + 1) + 2) {
        const std::string name = ssa_name(line, at);
        const std::size_t next = line.find(", %", at + 1);
        const std::string_view arg = line.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at);
        std::string_view type = trimmed(arg.substr(std::min(arg.size(), name.size() + 1)));
        type = type.substr(0, type.find_first_of(" {),"));
        if (type.rfind("!tt.ptr<", 0) == 0) {
          pointer_arguments_[name] = std::string(type);
        } else if (type == "i32" || type == "i64") {
          Argument a{name, std::nullopt};
          if (const auto d = attribute(arg, "tt.divisibility")) a.divisibility = *d;
          arguments_[name] = a;
        }
      }
      continue;
    }
    // [%r[:n] = ] op head : types [-> type] [loc(...)]
    std::string_view body = line;
    std::string result;
    if (body.front() == '%') {
      const std::size_t eq = body.find(" = ");
      if (eq == std::string_view::npos) continue;
      result = ssa_name(body, 0);
      body = body.substr(eq + 3);
    }
    const std::size_t name_end = body.find_first_of(" (");
    const std::string op(body.substr(0, name_end));
    if (const std::size_t loc = body.rfind(" loc("); loc != std::string_view::npos) body = body.substr(0, loc);
    if (op == "scf.for") {
      // scf.for %iv = %lb to %ub step %s iter_args(%x = %init, ...): the first iteration's values.
      const std::size_t iv = body.find('%');
      const std::size_t lb = body.find(" = %", iv);
      if (iv != std::string_view::npos && lb != std::string_view::npos) same_as_[ssa_name(body, iv)] = ssa_name(body, lb + 3);
      const std::size_t to = body.find(" to %", lb), step = body.find(" step %", lb);
      if (iv != std::string_view::npos && lb != std::string_view::npos && to != std::string_view::npos &&
          step != std::string_view::npos)
        loops_.push_back(
            Loop{line_no, ssa_name(body, iv), ssa_name(body, lb + 3), ssa_name(body, to + 4), ssa_name(body, step + 6), {}});
      if (const std::size_t args = body.find("iter_args("); args != std::string_view::npos)
        for (std::size_t at = body.find('%', args); at != std::string_view::npos && at < body.find(')', args);) {
          const std::size_t eq = body.find(" = %", at);
          if (eq == std::string_view::npos) break;
          same_as_[ssa_name(body, at)] = ssa_name(body, eq + 3);
          if (!loops_.empty() && loops_.back().line == line_no) loops_.back().carried.push_back(ssa_name(body, at));
          at = body.find(", %", eq);
          at = at == std::string_view::npos ? at : at + 2;
        }
      continue;
    }
    if (op == "tt.store") {  // tt.store %pointers, %value[, %mask]
      const std::vector<std::string> operands =
          operands_of(body.substr(name_end == std::string_view::npos ? body.size() : name_end));
      if (operands.size() >= 2) stores_.emplace(operands[1], operands[0]);
      continue;
    }
    if (result.empty() || name_end == std::string_view::npos) continue;
    body = body.substr(name_end);
    const std::size_t colon = body.rfind(" : ");
    if (colon == std::string_view::npos) continue;
    const std::string_view types = body.substr(colon + 3);
    const std::size_t arrow = types.rfind(" -> ");
    Line l{line_no, op, std::string(body.substr(0, colon)),
           arrow == std::string_view::npos ? first_type(types) : std::string(trimmed(types.substr(arrow + 4)))};
    if (l.op == "tt.get_program_id") {
      const std::string_view axis = trimmed(l.head);
      program_ids_[result] = axis == "y" ? 1 : axis == "z" ? 2 : 0;
    }
    definitions_[result] = std::move(l);
  }
}

std::pair<std::string, std::string> PointerReader::definition(const std::string& name) const {
  const auto it = definitions_.find(name);
  if (it == definitions_.end()) return {};
  const std::vector<std::string> operands = operands_of(it->second.head);
  return {it->second.op, operands.empty() ? std::string() : operands.front()};
}

std::set<std::string> PointerReader::inputs_of(const std::string& name) const {
  std::set<std::string> out, seen;
  std::vector<std::string> todo{name};
  while (!todo.empty() && seen.size() < 100000) {  // bounded: a module's values, each once
    std::string v = todo.back();
    todo.pop_back();
    if (!seen.insert(v).second) continue;
    if (const auto same = same_as_.find(v); same != same_as_.end()) {
      todo.push_back(same->second);
      continue;
    }
    if (arguments_.count(v)) {
      out.insert(v);
      continue;
    }
    const auto d = definitions_.find(v);
    if (d == definitions_.end()) continue;
    if (d->second.op == "tt.get_program_id") out.insert(v);
    for (const std::string& o : operands_of(d->second.head)) todo.push_back(o);
  }
  return out;
}

std::string PointerReader::stored_through(const std::string& name) const {
  const auto it = stores_.find(name);
  return it == stores_.end() ? std::string() : it->second;
}

Followed PointerReader::follow(const std::string& name) const {
  try {
    return {evaluate(name, 0), ""};
  } catch (const Error& e) {
    return {std::nullopt, e.what()};
  }
}

Affine PointerReader::evaluate(const std::string& name, int depth) const {
  if (depth > kDepthLimit) fail("{}: address arithmetic deeper than {} ops", name, kDepthLimit);
  Affine r;
  r.constant = {0};
  if (env_)
    if (const auto given = env_->find(name); given != env_->end()) {
      r.constant = {given->second};
      return r;
    }
  if (const auto same = same_as_.find(name); same != same_as_.end()) return evaluate(same->second, depth + 1);
  auto& memo = env_ ? env_memo_ : memo_;
  if (const auto hit = memo.find(name); hit != memo.end()) return *hit->second;
  if (const auto a = arguments_.find(name); a != arguments_.end()) {
    r.coefficient[name] = {1};
    return r;
  }
  if (const auto p = pointer_arguments_.find(name); p != pointer_arguments_.end()) {
    r.uniform_unknown = true;  // the tensor's base: the same for every element
    r.pointee_bytes = pointee_bytes_of(p->second);
    return r;
  }
  const auto it = definitions_.find(name);
  if (it == definitions_.end()) fail("{} is not defined by an op the audit reads", name);
  const Line& l = it->second;
  const Shaped type = shape_of(l.type);
  if (static_cast<std::size_t>(product(type.shape)) > kElementLimit)
    fail("line {}: {} elements: too many to follow", l.line, product(type.shape));
  const std::vector<std::string> operands = operands_of(l.head);
  auto operand = [&](std::size_t i) {
    if (i >= operands.size()) fail("line {}: {} without operand {}", l.line, l.op, i + 1);
    return evaluate(operands[i], depth + 1);
  };
  try {
    if (l.op == "arith.constant") {
      std::string_view v = trimmed(l.head);
      const bool dense = v.rfind("dense<", 0) == 0;
      if (dense) v = v.substr(6, v.rfind('>') - 6);
      const auto value = v == "true"    ? std::optional<std::int64_t>(1)
                         : v == "false" ? std::optional<std::int64_t>(0)
                                        : integer_at(v);
      if (!value) fail("a constant that is not an integer");
      r = splat(Affine{{}, {*value}, {}, false, 0}, type.shape);
    } else if (l.op == "tt.make_range") {
      const auto start = attribute(l.head, "start"), end = attribute(l.head, "end");
      if (!start || !end || type.shape.size() != 1 || *end - *start != type.shape[0]) fail("a range without its bounds");
      r.shape = type.shape;
      r.constant.resize(static_cast<std::size_t>(type.shape[0]));
      for (std::size_t i = 0; i < r.constant.size(); ++i) r.constant[i] = *start + static_cast<std::int64_t>(i);
    } else if (l.op == "tt.splat") {
      const Affine s = operand(0);
      if (s.size() != 1) fail("a splat of a tensor");
      r = splat(s, type.shape);
    } else if (l.op == "tt.expand_dims" || l.op == "tt.bitcast" || l.op == "arith.extsi" || l.op == "arith.extui" ||
               l.op == "arith.trunci" || l.op == "arith.index_cast") {
      r = operand(0);  // the same elements in the same order; a bitcast pointer keeps its bytes
      if (l.op == "tt.bitcast" && r.pointee_bytes) r.pointee_bytes = pointee_bytes_of(type.element);
      if (type.shape.empty() ? r.size() != 1 : static_cast<std::int64_t>(r.size()) != product(type.shape))
        fail("a result of another size");
      r.shape = type.shape;
    } else if (l.op == "tt.broadcast") {
      r = broadcast(operand(0), type.shape);
    } else if (l.op == "arith.addi" || l.op == "arith.subi") {
      const Affine a = operand(0), b = operand(1);
      if (b.pointee_bytes) fail("a pointer on the right");
      r = add(a, b, l.op == "arith.subi" ? -1 : 1);
      r.pointee_bytes = a.pointee_bytes;
    } else if (l.op == "arith.muli") {
      r = multiply(operand(0), operand(1));
    } else if (l.op == "arith.shli") {
      const Affine b = operand(1);
      if (!b.coefficient.empty() || b.uniform_unknown || !uniform(b.constant) || b.constant.front() < 0 ||
          b.constant.front() > 40)
        fail("a shift by an unknown or varying amount");
      r = multiply(operand(0), Affine{{}, {std::int64_t{1} << b.constant.front()}, {}, false, 0});
    } else if (l.op == "arith.cmpi") {
      const std::string_view head = trimmed(l.head);
      r = compared(trimmed(head.substr(0, head.find(','))), operand(0), operand(1));
    } else if (known_only_op(l.op)) {
      r = known_only(l.op, operand(0), operand(1));
    } else if (l.op == "tt.addptr") {
      const Affine p = operand(0), offset = operand(1);
      if (!p.pointee_bytes) fail("tt.addptr of a value that is not a pointer");
      r = add(p, offset, p.pointee_bytes);
      r.pointee_bytes = p.pointee_bytes;
    } else if (type.shape.empty()) {
      r.uniform_unknown = true;  // a scalar the reader does not compute: the same for every element
      r.pointee_bytes = pointee_bytes_of(type.element);
    } else {
      fail("line {}: {} is not followed", l.line, l.op);
    }
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.rfind("line ", 0) == 0 || what.find(" is not defined") != std::string::npos) throw;
    fail("line {}: {} ({})", l.line, l.op, what);
  }
  r.shape = type.shape;
  memo.emplace(name, std::make_shared<const Affine>(r));
  return r;
}

Followed PointerReader::follow_with(const std::string& name, const Values& env) const {
  env_ = &env;
  env_memo_.clear();
  Followed out = follow(name);
  env_ = nullptr;
  env_memo_.clear();
  return out;
}

std::optional<std::int64_t> PointerReader::scalar(const std::string& name, const Values& env, std::string& why) const {
  return scalar_at(name, env, why, 0);
}

// i1 and integer scalars: comparisons and their logic on top of the affine forms above.
std::optional<std::int64_t> PointerReader::scalar_at(const std::string& name, const Values& env, std::string& why,
                                                     int depth) const {
  if (depth > kDepthLimit) {
    why = fmt::format("{}: deeper than {} ops", name, kDepthLimit);
    return std::nullopt;
  }
  if (const auto given = env.find(name); given != env.end()) return given->second;
  const auto it = definitions_.find(name);
  if (it != definitions_.end()) {
    const Line& l = it->second;
    const std::vector<std::string> operands = operands_of(l.head);
    auto both = [&]() -> std::optional<std::pair<std::int64_t, std::int64_t>> {
      if (operands.size() < 2) return std::nullopt;
      const auto a = scalar_at(operands[0], env, why, depth + 1);
      const auto b = a ? scalar_at(operands[1], env, why, depth + 1) : std::nullopt;
      if (!b) return std::nullopt;
      return std::pair{*a, *b};
    };
    if (l.op == "arith.constant" && (trimmed(l.head) == "true" || trimmed(l.head) == "false")) return trimmed(l.head) == "true";
    if (l.op == "tt.splat" && !operands.empty()) return scalar_at(operands[0], env, why, depth + 1);
    if (l.op == "arith.andi" || l.op == "arith.ori" || l.op == "arith.xori") {
      const auto ab = both();
      if (!ab) return std::nullopt;
      return l.op == "arith.andi"  ? (ab->first & ab->second)
             : l.op == "arith.ori" ? (ab->first | ab->second)
                                   : (ab->first ^ ab->second);
    }
    if (l.op == "arith.cmpi") {
      const std::string_view predicate = trimmed(trimmed(l.head).substr(0, trimmed(l.head).find(',')));
      const auto ab = both();
      if (!ab) return std::nullopt;
      if (const auto c = compare(predicate, ab->first, ab->second)) return *c;
      why = fmt::format("line {}: arith.cmpi {} is not evaluated", l.line, predicate);
      return std::nullopt;
    }
  }
  const Followed f = follow_with(name, env);
  if (!f.value) {
    why = f.why_not;
    return std::nullopt;
  }
  const Affine& v = *f.value;
  if (v.uniform_unknown || !v.coefficient.empty() || v.constant.empty() || !uniform(v.constant)) {
    std::string unknowns;
    for (const auto& [k, c] : v.coefficient) unknowns += (unknowns.empty() ? "" : ", ") + k;
    why = fmt::format("{} depends on {}", name, unknowns.empty() ? std::string("a value the audit does not compute") : unknowns);
    return std::nullopt;
  }
  return v.constant.front();
}

const Loop* PointerReader::loop_of(const std::string& name) const {
  std::map<std::string, const Loop*> symbols;
  for (const Loop& loop : loops_) {
    symbols[loop.induction] = &loop;
    for (const std::string& c : loop.carried) symbols[c] = &loop;
  }
  const Loop* innermost = nullptr;
  std::vector<std::string> todo{name};
  std::set<std::string> seen;
  while (!todo.empty() && seen.size() < 100000) {  // bounded: a module's values, each once
    const std::string v = todo.back();
    todo.pop_back();
    if (!seen.insert(v).second) continue;
    if (const auto s = symbols.find(v); s != symbols.end()) {
      if (!innermost || s->second->line > innermost->line) innermost = s->second;
      continue;
    }
    if (const auto d = definitions_.find(v); d != definitions_.end())
      for (const std::string& o : operands_of(d->second.head)) todo.push_back(o);
  }
  return innermost;
}

}  // namespace swz::ttgir
