#include "session.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <type_traits>

#include "swz/error.h"
#include "swz/io/atomic_file.h"
#include "swz/io/layout_io.h"
#include "swz/io/limits.h"

namespace swz::gui {

using nlohmann::json;

const char* side_name(Side side) { return side == Side::Store ? "store" : "read"; }

namespace {

const char* kFormat = "swizzle-workbench-session";

// [SECTION] Writing

const char* coloring_name(MemoryColoring c) {
  switch (c) {
    case MemoryColoring::Row:
      return "row";
    case MemoryColoring::Bank:
      return "bank";
    case MemoryColoring::Column:
      break;
  }
  return "column";
}

// [SECTION] Reading: every field optional (defaults), every present field type-checked.

struct Reader {
  const json& j;
  std::string where;

  const json* find(const char* key) const {
    auto it = j.find(key);
    return it == j.end() || it->is_null() ? nullptr : &*it;
  }
  [[noreturn]] void bad(const char* key, const char* what) const { fail("session file: '{}{}' must be {}", where, key, what); }

  void get(const char* key, std::string& out) const {
    if (const json* v = find(key)) {
      if (!v->is_string()) bad(key, "a string");
      out = v->get<std::string>();
    }
  }
  void get(const char* key, bool& out) const {
    if (const json* v = find(key)) {
      if (!v->is_boolean()) bad(key, "true or false");
      out = v->get<bool>();
    }
  }
  void get(const char* key, int& out, int lo, int hi) const {
    if (const json* v = find(key)) {
      if (!v->is_number_integer()) bad(key, "an integer");
      const auto x = v->get<std::int64_t>();
      if (x < lo || x > hi) fail("session file: '{}{}' = {} is outside {}..{}", where, key, x, lo, hi);
      out = static_cast<int>(x);
    }
  }
  void get(const char* key, float& out, float lo, float hi) const {
    if (const json* v = find(key)) {
      if (!v->is_number()) bad(key, "a number");
      const double x = v->get<double>();
      if (!(x >= lo && x <= hi)) fail("session file: '{}{}' = {} is outside {}..{}", where, key, x, lo, hi);
      out = static_cast<float>(x);
    }
  }
  Reader sub(const char* key) const {
    const json* v = find(key);
    static const json empty = json::object();
    if (!v) return Reader{empty, where + key + "."};
    if (!v->is_object()) bad(key, "an object");
    return Reader{*v, where + key + "."};
  }
};

}  // namespace

// [SECTION] JSON

json to_json(const Session& s) {
  const json problem = swz::to_json(s.problem);
  json trace{{"side", side_name(s.trace.side)},
             {"warp", s.trace.warp},
             {"step", s.trace.step},
             {"playing", s.trace.playing},
             {"seconds_per_step", s.trace.seconds_per_step}};
  json panels = json::object();
  for (const auto& [id, shown] : s.view.panels) panels[id] = shown;
  json view{{"ui_scale", s.view.ui_scale},
            {"panels", panels},
            {"tensor_zoom", s.view.tensor_zoom},
            {"tensor_pan", {s.view.tensor_pan_x, s.view.tensor_pan_y}},
            {"ring_a", {s.view.ring_lane_a, s.view.ring_warp_a}},
            {"ring_b", {s.view.ring_lane_b, s.view.ring_warp_b}},
            {"memory_coloring", coloring_name(s.view.memory_coloring)},
            {"cell_numbers", std::string(cell_numbers_name(s.view.cell_numbers))},
            {"solver_step", s.view.solver_step}};
  return json{{"format", kFormat}, {"version", kSessionVersion}, {"problem", problem}, {"trace", trace}, {"view", view}};
}

Session session_from_json(const json& j) {
  if (!j.is_object()) fail("session file: expected one JSON object");
  const auto fmt_it = j.find("format");
  if (fmt_it == j.end() || !fmt_it->is_string() || fmt_it->get<std::string>() != kFormat)
    fail("session file: not a workbench session ('format' must be \"{}\")", kFormat);
  const auto ver_it = j.find("version");
  if (ver_it == j.end()) fail("session file: 'version' is missing");
  if (!ver_it->is_number_integer()) fail("session file: 'version' must be an integer, not {}", ver_it->dump());
  const bool newer = ver_it->is_number_unsigned() ? ver_it->get<std::uint64_t>() > static_cast<std::uint64_t>(kSessionVersion)
                                                  : ver_it->get<std::int64_t>() > kSessionVersion;
  if (newer)
    fail("session file was written by a newer version ({}) of swizzle-workbench; this one reads version {}", ver_it->dump(),
         kSessionVersion);
  const auto version = ver_it->get<std::int64_t>();
  if (version < 1)
    fail("session file: 'version' = {} is not a session version (this one reads version {})", version, kSessionVersion);

  Session s;
  const Reader root{j, ""};
  if (const json* problem = root.find("problem")) s.problem = spec_from_json(*problem, "session file: 'problem.");
  const Reader t = root.sub("trace");
  std::string side = side_name(s.trace.side);
  t.get("side", side);
  if (side != "store" && side != "read") t.bad("side", "\"store\" or \"read\"");
  s.trace.side = side == "store" ? Side::Store : Side::Read;
  t.get("warp", s.trace.warp, 0, 1 << 20);
  t.get("step", s.trace.step, 0, 1 << 24);
  t.get("playing", s.trace.playing);
  t.get("seconds_per_step", s.trace.seconds_per_step, 0.02f, 10.0f);

  const Reader v = root.sub("view");
  v.get("ui_scale", s.view.ui_scale, 0.5f, 4.0f);
  if (const json* panels = v.find("panels")) {
    if (!panels->is_object()) v.bad("panels", "an object of panel id: true/false");
    for (auto it = panels->begin(); it != panels->end(); ++it) {
      if (!it->is_boolean()) v.bad("panels", "an object of panel id: true/false");
      s.view.panels[it.key()] = it->get<bool>();
    }
  }
  v.get("tensor_zoom", s.view.tensor_zoom, 0.0f, 512.0f);
  auto pair = [&](const char* key, auto& a, auto& b) {
    if (const json* x = v.find(key)) {
      if (!x->is_array() || x->size() != 2 || !(*x)[0].is_number() || !(*x)[1].is_number()) v.bad(key, "a pair of numbers");
      using A = std::remove_reference_t<decltype(a)>;
      // Range-checked before the conversion: a double far outside int (or float) does not convert.
      const double lo = std::is_integral_v<A> ? 0.0 : -1e30, hi = std::is_integral_v<A> ? double(1 << 20) : 1e30;
      for (const auto& e : *x)
        if (!(e.get<double>() >= lo && e.get<double>() <= hi))
          fail("session file: '{}{}' = {} is outside {}..{}", v.where, key, e.dump(), lo, hi);
      if (std::is_integral_v<A> && (!(*x)[0].is_number_integer() || !(*x)[1].is_number_integer()))
        v.bad(key, "a pair of integers");
      a = static_cast<A>((*x)[0].get<double>());
      b = static_cast<A>((*x)[1].get<double>());
    }
  };
  pair("tensor_pan", s.view.tensor_pan_x, s.view.tensor_pan_y);
  pair("ring_a", s.view.ring_lane_a, s.view.ring_warp_a);
  pair("ring_b", s.view.ring_lane_b, s.view.ring_warp_b);
  std::string coloring = coloring_name(s.view.memory_coloring);
  v.get("memory_coloring", coloring);
  if (coloring == "row")
    s.view.memory_coloring = MemoryColoring::Row;
  else if (coloring == "bank")
    s.view.memory_coloring = MemoryColoring::Bank;
  else if (coloring == "column")
    s.view.memory_coloring = MemoryColoring::Column;
  else
    v.bad("memory_coloring", "\"column\", \"row\" or \"bank\"");
  std::string numbers(cell_numbers_name(s.view.cell_numbers));
  v.get("cell_numbers", numbers);
  if (numbers != "none" && numbers != "bank" && numbers != "offset") v.bad("cell_numbers", "\"none\", \"bank\" or \"offset\"");
  s.view.cell_numbers = parse_cell_numbers(numbers);
  v.get("solver_step", s.view.solver_step, 0, 1 << 20);
  return s;
}

// [SECTION] Files

Session load_session_file(const std::filesystem::path& path) {
  const std::string text = read_text_file(path.string(), std::size_t{16} << 20);
  json j;
  try {
    j = json::parse(text, nesting_bound(path.string()));
  } catch (const json::exception& e) {
    fail("{}: not a valid session file (broken JSON: {})", path.string(), e.what());
  }
  try {
    return session_from_json(j);
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.rfind("session file was", 0) == 0) fail("{}: this {}", path.string(), what);
    fail("{}: {}", path.string(), what);
  } catch (const json::exception& e) {
    fail("{}: session file: {}", path.string(), e.what());
  }
}

void write_file_atomically(const std::filesystem::path& path, const std::string& text) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  swz::write_file_atomically(path.string(), text);
}

void save_session_file(const std::filesystem::path& path, const Session& session) {
  write_file_atomically(path, to_json(session).dump(2) + "\n");
}

std::filesystem::path config_dir() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "swizzle-workbench";
  if (const char* home = std::getenv("HOME"); home && *home) return std::filesystem::path(home) / ".config" / "swizzle-workbench";
  return std::filesystem::current_path() / ".swizzle-workbench";
}

std::filesystem::path last_session_path() { return config_dir() / "last-session.json"; }

}  // namespace swz::gui
