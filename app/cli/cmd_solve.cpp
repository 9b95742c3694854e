// swizzle solve: the optimal shared layout for a writer and a reader, with its proof.
#include <fmt/format.h>

#include "command.h"
#include "swz/error.h"
#include "swz/formats.h"
#include "swz/layout_io.h"
#include "swz/recognize.h"
#include "swz/solver.h"

namespace swz::cli {
namespace {

struct Options {
  std::string preset;  // --preset (a grid preset adds masks, family_size, repair)
  std::string masks;   // --mask: the current grid, to repair
  bool masks_given = false;
  std::string src, dst;  // --src / --dst layout files
  int bits = 0;          // --bits (0: the files' element_bits, else 16)
  int banks = 0;         // --banks (0: 32, or the preset's)
  int ldmatrix = 0;      // --ldmatrix: the reader is ldmatrix .xN
  bool json = false;
};

Access load_access(const std::string& path, AccessKind kind, std::optional<int>& bits) {
  const LayoutFile f = load_layout_file(path);
  if (f.kind != LayoutKind::Distributed) fail("{}: expected a distributed layout (register/lane/warp), found a shared one", path);
  if (f.element_bits) {
    if (bits && *bits != *f.element_bits)
      fail("{}: element_bits {} differs from the other file's {}", path, *f.element_bits, *bits);
    bits = f.element_bits;
  }
  return Access{f.layout, kind, 0, 0};
}

nlohmann::json access_json(const AccessResult& r) {
  return {{"wavefronts", r.wavefronts},
          {"ideal_wavefronts", r.ideal_wavefronts},
          {"conflicts", r.conflicts},
          {"vec_bits", r.vector.bits},
          {"instructions", r.instructions()}};
}

nlohmann::json trace_json(const SolveResult& r, const LinearLayout& coords) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& st : r.trace) {
    nlohmann::json sets = nlohmann::json::object();
    for (const auto& s : st.sets) {
      nlohmann::json list = nlohmann::json::array();
      for (BitVec v : s.vectors) list.push_back({{"name", coords.describe_out(v)}, {"coords", coords.unflatten(v)}});
      sets[s.name] = list;
    }
    steps.push_back({{"title", st.title}, {"sentence", st.sentence}, {"sets", sets}});
  }
  return steps;
}

void print_text(const SolveResult& r, const LinearLayout& coords, const std::vector<LayoutMatch>& matches) {
  for (const auto& st : r.trace) fmt::print("{}: {}\n", st.title, st.sentence);
  fmt::print("\nshared layout (offset -> coords):\n{}", to_triton_text(r.offset_bases));
  fmt::print("write: {} wavefront(s) per instruction (ideal {}), {}-bit vectors\n", r.write.wavefronts, r.write.ideal_wavefronts,
             r.write.vector.bits);
  fmt::print("read:  {} wavefront(s) per instruction (ideal {}), {}-bit vectors\n", r.read.wavefronts, r.read.ideal_wavefronts,
             r.read.vector.bits);
  fmt::print("lower bound: write {}, read {}: {}\n", r.bound.write_wavefronts, r.bound.read_wavefronts, r.bound.reason);
  for (const auto& m : matches) fmt::print("equals: {}\n", m.name);
  (void)coords;
}

Register reg{
    {"solve", "The optimal conflict-free shared layout for a writer and a reader, with the construction", 25, [](CLI::App& sub) {
       auto o = std::make_shared<Options>();
       sub.add_option("--preset", o->preset, "Preset problem (its writer and reader); grid presets add masks and family_size");
       sub.add_option_function<std::string>(
           "--mask",
           [o](const std::string& s) {
             o->masks = s;
             o->masks_given = true;
           },
           "Current toggle-grid masks of a preset: also print the fewest flips that repair them");
       sub.add_option("--src", o->src, "Writer layout file (JSON, Triton text or #ttg.linear)");
       sub.add_option("--dst", o->dst, "Reader layout file (JSON, Triton text or #ttg.linear)");
       sub.add_option("--bits", o->bits, "Element width in bits (default: the files' element_bits, else 16)");
       sub.add_option("--banks", o->banks, "Number of banks (default 32)");
       sub.add_option("--ldmatrix", o->ldmatrix, "The reader is ldmatrix .x1/.x2/.x4 (its layout gives the row addresses)");
       sub.add_flag("--json", o->json, "One JSON object on stdout");
       sub.callback([o] {
         const bool files = !o->src.empty() || !o->dst.empty();
         if (files && !o->preset.empty()) fail("give either --preset or --src/--dst, not both");
         if (files && (o->src.empty() || o->dst.empty())) fail("--src and --dst go together");
         if (o->masks_given && files) fail("--mask needs a grid --preset");
         Problem p;
         if (files) {
           std::optional<int> bits;
           p.store = load_access(o->src, AccessKind::Store, bits);
           p.read = load_access(o->dst, AccessKind::Load, bits);
           if (o->bits) {
             if (bits && *bits != o->bits) fail("--bits {} differs from the files' element_bits {}", o->bits, *bits);
             bits = o->bits;
           }
           p.element_bits = bits.value_or(16);
           p.name = "custom";
           p.shape = p.store.layout.shape();
         } else {
           p = make_preset(o->preset.empty() ? kDefaultPreset : o->preset);
           if (o->bits && o->bits != p.element_bits)
             fail("preset '{}' has {}-bit elements; --bits {} does not apply", p.name, p.element_bits, o->bits);
         }
         if (o->banks) p.bank.banks = o->banks;
         if (o->ldmatrix) p.read.ldmatrix = o->ldmatrix;
         if (o->masks_given && !p.grid) fail("preset '{}' has no toggle grid, so --mask does not apply", p.name);
         const SolveResult r = solve(p);
         const LinearLayout& coords = p.store.layout;
         const auto matches = recognize(r.shared, p.element_bits);
         nlohmann::json j;
         if (o->json) {
           // The preset names the accesses, so `swizzle export --solved` can describe them in the header.
           if (!files) j["preset"] = p.name;
           j["shared"] = layout_to_json(r.offset_bases, p.element_bits);
           j["vec_bits"] = r.vec_bits;
           j["element_bits"] = p.element_bits;
           j["write"] = access_json(r.write);
           j["read"] = access_json(r.read);
           j["lower_bound"] = {{"write_wavefronts", r.bound.write_wavefronts}, {"read_wavefronts", r.bound.read_wavefronts},
                               {"segment_bits", r.bound.segment_bits},         {"space_dim", r.bound.space_dim},
                               {"max_avoiding_dim", r.bound.max_avoiding_dim}, {"reason", r.bound.reason}};
           j["conflict_free"] = r.conflict_free;
           j["fallback"] = r.fallback;
           j["check"] = r.check;
           j["matches"] = nlohmann::json::array();
           for (const auto& m : matches) j["matches"].push_back({{"family", m.family}, {"name", m.name}});
           j["trace"] = trace_json(r, coords);
         } else {
           print_text(r, coords, matches);
         }
         if (p.grid) {
           // Masks: the construction's own when it is a toggle grid, else the first family member.
           std::optional<std::vector<std::uint32_t>> masks = masks_of(p, r.offset_bases);
           if (masks && !masks_conflict_free(p, *masks)) masks.reset();
           if (!masks) masks = MaskEnumerator(p).next();
           const std::uint64_t size = family_size(p);
           std::optional<Repair> fix;
           if (o->masks_given) fix = repair(p, parse_masks(o->masks));
           if (o->json) {
             j["masks"] = masks ? nlohmann::json(*masks) : nlohmann::json(nullptr);
             j["family_size"] = size;
             if (fix) {
               nlohmann::json cells = nlohmann::json::array();
               for (auto [row, col] : fix->cells) cells.push_back({{"row_bit", row}, {"column_bit", col}});
               j["repair"] = {{"possible", fix->possible},
                              {"flips", fix->flips},
                              {"masks", fix->masks},
                              {"cells", cells},
                              {"exact", fix->exact}};
             }
           } else {
             fmt::print("masks: {}\n", masks ? format_masks(*masks) : std::string("none (no toggle grid is conflict-free here)"));
             fmt::print("conflict-free family: {} mask sets\n", size);
             if (fix) {
               if (!fix->possible)
                 fmt::print("repair: impossible, no mask set is conflict-free\n");
               else
                 fmt::print("repair: {} flip(s) -> masks {}\n", fix->flips, format_masks(fix->masks));
             }
           }
         }
         if (o->json) print_json(j);
       });
     }}};

}  // namespace
}  // namespace swz::cli
