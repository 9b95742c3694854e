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
//                tests/data/triton/copies/h200-20261128 costs 10, as measured there); so does a 16-byte
//                (.cg) copy in the prologue (its shared writes: every such copy of six matmuls measured
//                them, h200-20261129-predicated-off); in the loop a .cg copy is priced by rule 5 at its
//                pointers, as a live one, the upper end (such copies measured their writes alone too).
//
// The line keeps its first execution's price (`wavefronts`) and gets the mean per instruction over
// its executions (`issued_wavefronts`), what a counter over the whole kernel sees.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit_global.h"
#include "swz/kernel/ttgir_module.h"

namespace swz::audit_parts {

struct CopyIssues {
  std::int64_t executions = 1;
  double wavefronts = 0;  // mean per instruction over every execution
  std::optional<double> first, first_ideal;  // the first execution's and its ideal, per instruction, when it is live
  bool moves_data = false;                   // some execution has a lane that reads global memory
  bool sass_priced = false;                  // an execution was priced by what the SASS says (CopySass)
  std::string note;       // "; issued 4 times ...": what the mean rests on
};

// What the kernel's SASS says of a masked 16-byte copy (audit_sass.h): the predicate operand of each
// of its LDGSTS, in the order of its instructions per thread, and whether its prologue stage is the
// only one moving data at the launch's arguments. On the H200 such a live copy of Triton's kernels
// counted its ideal where that operand is P0 or its stage was alone, rule 5 otherwise; predicated
// off, rule 5 at its pointers where it is !P0, its shared writes alone otherwise
// (tests/data/triton/copies/h200-20261130-edited: cubins edited; every kept run agrees, and the
// fresh kernels of h200-20261130-fresh, measured after the rule was written).
struct CopySass {
  std::vector<std::string> predicates;  // per LDGSTS: "P0", "!P0", "P1", "PT", "" (no predicate operand)
  std::vector<int> lines;               // their lines in the listing
  bool alone = false;
  std::string stage;  // "prologue stage 0", "the loop", "" (not known)
};

// The copy `op` (ttg.async_copy_global_to_local) as issued, `access` its first-iteration pricing
// (global_bytes read from the kernel); empty where its pointers were not followed. With `sass`, a
// masked 16-byte copy's live executions are priced as its SASS says.
std::optional<CopyIssues> price_copy_issues(const ttgir::PointerReader& reader, const ttgir::Op& op, const Access& access,
                                            const SharedLayout& shared, int element_bits, const BankModel& bank,
                                            KnownArguments& arguments, const CopySass* sass = nullptr);

}  // namespace swz::audit_parts
