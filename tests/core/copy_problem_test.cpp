// A problem's writer as a cp.async with a global side (problem_spec.h: write_copy, global_dim,
// global_pitch, global_layout): where each lane reads, what the copy costs for it (warp_access.h
// rule 4, measured on the H100 and an H200: tests/data/hardware/h200-sm90-ldgsts-*.jsonl), the
// global sectors it reads, and the solver's answer priced the same everywhere.
#include <gtest/gtest.h>

#include "swz/io/link.h"
#include "swz/layout/factories.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/analysis.h"
#include "swz/sim/global_side.h"
#include "swz/solve/solve_report.h"
#include "test_support.h"

namespace swz {
namespace {

using test::error_of;

// A 32x8 fp32 tile copied by 4-byte cp.async.ca: 8 lanes a row, 4 rows an instruction (one phase).
ProblemSpec narrow_copy_spec(std::int64_t pitch) {
  ProblemSpec s;
  s.preset = "transpose16x32";
  s.shape = {32, 8};
  s.element_bits = 32;
  s.write_vec_bits = 32;
  s.write_copy = "ca";
  s.global_pitch = pitch;
  return s;
}

TEST(CopyProblem, DefaultPitchPlacesRowsAsBefore) {
  ProblemSpec s;
  s.preset = "tma128_fp16";
  s.write_copy = "ca";
  const Problem p = build_problem(s);
  ASSERT_TRUE(p.store.async_copy);
  EXPECT_EQ(p.store.global_contiguous_dim, 1);  // the last dim: a row-major global tensor
  ProblemSpec explicit_pitch = s;
  explicit_pitch.global_pitch = 128;  // 64 fp16 = one 128-byte row
  const Problem q = build_problem(explicit_pitch);
  const AccessResult r = simulate(p.store, p.shared, p.element_bits, p.bank);
  for (int warp = 0; warp < r.warps; ++warp)
    for (int step = 0; step < r.steps; ++step) {
      const WarpRequest a = warp_request(p.store, p.shared, p.element_bits, p.bank, warp, step);
      const WarpRequest b = warp_request(q.store, q.shared, q.element_bits, q.bank, warp, step);
      EXPECT_EQ(a.global, b.global);
      // The placement before a problem could state one: rows a multiple of 128 bytes apart.
      for (const LaneAccess& l : trace_instruction(p.store, p.shared, p.element_bits, p.bank, warp, step).lanes)
        EXPECT_EQ(a.global[static_cast<std::size_t>(l.lane)], global_source_address(p.store.layout, l.coord, 1, 16));
    }
  EXPECT_EQ(analyze(p).store.instruction, "LDGSTS.128");  // .ca at 16 bytes: named, and modelled
  EXPECT_TRUE(analyze(p).store.simulated.modelled);
}

// The default pitch, one rule for the source addresses, the copy's vector and the placement the
// outputs print: the smallest multiple of 128 bytes that holds a row, 128 at least; a given pitch stands.
TEST(CopyProblem, DefaultPitchIsTheSmallestMultipleOf128ThatHoldsARow) {
  EXPECT_EQ(global_row_pitch(/*row_bytes=*/1, /*pitch_bytes=*/0), 128);
  EXPECT_EQ(global_row_pitch(/*row_bytes=*/128, /*pitch_bytes=*/0), 128);
  EXPECT_EQ(global_row_pitch(/*row_bytes=*/129, /*pitch_bytes=*/0), 256);
  EXPECT_EQ(global_row_pitch(/*row_bytes=*/544, /*pitch_bytes=*/0), 640);
  EXPECT_EQ(global_row_pitch(/*row_bytes=*/32, /*pitch_bytes=*/160), 160);
  const Problem p = build_problem(narrow_copy_spec(/*pitch=*/0));  // rows of 8 fp32: 32 bytes
  EXPECT_EQ(p.copy_placement, "rows 128 bytes apart (the default), contiguous along dim1");
  const BitVec row1 = p.store.layout.flatten({1, 0});  // row 1, column 0
  EXPECT_EQ(global_source_address(p.store.layout, row1, /*contiguous_dim=*/1, /*element_bits=*/32), 128);
}

// The writer's 32 lanes take 2 lanes a row over 16 rows, one 4-byte column each. Rows 128 bytes
// apart put a column of every row in one source bank: the 16 rows queue on two source banks (rule 4:
// 16 turns). Rows packed 32 bytes apart, or 160 apart (160 mod 128 = 32), spread them over the banks
// as the shared side does: 4, the shared side's own count.
TEST(CopyProblem, PitchChangesTheCopysCost) {
  EXPECT_EQ(analyze(build_problem(narrow_copy_spec(0))).store.simulated.wavefronts, 16);
  EXPECT_EQ(analyze(build_problem(narrow_copy_spec(128))).store.simulated.wavefronts, 16);
  EXPECT_EQ(analyze(build_problem(narrow_copy_spec(1024))).store.simulated.wavefronts, 16);
  EXPECT_EQ(analyze(build_problem(narrow_copy_spec(32))).store.simulated.wavefronts, 4);
  EXPECT_EQ(analyze(build_problem(narrow_copy_spec(160))).store.simulated.wavefronts, 4);
  const AccessAnalysis a = analyze(build_problem(narrow_copy_spec(128))).store;
  EXPECT_NE(a.difference.find("source banks' turns make 16"), std::string::npos) << a.difference;
}

TEST(CopyProblem, CopyTraceIsServesCount) {
  for (const std::int64_t pitch : {32, 64, 128, 160, 200}) {
    const Problem p = build_problem(narrow_copy_spec(pitch));
    const AccessResult r = simulate(p.store, p.shared, p.element_bits, p.bank);
    for (int step = 0; step < r.steps; ++step) {
      const WarpRequest q = warp_request(p.store, p.shared, p.element_bits, p.bank, 0, step);
      const CopyTrace t = copy_trace(q, p.bank);
      EXPECT_EQ(t.phase_wavefronts, serve(q, p.bank).pass_wavefronts) << "pitch " << pitch << " step " << step;
      for (const CopyLane& l : t.lanes) {
        EXPECT_EQ(l.line, l.global / 128);
        EXPECT_LE(l.read_turn, l.reads_of_source);
      }
    }
  }
}

TEST(CopyProblem, SectorsPerRequest) {
  // 32 lanes x 4 bytes over 16 rows: a sector a row (ideal: 128 bytes, 4 sectors), a line a row
  // when rows are 128 bytes apart, four rows a line when packed 32 bytes apart.
  const Problem p = build_problem(narrow_copy_spec(128));
  const GlobalRequests g = global_requests(p.store, p.shared, p.element_bits, p.bank);
  EXPECT_EQ(g.sectors_per_request, 16.0);
  EXPECT_EQ(g.worst_sectors, 16);
  EXPECT_EQ(g.ideal_sectors, 4);
  EXPECT_EQ(g.lines_per_request, 16.0);
  EXPECT_EQ(g.total_sectors, 8 * 16);
  const Problem packed = build_problem(narrow_copy_spec(32));
  EXPECT_EQ(global_requests(packed.store, packed.shared, packed.element_bits, packed.bank).lines_per_request, 4.0);
}

// A copy moves consecutive bytes on both sides: with the tile's rows contiguous in global memory
// (global_dim 0) each lane's registers along a row are 128 bytes apart there, so it copies 4 bytes.
TEST(CopyProblem, VectorEndsWhereGlobalMemorysDoes) {
  ProblemSpec s;
  s.preset = "tma128_fp16";
  s.write_copy = "ca";
  EXPECT_EQ(analyze(build_problem(s)).store.simulated.vector.bits, 128);
  s.global_dim = 0;
  const AccessAnalysis a = analyze(build_problem(s)).store;
  EXPECT_EQ(a.simulated.vector.bits, 16);
  EXPECT_NE(a.simulated.vector.limit.find("global"), std::string::npos) << a.simulated.vector.limit;
  EXPECT_EQ(a.instruction, "LDGSTS.32");
  s.global_dim.reset();
  s.global_pitch = 136;  // rows 8 bytes off a 16-byte boundary: 8-byte copies
  EXPECT_EQ(analyze(build_problem(s)).store.simulated.vector.bits, 64);
}

TEST(CopyProblem, BadGlobalSideNamesTheField) {
  ProblemSpec s = narrow_copy_spec(130);
  EXPECT_NE(error_of([&] { build_problem(s); }).find("global_pitch (--global-pitch): 130 bytes is not a whole number of 32-bit"),
            std::string::npos);
  s.global_pitch = 16;
  EXPECT_NE(error_of([&] { build_problem(s); }).find("the rows would overlap"), std::string::npos);
  s.global_pitch = -128;
  EXPECT_NE(error_of([&] { build_problem(s); }).find("global_pitch (--global-pitch)"), std::string::npos);
  s.global_pitch = kMaxGlobalPitch * 2;
  EXPECT_NE(error_of([&] { build_problem(s); }).find("global_pitch (--global-pitch)"), std::string::npos);
  s.global_pitch = 0;
  s.global_dim = 2;
  EXPECT_NE(error_of([&] { build_problem(s); }).find("global_dim (--global-dim): 2 is not a dim of the 32x8 tile"),
            std::string::npos);
  s.global_dim.reset();
  s.write_copy = "cx";
  EXPECT_NE(error_of([&] { build_problem(s); }).find("write_copy (--write-copy): 'cx' is not ca or cg"), std::string::npos);
  s.write_copy = "cg";  // 4-byte copies
  EXPECT_NE(error_of([&] { build_problem(s); }).find("cp.async.cg copies 16 bytes"), std::string::npos);
  s.write_copy.clear();
  s.global_pitch = 256;
  EXPECT_NE(error_of([&] { build_problem(s); }).find("global_pitch (--global-pitch): places a cp.async copy's source, but the writer "
                                                     "is no copy"),
            std::string::npos);
  ProblemSpec g = narrow_copy_spec(0);
  g.global_layout = SpecLayout{row_major({16, 8}).linear(), "small.json"};
  EXPECT_NE(error_of([&] { build_problem(g); }).find("global_layout (--global-layout): small.json covers a 16x8 tensor but the "
                                                     "problem's tile is 32x8"),
            std::string::npos);
  g.global_layout = SpecLayout{row_major({32, 8}).linear(), "g.json"};
  g.global_pitch = 64;
  EXPECT_NE(error_of([&] { build_problem(g); }).find("global_layout (--global-layout): given beside global_pitch"), std::string::npos);
  ProblemArguments args;
  args.preset = "tma128_fp16";
  args.write_copy = "ca";
  for (const char* bad : {"0", "-128", "99999999999999999999", "12x"}) {
    args.global_pitch = bad;
    EXPECT_NE(error_of([&] { parse_problem_arguments(args); }).find("global_pitch (--global-pitch): '"), std::string::npos) << bad;
  }
}

// A global layout places each element itself: the row-major layout is the packed pitch.
TEST(CopyProblem, GlobalLayoutAsAPitch) {
  ProblemSpec g = narrow_copy_spec(0);
  g.global_layout = SpecLayout{row_major({32, 8}).linear(), "packed"};
  const Problem by_layout = build_problem(g);
  const Problem by_pitch = build_problem(narrow_copy_spec(32));
  EXPECT_EQ(analyze(by_layout).store.simulated.per_instruction, analyze(by_pitch).store.simulated.per_instruction);
  EXPECT_EQ(global_requests(by_layout.store, by_layout.shared, 32, by_layout.bank).total_sectors,
            global_requests(by_pitch.store, by_pitch.shared, 32, by_pitch.bank).total_sectors);
}

TEST(CopyProblem, SpecTravelsThroughJsonAndLinks) {
  ProblemSpec s = narrow_copy_spec(160);
  s.global_dim = 1;
  EXPECT_EQ(spec_from_json(to_json(s), "t: '"), s);
  WorkbenchLink link;
  link.problem = s;
  EXPECT_EQ(parse_link(make_link(link)).problem, s);
  ProblemSpec l = narrow_copy_spec(0);
  l.global_layout = SpecLayout{row_major({32, 8}).linear(), "packed"};
  link.problem = l;
  EXPECT_EQ(build_problem(*parse_link(make_link(link)).problem).store.global_bytes->size(), 256u);
  const auto flags = problem_arguments(s);
  EXPECT_NE(std::find(flags.begin(), flags.end(), "--global-pitch"), flags.end());
  EXPECT_NE(std::find(flags.begin(), flags.end(), "--write-copy"), flags.end());
}

// One answer everywhere: the solver's answer for a copy, stated as a spec and analyzed, costs what
// solve reports, and reads no more global sectors than the problem's own copy.
TEST(CopyProblem, SolvedCopyIsPricedAsAnalyzeAndReadsNoMore) {
  std::vector<ProblemSpec> specs = {narrow_copy_spec(128), narrow_copy_spec(160), narrow_copy_spec(32)};
  for (const char* preset : {"tma128_fp16", "ldmatrix_a_fp16", "transpose128_fp16_4w"}) {
    ProblemSpec s;
    s.preset = preset;
    const Problem plain = build_problem(s);
    const std::int64_t row_bytes = plain.shape[1] * plain.element_bits / 8;
    s.write_copy = "ca";
    for (const std::int64_t pitch : {std::int64_t{0}, row_bytes + 16, row_bytes + 144}) {  // aligned, and 16 / 144 bytes off
      s.global_pitch = pitch;
      specs.push_back(s);
    }
  }
  for (const ProblemSpec& s : specs) {
    SCOPED_TRACE(to_json(s).dump());
    Problem own;
    try {
      own = build_problem(s);
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    const SolveReport report = solve_spec(s);
    ASSERT_TRUE(report.copy_own && report.copy_answer);
    EXPECT_LE(report.copy_answer->total_sectors, report.copy_own->total_sectors);
    const Problem answered = build_problem(answered_spec(s, report.result));
    const ProblemAnalysis a = analyze(answered);
    EXPECT_EQ(a.store.simulated.wavefronts, report.result.write_cost.wavefronts);
    EXPECT_EQ(a.store.simulated.total_wavefronts, report.result.write_cost.total_wavefronts);
    EXPECT_EQ(a.read.simulated.wavefronts, report.result.read_cost.wavefronts);
    const GlobalRequests g = global_requests(answered.store, answered.shared, answered.element_bits, answered.bank);
    EXPECT_EQ(g.total_sectors, report.copy_answer->total_sectors);
    EXPECT_EQ(g.sectors_per_request, report.copy_answer->sectors_per_request);
    const nlohmann::json j = to_json(report);
    EXPECT_EQ(j["write"]["global"]["sectors_per_request"], g.sectors_per_request);
    EXPECT_EQ(to_json(a, answered)["store"]["global"]["sectors_per_request"], g.sectors_per_request);
  }
}

}  // namespace
}  // namespace swz
