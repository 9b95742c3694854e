#include "swz/teach/math_text.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace swz {

namespace {

// The superscript form of one ASCII character, or "" when Unicode has none.
std::string_view superscript(char c) {
  switch (c) {
    case '0': return "\u2070";
    case '1': return "\u00b9";
    case '2': return "\u00b2";
    case '3': return "\u00b3";
    case '4': return "\u2074";
    case '5': return "\u2075";
    case '6': return "\u2076";
    case '7': return "\u2077";
    case '8': return "\u2078";
    case '9': return "\u2079";
    case '+': return "\u207a";
    case '-': return "\u207b";
    case '=': return "\u207c";
    case '(': return "\u207d";
    case ')': return "\u207e";
    case 'a': return "\u1d43";
    case 'b': return "\u1d47";
    case 'c': return "\u1d9c";
    case 'd': return "\u1d48";
    case 'e': return "\u1d49";
    case 'f': return "\u1da0";
    case 'g': return "\u1d4d";
    case 'h': return "\u02b0";
    case 'i': return "\u2071";
    case 'j': return "\u02b2";
    case 'k': return "\u1d4f";
    case 'l': return "\u02e1";
    case 'm': return "\u1d50";
    case 'n': return "\u207f";
    case 'o': return "\u1d52";
    case 'p': return "\u1d56";
    case 'r': return "\u02b3";
    case 's': return "\u02e2";
    case 't': return "\u1d57";
    case 'u': return "\u1d58";
    case 'v': return "\u1d5b";
    case 'w': return "\u02b7";
    case 'x': return "\u02e3";
    case 'y': return "\u02b8";
    case 'z': return "\u1dbb";
    case 'B': return "\u1d2e";
    case 'D': return "\u1d30";
    case 'M': return "\u1d39";
    case 'N': return "\u1d3a";
    case 'K': return "\u1d37";
    default: return "";
  }
}

// The subscript form of one ASCII character, or "" when Unicode has none.
std::string_view subscript(char c) {
  switch (c) {
    case '0': return "\u2080";
    case '1': return "\u2081";
    case '2': return "\u2082";
    case '3': return "\u2083";
    case '4': return "\u2084";
    case '5': return "\u2085";
    case '6': return "\u2086";
    case '7': return "\u2087";
    case '8': return "\u2088";
    case '9': return "\u2089";
    case '+': return "\u208a";
    case '-': return "\u208b";
    case '=': return "\u208c";
    case '(': return "\u208d";
    case ')': return "\u208e";
    case 'a': return "\u2090";
    case 'e': return "\u2091";
    case 'o': return "\u2092";
    case 'x': return "\u2093";
    case 'h': return "\u2095";
    case 'k': return "\u2096";
    case 'l': return "\u2097";
    case 'm': return "\u2098";
    case 'n': return "\u2099";
    case 'p': return "\u209a";
    case 's': return "\u209b";
    case 't': return "\u209c";
    case 'i': return "\u1d62";
    case 'r': return "\u1d63";
    case 'u': return "\u1d64";
    case 'v': return "\u1d65";
    case 'j': return "\u2c7c";
    default: return "";
  }
}

void html_escape(std::string& out, char c) {
  switch (c) {
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '&': out += "&amp;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
  }
}

}  // namespace

std::string render_math(std::string_view text, MathStyle style) {
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '^' && i + 1 < text.size() && text[i + 1] == '{') {
      const std::size_t close = text.find('}', i + 2);
      if (close != std::string_view::npos) {
        const std::string_view exponent = text.substr(i + 2, close - i - 2);
        i = close;
        if (style == MathStyle::Html) {
          out += "<sup>";
          for (char e : exponent) html_escape(out, e);
          out += "</sup>";
        } else if (style == MathStyle::Unicode) {
          std::string sup;
          bool all = !exponent.empty();
          for (char e : exponent) {
            const std::string_view s = superscript(e);
            if (s.empty()) all = false;
            sup += s;
          }
          out += all ? sup : " to the power (" + std::string(exponent) + ")";
        } else {
          // '^' is XOR in this notation, so a power is written as Python and Fortran do: 2**d, 2**(d-1).
          const bool plain = !exponent.empty() && std::all_of(exponent.begin(), exponent.end(), [](char e) {
            return std::isalnum(static_cast<unsigned char>(e)) != 0;
          });
          out += plain ? "**" + std::string(exponent) : "**(" + std::string(exponent) + ")";
        }
        continue;
      }
    }
    if (c == '_' && i + 1 < text.size() && text[i + 1] == '{') {
      const std::size_t close = text.find('}', i + 2);
      if (close != std::string_view::npos) {
        const std::string_view index = text.substr(i + 2, close - i - 2);
        i = close;
        if (style == MathStyle::Html) {
          out += "<sub>";
          for (char e : index) html_escape(out, e);
          out += "</sub>";
        } else if (style == MathStyle::Unicode) {
          std::string sub;
          bool all = !index.empty();
          for (char e : index) {
            const std::string_view s = subscript(e);
            if (s.empty()) all = false;
            sub += s;
          }
          out += all ? sub : "_(" + std::string(index) + ")";
        } else {
          out += index.size() == 1 ? "_" + std::string(index) : "_(" + std::string(index) + ")";
        }
        continue;
      }
    }
    if (c == '^') {
      out += style == MathStyle::Unicode ? "\u2295" : style == MathStyle::Html ? "&oplus;" : "^";
      continue;
    }
    if (style == MathStyle::Html) html_escape(out, c);
    else out += c;
  }
  return out;
}

bool has_ambiguous_power(std::string_view text) {
  // A number, or a field name like F2, raised with '^' and no braces: "2^d", "2^1", "F2^9", "2^(d)".
  static const std::regex power(R"((^|[^A-Za-z0-9_])(F2|[0-9]+)\^[^{\s])");
  return std::regex_search(text.begin(), text.end(), power);
}

bool is_code_paragraph(std::string_view paragraph) { return paragraph.substr(0, 4) == "    "; }

std::vector<std::string> code_lines(std::string_view paragraph) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= paragraph.size()) {
    const std::size_t end = std::min(paragraph.find('\n', start), paragraph.size());
    std::string_view line = paragraph.substr(start, end - start);
    std::size_t indent = 0;
    while (indent < 4 && indent < line.size() && line[indent] == ' ') ++indent;
    line.remove_prefix(indent);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    start = end + 1;
  }
  while (!lines.empty() && lines.back().find_first_not_of(' ') == std::string::npos) lines.pop_back();
  return lines;
}

}  // namespace swz
