// lesson_gpu_facts.cpp: the GPU quantities of lesson_facts.h, on the step's GPU (its problem's
// "gpu"), read from the core's GPU table (gpu.cpp) and served by serve().
//
//   banks                             the GPU's banks
//   lanes                             its lanes per warp (NVIDIA) or wavefront (AMD)
//   phase(BYTES,LANE).read_lanes      the lanes one phase of a BYTES-wide read serves with LANE
//   phase(BYTES,LANE).write_lanes     the same for a write
//   lane_pair(BYTES,A,B,APART).read_conflict, .write_conflict
//                                     lanes A and B alone, A at byte 0 and B at byte APART: true when
//                                     the access takes more passes than it would without a conflict
//   lane_pair(BYTES,A,B,APART).read_passes, .write_passes
//                                     the passes (wavefronts) that access takes
//
//   ds_read_b128 on gfx942: phase(16,0).read_lanes = [0, 1, 2, 3, 20, 21, 22, 23]
//   lane_pair(16,0,20,256).read_conflict = true   (one phase, one bank, two rows)
//   lane_pair(16,0,4,256).read_conflict  = false  (two phases: each lane has its pass to itself)
#include <fmt/format.h>

#include "lesson_facts.h"
#include "swz/error.h"
#include "swz/sim/gpu.h"
#include "swz/sim/warp_access.h"

namespace swz {

namespace {

// The step's GPU's read or write of BYTES a lane; one line when it has none.
InstructionKind lesson_gpu_kind(const std::string& q, const Problem& p, std::int64_t bytes, bool write) {
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)
    fail("quantity '{}': an access moves 1, 2, 4, 8 or 16 bytes a lane, not {}", q, bytes);
  const InstructionKind kind{write ? WarpOp::Store : WarpOp::Load, static_cast<int>(bytes)};
  check_instruction(kind, p.bank);
  return kind;
}

std::int64_t lesson_gpu_lane(const std::string& q, const Problem& p, std::int64_t lane) {
  if (lane >= p.bank.warp_size)
    fail("quantity '{}': lane {} is past the {} lanes of {}", q, lane, p.bank.warp_size, gpu_of(p.bank).name);
  return lane;
}

}  // namespace

nlohmann::json gpu_fact(const std::string& q, const std::vector<QuantityPart>& parts, const Problem& p) {
  if (q == "banks") return p.bank.banks;
  if (q == "lanes") return p.bank.warp_size;
  const std::string field = parts.size() == 2 ? parts[1].name : "";
  if (parts[0].name == "phase") {
    want_args(q, parts[0], 2);
    if (parts.size() != 2 || (field != "read_lanes" && field != "write_lanes"))
      fail("quantity '{}': phase(BYTES,LANE) is followed by .read_lanes or .write_lanes", q);
    const InstructionKind kind = lesson_gpu_kind(q, p, parts[0].args[0], field == "write_lanes");
    const LanePhases phases = phases_of(kind, p.bank);
    const int lane = static_cast<int>(lesson_gpu_lane(q, p, parts[0].args[1]));
    return phases.lanes_of(phases.phase_of(lane), p.bank.warp_size);
  }
  want_args(q, parts[0], 4);
  const bool conflict = field == "read_conflict" || field == "write_conflict";
  if (parts.size() != 2 || (!conflict && field != "read_passes" && field != "write_passes"))
    fail(
        "quantity '{}': lane_pair(BYTES,A,B,APART) is followed by .read_conflict, .write_conflict, .read_passes or "
        ".write_passes",
        q);
  const auto& a = parts[0].args;
  const InstructionKind kind = lesson_gpu_kind(q, p, a[0], field.rfind("write_", 0) == 0);
  const std::int64_t first = lesson_gpu_lane(q, p, a[1]), second = lesson_gpu_lane(q, p, a[2]);
  if (first == second) fail("quantity '{}': a pair is two different lanes", q);
  if (a[3] % a[0] != 0 || a[3] >= (std::int64_t{1} << 20))
    fail("quantity '{}': the second lane's byte {} must be a multiple of {} below 1 MiB", q, a[3], a[0]);
  const WarpRequest r = lane_pair_request(kind, p.bank.warp_size, static_cast<int>(first), static_cast<int>(second), a[3]);
  const Service s = serve(r, p.bank);
  if (!conflict) return s.wavefronts;
  return s.wavefronts > s.ideal;
}

}  // namespace swz
