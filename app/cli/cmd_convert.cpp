// swizzle convert: a layout file from one text form to another (formats.h).
#include <fmt/format.h>

#include "command.h"
#include "swz/error.h"
#include "swz/io/formats.h"
#include "swz/io/layout_io.h"
#include "swz/problem/problem_spec.h"

namespace swz::cli {
namespace {

struct Options {
  std::string input;  // layout file in any supported form
  std::string to;     // json | triton | mlir | cute
  bool json = false;
  int bits = 0;       // --bits: element width to record (0: keep the file's)
  std::string units;  // --units: what a bare CuTe Swizzle<B,M,S> acts on (bytes | elements)
  std::string shape;  // --shape: the tensor a bare Triton attribute (#ttg.blocked<...>) lays out
};

Register reg{
    {"convert", "Convert a layout between JSON, Triton text, MLIR (any Triton layout attribute) and CuTe notation", 30,
     [](CLI::App& sub) {
       auto o = std::make_shared<Options>();
       sub.add_option("input", o->input,
                      "Layout file (JSON, Triton text, a Triton attribute such as #ttg.blocked<...> bare or in its tensor / "
                      "memdesc type, CuTe; - reads stdin)")
           ->required();
       sub.add_flag("--json", o->json, "One JSON object on stdout: the input, the format and the converted text");
       sub.add_option("--to", o->to, "Target format: json, triton, mlir or cute")->required();
       sub.add_option("--bits", o->bits, "Element width in bits to record with the layout");
       sub.add_option("--shape", o->shape, "The tensor a bare Triton attribute lays out, ROWSxCOLS (e.g. 64x64)");
       sub.add_option(
           "--units", o->units,
           "What a bare CuTe Swizzle<B,M,S> acts on: bytes or elements (required for one; CuTe's own printouts say it)");
       sub.callback([o] {
         const TextFormat target = parse_text_format(o->to);
         std::optional<SwizzleUnits> units;
         if (o->units == "bytes")
           units = SwizzleUnits::Bytes;
         else if (o->units == "elements")
           units = SwizzleUnits::Elements;
         else if (!o->units.empty())
           fail("--units {} is not bytes or elements", o->units);
         if (o->bits && o->bits != 4 && o->bits != 8 && o->bits != 16 && o->bits != 32 && o->bits != 64)
           fail("--bits {} is not one of 4, 8, 16, 32, 64", o->bits);
         LayoutHints hints;
         if (!o->shape.empty()) hints.shape = parse_shape(o->shape);
         if (o->bits) hints.element_bits = o->bits;
         std::string text = read_text_file(o->input);
         // --bits gives a byte-unit swizzle its element width.
         if (units == SwizzleUnits::Bytes && o->bits && text.find("element_bits") == std::string::npos)
           text = fmt::format("{} ; element_bits={}", text.substr(0, text.find_last_not_of(" \n\r\t") + 1), o->bits);
         LayoutFile f;
         if (detect_format(text) == TextFormat::Cute) {
           try {
             // CuTe text is read strictly here: a bare swizzle must say its units.
             f = parse_cute(text, units, /*strict=*/true);
           } catch (const Error& e) {
             fail("{}: {}", o->input, e.what());
           }
           check_given_shape(f, hints, o->input);
         } else {
           if (units) fail("{}: --units applies to CuTe layouts only", o->input);
           f = parse_layout_text(text, o->input, hints);
         }
         if (o->bits) {
           if (f.element_bits && *f.element_bits != o->bits)
             fail("{}: the file says element_bits {}, --bits says {}", o->input, *f.element_bits, o->bits);
           f.element_bits = o->bits;
         }
         const std::string out = write_layout(f, target);
         if (o->json)
           print_json({{"input", o->input}, {"format", o->to}, {"text", out}});
         else
           fmt::print("{}", out);
       });
     }}};

}  // namespace
}  // namespace swz::cli
