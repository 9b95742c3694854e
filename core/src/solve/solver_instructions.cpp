// solver_instructions.cpp: which instructions each side issues. Plain loads
// and stores, or ldmatrix / stmatrix where a side's registers and lanes have an
// 8x8 b16 matrix's shape (sim/matrix_rows.h); every pair is built (solver.cpp)
// and the cheapest kept.
#include <fmt/format.h>

#include <algorithm>

#include "solver_access.h"
#include "swz/error.h"
#include "swz/sim/matrix_rows.h"
#include "swz/solve/solver.h"

namespace swz {

using namespace solve_detail;

SolveResult construct(const Access& writer, const Access& reader, int ebits, const BankModel& model, const SolveOptions& opt) {
  // The plain loads and stores first: bad input is reported for the accesses as given.
  SolveResult best = construct_with(writer, reader, ebits, model, opt);
  std::vector<InstructionChoice> tried;
  auto note = [&](const SolveResult& r, bool built, const std::string& why, const Access& w, const Access& rd) {
    InstructionChoice c;
    c.write_instruction = built ? r.write_cost.instruction : instruction_name(w, 128, model);
    c.read_instruction = built ? r.read_cost.instruction : instruction_name(rd, 128, model);
    c.built = built;
    c.note = why;
    if (built) {
      c.total_wavefronts = r.write_cost.total_wavefronts + r.read_cost.total_wavefronts;
      c.instructions = r.write_cost.instructions + r.read_cost.instructions;
    }
    tried.push_back(std::move(c));
  };
  note(best, true, "", writer, reader);
  if (opt.matrix_instructions) {
    std::vector<Access> ws{writer}, rs{reader};
    // Each side's registers as numbered, and with the ones the other side also holds first
    // (so a matrix row can be a vector of the other side too): matrix_rows.h, as analyze issues them.
    auto variants = [&](const Access& x, const Access& other, std::vector<Access>& out) {
      const std::vector<BitVec> theirs = other.layout.bases("register");
      for (bool trans : {false, true})
        for (Access& m : matrix_row_forms(x, ebits, trans, &theirs)) out.push_back(std::move(m));
    };
    variants(writer, reader, ws);
    variants(reader, writer, rs);
    // No instruction moves more than 128 bits per lane or costs less than one wavefront per 128 bytes:
    // once the plain answer reaches both floors, no other pair can beat it.
    auto floors = [&](const Access& x) {
      const std::int64_t lane_bits = std::int64_t{1} << (x.layout.in_dim_bits("register") + x.layout.in_dim_bits("warp"));
      return std::pair<std::int64_t, std::int64_t>{lane_bits * ebits / 32, std::max<std::int64_t>(1, lane_bits * ebits / 128)};
    };
    const auto floor_w = floors(writer), floor_r = floors(reader);
    const std::int64_t fw = floor_w.first, iw = floor_w.second, fr = floor_r.first, ir = floor_r.second;
    auto at_floor = [&] {
      return best.write_cost.total_wavefronts + best.read_cost.total_wavefronts <= fw + fr &&
             best.write_cost.instructions + best.read_cost.instructions <= iw + ir;
    };
    for (std::size_t i = 0; i < ws.size() && !at_floor(); ++i)
      for (std::size_t j = 0; j < rs.size() && !at_floor(); ++j) {
        if (i == 0 && j == 0) continue;
        try {
          SolveResult c = construct_with(ws[i], rs[j], ebits, model, opt);
          note(c, true, "", ws[i], rs[j]);
          if (cheaper_cost(c.write_cost, c.read_cost, best.write_cost, best.read_cost)) best = std::move(c);
        } catch (const Error& e) {
          note(best, false, e.what(), ws[i], rs[j]);
        }
      }
  }
  const std::string chosen_w = best.write_cost.instruction, chosen_r = best.read_cost.instruction;
  for (auto& c : tried) c.chosen = c.built && c.write_instruction == chosen_w && c.read_instruction == chosen_r;
  best.instructions = std::move(tried);
  if (best.instructions.size() > 1) {
    std::vector<std::string> parts;
    for (const auto& c : best.instructions)
      parts.push_back(c.built ? fmt::format("{} / {}: {} wavefronts, {} instructions", c.write_instruction, c.read_instruction,
                                            c.total_wavefronts, c.instructions)
                              : fmt::format("{} / {}: no layout", c.write_instruction, c.read_instruction));
    best.trace.insert(best.trace.begin(),
                      {"Instructions",
                       fmt::format("Each side may move its data with plain loads and stores or, where its registers and "
                                   "lanes have an 8x8 matrix's shape, with ldmatrix / stmatrix (rows of 16 bytes, one "
                                   "address per lane). Tried: {}. Chosen: the writer issues {}, the reader {}.",
                                   fmt::join(parts, "; "), chosen_w, chosen_r),
                       {}});
  }
  return best;
}

SolveResult construct(const Access& writer, const Access& reader, int ebits, const BankModel& model) {
  return construct(writer, reader, ebits, model, SolveOptions{});
}


}  // namespace swz
