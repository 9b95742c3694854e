// sass.cpp: a SASS listing's functions and instructions (sass.h).
#include "swz/kernel/sass.h"

#include <cctype>
#include <optional>

#include "swz/error.h"

namespace swz::sass {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// A function's header: "Function : name" (cuobjdump), "Function:name" (Triton), ".text.name:" (nvdisasm);
// empty for any other line, "" for a header without a name.
std::optional<std::string_view> header_name(std::string_view line) {
  if (starts_with(line, "Function")) {
    std::string_view rest = trim(line.substr(8));
    if (rest.empty() || rest.front() != ':') return std::nullopt;
    return trim(rest.substr(1));
  }
  if (starts_with(line, ".text.") && line.back() == ':') return line.substr(6, line.size() - 7);
  return std::nullopt;
}

bool valid_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

// Triton's control codes before an instruction: five fields separated by ':' ("--:-:1:-:1").
bool control_codes(std::string_view token) {
  int colons = 0;
  for (char c : token) {
    if (c == ':')
      ++colons;
    else if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-')
      return false;
  }
  return colons == 4;
}

bool opcode_like(std::string_view token) {
  if (token.empty() || !std::isupper(static_cast<unsigned char>(token.front()))) return false;
  for (char c : token)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_')  // IGMMA.64x128x32.S8.S8
      return false;
  return true;
}

// The operands of `text` (after the opcode), split at the commas outside [] and ().
std::vector<std::string> split_operands(std::string_view text) {
  std::vector<std::string> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ',';
    if (c == '[' || c == '(' || c == '{') ++depth;
    if ((c == ']' || c == ')' || c == '}') && depth > 0) --depth;
    if (c == ',' && depth == 0) {
      const std::string_view part = trim(text.substr(start, i - start));
      if (!part.empty()) out.emplace_back(part);
      start = i + 1;
    }
  }
  return out;
}

// The instruction on `line`, checked whatever its opcode; operands are split only for an opcode that
// starts with `keep` (nullopt for any other: a listing's bulk, which the reader does not hold).
std::optional<Instruction> read_instruction(std::string_view line, int number, const std::string& path, std::string_view keep) {
  std::string_view s = line;
  // cuobjdump / nvdisasm: the address comment before it and the encoding comment after the ';'.
  if (starts_with(s, "/*")) {
    const auto end = s.find("*/");
    s = trim(s.substr(end == std::string_view::npos ? s.size() : end + 2));
  }
  s = trim(s.substr(0, s.find(';')));
  if (const auto space = s.find_first_of(" \t"); space != std::string_view::npos && control_codes(s.substr(0, space)))
    s = trim(s.substr(space));
  else if (control_codes(s))
    s = {};
  Instruction ins;
  ins.line = number;
  if (!s.empty() && s.front() == '@') {
    const auto space = s.find_first_of(" \t");
    ins.guard = std::string(s.substr(1, space == std::string_view::npos ? std::string_view::npos : space - 1));
    s = space == std::string_view::npos ? std::string_view{} : trim(s.substr(space));
  }
  const auto space = s.find_first_of(" \t");
  const std::string_view opcode = s.substr(0, space);
  if (!opcode_like(opcode))
    fail("{}:{}: expected an instruction (OPCODE operands ;), found '{}'", path, number, clipped(trim(line)));
  if (!starts_with(opcode, keep)) return std::nullopt;
  ins.opcode = std::string(opcode);
  if (space != std::string_view::npos) ins.operands = split_operands(s.substr(space));
  return ins;
}

}  // namespace

const Function& Listing::function(const std::string& name) const {
  std::string held;
  for (const Function& f : functions) {
    if (f.name == name) return f;
    held += (held.empty() ? "" : ", ") + clipped(f.name);
  }
  fail("{}: no function '{}' in the listing (it holds {})", path, clipped(name), held);
}

Listing read_listing(std::string_view text, const std::string& path, std::string_view keep) {
  Listing out;
  out.path = path;
  int number = 0;
  Function* current = nullptr;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view raw = text.substr(begin, end - begin);
    begin = end + 1;
    ++number;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      const auto c = static_cast<unsigned char>(raw[i]);
      if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
        fail("{}:{}: not a SASS listing: control byte 0x{:02x} at column {}", path, number, c, i + 1);
    }
    const std::string_view line = trim(raw);
    if (line.empty()) continue;
    if (const auto header = header_name(line)) {
      const std::string_view name = *header;
      if (!valid_name(name)) fail("{}:{}: a function header without a name: '{}'", path, number, clipped(line));
      for (const Function& f : out.functions)
        if (f.name == name) fail("{}:{}: function '{}' again (first at line {})", path, number, clipped(name), f.line);
      current = &out.functions.emplace_back(Function{std::string(name), number, {}});
      continue;
    }
    if (!current || line.find(';') == std::string_view::npos) continue;  // headers, labels, encodings, directives
    const std::string_view code =
        starts_with(line, "/*") && line.find("*/") != std::string_view::npos ? trim(line.substr(line.find("*/") + 2)) : line;
    if (code.empty() || code.front() == ';' || starts_with(code, "/*") || starts_with(code, "//")) continue;
    if (std::optional<Instruction> instruction = read_instruction(line, number, path, keep))
      current->instructions.push_back(std::move(*instruction));
  }
  if (out.functions.empty())
    fail(
        "{}: no function in it (a SASS listing: cuobjdump -sass, nvdisasm, or Triton's asm[\"sass\"], whose functions "
        "begin 'Function : NAME')",
        path);
  return out;
}

std::string predicate_operand(const Instruction& instruction) {
  if (instruction.operands.empty()) return "";
  const std::string& last = instruction.operands.back();
  const std::string_view r = std::string_view(last).substr(!last.empty() && last.front() == '!' ? 1 : 0);
  const bool predicate = r == "PT" || (r.size() == 2 && r[0] == 'P' && r[1] >= '0' && r[1] <= '6');
  return predicate ? last : "";
}

}  // namespace swz::sass
