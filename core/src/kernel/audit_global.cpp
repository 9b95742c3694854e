// audit_global.cpp: the global side of audit_global.h.
#include "audit_global.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

#include "swz/error.h"

namespace swz::audit_parts {

namespace {

constexpr std::string_view kSuffix = " @global:";
constexpr int kMostStrides = 3;  // lane-varying unknown strides one copy may have (a 3-D tile)
constexpr std::size_t kRegistryLimit = 4096;

// Digest -> addresses, for every copy priced on this thread (bounded: a long run forgets).
std::unordered_map<std::string, std::shared_ptr<const std::vector<std::int64_t>>>& registry() {
  static thread_local std::unordered_map<std::string, std::shared_ptr<const std::vector<std::int64_t>>> r;
  return r;
}

}  // namespace

std::string register_global_addresses(std::vector<std::int64_t> bytes) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the addresses
  for (std::int64_t b : bytes)
    for (int i = 0; i < 8; ++i) h = (h ^ ((static_cast<std::uint64_t>(b) >> (8 * i)) & 0xff)) * 1099511628211ull;
  const std::string digest = fmt::format("{:016x}.{}", h, bytes.size());
  if (registry().size() > kRegistryLimit) registry().clear();
  registry().emplace(digest, std::make_shared<const std::vector<std::int64_t>>(std::move(bytes)));
  return std::string(kSuffix) + digest;
}

namespace {

bool varies(const std::vector<std::int64_t>& v) {
  return std::any_of(v.begin(), v.end(), [&](std::int64_t x) { return x != v.front(); });
}

}  // namespace

std::vector<std::int64_t> global_addresses(const ttgir::Affine& f, const LinearLayout& layout, const ttgir::Values& values) {
  std::vector<std::int64_t> bytes = by_coordinate(f, layout, values);
  const std::int64_t lowest = *std::min_element(bytes.begin(), bytes.end());
  const std::int64_t line = (lowest >= 0 ? lowest : lowest - 127) / 128 * 128;
  for (std::int64_t& b : bytes) b -= line;
  return bytes;
}

std::vector<std::int64_t> by_coordinate(const ttgir::Affine& f, const LinearLayout& layout, const ttgir::Values& values) {
  std::vector<std::int64_t> bytes(static_cast<std::size_t>(layout.out_size()));
  for (std::size_t flat = 0; flat < bytes.size(); ++flat) {
    const Coords c = layout.unflatten(flat);
    std::size_t row_major = 0;
    for (std::size_t d = 0; d < c.size(); ++d)
      row_major = row_major * static_cast<std::size_t>(f.shape[d]) + static_cast<std::size_t>(c[d]);
    std::int64_t a = f.constant[row_major];
    for (const auto& [name, coefficient] : f.coefficient) a += coefficient[row_major] * values.at(name);
    bytes[flat] = a;
  }
  return bytes;
}

std::string KnownArguments::said(const std::string& name) const {
  const auto it = values.find(name);
  if (it == values.end()) return "";
  return given.count(name) ? fmt::format("{} = {} (given)", name, it->second) : fmt::format("{} taken as {}", name, it->second);
}

namespace {

struct Stride {
  std::string name;
  std::int64_t divisibility = 1;
  bool printed = false;    // tt.divisibility given
  bool given = false;      // its value given by the caller: no range
  std::int64_t bytes = 1;  // bytes one unit of it moves an element, at the least (gcd of its coefficients)
  std::int64_t typical = 0;
};

// The unknowns that differ per element (strides), each at its typical value: a pitch a multiple of
// 128 bytes, rows no closer than the tile is large (each stride apart from the others by a factor
// of the tile's elements). `values` gets every unknown; the uniform ones at 0 (they move every lane alike).
std::vector<Stride> strides_of(const ttgir::Affine& f, const ttgir::PointerReader& reader,
                               std::map<std::string, std::int64_t>& values, KnownArguments* arguments) {
  std::vector<Stride> strides;
  const auto elements = static_cast<std::int64_t>(f.size());
  for (const auto& [name, coefficient] : f.coefficient) {
    values[name] = 0;
    if (!varies(coefficient)) continue;
    Stride s{name};
    if (const auto a = reader.arguments().find(name); a != reader.arguments().end() && a->second.divisibility)
      s = Stride{name, std::max<std::int64_t>(1, *a->second.divisibility), true};
    s.bytes = 0;
    for (std::int64_t c : coefficient) s.bytes = std::gcd(s.bytes, c < 0 ? -c : c);
    const std::int64_t unit = std::lcm(s.divisibility, 128 / std::gcd<std::int64_t>(128, s.bytes));
    std::int64_t floor_value = elements;
    for (std::size_t k = 0; k < strides.size(); ++k) floor_value *= elements;
    s.typical = (floor_value + unit - 1) / unit * unit;
    if (arguments) {  // one value per argument for the module: the caller's, or the first assumed
      if (const auto known = arguments->values.find(name); known != arguments->values.end()) s.typical = known->second;
      s.given = arguments->given.count(name) > 0;
      arguments->values.emplace(name, s.typical);
    }
    values[name] = s.typical;
    strides.push_back(s);
  }
  return strides;
}

int log2_of(int power_of_two) { return std::countr_zero(static_cast<unsigned>(power_of_two)); }

}  // namespace

std::string layout_text_of(const std::string& key) { return key.substr(0, key.find(kSuffix)); }

std::string global_suffix_of(const std::string& key) {
  const std::size_t at = key.find(kSuffix);
  return at == std::string::npos ? std::string() : key.substr(at);
}

std::shared_ptr<const std::vector<std::int64_t>> global_bytes_of(const std::string& key) {
  const std::size_t at = key.find(kSuffix);
  if (at == std::string::npos) return nullptr;
  const auto it = registry().find(key.substr(at + kSuffix.size()));
  return it == registry().end() ? nullptr : it->second;
}

double sectors_per_request(const Access& access, const SharedLayout& shared, int bits, const BankModel& bank) {
  const AccessResult r = simulate(access, shared, bits, bank);
  std::int64_t sectors = 0;
  for (int w = 0; w < r.warps; ++w)
    for (int st = 0; st < r.steps; ++st) {
      const WarpRequest q = warp_request(access, shared, bits, bank, w, st);
      std::set<std::int64_t> seen;
      for (std::int64_t g : q.global)
        if (g >= 0)
          for (std::int64_t b = g; b < g + q.kind.bytes; b += 32) seen.insert(b / 32);
      sectors += static_cast<std::int64_t>(seen.size());
    }
  return static_cast<double>(sectors) / static_cast<double>(std::max(1, r.instructions()));
}

CopyGlobal read_copy_global(const ttgir::PointerReader& reader, const std::string& pointer, const Access& access,
                            const SharedLayout& shared, int bits, const BankModel& bank, KnownArguments& arguments) {
  CopyGlobal out;
  const std::string fallback = "; global side: rows taken a multiple of 128 bytes apart along the layout's order[0]";
  const ttgir::Followed followed = reader.follow(pointer);
  if (!followed.value) {
    out.note = fmt::format("{} (the pointers {} were not followed: {})", fallback, pointer, followed.why_not);
    return out;
  }
  const ttgir::Affine& f = *followed.value;
  const int element_bytes = std::max(1, bits / 8);
  if (!f.pointee_bytes || f.shape != access.layout.shape()) {
    out.note = fmt::format("{} ({} is not a pointer tensor of the copy's shape)", fallback, pointer);
    return out;
  }
  std::map<std::string, std::int64_t> values;
  const std::vector<Stride> strides = strides_of(f, reader, values, &arguments);
  const auto elements = static_cast<std::int64_t>(f.size());
  if (static_cast<int>(strides.size()) > kMostStrides) {
    out.note = fmt::format("{} ({} unknown strides vary across the tile: more than {} are not priced)", fallback, strides.size(),
                           kMostStrides);
    return out;
  }
  std::vector<std::int64_t> bytes = global_addresses(f, access.layout, values);
  // Bad input, each said once: a pitch of a part of an element, pointers that miss part of the tile.
  for (std::size_t d = 0; d < f.shape.size(); ++d) {
    if (f.shape[d] < 2) continue;
    Coords c(f.shape.size(), 0);
    const std::int64_t first = bytes[access.layout.flatten(c)];
    c[d] = 1;
    const std::int64_t step = bytes[access.layout.flatten(c)] - first;
    if (step % element_bytes != 0) {
      out.note = fmt::format("{} (the pointers {} step {} bytes along dim {}: not a whole number of {}-byte elements)", fallback,
                             pointer, step, d, element_bytes);
      return out;
    }
  }
  std::string problems;
  const std::size_t distinct = std::set<std::int64_t>(bytes.begin(), bytes.end()).size();
  if (static_cast<std::int64_t>(distinct) < elements)
    problems += fmt::format("; the pointers give {} distinct addresses for the tile's {} elements: they do not cover it",
                            distinct, elements);
  out.key_suffix = register_global_addresses(bytes);

  Access priced = access;
  priced.global_bytes = global_bytes_of(out.key_suffix);
  const AccessResult typical = simulate(priced, shared, bits, bank);
  const double sectors = sectors_per_request(priced, shared, bits, bank);
  out.note = fmt::format("; global side from the kernel's pointers ({}): {:.1f} sectors per request", pointer, sectors);
  bool assumed = false;
  for (const Stride& s : strides) {
    const std::int64_t pitch = s.typical * s.bytes;
    if (s.given) {
      out.note += fmt::format("; {} (a {}-byte pitch)", arguments.said(s.name), pitch);
      continue;
    }
    assumed = true;
    out.note +=
        fmt::format("; {} taken as {} (a {}-byte pitch{})", s.name, s.typical, pitch, pitch % 128 ? "" : ", a multiple of 128");
    if (!s.printed) out.note += fmt::format("; {} has no tt.divisibility: any pitch is possible", s.name);
  }
  // The range over the pitches each assumed stride may have (mod 128 bytes is all the banks read).
  if (assumed && typical.modelled) {
    double best = typical.mean_wavefronts, worst = typical.mean_wavefronts;
    std::string best_at, worst_at;
    for (const Stride& s : strides) {
      if (s.given) continue;
      const std::int64_t residues = 128 / std::gcd<std::int64_t>(128, s.divisibility * s.bytes);
      for (std::int64_t j = 1; j <= residues; ++j) {
        std::map<std::string, std::int64_t> v = values;
        v[s.name] = s.typical + j * s.divisibility;
        Access variant = access;
        variant.global_bytes = std::make_shared<const std::vector<std::int64_t>>(global_addresses(f, access.layout, v));
        double mean = 0;
        try {
          mean = simulate(variant, shared, bits, bank).mean_wavefronts;
        } catch (const Error&) {
          continue;  // a pitch the copy's width cannot be aligned to: no such kernel runs
        }
        const std::int64_t pitch = v[s.name] * s.bytes % 128;
        const std::string at = fmt::format("{} pitch {} bytes", s.name, pitch == 0 ? 128 : pitch);
        if (mean < best - 1e-9) best = mean, best_at = at;
        if (mean > worst + 1e-9) worst = mean, worst_at = at;
      }
    }
    out.note +=
        fmt::format("; over the pitches {} allows: best {:.2f}{}, typical {:.2f}, worst {:.2f}{} wavefronts",
                    strides.size() == 1 && strides[0].printed ? fmt::format("tt.divisibility = {}", strides[0].divisibility)
                                                              : std::string("the divisibility"),
                    best, best_at.empty() ? "" : fmt::format(" ({} mod 128)", best_at), typical.mean_wavefronts, worst,
                    worst_at.empty() ? "" : fmt::format(" ({} mod 128)", worst_at));
  }
  out.note += problems;
  return out;
}

std::string global_request_note(const ttgir::PointerReader& reader, const std::string& value, const LinearLayout& registers,
                                int bits, int warp_size) {
  std::string pointer = reader.definition(value).first == "tt.load" ? reader.definition(value).second : std::string();
  const char* what = "tt.load of";
  if (pointer.empty()) pointer = reader.stored_through(value), what = "tt.store to";
  if (pointer.empty()) return "";
  const ttgir::Followed followed = reader.follow(pointer);
  if (!followed.value) return fmt::format("global side of the {} {} not read ({})", what, pointer, followed.why_not);
  const ttgir::Affine& f = *followed.value;
  if (!f.pointee_bytes || f.shape != registers.shape()) return "";
  std::map<std::string, std::int64_t> values;
  const std::vector<Stride> strides = strides_of(f, reader, values, nullptr);
  const std::vector<std::int64_t> bytes = global_addresses(f, registers, values);
  // Triton's vector: consecutive registers at consecutive addresses, up to 16 bytes, aligned.
  const int element_bytes = std::max(1, bits / 8);
  int vec = 1;
  const auto& regs = registers.bases("register");
  while (static_cast<std::size_t>(log2_of(vec)) < regs.size() && vec * element_bytes < 16 &&
         bytes[regs[static_cast<std::size_t>(log2_of(vec))]] - bytes[0] == static_cast<std::int64_t>(vec) * element_bytes)
    vec *= 2;
  const std::int64_t width = static_cast<std::int64_t>(vec) * element_bytes;
  const int lanes = std::min(warp_size, 1 << registers.in_dim_bits("lane"));
  const std::int64_t steps = std::int64_t{1} << (registers.in_dim_bits("register") - log2_of(vec));
  const std::int64_t warps = std::int64_t{1} << registers.in_dim_bits("warp");
  std::int64_t sectors = 0;
  for (std::int64_t w = 0; w < warps; ++w)
    for (std::int64_t st = 0; st < steps; ++st) {
      std::set<std::int64_t> seen;
      const BitVec base = registers.apply("warp", static_cast<std::uint64_t>(w)) ^
                          registers.apply("register", static_cast<std::uint64_t>(st) * static_cast<std::uint64_t>(vec));
      for (int lane = 0; lane < lanes; ++lane) {
        const std::int64_t a = bytes[base ^ registers.apply("lane", static_cast<std::uint64_t>(lane))];
        for (std::int64_t b = a; b < a + width; b += 32) seen.insert(b / 32);
      }
      sectors += static_cast<std::int64_t>(seen.size());
    }
  const double mean = static_cast<double>(sectors) / static_cast<double>(warps * steps);
  const std::int64_t ideal = (lanes * width + 31) / 32;
  std::string note = fmt::format("global side ({} {}): {:.1f} sectors per request of {} bytes a lane (ideal {})", what, pointer,
                                 mean, width, ideal);
  for (const Stride& s : strides)
    note += fmt::format("; {} taken as {} (a {}-byte pitch)", s.name, s.typical, s.typical * s.bytes);
  return note;
}

}  // namespace swz::audit_parts
