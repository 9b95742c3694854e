// audit_pipeline.h (private to core/src/kernel): every cp.async a pipelined loop issues, priced.
//
// Triton's pipeliner issues a tile's copy once per stage in the prologue (its pointers advanced by
// the stage's K slices) and once per iteration in the loop body (for iteration i + stages - 1),
// masked by whether that iteration exists: the last stages - 1 iterations issue theirs predicated
// off. The audit's first price of a copy (audit_global.h) reads its pointers at the loop's first
// iteration; here each copy line is priced as the kernel issues it:
//
//   executions   1 outside a loop; in an scf.for, its trip count ceil((upper - lower) / step), the
//                bounds read from the module (an argument bound given, or assumed so that the loop
//                runs 64 times, one value per argument for the module, and said);
//   placements   each execution's pointers at its induction value: a K slice may start mid-line
//                (an int8 tile's 64-byte slices start 64 bytes into a 128-byte line every other
//                stage); each distinct placement priced once;
//   masks        a mask that is one value for the tile (tt.splat of arith.cmpi on the induction
//                variable and the arguments), evaluated per execution. Predicated off, a copy writes
//                zeros and reads nothing: a 4- or 8-byte (.ca) copy costs rule 4's count for a copy
//                that moves no data (the store rule without merging: 8 where the live tf32 B copy of
//                tests/data/triton/copies/h200-20261128 costs 10, as measured there); a 16-byte
//                (.cg) copy is priced by rule 5 at its pointers, as a live one (4 for that kernel's
//                A copies either way, as measured; where rule 5 and the store rule differ for a
//                predicated-off .cg copy is not measured, and the line says so).
//
// The line keeps its first execution's price (`wavefronts`) and gets the mean per instruction over
// its executions (`issued_wavefronts`), what a counter over the whole kernel sees.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "audit_global.h"
#include "swz/kernel/ttgir_module.h"

namespace swz::audit_parts {

struct CopyIssues {
  std::int64_t executions = 1;
  double wavefronts = 0;  // mean per instruction over every execution
  std::string note;       // "; issued 4 times ...": what the mean rests on
};

// The copy `op` (ttg.async_copy_global_to_local) as issued, `access` its first-iteration pricing
// (global_bytes read from the kernel); empty where its pointers were not followed.
std::optional<CopyIssues> price_copy_issues(const ttgir::PointerReader& reader, const ttgir::Op& op, const Access& access,
                                            const SharedLayout& shared, int element_bits, const BankModel& bank,
                                            KnownArguments& arguments);

}  // namespace swz::audit_parts
