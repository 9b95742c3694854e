// swizzle conflicts: one access (a distributed layout) against one shared layout.
#include <fmt/format.h>

#include <bit>
#include <cstdlib>

#include "command.h"
#include "common.h"
#include "swz/error.h"
#include "swz/io/layout_io.h"
#include "swz/problem/problem_spec.h"
#include "swz/sim/analysis.h"
#include "swz/sim/gpu.h"
#include "swz/sim/matrix_rows.h"
#include "swz/sim/warp_access.h"

namespace swz::cli {
namespace {

struct Options {
  ProblemArguments problem;  // --shared, --bits, --banks, --warp-size, and for a whole problem --preset, --src, --dst, ...
  std::string dist;          // --dist: one access against --shared
  int vec_bits = 0;
  std::string ldmatrix, stmatrix;  // --ldmatrix / --stmatrix: "4", "x4", "x4.trans", ...
  std::string instruction;         // --instruction: a SASS name as `solve --json` prints it (STSM.x4.trans, LDS.128, ...)
  bool store = false, json = false;
};

// "4", "x4", "4.trans", "x4.trans" after --ldmatrix / --stmatrix: the core's instruction of that name.
InstructionKind matrix_kind(const std::string& flag, const std::string& value, const char* sass) {
  std::string v = value;
  if (!v.empty() && v[0] == 'x') v.erase(0, 1);
  const auto kind = parse_instruction_kind(fmt::format("{}.x{}", sass, v));
  if (!kind) fail("{}: '{}' is not 1, 2 or 4 matrices (x1, x2, x4), optionally .trans (x4.trans)", flag, value);
  return *kind;
}

// The access's instruction from --instruction, --ldmatrix, --stmatrix, --store and --vec-bits.
Access access_for(const Options& o, const LinearLayout& layout) {
  const int given = !o.instruction.empty() + !o.ldmatrix.empty() + !o.stmatrix.empty();
  if (given > 1) fail("give one of --instruction, --ldmatrix and --stmatrix");
  Access access{layout, o.store ? AccessKind::Store : AccessKind::Load, 0, o.vec_bits};
  std::optional<InstructionKind> kind;
  if (!o.instruction.empty()) {
    if (o.store || o.vec_bits) fail("--instruction says the direction and the width: leave out --store and --vec-bits");
    kind = parse_instruction_kind(o.instruction);
    if (!kind || kind->op == WarpOp::AsyncCopy)
      fail("--instruction: '{}' is not an LDS, STS, LDSM or STSM name (LDS.128, STS.U16, LDSM.x4.trans, STSM.x2, ...)",
           o.instruction);
  } else if (!o.ldmatrix.empty()) {
    kind = matrix_kind("--ldmatrix", o.ldmatrix, o.store ? "STSM" : "LDSM");  // --store: the same rows, stored
  } else if (!o.stmatrix.empty()) {
    kind = matrix_kind("--stmatrix", o.stmatrix, "STSM");
  }
  if (!kind) return access;
  access.kind = kind->writes_shared() ? AccessKind::Store : AccessKind::Load;
  if (kind->is_matrix()) {
    if (o.vec_bits) fail("ldmatrix and stmatrix move 16-byte rows: leave out --vec-bits");
    access.ldmatrix = kind->matrices;
    access.trans = kind->trans;
    access.vec_bits = 0;
  } else {
    access.vec_bits = kind->bytes * 8;
  }
  return access;
}

void print_access(const char* kind, const AccessAnalysis& a) {
  const AccessResult& s = a.simulated;
  fmt::print("{}: {} per instruction (ideal {}, {} conflict{}), {} instructions of {}-bit vectors ({})\n", kind, verdict_text(s),
             s.ideal_wavefronts, s.conflicts, s.conflicts == 1 ? "" : "s", s.instructions(), s.vector.bits, a.instruction);
  if (a.lemma.applies)
    fmt::print("algebra: intersection dim {}, predicted {} wavefronts\n", a.lemma.intersection_dim, a.lemma.predicted_wavefronts);
  if (!a.agrees()) fmt::print("note: {}\n", a.difference);
}

// One access from --dist against the layout file --shared.
void one_access(const Options& o) {
  if (!o.problem.shared) fail("--dist needs --shared (the layout the access reads or writes)");
  for (const auto* other : {&o.problem.spec, &o.problem.preset, &o.problem.mask, &o.problem.layout, &o.problem.src,
                            &o.problem.dst, &o.problem.write_vec_bits, &o.problem.read_vec_bits})
    if (*other) fail("--dist gives one access: leave out the problem's flags (--preset, --src, --dst, ...), or leave out --dist");
  ProblemArguments numbers;  // read and checked as every problem's are
  numbers.bits = o.problem.bits;
  numbers.gpu = o.problem.gpu;
  numbers.banks = o.problem.banks;
  numbers.warp_size = o.problem.warp_size;
  numbers.shape = o.problem.shape;
  const ProblemSpec checked = parse_problem_arguments(numbers, /*check_problem=*/false);
  // --shape (and --bits) shape bare Triton attributes (#ttg.blocked<...>) in either file.
  const LayoutHints hints{checked.shape, checked.element_bits ? std::optional<int>(checked.element_bits) : std::nullopt};
  const LayoutFile dist = load_layout_file(o.dist, hints);
  if (dist.kind != LayoutKind::Distributed) fail("{}: expected a distributed layout (reg/lane/warp bases)", o.dist);
  const LayoutFile shared_file = load_layout_file(*o.problem.shared, hints);
  const SharedLayout shared = shared_from_file(shared_file, *o.problem.shared, {});
  if (dist.layout.shape() != shared.shape())
    fail("the access covers a {} tensor but the shared layout is {}", fmt::join(dist.layout.shape(), "x"),
         fmt::join(shared.shape(), "x"));
  if (const std::string gap = coverage_gap(dist.layout); !gap.empty())
    fail("{}: the access does not cover the tensor: {}", o.dist, gap);
  if (dist.element_bits && shared_file.element_bits && *dist.element_bits != *shared_file.element_bits)
    fail("{} states {}-bit elements but {} states {}-bit ones", *o.problem.shared, *shared_file.element_bits, o.dist,
         *dist.element_bits);
  int bits = checked.element_bits;  // the files agree with it (load_layout_file checks a given width)
  if (!bits) bits = dist.element_bits.value_or(shared_file.element_bits.value_or(32));
  ProblemSpec bank_only = checked;  // --gpu and --banks; the warp is the layout's, checked below
  bank_only.warp_size = 0;
  BankModel model = spec_bank_model(bank_only, BankModel{});
  // The warp is as wide as the layout's lanes up to 32; a 64-lane wave only when asked for (or the GPU's).
  const int warp_size = checked.gpu.empty() ? checked.warp_size : model.warp_size;
  if (!checked.gpu.empty() && checked.warp_size && checked.warp_size != warp_size)
    (void)spec_bank_model(checked, BankModel{});  // refuses the contradiction in its words
  const int lane_bases = dist.layout.in_dim_bits("lane"), lanes = 1 << lane_bases;
  if (lanes > 64)
    fail("{}: the access has {} lane bases, a warp size {} over the 64 lanes of any GPU", o.dist, lane_bases, lanes);
  if (warp_size == 0 && lanes == 64)
    fail("{}: the access has 6 lane bases, 64 lanes; the warp has 32 (give --warp-size 64 for a 64-lane wave, as on AMD wave64)",
         o.dist);
  if (!checked.gpu.empty() && lanes != warp_size)
    fail("{}: the access has {} lanes; {} runs {}-lane warps", o.dist, lanes, gpu_of(model).title(), warp_size);
  if (warp_size != 0 && warp_size != lanes) fail("{}: the access has {} lanes but --warp-size is {}", o.dist, lanes, warp_size);
  model.warp_size = lanes;
  check_bank_model(model);
  // A matrix instruction on a layout of what the lanes hold reads the rows they address (matrix_rows.h).
  Access access = access_for(o, dist.layout);
  if (access.ldmatrix) access = issue_matrix(access, shared, bits, model);
  const AccessAnalysis a = analyze_access(access, shared, bits, model);
  if (o.json) {
    nlohmann::json j = to_json(a, shared.coords());
    j["element_bits"] = bits;
    j["gpu"] = gpu_of(model).name;
    j["banks"] = model.banks;
    j["kind"] = access.kind == AccessKind::Store ? "store" : "load";
    print_json(j);
    return;
  }
  print_access(access.kind == AccessKind::Store ? "store" : "load", a);
}

// Both accesses of a problem (a preset, or --src/--dst).
void both_accesses(const Options& o) {
  if (o.vec_bits || !o.ldmatrix.empty() || !o.stmatrix.empty() || !o.instruction.empty() || o.store)
    fail(
        "--vec-bits, --ldmatrix, --stmatrix, --instruction and --store describe the --dist access; for a problem give "
        "--write-vec-bits / --read-vec-bits");
  const Problem p = load_problem(o.problem);
  const ProblemAnalysis a = analyze(p);
  if (o.json) {
    print_json(to_json(a, p));
    return;
  }
  print_access("store", a.store);
  print_access("load", a.read);
}

Register reg{
    {"conflicts", "Bank conflicts: one access (--dist against --shared), or both accesses of a problem (--preset, --src/--dst)",
     30, [](CLI::App& sub) {
       auto o = std::make_shared<Options>();
       sub.add_option("--dist", o->dist, "Distributed layout of one access (register/lane/warp bases), read against --shared");
       add_problem_options(sub, o->problem);
       sub.add_option("--vec-bits", o->vec_bits,
                      "With --dist: bits per lane per instruction: 8, 16, 32, 64 or 128, at least the element width (default: "
                      "widest allowed)")
           ->check(CLI::IsMember({8, 16, 32, 64, 128}));
       sub.add_option("--ldmatrix", o->ldmatrix,
                      "With --dist: read with ldmatrix: 1, 2 or 4 matrices, .trans for the transposing form (x4, x4.trans); "
                      "the layout gives the row addresses, or (x4) what each lane holds, as solve reads it");
       sub.add_option("--stmatrix", o->stmatrix, "With --dist: write with stmatrix, as --ldmatrix (x1, x2, x4, x4.trans)");
       sub.add_option("--instruction", o->instruction,
                      "With --dist: the instruction by its SASS name, as `swizzle solve --json` prints it (STS.128, LDS.U16, "
                      "LDSM.x4.trans, STSM.x4, ...)");
       sub.add_flag("--store", o->store, "With --dist: the access is a store (default: a load)");
       sub.add_flag("--json", o->json, "One JSON object on stdout");
       sub.callback([o] {
         if (!o->dist.empty())
           one_access(*o);
         else
           both_accesses(*o);
       });
     }}};

}  // namespace
}  // namespace swz::cli
