// hipkittens_tables.h: reads HipKittens' measured phase and bank tables (tests/data/amd/hipkittens).
#pragma once

#include <string>
#include <vector>

namespace swz::hipkittens {

struct PhaseTable {
  std::vector<std::vector<int>> phases;     // "Phase k: n threads - [lanes]"
  std::vector<std::vector<int>> conflicts;  // the 64 x 64 conflict matrix (1 = conflict)
};

// Throws std::runtime_error naming the file when it is not such a table.
PhaseTable read_phase_table(const std::string& path);
// "Number of LDS banks: N" from a bank_results.txt.
int read_bank_count(const std::string& path);

}  // namespace swz::hipkittens
