// The AMD corpus (amd_corpus.h): read, refused with the place named, and replayed on the GPU models.
#include "swz/sim/amd_corpus.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "swz/error.h"

namespace {

std::string amd_line(const std::string& gpu, const std::string& instruction, const std::string& addresses, int insts,
                     int conflict, const std::string& extra = "") {
  return R"({"format": "amd-lds", "gpu": ")" + gpu + R"(", "device": "d", "date": "2026-11-28", "case": 0, "instruction": ")" +
         instruction + R"(", "repeat": 1, "waves": 1, "addresses": [)" + addresses + R"(], "SQ_INSTS_LDS": )" +
         std::to_string(insts) + R"(, "SQ_LDS_BANK_CONFLICT": )" + std::to_string(conflict) + extra + "}";
}

// 64 lanes: lane a at byte `at_a`, lane b at byte `at_b`, the rest inactive.
std::string two_lanes(int a, int at_a, int b, int at_b) {
  std::string out;
  for (int lane = 0; lane < 64; ++lane) out += (lane ? ", " : "") + std::to_string(lane == a ? at_a : lane == b ? at_b : -1);
  return out;
}

std::string replay_text(const std::string& corpus) {
  std::istringstream in(corpus);
  swz::AmdReplayReport report;
  swz::replay_amd_into(report, swz::read_amd_corpus(in, "t.jsonl"), "t.jsonl");
  return swz::to_text(report);
}

TEST(AmdCorpus, LinesAreRecognised) {
  EXPECT_TRUE(swz::is_amd_corpus_line(amd_line("gfx950", "ds_read_b64", two_lanes(0, 0, 1, 256), 1, 1)));
  EXPECT_FALSE(swz::is_amd_corpus_line(R"({"device": "NVIDIA H100", "kind": "LDS.32"})"));
  EXPECT_FALSE(swz::is_amd_corpus_line("not json"));
}

TEST(AmdCorpus, ConflictPresenceAgreesWithTheModel) {
  // gfx950 ds_read_b64: lanes 0 and 1 share a phase (HipKittens), 0 and 32 do not.
  EXPECT_NE(replay_text(amd_line("gfx950", "ds_read_b64", two_lanes(0, 0, 1, 256), 1, 1)).find("amd: 1 cases, 1 agree"),
            std::string::npos);
  EXPECT_NE(replay_text(amd_line("gfx950", "ds_read_b64", two_lanes(0, 0, 32, 256), 1, 0)).find("amd: 1 cases, 1 agree"),
            std::string::npos);
  const std::string wrong = replay_text(amd_line("gfx950", "ds_read_b64", two_lanes(0, 0, 32, 256), 1, 5));
  EXPECT_NE(wrong.find("1 disagree"), std::string::npos) << wrong;
  EXPECT_NE(wrong.find("t.jsonl:1: case 0 (gfx950, ds_read_b64): "), std::string::npos) << wrong;
  EXPECT_NE(wrong.find("the model predicts no conflict, SQ_LDS_BANK_CONFLICT is 5"), std::string::npos) << wrong;
}

TEST(AmdCorpus, CyclesPerExtraPassMakesTheCountExact) {
  const std::string pair = two_lanes(0, 0, 1, 256);
  EXPECT_NE(replay_text(amd_line("gfx950", "ds_read_b64", pair, 1, 3, R"(, "cycles_per_extra_pass": 3)")).find("1 agree"),
            std::string::npos);
  EXPECT_NE(replay_text(amd_line("gfx950", "ds_read_b64", pair, 1, 4, R"(, "cycles_per_extra_pass": 3)")).find("1 disagree"),
            std::string::npos);
}

TEST(AmdCorpus, InstructionCountMustMatch) {
  const std::string text = replay_text(amd_line("gfx942", "ds_write_b32", two_lanes(0, 0, 1, 4), 2, 0));
  EXPECT_NE(text.find("SQ_INSTS_LDS is 2, the line's repeat x waves is 1"), std::string::npos) << text;
}

TEST(AmdCorpus, BadLinesNameTheFileAndLine) {
  auto error_of_amd = [](const std::string& corpus) {
    std::istringstream in(corpus);
    try {
      swz::read_amd_corpus(in, "bad.jsonl");
    } catch (const swz::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of_amd(amd_line("gfx950", "ds_read_b96", two_lanes(0, 0, 1, 16), 1, 0))
                .find("bad.jsonl:1: \"ds_read_b96\" is not an LDS instruction of gfx950"),
            std::string::npos);
  EXPECT_NE(error_of_amd(amd_line("sm_90", "ds_read_b64", two_lanes(0, 0, 1, 16), 1, 0)).find("not an AMD GPU"),
            std::string::npos);
  EXPECT_NE(error_of_amd("\n" + amd_line("gfx950", "ds_read_b64", "0, 8", 1, 0))
                .find("bad.jsonl:2: \"addresses\" must be a list of 64"),
            std::string::npos);
  EXPECT_NE(error_of_amd(amd_line("gfx950", "ds_read_b128", two_lanes(0, 0, 1, 8), 1, 0)).find("bad.jsonl:1: lane 1"),
            std::string::npos);
  EXPECT_NE(error_of_amd(amd_line("no-such-gpu", "ds_read_b64", two_lanes(0, 0, 1, 8), 1, 0)).find("bad.jsonl:1: "),
            std::string::npos);
  EXPECT_NE(error_of_amd(amd_line("gfx950", "ds_read_b64", two_lanes(0, 0, 1, 8), 1, 0, R"(, "extra": 1)"))
                .find("unknown key \"extra\""),
            std::string::npos);
}

TEST(AmdCorpus, FormatExampleReplaysAndSaysItMeasuresNothing) {
  swz::AmdReplayReport report;
  swz::replay_amd_into(report, swz::read_amd_corpus_file(std::string(SWZ_TEST_DATA_DIR) + "/amd/format-example.jsonl"));
  EXPECT_EQ(report.all.cases, 6);
  EXPECT_EQ(report.all.agree, 6) << swz::to_text(report);
  EXPECT_EQ(report.examples, 6);
  EXPECT_NE(swz::to_text(report).find("6 of them format examples, not measurements"), std::string::npos);
}

}  // namespace
