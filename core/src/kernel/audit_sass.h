// audit_sass.h (private to core/src/kernel): a kernel's copies matched to the LDGSTS of its SASS.
//
// Triton masks a pipelined 16-byte copy with src-size 16 or 0; ptxas issues it as
// `LDGSTS.E.BYPASS.128 [R], desc[UR][R.64], P`, and which predicate register it reads is its own
// choice, not in the TTGIR. On the H200 that register decided a copy's count: live, its ideal
// where it is P0 or where its prologue stage is the only one moving data, rule 5 otherwise;
// predicated off, rule 5 at its pointers where it is !P0, its shared writes alone otherwise
// (audit_pipeline.h, CopySass). Given the kernel's listing (`swizzle audit --sass`), each copy is
// matched to its LDGSTS and each execution priced at the count that follows.
//
// The match: the function named as the module's tt.func; its LDGSTS in listing order against the
// module's copies in op order, each copy issuing one LDGSTS per 16-, 8- or 4-byte piece a thread
// holds (the simulated steps). ptxas keeps that order in every kernel kept here; a listing whose
// count differs, or whose LDGSTS at a copy's place does not move that copy's width, is refused in one
// line naming the listing and the copy.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "audit_global.h"
#include "audit_parts.h"
#include "swz/kernel/sass.h"

namespace swz::audit_parts {

// A copy as the audit priced it, for the second pass.
struct CopySite {
  const ttgir::Op* op = nullptr;
  std::size_t access = 0;        // its line in the report
  std::string note_before;       // the line's note before the executions were added
  std::optional<Access> issued;  // as priced; empty: not priced
  std::shared_ptr<const Shared> shared;
  int bits = 0;
  bool moves_data = true;  // at the launch's arguments (true where not known)
};

// Prices the report's masked 16-byte copies as `listing` says (see above). Throws swz::Error where
// the listing is not this module's kernel.
void price_copies_by_sass(AuditReport& report, const ttgir::Module& m, const std::vector<CopySite>& copies,
                          const sass::Listing& listing, const ttgir::PointerReader& reader, const BankModel& bank,
                          KnownArguments& arguments);

}  // namespace swz::audit_parts
