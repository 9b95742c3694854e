// access_sides.h: which accesses of a problem a count covers.
//
// A layout is conflict-free for the reads when every read instruction costs its ideal
// wavefronts (its phases), for the writes likewise, and for both when both are. The
// sweep (sim/sweep.h, by simulation) and the family count (solve/solver.h, by algebra)
// count mask sets by this one definition, so their numbers for the same sides agree
// wherever Lemma 9.4 agrees with the simulator.
#pragma once

namespace swz {

enum class AccessSides { Read, Write, Both };

inline const char* sides_name(AccessSides sides) {
  return sides == AccessSides::Read ? "reads" : sides == AccessSides::Write ? "writes" : "reads and writes";
}

}  // namespace swz
