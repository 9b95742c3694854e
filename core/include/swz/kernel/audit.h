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
//   tt.reduce                                   "shuffle" / "registers" along an axis within each warp;
//                                               across warps a store and a load through Triton 3.6's
//                                               own reduction scratch (audit_scratch.h), STS/LDS of the
//                                               element's width, every instruction priced
//   tt.gather                                   "shuffle" when each warp holds the axis whole (Triton
//                                               3.6's warp-local gather), else "not modelled"
//   tt.scan, tt.histogram                       "not modelled" across warps (counted in the summary)
//   ttg.async_copy_global_to_local              store   LDGSTS.<bits> (cp.async)
//   ttg.convert_layout                          registers / shuffle when no data leaves the warp
//                                               (as Triton 3.6 lowers it), else a store and a load
//                                               through Triton 3.6's own scratch layout, with the
//                                               instructions it issues (STS/LDS, STSM, LDSM[.trans];
//                                               triton_convert.h); the solver's layout only where
//                                               that model does not apply (the note says why)
//   ttng.warp_group_dot, ttng.tc_gen5_mma       operand reads by wgmma / tcgen05: listed, no LSU
//                                               bank model applies (wavefronts null); a tcgen05
//                                               operand's note gives its type, major and descriptor mode
//   ttng.tmem_alloc / tmem_store / tmem_load    tensor memory (sm_100): listed as "tensor memory",
//                                               no shared access to price
//
// Anything else in the ttg / ttng / amdg dialects that may touch shared
// memory, and attributes we cannot convert, are listed as "not modelled" with
// their line rather than skipped. A suggestion (AuditSuggestion) is a layout
// change that beats the access's current wavefronts and that every op using
// the buffer accepts (audit_rules: wgmma operand major-ness per element type,
// NVMMA's canonical swizzles, TMA boxes, ldmatrix / stmatrix rows); when none
// is legal and better, `no_suggestion` says which consumer and rule forbid it.
// fix_module() writes the chosen suggestions into the module's text.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "swz/kernel/sass.h"
#include "swz/kernel/ttgir_module.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/gpu.h"

namespace swz {

// One op that uses a buffer, as a suggestion was checked against it.
struct AuditConsumer {
  int line = 0;
  std::string op;        // "ttng.warp_group_dot"
  std::string role;      // "store", "load", "wgmma operand B (f32 as tf32)", "TMA copy", ...
  std::string refusal;   // empty when the new layout is legal for it; else the rule it breaks
};

// One edit of the module's text: on `line` (1-based, of the original text) the `occurrence`-th
// (0-based) `old_text` becomes `new_text`; an empty `old_text` inserts `new_text` as a new line
// after `line`.
struct AuditPatch {
  int line = 0;
  int occurrence = 0;
  std::string old_text, new_text;
};

// A layout change for one buffer. Two kinds: the buffer's shared layout (every op that prints
// the buffer's type follows), or the distributed (register) layout of the op that writes or
// reads it (that op's tensor type; the buffer keeps its layout).
struct AuditSuggestion {
  enum class Target { SharedLayout, DistributedLayout };
  Target target = Target::SharedLayout;
  std::string buffer;                  // SSA name of the allocation ("%b_24")
  int line = 0;                        // the access it was made for
  std::string old_layout, new_layout;  // attribute text, aliases resolved
  std::string instruction_after;       // for the access it was made for
  std::int64_t instructions_after = 0;
  double wavefronts_after = 0;         // mean per instruction, for the access it was made for
  std::int64_t total_wavefronts_before = 0, total_wavefronts_after = 0;  // all modelled accesses of the buffer
  std::optional<double> global_sectors_before, global_sectors_after;    // per request (copies that read global)
  std::vector<AuditConsumer> consumers;  // every op using the buffer, each accepting the change
  std::vector<AuditPatch> patch;         // the module text's edits
  // What `--fix` applies: one suggestion per access. An alternative (the other knob, when both
  // help) is listed beside it with chosen = false, and what it rests on in `basis`.
  bool chosen = true;
  std::string basis = "modelled";        // or "store rule ..." (cp.async.cg)
};

struct AuditAccess {
  std::string op;                        // "ttg.local_store"
  int line = 0;                          // 1-based line of the op
  std::string loc;                       // "kernel.py:12:5" or ""
  std::optional<std::string> direction;  // "store" / "load"; null for a conversion in registers
  std::string instruction;               // "STS.128", "LDSM.x4", "LDGSTS.128", "shuffle", "registers", "wgmma", "not modelled"
  std::int64_t instructions = 0;         // per CTA
  // Of `instructions`: issued with every lane's predicate off (Triton's predicated scratch
  // accesses in warps with no thread on), at 0 wavefronts. Nsight Compute's hardware counter
  // (smsp__inst_executed_op_shared_*) counts them; its SASS-patched one (smsp__sass_inst_executed_*)
  // does not.
  std::int64_t predicated_off = 0;
  // Times the op runs per CTA: a cp.async in a pipelined scf.for runs once per iteration (its trip
  // count, given or assumed, said in `note`); `instructions` are per run, `wavefronts` price the
  // first run (live, at the loop's first iteration), `issued_wavefronts` the mean per instruction
  // over every run as a counter sees them: each run's placement and its predicated-off tail
  // (audit_pipeline.h). Null: every run costs `wavefronts`.
  std::int64_t executions = 1;
  std::optional<double> issued_wavefronts;
  // A cp.async matched to the kernel's SASS (audit(..., sass)): its LDGSTS's lines in the listing, in
  // the order of its instructions per thread.
  std::vector<int> sass_lines;
  std::optional<double> wavefronts;  // mean per instruction
  std::optional<int> ideal_wavefronts, worst_wavefronts;
  // Its lanes' addresses are index values read at run time (a tt.gather's loads from indices the
  // module loads): `wavefronts` is null, and ideal / worst bound each instruction.
  bool index_dependent = false;
  std::optional<double> conflicts;                // mean extra wavefronts per instruction
  std::string shared_layout, distributed_layout;  // attribute text (alias names resolved)
  std::optional<std::string> suggestion;          // the suggested layout's text, or null
  std::optional<double> suggestion_wavefronts;    // mean per instruction under the suggestion
  std::optional<std::size_t> suggestion_index;    // into AuditReport::suggestions
  std::optional<std::size_t> alternative_index;   // the other knob's suggestion, not applied by --fix
  std::string no_suggestion;  // a conflicted access without a suggestion: which consumer and rule forbid one
  // Conflicted, and no legal shared layout does better: the candidates weighed held the solver's
  // proven optimum for the buffer's writer and reader (`--fail-on-conflict` lets it pass).
  bool at_optimum = false;
  std::string note;                               // assumptions and reasons, one line
  // The access as a workbench problem, when it was simulated: the buffer's writer and reader
  // (this access is one of them; the other when the module has one) and its layout, one CTA.
  std::optional<LinearLayout> writer, reader;  // register, lane, warp, block -> coords
  std::optional<LinearLayout> shared_offsets;  // offset, block -> coords (linear layouts only)
  int element_bits = 0;
  // This access's instruction as the simulator issues it over shared_offsets: simulate() of it
  // gives `instruction`, `instructions` and the wavefronts above (TritonSide::access: ldmatrix /
  // stmatrix rows, Triton's renumbered registers, the vector width). Null where no linear
  // shared layout was simulated, and for 4-bit elements (Triton moves them as bytes).
  std::optional<Access> issued;
};

struct AuditReport {
  std::string path;
  int lines = 0;
  int first_line = 1;                 // the module's first line in its file
  int module_index = 1, module_count = 1;  // which of the file's modules (split_modules)
  std::string header;                 // the dump header before the module, or ""
  int num_warps = 4;
  std::string gpu = "sm_90";  // the GPU priced on (gpu.h): the module's ttg.target's, or --gpu
  std::string gpu_note;       // how it was chosen, when not the H100 default ("gfx942 from ttg.target hip:gfx942")
  std::vector<AuditAccess> accesses;
  std::vector<AuditSuggestion> suggestions;  // one per buffer at most
};

// Counts for the summary line: accesses simulated, with conflicts, and listed as not modelled.
struct AuditCounts {
  int modelled = 0, conflicted = 0, not_modelled = 0, other = 0;  // other: wgmma operands, shuffles, registers
  int index_dependent = 0;  // priced only between ideal and worst (AuditAccess::index_dependent)
  int at_optimum = 0;  // of the conflicted: at the best legal layout (AuditAccess::at_optimum, no suggestion)
};
AuditCounts count_accesses(const AuditReport& report);

// The module's text with `chosen` (suggestions of `report`, audited from `text`) applied: only
// attribute definitions and layout references change. Throws swz::Error when there is nothing
// to apply, when an edit does not find its text, or when the patched module does not parse back
// or does not audit better than the original.
// The same with the suggestions `--fix` applies: each access's chosen one (AuditSuggestion::chosen).
std::string fix_module(const std::string& text, const AuditReport& report);
std::string fix_module(const std::string& text, const AuditReport& report, const std::vector<std::size_t>& chosen);
// The patch applied to the text alone (no re-audit).
std::string apply_patches(const std::string& text, const std::vector<AuditPatch>& patches);

// Audits a module's text; `path` names it in messages. Throws swz::Error for a malformed module.
// `gpu` (a name or alias gpu.h knows: "gfx950", "mi300x", "h100") prices it on that GPU instead of
// the one its ttg.target names (audit_gpu()).
// `arguments`: values of the kernel's integer arguments ("K" or "%K" -> 256) that pitches, loop
// bounds and masks read; one the kernel does not have is refused. Those not given are assumed, and
// every line that uses one says which.
// A program id (`%pid_n`, tt.get_program_id's value) may be given too: the program whose masks are
// read (0 where not given).
// `sass`: the kernel's SASS listing (sass.h; cuobjdump -sass, or Triton's asm["sass"]): each copy is
// matched to its LDGSTS and a masked 16-byte copy's live executions priced by the predicate register
// ptxas gave it (audit_sass.h); throws swz::Error where the listing is not this module's kernel.
using ArgumentValues = std::map<std::string, std::int64_t>;
AuditReport audit_module(const std::string& text, const std::string& path, std::string_view gpu = "",
                         const ArgumentValues& arguments = {}, const sass::Listing* sass = nullptr);
// Every module of a file (ttgir::split_modules: an MLIR_ENABLE_DUMP file holds one per pass), in order.
std::vector<AuditReport> audit_modules(const std::string& text, const std::string& path, std::string_view gpu = "",
                                       const ArgumentValues& arguments = {});
// "K=256" or "%K=256" -> {"K", 256}; empty for anything else (no '=', no name, a value that is not
// an integer). How `--arg` and the workbench's Arguments field read a value.
std::optional<std::pair<std::string, std::int64_t>> read_argument_value(std::string_view given);
// "M=128 N=96, pid_n=1" (separated by spaces or commas) -> the values; throws swz::Error naming the
// first item that is not NAME=VALUE.
ArgumentValues read_argument_values(std::string_view text);

// The modules of dump files, one at a time. MLIR_ENABLE_DUMP prints the module before every pass,
// most often unchanged: a module whose text (its dump header and leading comments aside) is the
// same as one already read or audited from the same path is not read or audited again; its
// report is the earlier one with the line numbers moved (a report whose notes name a line is
// audited anew). It holds the distinct texts and their reports, up to `text_limit` bytes of
// text, then forgets them all and starts over, so a dump of any size is audited in bounded memory.
class DumpAuditor {
 public:
  explicit DumpAuditor(std::size_t text_limit = std::size_t{64} << 20, std::string gpu = "", ArgumentValues arguments = {},
                       std::shared_ptr<const sass::Listing> sass = nullptr)
      : text_limit_(text_limit), gpu_(std::move(gpu)), arguments_(std::move(arguments)), sass_(std::move(sass)) {}
  // Reads module `span` of `text` (module `index` of `count` of the file); throws swz::Error for a
  // malformed one, as ttgir::read_module does.
  void check(std::string_view text, const std::string& path, const ttgir::ModuleSpan& span, int index, int count);
  // audit(ttgir::read_module(text, path, span, index, count)), from memory when it can be.
  AuditReport audit(std::string_view text, const std::string& path, const ttgir::ModuleSpan& span, int index, int count);
  std::size_t audits_done() const { return audits_done_; }  // modules actually audited (not taken from memory)

 private:
  struct Remembered {
    std::string key;             // path + '\n' + the module's text (dump header and comments aside)
    int body_first_line = 0;     // the file line where that text begins
    int lines_outside_body = 0;  // the span's header, comment and blank lines around that text
    std::optional<AuditReport> report;  // empty: read and found well formed, not audited yet
  };
  struct ModuleText;  // module `span` of a file's text, as the memory looks it up (audit_dump.cpp)
  Remembered* find(const ModuleText& module_text);
  Remembered& remember(const ModuleText& module_text);
  std::size_t text_limit_, text_held_ = 0, audits_done_ = 0;
  std::string gpu_;  // --gpu: every module priced on it ("" : each on its ttg.target's GPU)
  ArgumentValues arguments_;                                 // --arg: the kernel's integer arguments
  std::shared_ptr<const sass::Listing> sass_;                // --sass: the kernel's SASS listing
  std::unordered_multimap<std::size_t, Remembered> memory_;  // the hash of a module's text -> what is known of it
};
// "path" for a file of one module, else "path, module 2 of 5 (line 88: IR Dump Before ...)".
std::string module_label(const AuditReport& report);
AuditReport audit(const ttgir::Module& module, std::string_view gpu = "", const ArgumentValues& arguments = {},
                  const sass::Listing* sass = nullptr);
// The GPU a module is priced on: `gpu` when given, else its ttg.target's ("hip:gfx942" gfx942,
// "hip:gfx950" gfx950, "cuda:90" sm_90, "cuda:100" sm_100, "cuda:80" / "cuda:86" / "cuda:89" sm_80),
// else the H100 (sm_90), or for a module of 64-lane warps the first such GPU (gfx942). `note` (when given)
// says how it was chosen. Throws swz::Error in one line
// for a name gpu.h does not know and for a GPU whose lanes per warp are not the module's
// ("--gpu sm_90 has 32 lanes per warp; the module (ttg.target hip:gfx942) has 64").
const GpuModel& audit_gpu(const ttgir::Module& module, std::string_view gpu, std::string* note = nullptr);

// Access `index` of `report` as a workbench problem: custom (no preset), its shape and element
// width, its shared layout, and each side as its instruction issues it (AuditAccess::issued: the
// registers renumbered, the vector width, ldmatrix / stmatrix .xN[.trans] with the rows its lanes
// address), so that the problem simulates the instruction the audit priced, at its wavefronts.
// The side's partner is the other access of a convert_layout's line, or the buffer's access whose
// layout the report paired with this one; with none, the other side is the register layout at
// the widest vector it allows. Throws swz::Error for an access with no writer, reader or linear
// shared layout.
ProblemSpec audit_problem(const AuditReport& report, std::size_t index);
// The question the solver answers for access `index`: its writer and reader as the kernel holds
// them (register layouts, no instruction fixed: the solver picks widths, ldmatrix and stmatrix), its
// shape and element width, its shared layout. `swizzle solve --src W --dst R` on the same layouts
// asks the same; the workbench's Solver asks it of a loaded kernel access. Throws as audit_problem.
ProblemSpec audit_layouts(const AuditReport& report, std::size_t index);
// The bits per lane an LSU instruction name moves ("STS.128" 128, "LDS.U16" 16, "LDGSTS.32" 32);
// nothing for ldmatrix / stmatrix and for names that are not LSU instructions.
std::optional<int> instruction_vector_bits(const std::string& instruction);

// The ops a suggestion was checked against, for one line of text: the first `shown` ("line 12
// store, line 14 ldmatrix operand A"), then how many more. Every access of a buffer repeats it, so
// it stays short whatever the buffer's number of users (the whole list is in `consumers`).
std::string consumers_summary(const AuditSuggestion& suggestion, std::size_t shown = 8);

// The report as one JSON object; an access's "suggestion" is an index into "suggestions" (or null).
nlohmann::json to_json(const AuditReport& report);
// The terminal table.
std::string format_audit(const AuditReport& report);

}  // namespace swz
