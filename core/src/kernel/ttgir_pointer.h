// ttgir_pointer.h (private to core/src/kernel): a module's address arithmetic, followed.
//
// Triton builds a tile's pointers from a few integer ops. The audit reads them to know where each
// element of a cp.async or a tt.load comes from in global memory, instead of guessing it from the
// register layout:
//
//   %r = tt.make_range {end = 32, start = 0}      r[i] = i                      (32)
//   %e = tt.expand_dims %r {axis = 1}             e[k][0] = r[k]                (32x1)
//   %s = tt.splat %N                              s[k][0] = N   (N: an argument, a stride)
//   %m = arith.muli %e, %s                        m[k][0] = k * N
//   %b = tt.broadcast %m                          b[k][n] = m[k][0]             (32x64)
//   %p = tt.addptr %base_tile, %b                 bytes: p + b * sizeof(element)
//
// A value is an affine form over the function's integer arguments (the strides), per element e
// of its tensor, elements in row-major order:
//
//   v[e] = constant[e] + sum over arguments a of coefficient_a[e] * a  (+ u)
//
// u is a *uniform unknown*: program ids, loop bounds, a pointer argument's base, any scalar the
// reader does not compute. It is the same for every element, so it moves every lane's address
// alike: the source banks only rotate (bank = address / 4 mod 32), which changes no count of lanes
// per bank. A pointer's form is in bytes. Loops: an scf.for's induction variable is its lower bound
// and its iter_args their initial values (the first iteration); follow_with() evaluates a value at
// another iteration (the induction variable at lb + i * step), which is how the audit prices every
// stage of a pipelined copy (audit_pipeline.h). Values known per element (no argument, no unknown)
// also go through remsi / remui / divsi / divui / andi / ori / xori / shrsi / shrui: a gather's
// indices computed from a range. What is not one of these ops, or multiplies two lane-varying
// unknowns, is not followed: the reader says which op at which line stopped it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "swz/kernel/ttgir_module.h"

namespace swz::ttgir {

// An integer argument of the kernel: an unknown the caller passes (a stride, a size).
struct Argument {
  std::string name;                          // "%N"
  std::optional<std::int64_t> divisibility;  // tt.divisibility: the value is a multiple of it; none printed
};

// Concrete values of names: the kernel's integer arguments (given or assumed) and loop induction
// variables, for follow_with() and scalar().
using Values = std::map<std::string, std::int64_t>;

// An scf.for: `%iv = %lower to %upper step %step iter_args(%carried = ..., ...)` at `line`.
struct Loop {
  int line = 0;
  std::string induction, lower, upper, step;
  std::vector<std::string> carried;
};

struct Affine {
  std::vector<std::int64_t> shape;                               // {} for a scalar
  std::vector<std::int64_t> constant;                            // per element, row-major
  std::map<std::string, std::vector<std::int64_t>> coefficient;  // argument -> per element
  bool uniform_unknown = false;                                  // + one value the same for every element
  int pointee_bytes = 0;  // a pointer (the form in bytes) to elements of this size; 0: an integer
  std::size_t size() const { return constant.size(); }
};

// The value or why it could not be followed ("line 40: arith.remsi is not followed").
struct Followed {
  std::optional<Affine> value;
  std::string why_not;
};

class PointerReader {
 public:
  explicit PointerReader(const Module& m);
  Followed follow(const std::string& name) const;
  const std::map<std::string, Argument>& arguments() const { return arguments_; }
  // `name` with the names in `env` (induction variables, arguments) at those values.
  Followed follow_with(const std::string& name, const Values& env) const;
  // A scalar integer or i1 (arith.cmpi / andi / ori / xori, tt.splat of one) under `env`; empty
  // with `why` set when it depends on something `env` does not give or the reader does not compute.
  std::optional<std::int64_t> scalar(const std::string& name, const Values& env, std::string& why) const;
  const std::vector<Loop>& loops() const { return loops_; }
  // The innermost scf.for whose induction variable or carried values `name` depends on; null: none.
  const Loop* loop_of(const std::string& name) const;
  // The integer arguments and program ids `name` is computed from (a mask's %M, %pid_m).
  std::set<std::string> inputs_of(const std::string& name) const;
  // The values tt.get_program_id defines, each with its axis (0 x, 1 y, 2 z).
  const std::map<std::string, int>& program_ids() const { return program_ids_; }
  // The op that defines `name` ("tt.load") and its first operand, or empty strings.
  std::pair<std::string, std::string> definition(const std::string& name) const;
  // The pointers a tt.store writes the value `name` through, or an empty string.
  std::string stored_through(const std::string& name) const;

 private:
  struct Line {
    int line = 0;
    std::string op, head, type;  // head: operands and attributes; type: the result's
  };
  Affine evaluate(const std::string& name, int depth) const;
  std::optional<std::int64_t> scalar_at(const std::string& name, const Values& env, std::string& why, int depth) const;
  const Module& module_;
  std::map<std::string, Argument> arguments_;
  std::map<std::string, std::string> pointer_arguments_;  // name -> its type
  std::unordered_map<std::string, Line> definitions_;
  std::map<std::string, int> program_ids_;                // tt.get_program_id values -> axis
  std::unordered_map<std::string, std::string> same_as_;  // loop values -> their first iteration's value
  std::unordered_map<std::string, std::string> stores_;   // value -> the pointers a tt.store writes it through
  mutable std::unordered_map<std::string, std::shared_ptr<const Affine>> memo_;
  std::vector<Loop> loops_;
  mutable const Values* env_ = nullptr;  // follow_with(): names at given values, memoized apart
  mutable std::unordered_map<std::string, std::shared_ptr<const Affine>> env_memo_;
};

}  // namespace swz::ttgir
