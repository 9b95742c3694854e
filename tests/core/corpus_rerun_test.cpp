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

// The copy, whatever its form: a lane that moves no data is -1 in the H100's lines (its pointer
// not recorded) and -2 - X in the H200's (pointing at X); a lane that sits a plain copy out is -1
// in the H100's and gives the registers it held in the H200's (address -2 - X); the kind is named
// in its src-size form.
Key key_of(const CorpusCase& c) {
  std::vector<std::int64_t> address = c.request.address, global = c.request.global;
  for (std::int64_t& g : global) g = std::max<std::int64_t>(g, -1);
  if (!c.request.kind.src_size)
    for (std::size_t l = 0; l < address.size(); ++l)
      if (address[l] < 0 || global[l] < 0) address[l] = -1, global[l] = -1;
  InstructionKind kind = c.request.kind;
  kind.src_size = true;
  return {kind.name(), c.pattern, address, global};
}

std::string hardware(const std::string& name) { return std::string(SWZ_TEST_DATA_DIR) + "/hardware/" + name; }

// Every .ca copy counts the same, in either form. A .cg copy issued in the form it had on the H100
// counts the same wherever every lane moves data (208 of 208: the 96 ", live" copies without
// src-size, 112 with it); where a lane moves no data its pointer was not recorded on the H100, and
// 89 of those 239 count the same. The H100's "random" and "tile" .cg copies (the plain form,
// h100-sm90-ldgsts-20261125.md) were issued on the H200 with src-size: none of the 64 counts the same.
TEST(CorpusRerun, CpAsyncCountsAreTheSameOnTheH200AsOnTheH100) {
  std::map<Key, CorpusCase> h100;
  for (const CorpusCase& c : read_corpus_file(hardware("h100-sm90-ldgsts-20261125.jsonl"))) h100[key_of(c)] = c;
  int ca = 0, cg_moving = 0, cg_masked = 0, cg_masked_same = 0, cg_other_form = 0, cg_other_form_same = 0;
  for (const CorpusCase& c : read_corpus_file(hardware("h200-sm90-ldgsts-rerun-20261125-20261128.jsonl"))) {
    ASSERT_EQ(c.device, "NVIDIA H200");
    const auto it = h100.find(key_of(c));
    ASSERT_NE(it, h100.end()) << "line " << c.line << " is not a case of the H100 corpus";
    const CorpusCase& then = it->second;
    const auto& a = c.request.address;
    const auto& g = c.request.global;
    bool every_lane_moves = true;
    for (std::size_t l = 0; l < a.size(); ++l) every_lane_moves = every_lane_moves && (a[l] < 0 || g[l] >= 0);
    if (!c.request.kind.bypass) {
      EXPECT_EQ(c.wavefronts, then.wavefronts) << "line " << c.line;
      ++ca;
    } else if (c.request.kind.src_size != then.request.kind.src_size) {
      ++cg_other_form;
      cg_other_form_same += c.wavefronts == then.wavefronts;
    } else if (every_lane_moves) {
      EXPECT_EQ(c.wavefronts, then.wavefronts) << "line " << c.line;
      ++cg_moving;
    } else {
      ++cg_masked;
      cg_masked_same += c.wavefronts == then.wavefronts;
    }
  }
  EXPECT_EQ(ca, 1407);
  EXPECT_EQ(cg_moving, 208);
  EXPECT_EQ(cg_masked, 239);
  EXPECT_EQ(cg_masked_same, 89);
  EXPECT_EQ(cg_other_form, 64);
  EXPECT_EQ(cg_other_form_same, 0);
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
