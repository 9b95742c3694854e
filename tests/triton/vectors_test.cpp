// Our conversions of Triton's layout attributes against what Triton 3.6 itself
// computed (tests/data/triton/vectors.json, written by dump_vectors.py on an H100):
// distributed layouts from gluon's to_linear_layout, shared layouts from where
// a kernel's stores landed in shared memory.
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "swz/error.h"
#include "swz/kernel/ttgir.h"

namespace {

nlohmann::json load_vectors() {
  std::ifstream in(std::string(SWZ_TEST_DATA) + "/triton/vectors.json");
  EXPECT_TRUE(in.good());
  return nlohmann::json::parse(in);
}

struct Case {
  std::string attribute;  // the attribute text, or a type holding it
  swz::ttgir::Aliases aliases;
  std::vector<std::int64_t> shape;
  int element_bits = 32;
  bool from_ttgir = false;
};

// The attribute as the kernel's TTGIR printed it (the local_store line), else as written from the layout's fields.
Case case_of(const nlohmann::json& c) {
  Case k;
  k.shape = c.at("shape").get<std::vector<std::int64_t>>();
  k.element_bits = c.value("element_bits", 32);
  if (c.contains("ttgir")) {
    for (const auto& line : c["ttgir"]["aliases"]) {
      const std::string l = line.get<std::string>();
      const auto eq = l.find(" = ");
      if (l.rfind("#loc", 0) == 0 || eq == std::string::npos) continue;
      k.aliases[l.substr(1, eq - 1)] = l.substr(eq + 3);
    }
    const std::string store = c["ttgir"]["store"].get<std::string>();
    const auto colon = store.rfind(" : ");
    const auto arrow = store.find(" -> ", colon);
    if (colon != std::string::npos && arrow != std::string::npos) {
      std::string type = c.at("kind") == "shared" ? store.substr(arrow + 4) : store.substr(colon + 3, arrow - colon - 3);
      if (const auto loc = type.rfind(" loc("); loc != std::string::npos) type = type.substr(0, loc);
      const swz::ttgir::Type t = swz::ttgir::parse_type(type);
      if (t.encoding) {
        k.attribute = type;
        k.from_ttgir = true;
        return k;
      }
    }
  }
  k.attribute = c.value("attr_text", "");
  return k;
}

swz::ttgir::Layout convert_case(const Case& k) {
  if (k.from_ttgir) {
    const swz::ttgir::Type t = swz::ttgir::parse_type(k.attribute);
    return swz::ttgir::convert(*t.encoding, t.shape, t.element_bits, k.aliases);
  }
  return swz::ttgir::convert(k.attribute, k.shape, k.element_bits, k.aliases);
}

std::vector<std::vector<std::int64_t>> bases_of(const swz::LinearLayout& l, const char* in) {
  std::vector<std::vector<std::int64_t>> out;
  for (swz::BitVec b : l.bases(in)) out.push_back(l.unflatten(b));
  return out;
}

TEST(TritonVectors, EnoughCasesOfEveryKind) {
  const auto v = load_vectors();
  EXPECT_EQ(v.at("triton").get<std::string>().rfind("3.6", 0), 0u);
  std::set<std::string> kinds;
  int answered = 0;
  for (const auto& c : v.at("cases")) {
    if (c.contains("error")) continue;
    ++answered;
    const Case k = case_of(c);
    kinds.insert(convert_case(k).kind_name);
  }
  EXPECT_GE(answered, 50);
  for (const char* kind :
       {"blocked", "slice", "nvidia_mma", "dot_op", "amd_mfma", "amd_wmma", "swizzled_shared", "nvmma_shared", "padded_shared"})
    EXPECT_TRUE(kinds.count(kind)) << kind;
}

// Converts every measured case of `kind` ("distributed" or "shared") and hands it to `check`
// with its vector; returns how many converted (a case that does not convert is a failure).
int for_each_case(const char* kind, const std::function<void(const nlohmann::json&, const swz::ttgir::Layout&)>& check) {
  const auto v = load_vectors();
  int checked = 0;
  for (const auto& c : v.at("cases")) {
    if (c.contains("error") || c.at("kind") != kind) continue;
    const Case k = case_of(c);
    SCOPED_TRACE(k.attribute + " shape " + c.at("shape").dump());
    try {
      check(c, convert_case(k));
    } catch (const swz::Error& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    ++checked;
  }
  return checked;
}

TEST(TritonVectors, DistributedLayoutsMatchTriton) {
  const int checked = for_each_case("distributed", [](const nlohmann::json& c, const swz::ttgir::Layout& l) {
    EXPECT_EQ(l.linear.shape(), c.at("ll_shape").get<std::vector<std::int64_t>>());
    EXPECT_EQ(bases_of(l.linear, "register"), c.at("reg_bases").get<std::vector<std::vector<std::int64_t>>>());
    EXPECT_EQ(bases_of(l.linear, "lane"), c.at("lane_bases").get<std::vector<std::vector<std::int64_t>>>());
    EXPECT_EQ(bases_of(l.linear, "warp"), c.at("warp_bases").get<std::vector<std::vector<std::int64_t>>>());
    EXPECT_EQ(bases_of(l.linear, "block"), c.at("block_bases").get<std::vector<std::vector<std::int64_t>>>());
  });
  EXPECT_GE(checked, 40);
}

TEST(TritonVectors, SharedLayoutsMatchTheHardware) {
  const int checked = for_each_case("shared", [](const nlohmann::json& c, const swz::ttgir::Layout& l) {
    ASSERT_TRUE(l.shared.has_value());
    const auto rows = c.at("rows").get<std::vector<std::int64_t>>(), cols = c.at("cols").get<std::vector<std::int64_t>>();
    std::int64_t placed = 0, wrong = 0;
    for (std::size_t off = 0; off < rows.size(); ++off) {
      if (rows[off] < 0) continue;
      ++placed;
      const swz::BitVec flat = l.shared->coords().flatten({rows[off], cols[off]});
      if (l.shared->offset(flat) != off) ++wrong;
    }
    EXPECT_EQ(placed, l.shared->elements());
    EXPECT_EQ(wrong, 0);
  });
  EXPECT_GE(checked, 20);
}

}  // namespace
