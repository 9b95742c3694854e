// math_text.h: the little notation lesson and quiz text uses for operators.
//
//   a ^ b      XOR, shown as a ⊕ b          (any '^' not followed by '{')
//   2^{d}      a power, shown as 2ᵈ        (the braces hold the exponent)
//   m_{j}      an index, shown as mⱼ        (n_{j+1} as nⱼ₊₁; m_j without braces stays as written)
//
// Lessons are written in plain ASCII; render_math() turns them into what a card,
// a slide or a terminal shows. An exponent whose characters have no superscript
// form (Unicode has none for most capitals) is written 2 to the power (exp) on a Unicode
// card; in ASCII every power is 2**d (2**(d-1)), never as something that reads as XOR.
//
// A paragraph that starts with four spaces is code (a kernel, a formula laid out in
// lines): every line keeps its text as written, '^' included, and front ends draw
// it in a fixed-width font with its line breaks ("\n") and indentation kept.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace swz {

enum class MathStyle {
  Ascii,    // '^' stays '^', 2^{d} becomes 2**d  (terminals, logs)
  Unicode,  // ⊕ and superscripts                 (the workbench's cards)
  Html,     // &oplus; and <sup>d</sup>, the rest HTML-escaped (handouts)
};

std::string render_math(std::string_view text, MathStyle style);

// True when `text` has a power written without braces, like "2^d" or "F2^9": text that
// would show an XOR where a power is meant. Mask expressions such as m0^n1 are XORs.
bool has_ambiguous_power(std::string_view text);

// True when `paragraph` is code: it starts with four spaces.
bool is_code_paragraph(std::string_view paragraph);
// A code paragraph's lines, each without the four spaces that mark it as code (a line
// with fewer leading spaces loses those it has); trailing empty lines are dropped.
std::vector<std::string> code_lines(std::string_view paragraph);

}  // namespace swz
