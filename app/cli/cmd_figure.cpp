// swizzle figure: one picture of a problem as SVG or PNG (by -o's name), for slides and papers.
//
//   swizzle figure --preset transpose16x32 --mask 2,4,8,16 --view tensor -o fig.svg
//   swizzle figure --preset transpose16x32 --view reader --thread 9 -o reader.png
#include <fmt/format.h>

#include <cstdio>

#include "command.h"
#include "common.h"
#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/export/font.h"
#include "swz/export/raster.h"
#include "swz/export/svg.h"

namespace swz::cli {
namespace {

struct Options {
  ProblemArguments problem;
  std::string solved;  // --solved
  std::string view = "tensor";
  std::string output;  // -o: .svg or .png
  double scale = 2;    // PNG pixels per SVG unit
  FigureOptions figure;
  bool no_labels = false;
  std::string access;  // --access store|read
  bool json = false;
};

Register reg{
    {"figure", "Draw a view of a problem as SVG or PNG (tensor, writer, reader, matrix-a, matrix-b, matrix-m)", 70, [](CLI::App& sub) {
       auto o = std::make_shared<Options>();
       add_problem_options(sub, o->problem);
       sub.add_option("--solved", o->solved, "Draw with the layout of a `swizzle solve --json` result");
       sub.add_option("--view", o->view, fmt::format("What to draw: {}", fmt::join(figure_view_names(), ", ")))
           ->capture_default_str();
       sub.add_option("--thread", o->figure.highlight_thread, "writer/reader: ring this thread's elements (0 to the threads - 1)")
           ->check(CLI::NonNegativeNumber);
       sub.add_option("--title", o->figure.title, "Title line (default: problem and view)");
       sub.add_flag("--no-labels", o->no_labels, "No numbers in the cells");
       sub.add_option("--access", o->access, "tensor: outline the elements one store or read instruction touches (store, read)");
       sub.add_option("--step", o->figure.trace_step, "with --access: the instruction's register step")->capture_default_str();
       sub.add_option("--warp", o->figure.trace_warp, "with --access: the instruction's warp")->capture_default_str();
       sub.add_option("-o,--output", o->output,
                      "Output file, .svg or .png (the name picks the format), replaced atomically (default: SVG on stdout)");
       sub.add_option("--scale", o->scale, "PNG: pixels per SVG unit")->check(CLI::Range(0.25, 8.0))->capture_default_str();
       sub.add_flag("--json", o->json, "One JSON object on stdout: what was written where");
       sub.callback([o] {
         // The file name is checked before anything is drawn, so a wrong one costs nothing.
         const FigureFormat format = o->output.empty() ? FigureFormat::Svg : figure_format_for_file(o->output);
         const FigureView view = parse_figure_view(o->view);
         ProblemArguments po = o->problem;
         if (!o->solved.empty()) use_solved(po, o->solved);
         const Problem p = load_problem(po);
         FigureOptions options = o->figure;
         options.labels = !o->no_labels;
         if (o->access == "store")
           options.trace = TracedAccess::Store;
         else if (o->access == "read")
           options.trace = TracedAccess::Read;
         else if (!o->access.empty())
           fail("--access takes store or read, not '{}'", o->access);
         if (options.trace != TracedAccess::None && view != FigureView::Tensor) fail("--access draws on the tensor view only");
         if (options.highlight_thread >= 0) {
           if (view != FigureView::Writer && view != FigureView::Reader) fail("--thread rings a thread on the writer or reader view only");
           const Access& a = view == FigureView::Writer ? p.store : p.read;
           const int threads = 1 << (a.layout.in_dim_bits("lane") + a.layout.in_dim_bits("warp"));
           if (options.highlight_thread >= threads)
             fail("--thread {}: the {} has threads 0 to {}", options.highlight_thread, view == FigureView::Writer ? "writer" : "reader",
                  threads - 1);
         }
         const std::string svg = figure_svg(p, view, options);
         nlohmann::json j = {{"view", o->view}, {"format", figure_format_name(format)}};
         if (format == FigureFormat::Png) {
           const Image image = render_svg(svg, Typeface::load(), o->scale);
           const std::string png = encode_png(image);
           write_file_atomically(o->output, png);
           j["bytes"] = png.size();
           j["width"] = image.width;
           j["height"] = image.height;
         } else {
           if (!o->output.empty()) write_file_atomically(o->output, svg);
           j["bytes"] = svg.size();
         }
         if (o->json) {
           if (o->output.empty()) j["text"] = svg;
           else j["written"] = o->output;
           print_json(j);
         } else if (o->output.empty()) {
           std::fputs(svg.c_str(), stdout);
         }
       });
     }}};

}  // namespace
}  // namespace swz::cli
