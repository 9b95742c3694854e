// problem_spec_json.cpp: a problem spec's JSON form (problem_spec.h), as session files, spec files
// and links hold it.
#include <fmt/format.h>

#include <algorithm>

#include "spec_fields.h"
#include "swz/error.h"
#include "swz/io/json_describe.h"
#include "swz/io/layout_io.h"
#include "swz/io/limits.h"
#include "swz/problem/problem_spec.h"

namespace swz {

using nlohmann::json;
using spec_detail::refused_field;

namespace {

// [SECTION] JSON reading: every key optional, every present key type-checked.

struct JsonFields {
  const json& j;
  const std::string& where;

  [[noreturn]] void bad(const char* key, const std::string& what) const { fail("{}{}' {}", where, key, what); }
  const json* find(const char* key) const {
    auto it = j.find(key);
    return it == j.end() || it->is_null() ? nullptr : &*it;
  }
  void get(const char* key, std::string& out) const {
    if (const json* v = find(key)) {
      if (!v->is_string()) bad(key, "must be a string, not " + describe_json_value(*v));
      out = v->get<std::string>();
    }
  }
  void get(const char* key, int& out) const {
    if (const json* v = find(key)) {
      if (!v->is_number_integer() || v->get<std::int64_t>() < 0 || v->get<std::int64_t>() > 1024)
        bad(key, "must be a whole number from 0 to 1024, not " + describe_json_value(*v));
      out = v->get<int>();
    }
  }
  template <class T>
  void list(const char* key, std::vector<T>& out, std::uint64_t most) const {
    if (const json* v = find(key)) {
      if (!v->is_array())
        bad(key, fmt::format("must be a list of whole numbers from 0 to {}, not {}", most, describe_json_value(*v)));
      for (const auto& x : *v) {
        if (!x.is_number_integer() || x.get<std::int64_t>() < 0 || x.get<std::uint64_t>() > most)
          bad(key, fmt::format("must be a list of whole numbers from 0 to {}; one item is {}", most, describe_json_value(x)));
        out.push_back(static_cast<T>(x.get<std::uint64_t>()));
      }
    }
  }
  // `hints`: the spec's shape, for a layout given as Triton attribute text.
  std::optional<SpecLayout> layout(const char* key, bool shared, const LayoutHints& hints) const {
    const json* v = find(key);
    if (!v) return std::nullopt;
    if (!v->is_object() || !v->contains("layout"))
      bad(key, "must be an object with 'origin' and 'layout', not " + describe_json_value(*v));
    for (auto it = v->begin(); it != v->end(); ++it)
      if (it.key() != "origin" && it.key() != "layout")
        bad(key, fmt::format("has an unknown key '{}' (known: origin, layout)", it.key()));
    SpecLayout l;
    JsonFields{*v, where}.get("origin", l.origin);
    LayoutFile f;
    try {
      // The layout as JSON bases, or as text in any form a layout file takes ("#ttg.blocked<...>", CuTe, ...).
      const json& text = v->at("layout");
      f = text.is_string() ? parse_layout_text(text.get<std::string>(), "text", hints) : layout_from_json(text);
    } catch (const Error& e) {
      bad(key, fmt::format("is not a layout: {}", e.what()));
    }
    if ((f.kind == LayoutKind::Shared) != shared) bad(key, fmt::format("must be a {} layout", shared ? "shared" : "distributed"));
    l.layout = std::move(f.layout);
    l.element_bits = f.element_bits;
    return l;
  }
};

json layout_json(const std::optional<SpecLayout>& l) {
  if (!l) return nullptr;
  return json{{"origin", l->origin}, {"layout", layout_to_json(l->layout, l->element_bits)}};
}

}  // namespace

json to_json(const ProblemSpec& s) {
  json j{{"preset", s.preset},
         {"shape", s.shape},
         {"element_bits", s.element_bits},
         {"banks", s.banks},
         {"warp_size", s.warp_size},
         {"write_vec_bits", s.write_vec_bits},
         {"read_vec_bits", s.read_vec_bits},
         {"write_matrix", s.write_matrix},
         {"read_matrix", s.read_matrix},
         {"writer", layout_json(s.writer)},
         {"reader", layout_json(s.reader)},
         {"shared", layout_json(s.shared)},
         {"variant", s.variant},
         {"masks", s.masks}};
  if (!s.gpu.empty()) j["gpu"] = s.gpu;  // absent for the default, so older files and outputs stay as they were
  return j;
}

ProblemSpec spec_from_json(const json& j, const std::string& where) {
  if (!j.is_object()) fail("{}' must be one JSON object", where.empty() ? "problem" : where.substr(0, where.size() - 1));
  static const char* known[] = {"preset",    "shape",          "element_bits",  "gpu",          "banks",
                                "warp_size", "write_vec_bits", "read_vec_bits", "write_matrix", "read_matrix",
                                "writer",    "reader",         "shared",        "variant",      "masks"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find_if(std::begin(known), std::end(known), [&](const char* k) { return it.key() == k; }) == std::end(known))
      fail("{}{}' is not a problem field (known: {})", where, it.key(), fmt::join(known, ", "));
  const JsonFields f{j, where};
  ProblemSpec s;
  f.get("preset", s.preset);
  f.list("shape", s.shape, kMaxTileSide);
  f.get("element_bits", s.element_bits);
  f.get("gpu", s.gpu);
  f.get("banks", s.banks);
  f.get("warp_size", s.warp_size);
  f.get("write_vec_bits", s.write_vec_bits);
  f.get("read_vec_bits", s.read_vec_bits);
  f.get("write_matrix", s.write_matrix);
  f.get("read_matrix", s.read_matrix);
  const LayoutHints hints{s.shape, s.element_bits ? std::optional<int>(s.element_bits) : std::nullopt};
  s.writer = f.layout("writer", false, hints);
  s.reader = f.layout("reader", false, hints);
  s.shared = f.layout("shared", true, hints);
  f.get("variant", s.variant);
  f.list("masks", s.masks, 0xffffffffu);
  if (const auto refused = refused_field(s)) fail("{}{}': {}", where, refused->first, refused->second);
  return s;
}

namespace spec_detail {

// A spec file's text, read from `path` (which names it in messages).
ProblemSpec parse_spec_text(const std::string& text, const std::string& path) {
  return spec_from_json(parse_json(text, path), path + ": '");
}

}  // namespace spec_detail

ProblemSpec load_spec_file(const std::string& path) { return spec_detail::parse_spec_text(read_text_file(path), path); }

}  // namespace swz
