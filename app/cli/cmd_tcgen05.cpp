// swizzle tcgen05: which shared layout a tcgen05.mma operand needs on sm_100, and that layout
// exported (triton issue #9252: a transposed, MN-major tf32 operand).
//
//   swizzle tcgen05 --type tf32 --major mn                          the answer, in words
//   swizzle tcgen05 --type tf32 --major mn --shape 32x32 --format cute --name b_tile -o b_tile.hpp
#include <fmt/format.h>

#include <cstdio>

#include "command.h"
#include "swz/error.h"
#include "swz/export/export.h"
#include "swz/layout/recognize.h"
#include "swz/layout/sm100.h"
#include "swz/sim/gpu.h"

namespace swz::cli {
namespace {

struct Options {
  std::string type = "tf32";
  std::string major = "mn";
  std::string shape;   // --shape MNxK; "" = CuTe's atom
  std::string format;  // --format: export the tile
  std::string name = "tcgen05_operand";
  std::string output;          // -o
  std::string gpu = "sm_100";  // --gpu: the GPU the operand is for
  bool json = false;
};

Major parse_major(const std::string& text) {
  if (text == "k" || text == "K") return Major::K;
  if (text == "mn" || text == "MN") return Major::MN;
  fail("--major is k or mn, not '{}'", text);
}

void print_answer(const Tcgen05Answer& a) {
  fmt::print("{}\n", a.rule);
  fmt::print("  descriptor  layout type {} ({}): bits 61-63 = 0x{:016x} (base offset 0)\n", a.atom.mode->layout_type,
             a.atom.mode->name, a.descriptor_bits);
  fmt::print("  swizzle     Swizzle<{},{},{}> on byte addresses, repeating every {} bytes\n", a.atom.mode->swizzle.b,
             a.atom.mode->swizzle.m, a.atom.mode->swizzle.s, a.atom.mode->swizzle.repeat_bytes());
  fmt::print("  CuTe        {}, printed {}\n", a.atom_name, a.atom_printout);
  if (a.tma) fmt::print("  TMA         {} writes it\n", a.tma->driver_name);
  fmt::print("  Triton      {}\n", a.nvmma_expressible ? "#ttg.nvmma_shared expresses it"
                                                       : "#ttg.nvmma_shared has no 32-byte-atom form (triton issue #9252)");
  fmt::print("  tile        {}x{} ([MN, K]), {}-bit elements: {}\n", a.layout.shape()[0], a.layout.shape()[1],
             a.atom.element_bits, a.layout.description());
}

nlohmann::json answer_json(const Tcgen05Answer& a) {
  nlohmann::json modes = nlohmann::json::array();
  for (const UmmaMode* m : a.modes) modes.push_back(m->name);
  nlohmann::json names = nlohmann::json::array();
  for (const LayoutMatch& m : recognize(a.layout, a.atom.element_bits)) names.push_back(m.name);
  return {{"type", a.type},
          {"major", major_name(a.major)},
          {"modes", modes},
          {"layout_type", a.atom.mode->layout_type},
          {"mode", a.atom.mode->name},
          {"swizzle_bytes", {a.atom.mode->swizzle.b, a.atom.mode->swizzle.m, a.atom.mode->swizzle.s}},
          {"descriptor_bits", fmt::format("0x{:016x}", a.descriptor_bits)},
          {"cute_atom", a.atom_name},
          {"cute_printout", a.atom_printout},
          {"tma_mode", a.tma ? a.tma->driver_name : ""},
          {"nvmma_expressible", a.nvmma_expressible},
          {"rule", a.rule},
          {"shape", a.layout.shape()},
          {"element_bits", a.atom.element_bits},
          {"known_as", names}};
}

Register reg{
    {"tcgen05", "The shared layout a tcgen05.mma operand needs on sm_100 (type, major), named and exported", 65,
     [](CLI::App& sub) {
       auto o = std::make_shared<Options>();
       sub.add_option("--type", o->type, "Operand type: tf32 (f32), f16, bf16, e4m3, e5m2, i8, u8")->capture_default_str();
       sub.add_option("--major", o->major, "k or mn (mn: transposed, MN contiguous)")->capture_default_str();
       sub.add_option("--shape", o->shape, "The [MN, K] tile, e.g. 32x32 (default: CuTe's atom)");
       sub.add_option("--format", o->format, "Export the tile: header, cute, triton or json");
       sub.add_option("--name", o->name, "Namespace or variable name of the export")->capture_default_str();
       sub.add_option("-o,--output", o->output, "Export to this file, replaced atomically (default: stdout)");
       sub.add_flag("--json", o->json, "One JSON object on stdout");
       sub.add_option("--gpu", o->gpu, "The GPU (sm_100, b200; a GPU without tcgen05 is refused)")->capture_default_str();
       sub.callback([o] {
         if (const auto fault = umma_mode_fault(umma_mode_of_field(0), gpu_named(o->gpu))) fail("--gpu: {}", *fault);
         const std::vector<std::int64_t> shape = o->shape.empty() ? std::vector<std::int64_t>{} : parse_shape(o->shape);
         const Tcgen05Answer answer = tcgen05_operand_answer(o->type, parse_major(o->major), shape);
         if (o->format.empty()) {
           if (!o->output.empty()) fail("-o writes an export: give --format too");
           if (o->json)
             print_json(answer_json(answer));
           else
             print_answer(answer);
           return;
         }
         const ExportFormat format = parse_export_format(o->format);
         check_export_name(o->name, format);
         ExportRequest request = ExportRequest::from_layout(answer.layout, answer.atom.element_bits, o->name);
         request.command = fmt::format("swizzle tcgen05 --type {} --major {}{} --format {} --name {}", o->type, o->major,
                                       o->shape.empty() ? "" : " --shape " + o->shape, o->format, o->name);
         request.output = o->output.empty() ? "-" : o->output;
         const std::string text = export_text(request, format);
         if (!o->output.empty()) write_file_atomically(o->output, text);
         if (o->json) {
           nlohmann::json j = answer_json(answer);
           j["format"] = o->format;
           if (o->output.empty())
             j["text"] = text;
           else
             j["written"] = o->output;
           print_json(j);
         } else if (o->output.empty()) {
           std::fputs(text.c_str(), stdout);
         }
       });
     }}};

}  // namespace
}  // namespace swz::cli
