// ttgir_module.h: a TTGIR module (Triton's GPU IR, as TRITON_KERNEL_DUMP or
// MLIR_ENABLE_DUMP print it), read line by line.
//
//   #blocked = #ttg.blocked<{...}>                       alias: kept by name
//   #loc12 = loc("kernel.py":12:5)                        location: kept, resolved at the end
//   module attributes {"ttg.num-warps" = 4 : i32, ...}   warps, lanes, CTAs, target
//   %x = ttg.local_load %buf : !ttg.memdesc<...> -> tensor<...>   op: name, results, operands, types
//
// Only what the audit needs is parsed deeply: alias lines, the module line,
// and ops of the ttg / ttng / amdg dialects (plus tt.reduce / tt.scan, which
// may use shared scratch). Every other line is checked for balanced brackets
// and otherwise skipped, so a 100k-line module reads in a few milliseconds.
// A malformed line throws swz::Error "file:line:col: expected ...".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "swz/kernel/ttgir.h"

namespace swz::ttgir {

struct Op {
  int line = 0;                       // 1-based line of the op in the file
  int column = 0;                     // 1-based column where the op name starts
  std::string name;                   // "ttg.local_store"
  std::vector<std::string> results;   // "%x", or "%x#0".. for multi-results
  std::vector<std::string> operands;  // "%a", ... in order (before the ':')
  std::string attributes;             // the {...} or <{...}> text, if any
  std::string indices;                // "0, 32" from "%x[0, 32]" right after the first operand
  std::vector<Type> operand_types;    // left of "->" (or all types when there is no "->")
  std::vector<Type> result_types;     // right of "->"
  std::string loc_ref;                // "#loc12", or the inline loc("...") text
  std::string loc;                    // resolved "file.py:12:5", or "" when unknown
};

struct Module {
  std::string path;
  int lines = 0;
  int num_warps = 4, threads_per_warp = 32, num_ctas = 1;
  std::string target;  // "cuda:90", "hip:gfx942", ...
  Aliases aliases;
  std::map<std::string, int> alias_lines;  // alias name -> 1-based line of its definition
  std::vector<Op> ops;  // ops of the dialects above, in file order
};

// Reads a module; `path` names it in messages. Throws swz::Error for malformed text.
Module read_module(const std::string& text, const std::string& path);

}  // namespace swz::ttgir
