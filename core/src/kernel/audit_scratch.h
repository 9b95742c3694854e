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
//              op reads are never loaded: LLVM drops the dead loads; a warp whose copy of the
//              result a tt.store masks off skips loads only that store reads: audit_parts.h)
//
// Steps 1-3 are predicated (`@p st.shared`, `@p ld.shared`): every warp issues them, a warp with
// no thread on at 0 wavefronts (AuditAccess::predicated_off; the H200's smsp__inst_executed counts
// them, rowsum_4x2048_f32_w4: 3 idle warps, 3 more LDS and STS; the H100's SASS-patched
// smsp__sass_inst_executed does not, softmax: 10 LDS, not 16).
//
// Operands (argmax: value and index) get one such scratch each, placed one after the other, the
// widest first. Each instruction is priced by serve() (warp_access.h) on its lanes' byte addresses.
//
// Scans and histograms: audit_scan.cpp. Gathers: audit_gather.cpp (shuffles within a warp; across
// warps the source through a scratch and loads where the index values say).
#pragma once

#include <vector>

#include "audit_parts.h"
#include "ttgir_pointer.h"

namespace swz::audit_parts {

// The report entries of `op` (one of the four), starting from `entry` (its op, line and loc):
// one per direction and instruction for what goes through shared memory, "shuffle" / "registers"
// where nothing does, "not modelled" with the reason otherwise. `pointers` (may be null) reads the
// module's integer arithmetic: a gather's index values. Throws swz::Error for a malformed op.
std::vector<AuditAccess> scratch_accesses(const Op& op, const Auditor& au, const AuditAccess& entry,
                                          const ttgir::PointerReader* pointers);

// True for the ops scratch_accesses() takes.
bool is_scratch_op(const std::string& name);

}  // namespace swz::audit_parts
