// swizzle presets: the problems users start from.
#include <fmt/format.h>

#include "command.h"
#include "swz/problem/problem.h"

namespace swz::cli {
namespace {

struct Options {
  bool json = false;
};

Register reg{{"presets", "List the preset problems", 10, [](CLI::App& sub) {
  auto o = std::make_shared<Options>();
  sub.add_flag("--json", o->json, "One JSON object on stdout");
  sub.callback([o] {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& info : list_presets()) {
      const Problem p = make_preset(info.name);
      nlohmann::json e{{"name", info.name}, {"description", info.description}, {"shape", p.shape},
                       {"element_bits", p.element_bits}, {"banks", p.bank.banks}, {"grid", p.grid.has_value()}};
      nlohmann::json layouts = nlohmann::json::array();
      for (const auto& v : p.variants) layouts.push_back(v.name);
      e["layouts"] = layouts;
      list.push_back(e);
      if (!o->json) fmt::print("{:<24} {}\n{:<24} layouts: {}\n", info.name, info.description, "", fmt::join(layouts, ", "));
    }
    if (o->json) print_json({{"presets", list}, {"default", kDefaultPreset}});
  });
}}};

}  // namespace
}  // namespace swz::cli
