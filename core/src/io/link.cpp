#include "swz/io/link.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <nlohmann/json.hpp>

#include "swz/error.h"
#include "swz/io/limits.h"
#include "swz/problem/problem.h"

namespace swz {

namespace {

using nlohmann::json;

constexpr std::string_view kBase64UrlAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::array<const char*, 8> kLinkKeys = {"v", "preset", "layout", "problem", "masks", "lesson", "step", "quiz"};

std::string link_known_keys() {
  std::string out;
  for (const char* k : kLinkKeys) out += fmt::format("{}{}", out.empty() ? "" : ", ", k);
  return out;
}

// A preset, layout, lesson or quiz-set name: letters, digits, '-', '_'. Never a path: no '/',
// and no '.', so never "x.json" (which the lesson and quiz lookups would read as a file).
bool is_plain_link_name(std::string_view value) {
  return !value.empty() && std::all_of(value.begin(), value.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
  });
}

void check_link_name(const std::string& key, const std::string& value) {
  if (!is_plain_link_name(value))
    fail("link: {}: '{}' is not a plain name (letters, digits, '-', '_'; never a path)", key, value);
}

std::string percent_decoded(const std::string& key, std::string_view value) {
  std::string out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] != '%') {
      out += value[i];
      continue;
    }
    unsigned byte = 0;
    const char* first = value.data() + i + 1;
    const auto [ptr, ec] = i + 2 < value.size() ? std::from_chars(first, first + 2, byte, 16) : std::from_chars_result{first, std::errc::invalid_argument};
    if (ec != std::errc() || ptr != first + 2) fail("link: {}: '%' must be followed by two hex digits", key);
    out += static_cast<char>(byte);
    i += 2;
  }
  return out;
}

// The problem's JSON without the keys at their defaults (every key of the JSON form is optional).
json compact_problem_json(const ProblemSpec& spec) {
  json full = to_json(spec);
  json out = json::object();
  for (auto it = full.begin(); it != full.end(); ++it) {
    const json& v = it.value();
    const bool at_default = v.is_null() || (v.is_number() && v == 0) || (v.is_string() && v.get<std::string>().empty()) ||
                            (v.is_array() && v.empty());
    if (it.key() == "preset" || !at_default) out[it.key()] = v;
  }
  out.erase("masks");  // a part of its own
  return out;
}

// True when the preset form says it all: a preset, perhaps a named layout, nothing else changed.
bool preset_form_fits(const ProblemSpec& spec) {
  if (!is_plain_link_name(spec.preset) || (!spec.variant.empty() && !is_plain_link_name(spec.variant))) return false;
  ProblemSpec rest = spec;
  rest.variant.clear();
  rest.masks.clear();
  ProblemSpec plain;
  plain.preset = spec.preset;
  return rest == plain;
}

}  // namespace

std::string base64url_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() * 4 + 2) / 3);
  std::size_t i = 0;
  // Three bytes, 0bAAAAAABB_BBBBCCCC_CCDDDDDD, make four characters A B C D.
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned n = static_cast<unsigned char>(bytes[i]) << 16 | static_cast<unsigned char>(bytes[i + 1]) << 8 |
                       static_cast<unsigned char>(bytes[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out += kBase64UrlAlphabet[(n >> shift) & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    unsigned n = static_cast<unsigned char>(bytes[i]) << 16;
    if (rest == 2) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kBase64UrlAlphabet[(n >> 18) & 63];
    out += kBase64UrlAlphabet[(n >> 12) & 63];
    if (rest == 2) out += kBase64UrlAlphabet[(n >> 6) & 63];
  }
  return out;
}

std::string base64url_decode(std::string_view text) {
  if (text.size() % 4 == 1) fail("{} characters cannot be base64url (it was cut short?)", text.size());
  std::string out;
  unsigned bits = 0;
  int held = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::size_t value = kBase64UrlAlphabet.find(text[i]);
    if (value == std::string_view::npos) fail("character {} ('{}') is not base64url (A-Z a-z 0-9 - _)", i + 1, text[i]);
    bits = (bits << 6) | static_cast<unsigned>(value);
    held += 6;
    if (held >= 8) {
      held -= 8;
      out += static_cast<char>((bits >> held) & 0xff);
    }
  }
  return out;
}

std::string link_fragment(const WorkbenchLink& link) {
  std::string out = fmt::format("v={}", kLinkVersion);
  if (link.problem) {
    const ProblemSpec& spec = *link.problem;
    if (preset_form_fits(spec)) {
      out += "&preset=" + spec.preset;
      if (!spec.variant.empty()) out += "&layout=" + spec.variant;
    } else {
      out += "&problem=" + base64url_encode(compact_problem_json(spec).dump());
    }
    if (!spec.masks.empty()) out += "&masks=" + format_masks(spec.masks);
  }
  if (!link.lesson.empty()) out += fmt::format("&lesson={}&step={}", link.lesson, link.step);
  if (!link.quiz_set.empty()) out += "&quiz=" + link.quiz_set;
  return out;
}

std::string make_link(const WorkbenchLink& link, std::string_view base) {
  return fmt::format("{}#{}", base, link_fragment(link));
}

WorkbenchLink parse_link(std::string_view url) {
  const std::size_t hash = url.find('#');
  if (hash == std::string_view::npos) fail("link: no '#' in '{}' (a link looks like #v=1&preset=transpose16x32)", url);
  const std::string_view fragment = url.substr(hash + 1);

  std::map<std::string, std::string> parts;
  std::size_t pos = 0;
  while (pos <= fragment.size()) {
    const std::size_t amp = std::min(fragment.find('&', pos), fragment.size());
    const std::string_view part = fragment.substr(pos, amp - pos);
    pos = amp + 1;
    if (part.empty()) continue;
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos) fail("link: part '{}' has no '=' (parts are key=value)", part);
    const std::string key(part.substr(0, eq));
    if (std::find(kLinkKeys.begin(), kLinkKeys.end(), key) == kLinkKeys.end())
      fail("link: unknown part '{}' (known: {})", key, link_known_keys());
    if (parts.count(key)) fail("link: {}: given twice", key);
    parts[key] = percent_decoded(key, part.substr(eq + 1));
  }
  const auto take = [&](const char* key) -> std::optional<std::string> {
    const auto it = parts.find(key);
    if (it == parts.end()) return std::nullopt;
    return it->second;
  };

  const auto version = take("v");
  if (!version) fail("link: v: missing (a link starts #v={})", kLinkVersion);
  if (*version != std::to_string(kLinkVersion))
    fail("link: v: version '{}' is not one this workbench reads (it reads version {})", *version, kLinkVersion);

  WorkbenchLink link;
  const auto preset = take("preset"), problem = take("problem"), layout = take("layout"), masks = take("masks");
  if (preset && problem) fail("link: preset and problem: give one of them");
  if (layout && !preset) fail("link: layout: names a layout of a preset; give preset too (or put it in problem)");
  if (masks && !preset && !problem) fail("link: masks: give the preset or problem they fold");
  if (masks && layout)
    fail("link: masks: given beside layout '{}': the shared layout is one of them (a named layout, or masks)", *layout);
  if (preset) {
    check_link_name("preset", *preset);
    ProblemSpec spec;
    spec.preset = *preset;
    if (layout) {
      check_link_name("layout", *layout);
      spec.variant = *layout;
    }
    link.problem = spec;
  }
  if (problem) {
    std::string text;
    try {
      text = base64url_decode(*problem);
    } catch (const Error& e) {
      fail("link: problem: {}", e.what());
    }
    const json j = parse_json_or_discarded(text, "link: problem");
    if (j.is_discarded()) fail("link: problem: not the JSON of a problem once decoded (the link was cut or changed?)");
    link.problem = spec_from_json(j, "link: 'problem.");
    if (!link.problem->masks.empty() && masks) fail("link: masks: given twice (in problem and masks)");
  }
  if (masks) {
    try {
      link.problem->masks = parse_masks(*masks);
    } catch (const Error& e) {
      fail("link: masks: {}", e.what());
    }
  }
  if (link.problem) {
    try {
      build_problem(*link.problem);
    } catch (const Error& e) {
      fail("link: {}: {}", preset ? "preset" : "problem", e.what());
    }
  }

  if (const auto lesson = take("lesson")) {
    check_link_name("lesson", *lesson);
    link.lesson = *lesson;
  }
  if (const auto step = take("step")) {
    if (link.lesson.empty()) fail("link: step: a step of which lesson? give lesson too");
    int value = 0;
    const auto [ptr, ec] = std::from_chars(step->data(), step->data() + step->size(), value);
    if (step->empty() || ec != std::errc() || ptr != step->data() + step->size() || value < 1)
      fail("link: step: '{}' is not a step number (1, 2, ...)", *step);
    link.step = value;
  }
  if (const auto quiz = take("quiz")) {
    check_link_name("quiz", *quiz);
    link.quiz_set = *quiz;
  }
  return link;
}

}  // namespace swz
