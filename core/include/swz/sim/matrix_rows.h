// matrix_rows.h: a side that moves its data with ldmatrix / stmatrix, from the registers it holds.
//
// The simulator takes an ldmatrix / stmatrix access as the rows its lanes address (bank.h's
// Access with `ldmatrix` set): registers = the elements of one 16-byte row, then one bit per
// further instruction; lanes 0..8N-1 = the row addresses. A kernel states the other thing: which
// lane holds which elements (an mma fragment, a blocked layout). For .x4 on b16 units:
//
//   plain:  a lane's 32-bit word j of matrix m = row (lane / 4), word (lane % 4)
//           row    = [word-internal registers, lane 0, lane 1]   (16 contiguous bytes)
//           rows   = [lane 2, lane 3, lane 4], matrices = the next 2 registers
//   .trans (16-bit): the lane receives a column pair of the stored matrix
//           row    = [lane 2, lane 3, lane 4]
//           rows   = [register 0, lane 0, lane 1], matrices = registers 1, 2
//
// The solver builds its matrix sides this way, and analyze, conflicts and the workbench issue a
// side named STSM / LDSM the same way (issue_matrix), so an answer checks on the layouts it was
// given.
#pragma once

#include <optional>
#include <vector>

#include "swz/layout/shared.h"
#include "swz/sim/bank.h"

namespace swz {

// The .x4 access whose lanes address the 16-byte rows of what `held` holds (registers in the order
// `registers` gives, any order of held's own), or nullopt when held's registers and lanes do not
// have an 8x8 matrix's shape (held must be a plain access: no ldmatrix, no vector width).
std::optional<Access> matrix_rows(const Access& held, int element_bits, bool trans, const std::vector<BitVec>& registers);

// The row forms a matrix side may take, in the order the solver tries them: its registers as
// numbered, then (given the other side's registers) the ones the other side also holds first, so
// that a row can be a vector of the other side too.
std::vector<Access> matrix_row_forms(const Access& held, int element_bits, bool trans,
                                     const std::vector<BitVec>* other_registers);

// `side` (ldmatrix set) as its instruction reads or writes `shared`: the layout as given when its
// lanes already address contiguous 16-byte rows there, else the first row form of its registers
// (matrix_row_forms) that does. Throws swz::Error naming the instruction when neither does.
Access issue_matrix(const Access& side, const SharedLayout& shared, int element_bits, const BankModel& model,
                    const std::vector<BitVec>* other_registers = nullptr);

}  // namespace swz
