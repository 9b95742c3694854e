// font.cpp: DejaVu Sans through stb_truetype (font.h).
#include "swz/export/font.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <unordered_map>

#include "swz/error.h"

// The core keeps its own private copy of stb_truetype (static functions), so it never
// clashes with another one linked into the same program.
#define STBTT_STATIC
#define STB_TRUETYPE_IMPLEMENTATION
#if __has_include(<stb_truetype.h>)
#include <stb_truetype.h>
#else
#include <stb/stb_truetype.h>
#endif

namespace swz {

namespace fs = std::filesystem;

// [SECTION] Finding the fonts

std::string FontSearch::message() const {
  if (regular) return "";
  std::string places;
  for (const fs::path& p : tried) places += (places.empty() ? "" : ", ") + p.string();
  return fmt::format(
      "no DejaVuSans.ttf found (looked in {}); install fonts-dejavu-core or set SWZ_FONT_DIR to a folder holding it", places);
}

FontSearch find_fonts() {
  FontSearch s;
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("SWZ_FONT_DIR"); env && *env)
    dirs.emplace_back(env);  // an explicit choice: never silently replaced by another folder
  else
    dirs = {"/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/local/share/fonts", "/usr/share/fonts/TTF"};
  std::error_code ec;
  for (const fs::path& d : dirs) {
    s.tried.push_back(d);
    if (!fs::exists(d / "DejaVuSans.ttf", ec)) continue;
    s.regular = d / "DejaVuSans.ttf";
    if (fs::exists(d / "DejaVuSans-Bold.ttf", ec)) s.bold = d / "DejaVuSans-Bold.ttf";
    if (fs::exists(d / "DejaVuSansMono.ttf", ec)) s.mono = d / "DejaVuSansMono.ttf";
    break;
  }
  return s;
}

// [SECTION] Faces

struct Typeface::Face {
  std::string bytes;  // the whole file: stbtt_fontinfo points into it
  stbtt_fontinfo info{};
  int ascent = 0, descent = 0, line_gap = 0;
  bool fake_bold = false;  // no bold file: the regular face drawn twice, a little apart

  explicit Face(const fs::path& file) {
    errno = 0;
    std::ifstream in(file, std::ios::binary);
    if (!in) fail("cannot read the font {}: {}", file.string(), errno != 0 ? std::strerror(errno) : "unknown reason");
    bytes.assign(std::istreambuf_iterator<char>(in), {});
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    const int offset = stbtt_GetFontOffsetForIndex(data, 0);
    if (bytes.size() < 12 || offset < 0 || !stbtt_InitFont(&info, data, offset)) fail("{} is not a TrueType font", file.string());
    stbtt_GetFontVMetrics(&info, &ascent, &descent, &line_gap);
  }
  double scale(double px) const { return static_cast<double>(stbtt_ScaleForMappingEmToPixels(&info, static_cast<float>(px))); }

  // The font's glyph of a code point (0: none), a glyph's advance and a pair's kerning, in font
  // units, each looked up in the file once and kept: text is measured many times over (wrapping,
  // fitting a slide), and a kerning lookup walks the font's tables (most of a slide's time). Safe
  // to call from several threads.
  int glyph(char32_t codepoint) const {
    std::lock_guard<std::mutex> lock(cache_mutex_);
    const auto [it, added] = glyphs_.try_emplace(codepoint, 0);
    if (added) it->second = stbtt_FindGlyphIndex(&info, static_cast<int>(codepoint));
    return it->second;
  }
  int advance(int glyph) const {
    std::lock_guard<std::mutex> lock(cache_mutex_);
    const auto [it, added] = advances_.try_emplace(glyph, 0);
    if (added) {
      int bearing = 0;
      stbtt_GetGlyphHMetrics(&info, glyph, &it->second, &bearing);
    }
    return it->second;
  }
  int kerning(int previous, int glyph) const {
    std::lock_guard<std::mutex> lock(cache_mutex_);
    if (kernings_.size() > (std::size_t{1} << 16)) kernings_.clear();  // bounded, whatever the text
    const std::uint64_t key =
        (static_cast<std::uint64_t>(static_cast<std::uint32_t>(previous)) << 32) | static_cast<std::uint32_t>(glyph);
    const auto [it, added] = kernings_.try_emplace(key, 0);
    if (added) it->second = stbtt_GetGlyphKernAdvance(&info, previous, glyph);
    return it->second;
  }

 private:
  mutable std::mutex cache_mutex_;
  mutable std::unordered_map<char32_t, int> glyphs_;
  mutable std::unordered_map<int, int> advances_;
  mutable std::unordered_map<std::uint64_t, int> kernings_;
};

Typeface Typeface::load() {
  const FontSearch s = find_fonts();
  if (!s.regular) fail("{}", s.message());
  return Typeface(s);
}

Typeface::Typeface(const FontSearch& found) {
  if (!found.regular) fail("{}", found.message());
  regular_ = std::make_shared<const Face>(*found.regular);
  if (found.bold) {
    bold_ = std::make_shared<const Face>(*found.bold);
  } else {
    auto fake = std::make_shared<Face>(*found.regular);
    fake->fake_bold = true;
    bold_ = fake;
  }
  mono_ = found.mono ? std::make_shared<const Face>(*found.mono) : regular_;
}

const Typeface::Face& Typeface::face(FontFace which) const {
  return which == FontFace::Bold ? *bold_ : which == FontFace::Mono ? *mono_ : *regular_;
}

bool Typeface::has_glyph(char32_t codepoint) const { return regular_->glyph(codepoint) != 0; }

double Typeface::ascent(double px) const { return regular_->ascent * regular_->scale(px); }

double Typeface::line_height(double px) const {
  return (regular_->ascent - regular_->descent + regular_->line_gap) * regular_->scale(px);
}

// [SECTION] Text

std::u32string decode_utf8(std::string_view text) {
  std::u32string out;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const int length = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
    char32_t cp = length == 1 ? c : length == 2 ? c & 0x1fu : length == 3 ? c & 0x0fu : c & 0x07u;
    bool ok = length > 0 && i + static_cast<std::size_t>(length) <= text.size();
    for (int k = 1; ok && k < length; ++k) {
      const auto cont = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
      ok = (cont & 0xc0) == 0x80;
      cp = (cp << 6) | (cont & 0x3fu);
    }
    if (ok && (length == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000)))) ok = false;
    if (ok && length == 4 && (cp < 0x10000 || cp > 0x10ffff)) ok = false;
    out += ok ? cp : U'\uFFFD';
    i += ok ? static_cast<std::size_t>(length) : 1;
  }
  return out;
}

namespace {

// The width a missing character's box takes, in em.
constexpr double kMissingBoxEm = 0.6;

}  // namespace

double Typeface::width(std::string_view utf8, double px, bool bold) const {
  return width(utf8, px, bold ? FontFace::Bold : FontFace::Regular);
}

double Typeface::width(std::string_view utf8, double px, FontFace which) const {
  const Face& f = face(which);
  const double scale = f.scale(px);
  double x = 0;
  int previous = 0;
  for (char32_t cp : decode_utf8(utf8)) {
    const int glyph = f.glyph(cp);
    if (glyph == 0) {
      x += kMissingBoxEm * px;
      previous = 0;
      continue;
    }
    if (previous) x += f.kerning(previous, glyph) * scale;
    x += f.advance(glyph) * scale;
    previous = glyph;
  }
  return x;
}

double Typeface::draw(Image& image, double x, double y, double px, std::string_view utf8, Rgb color, bool bold,
                      const PixelBox& clip) const {
  return draw(image, x, y, px, utf8, color, bold ? FontFace::Bold : FontFace::Regular, clip);
}

double Typeface::draw(Image& image, double x, double y, double px, std::string_view utf8, Rgb color, FontFace which,
                      const PixelBox& clip) const {
  const Face& f = face(which);
  const float scale = static_cast<float>(f.scale(px));
  int previous = 0;
  std::vector<unsigned char> bitmap;
  for (char32_t cp : decode_utf8(utf8)) {
    const int glyph = f.glyph(cp);
    if (glyph == 0) {
      // A visible empty box where the character would be.
      const double w = kMissingBoxEm * px, h = 0.7 * px, t = std::max(1.0, px / 14.0);
      const double bx = x + 0.08 * px, bw = w - 0.16 * px;
      fill_box(image, {bx, y - h, bx + bw, y - h + t}, color, clip);
      fill_box(image, {bx, y - t, bx + bw, y}, color, clip);
      fill_box(image, {bx, y - h, bx + t, y}, color, clip);
      fill_box(image, {bx + bw - t, y - h, bx + bw, y}, color, clip);
      x += w;
      previous = 0;
      continue;
    }
    if (previous) x += f.kerning(previous, glyph) * static_cast<double>(scale);
    previous = glyph;
    const int advance = f.advance(glyph);
    // Whole pixels for the bitmap's corner, the fraction as a sub-pixel shift.
    const double origin_x = std::floor(x), origin_y = std::floor(y);
    const auto shift_x = static_cast<float>(x - origin_x), shift_y = static_cast<float>(y - origin_y);
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    stbtt_GetGlyphBitmapBoxSubpixel(&f.info, glyph, scale, scale, shift_x, shift_y, &x0, &y0, &x1, &y1);
    const int w = x1 - x0, h = y1 - y0;
    if (w > 0 && h > 0) {
      bitmap.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
      stbtt_MakeGlyphBitmapSubpixel(&f.info, bitmap.data(), w, h, w, scale, scale, shift_x, shift_y, glyph);
      const int strikes = f.fake_bold ? 2 : 1;
      for (int strike = 0; strike < strikes; ++strike)
        for (int row = 0; row < h; ++row)
          for (int col = 0; col < w; ++col) {
            const int px_x = static_cast<int>(origin_x) + x0 + col + strike, px_y = static_cast<int>(origin_y) + y0 + row;
            if (px_x < clip.x0 || px_x + 1 > clip.x1 || px_y < clip.y0 || px_y + 1 > clip.y1) continue;
            const unsigned char a =
                bitmap[static_cast<std::size_t>(row) * static_cast<std::size_t>(w) + static_cast<std::size_t>(col)];
            if (a) image.blend(px_x, px_y, color, a / 255.0);
          }
    }
    x += advance * static_cast<double>(scale);
  }
  return x;
}

}  // namespace swz
