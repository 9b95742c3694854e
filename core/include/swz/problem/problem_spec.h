// problem_spec.h: a problem as the user states it, in one place.
//
// A ProblemSpec holds what the user chose, not what follows from it: the
// preset to start from and what replaces its parts. build_problem() turns it
// into the Problem the simulator, the lemma and the solver take, and checks it
// there, once. The CLI parses it from flags, the GUI edits it (every undo step
// is one spec) and saves it in sessions, an exported header prints it back as
// the command that regenerates the header:
//
//   --preset transpose16x32 --mask 2,4,8,16          a preset and its toggle-grid masks
//   --preset transpose16x32 --shape 64x64 --bits 16  the preset, as a transpose of another tile
//   --src A.json --dst B.json [--bits 16]            a custom problem: writer and reader from files
//   --src A.mlir --dst B.mlir --shape 64x64          ... bare Triton attributes (#ttg.blocked<...>) on a 64x64 tensor
//   --preset P --src A.json                          the preset with another writer (same shape)
//   ... --layout NAME | --shared S.json              a named layout of the preset, or a layout file
//   ... --banks 16 --warp-size 64                    the bank model
//   ... --write-vec-bits 64 --read-vec-bits 32       the widest vector each side may use
//   ... --write-matrix x4 --read-matrix x4.trans     stmatrix / ldmatrix: the side's layout gives the rows its lanes
//                                                    address, or (x4) what they hold, as the solver reads it (matrix_rows.h)
//   --spec P.json                                    all of the above as one JSON object
//
// The shared layout is one of `shared`, the named layout `variant` and the grid
// `masks` (none: the preset's default); a spec giving two is refused. The element
// width is `element_bits`, else the one the layouts' sources state (they must
// agree), else the preset's; a layout stating another width than the problem's
// is refused. Every error names its field as "key (--flag)", the same words in
// the CLI and the GUI.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "swz/io/layout_io.h"
#include "swz/layout/layout.h"
#include "swz/problem/problem.h"

namespace swz {

// A layout the user brought, with where it came from.
struct SpecLayout {
  LinearLayout layout;  // distributed (register, lane, warp) or shared (offset)
  std::string origin;   // the file it was read from, or a description ("solver's answer"); "" = given inline
  // The element width its source states (a file's element_bits, an attribute's elementBitWidth or
  // element type); none when it states none. A claim: build_problem refuses a problem of another width.
  std::optional<int> element_bits = std::nullopt;
  bool operator==(const SpecLayout&) const = default;
};

struct ProblemSpec {
  std::string preset = kDefaultPreset;  // "" = custom: writer and reader both given
  std::vector<std::int64_t> shape;      // a 2-D tile: the preset's transpose redrawn at this size; empty = the preset's
  int element_bits = 0;                 // 0 = what the layouts state, else the preset's (custom: 16)
  std::string gpu;                      // a GPU of gpu.h by name or alias ("gfx942", "h100"); "" = the preset's (sm_90)
  int banks = 0;                        // 0 = the preset's (or the GPU's; another count is refused)
  int warp_size = 0;                    // 0 = the preset's
  int write_vec_bits = 0;               // widest vector the writer may use; 0 = its own (at most 128)
  int read_vec_bits = 0;                // ... the reader
  std::string write_matrix;             // "x1", "x2", "x4" (".trans"): the writer issues stmatrix; "" = as its layout's
                                        // source has it (a preset's own side, else st.shared)
  std::string read_matrix;              // ... the reader issues ldmatrix
  std::optional<SpecLayout> writer;     // A, replacing the preset's store layout
  std::optional<SpecLayout> reader;     // B, replacing the preset's read layout
  std::optional<SpecLayout> shared;     // the shared layout, over the variant and the masks
  std::string variant;                  // a preset's named layout
  std::vector<std::uint32_t> masks;     // toggle grid: masks[j] = the column bits row bit j folds into
  bool operator==(const ProblemSpec&) const = default;
};

// The bank model --gpu, --banks and --warp-size give over `base` (a preset's): the GPU's own
// (gpu.h) when one is named, --banks and --warp-size refused where they contradict it (one line
// naming the field), else applied. Throws swz::Error.
BankModel spec_bank_model(const ProblemSpec& spec, BankModel base);
// The checked problem. Throws swz::Error naming the field.
Problem build_problem(const ProblemSpec& spec);
// A spec that builds `problem` again, when a preset with masks, a named layout
// and a bank count does (checked by building it); nullopt otherwise.
std::optional<ProblemSpec> spec_of(const Problem& problem);

// [SECTION] JSON form: {"preset", "shape", "element_bits", "gpu", "banks", "warp_size",
// "write_vec_bits", "read_vec_bits", "write_matrix", "read_matrix", "writer", "reader", "shared" ({"origin", "layout"}),
// "variant", "masks"}. Every key optional; unknown keys and wrong types are refused
// naming the key (prefixed with `where`, e.g. "session file: 'problem.").
nlohmann::json to_json(const ProblemSpec& spec);
ProblemSpec spec_from_json(const nlohmann::json& j, const std::string& where);
ProblemSpec load_spec_file(const std::string& path);

// [SECTION] Command-line form: the problem's flags as given (text, unparsed);
// front ends collect them and core reads them.
struct ProblemArguments {
  std::optional<std::string> spec, preset, mask, layout, shared, src, dst, shape, bits, gpu, banks, warp_size, write_vec_bits,
      read_vec_bits, write_matrix, read_matrix;
  // The member a flag fills ("--mask" -> mask), as problem_flags() pairs them.
  std::optional<std::string>& slot(std::string_view flag);
  bool operator==(const ProblemArguments&) const = default;
};
// Reads and checks the flags (files are read here); throws naming the flag. With
// `check_problem` the spec's problem is also built once, so a bad combination fails before any work.
// `files`: where --spec, --src, --dst and --shared are read from (empty: the files they name; layout_io.h).
ProblemSpec parse_problem_arguments(const ProblemArguments& arguments, bool check_problem = true, const TextSource& files = {});
// Sets the spec's shared layout to the preset's layout `name`: a set of masks is held as
// those masks (the toggle grid shows and edits them), any other as the named variant.
void set_named_layout(ProblemSpec& spec, const std::string& name);

// Flags that reproduce the spec. A layout that came from no file is named
// `<stem>.<role>.json` (writer, reader, shared): the file `export --format json` and
// the GUI's layout save write.
std::vector<std::string> problem_arguments(const ProblemSpec& spec, const std::string& stem = "layout");

// Every flag parse_problem_arguments reads, with its one-line help, for front ends to list.
// The one table of the problem's flags: the member each fills, and what --spec excludes.
struct ProblemFlag {
  const char* flag;                                        // "--mask"
  const char* key;                                         // "masks"
  std::optional<std::string> ProblemArguments::*argument;  // &ProblemArguments::mask
  const char* help;
};
const std::vector<ProblemFlag>& problem_flags();

// The longest side of a tile: a 32768x32768 tile holds 2^30 elements, as far as problems go.
inline constexpr std::int64_t kMaxTileSide = 32768;
// "64x128" -> {64, 128}; throws on malformed text, or sizes that are not powers of two from 2 to kMaxTileSide.
std::vector<std::int64_t> parse_shape(const std::string& text);

// A custom transpose of a power-of-two 2-D tile: 128-bit row copies in, column reads out, by
// warps of `lanes` lanes (64: an AMD wavefront).
Problem custom_transpose(const std::vector<std::int64_t>& shape, int element_bits, int lanes = 32);

}  // namespace swz
