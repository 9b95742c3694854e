// The problem spec: one JSON form and one command-line form, both read and
// printed by core; an exported header's command reproduces the header.
#include "swz/problem/problem_spec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string_view>

#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/io/layout_io.h"
#include "swz/layout/factories.h"
#include "test_support.h"

namespace swz {
namespace {

namespace fs = std::filesystem;

// A scratch folder for layout files, removed at the end of the test.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("swz_spec_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                              "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  Scratch() { fs::create_directories(dir); }
  ~Scratch() { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path p = dir / name;
    std::ofstream(p) << text;
    return p.string();
  }
};

// The seed's writer and reader (transpose16x32) as layout files.
std::string seed_layout_json(AccessKind kind) {
  const Problem p = make_preset("transpose16x32");
  return layout_to_json((kind == AccessKind::Store ? p.store : p.read).layout, 32).dump();
}

// Splits a command printed by shell_join back into its words (plain words and '...' quoting).
std::vector<std::string> shell_split(const std::string& line) {
  std::vector<std::string> words;
  std::string w;
  bool in_word = false, quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '\'')
        quoted = false;
      else
        w += c;
    } else if (c == '\'') {
      quoted = in_word = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      w += line[++i];
      in_word = true;
    } else if (c == ' ') {
      if (in_word) words.push_back(w);
      w.clear();
      in_word = false;
    } else {
      w += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(w);
  return words;
}

// The command an export printed, read back as problem flags (and --name / -o).
struct PrintedCommand {
  ProblemArguments problem;
  std::string name, output;
};
PrintedCommand read_command(const std::string& header) {
  const std::size_t at = header.find("swizzle export");
  EXPECT_NE(at, std::string::npos) << header;
  const std::string line = header.substr(at, header.find('\n', at) - at);
  const auto words = shell_split(line);
  PrintedCommand c;
  for (std::size_t i = 2; i + 1 < words.size(); i += 2) {
    if (words[i] == "--name")
      c.name = words[i + 1];
    else if (words[i] == "-o")
      c.output = words[i + 1];
    else
      c.problem.slot(words[i]) = words[i + 1];
  }
  return c;
}

TEST(ProblemSpec, DefaultIsTheSeedPreset) {
  const Problem p = build_problem(ProblemSpec{});
  EXPECT_EQ(p.name, "transpose16x32");
  EXPECT_EQ(p.shape, (std::vector<std::int64_t>{16, 32}));
  EXPECT_EQ(p.masks, (std::vector<std::uint32_t>{0, 0, 0, 0}));
}

TEST(ProblemSpec, JsonRoundTripKeepsEveryField) {
  ProblemSpec s;
  s.preset = "transpose16x32";
  s.element_bits = 32;
  s.banks = 16;
  s.write_vec_bits = 32;
  s.read_vec_bits = 32;
  s.masks = {2, 4, 8, 16};
  s.reader = SpecLayout{make_preset("transpose16x32").read.layout, "seed_read.json"};
  const ProblemSpec back = spec_from_json(to_json(s), "spec: '");
  EXPECT_EQ(back, s);
  EXPECT_EQ(build_problem(back).bank.banks, 16);
}

TEST(ProblemSpec, JsonRefusesUnknownKeysAndWrongTypesNamingTheKey) {
  nlohmann::json j = to_json(ProblemSpec{});
  j["bankz"] = 32;
  EXPECT_NE(test::error_of([&] { spec_from_json(j, "p.json: '"); }).find("p.json: 'bankz' is not a problem field"),
            std::string::npos);
  j.erase("bankz");
  j["masks"] = "2,4";
  EXPECT_NE(test::error_of([&] { spec_from_json(j, "p.json: '"); }).find("p.json: 'masks' must be a list"), std::string::npos);
  j["masks"] = nlohmann::json::array();
  j["writer"] = {{"origin", "x"}, {"layout", {{"offset_bases", {{0, 1}}}, {"shape", {1, 2}}}}};
  EXPECT_NE(test::error_of([&] { spec_from_json(j, "p.json: '"); }).find("'writer' must be a distributed layout"),
            std::string::npos);
}

// A wrong type says what was given, not only what was expected.
TEST(ProblemSpec, WrongTypesSayWhatWasGiven) {
  const auto error = [](const char* key, const nlohmann::json& value) {
    nlohmann::json j = to_json(ProblemSpec{});
    j[key] = value;
    return test::error_of([&] { spec_from_json(j, "p.json: '"); });
  };
  EXPECT_NE(error("banks", "16").find("'banks' must be a whole number from 0 to 1024, not the string \"16\""), std::string::npos);
  EXPECT_NE(error("banks", 2048).find("not the number 2048"), std::string::npos);
  EXPECT_NE(error("shape", "16x32").find("'shape' must be a list of whole numbers from 0 to 32768, not the string \"16x32\""),
            std::string::npos);
  EXPECT_NE(error("masks", {1, true}).find("one item is true"), std::string::npos);
  EXPECT_NE(error("preset", 5).find("'preset' must be a string, not the number 5"), std::string::npos);
  EXPECT_NE(error("writer", {1, 2}).find("not a list of 2 items"), std::string::npos);
}

TEST(ProblemSpec, ErrorsNameTheFieldAndItsFlag) {
  ProblemSpec s;
  s.banks = 3;
  EXPECT_EQ(test::error_of([&] { build_problem(s); }), "banks (--banks): 3 is not a power of two from 1 to 64");
  s = {};
  s.masks = {64};
  EXPECT_EQ(test::error_of([&] { build_problem(s); }), "masks (--mask): mask 64 (row bit 0) is wider than the 32 columns");
  s = {};
  s.writer = SpecLayout{make_preset("toy8x8").store.layout, "toy.json"};
  EXPECT_EQ(
      test::error_of([&] { build_problem(s); }),
      "writer (--src): toy.json covers a 8x8 tensor but the problem's tensor is 16x32 (preset transpose16x32, the default)");
  s = {};
  s.preset = "";
  EXPECT_NE(test::error_of([&] { build_problem(s); }).find("preset (--preset): a custom problem"), std::string::npos);
  s = {};
  s.read_vec_bits = 16;
  EXPECT_EQ(test::error_of([&] { build_problem(s); }),
            "read_vec_bits (--read-vec-bits): a 16-bit vector is narrower than one 32-bit element");
  s = {};
  s.shape = {64, 48};
  EXPECT_EQ(test::error_of([&] { build_problem(s); }), "shape (--shape): 48 is not a power of two from 2 to 32768");
}

// A side may issue ldmatrix / stmatrix: its layout then gives the rows lanes address. The form
// travels through JSON and the flags, and what the hardware does not have is refused.
TEST(ProblemSpec, MatrixSidesAreReadCheckedAndPrinted) {
  const Problem tma = make_preset("tma128_fp16");  // its reader: ldmatrix.x4 rows
  ProblemSpec s;
  s.preset = "";
  s.element_bits = 16;
  s.writer = SpecLayout{tma.store.layout, "w.json"};
  s.reader = SpecLayout{tma.read.layout, "r.json"};
  s.read_matrix = "x4.trans";
  const Problem p = build_problem(s);
  EXPECT_EQ(p.read.ldmatrix, 4);
  EXPECT_TRUE(p.read.trans);
  EXPECT_EQ(instruction_name(p.read, 128), "LDSM.x4.trans");
  EXPECT_EQ(spec_from_json(to_json(s), "spec: '"), s);
  const std::vector<std::string> words = problem_arguments(s);
  EXPECT_NE(fmt::format("{}", fmt::join(words, " ")).find("--read-matrix x4.trans"), std::string::npos);
  ProblemSpec bad = s;
  bad.read_matrix = "x3";
  EXPECT_EQ(test::error_of([&] { build_problem(bad); }),
            "read_matrix (--read-matrix): 'x3' is not x1, x2 or x4 (.trans for the transposing form)");
  bad = s;
  bad.read_vec_bits = 128;
  EXPECT_EQ(test::error_of([&] { build_problem(bad); }),
            "read_matrix (--read-matrix): LDSM.x4.trans moves 16-byte rows: leave out read_vec_bits (--read-vec-bits)");
  bad = s;
  bad.read_matrix = "";
  bad.write_matrix = "x2.trans";
  bad.element_bits = 32;
  EXPECT_EQ(test::error_of([&] { build_problem(bad); }),
            "write_matrix (--write-matrix): STSM.x2.trans does not move 32-bit elements (only 16-bit ones)");
}

TEST(ProblemSpec, SharedLayoutThatIsNotABijectionIsRefusedNamingTheField) {
  // Two offset bits onto the same element: not invertible.
  LinearLayout singular =
      LinearLayout::from_coordinates({{"offset", {{0, 1}, {0, 1}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}, {8, 0}}}},
                                     LinearLayout::out_dims_for_shape({16, 32}));
  ProblemSpec s;
  s.shared = SpecLayout{singular, "s.json"};
  EXPECT_NE(test::error_of([&] { build_problem(s); }).find("shared (--shared): "), std::string::npos);
}

TEST(ProblemSpec, CustomProblemFromTwoLayoutsHasAToggleGrid) {
  ProblemSpec s;
  s.preset = "";
  const Problem seed = make_preset("transpose16x32");
  s.writer = SpecLayout{seed.store.layout, "a.json"};
  s.reader = SpecLayout{seed.read.layout, "b.json"};
  s.element_bits = 32;
  s.masks = {2, 4, 8, 16};
  const Problem p = build_problem(s);
  EXPECT_EQ(p.name, "custom");
  ASSERT_TRUE(p.grid);
  EXPECT_EQ(p.shared, seed.layout_for_masks({2, 4, 8, 16}));
}

TEST(ProblemSpec, ArgumentsRoundTripThroughTheirPrintedForm) {
  const Scratch scratch;
  const std::string a = scratch.write("a.json", seed_layout_json(AccessKind::Store));
  const std::string b = scratch.write("b.json", seed_layout_json(AccessKind::Load));
  std::vector<ProblemArguments> cases(5);
  cases[0].preset = "transpose16x32";
  cases[0].mask = "2,4,8,16";
  cases[1].preset = "transpose16x32";
  cases[1].shape = "64x64";
  cases[1].bits = "16";
  cases[2].src = a;
  cases[2].dst = b;
  cases[2].mask = "1,2,4,8";
  cases[3].preset = "toy8x8";
  cases[3].layout = "xor-row";
  cases[3].banks = "8";
  cases[4].preset = "cute8x8";
  cases[4].layout = "swizzle323";
  for (const ProblemArguments& given : cases) {
    const ProblemSpec spec = parse_problem_arguments(given);
    const std::vector<std::string> words = problem_arguments(spec);
    ProblemArguments printed;
    for (std::size_t i = 0; i + 1 < words.size(); i += 2) printed.slot(words[i]) = words[i + 1];
    EXPECT_EQ(parse_problem_arguments(printed), spec) << fmt::format("{}", fmt::join(words, " "));
  }
}

TEST(ProblemSpec, NamedLayoutOfMasksIsHeldAsMasks) {
  ProblemArguments a;
  a.layout = "xor-2m";
  const ProblemSpec s = parse_problem_arguments(a);
  EXPECT_EQ(s.masks, (std::vector<std::uint32_t>{2, 4, 8, 16}));
  EXPECT_TRUE(s.variant.empty());
}

TEST(ProblemSpec, FlagErrorsNameTheFlag) {
  ProblemArguments a;
  a.banks = "0";
  EXPECT_NE(test::error_of([&] { parse_problem_arguments(a); }).find("banks (--banks): 0 is not allowed"), std::string::npos);
  a = {};
  a.banks = "-4";
  EXPECT_NE(test::error_of([&] { parse_problem_arguments(a); }).find("banks (--banks): -4 is not a power of two"),
            std::string::npos);
  a = {};
  a.shape = "64by64";
  EXPECT_NE(test::error_of([&] { parse_problem_arguments(a); }).find("shape (--shape): '64by64' is not ROWSxCOLS"),
            std::string::npos);
  a = {};
  a.bits = "12";
  EXPECT_NE(test::error_of([&] { parse_problem_arguments(a); }).find("element_bits (--bits): 12 is not 4, 8, 16, 32 or 64"),
            std::string::npos);
  a = {};
  a.mask = "1";
  a.layout = "xor-m";
  EXPECT_EQ(test::error_of([&] { parse_problem_arguments(a); }), "give only one of --mask, --layout and --shared");
}

// problem_flags() is the one table of the arguments: each member has one flag, and
// --spec refuses every other flag (the spec file never gets read).
TEST(ProblemSpec, SpecRefusesEveryOtherFlagOfTheTable) {
  const std::vector<ProblemFlag>& flags = problem_flags();
  EXPECT_EQ(flags.size() * sizeof(std::optional<std::string>), sizeof(ProblemArguments)) << "a member without a flag";
  std::set<std::optional<std::string>*> members;
  ProblemArguments filled;
  for (const ProblemFlag& f : flags) {
    EXPECT_EQ(&filled.slot(f.flag), &(filled.*f.argument)) << f.flag;
    members.insert(&(filled.*f.argument));
  }
  EXPECT_EQ(members.size(), flags.size());
  for (const ProblemFlag& f : flags) {
    if (std::string_view(f.flag) == "--spec") continue;
    ProblemArguments a;
    a.spec = "no_such_spec.json";
    a.*f.argument = "1";
    EXPECT_EQ(test::error_of([&] { parse_problem_arguments(a); }),
              "--spec gives the whole problem: leave out the other problem flags")
        << f.flag;
  }
}

// The regenerating command in an exported header is printed from the spec, and
// running it (read back here as flags) writes the same header byte for byte.
TEST(ProblemSpec, ExportedCommandReproducesTheHeaderByteForByte) {
  const Scratch scratch;
  const std::string a = scratch.write("a.json", seed_layout_json(AccessKind::Store));
  const std::string b = scratch.write("b.json", seed_layout_json(AccessKind::Load));
  std::vector<ProblemArguments> cases(4);
  cases[0].mask = "2,4,8,16";
  cases[1].preset = "transpose16x32";
  cases[1].shape = "64x128";
  cases[1].bits = "16";
  cases[2].src = a;
  cases[2].dst = b;
  cases[2].mask = "2,4,8,16";
  cases[3].preset = "tma128_fp16";
  cases[3].banks = "16";
  for (const ProblemArguments& given : cases) {
    ExportRequest r = ExportRequest::from_spec(parse_problem_arguments(given), "tile");
    r.output = "tile.h";
    const std::string header = export_header(r);
    const PrintedCommand c = read_command(header);
    EXPECT_EQ(c.name, "tile");
    EXPECT_EQ(c.output, "tile.h");
    ExportRequest again = ExportRequest::from_spec(parse_problem_arguments(c.problem), c.name);
    again.output = c.output;
    EXPECT_EQ(export_header(again), header);
  }
}

TEST(ProblemSpec, ShapeTextIsReadStrictly) {
  EXPECT_EQ(parse_shape("64x128"), (std::vector<std::int64_t>{64, 128}));
  EXPECT_NE(test::error_of([] { parse_shape("64x"); }).find("is not ROWSxCOLS"), std::string::npos);
  EXPECT_NE(test::error_of([] { parse_shape("65536x2"); }).find("65536 is not a power of two from 2 to 32768"),
            std::string::npos);
}

}  // namespace
}  // namespace swz
