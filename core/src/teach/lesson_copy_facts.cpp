// lesson_copy_facts.cpp: the cp.async quantities of lesson_facts.h, priced by serve() and simulate().
//
// A cp.async (LDGSTS) reads global memory and writes shared memory, and both sides set its cost
// (warp_access.cpp, rule 4: the source words come through the same banks). Two ways to state one:
//
//   cp_async(BYTES,SOURCE,SHARED)   one warp: lane i copies BYTES from global byte i*SOURCE to shared
//                                   byte i*SHARED (cp.async.ca: LDGSTS.32, .64, .128)
//   cp_async_cg(SOURCE,SHARED)      the same with 16 bytes around L1 (cp.async.cg: LDGSTS.BYPASS.128.NOZFILL, as Triton issues
//   it) cp_async.rows(PITCH)            the step's store (writer, shared layout) issued as cp.async from a
//                                   row-major global tile, dim 1 contiguous, rows PITCH bytes apart
//
//   lane       0    1    2    3  ...        cp_async(4,128,4): every source in bank 0, one lane a
//   global     0  128  256  384             wavefront: 32; cp_async(4,4,4): 1
//   shared     0    4    8   12
//
// Each is followed by .wavefronts, .ideal_wavefronts, .instruction or .modelled; the strided warp
// also by .source_banks and .shared_banks (distinct banks of the lanes' first words).
#include <fmt/format.h>

#include <memory>
#include <set>

#include "lesson_facts.h"
#include "swz/error.h"
#include "swz/sim/bank.h"
#include "swz/sim/warp_access.h"

namespace swz {

namespace {

// Strides and pitches stay below 1 MiB: every address of a warp fits easily, and no claim needs more.
constexpr std::int64_t kCopyFactMaxStride = std::int64_t{1} << 20;

void check_copy_stride(const std::string& q, const char* what, std::int64_t v) {
  if (v > kCopyFactMaxStride)
    fail("quantity '{}': the {} {} is past the {} bytes a claim may use", q, what, v, kCopyFactMaxStride);
}

nlohmann::json service_field(const std::string& q, const std::string& field, const Service& s, const InstructionKind& kind,
                             const WarpRequest& r, const BankModel& m) {
  if (field == "wavefronts") return s.wavefronts;
  if (field == "ideal_wavefronts") return s.ideal;
  if (field == "instruction") return kind.name();
  if (field == "modelled") return s.modelled;
  if (field == "source_banks" || field == "shared_banks") {
    const auto& addresses = field == "source_banks" ? r.global : r.address;
    std::set<int> banks;
    for (const std::int64_t a : addresses)
      if (a >= 0) banks.insert(m.bank_of(static_cast<std::uint64_t>(a)));
    return static_cast<std::int64_t>(banks.size());
  }
  fail(
      "quantity '{}': a copy is followed by .wavefronts, .ideal_wavefronts, .instruction, .modelled, .source_banks or "
      ".shared_banks",
      q);
}

// One warp of strided lanes, served by the core's serve().
nlohmann::json strided_copy(const std::string& q, const std::vector<QuantityPart>& parts, const Problem& p, bool bypass) {
  const QuantityPart& head = parts[0];
  const std::size_t want = bypass ? 2 : 3;
  if (head.args.size() != want)
    fail("quantity '{}': {} takes {}", q, head.name,
         bypass ? "(SOURCE_STRIDE, SHARED_STRIDE)" : "(BYTES, SOURCE_STRIDE, SHARED_STRIDE)");
  if (parts.size() != 2 || parts[1].called)
    fail("quantity '{}': {}(...) is followed by one field, e.g. .wavefronts", q, head.name);
  // A .cg copy as Triton issues it, masked by a predicate without a size register: priced as the form
  // without src-size (bank.h Access::src_size); the form does not change a .ca copy's count.
  InstructionKind kind{
      WarpOp::AsyncCopy,   bypass ? 16 : static_cast<int>(std::min<std::int64_t>(head.args[0], 64)), 0, false, bypass,
      /*src_size=*/!bypass};
  if (kind.bytes != 4 && kind.bytes != 8 && kind.bytes != 16)
    fail("quantity '{}': a cp.async copies 4, 8 or 16 bytes a lane, not {}", q, head.args[0]);
  const std::int64_t source = head.args[want - 2], shared = head.args[want - 1];
  check_copy_stride(q, "source stride", source);
  check_copy_stride(q, "shared stride", shared);
  WarpRequest r{kind, {}, {}};
  for (int lane = 0; lane < p.bank.warp_size; ++lane) {
    r.address.push_back(lane * shared);
    r.global.push_back(lane * source);
  }
  try {
    check_request(r, p.bank);
  } catch (const Error& e) {
    fail("quantity '{}': {}", q, e.what());
  }
  return service_field(q, parts[1].name, serve(r, p.bank), kind, r, p.bank);
}

// The step's writer as a cp.async from a row-major global tile: element (m, n) at m * PITCH + n * bytes.
nlohmann::json rows_copy(const std::string& q, const std::vector<QuantityPart>& parts, const Problem& p) {
  if (parts.size() != 3 || parts[1].name != "rows" || parts[1].args.size() != 1 || parts[2].called)
    fail("quantity '{}': cp_async.rows(PITCH) is followed by one field, e.g. .wavefronts", q);
  if (p.shape.size() != 2 || p.element_bits < 8) fail("quantity '{}' needs a 2-D tile of whole-byte elements", q);
  const std::int64_t pitch = parts[1].args[0], bytes = p.element_bits / 8;
  check_copy_stride(q, "pitch", pitch);
  if (pitch < p.shape[1] * bytes) fail("quantity '{}': rows of {} bytes do not fit a pitch of {}", q, p.shape[1] * bytes, pitch);
  const LinearLayout& coords = p.shared.coords();
  auto global = std::make_shared<std::vector<std::int64_t>>(std::size_t{1} << coords.out_bits(), 0);
  for (std::int64_t m = 0; m < p.shape[0]; ++m)
    for (std::int64_t n = 0; n < p.shape[1]; ++n) (*global)[coords.flatten(Coords{m, n})] = m * pitch + n * bytes;
  Access copy = p.store;
  copy.async_copy = true;
  copy.global_bytes = global;
  AccessResult sim;
  try {
    sim = simulate(copy, p.shared, p.element_bits, p.bank);
  } catch (const Error& e) {
    fail("quantity '{}': {}", q, e.what());
  }
  const std::string& field = parts[2].name;
  if (field == "wavefronts") return sim.wavefronts;
  if (field == "ideal_wavefronts") return sim.ideal_wavefronts;
  if (field == "instruction") return instruction_name(copy, sim.vector.bits);
  if (field == "modelled") return sim.modelled;
  fail("quantity '{}': cp_async.rows(PITCH) is followed by .wavefronts, .ideal_wavefronts, .instruction or .modelled", q);
}

}  // namespace

nlohmann::json copy_fact(const std::string& q, const std::vector<QuantityPart>& parts, const Problem& p) {
  if (parts[0].name == "cp_async_cg") return strided_copy(q, parts, p, /*bypass=*/true);
  if (parts[0].called) return strided_copy(q, parts, p, /*bypass=*/false);
  return rows_copy(q, parts, p);
}

}  // namespace swz
