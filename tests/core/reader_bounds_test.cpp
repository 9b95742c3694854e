// Readers that cannot run away (limits.h): alias cycles named at their line, one nesting bound for
// attributes and JSON, one size cap for files and streams, messages that are valid UTF-8, and a
// module cut before its module line refused. Each case crashed (a stack overflow after ~770 MB,
// exit 139), ran out of memory, or answered silently before.
#include <gtest/gtest.h>

#include <string>

#include "swz/error.h"
#include "swz/io/atomic_file.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"
#include "swz/io/limits.h"
#include "swz/io/link.h"
#include "swz/kernel/audit.h"
#include "swz/kernel/ttgir.h"
#include "swz/kernel/ttgir_module.h"
#include "swz/problem/problem_spec.h"
#include "test_support.h"

namespace {

const char* kModuleLine = R"(module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k() {
    tt.return
  }
}
)";

std::string module_error(const std::string& text) {
  try {
    (void)swz::audit_module(text, "k.ttgir");
  } catch (const swz::Error& e) {
    return e.what();
  }
  return "";
}

// [SECTION] Alias cycles

TEST(ReaderBounds, AliasWhoseSliceParentIsItselfIsACycleAtItsLine) {
  const std::string m = module_error(
      "#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
      "#a = #ttg.slice<{dim = 0, parent = #a}>\n" +
      std::string(kModuleLine));
  EXPECT_EQ(m, "k.ttgir:2: #a refers to itself (#a -> #a): a cycle of aliases");
}

TEST(ReaderBounds, AliasThatIsItselfIsACycleNotAnUnmodelledOp) {
  // Before, `#a = #a` read and each op using it was listed "not modelled" with exit 0.
  const std::string text =
      std::string("#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n") +
      "#a = #a\n#smem = #ttg.shared_memory\n" +
      R"(module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k() {
    %m = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    %v = ttg.local_load %m : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> tensor<32x32xf32, #a>
    tt.return
  }
}
)";
  EXPECT_EQ(module_error(text), "k.ttgir:2: #a refers to itself (#a -> #a): a cycle of aliases");
}

TEST(ReaderBounds, LongerCycleNamesEveryAliasAndTheLineThatClosesIt) {
  const std::string m =
      module_error("#a = #b\n#b = #ttg.dot_op<{opIdx = 0, parent = #c, kWidth = 2}>\n#c = #ttg.slice<{dim = 1, parent = #a}>\n" +
                   std::string(kModuleLine));
  EXPECT_EQ(m, "k.ttgir:3: #a refers to itself (#a -> #b -> #c -> #a): a cycle of aliases");
}

TEST(ReaderBounds, ResolveOutsideAModuleRefusesTheCycleToo) {
  const swz::ttgir::Aliases aliases{{"a", "#ttg.slice<{dim = 0, parent = #b}>"}, {"b", "#ttg.slice<{dim = 0, parent = #a}>"}};
  const std::string m = swz::test::error_of([&] { (void)swz::ttgir::convert("#a", {64}, 16, aliases); });
  EXPECT_EQ(m, "#a refers to itself (#a -> #b -> #a): a cycle of aliases");
  // A layout file of aliases (analyze --src, convert) names the line.
  const std::string file = swz::test::error_of(
      [] { (void)swz::parse_layout_text("#a = #ttg.slice<{dim = 0, parent = #a}>\ntensor<64xf16, #a>\n", "x.mlir"); });
  EXPECT_NE(file.find("line 1: #a refers to itself (#a -> #a): a cycle of aliases"), std::string::npos) << file;
}

TEST(ReaderBounds, AliasesSharedManyTimesOverStopAtTheValueBound) {
  // Each alias uses the one before twice: 2^40 values expanded, unless bounded.
  std::string text = "#a0 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n";
  swz::ttgir::Aliases aliases{
      {"a0", "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"}};
  for (int i = 1; i <= 40; ++i)
    aliases["a" + std::to_string(i)] = "#x.pair<{p = #a" + std::to_string(i - 1) + ", q = #a" + std::to_string(i - 1) + "}>";
  const std::string m = swz::test::error_of([&] { (void)swz::ttgir::resolve(swz::ttgir::parse_attribute("#a40"), aliases); });
  EXPECT_NE(m.find("the aliases expand to more than 1048576 attribute values"), std::string::npos) << m;
  // Checking the same graph visits each alias once: no cycle, no error, at once.
  EXPECT_NO_THROW(swz::ttgir::check_aliases(aliases, {}));
}

TEST(ReaderBounds, ChainOfAliasesDeeperThanTheBoundIsOneLine) {
  std::string text;
  text += "#a0 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n";
  for (int i = 1; i <= 5000; ++i) text += "#a" + std::to_string(i) + " = #a" + std::to_string(i - 1) + "\n";
  const std::string m = module_error(text + kModuleLine);
  EXPECT_NE(m.find("nested more than 256 deep"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
}

// [SECTION] Nesting

TEST(ReaderBounds, AttributeNested50000DeepIsOneLine) {
  const std::string deep = "#ttg.blocked<{order = " + std::string(50000, '[') + std::string(50000, ']') + "}>";
  const std::string m = swz::test::error_of([&] { (void)swz::ttgir::parse_attribute(deep); });
  EXPECT_EQ(m, "the attribute at column 278: nested more than 256 deep");
  // In a module, the alias line names the place.
  const std::string in_module = module_error("#blocked = " + deep + "\n" + kModuleLine);
  EXPECT_NE(in_module.find("k.ttgir:1:12: expected an attribute (the attribute at column 278: nested more than 256 deep)"),
            std::string::npos)
      << in_module;
  // And in a type on an op line.
  const std::string in_type = module_error(R"(module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k() {
    %v = ttg.local_load %m : !ttg.memdesc<32x32xf32, )" +
                                           deep + R"(> -> tensor<32x32xf32, #b>
    tt.return
  }
}
)");
  EXPECT_NE(in_type.find("k.ttgir:3:"), std::string::npos) << in_type;
  EXPECT_NE(in_type.find("nested more than 256 deep"), std::string::npos) << in_type;
}

TEST(ReaderBounds, AttributesAtTheBoundStillRead) {
  const std::string at_bound = std::string(255, '[') + "1" + std::string(255, ']');
  EXPECT_NO_THROW((void)swz::ttgir::parse_attribute(at_bound));
  const std::string past = std::string(256, '[') + "1" + std::string(256, ']');
  EXPECT_THROW((void)swz::ttgir::parse_attribute(past), swz::Error);
}

TEST(ReaderBounds, JsonNestedPastTheBoundIsOneLineInEveryJsonReader) {
  const std::string deep = "{\"shape\": " + std::string(50000, '[') + std::string(50000, ']') + "}";
  EXPECT_EQ(swz::test::error_of([&] { (void)swz::parse_json(deep, "x.json"); }), "x.json: nested more than 256 deep");
  const std::string spec = ::testing::TempDir() + "deep_spec.json";
  swz::write_file_atomically(spec, deep);
  EXPECT_EQ(swz::test::error_of([&] { (void)swz::load_spec_file(spec); }), spec + ": nested more than 256 deep");
  EXPECT_EQ(swz::test::error_of([&] { (void)swz::parse_layout_text(deep, "layout.json"); }),
            "layout.json: nested more than 256 deep");
  // JSON at the bound is still JSON.
  const std::string at_bound = std::string(256, '[') + std::string(256, ']');
  EXPECT_NO_THROW((void)swz::parse_json(at_bound, "x.json"));
}

// [SECTION] Size

TEST(ReaderBounds, AStreamWithNoEndStopsAtTheCap) {
  const std::string m = swz::test::error_of([] { (void)swz::read_text_file("/dev/zero", std::size_t{1} << 20); });
  EXPECT_EQ(m, "'/dev/zero' is larger than 1048576 bytes");
}

TEST(ReaderBounds, OneCapByDefault) {
  // convert, analyze and every layout or spec file read with the same default.
  EXPECT_EQ(swz::kMaxInputBytes, std::size_t{64} << 20);
  const std::string m = swz::test::error_of([] { (void)swz::read_text_file("/dev/zero"); });
  EXPECT_EQ(m, "'/dev/zero' is larger than 67108864 bytes");
}

// [SECTION] UTF-8

TEST(ReaderBounds, MessagesAreValidUtf8) {
  EXPECT_EQ(swz::valid_utf8("ok \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), "ok \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
  EXPECT_EQ(swz::valid_utf8("\xff"), "\xEF\xBF\xBD");
  EXPECT_EQ(swz::valid_utf8("a\xC0\xAF"
                            "b"),
            "a\xEF\xBF\xBD\xEF\xBF\xBD"
            "b");                                                                      // an overlong '/'
  EXPECT_EQ(swz::valid_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(swz::valid_utf8("\xE2\x82"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // cut short
  EXPECT_EQ(swz::valid_utf8("\xF4\x90\x80\x80").substr(0, 3), "\xEF\xBF\xBD");         // past U+10FFFF
  const swz::Error e("unknown preset '\xff\xfe'");
  EXPECT_EQ(std::string(e.what()), "unknown preset '\xEF\xBF\xBD\xEF\xBF\xBD'");
  // So any message can be written as JSON.
  const nlohmann::json as_json{{"error", e.what()}};
  EXPECT_NO_THROW((void)as_json.dump());
}

// [SECTION] A module cut short

TEST(ReaderBounds, ModuleCutBeforeItsModuleLineIsRefused) {
  const std::string head =
      "#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
      "#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n";
  EXPECT_EQ(module_error(head),
            "k.ttgir:3:1: expected the module line (module attributes {...} {) after 2 alias definitions: the text ends before "
            "its module");
  // The whole module reads.
  EXPECT_EQ(module_error(head + kModuleLine), "");
}

}  // namespace
