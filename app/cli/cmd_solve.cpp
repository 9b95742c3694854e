// swizzle solve: the optimal shared layout for a writer and a reader, with its proof.
#include <fmt/format.h>

#include "command.h"
#include "common.h"
#include "swz/io/atomic_file.h"
#include "swz/sim/corpus.h"
#include "swz/error.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"
#include "swz/layout/recognize.h"
#include "swz/solve/solver.h"

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

nlohmann::json cost_json(const SideCost& c) {
  return {{"instruction", c.instruction},
          {"vec_bits", c.vec_bits},
          {"instructions", c.instructions},
          {"wavefronts", c.wavefronts},
          {"ideal_wavefronts", c.ideal_wavefronts},
          {"total_wavefronts", c.total_wavefronts},
          {"conflicts", c.conflicts}};
}

// One side: the algebra's cost, what the simulator saw, and the registers the kernel issues.
nlohmann::json side_json(const SideCost& c, const AccessResult& sim, bool renumbered, const std::vector<std::uint64_t>& from) {
  nlohmann::json j = cost_json(c);
  j["simulated_wavefronts"] = sim.wavefronts;
  j["registers_renumbered"] = renumbered;
  if (renumbered) j["registers"] = from;  // register i = XOR of the original registers in bit mask from[i]
  return j;
}

nlohmann::json trace_json(const SolveResult& r, const LinearLayout& coords) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& st : r.trace) {
    nlohmann::json sets = nlohmann::json::object();
    for (const auto& s : st.sets) {
      nlohmann::json list = nlohmann::json::array();
      for (BitVec v : s.vectors) list.push_back({{"name", coords.describe_out(v)}, {"coords", coords.unflatten(v)}});
      sets[s.name] = list;
    }
    steps.push_back({{"title", st.title}, {"sentence", st.sentence}, {"sets", sets}});
  }
  return steps;
}

void print_text(const SolveResult& r, const LinearLayout& coords, const std::vector<LayoutMatch>& matches) {
  for (const auto& st : r.trace) fmt::print("{}: {}\n", st.title, st.sentence);
  fmt::print("\nshared layout (offset -> coords):\n{}", to_triton_text(r.offset_bases));
  for (const auto& [name, c] : {std::pair{"write:", r.write_cost}, std::pair{"read: ", r.read_cost}})
    fmt::print("{} {} ({}-bit vectors), {} instructions x {} wavefront(s) (ideal {}) = {}\n", name, c.instruction, c.vec_bits,
               c.instructions, c.wavefronts, c.ideal_wavefronts, c.total_wavefronts);
  fmt::print("total: {} wavefronts\n", r.write_cost.total_wavefronts + r.read_cost.total_wavefronts);
  if (!r.tradeoff.empty()) fmt::print("trade-off: {}\n", r.tradeoff);
  fmt::print("widest possible: writer {} bits, reader {} bits, both {} bits\n", r.width.write_max_bits, r.width.read_max_bits,
             r.width.common_max_bits);
  fmt::print("lower bound: write {}, read {}: {}\n", r.bound.write_wavefronts, r.bound.read_wavefronts, r.bound.reason);
  for (const auto& m : matches) fmt::print("equals: {}\n", m.name);
  (void)coords;
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
         Problem p = build_problem(spec);
         if (o->ldmatrix) p.read.ldmatrix = o->ldmatrix;
         if (o->problem.mask && !p.grid) fail("preset '{}' has no toggle grid, so --mask does not apply", p.name);
         const std::vector<std::uint32_t> current = spec.masks;  // the grid to repair (checked by the spec)
         SolveOptions opt;
         opt.write_vec_bits = spec.write_vec_bits ? spec.write_vec_bits : o->vec_bits ? o->vec_bits : 128;
         opt.read_vec_bits = spec.read_vec_bits ? spec.read_vec_bits : o->vec_bits ? o->vec_bits : 128;
         opt.renumber_registers = !o->keep_order;
         if (!o->probe_cases.empty()) opt.check = SolveOptions::Check::Full;  // the cases come from the table
         const SolveResult r = solve(p, opt);
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
         const LinearLayout& coords = p.store.layout;
         // Naming the layout needs its table: only when the check built one.
         const auto matches = r.sampled ? std::vector<LayoutMatch>{} : recognize(r.shared, p.element_bits);
         nlohmann::json j;
         if (o->json) {
           // The preset names the accesses, so `swizzle export --solved` can describe them in the header.
           if (!spec.preset.empty() && !spec.writer && !spec.reader && spec.shape.empty()) j["preset"] = p.name;
           j["shared"] = layout_to_json(r.offset_bases, p.element_bits);
           j["vec_bits"] = r.vec_bits;
           j["element_bits"] = p.element_bits;
           j["write"] = side_json(r.write_cost, r.write, r.write_renumbered, r.write_registers);
           j["read"] = side_json(r.read_cost, r.read, r.read_renumbered, r.read_registers);
           j["total_wavefronts"] = r.write_cost.total_wavefronts + r.read_cost.total_wavefronts;
           j["width_proof"] = {{"write_max_bits", r.width.write_max_bits},
                               {"read_max_bits", r.width.read_max_bits},
                               {"common_max_bits", r.width.common_max_bits},
                               {"reason", r.width.reason}};
           nlohmann::json alts = nlohmann::json::array();
           for (const auto& c : r.choices) {
             nlohmann::json a = {{"write_vec_bits", c.write_vec_bits}, {"read_vec_bits", c.read_vec_bits}, {"built", c.built},
                                 {"chosen", c.chosen}};
             if (c.built) {
               a["write"] = cost_json(c.write);
               a["read"] = cost_json(c.read);
               a["total_wavefronts"] = c.total_wavefronts;
               a["instructions"] = c.instructions;
             } else {
               a["note"] = c.note;
             }
             alts.push_back(a);
           }
           j["alternatives"] = alts;
           j["tradeoff"] = r.tradeoff.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.tradeoff);
           j["check"] = {{"sampled", r.sampled}, {"simulated_instructions", r.simulated_instructions}, {"text", r.check}};
           j["lower_bound"] = {{"write_wavefronts", r.bound.write_wavefronts}, {"read_wavefronts", r.bound.read_wavefronts},
                               {"segment_bits", r.bound.segment_bits},         {"space_dim", r.bound.space_dim},
                               {"max_avoiding_dim", r.bound.max_avoiding_dim}, {"reason", r.bound.reason}};
           j["conflict_free"] = r.conflict_free;
           j["fallback"] = r.fallback;
           j["matches"] = nlohmann::json::array();
           for (const auto& m : matches) j["matches"].push_back({{"family", m.family}, {"name", m.name}});
           j["trace"] = trace_json(r, coords);
         } else {
           print_text(r, coords, matches);
         }
         if (p.grid) {
           // Masks: the construction's own when it is a toggle grid, else the first family member.
           std::optional<std::vector<std::uint32_t>> masks = masks_of(p, r.offset_bases);
           if (masks && !masks_conflict_free(p, *masks)) masks.reset();
           // The family is a search over mask sets, exponential in the grid's rows: it is counted where the
           // answer was checked in full (tiles up to 2^kFullCheckBits elements), and left out beyond.
           const bool count = !r.sampled;
           if (!masks && count) masks = MaskEnumerator(p).next();
           // The family counts mask sets by the sweep's definition: both sides conflict-free (and each alone).
           const std::uint64_t size = count ? family_size(p, AccessSides::Both) : 0;
           const std::uint64_t read_size = count ? family_size(p, AccessSides::Read) : 0;
           const std::uint64_t write_size = count ? family_size(p, AccessSides::Write) : 0;
           std::optional<Repair> fix;
           if (o->problem.mask) fix = repair(p, current);
           if (o->json) {
             j["masks"] = masks ? nlohmann::json(*masks) : nlohmann::json(nullptr);
             j["family_size"] = count ? nlohmann::json(size) : nlohmann::json(nullptr);  // = family.both
             j["family"] = count ? nlohmann::json{{"both", size}, {"read", read_size}, {"write", write_size}} : nlohmann::json(nullptr);
             if (fix) {
               nlohmann::json cells = nlohmann::json::array();
               for (auto [row, col] : fix->cells) cells.push_back({{"row_bit", row}, {"column_bit", col}});
               j["repair"] = {{"possible", fix->possible},
                              {"flips", fix->flips},
                              {"masks", fix->masks},
                              {"cells", cells},
                              {"exact", fix->exact}};
             }
           } else {
             fmt::print("masks: {}\n", masks ? format_masks(*masks) : std::string("none (no toggle grid is conflict-free here)"));
             if (count)
               fmt::print("conflict-free family ({} both conflict-free): {} mask sets; {} alone: {}, {} alone: {}\n",
                          sides_name(AccessSides::Both), size, sides_name(AccessSides::Read), read_size,
                          sides_name(AccessSides::Write), write_size);
             else
               fmt::print("conflict-free family: not counted (a search over 2^{} mask sets; counted up to 2^{} elements)\n",
                          p.grid->configs_log2(), SolveOptions::kFullCheckBits);
             if (fix) {
               if (!fix->possible)
                 fmt::print("repair: impossible, no mask set is conflict-free\n");
               else
                 fmt::print("repair: {} flip(s) -> masks {}\n", fix->flips, format_masks(fix->masks));
             }
           }
         }
         if (o->json) print_json(j);
       });
     }}};

}  // namespace
}  // namespace swz::cli
