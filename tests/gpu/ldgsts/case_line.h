// case_line.h: one case of a probe case file (probe.cu, zfill.cu), a line `KIND MODE a0..a31 g0..g31`.
#pragma once

#include <istream>
#include <sstream>
#include <string>
#include <vector>

struct ProbeCase {
  std::string kind;
  int mode = 0;
  std::vector<int> a = std::vector<int>(32);               // shared byte offsets (probe.cu says what negatives mean)
  std::vector<long long> go = std::vector<long long>(32);  // global byte offsets
};

// Reads the next line into `c`: false at the end of the file; `bad` when the line is not a case.
inline bool next_case(std::istream& in, ProbeCase& c, bool& bad) {
  std::string line;
  if (!std::getline(in, line)) return false;
  std::istringstream ls(line);
  ls >> c.kind >> c.mode;
  for (int& v : c.a) ls >> v;
  for (long long& v : c.go) ls >> v;
  bad = !ls;
  return true;
}
