// audit_scratch.h (private to core/src/kernel): the shared-memory scratch of the tt ops that
// Triton 3.6 lowers through shared memory without a memdesc in the module: tt.reduce, tt.scan,
// tt.gather, tt.histogram. The audit (audit.cpp) asks it for their report entries.
//
// A cross-warp tt.reduce, as Triton 3.6 lowers it (ReduceOpToLLVM.cpp, ReduceOpHelper in
// lib/Analysis/Utility.cpp), retold: each thread first combines its own registers along the axis,
// then the lanes along the axis combine by shuffles. What is left is one partial per warp along
// the axis (W of them) for each output element. The scratch is the source tensor's shape with the
// axis cut to W, linearized with the axis fastest, then the source layout's order:
//
//   scratch[w][e] at element offset  w + W * e          (e: the output element, row-major in order)
//
//   1. store   each warp writes its partials: lane-0-along-the-axis lanes only, STS of the element
//   2. load    thread t reads offsets t, t + T, ... (T threads; only t < W * elements), one LDS each
//   3. store   after W-lane shuffles, lanes t % W == 0 write the combined value back to offset t
//   4. load    every thread reads its output elements at [0][e]: one LDS per register (results no
//              op reads are never loaded: LLVM drops the dead loads)
//
// Operands (argmax: value and index) get one such scratch each, placed one after the other, the
// widest first. Instructions that no lane of a warp executes are not issued by that warp (the
// H100's counters on softmax and layer_norm: ptxas branches around them). Each instruction is
// priced by serve() (warp_access.h) on its lanes' byte addresses.
//
// A tt.gather along an axis each warp holds whole is shuffles (GatherLoweringHelper::isWarpLocal);
// across warps its loads go where the index values say, and it stays "not modelled", as do scans
// across warps and histograms (shared-memory atomics).
#pragma once

#include <vector>

#include "audit_parts.h"

namespace swz::audit_parts {

// The report entries of `op` (one of the four), starting from `entry` (its op, line and loc):
// one per direction and instruction for what goes through shared memory, "shuffle" / "registers"
// where nothing does, "not modelled" with the reason otherwise. Throws swz::Error for a malformed op.
std::vector<AuditAccess> scratch_accesses(const Op& op, const Auditor& au, const AuditAccess& entry);

// True for the ops scratch_accesses() takes.
bool is_scratch_op(const std::string& name);

}  // namespace swz::audit_parts
