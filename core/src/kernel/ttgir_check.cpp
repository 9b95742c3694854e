// ttgir_check.cpp: what Triton's verifier refuses in a layout attribute before any shape is
// known (ttgir.h: check_attribute, misspelled_attribute_kind). The conversion (ttgir_attr.cpp)
// checks what needs the shape; this catches the rest while the module is read, so that a typo
// is an error at its line rather than an access listed as "not modelled".
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <numeric>

#include "swz/io/nearest_name.h"
#include "swz/kernel/ttgir.h"

namespace swz::ttgir {

namespace {

// Triton 3.6's attribute keys per kind, as its printer writes them (the CGA fields of every kind
// included). A kind not listed here is not checked key by key.
struct KindKeys {
  std::string_view kind;
  std::vector<std::string_view> keys;
};

const std::vector<KindKeys>& kind_keys() {
  static const std::vector<KindKeys> table = [] {
    const std::vector<std::string_view> cga = {"CTAsPerCGA", "CTASplitNum", "CTAOrder", "CGALayout"};
    auto with_cga = [&](std::vector<std::string_view> keys) {
      keys.insert(keys.end(), cga.begin(), cga.end());
      return keys;
    };
    return std::vector<KindKeys>{
        {"blocked", with_cga({"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"})},
        {"slice", {"dim", "parent"}},
        {"dot_op", {"opIdx", "parent", "kWidth"}},
        {"nvidia_mma", with_cga({"versionMajor", "versionMinor", "warpsPerCTA", "instrShape"})},
        {"amd_mfma", with_cga({"version", "versionMajor", "versionMinor", "warpsPerCTA", "instrShape", "MDim", "NDim",
                               "isTransposed", "elementBitWidth", "elementType", "tilesPerWarp"})},
        {"amd_wmma", with_cga({"version", "isTranspose", "isTransposed", "warpsPerCTA", "tilesPerWarp", "instrShape",
                               "elementBitWidth", "elementType"})},
        {"linear", {"register", "lane", "warp", "block"}},
        {"swizzled_shared", with_cga({"vec", "perPhase", "maxPhase", "order"})},
        {"shared", with_cga({"vec", "perPhase", "maxPhase", "order", "hasLeadingOffset"})},
        {"nvmma_shared", with_cga({"swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded"})},
        {"amd_rotating_shared", with_cga({"vec", "perPhase", "maxPhase", "order"})},
        {"shared_linear", {"offset", "block", "alignment"}},
    };
  }();
  return table;
}

// Triton 3.6's ttg attribute names: the layouts above, the padded one (whose body is not a plain
// dictionary) and the memory space.
constexpr std::array<std::string_view, 15> kKnownKinds = {
    "blocked",      "slice",          "dot_op",        "nvidia_mma",          "amd_mfma",
    "amd_wmma",     "linear",         "swizzled_shared", "shared",            "nvmma_shared",
    "amd_rotating_shared", "shared_linear", "padded_shared", "shared_memory", "mma"};

std::optional<std::int64_t> integer_of(const AttrNode& a, std::string_view key) {
  const AttrNode* f = a.field(std::string(key));
  if (!f || f->kind != AttrNode::Kind::Integer) return std::nullopt;
  return f->integer;
}

std::optional<std::vector<std::int64_t>> integers_of(const AttrNode& a, std::string_view key) {
  const AttrNode* f = a.field(std::string(key));
  if (!f || f->kind != AttrNode::Kind::List) return std::nullopt;
  std::vector<std::int64_t> v;
  for (const AttrNode& item : f->items) {
    if (item.kind != AttrNode::Kind::Integer) return std::nullopt;
    v.push_back(item.integer);
  }
  return v;
}

bool is_permutation(std::vector<std::int64_t> order) {
  std::sort(order.begin(), order.end());
  for (std::size_t i = 0; i < order.size(); ++i)
    if (order[i] != static_cast<std::int64_t>(i)) return false;
  return true;
}

}  // namespace

std::optional<std::string> misspelled_attribute_kind(std::string_view kind) {
  if (std::find(kKnownKinds.begin(), kKnownKinds.end(), kind) != kKnownKinds.end()) return std::nullopt;
  const std::string_view best = closest_name(kind, {kKnownKinds.begin(), kKnownKinds.end()}, /*limit=*/2);
  if (best.empty()) return std::nullopt;  // a kind this reader does not know: listed as not modelled where used
  return std::string(best);
}

std::optional<AttrProblem> check_attribute(const AttrNode& a, int threads_per_warp) {
  if (a.kind != AttrNode::Kind::Dialect) return std::nullopt;
  if (a.text.rfind("ttg.", 0) != 0 && a.text.rfind("triton_gpu.", 0) != 0) return std::nullopt;
  const std::string kind = a.layout_kind();
  if (const auto known = misspelled_attribute_kind(kind))
    return AttrProblem{"", fmt::format("#{} is not a Triton attribute (did you mean #{}{}?)", a.text,
                                       a.text.substr(0, a.text.size() - kind.size()), *known)};
  const auto entry = std::find_if(kind_keys().begin(), kind_keys().end(), [&](const KindKeys& k) { return k.kind == kind; });
  if (entry != kind_keys().end())
    for (const auto& [key, value] : a.fields)
      if (std::find(entry->keys.begin(), entry->keys.end(), key) == entry->keys.end()) {
        const std::string_view near = closest_name(key, entry->keys, /*limit=*/3);
        return AttrProblem{key, fmt::format("#{} has no key '{}'{}", a.text, key,
                                            near.empty() ? std::string() : fmt::format(" (did you mean '{}'?)", near))};
      }
  if (kind == "nvmma_shared") {
    if (const auto width = integer_of(a, "swizzlingByteWidth"); width && *width != 0 && *width != 32 && *width != 64 && *width != 128)
      return AttrProblem{"swizzlingByteWidth",
                         fmt::format("#{}: swizzlingByteWidth = {} is not 0, 32, 64 or 128", a.text, *width)};
    if (const auto bits = integer_of(a, "elementBitWidth"); bits && *bits != 4 && *bits != 8 && *bits != 16 && *bits != 32 && *bits != 64)
      return AttrProblem{"elementBitWidth", fmt::format("#{}: elementBitWidth = {} is not 4, 8, 16, 32 or 64", a.text, *bits)};
  }
  if (kind == "swizzled_shared" || kind == "shared" || kind == "amd_rotating_shared")
    for (std::string_view key : {"vec", "perPhase", "maxPhase"})
      if (const auto v = integer_of(a, key); v && *v < 1)
        return AttrProblem{std::string(key), fmt::format("#{}: {} = {} is not positive", a.text, key, *v)};
  if (kind == "blocked") {
    const auto size = integers_of(a, "sizePerThread"), threads = integers_of(a, "threadsPerWarp"),
               warps = integers_of(a, "warpsPerCTA"), order = integers_of(a, "order");
    if (threads) {
      const std::int64_t product = std::accumulate(threads->begin(), threads->end(), std::int64_t{1}, std::multiplies<>());
      if (product != threads_per_warp)
        return AttrProblem{"threadsPerWarp", fmt::format("#{}: threadsPerWarp = [{}] holds {} threads, but the module's warps have {}", a.text,
                                                         fmt::join(*threads, ", "), product, threads_per_warp)};
    }
    for (const auto& [key, list] : {std::pair{"sizePerThread", size}, {"threadsPerWarp", threads}, {"warpsPerCTA", warps}}) {
      if (!list) continue;
      for (std::int64_t v : *list)
        if (v < 1 || (v & (v - 1)) != 0)
          return AttrProblem{key, fmt::format("#{}: {} = [{}] holds {}, not a power of two", a.text, key, fmt::join(*list, ", "), v)};
      if (order && list->size() != order->size())
        return AttrProblem{key, fmt::format("#{}: {} has {} entries but order has {}", a.text, key, list->size(), order->size())};
    }
    if (order && !is_permutation(*order))
      return AttrProblem{"order", fmt::format("#{}: order = [{}] is not a permutation of the dims", a.text, fmt::join(*order, ", "))};
  }
  if (kind == "swizzled_shared" || kind == "nvidia_mma")
    if (const auto order = integers_of(a, "order"); order && !is_permutation(*order))
      return AttrProblem{"order", fmt::format("#{}: order = [{}] is not a permutation of the dims", a.text, fmt::join(*order, ", "))};
  // Nested layouts (a slice's or dot operand's parent written inline).
  for (const auto& [key, value] : a.fields)
    if (auto inner = check_attribute(value, threads_per_warp)) return inner;
  return std::nullopt;
}

}  // namespace swz::ttgir
