// raster.h: the core's own SVG figures drawn into pixels, and PNG files.
//
// The rasteriser draws exactly the SVG that figure_svg() writes, nothing more:
//
//   <svg width="W" height="H" viewBox="0 0 W H">      the canvas (its font-family is ignored:
//                                                      text is DejaVu Sans, font.h)
//   <title>, <desc>                                    metadata, not drawn
//   <rect x y width height fill stroke                 fill, then a stroke centred on the
//         stroke-width stroke-dasharray/>              edge (dashes walk clockwise from x, y)
//   <text x y font-size text-anchor fill font-weight   one line; y is the baseline; a font-family
//         font-family>                                 naming monospace is DejaVu Sans Mono
//
// class and data-* attributes are ignored. Any other element, attribute or value
// (a <path>, rx="2", fill="red", a viewBox that is not "0 0 W H") is an error
// naming it, so a figure that grows a feature cannot be drawn silently wrong.
//
// Coverage is exact for axis-aligned edges at any scale (each pixel is blended
// by the area the shape covers), glyphs come anti-aliased from stb_truetype, and
// nothing depends on the clock or on threads: the same input gives the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "swz/export/svg.h"

namespace swz {

class Typeface;

// An 8-bit RGB picture, rows top to bottom.
struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // rgb[3 * (y * width + x) + channel]

  Image() = default;
  Image(int width, int height, Rgb background);  // throws beyond kMaxImageSide
  Rgb at(int x, int y) const;
  // Mixes `color` into pixel (x, y) with weight alpha in [0, 1]; outside the picture: nothing.
  void blend(int x, int y, Rgb color, double alpha);
};

inline constexpr int kMaxImageSide = 16384;

// A rectangle in pixels, [x0, x1) x [y0, y1); drawing is clipped to it.
struct PixelBox {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// Fills [x0, x1) x [y0, y1), blending the pixels it covers partly by the area covered.
void fill_box(Image& image, const PixelBox& box, Rgb color, const PixelBox& clip);

struct SvgSize {
  int width = 0, height = 0;
};
// The width and height of the <svg> element. Throws naming what is missing or wrong.
SvgSize svg_size(std::string_view svg);

// Draws `svg` with its top-left corner at (x, y) of `image`, every length times `scale`,
// clipped to its own scaled canvas. Throws swz::Error naming the first element,
// attribute or value it does not draw.
void draw_svg(Image& image, std::string_view svg, const Typeface& type, double x, double y, double scale);

// Each <text> of `svg` as draw_svg(image, svg, type, x, y, scale) would draw it: its size in
// pixels, whether it is a label (class="label": bound to a cell, svg.h), the box its line fills
// (advance width by ascent plus descent) and the canvas it is clipped to. Throws like draw_svg.
struct SvgTextBox {
  std::string text;
  double px = 0;
  bool label = false;
  PixelBox box, clip;
};
std::vector<SvgTextBox> svg_text_boxes(std::string_view svg, const Typeface& type, double x, double y, double scale);

// A picture of `svg` alone, `scale` times its size.
Image render_svg(std::string_view svg, const Typeface& type, double scale = 1.0);

// The PNG file of `image` (8-bit RGB, no metadata), as bytes.
std::string encode_png(const Image& image);

}  // namespace swz
