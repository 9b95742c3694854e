// The GPU table (gpu.h): each fact beside its source, and the AMD LDS phases as published.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "swz/error.h"
#include "swz/sim/bank.h"
#include "swz/sim/gpu.h"
#include "swz/sim/warp_access.h"

namespace swz {
namespace {

std::string gpu_error_of(const auto& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

InstructionKind amd_read(int bytes) { return {WarpOp::Load, bytes, 0, false}; }
InstructionKind amd_write(int bytes) { return {WarpOp::Store, bytes, 0, false}; }
InstructionKind amd_read_tr() { return {WarpOp::Load, 8, 0, true}; }

// The phases of `kind` on `gpu` as sets of lanes.
std::set<std::vector<int>> phase_groups(const InstructionKind& kind, const GpuModel& gpu) {
  const LanePhases phases = phases_of(kind, gpu.bank);
  std::set<std::vector<int>> groups;
  const int count = gpu.bank.warp_size / phases.lanes_per_phase;
  for (int p = 0; p < count; ++p) groups.insert(phases.lanes_of(p, gpu.bank.warp_size));
  return groups;
}

// Lanes first..last (inclusive) of each range, in one phase.
std::vector<int> lanes_in(std::initializer_list<std::pair<int, int>> ranges) {
  std::vector<int> lanes;
  for (auto [first, last] : ranges)
    for (int l = first; l <= last; ++l) lanes.push_back(l);
  std::sort(lanes.begin(), lanes.end());
  return lanes;
}

std::set<std::vector<int>> runs_of(int lanes_per_phase, int lanes) {
  std::set<std::vector<int>> groups;
  for (int first = 0; first < lanes; first += lanes_per_phase) groups.insert(lanes_in({{first, first + lanes_per_phase - 1}}));
  return groups;
}

TEST(GpuTable, DefaultModelIsTheH100) {
  // A default BankModel is exactly sm_90's: every existing count and replay stays as it was.
  EXPECT_EQ(BankModel{}, gpu_named("sm_90").bank);
  EXPECT_EQ(&gpu_named("h100"), &gpu_named("H200"));
  EXPECT_EQ(&gpu_named("hopper"), &all_gpus().front());
  EXPECT_EQ(gpu_of(BankModel{}).name, "sm_90");
}

TEST(GpuTable, NamesAndAliasesAnyCase) {
  EXPECT_EQ(gpu_named("A100").name, "sm_80");
  EXPECT_EQ(gpu_named("b200").name, "sm_100");
  EXPECT_EQ(gpu_named("Blackwell").name, "sm_100");
  EXPECT_EQ(gpu_named("MI300X").name, "gfx942");
  EXPECT_EQ(gpu_named("mi325x").name, "gfx942");
  EXPECT_EQ(gpu_named("MI355X").name, "gfx950");
  EXPECT_EQ(gpu_named("GFX950").name, "gfx950");
  for (const GpuModel& g : all_gpus()) EXPECT_EQ(&gpu_named(g.name), &g) << g.name;
}

TEST(GpuTable, UnknownNameIsOneLineWithTheKnownAndTheNearest) {
  const std::string message = gpu_error_of([] { gpu_named("mi301x"); });
  EXPECT_NE(message.find("unknown GPU \"mi301x\""), std::string::npos) << message;
  EXPECT_NE(message.find("nearest: mi300x"), std::string::npos) << message;
  EXPECT_NE(message.find("gfx950 (MI350X, MI355X)"), std::string::npos) << message;
  EXPECT_NE(message.find("sm_90 (H100, H200)"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

// NVIDIA: 32 banks of 4 bytes (CUDA C++ Programming Guide, "Shared Memory", compute capability
// 5.x and later); shared memory per SM from its "Technical Specifications per Compute Capability".
TEST(GpuTable, NvidiaFactsFromTheCudaGuideAndPtxIsa) {
  for (const char* name : {"sm_80", "sm_90", "sm_100"}) {
    const GpuModel& g = gpu_named(name);
    EXPECT_EQ(g.vendor, Vendor::Nvidia);
    EXPECT_EQ(g.bank.banks, 32) << name;
    EXPECT_EQ(g.bank.bank_bytes, 4) << name;
    EXPECT_EQ(g.bank.warp_size, 32) << name;
    EXPECT_TRUE(g.has({WarpOp::LoadMatrix, 16, 4, true})) << name;        // ldmatrix: PTX ISA, sm_75 and later
    EXPECT_TRUE(g.has({WarpOp::AsyncCopy, 16, 0, false, true})) << name;  // cp.async: PTX ISA, sm_80 and later
  }
  EXPECT_EQ(gpu_named("sm_80").shared_bytes, 164 * 1024);
  EXPECT_EQ(gpu_named("sm_90").shared_bytes, 228 * 1024);
  EXPECT_EQ(gpu_named("sm_100").shared_bytes, 228 * 1024);
  // PTX ISA: stmatrix and cp.async.bulk.tensor need sm_90; tcgen05 sm_100a.
  EXPECT_FALSE(gpu_named("sm_80").has({WarpOp::StoreMatrix, 16, 4, false}));
  EXPECT_TRUE(gpu_named("sm_90").has({WarpOp::StoreMatrix, 16, 4, false}));
  EXPECT_FALSE(gpu_named("sm_80").tma);
  EXPECT_TRUE(gpu_named("sm_90").tma);
  EXPECT_FALSE(gpu_named("sm_90").tcgen05);
  EXPECT_TRUE(gpu_named("sm_100").tcgen05);
}

// AMD: IREE KnownTargets.cpp (workgroupMemoryBankCount, maxWorkgroupMemoryBytes, wave64);
// Triton PR #6065 (64 banks on gfx950). Instructions: the CDNA3 / CDNA4 ISA guides; the
// transposing read on gfx950 only (Triton PR #5750).
TEST(GpuTable, AmdFactsFromIreeAndTheIsaGuides) {
  const GpuModel& cdna3 = gpu_named("gfx942");
  const GpuModel& cdna4 = gpu_named("gfx950");
  EXPECT_EQ(cdna3.vendor, Vendor::Amd);
  EXPECT_EQ(cdna3.bank, (BankModel{32, 4, 64, GpuId::gfx942}));
  EXPECT_EQ(cdna4.bank, (BankModel{64, 4, 64, GpuId::gfx950}));
  EXPECT_EQ(cdna3.shared_bytes, 64 * 1024);
  EXPECT_EQ(cdna4.shared_bytes, 160 * 1024);
  for (const GpuModel* g : {&cdna3, &cdna4}) {
    for (int bytes : {4, 8, 16}) {
      EXPECT_TRUE(g->has(amd_read(bytes))) << g->name << " " << bytes;
      EXPECT_TRUE(g->has(amd_write(bytes))) << g->name << " " << bytes;
    }
    EXPECT_FALSE(g->has({WarpOp::LoadMatrix, 16, 4, false})) << g->name;
    EXPECT_FALSE(g->has({WarpOp::AsyncCopy, 16, 0, false, true})) << g->name;
    EXPECT_FALSE(g->paired_lane_loads) << g->name;  // measured on the H100 only
  }
  EXPECT_FALSE(cdna3.has(amd_read_tr()));
  EXPECT_TRUE(cdna4.has(amd_read_tr()));
  // Every stated phase carries its source.
  for (const GpuModel* g : {&cdna3, &cdna4})
    for (const PhaseFact& f : g->phases) EXPECT_GT(std::string(f.source).size(), 10u) << g->name << " " << f.kind.name();
}

TEST(GpuTable, InstructionNamesPerGpu) {
  const BankModel cdna4 = gpu_named("gfx950").bank;
  EXPECT_EQ(instruction_name(amd_read(16), cdna4), "DS_READ_B128");
  EXPECT_EQ(instruction_name(amd_read(8), cdna4), "DS_READ_B64");
  EXPECT_EQ(instruction_name(amd_read(4), cdna4), "DS_READ_B32");
  EXPECT_EQ(instruction_name(amd_read(2), cdna4), "DS_READ_U16");
  EXPECT_EQ(instruction_name(amd_write(8), cdna4), "DS_WRITE_B64");
  EXPECT_EQ(instruction_name(amd_write(1), cdna4), "DS_WRITE_B8");
  EXPECT_EQ(instruction_name(amd_read_tr(), cdna4), "DS_READ_B64_TR_B16");
  EXPECT_EQ(instruction_name(amd_read(16), BankModel{}), "LDS.128");
  EXPECT_EQ(instruction_name(InstructionKind{WarpOp::LoadMatrix, 16, 4, true}, BankModel{}), "LDSM.x4.trans");
}

TEST(GpuTable, MissingInstructionsAreOneLine) {
  const BankModel cdna3 = gpu_named("mi300x").bank;
  const std::string ldmatrix = gpu_error_of([&] { check_instruction({WarpOp::LoadMatrix, 16, 4, false}, cdna3); });
  EXPECT_EQ(ldmatrix, "LDSM.x4 does not exist on gfx942 (MI300X, MI300A, MI325X) (only on sm_90, sm_80, sm_100)");
  const std::string copy = gpu_error_of([&] {
    check_instruction({WarpOp::AsyncCopy, 16, 0, false, true}, gpu_named("gfx950").bank);
  });
  EXPECT_EQ(copy, "LDGSTS.BYPASS.128 does not exist on gfx950 (MI350X, MI355X) (only on sm_90, sm_80, sm_100)");
  EXPECT_EQ(gpu_error_of([&] { check_instruction(amd_read_tr(), cdna3); }),
            "DS_READ_B64_TR_B16 does not exist on gfx942 (MI300X, MI300A, MI325X) (only on gfx950)");
  EXPECT_EQ(gpu_error_of([&] { check_instruction(amd_read_tr(), BankModel{}); }),
            "DS_READ_B64_TR_B16 does not exist on sm_90 (H100, H200) (only on gfx950)");
  EXPECT_EQ(gpu_error_of([] {
              check_instruction({WarpOp::StoreMatrix, 16, 2, false}, gpu_named("a100").bank);
            }),
            "STSM.x2 does not exist on sm_80 (A100) (only on sm_90, sm_100)");
  // A request of a missing instruction is refused before it is served.
  WarpRequest r{{WarpOp::LoadMatrix, 16, 4, false}, std::vector<std::int64_t>(64, -1), {}};
  EXPECT_NE(gpu_error_of([&] { check_request(r, cdna3); }).find("does not exist on gfx942"), std::string::npos);
}

TEST(GpuTable, BanksContradictingAnAmdGpuAreRefused) {
  BankModel wrong = gpu_named("gfx942").bank;
  wrong.banks = 64;
  EXPECT_EQ(gpu_error_of([&] { check_bank_model(wrong); }),
            "gfx942 (MI300X, MI300A, MI325X) has 32 banks and 64-lane wavefronts, not 64 banks and 64 lanes");
  // The NVIDIA model keeps its what-if bank counts (its phases follow the formula).
  BankModel what_if;
  what_if.banks = 64;
  EXPECT_NO_THROW(check_bank_model(what_if));
}

// Triton PR #9662: phases = threads x bits per thread / (banks x 32), at least one.
TEST(AmdPhases, CountsFollowTriton9662) {
  for (const char* name : {"gfx942", "gfx950"}) {
    const GpuModel& g = gpu_named(name);
    for (const PhaseFact& f : g.phases) {
      // On the instruction's own banks: gfx950's ds_write_b64 is served on 32 (HipKittens, measured).
      const int banks = instruction_banks(f.kind, g.bank).bank.banks;
      const int bits = std::max(32, f.kind.bytes * 8);
      const int phases = std::max(1, g.bank.warp_size * bits / (banks * 32));
      EXPECT_EQ(g.bank.warp_size / f.phases.lanes_per_phase, phases) << name << " " << g.instruction_name(f.kind);
      EXPECT_EQ(static_cast<int>(phase_groups(f.kind, g).size()), phases) << name << " " << g.instruction_name(f.kind);
    }
  }
}

// Every AMD instruction width's phases as sets of lanes (other-gpus.md's published groups).
TEST(AmdPhases, Gfx942GroupsArePublished) {
  const GpuModel& g = gpu_named("gfx942");
  // Triton PR #11365: ds_read_b128 in 8 phases of 8 lanes, all 8 listed there.
  const std::set<std::vector<int>> read_b128 = {lanes_in({{0, 3}, {20, 23}}),   lanes_in({{32, 35}, {52, 55}}),
                                                lanes_in({{4, 7}, {16, 19}}),   lanes_in({{36, 39}, {48, 51}}),
                                                lanes_in({{8, 11}, {28, 31}}),  lanes_in({{40, 43}, {60, 63}}),
                                                lanes_in({{12, 15}, {24, 27}}), lanes_in({{44, 47}, {56, 59}})};
  EXPECT_EQ(phase_groups(amd_read(16), g), read_b128);
  EXPECT_EQ(phase_groups(amd_write(16), g), runs_of(8, 64));  // CK docs: 8 contiguous phases of 8
  EXPECT_EQ(phase_groups(amd_read(8), g), runs_of(16, 64));   // PR #9662: 4 phases of 16
  EXPECT_EQ(phase_groups(amd_write(8), g), runs_of(16, 64));
  EXPECT_EQ(phase_groups(amd_read(4), g), runs_of(32, 64));
  EXPECT_EQ(phase_groups(amd_write(4), g), runs_of(32, 64));
}

TEST(AmdPhases, Gfx950GroupsArePublished) {
  const GpuModel& g = gpu_named("gfx950");
  // Triton PR #11365 and HipKittens ds_read_b128/phase_results.txt (measured): 4 phases of 16.
  const std::set<std::vector<int>> read_b128 = {
      lanes_in({{0, 3}, {12, 15}, {20, 23}, {24, 27}}), lanes_in({{4, 11}, {16, 19}, {28, 31}}),
      lanes_in({{32, 35}, {44, 47}, {52, 55}, {56, 59}}), lanes_in({{36, 43}, {48, 51}, {60, 63}})};
  EXPECT_EQ(phase_groups(amd_read(16), g), read_b128);
  // HipKittens ds_read_b64/phase_results.txt: lanes 0-31 and 32-63.
  EXPECT_EQ(phase_groups(amd_read(8), g), runs_of(32, 64));
  EXPECT_EQ(phase_groups(amd_read_tr(), g), runs_of(32, 64));
  // HipKittens ds_write_b64/phase_results.txt: lanes 0-15, 16-31, 32-47, 48-63 (on 32 banks).
  EXPECT_EQ(phase_groups(amd_write(8), g), runs_of(16, 64));
  EXPECT_EQ(phase_groups(amd_write(16), g), runs_of(16, 64));  // assumed (gpu.cpp says why)
  EXPECT_EQ(phase_groups(amd_read(4), g), runs_of(64, 64));
}

TEST(AmdPhases, RunOrderMakesTheCosetsRuns) {
  for (const char* name : {"gfx942", "gfx950"}) {
    const LanePhases p = phases_of(amd_read(16), gpu_named(name).bank);
    const std::vector<std::uint32_t> columns = p.run_order(6);
    for (int renumbered = 0; renumbered < 64; ++renumbered) {
      std::uint32_t lane = 0;
      for (int bit = 0; bit < 6; ++bit)
        if (renumbered & (1 << bit)) lane ^= columns[static_cast<std::size_t>(bit)];
      EXPECT_EQ(p.phase_of(static_cast<int>(lane)), renumbered / p.lanes_per_phase) << name << " " << renumbered;
    }
  }
}

// Counts worked by hand.
Service serve_on(const char* gpu, InstructionKind kind, auto address_of) {
  WarpRequest r{kind, {}, {}};
  for (int lane = 0; lane < 64; ++lane) r.address.push_back(address_of(lane));
  return serve(r, gpu_named(gpu).bank);
}

// HipKittens ds_write_b64/bank_results.txt (measured): gfx950's 64-bit writes wrap at bank 32;
// every other width keeps the GPU's 64 banks (measured for ds_read_b64 and ds_read_b128, Triton's
// model for the rest).
TEST(AmdPhases, Gfx950WriteB64AloneIsServedOnThirtyTwoBanks) {
  const GpuModel& g = gpu_named("gfx950");
  for (const InstructionKind& kind : g.instructions)
    EXPECT_EQ(instruction_banks(kind, g.bank).bank.banks, kind == amd_write(8) ? 32 : 64) << g.instruction_name(kind);
  EXPECT_NE(std::string(instruction_banks(amd_write(8), g.bank).source).find("HipKittens"), std::string::npos);
  // 8 bytes a lane, 16 bytes apart: a phase of 16 lanes spans 256 bytes, twice round 32 banks:
  // 2 wavefronts a phase, 8 in all; the same addresses read (2 phases of 32 on 64 banks) cost 4.
  auto every_other = [](int lane) { return std::int64_t{16} * lane; };
  const Service write = serve_on("gfx950", amd_write(8), every_other);
  EXPECT_EQ(write.wavefronts, 8);
  EXPECT_EQ(write.ideal, 4);
  EXPECT_EQ(write.bank_words.size(), 32u);
  EXPECT_EQ(serve_on("gfx950", amd_read(8), every_other).wavefronts, 4);
  // Contiguous 8-byte writes: 128 bytes a phase, conflict-free.
  EXPECT_EQ(serve_on("gfx950", amd_write(8), [](int lane) { return std::int64_t{8} * lane; }).wavefronts, 4);
  // A model that is not the GPU's own keeps its banks (the same rule as the phases).
  BankModel other = g.bank;
  other.banks = 16;
  EXPECT_EQ(instruction_banks(amd_write(8), other).bank, other);
}

TEST(AmdPhases, HandCountedWavefronts) {
  // Lane L reads 16 bytes in row L (128 bytes a row on 32 banks), at chunk (L & 3) | (l4 << 2).
  // A ds_read_b128 phase {x..x+3, x^20..(x^20)+3} holds both values of l4: 8 distinct chunks,
  // 32 banks once each, 1 wavefront a phase, 8 in all. A ds_write_b128 phase is 8 lanes of one l4:
  // chunks 0-3 twice over, 2 wavefronts a phase, 16 in all.
  auto chunked = [](int lane) { return std::int64_t{128} * lane + 16 * ((lane & 3) | (((lane >> 4) & 1) << 2)); };
  const Service read = serve_on("gfx942", amd_read(16), chunked);
  EXPECT_EQ(read.wavefronts, 8);
  EXPECT_EQ(read.ideal, 8);
  EXPECT_EQ(read.phases, 8);
  const Service write = serve_on("gfx942", amd_write(16), chunked);
  EXPECT_EQ(write.wavefronts, 16);
  EXPECT_EQ(write.ideal, 8);
  // 32-bit reads 256 bytes apart: one bank for every lane. gfx942: 2 phases of 32 lanes, 32 each;
  // gfx950 (256 bytes = one row of its 64 banks): 1 phase of 64.
  auto strided = [](int lane) { return std::int64_t{256} * lane; };
  EXPECT_EQ(serve_on("gfx942", amd_read(4), strided).wavefronts, 64);
  EXPECT_EQ(serve_on("gfx950", amd_read(4), strided).wavefronts, 64);
  EXPECT_EQ(serve_on("gfx950", amd_read(4), strided).phases, 1);
  // 64-bit reads of consecutive words: conflict-free, one wavefront a phase: 4 on gfx942, 2 on gfx950.
  auto packed = [](int lane) { return std::int64_t{8} * lane; };
  EXPECT_EQ(serve_on("gfx942", amd_read(8), packed).wavefronts, 4);
  EXPECT_EQ(serve_on("gfx950", amd_read(8), packed).wavefronts, 2);
  // Lane pairs reading one address: the H100 would widen the phases (warp_access.cpp rule 3);
  // nothing says AMD does, so 4 phases of 16 stay 4 wavefronts and nothing merges.
  const Service pairs = serve_on("gfx942", amd_read(8), [](int lane) { return std::int64_t{8} * (lane >> 1); });
  EXPECT_EQ(pairs.wavefronts, 4);
  EXPECT_FALSE(pairs.merged);
  // gfx950 ds_read_b128, lane L at 16 * L: its 16-byte chunk of a 256-byte row is L mod 16. Phase
  // {0-3, 12-15, 20-23, 24-27} has chunks {0-3, 12-15, 4-7, 8-11}: all 64 banks once; so has every
  // phase. 4 wavefronts.
  EXPECT_EQ(serve_on("gfx950", amd_read(16), [](int lane) { return std::int64_t{16} * lane; }).wavefronts, 4);
}

}  // namespace
}  // namespace swz
