// gpu_internal.h: pieces shared by the source generator and the CUDA runtime.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "swz/problem/problem.h"

namespace swz::gpu::detail {

// How the generated code turns a coordinate into a shared element offset.
enum class OffsetForm { Linear, Affine, Table };

struct OffsetFunction {
  OffsetForm form = OffsetForm::Table;
  int coord_bits = 0;
  std::vector<BitVec> linear_images;           // Linear: linear_images[i] = offset(e_i)
  std::int64_t affine_base = 0;                // Affine: offset = base + sum strides[d] * c_d
  std::vector<std::int64_t> affine_strides;
  std::vector<int> dim_shift, dim_bits;        // where c_d sits in the flat coordinate
  std::vector<std::uint32_t> table;            // Table: table[flat coordinate]
};
OffsetFunction offset_function(const SharedLayout& layout);
std::string offset_form_name(OffsetForm form);

// One access as the kernels run it: the simulator's vector choice and the layout's bases.
//
// Two layouts per access. Who holds what (the data: lane_images, warp_images, register_coords):
// register r of a lane holds coordinate XOR(lane bits) ^ XOR(warp bits) ^ register_coords[r].
// Where each instruction points (the address: address_lane_images, warp_images, step_coords):
// instruction `step` of a lane addresses coordinate XOR(address lane bits) ^ XOR(warp bits) ^
// step_coords[step], and moves registers step * per_step .. (step + 1) * per_step - 1.
// For LDS/STS both are the access layout. For ldmatrix / stmatrix (`matrices` > 0) the access
// layout gives the 16-byte rows lanes address (solver_instructions.cpp) and the data is the
// fragment the instruction delivers (matrix_fragment).
struct AccessPlan {
  VectorChoice vector;
  std::string instruction;              // "STS.32", "LDSM.x4.trans", "STSM.x4"
  int matrices = 0;                     // ldmatrix / stmatrix .x1/.x2/.x4; 0: LDS/STS
  bool trans = false;
  bool store = false;
  int reg_bits = 0, lane_bits = 0, warp_bits = 0;
  int steps = 1, warps = 1, registers = 1;
  int per_step = 1;                     // registers one instruction moves per lane
  std::vector<BitVec> lane_images;      // data: coordinate of lane 2^i
  std::vector<BitVec> warp_images;      // coordinate of warp 2^i (data and address)
  std::vector<BitVec> register_coords;  // data: coordinate of register r (every r)
  std::vector<BitVec> address_lane_images;  // address: coordinate lane 2^i points at
  std::vector<BitVec> step_coords;          // address: coordinate of instruction `step` (every step)
};
AccessPlan plan_access(const Access& access, const SharedLayout& layout, int element_bits, const BankModel& model);

// Who holds what after an ldmatrix (before a stmatrix) whose access layout gives the rows lanes
// address: lane l's word j of instruction s holds, for .x{m} without .trans, row l/4 elements
// E*(l%4) .. E*(l%4)+E-1 of matrix j (E = 32 / element bits), and with .trans (16-bit) rows
// 2(l%4), 2(l%4)+1 of column l/4. As a layout: registers = [word bits, matrix bits, instruction
// bits], lanes = [the two lane bits inside a row, the three row bits].
LinearLayout matrix_fragment(const Access& access, int element_bits);

// Both throw swz::Error for problems the backend cannot run.
// What the GPU can run whatever the shared layout: element width, banks and warp size, ldmatrix /
// stmatrix fragments, warps per block, and the tile's bytes against a block's shared memory.
void check_runnable(const Problem& problem);
// check_runnable, and the problem's own shared layout fits a block and covers its shape.
void check_supported(const Problem& problem);

struct Emitter {
  static std::string offset_decls(const OffsetFunction& f, const std::string& name);
  // A lane's data coordinate `var` (register 0) and address coordinate `var`_addr (instruction 0), and
  // (linear layouts) the lane-constant part of its offset `off`.
  static std::string lane_coords(const OffsetFunction& f, const AccessPlan& p, const std::string& var, const std::string& off);
  static std::string offset_expr(const OffsetFunction& f, const std::string& lane_coord, const std::string& lane_off, BitVec step_coord,
                                 const std::string& table_name);
  static std::string shared_stores(const AccessPlan& p, const OffsetFunction& f, int ebits, const std::string& lane_coord,
                                   const std::string& lane_off, const std::function<std::string(int)>& value, bool exact,
                                   const std::string& base = "swz_sbase");
  static std::string shared_loads(const AccessPlan& p, const OffsetFunction& f, int ebits, const std::string& lane_coord,
                                  const std::string& lane_off, const std::function<std::string(int, const std::string&)>& sink,
                                  bool exact, const std::string& base = "swz_sbase");
};

// Pieces of the generated CUDA text that every kernel shares.
int ilog2(std::uint64_t power_of_two);
const char* reg_type(int element_bits);  // the type a lane keeps an element in
const char* mem_type(int element_bits);  // the global array's element type
extern const char* const kPrelude;       // shared-address conversion
// A kernel's opening: its name, threads, parameters, the shared base and the lane / warp indices.
std::string kernel_head(const char* name, int threads, const std::string& params);
// Word w (32 bits) of a vector whose elements are the expressions `elems`.
std::string pack_word(int element_bits, const std::vector<std::string>& elems, int w);
// Element k of a vector from its 32-bit words `words_prefix`0, 1, ...
std::string unpack_elem(int element_bits, const std::string& words_prefix, int k);

// Coordinates the reader covers (flat), sorted; the elements a correct run must deliver.
std::vector<BitVec> covered_coordinates(const Access& read);

}  // namespace swz::gpu::detail
