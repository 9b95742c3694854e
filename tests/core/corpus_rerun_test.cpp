// The cp.async counter measured twice: the H100's corpus of 2026-11-25 issued again, copy for
// copy, on an H200 (2026-11-28, tests/gpu/ldgsts/). What the rule for copies that move data may
// assume: the per-instruction counter is a function of the lanes' shared and global addresses,
// the same on both sm_90 parts and from run to run.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "swz/sim/corpus.h"

namespace swz {
namespace {

using Key = std::tuple<std::string, std::string, std::vector<std::int64_t>, std::vector<std::int64_t>>;

// A lane that moves no data is -1 in the H100's lines (its pointer not recorded) and -2 - X in the
// H200's (pointing at X): the same copy either way.
Key key_of(const CorpusCase& c) {
  std::vector<std::int64_t> global = c.request.global;
  for (std::int64_t& g : global) g = std::max<std::int64_t>(g, -1);
  return {c.request.kind.name(), c.pattern, c.request.address, global};
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string hardware(const std::string& name) { return std::string(SWZ_TEST_DATA_DIR) + "/hardware/" + name; }

TEST(CorpusRerun, CpAsyncCountsAreTheSameOnTheH200AsOnTheH100) {
  std::map<Key, std::int64_t> h100;
  for (const CorpusCase& c : read_corpus_file(hardware("h100-sm90-ldgsts-20261125.jsonl"))) h100[key_of(c)] = c.wavefronts;
  int ca = 0, cg_plain = 0, cg_zfill = 0, cg_zfill_same = 0;
  for (const CorpusCase& c : read_corpus_file(hardware("h200-sm90-ldgsts-rerun-20261125-20261128.jsonl"))) {
    ASSERT_EQ(c.device, "NVIDIA H200");
    const auto it = h100.find(key_of(c));
    ASSERT_NE(it, h100.end()) << "line " << c.line << " is not a case of the H100 corpus";
    if (!c.request.kind.bypass) {
      EXPECT_EQ(c.wavefronts, it->second) << "line " << c.line;
      ++ca;
    } else if (ends_with(c.pattern, ", live")) {  // issued without a src-size operand
      EXPECT_EQ(c.wavefronts, it->second) << "line " << c.line;
      ++cg_plain;
    } else {  // .cg with its src-size in a register: the counts of the two probes part (README)
      ++cg_zfill;
      cg_zfill_same += c.wavefronts == it->second;
    }
  }
  EXPECT_EQ(ca, 1407);
  EXPECT_EQ(cg_plain, 96);
  EXPECT_EQ(cg_zfill, 415);
  EXPECT_EQ(cg_zfill_same, 201);
}

// The designed families of 2026-11-28 end with their first 30 cases run again: equal counts.
TEST(CorpusRerun, ACaseRunTwiceCountsTheSame) {
  const std::vector<CorpusCase> cases = read_corpus_file(hardware("h200-sm90-ldgsts-20261128.jsonl"));
  ASSERT_GE(cases.size(), 282u);
  for (int i = 0; i < 30; ++i) {
    EXPECT_EQ(key_of(cases[static_cast<std::size_t>(i)]), key_of(cases[static_cast<std::size_t>(252 + i)]));
    EXPECT_EQ(cases[static_cast<std::size_t>(i)].wavefronts, cases[static_cast<std::size_t>(252 + i)].wavefronts) << i;
  }
}

}  // namespace
}  // namespace swz
