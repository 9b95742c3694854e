// swizzle convert: a layout file from one text form to another (formats.h).
#include <fmt/format.h>

#include "command.h"
#include "swz/error.h"
#include "swz/formats.h"
#include "swz/layout_io.h"

namespace swz::cli {
namespace {

struct Options {
  std::string input;  // layout file in any supported form
  std::string to;     // json | triton | mlir | cute
  int bits = 0;       // --bits: element width to record (0: keep the file's)
};

Register reg{
    {"convert", "Convert a layout between JSON, Triton text, MLIR (#ttg.linear) and CuTe notation", 30, [](CLI::App& sub) {
       auto o = std::make_shared<Options>();
       sub.add_option("input", o->input, "Layout file (JSON, Triton text, #ttg.linear / #ttg.shared_linear, CuTe)")->required();
       sub.add_option("--to", o->to, "Target format: json, triton, mlir or cute")->required();
       sub.add_option("--bits", o->bits, "Element width in bits to record with the layout");
       sub.callback([o] {
         const TextFormat target = parse_text_format(o->to);
         LayoutFile f = load_layout_file(o->input);
         if (o->bits) {
           if (o->bits != 4 && o->bits != 8 && o->bits != 16 && o->bits != 32 && o->bits != 64)
             fail("--bits {} is not one of 4, 8, 16, 32, 64", o->bits);
           if (f.element_bits && *f.element_bits != o->bits)
             fail("{}: the file says element_bits {}, --bits says {}", o->input, *f.element_bits, o->bits);
           f.element_bits = o->bits;
         }
         fmt::print("{}", write_layout(f, target));
       });
     }}};

}  // namespace
}  // namespace swz::cli
