// The ideal of every instruction follows the bank model: a wavefront moves banks x 4 bytes, so an
// instruction of distinct addresses needs (bytes it moves) / (bytes of one wavefront) wavefronts,
// at least one. Checked at 8, 16, 32 and 64 banks for LDS/STS of every width, ldmatrix and
// stmatrix .x1/.x2/.x4 and cp.async, through serve(), the access geometry the lemma, the sweep and
// the solver read, and a whole problem (the solver's answer at 16 banks). The expected counts are
// worked out here from the instruction's bytes (reference/hardware.md: a wavefront serves one word
// per bank; ldmatrix moves 16 bytes per row address, 8 rows per matrix), never from the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "swz/problem/problem.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/bank.h"
#include "swz/sim/warp_access.h"
#include "swz/solve/solver.h"

namespace {

using swz::BankModel;
using swz::InstructionKind;
using swz::WarpOp;
using swz::WarpRequest;

// Bytes one instruction moves with every lane at its own address: 16 per matrix row, 8 rows a
// matrix; else every lane of the warp its own bytes, a lane narrower than a bank word taking the
// word's slot (a bank serves one word a wavefront, so 1- and 2-byte lanes count 4 bytes each).
int bytes_moved(const InstructionKind& k) { return k.is_matrix() ? 16 * 8 * k.matrices : 32 * std::max(k.bytes, 4); }

int expected_ideal(const InstructionKind& k, int banks) {
  const int wavefront_bytes = banks * 4;  // one 4-byte word from each bank
  return std::max(1, (bytes_moved(k) + wavefront_bytes - 1) / wavefront_bytes);
}

// Lanes at consecutive addresses: no two share a word, none is broadcast.
WarpRequest contiguous(const InstructionKind& k) {
  WarpRequest r;
  r.kind = k;
  const int lanes = k.is_matrix() ? 8 * k.matrices : 32;
  r.address.assign(32, -1);
  for (int lane = 0; lane < lanes; ++lane) r.address[static_cast<std::size_t>(lane)] = std::int64_t{lane} * k.bytes;
  if (k.op == WarpOp::AsyncCopy) r.global = r.address;  // the copy's sources: one word each, banks in turn
  return r;
}

TEST(IdealWavefronts, EveryInstructionAtEveryBankCountIsItsBytesOverAWavefront) {
  for (const int banks : {8, 16, 32, 64}) {
    const BankModel model{banks, 4, 32};
    for (const InstructionKind& k : swz::all_instruction_kinds()) {
      if (k.bypass) continue;  // cp.async.cg: rule 5 at 32 banks only, its ideal with the sectors (CorpusBypass.*)
      const swz::Service s = swz::serve(contiguous(k), model);
      EXPECT_EQ(s.ideal, expected_ideal(k, banks)) << k.name() << " at " << banks << " banks";
      EXPECT_EQ(s.wavefronts, s.ideal) << k.name() << " at " << banks << " banks: consecutive addresses conflict";
    }
  }
}

TEST(IdealWavefronts, TheMmaStoreOnSixteenBanksIsEightNotFour) {
  // mma_to_blocked_fp16: the fragments' own store is STS.32, 32 lanes of 4 bytes; the solver
  // stores with stmatrix.x4, 4 x 8 rows of 16 bytes. 16 banks of 4 bytes move 64 a wavefront.
  swz::ProblemSpec spec;
  spec.preset = "mma_to_blocked_fp16";
  spec.banks = 16;
  const swz::Problem p = swz::build_problem(spec);
  const swz::AccessResult store = swz::simulate(p.store, p.shared, p.element_bits, p.bank);
  EXPECT_EQ(store.ideal_wavefronts, (32 * 4) / 64);
  const swz::AccessGeometry g = swz::access_geometry(p.store, p.element_bits, /*vector_bits=*/0, p.bank);
  EXPECT_EQ(g.phases, (32 * 4) / 64) << "the lemma, the sweep and the solver read the ideal here";
  const swz::SolveResult r = swz::solve(p);
  EXPECT_EQ(r.write_cost.instruction, "STSM.x4");
  EXPECT_EQ(r.write_cost.ideal_wavefronts, (4 * 8 * 16) / 64) << "was 4: one phase per matrix whatever the banks";
  EXPECT_EQ(r.read_cost.ideal_wavefronts, (32 * 16) / 64);
  // At 32 banks, as measured on the H100 (tests/data/hardware): STS.32 in one wavefront, stmatrix.x4 in 4.
  const swz::Problem h100 = swz::make_preset("mma_to_blocked_fp16");
  EXPECT_EQ(swz::simulate(h100.store, h100.shared, h100.element_bits, h100.bank).ideal_wavefronts, 1);
  EXPECT_EQ(swz::solve(h100).write_cost.ideal_wavefronts, (4 * 8 * 16) / 128);
}

}  // namespace
