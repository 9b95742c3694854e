#include "swz/sim/corpus.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <istream>
#include <numeric>

#include "swz/error.h"
#include "swz/io/limits.h"

namespace swz {

// [SECTION] lines

std::string to_jsonl(const CorpusCase& c) {
  nlohmann::ordered_json j;
  j["device"] = c.device;
  j["cc"] = c.compute_capability;
  j["date"] = c.date;
  j["seed"] = c.seed;
  j["case"] = c.index;
  j["kind"] = c.request.kind.name();
  j["pattern"] = c.pattern;
  j["shared_bytes"] = c.shared_bytes;
  j["addresses"] = c.request.address;
  if (!c.request.global.empty()) j["global"] = c.request.global;
  j["wavefronts"] = c.wavefronts;
  j["instructions"] = c.instructions;
  return j.dump();
}

namespace {

const std::vector<std::string> kKeys = {"device",  "cc",           "date",      "seed",       "case",        "kind",
                                        "pattern", "shared_bytes", "addresses", "wavefronts", "instructions"};

CorpusCase parse_line(const std::string& text, const BankModel& model) {
  const nlohmann::json j = corpus_object(text, kKeys, {"global"});
  auto str = [&](const char* key) { return corpus_string(j, key); };
  auto integer = [&](const char* key, std::int64_t lo, std::int64_t hi) { return corpus_integer(j, key, lo, hi); };
  CorpusCase c;
  c.device = str("device");
  c.compute_capability = str("cc");
  c.date = str("date");
  c.pattern = str("pattern");
  if (!j["seed"].is_number_unsigned() && !j["seed"].is_number_integer()) fail("\"seed\" must be an integer");
  c.seed = j["seed"].get<std::uint64_t>();
  c.index = static_cast<int>(integer("case", 0, 1 << 30));
  c.shared_bytes = integer("shared_bytes", 16, std::int64_t{1} << 30);
  c.wavefronts = integer("wavefronts", 0, 1 << 20);
  c.instructions = integer("instructions", -1, 1 << 20);  // -1: this GPU's counters could not count them
  if (c.instructions == 0) fail("\"instructions\" is 0: a measured case ran at least one instruction (-1 when not counted)");
  const std::string kind = str("kind");
  const auto k = parse_instruction_kind(kind);
  if (!k) fail("unknown instruction \"{}\"", kind);
  c.request.kind = *k;
  if (!j["addresses"].is_array()) fail("\"addresses\" must be a list of {} integers", model.warp_size);
  for (const auto& a : j["addresses"]) {
    if (!a.is_number_integer()) fail("\"addresses\" must hold integers (-1 for an inactive lane)");
    c.request.address.push_back(a.get<std::int64_t>());
  }
  if (j.contains("global")) {
    if (!j["global"].is_array()) fail("\"global\" must be a list of {} integers", model.warp_size);
    for (const auto& a : j["global"]) {
      if (!a.is_number_integer()) fail("\"global\" must hold integers (-1 for a copy that moves no data)");
      c.request.global.push_back(a.get<std::int64_t>());
    }
  }
  check_request(c.request, model, c.shared_bytes);
  return c;
}

}  // namespace

nlohmann::json corpus_object(const std::string& text, const std::vector<std::string>& required,
                             const std::vector<std::string>& optional) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text, nesting_bound("the line"));
  } catch (const nlohmann::json::exception& e) {  // syntax, and numbers too large for any type
    fail("not JSON ({})", e.what());
  }
  if (!j.is_object()) fail("a line holds one JSON object");
  auto listed = [](const std::vector<std::string>& keys, const std::string& key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  for (const auto& [key, value] : j.items())
    if (!listed(required, key) && !listed(optional, key)) fail("unknown key \"{}\"", key);
  for (const std::string& key : required)
    if (!j.contains(key)) fail("missing key \"{}\"", key);
  return j;
}

std::string corpus_string(const nlohmann::json& line, const char* key) {
  if (!line[key].is_string()) fail("\"{}\" must be a string", key);
  return line[key].get<std::string>();
}

std::int64_t corpus_integer(const nlohmann::json& line, const char* key, std::int64_t lo, std::int64_t hi) {
  if (!line[key].is_number_integer()) fail("\"{}\" must be an integer", key);
  const auto v = line[key].get<std::int64_t>();
  if (v < lo || v > hi) fail("\"{}\" is {}; it must be in {}..{}", key, v, lo, hi);
  return v;
}

void for_each_corpus_line(std::istream& in, const std::string& name, const std::function<void(const std::string&, int)>& take) {
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (number == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      take(line, number);
    } catch (const Error& e) {
      fail("{}:{}: {}", name, number, e.what());
    }
  }
  if (in.bad()) fail("{}: read error", name);
}

std::ifstream open_corpus_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail("{}: is a directory, not a corpus file", path);
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open '{}': {}", path, errno != 0 ? std::strerror(errno) : "unknown reason");
  return in;
}

std::vector<CorpusCase> read_corpus(std::istream& in, const std::string& name) {
  const BankModel model;
  std::vector<CorpusCase> cases;
  for_each_corpus_line(in, name, [&](const std::string& line, int number) {
    cases.push_back(parse_line(line, model));
    cases.back().line = number;
  });
  return cases;
}

std::vector<CorpusCase> read_corpus_file(const std::string& path) {
  std::ifstream in = open_corpus_file(path);
  return read_corpus(in, path);
}

// [SECTION] generation

namespace {

struct Random {
  std::uint64_t state;
  std::uint64_t next() {  // splitmix64: the same stream on every platform
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::int64_t below(std::int64_t n) { return static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n)); }
  template <typename T>
  T pick(const std::vector<T>& v) {
    return v[static_cast<std::size_t>(below(static_cast<std::int64_t>(v.size())))];
  }
};

// Addresses for `lanes` lanes, each aligned to `align`, inside [0, region).
std::vector<std::int64_t> draw_addresses(Random& rng, const std::string& pattern, int lanes, int align, std::int64_t region) {
  const std::int64_t slots = region / align;
  std::vector<std::int64_t> a(static_cast<std::size_t>(lanes));
  if (pattern == "linear") {
    // lane -> base ^ XOR of basis[i] over set bits i: an F2-linear map, some bases zero (broadcast)
    const int bits = std::countr_zero(static_cast<unsigned>(lanes));
    const std::int64_t slot_bits = std::max<std::int64_t>(1, std::bit_width(static_cast<std::uint64_t>(slots)) - 1);
    std::vector<std::int64_t> basis(static_cast<std::size_t>(bits));
    for (auto& b : basis) b = rng.below(4) == 0 ? 0 : std::int64_t{1} << rng.below(slot_bits);
    for (auto& b : basis)
      if (b && rng.below(3) == 0) b ^= std::int64_t{1} << rng.below(slot_bits);
    const std::int64_t base = rng.below(slots);
    for (int l = 0; l < lanes; ++l) {
      std::int64_t s = base;
      for (int i = 0; i < bits; ++i)
        if (l >> i & 1) s ^= basis[static_cast<std::size_t>(i)];
      a[static_cast<std::size_t>(l)] = (s % slots) * align;
    }
  } else if (pattern == "few") {
    const std::int64_t distinct = rng.pick<std::int64_t>({1, 2, 3, 4, 5, 6, 8, 12, 16, 24});
    std::vector<std::int64_t> pool(static_cast<std::size_t>(distinct));
    for (auto& p : pool) p = rng.below(slots) * align;
    for (auto& x : a) x = pool[static_cast<std::size_t>(rng.below(distinct))];
  } else if (pattern == "strided") {
    const std::int64_t stride = rng.pick<std::int64_t>({0, 1, 1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33, 64});
    const std::int64_t base = rng.below(slots);
    for (int l = 0; l < lanes; ++l) a[static_cast<std::size_t>(l)] = ((base + stride * l) % slots) * align;
  } else if (pattern == "groups") {
    // groups of g lanes; each group picks a row of 128 bytes and its lanes a permutation of slots in it
    const int g = static_cast<int>(rng.pick<std::int64_t>({2, 4, 8, 16}));
    const std::int64_t per_row = std::max<std::int64_t>(1, 128 / align);
    for (int l0 = 0; l0 < lanes; l0 += g) {
      const std::int64_t row = rng.below(std::max<std::int64_t>(1, region / 128));
      const std::int64_t shift = rng.below(per_row);
      const bool same = rng.below(3) == 0;
      for (int l = l0; l < std::min(lanes, l0 + g); ++l)
        a[static_cast<std::size_t>(l)] = row * 128 + ((same ? shift : (l - l0 + shift) % per_row) * align) % 128;
    }
  } else {  // "random"
    for (auto& x : a) x = rng.below(slots) * align;
  }
  return a;
}

}  // namespace

std::vector<CorpusCase> generate_cases(int count, std::uint64_t seed, const std::vector<InstructionKind>& kinds,
                                       std::int64_t shared_bytes, const BankModel& model) {
  if (count < 0) fail("the case count {} is negative", count);
  if (kinds.empty()) fail("no instruction kinds to measure");
  if (shared_bytes < 1024 || shared_bytes % 128)
    fail("shared memory of {} bytes: use a multiple of 128 of at least 1024", shared_bytes);
  Random rng{seed * 0x2545f4914f6cdd1dull + 1};
  const std::vector<std::string> patterns = {"linear", "linear", "few", "few", "strided", "groups", "random"};
  std::vector<CorpusCase> out;
  out.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    CorpusCase c;
    c.seed = seed;
    c.index = i;
    c.shared_bytes = shared_bytes;
    c.request.kind = kinds[static_cast<std::size_t>(i) % kinds.size()];
    c.pattern = rng.pick(patterns);
    const std::int64_t region = std::min(shared_bytes, rng.pick<std::int64_t>({128, 256, 512, 1024, 2048, 8192, 49152}));
    const InstructionKind& k = c.request.kind;
    c.request.address = draw_addresses(rng, c.pattern, model.warp_size, k.bytes, region);
    const int addressed = k.addressed_lanes(model.warp_size);
    for (int l = addressed; l < model.warp_size; ++l) c.request.address[static_cast<std::size_t>(l)] = -1;
    if (!k.is_matrix() && rng.below(10) < 3) {  // partial warps
      const int how = static_cast<int>(rng.below(4));
      for (int l = 0; l < model.warp_size; ++l) {
        const bool off = how == 0 ? rng.below(2) == 0 : how == 1 ? l >= model.warp_size / 2 : how == 2 ? (l / 8) % 2 == 1 : l % 2 == 1;
        if (off) c.request.address[static_cast<std::size_t>(l)] = -1;
      }
      if (std::all_of(c.request.address.begin(), c.request.address.end(), [](std::int64_t a) { return a < 0; }))
        c.request.address[0] = 0;
    }
    if (k.op == WarpOp::AsyncCopy) {
      // Where each lane copies from (the source banks decide the cost), from a stream of its own so
      // that the shared addresses of every case stay what the seed drew before sources were drawn.
      Random src{(seed + 1) * 0x9e3779b97f4a7c15ull ^ static_cast<std::uint64_t>(i) * 0xbf58476d1ce4e5b9ull};
      c.request.global = draw_addresses(src, src.pick(patterns), model.warp_size, k.bytes,
                                        src.pick<std::int64_t>({128, 512, 4096, 65536, 1 << 20}));
      const bool some_move_nothing = src.below(4) == 0;
      for (std::size_t l = 0; l < c.request.global.size(); ++l)
        if (c.request.address[l] < 0 || (some_move_nothing && src.below(2) == 0)) c.request.global[l] = -1;
    }
    check_request(c.request, model, shared_bytes);
    out.push_back(std::move(c));
  }
  return out;
}

namespace {

using LanePattern = std::pair<std::string, std::vector<std::int64_t>>;

std::vector<LanePattern> designed_shared(int b) {
  std::vector<LanePattern> p = {{"contig", {}}, {"same", {}}, {"pairs", {}}, {"stride128", {}}, {"rowswz", {}}, {"k-walk", {}}};
  for (int l = 0; l < 32; ++l) {
    p[0].second.push_back(std::int64_t{l} * b);
    p[1].second.push_back(0);
    p[2].second.push_back(std::int64_t{l / 2} * b);
    p[3].second.push_back(std::int64_t{l} * 128);
    p[4].second.push_back((l / 8) * 128 + (((l % 8) ^ (l / 8)) * b) % 128);
    p[5].second.push_back((l % 8) * 128 + std::int64_t{l / 8} * b);
  }
  return p;
}

std::vector<LanePattern> designed_sources(int b) {
  std::vector<LanePattern> p = {{"contig", {}},    {"l16", {}},    {"l128", {}},    {"rows8", {}},
                                {"scatter1M", {}}, {"masked", {}}, {"halfmask", {}}};
  Random rng{20261128};
  for (int l = 0; l < 32; ++l) {
    p[0].second.push_back(std::int64_t{l} * b);
    p[1].second.push_back(std::int64_t{l} * 16);
    p[2].second.push_back(std::int64_t{l} * 128);
    p[3].second.push_back(std::int64_t{l / 8} * 4096 + (l % 8) * b);
    p[4].second.push_back(rng.below((std::int64_t{1} << 20) / b) * b);
    // a copy that moves no data points at the source's byte 0 (-2 - 0), as the probes issue it
    p[5].second.push_back(-2);
    p[6].second.push_back(l % 2 == 0 ? std::int64_t{l} * b : -2);
  }
  return p;
}

}  // namespace

std::vector<CorpusCase> designed_copy_cases(const std::vector<InstructionKind>& kinds, std::int64_t shared_bytes) {
  if (shared_bytes < 4096 || shared_bytes % 128)
    fail("shared memory of {} bytes: use a multiple of 128 of at least 4096", shared_bytes);
  const BankModel model;
  std::vector<CorpusCase> out;
  for (const InstructionKind& k : kinds) {
    if (k.op != WarpOp::AsyncCopy) continue;
    for (const auto& [shared_name, shared] : designed_shared(k.bytes))
      for (const auto& [source_name, source] : designed_sources(k.bytes)) {
        CorpusCase c;
        c.index = static_cast<int>(out.size());
        c.shared_bytes = shared_bytes;
        c.pattern = shared_name + " <- " + source_name;
        c.request.kind = k;
        c.request.address = shared;
        c.request.global = source;
        check_request(c.request, model, shared_bytes);
        out.push_back(std::move(c));
      }
  }
  if (out.empty()) fail("no cp.async (LDGSTS) among the instructions: designed cases are copies");
  return out;
}

// [SECTION] replay

void replay_into(ReplayReport& report, const std::vector<CorpusCase>& cases, const BankModel& model, const std::string& file,
                 std::size_t keep) {
  for (const CorpusCase& c : cases) {
    const Service s = serve(c.request, model);
    const std::int64_t instructions = std::max<std::int64_t>(1, c.instructions);
    const std::int64_t predicted = static_cast<std::int64_t>(s.wavefronts) * instructions;
    // A src-size .cg copy whose lanes that move no data read at their pointers (`wavefronts`) or
    // only write (`write_only_wavefronts`): the build decides, so either count agrees.
    const bool at_pointer = s.modelled && c.wavefronts == predicted;
    const bool write_only = s.write_only_wavefronts >= 0 && c.wavefronts == std::int64_t{s.write_only_wavefronts} * instructions;
    const bool agree = at_pointer || write_only;
    const std::string name = c.request.kind.name();
    for (ReplayTally* t : {&report.all, &report.by_instruction[name], &report.by_device[c.device][name]}) {
      ++t->cases;
      t->agree += agree ? 1 : 0;
      t->write_only += write_only && !at_pointer ? 1 : 0;
      t->not_modelled += s.modelled || agree ? 0 : 1;
    }
    if (s.modelled && !agree && report.disagree.size() < keep)
      report.disagree.push_back({c.device, c.line, file, c, s.wavefronts, s.rule});
  }
}

nlohmann::json to_json(const ReplayReport& r) {
  nlohmann::ordered_json j;
  j["cases"] = r.all.cases;
  j["agree"] = r.all.agree;
  j["write_only"] = r.all.write_only;
  j["not_modelled"] = r.all.not_modelled;
  auto tallies = [](const std::map<std::string, ReplayTally>& m) {
    nlohmann::ordered_json t = nlohmann::ordered_json::object();
    for (const auto& [k, v] : m) {
      t[k] = {{"cases", v.cases}, {"agree", v.agree}};
      if (v.write_only) t[k]["write_only"] = v.write_only;
      if (v.not_modelled) t[k]["not_modelled"] = v.not_modelled;
    }
    return t;
  };
  j["by_instruction"] = tallies(r.by_instruction);
  nlohmann::ordered_json devices = nlohmann::ordered_json::object();
  for (const auto& [d, m] : r.by_device) {
    ReplayTally sum;
    for (const auto& [k, v] : m) {
      sum.cases += v.cases;
      sum.agree += v.agree;
      sum.write_only += v.write_only;
      sum.not_modelled += v.not_modelled;
    }
    devices[d] = {{"cases", sum.cases},
                  {"agree", sum.agree},
                  {"write_only", sum.write_only},
                  {"not_modelled", sum.not_modelled},
                  {"by_instruction", tallies(m)}};
  }
  j["devices"] = devices;
  nlohmann::ordered_json dis = nlohmann::ordered_json::array();
  for (const auto& m : r.disagree)
    dis.push_back({{"device", m.device},
                   {"case", m.measured.index},
                   {"seed", m.measured.seed},
                   {"kind", m.measured.request.kind.name()},
                   {"pattern", m.measured.pattern},
                   {"addresses", m.measured.request.address},
                   {"predicted", m.predicted},
                   {"measured", m.measured.wavefronts},
                   {"instructions", m.measured.instructions},
                   {"rule", m.rule}});
  j["disagree"] = dis;
  return j;
}

std::string tally_table(const std::string& title, const std::map<std::string, ReplayTally>& by_instruction) {
  std::string out = fmt::format("{}\n  {:<18} {:>7} {:>7} {:>9}\n", title, "instruction", "cases", "agree", "disagree");
  for (const auto& [k, v] : by_instruction) {
    std::string more;
    if (v.write_only) more += fmt::format("  ({} with lanes that move no data only writing)", v.write_only);
    if (v.not_modelled) more += fmt::format("  {} not modelled", v.not_modelled);
    out += fmt::format("  {:<18} {:>7} {:>7} {:>9}{}\n", k, v.cases, v.agree, v.disagree(), more);
  }
  return out;
}

std::string to_text(const ReplayReport& r) {
  std::string out;
  for (const auto& [device, m] : r.by_device) out += tally_table(device, m);
  out += fmt::format("all: {} cases, {} agree, {} disagree", r.all.cases, r.all.agree, r.all.disagree());
  if (r.all.write_only)
    out += fmt::format(
        " ({} of the agreeing .cg copies with src-size at the count where their lanes that move no data only "
        "write, the other count a build gives)",
        r.all.write_only);
  if (r.all.not_modelled)
    out += fmt::format(
        ", {} not modelled (cp.async without its global addresses, or a .cg copy with lanes whose pointers or "
        "registers are not known)",
        r.all.not_modelled);
  out += "\n";
  for (const auto& m : r.disagree) {
    std::string lanes;
    for (std::size_t l = 0; l < m.measured.request.address.size(); ++l)
      lanes += fmt::format("{}{}", l ? " " : "", m.measured.request.address[l]);
    const std::string where = m.file.empty() ? "" : fmt::format("{}:{}: ", m.file, m.line);
    out += fmt::format("  {}case {} (seed {}, {}, {}): predicted {} wavefronts ({}), measured {}; addresses: {}\n", where,
                       m.measured.index, m.measured.seed, m.measured.request.kind.name(), m.measured.pattern, m.predicted, m.rule,
                       m.measured.wavefronts, lanes);
  }
  return out;
}

}  // namespace swz
