// problem.h: an access problem (writer A, reader B, the shared layout
// between them) and the presets users start from.
//
// A problem is plain data: the GUI session, the CLI and the tests all hold
// one. Toggle-grid problems (a row-major 2-D tile whose rows may be XORed by
// masks) also carry the grid's geometry and the current masks:
//
//   offset(m, n) = m*N + (n ^ mask(m)),  mask(m) = XOR of masks[j] over set bits j of m
//   grid rows = the row bits m_j, grid columns = column bits n_k above the vector bits
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "swz/layout/shared.h"
#include "swz/sim/bank.h"

namespace swz {

struct GridSpec {
  int row_bits = 0;  // log2 rows: one grid row per row bit
  int col_bits = 0;  // log2 columns
  int vec_bits = 0;  // low column bits left alone (the vector an access keeps); not toggleable
  std::int64_t configs_log2() const { return static_cast<std::int64_t>(row_bits) * (col_bits - vec_bits); }
};

// A named alternative shared layout of a preset: masks for grid problems, a layout otherwise.
struct Variant {
  std::string name;
  std::optional<std::vector<std::uint32_t>> masks;
  std::optional<SharedLayout> layout;
};

struct Problem {
  std::string name;         // preset name or "custom"
  std::string description;  // one line
  std::vector<std::int64_t> shape;
  int element_bits = 32;
  BankModel bank;
  Access store;  // the writer, A
  Access read;   // the reader, B
  std::optional<GridSpec> grid;
  std::vector<std::uint32_t> masks;  // current masks (grid problems), one per row bit
  SharedLayout shared;               // the current shared layout
  std::vector<Variant> variants;     // named layouts (first = default)
  std::string copy_placement;        // a cp.async writer: where its lanes read ("rows 272 bytes apart along dim1"); else ""

  // Grid problems: the layout for `masks` (checked); throws for non-grid problems.
  SharedLayout layout_for_masks(const std::vector<std::uint32_t>& masks) const;
  void set_masks(const std::vector<std::uint32_t>& masks);
  void set_shared(SharedLayout layout);  // leaves the grid (masks no longer describe it)
  void apply_variant(const std::string& name);
};

// Grid geometry of a row-major 2-D problem: columns below the widest vector stay put.
GridSpec grid_for(const Problem& problem);

struct PresetInfo {
  std::string name;
  std::string description;
};
std::vector<PresetInfo> list_presets();
Problem make_preset(const std::string& name);  // throws swz::Error naming the known presets
inline constexpr const char* kDefaultPreset = "transpose16x32";

// "2,4,8,16" -> {2, 4, 8, 16}; throws on malformed text.
std::vector<std::uint32_t> parse_masks(const std::string& text);
std::string format_masks(const std::vector<std::uint32_t>& masks);
// Drops trailing zero masks (they fold nothing), so one grid layout has one spelling.
void trim_masks(std::vector<std::uint32_t>& masks);

}  // namespace swz
