// sass.h: a kernel's SASS listing, read for the instructions the audit needs.
//
// Three printings of the same instructions are read:
//
//   Triton's asm["sass"]     Function:matmul
//                            --:-:-:-:1	LDGSTS.E.BYPASS.128 [R11], desc[UR20][R2.64], P0;
//   cuobjdump -sass          Function : matmul
//                            /*0570*/   LDGSTS.E.BYPASS.128 [R23], desc[UR16][R16.64], P1 ;   /* 0x...fae */
//   nvdisasm                 .text.matmul:
//                            /*0570*/   LDGSTS.E.BYPASS.128 [R23], desc[UR16][R16.64], P1 ;
//
// A function starts at its header; inside one, a line holding ';' is an instruction (an address
// comment, Triton's control codes and a guard `@P0` / `@!P1` before its opcode, an encoding comment
// after); labels, encodings, directives and blank lines are skipped. Outside a function nothing
// is read. Bad input (no function, a control byte, an instruction line without an opcode, a function
// named twice) throws swz::Error naming the path and line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace swz::sass {

struct Instruction {
  int line = 0;                       // 1-based line in the listing
  std::string guard;                  // "P0", "!P1", "" (none)
  std::string opcode;                 // "LDGSTS.E.BYPASS.128"
  std::vector<std::string> operands;  // as written, split at the commas outside brackets
};

struct Function {
  std::string name;
  int line = 0;  // its header's line
  std::vector<Instruction> instructions;
};

struct Listing {
  std::string path;
  std::vector<Function> functions;
  // The function `name`; throws swz::Error naming the ones the listing holds.
  const Function& function(const std::string& name) const;
};

// `keep`: only the instructions whose opcode begins with it are held ("LDGSTS": what the audit
// reads; a listing of a whole library is tens of megabytes), every line still read and checked.
Listing read_listing(std::string_view text, const std::string& path, std::string_view keep = "");

// An LDGSTS's predicate operand, the register that chooses its 16 or 0 source bytes in Triton's
// masked form ("LDGSTS.E.BYPASS.128 [R23], desc[UR16][R16.64], P1": "P1"; "!P0"; "PT"), or "" where
// its last operand is not a predicate (the plain and .ZFILL forms).
std::string predicate_operand(const Instruction& instruction);

}  // namespace swz::sass
