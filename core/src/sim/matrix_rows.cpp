// matrix_rows.cpp: the rows an ldmatrix / stmatrix side's lanes address, from what it holds
// (matrix_rows.h draws the two forms).
#include "swz/sim/matrix_rows.h"

#include <algorithm>

#include "../int_bits.h"
#include "swz/algebra/f2.h"
#include "swz/error.h"

namespace swz {

std::optional<Access> matrix_rows(const Access& held, int ebits, bool trans, const std::vector<BitVec>& regs) {
  if (held.ldmatrix || held.vec_bits || ebits < 8 || ebits > 32 || (trans && ebits != 16)) return std::nullopt;
  const auto& lanes = held.layout.bases("lane");
  const std::size_t word = static_cast<std::size_t>(int_bits::ilog2(32 / ebits));
  if (lanes.size() != 5 || regs.size() < word + 2) return std::nullopt;
  std::vector<BitVec> row, addr;
  if (!trans) {
    row.assign(regs.begin(), regs.begin() + static_cast<std::ptrdiff_t>(word));
    row.insert(row.end(), {lanes[0], lanes[1]});
    addr = {lanes[2], lanes[3], lanes[4], regs[word], regs[word + 1]};
  } else {
    row = {lanes[2], lanes[3], lanes[4]};
    addr = {regs[0], lanes[0], lanes[1], regs[1], regs[2]};
  }
  if (std::find(row.begin(), row.end(), BitVec{0}) != row.end() || std::find(addr.begin(), addr.end(), BitVec{0}) != addr.end())
    return std::nullopt;
  std::vector<BitVec> registers = row;
  registers.insert(registers.end(), regs.begin() + static_cast<std::ptrdiff_t>(word + 2), regs.end());
  Access out = held;
  out.layout = held.layout.with_in_dim("register", registers).with_in_dim("lane", addr);
  out.ldmatrix = 4;
  out.trans = trans;
  return out;
}

std::vector<Access> matrix_row_forms(const Access& held, int ebits, bool trans, const std::vector<BitVec>* other_registers) {
  const std::vector<BitVec> regs = held.layout.bases("register");
  std::vector<std::vector<BitVec>> orders{regs};
  if (other_registers) {
    const Subspace theirs = Subspace::span(*other_registers, held.layout.out_bits());
    std::vector<BitVec> shared_first;
    for (bool in : {true, false})
      for (BitVec r : regs)
        if (theirs.contains(r) == in) shared_first.push_back(r);
    if (shared_first != regs) orders.push_back(std::move(shared_first));
  }
  std::vector<Access> out;
  for (const auto& order : orders)
    if (auto m = matrix_rows(held, ebits, trans, order)) out.push_back(std::move(*m));
  return out;
}

Access issue_matrix(const Access& side, const SharedLayout& shared, int ebits, const BankModel& model,
                    const std::vector<BitVec>* other_registers) {
  const auto rows_contiguous = [&](const Access& a) {
    try {
      (void)choose_vector(a, shared, ebits, model);
      return true;
    } catch (const Error&) {
      return false;
    }
  };
  if (rows_contiguous(side)) return side;
  if (side.ldmatrix == 4) {
    Access held = side;
    held.ldmatrix = 0;
    held.trans = false;
    held.vec_bits = 0;
    for (Access& form : matrix_row_forms(held, ebits, side.trans, other_registers)) {
      form.kind = side.kind;
      if (rows_contiguous(form)) return form;
    }
  }
  // The simulator's own message names what breaks.
  (void)choose_vector(side, shared, ebits, model);
  return side;
}

}  // namespace swz
