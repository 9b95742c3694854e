// raster.cpp: the SVG subset of raster.h, drawn into an Image, and PNG out.
//
// [SECTION] Pixels
// [SECTION] Reading the SVG
// [SECTION] Drawing
// [SECTION] PNG
#include "swz/export/raster.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <locale>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "png_encoder.h"
#include "swz/error.h"
#include "swz/export/font.h"

namespace swz {

// [SECTION] Pixels

Image::Image(int w, int h, Rgb background) : width(w), height(h) {
  if (w <= 0 || h <= 0 || w > kMaxImageSide || h > kMaxImageSide)
    fail("a picture of {}x{} pixels: each side must be 1..{}", w, h, kMaxImageSide);
  rgb.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3);
  for (std::size_t i = 0; i < rgb.size(); i += 3) {
    rgb[i] = background.r;
    rgb[i + 1] = background.g;
    rgb[i + 2] = background.b;
  }
}

Rgb Image::at(int x, int y) const {
  const std::size_t i = 3 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x));
  return {rgb[i], rgb[i + 1], rgb[i + 2]};
}

void Image::blend(int x, int y, Rgb color, double alpha) {
  if (x < 0 || y < 0 || x >= width || y >= height || alpha <= 0) return;
  alpha = std::min(alpha, 1.0);
  const std::size_t i = 3 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x));
  const auto mix = [alpha](std::uint8_t under, std::uint8_t over) {
    return static_cast<std::uint8_t>(std::lround(under + (over - under) * alpha));
  };
  rgb[i] = mix(rgb[i], color.r);
  rgb[i + 1] = mix(rgb[i + 1], color.g);
  rgb[i + 2] = mix(rgb[i + 2], color.b);
}

namespace {

PixelBox intersect(const PixelBox& a, const PixelBox& b) {
  return {std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1)};
}

// How much of the pixel [p, p + 1) the span [lo, hi) covers.
double overlap(int p, double lo, double hi) {
  return std::max(0.0, std::min(hi, p + 1.0) - std::max(lo, static_cast<double>(p)));
}

// The coverage of one shape's pieces over its bounding pixels; pieces that overlap count once.
struct Coverage {
  int x0 = 0, y0 = 0, w = 0, h = 0;
  std::vector<float> alpha;

  Coverage(const PixelBox& bounds) {
    x0 = static_cast<int>(std::floor(bounds.x0));
    y0 = static_cast<int>(std::floor(bounds.y0));
    w = std::max(0, static_cast<int>(std::ceil(bounds.x1)) - x0);
    h = std::max(0, static_cast<int>(std::ceil(bounds.y1)) - y0);
    alpha.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0.0f);
  }
  void add(const PixelBox& b) {
    if (b.x1 <= b.x0 || b.y1 <= b.y0) return;
    const int px0 = std::max(x0, static_cast<int>(std::floor(b.x0))), px1 = std::min(x0 + w, static_cast<int>(std::ceil(b.x1)));
    const int py0 = std::max(y0, static_cast<int>(std::floor(b.y0))), py1 = std::min(y0 + h, static_cast<int>(std::ceil(b.y1)));
    for (int py = py0; py < py1; ++py) {
      const double cy = overlap(py, b.y0, b.y1);
      for (int px = px0; px < px1; ++px) {
        float& a = alpha[static_cast<std::size_t>(py - y0) * static_cast<std::size_t>(w) + static_cast<std::size_t>(px - x0)];
        a = std::max(a, static_cast<float>(cy * overlap(px, b.x0, b.x1)));
      }
    }
  }
  void paint(Image& image, Rgb color) const {
    for (int row = 0; row < h; ++row)
      for (int col = 0; col < w; ++col)
        image.blend(x0 + col, y0 + row, color,
                    alpha[static_cast<std::size_t>(row) * static_cast<std::size_t>(w) + static_cast<std::size_t>(col)]);
  }
};

}  // namespace

void fill_box(Image& image, const PixelBox& box, Rgb color, const PixelBox& clip) {
  const PixelBox b = intersect(box, clip);
  if (b.x1 <= b.x0 || b.y1 <= b.y0) return;
  Coverage c(b);
  c.add(b);
  c.paint(image, color);
}

// [SECTION] Reading the SVG

namespace {

struct Element {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::string text;  // <text>: its content, entities decoded
  bool closing = false;

  const std::string* get(std::string_view key) const {
    for (const auto& [k, v] : attributes)
      if (k == key) return &v;
    return nullptr;
  }
};

// Reads one element (or closing tag) at a time; comments, the XML declaration and
// whitespace between elements are skipped.
class Reader {
 public:
  explicit Reader(std::string_view svg) : s_(svg) {}

  std::optional<Element> next() {
    for (;;) {
      while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (pos_ >= s_.size()) return std::nullopt;
      if (s_[pos_] != '<') fail("svg: text '{}' outside any element", excerpt(pos_));
      if (s_.compare(pos_, 4, "<!--") == 0) {
        skip_past("-->");
      } else if (s_.compare(pos_, 2, "<?") == 0) {
        skip_past("?>");
      } else {
        return element();
      }
    }
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;

  std::string excerpt(std::size_t at) const { return xml_escape(s_.substr(at, std::min<std::size_t>(24, s_.size() - at))); }

  void skip_past(std::string_view end) {
    const std::size_t e = s_.find(end, pos_);
    if (e == std::string_view::npos) fail("svg: '{}' is never closed", excerpt(pos_));
    pos_ = e + end.size();
  }

  std::string name_at() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' || s_[pos_] == ':' || s_[pos_] == '_'))
      ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }

  Element element() {
    Element e;
    ++pos_;  // '<'
    if (pos_ < s_.size() && s_[pos_] == '/') {
      ++pos_;
      e.closing = true;
      e.name = name_at();
      skip_past(">");
      return e;
    }
    e.name = name_at();
    if (e.name.empty()) fail("svg: a malformed tag at '{}'", excerpt(pos_ - 1));
    for (;;) {
      while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (pos_ >= s_.size()) fail("svg: <{}> is never closed", e.name);
      if (s_.compare(pos_, 2, "/>") == 0) {
        pos_ += 2;
        return e;
      }
      if (s_[pos_] == '>') {
        ++pos_;
        break;
      }
      std::string key = name_at();
      if (key.empty() || pos_ + 1 >= s_.size() || s_[pos_] != '=' || (s_[pos_ + 1] != '"' && s_[pos_ + 1] != '\''))
        fail("svg: <{}> has a malformed attribute at '{}'", e.name, excerpt(pos_));
      const char quote = s_[pos_ + 1];
      const std::size_t end = s_.find(quote, pos_ + 2);
      if (end == std::string_view::npos) fail("svg: <{}> attribute '{}' is never closed", e.name, key);
      e.attributes.emplace_back(std::move(key), decode_entities(s_.substr(pos_ + 2, end - pos_ - 2), e.name));
      pos_ = end + 1;
    }
    // An open element: <svg> holds elements; <title>, <desc> and <text> hold text only.
    if (e.name == "svg") return e;
    const std::size_t close = s_.find('<', pos_);
    if (close == std::string_view::npos) fail("svg: <{}> is never closed", e.name);
    e.text = decode_entities(s_.substr(pos_, close - pos_), e.name);
    pos_ = close;
    const std::string end_tag = "</" + e.name + ">";
    if (s_.compare(pos_, end_tag.size(), end_tag) != 0) {
      if (s_.compare(pos_, 2, "</") == 0) fail("svg: <{}> is never closed", e.name);
      ++pos_;
      fail("svg: <{}> inside <{}> is not drawn", name_at(), e.name);
    }
    pos_ += end_tag.size();
    return e;
  }

  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xc0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xe0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }

  static std::string decode_entities(std::string_view text, const std::string& element) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '&') {
        out += text[i];
        continue;
      }
      const std::size_t semi = text.find(';', i);
      if (semi == std::string_view::npos) fail("svg: <{}> has a bare '&'", element);
      const std::string_view name = text.substr(i + 1, semi - i - 1);
      static constexpr std::pair<std::string_view, char> kNamed[] = {
          {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
      bool known = false;
      for (const auto& [n, c] : kNamed)
        if (name == n) out += c, known = true;
      if (!known && name.size() > 1 && name[0] == '#') {
        const bool hex = name[1] == 'x';
        std::uint32_t cp = 0;
        const char* first = name.data() + (hex ? 2 : 1);
        const auto [end, ec] = std::from_chars(first, name.data() + name.size(), cp, hex ? 16 : 10);
        known = ec == std::errc() && end == name.data() + name.size() && cp > 0 && cp <= 0x10ffff;
        if (known) append_utf8(out, cp);
      }
      if (!known) fail("svg: <{}> has an unknown entity '&{};'", element, xml_escape(name));
      i = semi;
    }
    return out;
  }
};

// The number at the start of [first, last), in the classic locale: the end of what it read, or null.
// std::from_chars for double is missing from libc++ 14 (the browser build's standard library).
const char* svg_number(const char* first, const char* last, double& out) {
  std::istringstream in(std::string(first, last));
  in.imbue(std::locale::classic());
  in >> std::noskipws >> out;
  if (in.fail()) return nullptr;
  return in.eof() ? last : first + static_cast<std::ptrdiff_t>(in.tellg());
}

double number(const Element& e, std::string_view key, std::optional<double> fallback = std::nullopt) {
  const std::string* v = e.get(key);
  if (!v) {
    if (fallback) return *fallback;
    fail("svg: <{}> has no {}", e.name, key);
  }
  double out = 0;
  const char* end = svg_number(v->data(), v->data() + v->size(), out);
  if (!end || end != v->data() + v->size() || !std::isfinite(out) || std::fabs(out) > 1e6)
    fail("svg: <{}> {}=\"{}\" is not a number this drawing understands", e.name, key, xml_escape(*v));
  return out;
}

// "#rrggbb" or "none" (nullopt); a missing attribute is `fallback`.
std::optional<Rgb> paint(const Element& e, std::string_view key, std::optional<Rgb> fallback) {
  const std::string* v = e.get(key);
  if (!v) return fallback;
  if (*v == "none") return std::nullopt;
  const auto hex = [&](std::size_t at) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(v->data() + at, v->data() + at + 2, value, 16);
    if (ec != std::errc() || end != v->data() + at + 2)
      fail("svg: <{}> {}=\"{}\" is not a #rrggbb color", e.name, key, xml_escape(*v));
    return static_cast<std::uint8_t>(value);
  };
  if (v->size() != 7 || (*v)[0] != '#') fail("svg: <{}> {}=\"{}\" is not a #rrggbb color", e.name, key, xml_escape(*v));
  return Rgb{hex(1), hex(3), hex(5)};
}

// Every attribute must be one the element draws (or class / data-*, which carry no drawing).
void check_attributes(const Element& e, std::initializer_list<std::string_view> known) {
  for (const auto& [key, value] : e.attributes) {
    if (key == "class" || key.rfind("data-", 0) == 0) continue;
    if (std::find(known.begin(), known.end(), key) == known.end()) fail("svg: <{}> attribute '{}' is not drawn", e.name, key);
  }
}

}  // namespace

SvgSize svg_size(std::string_view svg) {
  Reader reader(svg);
  const std::optional<Element> root = reader.next();
  if (!root || root->closing || root->name != "svg") fail("svg: the document does not start with <svg>");
  const double w = number(*root, "width"), h = number(*root, "height");
  if (w < 1 || h < 1 || w > kMaxImageSide || h > kMaxImageSide || w != std::floor(w) || h != std::floor(h))
    fail("svg: <svg> of {}x{}: width and height must be whole numbers 1..{}", w, h, kMaxImageSide);
  return {static_cast<int>(w), static_cast<int>(h)};
}

// [SECTION] Drawing

namespace {

struct Place {
  double x = 0, y = 0, scale = 1;
  PixelBox clip;
  double px(double v) const { return x + v * scale; }
  double py(double v) const { return y + v * scale; }
};

std::vector<double> dash_pattern(const Element& e) {
  const std::string* v = e.get("stroke-dasharray");
  if (!v || *v == "none") return {};
  std::vector<double> out;
  std::size_t i = 0;
  while (i < v->size()) {
    while (i < v->size() && ((*v)[i] == ',' || (*v)[i] == ' ')) ++i;
    if (i >= v->size()) break;
    double d = 0;
    const char* end = svg_number(v->data() + i, v->data() + v->size(), d);
    if (!end || d < 0 || !std::isfinite(d))
      fail("svg: <rect> stroke-dasharray=\"{}\" is not a list of lengths", xml_escape(*v));
    out.push_back(d);
    i = static_cast<std::size_t>(end - v->data());
  }
  if (out.size() % 2) out.insert(out.end(), out.begin(), out.end());  // SVG repeats an odd list
  double total = 0;
  for (double d : out) total += d;
  if (total <= 0) return {};
  return out;
}

void draw_rect(Image& image, const Element& e, const Place& at) {
  check_attributes(e, {"x", "y", "width", "height", "fill", "stroke", "stroke-width", "stroke-dasharray"});
  const double x = number(e, "x", 0.0), y = number(e, "y", 0.0), w = number(e, "width"), h = number(e, "height");
  if (w < 0 || h < 0) fail("svg: <rect> has a negative size");
  if (const std::optional<Rgb> fill = paint(e, "fill", Rgb{0, 0, 0}))
    fill_box(image, {at.px(x), at.py(y), at.px(x + w), at.py(y + h)}, *fill, at.clip);
  const std::optional<Rgb> stroke = paint(e, "stroke", std::nullopt);
  const double half = number(e, "stroke-width", 1.0) / 2;
  const std::vector<double> dashes = dash_pattern(e);
  if (!stroke || half <= 0) return;
  // The outline, clockwise from (x, y): each edge as a band `half` either side of it.
  struct Edge {
    double x0, y0, x1, y1;
  };
  const Edge edges[] = {{x, y, x + w, y}, {x + w, y, x + w, y + h}, {x + w, y + h, x, y + h}, {x, y + h, x, y}};
  Coverage cover(intersect({at.px(x - half), at.py(y - half), at.px(x + w + half), at.py(y + h + half)}, at.clip));
  const auto band = [&](const Edge& edge, double from, double to) {
    // Along the edge from `from` to `to` (distances from its start), reaching into the corners at its ends.
    const double length = std::fabs(edge.x1 - edge.x0) + std::fabs(edge.y1 - edge.y0);
    const double a = from <= 0 ? -half : from, b = to >= length ? length + half : to;
    const double dx = edge.x1 > edge.x0 ? 1 : edge.x1 < edge.x0 ? -1 : 0, dy = edge.y1 > edge.y0 ? 1 : edge.y1 < edge.y0 ? -1 : 0;
    const double ax = edge.x0 + dx * a, ay = edge.y0 + dy * a, bx = edge.x0 + dx * b, by = edge.y0 + dy * b;
    const PixelBox piece{at.px(std::min(ax, bx) - (dy != 0 ? half : 0)), at.py(std::min(ay, by) - (dx != 0 ? half : 0)),
                         at.px(std::max(ax, bx) + (dy != 0 ? half : 0)), at.py(std::max(ay, by) + (dx != 0 ? half : 0))};
    cover.add(intersect(piece, at.clip));
  };
  double phase = 0;  // distance walked along the outline
  double period = 0;
  for (double d : dashes) period += d;
  for (const Edge& edge : edges) {
    const double length = std::fabs(edge.x1 - edge.x0) + std::fabs(edge.y1 - edge.y0);
    if (dashes.empty()) {
      band(edge, 0, length);
      continue;
    }
    // Walk the dash pattern over this edge.
    double t = 0;
    while (t < length) {
      double offset = std::fmod(phase + t, period), start = 0;
      std::size_t k = 0;
      while (offset >= start + dashes[k]) start += dashes[k], k = (k + 1) % dashes.size();
      const double end = std::min(length, t + (start + dashes[k] - offset));
      if (k % 2 == 0) band(edge, t, end);
      t = end;
    }
    phase += length;
  }
  cover.paint(image, *stroke);
}

// Where a <text> is drawn: its size, face, left end and baseline in pixels, and its width.
struct TextPlace {
  double px = 0, x = 0, baseline = 0, width = 0;
  FontFace face = FontFace::Regular;
};

TextPlace place_text(const Element& e, const Place& at, const Typeface& type) {
  check_attributes(e, {"x", "y", "font-size", "text-anchor", "fill", "font-weight", "font-family"});
  const double size = number(e, "font-size", 16.0);
  if (size <= 0 || size > 1000) fail("svg: <text> font-size=\"{}\" is out of range", size);
  const std::string* weight = e.get("font-weight");
  if (weight && *weight != "bold" && *weight != "normal")
    fail("svg: <text> font-weight=\"{}\" is not drawn", xml_escape(*weight));
  TextPlace t;
  // A family naming monospace is drawn in DejaVu Sans Mono (no bold of its own); any other, in DejaVu Sans.
  const std::string* family = e.get("font-family");
  t.face = family && family->find("monospace") != std::string::npos ? FontFace::Mono
           : weight && *weight == "bold"                             ? FontFace::Bold
                                                                     : FontFace::Regular;
  const std::string* anchor = e.get("text-anchor");
  const std::string how = anchor ? *anchor : "start";
  if (how != "start" && how != "middle" && how != "end") fail("svg: <text> text-anchor=\"{}\" is not drawn", xml_escape(how));
  t.px = size * at.scale;
  t.width = type.width(e.text, t.px, t.face);
  t.x = at.px(number(e, "x", 0.0));
  if (how == "middle") t.x -= t.width / 2;
  if (how == "end") t.x -= t.width;
  t.baseline = at.py(number(e, "y", 0.0));
  return t;
}

void draw_text(Image& image, const Element& e, const Place& at, const Typeface& type) {
  const TextPlace t = place_text(e, at, type);
  const std::optional<Rgb> fill = paint(e, "fill", Rgb{0, 0, 0});
  if (!fill) return;
  type.draw(image, t.x, t.baseline, t.px, e.text, *fill, t.face, at.clip);
}

// The elements of `svg` after its root, each handed to `visit` (rect or text; title and desc
// checked and skipped); throws like draw_svg on anything else. Returns where the canvas goes.
template <typename Visit>
Place walk_svg(std::string_view svg, double x, double y, double scale, Visit visit) {
  if (!(scale > 0) || scale > 64) fail("svg: scale {} is out of range", scale);
  const SvgSize size = svg_size(svg);
  Reader reader(svg);
  const Element root = *reader.next();
  check_attributes(root, {"xmlns", "version", "width", "height", "viewBox", "font-family"});
  if (const std::string* box = root.get("viewBox"); box && *box != fmt::format("0 0 {} {}", size.width, size.height))
    fail("svg: <svg> viewBox=\"{}\" is not drawn (only \"0 0 width height\")", xml_escape(*box));
  const Place at{x, y, scale, {x, y, x + size.width * scale, y + size.height * scale}};
  bool closed = false;
  while (std::optional<Element> e = reader.next()) {
    if (closed) fail("svg: <{}> after </svg>", e->name);
    if (e->closing) {
      if (e->name != "svg") fail("svg: </{}> without its opening tag", e->name);
      closed = true;
    } else if (e->name == "title" || e->name == "desc") {
      check_attributes(*e, {});
    } else if (e->name == "rect" || e->name == "text") {
      visit(*e, at);
    } else {
      fail("svg: <{}> is not drawn (the rasteriser draws <rect> and <text>)", e->name);
    }
  }
  if (!closed) fail("svg: <svg> is never closed");
  return at;
}

}  // namespace

void draw_svg(Image& image, std::string_view svg, const Typeface& type, double x, double y, double scale) {
  walk_svg(svg, x, y, scale, [&](const Element& e, const Place& at) {
    if (e.name == "rect")
      draw_rect(image, e, at);
    else
      draw_text(image, e, at, type);
  });
}

std::vector<SvgTextBox> svg_text_boxes(std::string_view svg, const Typeface& type, double x, double y, double scale) {
  std::vector<SvgTextBox> out;
  walk_svg(svg, x, y, scale, [&](const Element& e, const Place& at) {
    if (e.name != "text") return;
    const TextPlace t = place_text(e, at, type);
    const std::string* kind = e.get("class");
    const double ascent = type.ascent(t.px);
    out.push_back({e.text, t.px, kind && *kind == "label",
                   {t.x, t.baseline - ascent, t.x + t.width, t.baseline - ascent + type.line_height(t.px)}, at.clip});
  });
  return out;
}

Image render_svg(std::string_view svg, const Typeface& type, double scale) {
  const SvgSize size = svg_size(svg);
  Image image(static_cast<int>(std::ceil(size.width * scale)), static_cast<int>(std::ceil(size.height * scale)),
              Rgb{255, 255, 255});
  draw_svg(image, svg, type, 0, 0, scale);
  return image;
}

// [SECTION] PNG

std::string encode_png(const Image& image) {
  if (image.width <= 0 || image.height <= 0) fail("an empty picture has no PNG");
  // The encoder reads width x height x 3 bytes: the picture holds them (it is third-party code,
  // uninstrumented in the sanitizer build, so the size is checked here).
  if (image.rgb.size() != static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 3)
    fail("a {}x{} picture holding {} bytes, not {}", image.width, image.height, image.rgb.size(),
         static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 3);
  std::string out = export_parts::png_of_rgb(image.rgb.data(), image.width, image.height);
  if (out.empty()) fail("the PNG encoder failed on a {}x{} picture", image.width, image.height);
  return out;
}

}  // namespace swz
