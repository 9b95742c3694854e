#include <cstdio>
#include "swz/analysis.h"
int main() {
  auto p = swz::make_preset("transpose16x32");
  for (const char* v : {"unswizzled", "xor-m", "xor-2m", "padded"}) {
    p.apply_variant(v);
    auto a = swz::analyze(p);
    std::printf("%s\n", swz::to_json(a, p).dump().c_str());
  }
}
