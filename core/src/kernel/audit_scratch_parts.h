// audit_scratch_parts.h (private to core/src/kernel): what the scratch pricers of audit_scratch.cpp
// (tt.reduce), audit_gather.cpp (tt.gather) and audit_scan.cpp (tt.scan, tt.histogram) share: Triton's view of a
// distributed layout (LinearEncodingAttr's order, delinearized lane and warp ids) and a pricer that
// serves each instruction a warp issues on its lanes' byte addresses and sums them per side.
//
// Which warps issue an instruction (the H200's counters on the kept kernels of
// tests/data/triton/scratch/): an access Triton emits with a predicate (its storeShared /
// loadShared: `@p st.shared`) is issued by every warp, even one whose lanes are all off, at 0
// wavefronts; an unpredicated access whose lanes are all off does not occur in these lowerings.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "audit_parts.h"
#include "ttgir_pointer.h"

namespace swz::audit_parts {

// [SECTION] Triton's view of a distributed layout

// The dim a basis moves along: its first non-zero coordinate; -1 for a zero (broadcast) basis.
int dim_of(const LinearLayout& l, BitVec basis);

// LinearEncodingAttr::orderPerDim: dims in the order `in`'s bases first move along them, then the
// dims of `fallback` not seen yet.
std::vector<int> order_per_dim(const LinearLayout& l, const char* in, const std::vector<int>& fallback);

// LinearEncodingAttr::getOrder: the registers' order, then [rank-1, ..., 0].
std::vector<int> layout_order(const LinearLayout& l);

// 2^(bases of `in` moving along each dim), broadcast bases left out (basesPerDim, skipBroadcast).
std::vector<std::int64_t> bases_per_dim(const LinearLayout& l, const char* in);

// delinearize(layout, shape, in, id) of Triton's LLVM utilities: the id's bits of broadcast bases
// removed (a lane or warp with one of them set is not "representative"), the rest read as a
// mixed-radix number, digits per dim as many as the bases moving along it, in orderPerDim order.
struct Delinearized {
  std::vector<std::int64_t> index;  // per dim
  bool representative = true;
};
Delinearized delinearize(const LinearLayout& l, const char* in, std::uint64_t id, const std::vector<int>& order);

Coords coords_at(const LinearLayout& l, std::uint64_t reg, std::uint64_t lane, std::uint64_t warp);

// Registers holding distinct elements (Triton drops repeated ones): the first of each.
std::vector<std::uint64_t> distinct_registers(const LinearLayout& l);

// The op's `axis = N`, checked against its first operand's rank.
std::size_t axis_of(const Op& op);

// Byte offset of each operand's scratch (one after the other, the widest first) and each operand's
// bytes per element, for a scratch of `elements` per operand (ReduceScanCommon's getSmemBases).
std::vector<std::int64_t> operand_bases(const Op& op, std::int64_t elements, std::vector<int>& bytes);

// [SECTION] Pricing: every instruction served on its lanes' byte addresses

struct ScratchTally {
  std::int64_t instructions = 0, wavefronts = 0, ideal_total = 0;
  std::int64_t predicated_off = 0;  // of `instructions`, issued with every lane off
  int worst = 0, worst_ideal = 0;
  std::vector<std::string> steps;  // "16 partials stored at 1.00" per step, in order
};

struct ScratchPricer {
  const BankModel& bank;
  std::map<std::pair<std::string, std::string>, ScratchTally> by_side;  // (direction, instruction)
  std::vector<std::pair<std::string, std::string>> side_order;
  // The step being priced: its instructions and wavefronts, per side.
  std::map<std::pair<std::string, std::string>, std::pair<std::int64_t, std::int64_t>> step;
  // The same scratch padded by one bank word after every row of banks (128 bytes on the H100):
  // what a padded scratch would cost, for the note; Triton 3.6 never pads it.
  std::map<std::pair<std::string, std::string>, std::int64_t> padded_wavefronts;

  explicit ScratchPricer(const BankModel& model) : bank(model) {}

  // One warp's instruction: `address` per lane (-1: off). A `predicated` one is issued even with
  // every lane off (0 wavefronts); otherwise such a warp issues nothing. `atomic` names a shared
  // atomic (direction "atomic"), priced by the store's rule.
  void issue(bool store, int bytes, const std::vector<std::int64_t>& address, bool predicated, const char* atomic = nullptr);
  // Closes a step: its instructions are named `stored` / `loaded` in the notes.
  void end_step(const std::string& stored, const std::string& loaded);
  // One report entry per (direction, instruction), in the order first issued: `where` opens the
  // note, then the steps; a conflicted side says that Triton chooses this scratch (and what a
  // padded one would cost).
  std::vector<AuditAccess> entries(const AuditAccess& a, const std::string& where, int element_bits) const;
};

// [SECTION] The gathers (audit_gather.cpp)

std::vector<AuditAccess> gather_accesses(const Op& op, const Auditor& au, const AuditAccess& entry,
                                         const ttgir::PointerReader* pointers);

// [SECTION] The scans and histograms (audit_scan.cpp)

std::vector<AuditAccess> scan_accesses(const Op& op, const Auditor& au, const AuditAccess& entry, std::size_t axis,
                                       std::int64_t warps_along);
std::vector<AuditAccess> histogram_accesses(const Op& op, const Auditor& au, const AuditAccess& entry);

}  // namespace swz::audit_parts
