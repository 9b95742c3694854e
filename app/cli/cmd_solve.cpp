// swizzle solve: the optimal shared layout for a writer and a reader, with its proof.
#include <fmt/format.h>

#include "command.h"
#include "common.h"
#include "swz/error.h"
#include "swz/export/english.h"
#include "swz/io/atomic_file.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"
#include "swz/sim/corpus.h"
#include "swz/solve/solve_report.h"
#include "swz/teach/math_text.h"

namespace swz::cli {
namespace {

struct Options {
  ProblemArguments problem;  // a preset (grid presets add masks, family_size, repair) or --src/--dst; --mask: the grid to repair
  int ldmatrix = 0;          // --ldmatrix: the reader is ldmatrix .xN
  int vec_bits = 0;          // --vec-bits: cap on both sides (0: 128); --write/read-vec-bits override per side
  bool keep_order = false;   // --keep-register-order
  std::string probe_cases;   // --probe-cases FILE: the answer's instructions for `swizzle calibrate --input`
  bool json = false;
};

// The answer first (the layout, each side's instructions and cost, the masks of a grid), then why.
void print_answer(const SolveReport& report) {
  const SolveResult& r = report.result;
  fmt::print("shared layout (offset -> coords):\n{}", to_triton_text(r.offset_bases));
  for (const auto& [name, c] : {std::pair{"write:", r.write_cost}, std::pair{"read: ", r.read_cost}})
    fmt::print("{} {} ({}-bit vectors), {} x {} (ideal {}) = {}\n", name, c.instruction, c.vec_bits,
               counted(c.instructions, "instruction"), counted(c.wavefronts, "wavefront"), c.ideal_wavefronts,
               c.total_wavefronts);
  fmt::print("total: {} wavefronts\n", r.total_wavefronts());
  if (report.problem.grid)
    fmt::print("masks: {}\n",
               report.masks ? format_masks(*report.masks) : std::string("none (no toggle grid is conflict-free here)"));
}

void print_proof(const SolveReport& report) {
  const SolveResult& r = report.result;
  fmt::print("\nwhy (the construction, the width proof, the bound):\n");
  for (const auto& st : r.trace) fmt::print("{}: {}\n", st.title, render_math(st.sentence, MathStyle::Ascii));
  if (!r.tradeoff.empty()) fmt::print("trade-off: {}\n", r.tradeoff);
  fmt::print("widest possible: writer {} bits, reader {} bits, both {} bits\n", r.width.write_max_bits, r.width.read_max_bits,
             r.width.common_max_bits);
  fmt::print("lower bound: write {}, read {}: {}\n", r.bound.write_wavefronts, r.bound.read_wavefronts, r.bound.reason);
  for (const auto& m : report.matches) fmt::print("equals: {}\n", m.name);
  if (const auto& s = report.registers) {
    const SolveResult& q = s->result;
    fmt::print("register blocks: with {} rows per lane on both sides (each lane {} elements along its own dim, as now, in {} "
               "consecutive rows of the other), the answer is {} x{} / {} x{}: {} instructions and {} wavefronts instead of {} and {} "
               "(the two layouts: --json register_blocks)\n",
               s->rows, 128 / report.problem.element_bits, s->rows, q.write_cost.instruction, q.write_cost.instructions,
               q.read_cost.instruction, q.read_cost.instructions, q.total_instructions(), q.total_wavefronts(), r.total_instructions(),
               r.total_wavefronts());
  }
}

Register reg{
    {"solve", "The optimal conflict-free shared layout for a writer and a reader, with the construction", 25, [](CLI::App& sub) {
       auto o = std::make_shared<Options>();
       add_problem_options(sub, o->problem, {"--layout", "--shared"});
       sub.add_option("--ldmatrix", o->ldmatrix, "The reader is ldmatrix .x1/.x2/.x4 (its layout gives the row addresses)");
       sub.add_option("--vec-bits", o->vec_bits, "Widest vector either side may use, bits per lane: 8, 16, 32, 64 or 128")
           ->check(CLI::IsMember({8, 16, 32, 64, 128}));
       sub.add_option("--probe-cases", o->probe_cases,
                      "Write a sample of the answer's warp instructions (both sides) as corpus lines, to measure with "
                      "`swizzle calibrate --input FILE` on a GPU");
       sub.add_flag("--keep-register-order", o->keep_order,
                    "Vectors are each side's registers 0..k-1 as numbered (no renumbering)");
       sub.add_flag("--json", o->json, "One JSON object on stdout");
       sub.callback([o] {
         const ProblemSpec spec = parse_problem_arguments(o->problem);
         SolveRequest request;
         request.ldmatrix = o->ldmatrix;
         request.vec_bits = o->vec_bits;
         request.keep_order = o->keep_order;
         request.repair_masks = o->problem.mask.has_value();
         request.full_check = !o->probe_cases.empty();  // the cases come from the table
         const SolveReport report = solve_spec(spec, request);
         const Problem& p = report.problem;
         const SolveResult& r = report.result;
         if (!o->probe_cases.empty()) {
           std::string text;
           int index = 0;
           const std::int64_t bytes = std::max<std::int64_t>(
               16, static_cast<std::int64_t>((r.shared.extent() * static_cast<std::uint64_t>(p.element_bits) / 8 + 15) / 16 * 16));
           for (const ProbeRequest& pr : probe_requests(r, p.bank)) {
             CorpusCase c;
             c.request = pr.request;
             c.pattern = "solver " + pr.name;
             c.shared_bytes = bytes;
             c.index = index++;
             c.wavefronts = serve(c.request, p.bank).wavefronts;  // the prediction; calibrate measures it
             c.instructions = 1;
             text += to_jsonl(c) + "\n";
           }
           write_file_atomically(o->probe_cases, text);
         }
         if (o->json) {
           print_json(to_json(report));
           return;
         }
         print_answer(report);
         print_proof(report);
         if (p.grid) {
           if (report.family_counted)
             fmt::print("conflict-free family ({} both conflict-free): {} mask sets; {} alone: {}, {} alone: {}\n",
                        sides_name(AccessSides::Both), report.family_both, sides_name(AccessSides::Read), report.family_read,
                        sides_name(AccessSides::Write), report.family_write);
           else
             fmt::print("conflict-free family: not counted (a search over 2**{} mask sets; counted up to 2**{} elements)\n",
                        p.grid->configs_log2(), SolveOptions::kFullCheckBits);
           if (const auto& fix = report.repair) {
             if (!fix->possible)
               fmt::print("repair: impossible, no mask set is conflict-free\n");
             else
               fmt::print("repair: {} flip(s) -> masks {}\n", fix->flips, format_masks(fix->masks));
           }
         }
       });
     }}};

}  // namespace
}  // namespace swz::cli
