// The rasteriser (raster.h) on small SVGs of the subset it draws, and on the core's own
// figures: a cell's centre pixel is the fill its <rect> names.
#include "swz/export/raster.h"

#include <gtest/gtest.h>

#include <string>

#include "swz/error.h"
#include "swz/export/font.h"
#include "swz/problem/problem.h"
#include "xml_check.h"

namespace swz::test {
namespace {

constexpr Rgb kWhite{255, 255, 255};

const Typeface& type() {
  static const Typeface t = Typeface::load();
  return t;
}

std::string svg(int w, int h, const std::string& body) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(w) +
         "\" height=\"" + std::to_string(h) + "\" viewBox=\"0 0 " + std::to_string(w) + " " + std::to_string(h) +
         "\">\n<title>t</title>\n" + body + "</svg>\n";
}

// The bounding box of the pixels that are not white; {-1...} when there are none.
struct Ink {
  int x0 = -1, y0 = -1, x1 = -1, y1 = -1;
  bool any() const { return x0 >= 0; }
};
Ink ink(const Image& image) {
  Ink b;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      if (image.at(x, y) == kWhite) continue;
      if (!b.any()) b = {x, y, x, y};
      b.x0 = std::min(b.x0, x), b.y0 = std::min(b.y0, y), b.x1 = std::max(b.x1, x), b.y1 = std::max(b.y1, y);
    }
  return b;
}

std::string error_of(const std::string& document) {
  try {
    render_svg(document, type());
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Raster, FilledRectCoversExactlyItsPixels) {
  const Image image = render_svg(svg(20, 10, "<rect x=\"3\" y=\"2\" width=\"5\" height=\"4\" fill=\"#ff0000\"/>\n"), type());
  ASSERT_EQ(image.width, 20);
  ASSERT_EQ(image.height, 10);
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 20; ++x) {
      const bool inside = x >= 3 && x < 8 && y >= 2 && y < 6;
      EXPECT_EQ(hex_color(image.at(x, y)), inside ? "#ff0000" : "#ffffff") << x << "," << y;
    }
}

TEST(Raster, ScaleMultipliesEveryLengthAndHalfPixelsBlend) {
  const Image image = render_svg(svg(10, 10, "<rect x=\"1\" y=\"1\" width=\"2\" height=\"2\" fill=\"#000000\"/>\n"), type(), 2.5);
  EXPECT_EQ(image.width, 25);
  EXPECT_EQ(hex_color(image.at(3, 3)), hex_color(Rgb{0, 0, 0}));        // 2.5 .. 7.5 covers pixels 3..6 fully
  EXPECT_EQ(hex_color(image.at(2, 4)), hex_color(Rgb{128, 128, 128}));  // half of pixel 2
  EXPECT_EQ(hex_color(image.at(8, 4)), hex_color(kWhite));
}

TEST(Raster, StrokeIsCentredOnTheEdgeAndLeavesTheInsideAlone) {
  const Image image = render_svg(
      svg(20, 20, "<rect x=\"4\" y=\"4\" width=\"10\" height=\"8\" fill=\"none\" stroke=\"#0000ff\" stroke-width=\"2\"/>\n"),
      type());
  const Rgb blue{0, 0, 255};
  for (int x = 3; x < 15; ++x) EXPECT_EQ(hex_color(image.at(x, 3)), hex_color(blue)) << x;   // top edge: y 3..5
  for (int x = 3; x < 15; ++x) EXPECT_EQ(hex_color(image.at(x, 12)), hex_color(blue)) << x;  // bottom edge: y 11..13
  for (int y = 3; y < 13; ++y) EXPECT_EQ(hex_color(image.at(13, y)), hex_color(blue)) << y;  // right edge: x 13..15
  EXPECT_EQ(hex_color(image.at(9, 8)), hex_color(kWhite));                                   // inside, fill none
  EXPECT_EQ(hex_color(image.at(2, 8)), hex_color(kWhite));                                   // outside
  EXPECT_EQ(hex_color(image.at(15, 8)), hex_color(kWhite));
}

TEST(Raster, DashedStrokeAlternatesFromTheTopLeftCorner) {
  const Image image = render_svg(svg(40, 12,
                                     "<rect x=\"2\" y=\"2\" width=\"32\" height=\"6\" fill=\"none\" stroke=\"#000000\" "
                                     "stroke-width=\"2\" stroke-dasharray=\"4,4\"/>\n"),
                                 type());
  // Along the top edge (y 1..3): dashes cover x 2..6, 10..14, 18..22, 26..30; gaps between, up to
  // the right edge's band (x 33..35), whose first dash starts at the corner.
  for (int x = 2; x < 33; ++x) {
    const bool on = ((x - 2) / 4) % 2 == 0;
    EXPECT_EQ(hex_color(image.at(x, 2)), on ? "#000000" : "#ffffff") << x;
  }
  // Without the dash array the same edge is solid.
  const Image solid = render_svg(
      svg(40, 12, "<rect x=\"2\" y=\"2\" width=\"32\" height=\"6\" fill=\"none\" stroke=\"#000000\" stroke-width=\"2\"/>\n"),
      type());
  for (int x = 2; x < 34; ++x) EXPECT_EQ(hex_color(solid.at(x, 2)), hex_color(Rgb{0, 0, 0})) << x;
}

TEST(Raster, TextDrawsInsideItsBoxAboveTheBaseline) {
  const Image image =
      render_svg(svg(200, 60, "<text x=\"20\" y=\"40\" font-size=\"24\" fill=\"#000000\">Hello</text>\n"), type());
  const Ink b = ink(image);
  ASSERT_TRUE(b.any());
  EXPECT_GE(b.x0, 20);
  EXPECT_LE(b.x1, 20 + static_cast<int>(type().width("Hello", 24)) + 1);
  EXPECT_LE(b.y1, 40);       // nothing of "Hello" hangs below the baseline
  EXPECT_GE(b.y0, 40 - 24);  // nor above the em box
  EXPECT_GT(b.x1 - b.x0, 40);
  // Anti-aliased: some pixels are neither white nor black.
  bool grey = false;
  for (int y = b.y0; y <= b.y1; ++y)
    for (int x = b.x0; x <= b.x1; ++x) grey |= image.at(x, y) != kWhite && image.at(x, y) != Rgb{0, 0, 0};
  EXPECT_TRUE(grey);
}

TEST(Raster, TextAnchorMiddleAndEndMoveTheText) {
  const auto box = [](const char* anchor) {
    return ink(render_svg(svg(300, 40,
                              std::string("<text x=\"150\" y=\"30\" font-size=\"20\" text-anchor=\"") + anchor +
                                  "\" fill=\"#000000\">Bank</text>\n"),
                          type()));
  };
  const Ink start = box("start"), middle = box("middle"), end = box("end");
  const int width = static_cast<int>(type().width("Bank", 20));
  EXPECT_GE(start.x0, 150);
  EXPECT_NEAR(middle.x0, start.x0 - width / 2, 2);
  EXPECT_NEAR(end.x0, start.x0 - width, 2);
  EXPECT_LE(end.x1, 151);
  EXPECT_NEAR((middle.x0 + middle.x1) / 2.0, 150, 3);
}

// svg_text_boxes gives each <text> as draw_svg draws it: its px at the scale, its box from the
// anchor, the canvas it is clipped to, class="label" told apart; a monospace family is one width
// a character, and the drawn ink lies inside the box.
TEST(Raster, TextBoxesAreWhereTheTextIsDrawnAndMonospaceIsOneWidth) {
  const std::string doc = svg(300, 100,
                              "<text x=\"10\" y=\"30\" font-size=\"20\" font-family=\"DejaVu Sans Mono, monospace\">iiii</text>\n"
                              "<text x=\"10\" y=\"70\" font-size=\"20\" font-family=\"monospace\" class=\"label\">MMMM</text>\n"
                              "<text x=\"290\" y=\"90\" font-size=\"10\" text-anchor=\"end\">iiii</text>\n");
  const std::vector<SvgTextBox> boxes = svg_text_boxes(doc, type(), 5, 7, 2.0);
  ASSERT_EQ(boxes.size(), 3u);
  EXPECT_DOUBLE_EQ(boxes[0].px, 40);
  EXPECT_FALSE(boxes[0].label);
  EXPECT_TRUE(boxes[1].label);
  EXPECT_DOUBLE_EQ(boxes[0].box.x0, 5 + 2 * 10);
  EXPECT_DOUBLE_EQ(boxes[0].box.x1 - boxes[0].box.x0, boxes[1].box.x1 - boxes[1].box.x0);  // one width a character
  EXPECT_DOUBLE_EQ(boxes[0].box.x1 - boxes[0].box.x0, type().width("MMMM", 40, FontFace::Mono));
  EXPECT_LT(boxes[2].box.x1 - boxes[2].box.x0, type().width("MMMM", 20, FontFace::Regular));  // proportional
  EXPECT_DOUBLE_EQ(boxes[2].box.x1, 5 + 2 * 290);                                          // anchored at its end
  EXPECT_DOUBLE_EQ(boxes[0].clip.x1, 5 + 2 * 300);
  EXPECT_DOUBLE_EQ(boxes[0].clip.y1, 7 + 2 * 100);
  // Drawn alone, the first line's ink lies inside its box.
  const std::string first = svg(300, 100, "<text x=\"10\" y=\"30\" font-size=\"20\" font-family=\"monospace\">iiii</text>\n");
  const SvgTextBox box = svg_text_boxes(first, type(), 0, 0, 1.0).front();
  const Ink drawn = ink(render_svg(first, type()));
  ASSERT_TRUE(drawn.any());
  EXPECT_GE(drawn.x0, box.box.x0 - 1);
  EXPECT_LE(drawn.x1, box.box.x1 + 1);
  EXPECT_GE(drawn.y0, box.box.y0 - 1);
  EXPECT_LE(drawn.y1, box.box.y1 + 1);
}

TEST(Raster, SameInputSameBytes) {
  const std::string doc =
      svg(64, 32,
          "<rect x=\"1\" y=\"1\" width=\"30\" height=\"30\" fill=\"#336699\" stroke=\"#ffffff\" stroke-width=\"0.5\"/>\n"
          "<text x=\"40\" y=\"20\" font-size=\"11\" font-weight=\"bold\" fill=\"#222222\">x &amp; y</text>\n");
  const std::string png = encode_png(render_svg(doc, type()));
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(png, encode_png(render_svg(doc, type())));
}

TEST(Raster, WhatItDoesNotDrawIsRefusedByName) {
  EXPECT_NE(error_of(svg(10, 10, "<circle cx=\"5\" cy=\"5\" r=\"2\"/>\n")).find("<circle> is not drawn"), std::string::npos);
  EXPECT_NE(error_of(svg(10, 10, "<rect x=\"1\" y=\"1\" width=\"2\" height=\"2\" rx=\"1\"/>\n")).find("<rect> attribute 'rx'"),
            std::string::npos);
  EXPECT_NE(error_of(svg(10, 10, "<rect x=\"1\" y=\"1\" width=\"2\" height=\"2\" fill=\"red\"/>\n")).find("fill=\"red\""),
            std::string::npos);
  EXPECT_NE(error_of(svg(10, 10, "<text x=\"1\" y=\"5\">a<tspan>b</tspan></text>\n")).find("<tspan> inside <text>"),
            std::string::npos);
  EXPECT_NE(error_of(svg(10, 10, "<text x=\"1\" y=\"5\" text-anchor=\"left\">a</text>\n")).find("text-anchor=\"left\""),
            std::string::npos);
  EXPECT_NE(error_of("<svg width=\"10\" height=\"10\" viewBox=\"0 0 5 5\"></svg>").find("viewBox"), std::string::npos);
  EXPECT_NE(error_of("<svg width=\"100000\" height=\"10\"></svg>").find("1..16384"), std::string::npos);
  EXPECT_NE(error_of("<html></html>").find("does not start with <svg>"), std::string::npos);
  EXPECT_NE(error_of(svg(10, 10, "<rect x=\"1\" y=\"1\" width=\"2\" height=\"2\">")).find("<rect> is never closed"),
            std::string::npos);
}

TEST(Raster, MissingGlyphIsAVisibleBox) {
  EXPECT_FALSE(type().has_glyph(U'\u4e00'));
  const Image image =
      render_svg(svg(60, 40, "<text x=\"10\" y=\"30\" font-size=\"24\" fill=\"#000000\">&#x4e00;</text>\n"), type());
  EXPECT_TRUE(ink(image).any());
}

TEST(Raster, FigureCellCentresHaveTheirFill) {
  const Problem p = make_preset("transpose16x32");
  FigureOptions o;
  o.labels = false;  // no bank number over the centre
  const std::string figure = figure_svg(p, FigureView::Tensor, o);
  const XmlReport r = check_xml(figure);
  ASSERT_TRUE(r.ok()) << r.error;
  for (const double scale : {1.0, 1.37}) {
    const Image image = render_svg(figure, type(), scale);
    int cells = 0;
    for (const XmlElement& e : r.elements) {
      if (e.name != "rect" || e.attributes.count("class") == 0 || e.attributes.at("class") != "cell") continue;
      const double x = std::stod(e.attributes.at("x")), y = std::stod(e.attributes.at("y"));
      const double w = std::stod(e.attributes.at("width")), h = std::stod(e.attributes.at("height"));
      const Rgb centre = image.at(static_cast<int>((x + w / 2) * scale), static_cast<int>((y + h / 2) * scale));
      EXPECT_EQ(hex_color(centre), e.attributes.at("fill")) << e.attributes.at("data-coords") << " at scale " << scale;
      ++cells;
    }
    EXPECT_EQ(cells, 512);
  }
}

TEST(Raster, EveryViewOfEveryPresetDraws) {
  for (const PresetInfo& info : list_presets()) {
    const Problem p = make_preset(info.name);
    for (const std::string_view name : figure_view_names()) {
      std::string figure;
      try {
        figure = figure_svg(p, parse_figure_view(name));
      } catch (const Error&) {
        continue;  // a view the problem has none of (matrix-m of a padded layout)
      }
      const Image image = render_svg(figure, type());
      EXPECT_TRUE(ink(image).any()) << info.name << " " << name;
    }
  }
}

}  // namespace
}  // namespace swz::test
