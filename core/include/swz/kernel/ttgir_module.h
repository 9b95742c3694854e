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
// A malformed line throws swz::Error "file:line:col: expected ...". So does a
// module that Triton itself would refuse: an alias used but never defined, a
// misspelled attribute name (#ttg.nvma_shared), an unknown key inside a layout
// attribute, or a value no layout can have (swizzlingByteWidth = 96,
// threadsPerWarp whose product is not the module's threads per warp).
//
// A file may hold several modules (MLIR_ENABLE_DUMP prints the module after
// each pass, each under a "// -----// IR Dump Before X //----- //" line and
// with its own aliases): split_modules() finds them, and each reads alone,
// with the file's own line numbers.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
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
  int lines = 0;       // lines of this module's text
  int first_line = 1;  // its first line in the file
  int index = 1, count = 1;  // the file's module `index` of `count` (1-based)
  std::string header;  // the dump header before it ("IR Dump Before ..."), or ""
  int num_warps = 4, threads_per_warp = 32, num_ctas = 1;
  std::string target;  // "cuda:90", "hip:gfx942", ...
  Aliases aliases;
  std::map<std::string, int> alias_lines;  // alias name -> 1-based line of its definition
  std::vector<Op> ops;  // ops of the dialects above, in file order
  // Every other tt. / arith. / scf. line, (1-based line, its text): the address arithmetic that
  // ttgir_pointer.h follows (make_range, splat, addptr, the kernel's arguments on tt.func, ...).
  std::vector<std::pair<int, std::string>> arithmetic;
  std::map<std::string, int> used_values;  // %value ("%3#1") -> how many times ops of any dialect read it
};

// One module's text in a file that may hold several.
struct ModuleSpan {
  std::size_t begin = 0, end = 0;  // byte range in the file's text
  int first_line = 1;              // 1-based line of `begin` in the file
  std::string header;              // "IR Dump Before X (x) ('builtin.module' operation)", or ""
};
// The modules of a file, in order; always at least one span (the whole text when no module
// line is found, so that reading it reports what is missing). A new module starts at a dump
// header line, or, once a module's region has closed, at the next layout alias or module line
// (the `#locN = loc(...)` lines after a module's closing brace stay with it).
std::vector<ModuleSpan> split_modules(std::string_view text);

// Reads a module; `path` names it in messages. Throws swz::Error for malformed text.
Module read_module(std::string_view text, const std::string& path);
// Reads the module `span` of a file's `text` (module `index` of `count`), with the file's line numbers.
Module read_module(std::string_view text, const std::string& path, const ModuleSpan& span, int index, int count);

}  // namespace swz::ttgir
