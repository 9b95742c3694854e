// cases.h: the problems the GPU suite runs, each with what the hardware reference says.
//
// Groups:
//   seed      the 16x32 fp32 transpose under its three swizzles (reference: reads 16 / 2 / 1, stores 1)
//   hardware  every measured row of shared/reference/hardware.md, as a one-warp access
//   tma       ldmatrix.x4 reads of fp16 tiles, unswizzled and under the TMA 128B / 64B / 32B swizzles
//   preset    every preset under every named layout (correctness and counters)
//   answer    every preset as the solver answers it (layout, instructions: STSM / LDSM / vectors)
//   transpose full-size transposes (fp32, fp16, fp8) running the solver's answer as given (layout and instructions)
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "swz/problem/problem.h"
#include "swz/solve/solver.h"

namespace swz::gpu_tests {

struct Case {
  std::string group;
  std::string name;             // unique within the suite; [A-Za-z0-9_]
  std::string description;      // the reference's wording
  Problem problem;
  std::optional<int> reference_store, reference_read;  // wavefronts per instruction from the reference
  int held_to_percent = 0;      // transpose: held to at least this % of the copy baseline (0: reported only)
  std::optional<Problem> asked = std::nullopt;  // transpose: the problem as posed; `problem` is the solver's answer to it
};

// gtest prints a parameter where it lists and fails a test, and ctest names the test after that
// listing (gpu_test.cpp): the case's name, not a dump of its Problem's bytes.
inline void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<Case> seed_cases();
std::vector<Case> hardware_cases();
std::vector<Case> tma_cases();
std::vector<Case> preset_cases();    // every preset x named layout; toy8x8 included (the backend refuses it)
std::vector<Case> answer_cases();    // every preset (32 banks) as the solver answers it: its layout and instructions
std::vector<Case> transpose_cases(); // fp32, fp16 and fp8 transposes, run as the solver answers them

// The solver's answer to `p` as the kernels run it (gpu::solved_problem: its layout, each side's
// instructions and register numbering); throws when the solver finds no conflict-free layout.
Problem with_solved_layout(Problem p);

}  // namespace swz::gpu_tests
