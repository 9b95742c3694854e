// claim_words.h: a lesson claim as a sentence, for slides, pages and handouts.
//
// A claim names a quantity in the lesson file's notation (assets/lessons/README.md)
// and a value. Projected as written, `read.wavefronts = 2` is machine syntax; here
// each kind of quantity has one phrase that the value completes:
//
//   read.wavefronts    2        The read takes 2 wavefronts per instruction.
//   bank(1,0)          4        Element (1, 0) lives in bank 4.
//   tma(64).repeat_bytes 512    The 64-byte TMA pattern repeats every 512 bytes.
//   solve.read.instruction "LDSM.x4"   The solver's layout reads with LDSM.x4.
//
// Values that are themselves notation (XOR masks like m0^n1) are rendered with
// math_text.h in the style asked for. A quantity this file has no phrase for is
// written "quantity is value", so nothing is ever dropped.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "swz/teach/math_text.h"

namespace swz {

// The claim `quantity` having `value`, as one sentence ending in a full stop. HTML style escapes.
std::string claim_in_words(const std::string& quantity, const nlohmann::json& value, MathStyle style);

}  // namespace swz
