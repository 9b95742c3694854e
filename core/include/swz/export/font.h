// font.h: text for the pictures the core draws itself (PNG figures, lesson slides).
//
// One family, DejaVu Sans (Debian: fonts-dejavu-core), regular, bold and the
// monospaced DejaVu Sans Mono for code, found by find_fonts(): $SWZ_FONT_DIR alone
// when it is set, else the usual font folders.
// The faces cover Latin, Greek, the superscripts math_text.h uses, ⊕ and the
// check marks; a character a face lacks is drawn as a visible empty box, never
// dropped, and has_glyph() lets a test ask before drawing.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "swz/export/raster.h"

namespace swz {

// Which face draws a piece of text: prose, headings, or code (every character one width).
enum class FontFace { Regular, Bold, Mono };

struct FontSearch {
  std::optional<std::filesystem::path> regular, bold;  // bold may be missing: regular, drawn twice
  std::optional<std::filesystem::path> mono;           // may be missing: code in the regular face
  std::vector<std::filesystem::path> tried;            // the folders looked in, in order
  // "" when found; else one line naming every folder tried and SWZ_FONT_DIR.
  std::string message() const;
};

FontSearch find_fonts();

class Typeface {
 public:
  // Loads the fonts find_fonts() finds; throws swz::Error with its message when there are none.
  static Typeface load();
  // Loads these files; throws naming a file that cannot be read or is not a TrueType font.
  explicit Typeface(const FontSearch& found);

  bool has_glyph(char32_t codepoint) const;
  // Advance width of a line of UTF-8 text at `px` pixels per em.
  double width(std::string_view utf8, double px, bool bold = false) const;
  double width(std::string_view utf8, double px, FontFace face) const;
  double ascent(double px) const;       // above the baseline, pixels
  double line_height(double px) const;  // baseline to baseline

  // Draws one line with its baseline at y, starting at x; returns the x where it ends.
  double draw(Image& image, double x, double y, double px, std::string_view utf8, Rgb color, bool bold,
              const PixelBox& clip) const;
  double draw(Image& image, double x, double y, double px, std::string_view utf8, Rgb color, FontFace face,
              const PixelBox& clip) const;
  // Whether code has its own monospaced face (else it is drawn in the regular one).
  bool has_mono() const { return mono_ != regular_; }

 private:
  struct Face;
  std::shared_ptr<const Face> regular_, bold_, mono_;
  const Face& face(FontFace which) const;
};

// The code points of UTF-8 text; a malformed byte becomes U+FFFD.
std::u32string decode_utf8(std::string_view utf8);

}  // namespace swz
