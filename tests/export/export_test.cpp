// The export writers: names, header contents, other formats, commands, files.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <regex>

#include "../core/test_support.h"
#include "export_support.h"
#include "swz/error.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"

namespace swz::test {
namespace {

ExportRequest seed_request(std::vector<std::uint32_t> masks = {2, 4, 8, 16}, std::string name = "tile_swizzle") {
  Problem p = make_preset("transpose16x32");
  p.set_masks(masks);
  return ExportRequest::from_problem(p, std::move(name));
}

using test::error_of;

// [SECTION] Names

TEST(ExportNames, AcceptsIdentifiers) {
  for (const char* name : {"tile_swizzle", "t", "_tile", "Tile2", "swz_16x32", "tile_"})
    EXPECT_EQ(export_name_problem(name), "") << name;
}

TEST(ExportNames, RejectsEachKindOfBadNameWithItsReason) {
  EXPECT_NE(export_name_problem("").find("empty"), std::string::npos);
  EXPECT_NE(export_name_problem("2tile").find("starts with a digit"), std::string::npos);
  EXPECT_NE(export_name_problem("tile-swizzle").find("not a C++ identifier"), std::string::npos);
  EXPECT_NE(export_name_problem("tile swizzle").find("not a C++ identifier"), std::string::npos);
  EXPECT_NE(export_name_problem("tile\n#define x").find("not a C++ identifier"), std::string::npos);
  EXPECT_NE(export_name_problem("t\xc3\xa9").find("not a C++ identifier"), std::string::npos);
  EXPECT_NE(export_name_problem("class").find("keyword"), std::string::npos);
  EXPECT_NE(export_name_problem("namespace").find("keyword"), std::string::npos);
  EXPECT_NE(export_name_problem("xor").find("keyword"), std::string::npos);
  EXPECT_NE(export_name_problem("co_await").find("keyword"), std::string::npos);
  EXPECT_NE(export_name_problem("std").find("uses"), std::string::npos);
  EXPECT_NE(export_name_problem("tile__x").find("reserved"), std::string::npos);
  EXPECT_NE(export_name_problem("_Tile").find("reserved"), std::string::npos);
  EXPECT_NE(export_name_problem("UINT32_MAX").find("<cstdint> macro"), std::string::npos);
  EXPECT_NE(export_name_problem(std::string(65, 'a')).find("at most 64"), std::string::npos);
}

TEST(ExportNames, PythonKeywordsOnlyMatterForTriton) {
  EXPECT_EQ(export_name_problem("lambda", ExportFormat::Header), "");
  EXPECT_NE(export_name_problem("lambda", ExportFormat::Triton).find("Python keyword"), std::string::npos);
  EXPECT_NE(export_name_problem("ttgl", ExportFormat::Triton), "");
}

TEST(ExportNames, EveryFormatRejectsABadNameWithOneLine) {
  for (ExportFormat f : {ExportFormat::Header, ExportFormat::Triton, ExportFormat::Cute, ExportFormat::Json}) {
    const std::string message = error_of([&] { export_text(seed_request({2, 4, 8, 16}, "int"), f); });
    EXPECT_EQ(message.rfind("invalid name: 'int' is a C++ keyword", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos);
  }
}

// [SECTION] Header contents

TEST(ExportHeader, SeedHeaderHasTheConstantsFunctionsAndComments) {
  const std::string h = export_header(seed_request());
  for (const char* part : {
           "namespace tile_swizzle {",
           "TILE_SWIZZLE_CONSTANT std::uint32_t rows = 16u;",
           "TILE_SWIZZLE_CONSTANT std::uint32_t cols = 32u;",
           "TILE_SWIZZLE_CONSTANT std::uint32_t element_bits = 32u;",
           "TILE_SWIZZLE_CONSTANT std::uint32_t banks = 32u;",
           "TILE_SWIZZLE_CONSTANT std::uint32_t masks[4] = {2u, 4u, 8u, 16u};",
           "TILE_SWIZZLE_CONSTANT std::uint32_t offset_bases[9][2] = {{0u, 1u}, {0u, 2u}, {0u, 4u}, {0u, 8u}, {0u, 16u}, {1u, "
           "2u}",
           "constexpr std::uint32_t offset(std::uint32_t row, std::uint32_t col) {\n"
           "  return ((row & 0xfu) << 5) ^ ((row & 0xfu) << 1) ^ (col & 0x1fu);",
           "constexpr std::uint32_t row_of(std::uint32_t off)",
           "constexpr std::uint32_t col_of(std::uint32_t off) {\n  return (off & 0x1fu) ^ ((off & 0x1e0u) >> 4);",
           "constexpr coord coord_of(std::uint32_t off)",
           "constexpr std::uint32_t byte_offset(std::uint32_t row, std::uint32_t col) {\n  return offset(row, col) << 2;",
           "constexpr std::uint32_t swizzle_byte_offset(std::uint32_t byte)",
           "#if defined(__CUDACC__)\n#define TILE_SWIZZLE_HOST_DEVICE __host__ __device__",
           "#if defined(__CUDA_ARCH__)\n#define TILE_SWIZZLE_CONSTANT static __device__ constexpr\n"
           "#else\n#define TILE_SWIZZLE_CONSTANT inline constexpr\n#endif",
           "#if defined(_MSVC_LANG) ? _MSVC_LANG < 201703L : __cplusplus < 201703L\n"
           "#error \"tile_swizzle: this swizzle header needs C++17 or later",
           "// Needs C++17 or later (inline variables).",
           "// Problem: transpose16x32:",
           "// Store (A, the writer): 1 wavefront per instruction (ideal 1), 16 instructions, 32-bit vectors",
           "// Read (B, the reader): 1 wavefront per instruction (ideal 1), 16 instructions, 32-bit vectors",
           "//        lane=16 -> (0, 1)",
           "//   offset bit  1 = m0^n1",
           "// Generated by swizzle " SWZ_VERSION,
           "//   swizzle export --preset transpose16x32 --mask 2,4,8,16 --name tile_swizzle -o tile_swizzle.h",
           "//   CuTe Swizzle<4,1,4> o (16,32):(32,1) on element offsets",
           "#if __has_include(<cute/swizzle.hpp>)",
           "using cute_swizzle = cute::Swizzle<4, 1, 4>;",
           "using cute_swizzle_bytes = cute::Swizzle<4, 3, 4>;",
           "TILE_SWIZZLE_CONSTANT char triton_layout[] =\n    \"#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 16, "
           "order = "
           "[1, 0]}>\";",
           "\"#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 2], [2, 4], [4, 8], [8, 16]]}, "
           "alignment = 128>\"",
       })
    EXPECT_NE(h.find(part), std::string::npos) << "missing: " << part << "\n---\n" << h;
  // The XOR-m swizzle leaves a 2-way read conflict: the comment block says so.
  const std::string xor_m = export_header(seed_request({1, 2, 4, 8}));
  EXPECT_NE(xor_m.find("// Read (B, the reader): 2 wavefronts, 2-way conflict per instruction"), std::string::npos) << xor_m;
  // No TMA mode writes this layout; the unswizzled tile is what SWIZZLE_NONE loads.
  EXPECT_EQ(h.find("tma_swizzle_mode"), std::string::npos);
  EXPECT_NE(
      export_header(seed_request({})).find("TILE_SWIZZLE_CONSTANT char tma_swizzle_mode[] = \"CU_TENSOR_MAP_SWIZZLE_NONE\";"),
      std::string::npos);
}

TEST(ExportHeader, OnlyShiftsAndsAndXorsInTheFunctions) {
  for (const ExportCase& c : all_export_cases()) {
    const std::string h = export_header(c.request);
    // Every `return` line of the offset and inverse functions.
    const std::regex body("(offset|_of|byte_offset)\\([^)]*\\) \\{\\n  return ([^;]*);");
    for (auto it = std::sregex_iterator(h.begin(), h.end(), body); it != std::sregex_iterator(); ++it) {
      const std::string expr = (*it)[2];
      if (expr.find("offset(") == 0 || expr.find("coord{") == 0) continue;  // byte_offset / coord_of delegate
      EXPECT_TRUE(std::regex_match(expr, std::regex("[A-Za-z0-9_ ()&^<>]*"))) << c.id << ": " << expr;
      EXPECT_EQ(expr.find('+'), std::string::npos) << expr;
      EXPECT_EQ(expr.find('*'), std::string::npos) << expr;
    }
  }
}

TEST(ExportHeader, TmaPresetNamesItsModeAndNvmma) {
  Problem p = make_preset("tma128_fp16");
  p.apply_variant("tma-128B");
  const std::string h = export_header(ExportRequest::from_problem(p, "tma_tile"));
  EXPECT_NE(h.find("TMA_TILE_CONSTANT char tma_swizzle_mode[] = \"CU_TENSOR_MAP_SWIZZLE_128B\";"), std::string::npos) << h;
  EXPECT_NE(h.find("base aligned to 1024 bytes"), std::string::npos);
  EXPECT_NE(h.find("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"), std::string::npos);
  EXPECT_NE(h.find("using cute_swizzle_bytes = cute::Swizzle<3, 4, 3>;"), std::string::npos);
  EXPECT_NE(h.find("alignment = 1024>"), std::string::npos);
  EXPECT_NE(h.find("swizzle export --preset tma128_fp16 --mask 8,16,32 --name tma_tile"), std::string::npos);
}

TEST(ExportHeader, OtherRanksTakeOneArgumentPerDim) {
  for (const ExportCase& c : all_export_cases()) {
    const std::string h = export_header(c.request);
    if (c.id == "rank3_xor") {
      EXPECT_NE(h.find("offset(std::uint32_t dim0, std::uint32_t dim1, std::uint32_t dim2)"), std::string::npos) << h;
      EXPECT_NE(h.find("constexpr std::uint32_t dim2_of(std::uint32_t off)"), std::string::npos);
      EXPECT_EQ(h.find("rows ="), std::string::npos);
    }
    if (c.id == "rank1_fold") EXPECT_NE(h.find("offset(std::uint32_t dim0) {"), std::string::npos) << h;
  }
}

TEST(ExportHeader, FourBitElementsHaveAByteFormOnlyWhenPairsStayTogether) {
  for (const ExportCase& c : all_export_cases()) {
    if (c.id != "fp4_pairs_kept" && c.id != "fp4_pairs_split") continue;
    const std::string h = export_header(c.request);
    EXPECT_NE(h.find("return offset(row, col) >> 1;"), std::string::npos) << h;
    EXPECT_EQ(h.find("swizzle_byte_offset(std::uint32_t byte)") != std::string::npos, c.id == "fp4_pairs_kept") << h;
  }
}

TEST(ExportHeader, InputTextCannotLeaveTheComments) {
  // A hostile description (from a file name or a GUI field) stays inside `//` comments.
  const std::string evil = "x\n#include </etc/passwd>\nint pwned = 1; \\\r?\?/\x01";
  ExportRequest r = ExportRequest::from_layout(toggle_grid({16, 32}, {2, 4, 8, 16}), 32, "tile");
  r.shared = SharedLayout::from_linear(r.shared.linear(), evil);
  r.command = "swizzle export --shared '" + evil + "'";
  const std::string h = export_header(r);
  std::istringstream lines(h);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find("pwned") == std::string::npos && line.find("passwd") == std::string::npos) continue;
    EXPECT_EQ(line.rfind("//", 0), 0u) << "outside a comment: " << line;
    EXPECT_NE(line.back(), '\\') << line;
  }
  EXPECT_EQ(h.find("?\?/"), std::string::npos);
  EXPECT_EQ(h.find('\x01'), std::string::npos);
  EXPECT_EQ(h.find('\r'), std::string::npos);
}

TEST(ExportHeader, NonLinearLayoutsAreRejectedWithTheReason) {
  Problem p = make_preset("transpose16x32");
  p.apply_variant("padded");
  const std::string message = error_of([&] { export_header(ExportRequest::from_problem(p, "tile")); });
  EXPECT_NE(message.find("is not linear over F2"), std::string::npos) << message;
  EXPECT_NE(message.find("padding: offset = m*33 + n adds with carries"), std::string::npos) << message;  // the reason
  Problem t = make_preset("tma128_fp16");
  t.apply_variant("tma-128B-base-0x80");
  EXPECT_NE(error_of([&] { export_json(ExportRequest::from_problem(t, "tile")); }).find("not linear"), std::string::npos);
}

TEST(ExportHeader, SameRequestSameBytes) {
  for (const ExportCase& c : all_export_cases())
    for (ExportFormat f : {ExportFormat::Header, ExportFormat::Triton, ExportFormat::Json}) {
      const std::string a = export_text(c.request, f);
      ExportRequest copy = c.request;
      EXPECT_EQ(a, export_text(copy, f)) << c.id;
    }
}

// [SECTION] Other formats

TEST(ExportFormats, JsonRoundTripsThroughTheLayoutReader) {
  for (const ExportCase& c : all_export_cases()) {
    const std::string text = export_json(c.request);
    const LayoutFile f = parse_layout_text(text, c.id);
    ASSERT_EQ(f.kind, LayoutKind::Shared);
    EXPECT_EQ(f.element_bits, c.request.element_bits);
    EXPECT_EQ(SharedLayout::from_linear(f.layout, c.id), c.request.shared) << c.id;
    EXPECT_EQ(nlohmann::json::parse(text).at("name"), c.id);
  }
}

TEST(ExportFormats, TritonOutputParsesBackToTheSameLayout) {
  for (const ExportCase& c : all_export_cases()) {
    const std::string text = export_triton(c.request);
    EXPECT_NE(text.find(c.id + " = ttgl.SharedLinearLayout("), std::string::npos) << text;
    // The MLIR attribute, cut out of its Python string, reads back as the same table.
    const std::size_t start = text.find("#ttg.shared_linear<");
    ASSERT_NE(start, std::string::npos);
    const std::string attr = text.substr(start, text.find('"', start) - start);
    const LayoutFile f = parse_mlir(attr);
    EXPECT_EQ(SharedLayout::from_linear(f.layout, c.id), c.request.shared) << c.id << ": " << attr;
  }
}

TEST(ExportFormats, CuteWhereExpressibleAndAClearErrorElsewhere) {
  const std::string cute = export_cute(seed_request());
  EXPECT_NE(cute.find("using base_layout = cute::Layout<cute::Shape<cute::Int<16>, cute::Int<32>>, "
                      "cute::Stride<cute::Int<32>, cute::Int<1>>>;"),
            std::string::npos)
      << cute;
  EXPECT_NE(cute.find("using swizzle = cute::Swizzle<4, 1, 4>;"), std::string::npos);
  EXPECT_NE(cute.find("using layout = decltype(cute::composition(swizzle{}, base_layout{}));"), std::string::npos);
  // The CuTe text in the comment parses back to the same layout.
  const std::size_t at = cute.find("CuTe form: ") + 11;
  const std::string form = cute.substr(at, cute.find(" (the swizzle", at) - at);
  EXPECT_EQ(SharedLayout::from_linear(parse_cute(form + " ; element_bits=32").layout, "cute"), seed_request().shared) << form;
  // XOR by m and 2m at once is two shifts: no single Swizzle<B,M,S>.
  const std::string message = error_of([] { export_cute(seed_request({3, 6, 12, 24})); });
  EXPECT_NE(message.find("has no CuTe form"), std::string::npos) << message;
  // Column-major cute8x8: Swizzle<3,2,3> on 6 offset bits only ever moves one bit: Swizzle<1,2,3>.
  Problem p = make_preset("cute8x8");
  p.apply_variant("swizzle323");
  const std::string col = export_cute(ExportRequest::from_problem(p, "cute_tile"));
  EXPECT_NE(col.find("cute::Layout<cute::Shape<cute::Int<8>, cute::Int<8>>, cute::Stride<cute::Int<1>, cute::Int<8>>>"),
            std::string::npos)
      << col;
  EXPECT_NE(col.find("using swizzle = cute::Swizzle<1, 2, 3>;"), std::string::npos) << col;
}

TEST(ExportFormats, EveryCuteFormReadsBackAsTheSameLayout) {
  int expressible = 0;
  for (const ExportCase& c : all_export_cases()) {
    std::string cute;
    try {
      cute = export_cute(c.request);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("has no CuTe form"), std::string::npos) << c.id << ": " << e.what();
      continue;
    }
    ++expressible;
    const std::size_t at = cute.find("CuTe form: ") + 11;
    const std::string form = cute.substr(at, cute.find(" (the swizzle", at) - at);
    const LayoutFile f = parse_cute(form + fmt::format(" ; element_bits={}", c.request.element_bits));
    EXPECT_EQ(SharedLayout::from_linear(f.layout, c.id), c.request.shared) << c.id << ": " << form;
    EXPECT_NE(cute.find("using layout = "), std::string::npos);
  }
  EXPECT_GE(expressible, 10);
}

TEST(ExportFormats, ParseAndNameFormats) {
  for (ExportFormat f : {ExportFormat::Header, ExportFormat::Triton, ExportFormat::Cute, ExportFormat::Json})
    EXPECT_EQ(parse_export_format(export_format_name(f)), f);
  EXPECT_EQ(export_extension(ExportFormat::Header), ".h");
  EXPECT_EQ(error_of([] { parse_export_format("yaml"); }), "unknown format 'yaml' (known: header, triton, cute, json)");
}

// [SECTION] Commands

TEST(ExportCommand, DefaultCommandReproducesTheLayout) {
  EXPECT_EQ(default_command(seed_request(), ExportFormat::Header, "tile_swizzle.h"),
            "swizzle export --preset transpose16x32 --mask 2,4,8,16 --name tile_swizzle -o tile_swizzle.h");
  Problem p = make_preset("cute8x8");
  p.apply_variant("swizzle323");
  EXPECT_EQ(default_command(ExportRequest::from_problem(p, "t"), ExportFormat::Triton),
            "swizzle export --preset cute8x8 --layout swizzle323 --name t --format triton");
  Problem unswizzled = make_preset("transpose16x32");
  EXPECT_EQ(default_command(ExportRequest::from_problem(unswizzled, "t"), ExportFormat::Json),
            "swizzle export --preset transpose16x32 --name t --format json");
  Problem tma = make_preset("tma128_fp16");
  tma.apply_variant("tma-128B");  // masks 8,16,32 and three zero rows
  EXPECT_EQ(default_command(ExportRequest::from_problem(tma, "t"), ExportFormat::Header),
            "swizzle export --preset tma128_fp16 --mask 8,16,32 --name t");
  // A layout no option reproduces is named by its JSON file.
  const ExportRequest alone = ExportRequest::from_layout(toggle_grid({16, 32}, {2, 4, 8, 16}), 32, "t");
  EXPECT_EQ(default_command(alone, ExportFormat::Header, "t.h"), "swizzle export --shared t.json --name t -o t.h");
}

TEST(ExportCommand, ShellJoinQuotesWhatTheShellWouldSplit) {
  EXPECT_EQ(shell_join({"swizzle", "export", "--shared", "my layouts/a b.json"}),
            "swizzle export --shared 'my layouts/a b.json'");
  EXPECT_EQ(shell_join({"it's"}), "'it'\\''s'");
  EXPECT_EQ(shell_join({""}), "''");
  EXPECT_EQ(shell_join({"$(rm -rf x)"}), "'$(rm -rf x)'");
}

// [SECTION] Files

TEST(ExportFiles, AtomicWriteReplacesAndKeepsPermissions) {
  TempDir dir("files");
  const auto path = dir / "tile.h";
  write_file_atomically(path.string(), "first\n");
  EXPECT_EQ(read_text(path), "first\n");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  ::chmod(path.c_str(), 0600);
  write_file_atomically(path.string(), "second\n");
  EXPECT_EQ(read_text(path), "second\n");
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // Only the file itself is left in the directory: no temporaries.
  int entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 1);
}

TEST(ExportFiles, AtomicWriteFailsCleanly) {
  TempDir dir("fail");
  EXPECT_NE(error_of([&] { write_file_atomically((dir / "missing" / "x.h").string(), "x"); }).find("does not exist"),
            std::string::npos);
  EXPECT_NE(error_of([&] { write_file_atomically(dir.path().string(), "x"); }).find("is a directory"), std::string::npos);
  EXPECT_NE(error_of([] { write_file_atomically("", "x"); }).find("no output file"), std::string::npos);
}

TEST(ExportFiles, SolvedResultsGiveTheirLayout) {
  const SharedLayout layout = toggle_grid({16, 32}, {2, 4, 8, 16});
  nlohmann::json result{{"shared", layout_to_json(layout.linear(), 32)}, {"element_bits", 32}, {"conflict_free", true}};
  SolvedLayout s = solved_layout_from_json(result, "r.json");
  EXPECT_EQ(s.shared, layout);
  EXPECT_EQ(s.element_bits, 32);
  EXPECT_EQ(s.preset, "");
  result["preset"] = "transpose16x32";
  EXPECT_EQ(solved_layout_from_json(result, "r.json").preset, "transpose16x32");
  EXPECT_NE(error_of([] {
              solved_layout_from_json(nlohmann::json{{"masks", {1}}}, "r.json");
            }).find("no 'shared' layout"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              solved_layout_from_json(nlohmann::json{{"shared", {{"offset_bases", 3}}}}, "r.json");
            }).find("r.json: 'shared'"),
            std::string::npos);
}

}  // namespace
}  // namespace swz::test
