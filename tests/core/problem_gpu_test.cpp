// A problem's GPU (problem_spec.h "gpu", --gpu): the GPU table's model prices the problem, and the
// spec's JSON form (spec files, sessions, links) and its flags carry the name. Without one the
// problem is the H100's (sm_90), as every spec and link written before the GPU table reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "swz/error.h"
#include "swz/io/link.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/analysis.h"
#include "swz/sim/gpu.h"

namespace swz {
namespace {

std::string gpu_spec_error_of(const nlohmann::json& j, const std::string& where) {
  try {
    (void)spec_from_json(j, where);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

ProblemSpec gfx950_transpose() {
  ProblemSpec s;
  s.preset = "transpose16x32";
  s.shape = {64, 64};  // redrawn for gfx950's 64-lane wavefronts
  s.gpu = "gfx950";
  return s;
}

TEST(ProblemGpu, TheGpusModelPricesTheProblem) {
  const Problem h100 = build_problem(ProblemSpec{});
  EXPECT_EQ(h100.bank.gpu, GpuId::sm_90);  // no GPU named: the H100's model
  for (const GpuModel& g : all_gpus()) {
    ProblemSpec s;
    s.shape = {64, 64};
    s.gpu = g.name;
    const Problem p = build_problem(s);
    EXPECT_EQ(p.bank.gpu, g.bank.gpu) << g.name;
    EXPECT_EQ(p.bank.banks, g.bank.banks) << g.name;
    EXPECT_EQ(p.bank.warp_size, g.bank.warp_size) << g.name;
  }
  // An alias names the same row; a count given beside it that contradicts the GPU is refused.
  ProblemSpec alias;
  alias.shape = {64, 64};
  alias.gpu = "MI355X";
  EXPECT_EQ(build_problem(alias).bank.gpu, GpuId::gfx950);
  ProblemSpec h100_16;
  h100_16.gpu = "h100";
  h100_16.banks = 16;
  try {
    (void)build_problem(h100_16);
    ADD_FAILURE() << "16 banks on the H100 were read";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("banks (--banks): 16 contradicts --gpu h100", 0), 0u) << e.what();
  }
  // gfx950's 64 banks and 64-lane wavefronts price the 64x64 transpose's reads otherwise than the H100.
  ProblemSpec h100_64 = gfx950_transpose();
  h100_64.gpu.clear();
  const ProblemAnalysis a = analyze(build_problem(gfx950_transpose())), b = analyze(build_problem(h100_64));
  EXPECT_NE(a.read.instruction, b.read.instruction);  // DS_READ_B32 against LDS.32
  EXPECT_NE(a.read.simulated.instructions(), b.read.simulated.instructions());  // 64 lanes an instruction, not 32
}

TEST(ProblemGpu, JsonFlagsAndSpecOfCarryTheName) {
  const ProblemSpec s = gfx950_transpose();
  EXPECT_EQ(to_json(s)["gpu"], "gfx950");
  EXPECT_EQ(spec_from_json(to_json(s), "test: '"), s);
  nlohmann::json old = to_json(ProblemSpec{});
  old.erase("gpu");  // a spec file or session written before the GPU table
  EXPECT_EQ(spec_from_json(old, "test: '").gpu, "");
  EXPECT_EQ(build_problem(spec_from_json(old, "test: '")).bank.gpu, GpuId::sm_90);

  const std::vector<std::string> flags = problem_arguments(s);
  ASSERT_NE(std::find(flags.begin(), flags.end(), "--gpu"), flags.end());
  ProblemArguments args;
  args.preset = "transpose16x32";
  args.shape = "64x64";
  args.gpu = "gfx950";
  EXPECT_EQ(parse_problem_arguments(args), s);
  ProblemSpec b200;  // a preset on another GPU of 32-lane warps: spec_of names the GPU again
  b200.gpu = "b200";
  const std::optional<ProblemSpec> again = spec_of(build_problem(b200));
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->gpu, "sm_100");
  EXPECT_EQ(build_problem(*again).bank.gpu, GpuId::sm_100);
}

TEST(ProblemGpu, AnUnknownNameIsOneLineNamingThePlace) {
  nlohmann::json j = to_json(ProblemSpec{});
  j["gpu"] = "gfx9000";
  const std::string session = gpu_spec_error_of(j, "session file: 'problem.");
  EXPECT_EQ(session.rfind("session file: 'problem.gpu': unknown GPU \"gfx9000\"", 0), 0u) << session;
  EXPECT_EQ(session.find('\n'), std::string::npos) << session;
  j["gpu"] = 950;
  EXPECT_NE(gpu_spec_error_of(j, "x.json: '").find("x.json: 'gpu' must be a string"), std::string::npos);

  ProblemArguments args;
  args.gpu = "h1000";
  try {
    (void)parse_problem_arguments(args);
    ADD_FAILURE() << "h1000 was read";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("gpu (--gpu): unknown GPU \"h1000\"", 0), 0u) << e.what();
  }
}

TEST(ProblemGpu, LinksCarryTheGpuAndOldLinksAreTheH100s) {
  WorkbenchLink link;
  link.problem = gfx950_transpose();
  const WorkbenchLink back = parse_link(make_link(link, "https://example.org/"));
  ASSERT_TRUE(back.problem.has_value());
  EXPECT_EQ(back.problem->gpu, "gfx950");
  EXPECT_EQ(build_problem(*back.problem).bank.gpu, GpuId::gfx950);

  const WorkbenchLink old = parse_link("#v=1&preset=transpose16x32");  // a link from before the GPU table
  EXPECT_EQ(old.problem->gpu, "");
  EXPECT_EQ(build_problem(*old.problem).bank.gpu, GpuId::sm_90);

  nlohmann::json j = {{"preset", "transpose16x32"}, {"gpu", "gfx9000"}};
  try {
    (void)parse_link("#v=1&problem=" + base64url_encode(j.dump()));
    ADD_FAILURE() << "gfx9000 was read";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("link: 'problem.gpu': unknown GPU \"gfx9000\"", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace swz
