#include "swz/solve/solve_report.h"

#include <fmt/format.h>

#include "swz/error.h"
#include "swz/io/layout_io.h"
#include "swz/sim/warp_access.h"

namespace swz {
namespace {

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

// The answer's copy against the problem's own: never more global sectors. Renumbered registers or
// another width group the elements into other instructions; the problem's own registers and width
// read exactly what the problem's copy reads.
void guard_copy_sectors(SolveReport& out, SolveOptions opt) {
  const Problem& p = out.problem;
  const auto answer_reads = [&p](const SolveResult& r) {
    const SharedLayout shared = r.sampled ? SharedLayout::from_linear(r.offset_bases, "solved swizzle") : r.shared;
    return global_requests(r.writer, shared, p.element_bits, p.bank);
  };
  out.copy_own = global_requests(p.store, p.shared, p.element_bits, p.bank);
  out.copy_answer = answer_reads(out.result);
  if (out.copy_answer->total_sectors <= out.copy_own->total_sectors) return;
  const int own_bits = choose_vector(p.store, p.shared, p.element_bits, p.bank).bits;
  const std::int64_t more = out.copy_answer->total_sectors;
  opt.renumber_registers = false;
  opt.write_vec_bits = own_bits;
  out.result = solve(p, opt);
  out.copy_answer = answer_reads(out.result);
  out.result.trace.push_back(
      {"Global side", fmt::format("The copy keeps its own registers and {}-bit vectors: the first answer's copy read {} global "
                                  "sectors where the problem's reads {}.",
                                  own_bits, more, out.copy_own->total_sectors),
       {}});
}

}  // namespace

SolveReport solve_spec(const ProblemSpec& spec, const SolveRequest& request) {
  SolveRequest with_caps = request;
  if (spec.write_vec_bits) with_caps.write_vec_bits = spec.write_vec_bits;
  if (spec.read_vec_bits) with_caps.read_vec_bits = spec.read_vec_bits;
  SolveReport out = solve_problem(build_problem(spec), with_caps);
  // The preset names the accesses, so `swizzle export --solved` can describe them in the header.
  out.named_preset = !spec.preset.empty() && !spec.writer && !spec.reader && spec.shape.empty();
  if (request.repair_masks && out.problem.grid) out.repair = repair(out.problem, spec.masks);  // the grid to repair (checked by the spec)
  return out;
}

SolveReport solve_problem(Problem problem, const SolveRequest& request) {
  SolveReport out;
  Problem& p = out.problem;
  p = std::move(problem);
  if (request.ldmatrix) {
    p.read.ldmatrix = request.ldmatrix;
    // The grid's untoggled column bits are the vectors the accesses get from the row-major tile, and an
    // ldmatrix reader reads 16-byte rows: the grid follows it, and where that tile breaks the rows no mask
    // set can mend them (masks only move columns above the vector bits), so there is no toggle grid.
    if (p.grid) {
      try {
        p.grid = grid_for(p);
      } catch (const Error&) {
        p.grid.reset();
      }
    }
    if (request.repair_masks && !p.grid)
      fail("--ldmatrix {}: the row-major tile breaks the reader's 16-byte rows, so preset '{}' has no toggle grid to "
           "repair with --mask",
           request.ldmatrix, p.name);
    if (p.grid)
      for (std::size_t j = 0; j < p.masks.size(); ++j)
        if (p.masks[j] & ((std::uint32_t{1} << p.grid->vec_bits) - 1))
          fail("--mask: mask {} (row bit {}) toggles column bits below {}, the ldmatrix reader's 16-byte row", p.masks[j],
               j, p.grid->vec_bits);
  }
  if (request.repair_masks && !p.grid) fail("preset '{}' has no toggle grid, so --mask does not apply", p.name);
  SolveOptions opt;
  opt.write_vec_bits = request.write_vec_bits ? request.write_vec_bits : request.vec_bits ? request.vec_bits : 128;
  opt.read_vec_bits = request.read_vec_bits ? request.read_vec_bits : request.vec_bits ? request.vec_bits : 128;
  opt.renumber_registers = !request.keep_order;
  if (request.full_check) opt.check = SolveOptions::Check::Full;
  if (p.store.async_copy)  // a cp.async copies consecutive bytes on both sides: no wider than global memory allows
    opt.write_vec_bits = std::min(opt.write_vec_bits, global_vector_bits(p.store, p.element_bits));
  out.result = solve(p, opt);
  if (p.store.async_copy) guard_copy_sectors(out, opt);
  const SolveResult& r = out.result;
  // Only a side narrower than 16 bytes leaves instructions to save.
  if (r.write_cost.vec_bits < 128 || r.read_cost.vec_bits < 128) out.registers = suggest_register_blocks(p, r, opt);
  // Naming the layout needs its table: only when the check built one.
  if (!r.sampled) out.matches = recognize(r.shared, p.element_bits);
  if (p.grid) {
    // Masks: the construction's own when it is a toggle grid, else the first family member.
    out.masks = masks_of(p, r.offset_bases);
    if (out.masks && !masks_conflict_free(p, *out.masks)) out.masks.reset();
    out.family_counted = !r.sampled && request.count_family;
    if (!out.masks && out.family_counted) out.masks = MaskEnumerator(p).next();
    // The family counts mask sets by the sweep's definition: both sides conflict-free (and each alone).
    if (out.family_counted) {
      out.family_both = family_size(p, AccessSides::Both);
      out.family_read = family_size(p, AccessSides::Read);
      out.family_write = family_size(p, AccessSides::Write);
    }
  }
  return out;
}

nlohmann::json to_json(const SolveReport& report) {
  const SolveResult& r = report.result;
  const Problem& p = report.problem;
  nlohmann::json j;
  if (report.named_preset) j["preset"] = p.name;
  j["shared"] = layout_to_json(r.offset_bases, p.element_bits);
  j["vec_bits"] = r.vec_bits;
  j["element_bits"] = p.element_bits;
  j["write"] = side_json(r.write_cost, r.write, r.write_renumbered, r.write_registers);
  if (report.copy_answer) {
    const SharedLayout shared = r.sampled ? SharedLayout::from_linear(r.offset_bases, "solved swizzle") : r.shared;
    j["write"]["global"] = global_side_json(r.writer, shared, p.element_bits, p.bank, p.copy_placement);
    j["write"]["global"]["problem_sectors_per_request"] = report.copy_own->sectors_per_request;
    j["write"]["global"]["problem_total_sectors"] = report.copy_own->total_sectors;
  }
  j["read"] = side_json(r.read_cost, r.read, r.read_renumbered, r.read_registers);
  j["total_wavefronts"] = r.total_wavefronts();
  j["width_proof"] = {{"write_max_bits", r.width.write_max_bits},
                      {"read_max_bits", r.width.read_max_bits},
                      {"common_max_bits", r.width.common_max_bits},
                      {"reason", r.width.reason}};
  nlohmann::json alts = nlohmann::json::array();
  for (const auto& c : r.choices) {
    nlohmann::json a = {
        {"write_vec_bits", c.write_vec_bits}, {"read_vec_bits", c.read_vec_bits}, {"built", c.built}, {"chosen", c.chosen}};
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
  for (const auto& m : report.matches) j["matches"].push_back({{"family", m.family}, {"name", m.name}});
  j["trace"] = trace_json(r, p.store.layout);
  j["register_blocks"] = nullptr;
  if (const auto& s = report.registers)
    j["register_blocks"] = {{"rows_per_lane", s->rows},
                            {"write_layout", layout_to_json(s->write_layout, p.element_bits)},
                            {"read_layout", layout_to_json(s->read_layout, p.element_bits)},
                            {"write", cost_json(s->result.write_cost)},
                            {"read", cost_json(s->result.read_cost)},
                            {"instructions", s->result.total_instructions()},
                            {"total_wavefronts", s->result.total_wavefronts()}};
  if (p.grid) {
    j["masks"] = report.masks ? nlohmann::json(*report.masks) : nlohmann::json(nullptr);
    j["family_size"] = report.family_counted ? nlohmann::json(report.family_both) : nlohmann::json(nullptr);  // = family.both
    j["family"] = report.family_counted
                      ? nlohmann::json{{"both", report.family_both}, {"read", report.family_read}, {"write", report.family_write}}
                      : nlohmann::json(nullptr);
    if (report.repair) {
      const Repair& fix = *report.repair;
      nlohmann::json cells = nlohmann::json::array();
      for (auto [row, col] : fix.cells) cells.push_back({{"row_bit", row}, {"column_bit", col}});
      j["repair"] = {
          {"possible", fix.possible}, {"flips", fix.flips}, {"masks", fix.masks}, {"cells", cells}, {"exact", fix.exact}};
    }
  }
  return j;
}

ProblemSpec answered_spec(ProblemSpec spec, const SolveResult& answer) {
  spec.shared = SpecLayout{answer.offset_bases, "solver's answer"};
  spec.variant.clear();
  spec.masks.clear();
  for (const bool load : {false, true}) {
    const SideCost& cost = load ? answer.read_cost : answer.write_cost;
    const InstructionKind kind = instruction_kind_named(cost.instruction);
    (load ? spec.read_matrix : spec.write_matrix) =
        kind.is_matrix() ? fmt::format("x{}{}", kind.matrices, kind.trans ? ".trans" : "") : std::string();
    (load ? spec.read_vec_bits : spec.write_vec_bits) = kind.is_matrix() ? 0 : cost.vec_bits;
  }
  return spec;
}

}  // namespace swz
