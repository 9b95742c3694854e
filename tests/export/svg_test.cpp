// SVG figures: well-formed XML, one cell per element (or matrix entry), cells that
// say what the core says (bank, owner, register, matrix bit), palette and escaping.
#include "swz/export/svg.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "export_support.h"
#include "swz/error.h"
#include "swz/problem/problem_spec.h"
#include "swz/problem/views.h"
#include "xml_check.h"

namespace swz::test {
namespace {

const XmlElement* find_cell(const XmlReport& r, const std::string& coords) {
  for (const auto& e : r.elements)
    if (e.name == "rect" && e.attributes.count("data-coords") && e.attributes.at("data-coords") == coords) return &e;
  return nullptr;
}

// [SECTION] The checker itself

TEST(XmlCheck, AcceptsWellFormedAndRejectsBrokenDocuments) {
  EXPECT_TRUE(check_xml("<?xml version=\"1.0\"?>\n<a x=\"1\"><b/><!-- c --><c y='&amp;&lt;&#65;&#x41;'>t</c></a>\n").ok());
  const char* broken[] = {
      "",                        // no root
      "<a>",                     // never closed
      "<a></b>",                 // mismatched
      "<a><b></a></b>",          // crossed
      "<a x=1/>",                // unquoted
      "<a x=\"1\" x=\"2\"/>",    // repeated attribute
      "<a x=\"<\"/>",            // '<' in a value
      "<a>&nbsp;</a>",           // unknown entity
      "<a>AT&T</a>",             // bare '&'
      "<a/><b/>",                // two roots
      "<a><!-- x -- y --></a>",  // '--' in a comment
      "<a>\x01</a>",             // control character
      "<a y=\"1\"z=\"2\"/>",     // no space between attributes
  };
  for (const char* doc : broken) EXPECT_FALSE(check_xml(doc).ok()) << doc;
  const XmlReport r = check_xml("<svg><rect class=\"cell one\"/><rect class=\"cell\"/><rect class=\"legend\"/></svg>");
  EXPECT_EQ(r.count("rect"), 3u);
  EXPECT_EQ(r.count("rect", "cell"), 2u);
  EXPECT_EQ(r.count("rect", "one"), 1u);
}

// [SECTION] Every view of every preset

TEST(Figures, EveryViewOfEveryPresetIsWellFormedWithOneCellPerElement) {
  for (const PresetInfo& info : list_presets()) {
    const Problem p = make_preset(info.name);
    for (const std::string_view name : figure_view_names()) {
      const FigureView view = parse_figure_view(name);
      const std::string svg = figure_svg(p, view);
      const XmlReport r = check_xml(svg);
      ASSERT_TRUE(r.ok()) << info.name << " " << name << ": " << r.error;
      ASSERT_FALSE(r.elements.empty());
      EXPECT_EQ(r.elements[0].name, "svg");
      EXPECT_EQ(r.elements[0].attributes.at("xmlns"), "http://www.w3.org/2000/svg");
      EXPECT_EQ(r.elements[0].attributes.at("data-view"), name);
      std::size_t expected = static_cast<std::size_t>(p.shared.elements());
      if (view == FigureView::MatrixA) expected = static_cast<std::size_t>(p.store.layout.out_bits() * p.store.layout.in_bits());
      if (view == FigureView::MatrixB) expected = static_cast<std::size_t>(p.read.layout.out_bits() * p.read.layout.in_bits());
      if (view == FigureView::MatrixM) expected = static_cast<std::size_t>(p.shared.coord_bits() * p.shared.coord_bits());
      EXPECT_EQ(r.count("rect", "cell"), expected) << info.name << " " << name;
      EXPECT_EQ(r.elements[0].attributes.at("data-cells"), std::to_string(expected));
      EXPECT_EQ(svg, figure_svg(p, view)) << "not deterministic: " << info.name << " " << name;
    }
  }
}

TEST(Figures, TensorCellsCarryTheCoreBankAndOffset) {
  Problem p = make_preset("transpose16x32");
  p.set_masks({2, 4, 8, 16});
  const XmlReport r = check_xml(figure_svg(p, FigureView::Tensor));
  ASSERT_TRUE(r.ok()) << r.error;
  for (const auto& e : r.elements) {
    if (e.name != "rect" || !e.attributes.count("data-bank")) continue;
    const std::string& coords = e.attributes.at("data-coords");
    const std::size_t comma = coords.find(',');
    const std::int64_t m = std::stoll(coords.substr(0, comma)), n = std::stoll(coords.substr(comma + 1));
    const std::uint32_t offset = p.shared.offset(p.shared.coords().flatten({m, n}));
    EXPECT_EQ(e.attributes.at("data-offset"), std::to_string(offset));
    // offset(m, n) = 32m + (n ^ 2m): bank = n ^ 2m (mod 32).
    EXPECT_EQ(e.attributes.at("data-bank"), std::to_string((n ^ (2 * m)) % 32)) << coords;
    EXPECT_EQ(e.attributes.at("fill"), hex_color(palette_color(static_cast<int>((n ^ (2 * m)) % 32), 32)));
  }
  // A whole column of the read covers 16 distinct banks: the swizzle spreads it.
  std::set<std::string> banks;
  for (std::int64_t m = 0; m < 16; ++m) banks.insert(find_cell(r, fmt::format("{},{}", m, 6))->attributes.at("data-bank"));
  EXPECT_EQ(banks.size(), 16u);
}

TEST(Figures, OwnershipMatchesTheAccessLayouts) {
  const Problem p = make_preset("transpose16x32");
  // Store: thread t writes column t at register step m. Read: thread t reads (t mod 16, 2r + t/16).
  const XmlReport writer = check_xml(figure_svg(p, FigureView::Writer));
  const XmlReport reader = check_xml(figure_svg(p, FigureView::Reader, FigureOptions{9, true, ""}));
  ASSERT_TRUE(writer.ok() && reader.ok());
  for (std::int64_t m = 0; m < 16; ++m)
    for (std::int64_t n = 0; n < 32; ++n) {
      const std::string at = fmt::format("{},{}", m, n);
      const XmlElement* w = find_cell(writer, at);
      const XmlElement* b = find_cell(reader, at);
      ASSERT_TRUE(w && b) << at;
      EXPECT_EQ(w->attributes.at("data-thread"), std::to_string(n));
      EXPECT_EQ(w->attributes.at("data-register"), std::to_string(m));
      EXPECT_EQ(b->attributes.at("data-thread"), std::to_string(m + 16 * (n % 2)));
      EXPECT_EQ(b->attributes.at("data-register"), std::to_string(n / 2));
      EXPECT_EQ(b->attributes.at("data-holders"), "1");
    }
  // Thread 9's sixteen elements are ringed: row 9 of every even column.
  EXPECT_EQ(reader.count("rect", "ring"), 16u);
  EXPECT_EQ(writer.count("rect", "ring"), 0u);
}

TEST(Figures, BroadcastReadsCountTheirHolders) {
  // cute8x8's read: lanes 8-31 repeat lanes 0-7, so four lanes hold each element.
  const XmlReport r = check_xml(figure_svg(make_preset("cute8x8"), FigureView::Reader));
  ASSERT_TRUE(r.ok());
  for (const auto& e : r.elements)
    if (e.name == "rect" && e.attributes.count("data-holders")) EXPECT_EQ(e.attributes.at("data-holders"), "4");
}

TEST(Figures, MatrixMShowsTheFoldedBitsDark) {
  Problem p = make_preset("transpose16x32");
  p.set_masks({2, 4, 8, 16});
  const XmlReport r = check_xml(figure_svg(p, FigureView::MatrixM));
  ASSERT_TRUE(r.ok()) << r.error;
  // Offset bits 5..8 (segments) carry m_j ^ n_{j+1}: m_j is row-major structure, n_{j+1} is folded in.
  EXPECT_EQ(r.count("rect", "one"), 13u);  // 9 structure + 4 folded
  EXPECT_EQ(r.count("rect", "fold"), 4u);
  for (const auto& e : r.elements)
    if (e.name == "rect" && e.attributes.count("class") && e.attributes.at("class") == "cell one fold") {
      const int col = std::stoi(e.attributes.at("data-col").substr(1));
      EXPECT_EQ(e.attributes.at("data-row"), fmt::format("n{}", col - 4));
    }
  p.set_masks({});
  EXPECT_EQ(check_xml(figure_svg(p, FigureView::MatrixM)).count("rect", "fold"), 0u);
}

TEST(Figures, MatrixAIsTheStoreLayout) {
  const Problem p = make_preset("transpose16x32");
  const XmlReport r = check_xml(figure_svg(p, FigureView::MatrixA));
  ASSERT_TRUE(r.ok());
  // Store: r_i -> m_i, t_i -> n_i: exactly nine ones on the two identity blocks.
  std::set<std::pair<std::string, std::string>> ones;
  for (const auto& e : r.elements)
    if (e.name == "rect" && e.attributes.count("data-value") && e.attributes.at("data-value") == "1")
      ones.insert({e.attributes.at("data-col"), e.attributes.at("data-row")});
  const std::set<std::pair<std::string, std::string>> want{{"r0", "m0"}, {"r1", "m1"}, {"r2", "m2"}, {"r3", "m3"}, {"t0", "n0"},
                                                           {"t1", "n1"}, {"t2", "n2"}, {"t3", "n3"}, {"t4", "n4"}};
  EXPECT_EQ(ones, want);
}

TEST(Figures, NonLinearLayoutsDrawTheirTensorButNotTheirMatrix) {
  Problem p = make_preset("transpose16x32");
  p.apply_variant("padded");
  EXPECT_TRUE(check_xml(figure_svg(p, FigureView::Tensor)).ok());
  EXPECT_THROW(figure_svg(p, FigureView::MatrixM), Error);
}

TEST(Figures, TitlesAreEscaped) {
  FigureOptions o;
  o.title = "<script>alert(\"&\")</script> \xff\xfe bad utf-8, \xc3\xa9 good";
  const std::string svg = figure_svg(make_preset("toy8x8"), FigureView::Tensor, o);
  const XmlReport r = check_xml(svg);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(svg.find("<script>"), std::string::npos);
  EXPECT_NE(r.text.find("<script>alert(\"&\")</script> ?? bad utf-8, \xc3\xa9 good"), std::string::npos);
}

TEST(Figures, ViewNamesAndErrors) {
  for (const std::string_view name : figure_view_names()) EXPECT_EQ(figure_view_name(parse_figure_view(name)), name);
  EXPECT_THROW(parse_figure_view("banks"), Error);
}

TEST(Figures, FileFormatFollowsTheName) {
  EXPECT_EQ(figure_format_for_file("fig.svg"), FigureFormat::Svg);
  EXPECT_EQ(figure_format_for_file("dir.png/fig.SVG"), FigureFormat::Svg);
  EXPECT_EQ(figure_format_for_file("fig.png"), FigureFormat::Png);
  EXPECT_EQ(figure_format_for_file("out/Fig.PnG"), FigureFormat::Png);
  EXPECT_EQ(figure_format_name(FigureFormat::Svg), "svg");
  EXPECT_EQ(figure_format_name(FigureFormat::Png), "png");
  for (const char* refused : {"fig.jpg", "fig", "fig.svg.txt", "png", "fig.pdf"}) {
    try {
      (void)figure_format_for_file(refused);
      ADD_FAILURE() << refused << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), fmt::format("'{}': a figure file's name ends in .svg (SVG) or .png (PNG)", refused));
    }
  }
}

TEST(Palette, NeighboursShareAHueAndOddIsDarker) {
  for (int bank = 0; bank < 32; bank += 2) {
    const Rgb even = palette_color(bank, 32), odd = palette_color(bank + 1, 32);
    const auto luma = [](Rgb c) { return 299 * c.r + 587 * c.g + 114 * c.b; };
    EXPECT_GT(luma(even), luma(odd)) << bank;
    if (bank + 2 < 32) EXPECT_NE(palette_color(bank, 32), palette_color(bank + 2, 32));
  }
  EXPECT_EQ(hex_color(Rgb{255, 0, 16}), "#ff0010");
}

}  // namespace
}  // namespace swz::test

namespace swz::test {
namespace {

TEST(Figures, TracedReadOutlinesItsThirtyTwoElementsAndCountsWavefronts) {
  Problem p = make_preset("transpose16x32");
  p.set_masks({1, 2, 4, 8});  // XOR m: the read of columns 4 and 5 costs 2 wavefronts
  FigureOptions o;
  o.trace = TracedAccess::Read;
  o.trace_step = 2;
  const XmlReport r = check_xml(figure_svg(p, FigureView::Tensor, o));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.count("rect", "access"), 32u);
  EXPECT_EQ(r.count("rect", "cell"), 512u);
  EXPECT_NE(r.text.find("read step 2: 2 wavefronts (ideal 1)"), std::string::npos) << r.text.substr(0, 300);
  // Every outlined element is in column 4 (lanes 0-15) or 5 (lanes 16-31).
  std::size_t dashed = 0;
  for (const auto& e : r.elements)
    if (e.name == "rect" && e.attributes.count("class") && e.attributes.at("class") == "access") {
      const int lane = std::stoi(e.attributes.at("data-lane"));
      EXPECT_EQ(e.attributes.at("data-coords"), fmt::format("{},{}", lane % 16, 4 + lane / 16));
      dashed += e.attributes.count("stroke-dasharray");
    }
  EXPECT_EQ(dashed, 16u);
  p.set_masks({2, 4, 8, 16});
  EXPECT_NE(check_xml(figure_svg(p, FigureView::Tensor, o)).text.find("read step 2: 1 wavefront (ideal 1)"), std::string::npos);
  o.trace_step = 16;
  EXPECT_THROW(figure_svg(p, FigureView::Tensor, o), Error);
}

}  // namespace
}  // namespace swz::test

namespace swz::test {
namespace {

// A tile past 256 cells a side is drawn as its top-left 128x128 window, said in the caption, with
// the same banks and holders the whole picture would give those cells.
TEST(Figures, LargeTilesDrawTheirTopLeftWindow) {
  ProblemSpec spec;
  spec.preset = "transpose128_fp16_4w";
  spec.shape = {1024, 1024};
  const Problem p = build_problem(spec);
  for (const FigureView view : {FigureView::Tensor, FigureView::Reader}) {
    const std::string svg = figure_svg(p, view);
    const XmlReport r = check_xml(svg);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.count("rect", "cell"), 128u * 128u);
    EXPECT_NE(svg.find("rows 0-127 and columns 0-127 of 1024x1024"), std::string::npos);
    EXPECT_EQ(find_cell(r, "128,0"), nullptr);
    const XmlElement* cell = find_cell(r, "127,5");
    ASSERT_NE(cell, nullptr);
    const BitVec flat = p.shared.coords().flatten({127, 5});
    if (view == FigureView::Reader) {
      const ElementOwner o = owners_of(p.read)[flat];
      EXPECT_EQ(cell->attributes.at("data-lane"), std::to_string(o.lane));
      EXPECT_EQ(cell->attributes.at("data-register"), std::to_string(o.reg));
      EXPECT_EQ(cell->attributes.at("data-warp"), std::to_string(o.warp));
    } else {
      EXPECT_EQ(cell->attributes.at("data-offset"), std::to_string(p.shared.offset(flat)));
    }
  }
}

}  // namespace
}  // namespace swz::test
