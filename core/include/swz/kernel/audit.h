// audit.h: every shared-memory access of a TTGIR module, simulated.
//
// For each op that moves data between registers and shared memory the audit
// pairs the register layout (from the tensor type) with the shared layout
// (from the memdesc type, followed through memdesc_index / memdesc_subslice /
// memdesc_trans, which print the view's own layout) and runs the bank
// simulator (bank.h) on one CTA:
//
//   ttg.local_store / ttg.local_alloc %src      store   STSM[.trans] where the registers hold its tile,
//                                               else STS.<bits> (Triton 3.6's lowering, triton_convert.h)
//   ttg.local_load                              load    LDSM[.trans] likewise, else LDS.<bits>
//   tt.reduce / tt.scan                         "shuffle" / "registers" along an axis within each warp;
//                                               across warps "not modelled" (Triton's scratch)
//   ttg.async_copy_global_to_local              store   LDGSTS.<bits> (cp.async)
//   ttg.convert_layout                          registers / shuffle when no data leaves the warp
//                                               (as Triton 3.6 lowers it), else a store and a load
//                                               through Triton 3.6's own scratch layout, with the
//                                               instructions it issues (STS/LDS, STSM, LDSM[.trans];
//                                               triton_convert.h); the solver's layout only where
//                                               that model does not apply (the note says why)
//   ttng.warp_group_dot, ttng.tc_gen5_mma       operand reads by wgmma / tcgen05: listed, no LSU
//                                               bank model applies (wavefronts null)
//
// Anything else in the ttg / ttng / amdg dialects that may touch shared
// memory, and attributes we cannot convert, are listed as "not modelled" with
// their line rather than skipped. `suggestion` is the solver's layout for the
// buffer's writer and reader (a #ttg.shared_linear to paste), when it beats
// the access's current wavefronts.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "swz/kernel/ttgir_module.h"

namespace swz {

struct AuditAccess {
  std::string op;                        // "ttg.local_store"
  int line = 0;                          // 1-based line of the op
  std::string loc;                       // "kernel.py:12:5" or ""
  std::optional<std::string> direction;  // "store" / "load"; null for a conversion in registers
  std::string instruction;               // "STS.128", "LDSM.x4", "LDGSTS.128", "shuffle", "registers", "wgmma", "not modelled"
  std::int64_t instructions = 0;         // per CTA
  std::optional<double> wavefronts;      // mean per instruction
  std::optional<int> ideal_wavefronts, worst_wavefronts;
  std::optional<double> conflicts;                // mean extra wavefronts per instruction
  std::string shared_layout, distributed_layout;  // attribute text (alias names resolved)
  std::optional<std::string> suggestion;          // a Triton attribute, or null
  std::optional<double> suggestion_wavefronts;    // mean per instruction under the suggestion
  std::string note;                               // assumptions and reasons, one line
  // The access as a workbench problem, when it was simulated: the buffer's writer and reader
  // (this access is one of them; the other when the module has one) and its layout, one CTA.
  std::optional<LinearLayout> writer, reader;  // register, lane, warp, block -> coords
  std::optional<LinearLayout> shared_offsets;  // offset, block -> coords (linear layouts only)
  int element_bits = 0;
};

struct AuditReport {
  std::string path;
  int lines = 0;
  int num_warps = 4;
  std::vector<AuditAccess> accesses;
};

// Audits a module's text; `path` names it in messages. Throws swz::Error for a malformed module.
AuditReport audit_module(const std::string& text, const std::string& path);
AuditReport audit(const ttgir::Module& module);

nlohmann::json to_json(const AuditReport& report);
// The terminal table.
std::string format_audit(const AuditReport& report);

}  // namespace swz
