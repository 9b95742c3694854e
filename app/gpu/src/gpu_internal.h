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
struct AccessPlan {
  VectorChoice vector;
  std::string instruction;              // "STS.32", "LDSM.x4"
  int ldmatrix = 0;
  bool store = false;
  int reg_bits = 0, lane_bits = 0, warp_bits = 0, vec_log2 = 0;
  int steps = 1, warps = 1, registers = 1;
  std::vector<BitVec> lane_images;      // coordinate of lane 2^i
  std::vector<BitVec> warp_images;      // coordinate of warp 2^i
  std::vector<BitVec> register_coords;  // coordinate of register r (every r)
};
AccessPlan plan_access(const Access& access, const SharedLayout& layout, int element_bits, const BankModel& model);

// Throws swz::Error for problems the backend cannot run.
void check_supported(const Problem& problem);

struct Emitter {
  static std::string offset_decls(const OffsetFunction& f, const std::string& name);
  static std::string lane_offset(const OffsetFunction& f, const AccessPlan& p, const std::string& coord_var, const std::string& var);
  static std::string offset_expr(const OffsetFunction& f, const std::string& lane_coord, const std::string& lane_off, BitVec reg_coord,
                                 const std::string& table_name);
  static std::string shared_stores(const AccessPlan& p, const OffsetFunction& f, int ebits, const std::string& lane_coord,
                                   const std::string& lane_off, const std::function<std::string(int)>& value, bool exact,
                                   const std::string& base = "swz_sbase");
  static std::string shared_loads(const AccessPlan& p, const OffsetFunction& f, int ebits, const std::string& lane_coord,
                                  const std::string& lane_off, const std::function<std::string(int, const std::string&)>& sink,
                                  bool exact, const std::string& base = "swz_sbase");
};

// Coordinates the reader covers (flat), sorted; the elements a correct run must deliver.
std::vector<BitVec> covered_coordinates(const Access& read);

}  // namespace swz::gpu::detail
