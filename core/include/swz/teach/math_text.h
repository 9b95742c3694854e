// math_text.h: the little notation lesson and quiz text uses for operators.
//
//   a ^ b      XOR, shown as a ⊕ b          (any '^' not followed by '{')
//   2^{d}      a power, shown as 2ᵈ        (the braces hold the exponent)
//
// Lessons are written in plain ASCII; render_math() turns them into what a card,
// a slide or a terminal shows. An exponent whose characters have no superscript
// form (Unicode has none for most capitals) is written 2^(exp) in ASCII and
// 2 to the power (exp) on a Unicode card, never as something that reads as XOR.
#pragma once

#include <string>
#include <string_view>

namespace swz {

enum class MathStyle {
  Ascii,    // '^' stays '^', 2^{d} becomes 2^(d)  (terminals, logs)
  Unicode,  // ⊕ and superscripts                 (the workbench's cards)
  Html,     // &oplus; and <sup>d</sup>, the rest HTML-escaped (handouts)
};

std::string render_math(std::string_view text, MathStyle style);

// True when `text` has a power written without braces, like "2^d" or "F2^9": text that
// would show an XOR where a power is meant. Mask expressions such as m0^n1 are XORs.
bool has_ambiguous_power(std::string_view text);

}  // namespace swz
