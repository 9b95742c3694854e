#include "common.h"

#include <cstdlib>

#include "swz/error.h"
#include "swz/layout_io.h"

namespace swz::cli {

void add_problem_options(CLI::App& app, ProblemOptions& o, bool need_preset) {
  auto* p = app.add_option("--preset", o.preset, "Preset problem (see `swizzle presets`)");
  if (need_preset) p->default_str(kDefaultPreset);
  app.add_option_function<std::string>("--mask", [&o](const std::string& s) { o.masks = s; o.masks_given = true; },
                                       "Toggle-grid masks C_j per row bit, lowest first (1,2,4,8 = XOR m; 2,4,8,16 = XOR 2m)");
  app.add_option("--layout", o.variant, "A preset's named shared layout (e.g. xor-2m, padded, swizzle323)");
  app.add_option("--shared", o.shared_file, "Shared layout file (JSON offset_bases, Triton/MLIR text, CuTe)");
  app.add_option("--banks", o.banks, "Number of banks: a power of two from 1 to 64 (32; 8 for the toy GPU)")
      ->check(CLI::Range(1, 64) & CLI::Validator([](std::string& v) {
        const int n = std::atoi(v.c_str());
        return (n & (n - 1)) == 0 ? std::string() : "bank count " + v + " must be a power of two from 1 to 64";
      }, "POWER OF TWO"));
}

SharedLayout load_shared_file(const std::string& path, const std::vector<std::int64_t>& expected_shape) {
  return shared_from_file(load_layout_file(path), path, expected_shape);
}

SharedLayout shared_from_file(const LayoutFile& f, const std::string& path, const std::vector<std::int64_t>& expected_shape) {
  if (f.kind != LayoutKind::Shared) fail("{}: expected a shared layout (offset_bases), found a distributed one", path);
  // A tensor of the wrong shape is refused before its tables are built (2^24 elements take a second and 128 MiB).
  if (!expected_shape.empty() && f.layout.shape() != expected_shape)
    fail("{}: shared layout covers a {} tensor; the problem's is {}", path, fmt::join(f.layout.shape(), "x"), fmt::join(expected_shape, "x"));
  SharedLayout s;
  try {
    s = SharedLayout::from_linear(f.layout, path);
  } catch (const Error& e) {
    fail("{}: {}", path, e.what());
  }
  if (!expected_shape.empty() && s.shape() != expected_shape)
    fail("{}: shared layout covers a {} tensor; the problem's is {}", path, fmt::join(s.shape(), "x"), fmt::join(expected_shape, "x"));
  return s;
}

Problem load_problem(const ProblemOptions& o) {
  Problem p = make_preset(o.preset.empty() ? kDefaultPreset : o.preset);
  int chosen = 0;
  chosen += o.masks_given ? 1 : 0;
  chosen += o.variant.empty() ? 0 : 1;
  chosen += o.shared_file.empty() ? 0 : 1;
  if (chosen > 1) fail("give only one of --mask, --layout and --shared");
  if (o.masks_given) p.set_masks(parse_masks(o.masks));
  if (!o.variant.empty()) p.apply_variant(o.variant);
  if (!o.shared_file.empty()) p.set_shared(load_shared_file(o.shared_file, p.shape));
  if (o.banks != 0) {
    p.bank.banks = o.banks;
    check_bank_model(p.bank);
  }
  return p;
}

}  // namespace swz::cli
