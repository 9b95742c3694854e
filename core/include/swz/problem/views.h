// views.h: what the pictures of a problem show, computed once for every front
// end (the GUI's panels, the SVG figures, lesson pages). A front end draws
// these; it never works out a bank, an owner or a traced cell itself.
//
//   tensor_window(...)  the cells a picture draws: all of them, or the top-left corner of a large tensor
//   element_places(p)   bank, segment and offset of every element (by flat coordinate), or of some
//   cell_number(...)    the number a cell of the tensor shows: its bank, its offset, or none
//   owners_of(access)   who holds every element: the first (warp, lane, register), and how many hold it;
//                       HolderIndex answers the same for one element by solving the layout, no table
//   memory_view(p)      physical memory: segments x banks words, which element sits in each slot (or
//                       in the first segments only, for a window)
//   trace_step(...)     one warp instruction: the elements each active lane touches, grouped by
//                       phase (or by half-warp when the whole warp is one phase)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "swz/problem/problem.h"
#include "swz/sim/global_side.h"
#include "swz/sim/bank.h"

namespace swz {

// A picture of a tensor with a side past 256 cells (a 32768x32768 tile is 2^30 cells: unreadable,
// and gigabytes of tables) draws its top-left 128x128 window and says so; the figures and the
// workbench's panels window alike.
struct TensorWindow {
  std::int64_t rows = 1, cols = 1;              // the whole tensor, as the picture lays it out
  std::int64_t first_row = 0, first_col = 0;    // the drawn window's top-left cell
  std::int64_t shown_rows = 1, shown_cols = 1;  // and its size
  bool windowed() const { return first_row != 0 || first_col != 0 || shown_rows != rows || shown_cols != cols; }
  // "drawn: rows 0-127 and columns 0-127 of 32768x32768 (a larger picture is unreadable)"; "" when whole.
  std::string note() const;
};
TensorWindow tensor_window(std::int64_t rows, std::int64_t cols);

// Bank, segment and element offset of an element.
struct ElementPlace {
  int bank = 0;
  std::uint64_t segment = 0;
  std::int64_t offset = 0;
};
ElementPlace place_of(const Problem& problem, BitVec coord);

// Bank, segment and element offset of each element, index = flat coordinate (or, of the
// overload taking `coords`, the position in `coords`).
struct ElementPlaces {
  std::vector<int> bank;
  std::vector<std::uint64_t> segment;
  std::vector<std::int64_t> offset;
};
ElementPlaces element_places(const Problem& problem);
ElementPlaces element_places(const Problem& problem, const std::vector<BitVec>& coords);

// What the tensor's cells are labelled with, besides their bank colour.
enum class CellNumbers { None, Bank, Offset };
CellNumbers parse_cell_numbers(std::string_view text);  // "none", "bank", "offset"; throws naming them
std::string_view cell_numbers_name(CellNumbers numbers);
// The label of element `coord` (an index into `places`), or -1 for None.
std::int64_t cell_number(const ElementPlaces& places, std::size_t coord, CellNumbers numbers);

// Who holds an element in a distributed layout: the first holder (lowest warp, then lane, then register).
struct ElementOwner {
  int lane = -1;  // -1: no thread holds it
  int warp = 0;
  int reg = 0;      // register index
  int holders = 0;  // (warp, lane, register) triples holding it, the first included
  std::int64_t thread(int warp_size) const { return lane < 0 ? -1 : std::int64_t{warp} * warp_size + lane; }
};
// Index = flat coordinate of `access`'s output; throws when the layout has more than 2^24 of them.
std::vector<ElementOwner> owners_of(const Access& access);

// The holders of one element without a table, for layouts of any size: the elements (register, lane,
// warp) maps to are solved for over F2 once (an echelon form of the layout's columns); an element's
// holders are then one solution plus the layout's kernel, 2^(kernel dimension) of them, and the first
// is that coset's least member with warp bits above lane bits above register bits.
class HolderIndex {
 public:
  explicit HolderIndex(const Access& access);
  ElementOwner owner(BitVec coord) const;

  struct Row {
    BitVec image = 0;  // the layout applied to `key`; its highest bit is the row's pivot
    BitVec key = 0;    // register bits, then lane bits, then warp bits
  };

 private:
  std::vector<Row> rows_;       // pivots strictly decreasing
  std::vector<BitVec> kernel_;  // keys mapping to 0, reduced echelon (pivots decreasing)
  int register_bits_ = 0, lane_bits_ = 0;
};
// The elements thread (warp, lane) holds that have no bit of `outside` set (the drawn window of a
// large tensor is such a set), found by solving over F2 rather than walking every register; at most `most`.
std::vector<BitVec> held_within(const Access& access, int warp, int lane, BitVec outside, std::size_t most);

// Owners of the elements `coords` (index = position in `coords`): owners_of's answers, for layouts of any size.
std::vector<ElementOwner> owners_of(const Access& access, const std::vector<BitVec>& coords);

// Physical memory: `segments` rows of `banks` words, `per_word` element slots per word (several for
// narrow elements). slot_coord[(segment * banks + bank) * per_word + sub] = flat coordinate, or -1.
// A window holds the first `segments` of the allocation's `total_segments`.
struct MemoryView {
  std::uint64_t segments = 0;
  std::uint64_t total_segments = 0;
  int banks = 32;
  int per_word = 1;
  std::vector<std::int64_t> slot_coord;
  std::int64_t at(std::uint64_t segment, int bank, int sub) const {
    return slot_coord[static_cast<std::size_t>((segment * static_cast<std::uint64_t>(banks) + static_cast<std::uint64_t>(bank)) *
                                                   static_cast<std::uint64_t>(per_word) +
                                               static_cast<std::uint64_t>(sub))];
  }
};
MemoryView memory_view(const Problem& problem);
// The first `most_segments` segments only (reading `coord_at` of their offsets, no table of the rest).
MemoryView memory_view(const Problem& problem, std::uint64_t most_segments);

// One traced warp instruction and the elements its active lanes touch.
struct TracedCell {
  BitVec coord = 0;
  int lane = 0;
  int group = 0;  // outline group: the phase, or the half-warp when the whole warp is one phase
};
struct StepTrace {
  InstructionResult instruction;
  std::vector<TracedCell> cells;
  int groups = 1;
  std::vector<std::string> group_labels;  // "threads 0-15", "phase 1 (lanes 8-15)"
  std::optional<CopyTrace> copy;          // a cp.async side: where each lane reads and the turns it causes
};
// `simulated` is that access's simulation (analysis.h); warp and step are clamped to it.
StepTrace trace_step(const Problem& problem, AccessKind side, const AccessResult& simulated, int warp, int step);

}  // namespace swz
