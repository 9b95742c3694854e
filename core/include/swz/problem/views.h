// views.h: what the pictures of a problem show, computed once for every front
// end (the GUI's panels, the SVG figures, lesson pages). A front end draws
// these; it never works out a bank, an owner or a traced cell itself.
//
//   element_places(p)   bank, segment and offset of every element (by flat coordinate)
//   cell_number(...)    the number a cell of the tensor shows: its bank, its offset, or none
//   owners_of(access)   who holds every element: the first (warp, lane, register), and how many hold it
//   memory_view(p)      physical memory: segments x banks words, which element sits in each slot
//   trace_step(...)     one warp instruction: the elements each active lane touches, grouped by
//                       phase (or by half-warp when the whole warp is one phase)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "swz/problem/problem.h"
#include "swz/sim/bank.h"

namespace swz {

// Bank, segment and element offset of each element, index = flat coordinate.
struct ElementPlaces {
  std::vector<int> bank;
  std::vector<std::uint64_t> segment;
  std::vector<std::int64_t> offset;
};
ElementPlaces element_places(const Problem& problem);

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

// Physical memory: `segments` rows of `banks` words, `per_word` element slots per word (several for
// narrow elements). slot_coord[(segment * banks + bank) * per_word + sub] = flat coordinate, or -1.
struct MemoryView {
  std::uint64_t segments = 0;
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
};
// `simulated` is that access's simulation (analysis.h); warp and step are clamped to it.
StepTrace trace_step(const Problem& problem, AccessKind side, const AccessResult& simulated, int warp, int step);

}  // namespace swz
