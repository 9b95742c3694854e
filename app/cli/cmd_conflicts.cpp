// swizzle conflicts: one access (a distributed layout) against one shared layout.
#include <bit>

#include <fmt/format.h>

#include "command.h"
#include "common.h"
#include "swz/sim/analysis.h"
#include "swz/error.h"
#include "swz/io/layout_io.h"

namespace swz::cli {
namespace {

struct Options {
  std::string dist, shared;
  int bits = 0, vec_bits = 0, banks = 32, ldmatrix = 0, warp_size = 0;
  bool store = false, json = false;
};

Register reg{{"conflicts", "Bank conflicts of one access: a distributed layout reading or writing a shared layout", 30,
              [](CLI::App& sub) {
  auto o = std::make_shared<Options>();
  sub.add_option("--dist", o->dist, "Distributed layout of the access (register/lane/warp bases)")->required();
  sub.add_option("--shared", o->shared, "Shared-memory layout (offset_bases)")->required();
  sub.add_option("--bits", o->bits, "Element width in bits: 4, 8, 16, 32, 64 (default: the files' element_bits, else 32)");
  sub.add_option("--vec-bits", o->vec_bits, "Bits per lane per instruction: 8, 16, 32, 64 or 128, at least the element width (default: widest allowed)")
      ->check(CLI::IsMember({8, 16, 32, 64, 128}));
  sub.add_option("--warp-size", o->warp_size, "Lanes per warp, 32 or 64 (a 64-lane wave, as on AMD); default: the layout's lanes, up to 32")->check(CLI::IsMember({32, 64}));
  sub.add_option("--banks", o->banks, "Number of banks: a power of two from 1 to 64")->default_val(32)->check(CLI::Range(1, 64));
  sub.add_option("--ldmatrix", o->ldmatrix, "Read with ldmatrix .x1/.x2/.x4 (the layout gives the row addresses)");
  sub.add_flag("--store", o->store, "The access is a store (default: a load)");
  sub.add_flag("--json", o->json, "One JSON object on stdout");
  sub.callback([o] {
    const LayoutFile dist = load_layout_file(o->dist);
    if (dist.kind != LayoutKind::Distributed) fail("{}: expected a distributed layout (reg/lane/warp bases)", o->dist);
    const LayoutFile shared_file = load_layout_file(o->shared);
    const SharedLayout shared = shared_from_file(shared_file, o->shared, {});
    if (dist.layout.shape() != shared.shape())
      fail("the access covers a {} tensor but the shared layout is {}", fmt::join(dist.layout.shape(), "x"), fmt::join(shared.shape(), "x"));
    int bits = o->bits;
    if (!bits) bits = dist.element_bits.value_or(shared_file.element_bits.value_or(32));
    BankModel model;
    model.banks = o->banks;
    // The warp is as wide as the layout's lanes up to 32; a 64-lane wave only when asked for.
    const int lane_bases = dist.layout.in_dim_bits("lane"), lanes = 1 << lane_bases;
    if (lanes > 64) fail("{}: the access has {} lane bases, a warp size {} over the 64 lanes of any GPU", o->dist, lane_bases, lanes);
    if (o->warp_size == 0 && lanes == 64)
      fail("{}: the access has 6 lane bases, 64 lanes; the warp has 32 (give --warp-size 64 for a 64-lane wave, as on AMD wave64)", o->dist);
    if (o->warp_size != 0 && o->warp_size != lanes)
      fail("{}: the access has {} lanes but --warp-size is {}", o->dist, lanes, o->warp_size);
    model.warp_size = lanes;
    check_bank_model(model);
    Access access{dist.layout, o->store ? AccessKind::Store : AccessKind::Load, o->ldmatrix, o->vec_bits};
    const AccessAnalysis a = analyze_access(access, shared, bits, model);
    if (o->json) {
      nlohmann::json j = to_json(a, shared.coords());
      j["element_bits"] = bits;
      j["banks"] = model.banks;
      j["kind"] = o->store ? "store" : "load";
      print_json(j);
      return;
    }
    const AccessResult& s = a.simulated;
    fmt::print("{}: {} per instruction (ideal {}, {} conflict{}), {} instructions of {}-bit vectors\n", o->store ? "store" : "load",
               verdict_text(s), s.ideal_wavefronts, s.conflicts, s.conflicts == 1 ? "" : "s", s.instructions(), s.vector.bits);
    if (a.lemma.applies) fmt::print("algebra: intersection dim {}, predicted {} wavefronts\n", a.lemma.intersection_dim, a.lemma.predicted_wavefronts);
    if (!a.agrees()) fmt::print("note: {}\n", a.difference);
  });
}}};

}  // namespace
}  // namespace swz::cli
