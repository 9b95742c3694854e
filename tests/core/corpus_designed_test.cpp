// designed_copy_cases(): the cp.async families `swizzle calibrate --designed` measures are the ones
// measured on an H200 (tests/gpu/ldgsts/gen.py, set "forms"; h200-sm90-ldgsts-20261128.jsonl).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "swz/error.h"
#include "swz/sim/corpus.h"
#include "test_support.h"

namespace swz {
namespace {

std::vector<InstructionKind> copy_kinds() {
  std::vector<InstructionKind> k;
  for (const InstructionKind& i : all_instruction_kinds())
    if (i.op == WarpOp::AsyncCopy) k.push_back(i);
  return k;
}

TEST(DesignedCopies, EveryCopyKindGetsEverySharedAndSourcePattern) {
  const std::vector<CorpusCase> cases = designed_copy_cases(all_instruction_kinds());
  std::map<std::string, std::set<std::string>> patterns;
  for (const CorpusCase& c : cases) {
    EXPECT_EQ(c.request.kind.op, WarpOp::AsyncCopy) << c.pattern;
    patterns[c.request.kind.name()].insert(c.pattern);
  }
  EXPECT_EQ(patterns.size(), copy_kinds().size());
  for (const auto& [kind, names] : patterns) {
    EXPECT_EQ(names.size(), 6u * 7u) << kind;
    EXPECT_TRUE(names.count("k-walk <- masked")) << kind;
  }
  EXPECT_EQ(designed_copy_cases(copy_kinds()).size(), cases.size()) << "the same cases every run";
}

TEST(DesignedCopies, AreTheFamiliesMeasuredOnTheH200) {
  std::map<std::string, CorpusCase> measured;  // "LDGSTS.128 contig <- l128" -> the measured copy
  for (const CorpusCase& c : read_corpus_file(std::string(SWZ_TEST_DATA_DIR) + "/hardware/h200-sm90-ldgsts-20261128.jsonl")) {
    const std::string suffix = ", src-size operand";
    if (c.pattern.size() > suffix.size() && c.pattern.ends_with(suffix))
      measured[c.request.kind.name() + " " + c.pattern.substr(0, c.pattern.size() - suffix.size())] = c;
  }
  int compared = 0;
  for (const CorpusCase& c : designed_copy_cases(copy_kinds())) {
    const auto m = measured.find(c.request.kind.name() + " " + c.pattern);
    if (m == measured.end()) continue;
    ++compared;
    EXPECT_EQ(c.request.address, m->second.request.address) << c.pattern;
    // a lane that moves no data: -2 (pointing at byte 0, as the probe points it) here, -1 in the .ca lines
    auto moved = [](std::vector<std::int64_t> g) {
      for (std::int64_t& x : g) x = std::max<std::int64_t>(x, -1);
      return g;
    };
    EXPECT_EQ(moved(c.request.global), moved(m->second.request.global)) << c.pattern;
    const Service s = serve(c.request, BankModel{});
    if (s.modelled) EXPECT_EQ(s.wavefronts, m->second.wavefronts) << c.request.kind.name() << " " << c.pattern;
  }
  // .ca 4 and 16 bytes and .cg: 6 shared x 6 sources each (the scatter is drawn anew)
  EXPECT_EQ(compared, 3 * 6 * 6);
}

TEST(DesignedCopies, WithoutACopyKindThereIsNothingToDesign) {
  EXPECT_NE(test::error_of([] { (void)designed_copy_cases({*parse_instruction_kind("LDS.32")}); }).find("no cp.async"),
            std::string::npos);
  EXPECT_NE(test::error_of([] { (void)designed_copy_cases(all_instruction_kinds(), 1000); }).find("1000 bytes"),
            std::string::npos);
}

}  // namespace
}  // namespace swz
