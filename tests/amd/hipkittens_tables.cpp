#include "hipkittens_tables.h"

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace swz::hipkittens {

namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<int> integers_in(const std::string& text) {
  std::vector<int> values;
  std::istringstream in(text);
  for (std::string token; in >> token;) values.push_back(std::stoi(token));
  return values;
}

}  // namespace

PhaseTable read_phase_table(const std::string& path) {
  PhaseTable table;
  const std::regex phase_line(R"(^Phase (\d+): (\d+) threads - \[([0-9, ]*)\]$)");
  const std::regex matrix_row(R"(^\s*(\d+)((\s+[01])+)\s*$)");
  for (const std::string& line : lines_of(path)) {
    std::smatch m;
    if (std::regex_match(line, m, phase_line)) {
      std::string lanes = m[3];
      for (char& c : lanes)
        if (c == ',') c = ' ';
      table.phases.push_back(integers_in(lanes));
      if (std::stoul(m[1]) != table.phases.size() - 1 || std::stoul(m[2]) != table.phases.back().size())
        throw std::runtime_error(path + ": phase line out of order or miscounted: " + line);
    } else if (std::regex_match(line, m, matrix_row)) {
      table.conflicts.push_back(integers_in(m[2]));
      if (std::stoul(m[1]) != table.conflicts.size() - 1 || table.conflicts.back().size() != 64)
        throw std::runtime_error(path + ": conflict-matrix row out of order or not 64 wide: " + line);
    }
  }
  if (table.phases.empty() || table.conflicts.size() != 64) throw std::runtime_error(path + ": not a phase table");
  return table;
}

int read_bank_count(const std::string& path) {
  const std::regex banks_line(R"(^Number of LDS banks: (\d+)$)");
  for (const std::string& line : lines_of(path)) {
    std::smatch m;
    if (std::regex_match(line, m, banks_line)) return std::stoi(m[1]);
  }
  throw std::runtime_error(path + ": no \"Number of LDS banks\" line");
}

}  // namespace swz::hipkittens
