// xml_check.h: a small XML 1.0 well-formedness checker for the SVG tests.
//
// Checks what a figure can get wrong: one root element, every start tag closed
// in order, attributes quoted and not repeated, '&' only in the five named
// entities or character references, no '<' in text or attribute values, no
// control characters, comments and the XML declaration well formed. It also
// counts elements by name and class so tests can count the cells. (No DTDs,
// CDATA or processing instructions other than the declaration: the figures
// have none, and meeting one is reported as an error.)
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace swz::test {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;  // entity references decoded
};

struct XmlReport {
  std::string error;                 // "" when well formed
  std::vector<XmlElement> elements;  // every element, in document order
  std::string text;                  // all character data, decoded
  bool ok() const { return error.empty(); }
  // Elements named `name` whose class list contains `cls` ("" = any class).
  std::size_t count(std::string_view name, std::string_view cls = {}) const {
    std::size_t n = 0;
    for (const auto& e : elements) {
      if (e.name != name) continue;
      if (cls.empty()) {
        ++n;
        continue;
      }
      const auto it = e.attributes.find("class");
      if (it == e.attributes.end()) continue;
      std::string_view classes = it->second;
      while (!classes.empty()) {
        const std::size_t space = classes.find(' ');
        if (classes.substr(0, space) == cls) {
          ++n;
          break;
        }
        if (space == std::string_view::npos) break;
        classes.remove_prefix(space + 1);
      }
    }
    return n;
  }
};

namespace detail {

inline bool name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || (c & 0x80); }
inline bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }
inline bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Parser {
 public:
  explicit Parser(std::string_view doc) : s_(doc) {}

  XmlReport run() {
    XmlReport r;
    report_ = &r;
    parse_document();
    return r;
  }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
  XmlReport* report_ = nullptr;

  bool failed() const { return !report_->error.empty(); }
  void error(const std::string& what) {
    if (failed()) return;
    std::size_t line = 1;
    for (std::size_t k = 0; k < i_ && k < s_.size(); ++k) line += s_[k] == '\n';
    report_->error = "line " + std::to_string(line) + ": " + what;
  }
  bool at(std::string_view t) const { return s_.substr(i_, t.size()) == t; }
  void skip_space() {
    while (i_ < s_.size() && space(s_[i_])) ++i_;
  }

  std::string name() {
    if (i_ >= s_.size() || !name_start(s_[i_])) {
      error("expected a name");
      return {};
    }
    const std::size_t start = i_;
    while (i_ < s_.size() && name_char(s_[i_])) ++i_;
    return std::string(s_.substr(start, i_ - start));
  }

  // Decodes character data up to `stop` (not included); rejects '<' and bad '&'.
  std::string chars(char stop) {
    std::string out;
    while (i_ < s_.size() && s_[i_] != stop && !failed()) {
      const char c = s_[i_];
      const auto u = static_cast<unsigned char>(c);
      if (c == '<') {
        if (stop == '<') break;
        error("'<' inside an attribute value");
        return out;
      }
      if (u < 0x20 && c != '\n' && c != '\r' && c != '\t') {
        error("control character in the document");
        return out;
      }
      if (c == '&') {
        const std::size_t semi = s_.find(';', i_);
        if (semi == std::string_view::npos || semi - i_ > 10) {
          error("'&' that starts no entity reference");
          return out;
        }
        const std::string_view ref = s_.substr(i_ + 1, semi - i_ - 1);
        if (ref == "amp")
          out += '&';
        else if (ref == "lt")
          out += '<';
        else if (ref == "gt")
          out += '>';
        else if (ref == "quot")
          out += '"';
        else if (ref == "apos")
          out += '\'';
        else if (ref.size() > 1 && ref[0] == '#') {
          const bool hex = ref[1] == 'x';
          const std::string_view digits = ref.substr(hex ? 2 : 1);
          if (digits.empty()) error("empty character reference");
          for (char d : digits)
            if (!((d >= '0' && d <= '9') || (hex && ((d >= 'a' && d <= 'f') || (d >= 'A' && d <= 'F')))))
              error("bad character reference");
          out += '?';
        } else {
          error("unknown entity '&" + std::string(ref) + ";'");
        }
        i_ = semi + 1;
        continue;
      }
      out += c;
      ++i_;
    }
    return out;
  }

  void comment() {  // at "<!--"
    const std::size_t end = s_.find("--", i_ + 4);
    if (end == std::string_view::npos || !at("<!--") || s_.substr(end, 3) != "-->") {
      error("comment not closed with '-->' (or '--' inside it)");
      return;
    }
    i_ = end + 3;
  }

  void misc() {
    while (!failed()) {
      skip_space();
      if (at("<!--"))
        comment();
      else
        break;
    }
  }

  void declaration() {
    if (!at("<?xml")) return;
    const std::size_t end = s_.find("?>", i_);
    if (end == std::string_view::npos) {
      error("XML declaration not closed");
      return;
    }
    const std::string_view decl = s_.substr(i_, end - i_);
    if (decl.find("version=\"1.0\"") == std::string_view::npos) error("XML declaration without version=\"1.0\"");
    i_ = end + 2;
  }

  void element() {  // at '<' + name
    ++i_;
    XmlElement e;
    e.name = name();
    std::set<std::string> seen;
    while (!failed()) {
      const std::size_t before = i_;
      skip_space();
      if (at("/>")) {
        i_ += 2;
        report_->elements.push_back(std::move(e));
        return;
      }
      if (at(">")) {
        ++i_;
        break;
      }
      if (i_ == before) {
        error("expected whitespace before an attribute of <" + e.name + ">");
        return;
      }
      const std::string key = name();
      if (failed()) return;
      if (!seen.insert(key).second) {
        error("attribute '" + key + "' repeated in <" + e.name + ">");
        return;
      }
      skip_space();
      if (!at("=")) {
        error("attribute '" + key + "' has no value");
        return;
      }
      ++i_;
      skip_space();
      if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\'')) {
        error("attribute '" + key + "' is not quoted");
        return;
      }
      const char quote = s_[i_++];
      std::string value = chars(quote);
      if (failed()) return;
      if (i_ >= s_.size()) {
        error("attribute '" + key + "' not closed");
        return;
      }
      ++i_;
      e.attributes.emplace(key, std::move(value));
    }
    const std::string open = e.name;
    report_->elements.push_back(std::move(e));
    // Content: text, comments, child elements, then the matching end tag.
    while (!failed()) {
      report_->text += chars('<');
      if (failed()) return;
      if (i_ >= s_.size()) {
        error("<" + open + "> is never closed");
        return;
      }
      if (at("<!--")) {
        comment();
      } else if (at("</")) {
        i_ += 2;
        const std::string close = name();
        skip_space();
        if (close != open) {
          error("</" + close + "> closes <" + open + ">");
          return;
        }
        if (!at(">")) {
          error("end tag </" + close + "> not closed");
          return;
        }
        ++i_;
        return;
      } else if (at("<!") || at("<?")) {
        error("unsupported markup (DTD, CDATA or processing instruction)");
        return;
      } else {
        element();
      }
    }
  }

  void parse_document() {
    declaration();
    misc();
    if (failed()) return;
    if (!at("<") || at("</") || at("<!") || at("<?")) {
      error("no root element");
      return;
    }
    element();
    misc();
    if (!failed() && i_ != s_.size()) error("content after the root element");
  }
};

}  // namespace detail

inline XmlReport check_xml(std::string_view document) { return detail::Parser(document).run(); }

}  // namespace swz::test
