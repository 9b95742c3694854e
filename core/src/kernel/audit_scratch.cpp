// audit_scratch.cpp: Triton 3.6's reduction scratch, priced (audit_scratch.h).
#include "audit_scratch.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "swz/error.h"
#include "swz/sim/warp_access.h"

namespace swz::audit_parts {

namespace {

// [SECTION] Triton's view of a distributed layout (LinearEncodingAttr, retold)

// The dim a basis moves along: its first non-zero coordinate; -1 for a zero (broadcast) basis.
int dim_of(const LinearLayout& l, BitVec basis) {
  const Coords c = l.unflatten(basis);
  for (std::size_t d = 0; d < c.size(); ++d)
    if (c[d] != 0) return static_cast<int>(d);
  return -1;
}

// LinearEncodingAttr::orderPerDim: dims in the order `in`'s bases first move along them, then
// the dims of `fallback` not seen yet.
std::vector<int> order_per_dim(const LinearLayout& l, const char* in, const std::vector<int>& fallback) {
  std::vector<int> order;
  auto add = [&](int d) {
    if (d >= 0 && std::find(order.begin(), order.end(), d) == order.end()) order.push_back(d);
  };
  for (BitVec b : l.bases(in)) add(dim_of(l, b));
  for (int d : fallback) add(d);
  return order;
}

// LinearEncodingAttr::getOrder: the registers' order, then [rank-1, ..., 0].
std::vector<int> layout_order(const LinearLayout& l) {
  std::vector<int> fallback(static_cast<std::size_t>(l.rank()));
  std::iota(fallback.rbegin(), fallback.rend(), 0);
  return order_per_dim(l, "register", fallback);
}

// delinearize(layout, shape, in, id) of Triton's LLVM utilities: the id's bits of broadcast bases
// removed (a lane or warp with one of them set is not "representative"), the rest read as a
// mixed-radix number, digits per dim as many as the bases moving along it, in orderPerDim order.
struct Delinearized {
  std::vector<std::int64_t> index;  // per dim
  bool representative = true;
};
Delinearized delinearize(const LinearLayout& l, const char* in, std::uint64_t id, const std::vector<int>& order) {
  const auto& bases = l.bases(in);
  Delinearized out;
  out.index.assign(static_cast<std::size_t>(l.rank()), 0);
  std::vector<std::int64_t> size(static_cast<std::size_t>(l.rank()), 1);
  std::uint64_t compact = 0;
  int kept = 0;
  for (std::size_t i = 0; i < bases.size(); ++i) {
    const int d = dim_of(l, bases[i]);
    const bool bit = (id >> i) & 1u;
    if (d < 0) {
      out.representative &= !bit;
      continue;
    }
    size[static_cast<std::size_t>(d)] *= 2;
    compact |= static_cast<std::uint64_t>(bit) << kept++;
  }
  for (int d : order_per_dim(l, in, order)) {
    out.index[static_cast<std::size_t>(d)] =
        static_cast<std::int64_t>(compact % static_cast<std::uint64_t>(size[static_cast<std::size_t>(d)]));
    compact /= static_cast<std::uint64_t>(size[static_cast<std::size_t>(d)]);
  }
  return out;
}

Coords coords_at(const LinearLayout& l, std::uint64_t reg, std::uint64_t lane, std::uint64_t warp) {
  return l.unflatten(l.apply({{"register", reg}, {"lane", lane}, {"warp", warp}}));
}

// Registers holding distinct elements (Triton drops repeated ones): the first of each.
std::vector<std::uint64_t> distinct_registers(const LinearLayout& l) {
  std::vector<std::uint64_t> regs;
  std::set<BitVec> seen;
  for (std::uint64_t r = 0; r < (std::uint64_t{1} << l.bases("register").size()); ++r)
    if (seen.insert(l.apply("register", r)).second) regs.push_back(r);
  return regs;
}

// [SECTION] Pricing: every instruction served on its lanes' byte addresses

struct Tally {
  std::int64_t instructions = 0, wavefronts = 0, ideal_total = 0;
  int worst = 0, worst_ideal = 0;
  std::vector<std::string> steps;  // "16 x 16" per step, in order
};

struct ScratchPricer {
  const BankModel& bank;
  std::map<std::pair<std::string, std::string>, Tally> by_side;  // (direction, instruction)
  std::vector<std::pair<std::string, std::string>> side_order;
  // The step being priced: its instructions and wavefronts, per side.
  std::map<std::pair<std::string, std::string>, std::pair<std::int64_t, std::int64_t>> step;

  // The same scratch padded by one bank word after every row of banks (128 bytes on the H100):
  // what a padded scratch would cost, for the note; Triton 3.6 never pads it.
  std::map<std::pair<std::string, std::string>, std::int64_t> padded_wavefronts;

  void issue(bool store, int bytes, const std::vector<std::int64_t>& address) {
    if (std::all_of(address.begin(), address.end(), [](std::int64_t a) { return a < 0; })) return;  // branched around
    const InstructionKind kind{store ? WarpOp::Store : WarpOp::Load, bytes, 0, false};
    const Service s = serve(WarpRequest{kind, address, {}}, bank);
    std::vector<std::int64_t> padded = address;
    for (std::int64_t& p : padded)
      if (p >= 0) p += p / bank.wavefront_bytes() * bank.bank_bytes;
    padded_wavefronts[{store ? "store" : "load", kind.name()}] += serve(WarpRequest{kind, padded, {}}, bank).wavefronts;
    const auto key = std::make_pair(std::string(store ? "store" : "load"), kind.name());
    if (!by_side.count(key)) side_order.push_back(key);
    Tally& t = by_side[key];
    ++t.instructions;
    t.wavefronts += s.wavefronts;
    t.ideal_total += s.ideal;
    if (s.wavefronts > t.worst) t.worst = s.wavefronts, t.worst_ideal = s.ideal;
    auto& [n, w] = step[key];
    ++n;
    w += s.wavefronts;
  }
  void end_step(const std::string& stored, const std::string& loaded) {
    for (auto& [key, nw] : step)
      if (nw.first)
        by_side[key].steps.push_back(fmt::format("{} {} at {:.2f}", nw.first, key.first == "store" ? stored : loaded,
                                                 static_cast<double>(nw.second) / static_cast<double>(nw.first)));
    step.clear();
  }
};

// [SECTION] tt.reduce

struct ReduceScratch {
  std::vector<std::int64_t> shape;  // the source shape, axis cut to the warps along it
  std::vector<int> order;           // axis first, then the source layout's order
  std::int64_t offset(const std::vector<std::int64_t>& index) const {
    std::int64_t off = 0, mult = 1;
    for (int d : order) {
      off += (index[static_cast<std::size_t>(d)] % shape[static_cast<std::size_t>(d)]) * mult;
      mult *= shape[static_cast<std::size_t>(d)];
    }
    return off;
  }
  std::int64_t elements() const { return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>()); }
};

// The op's `axis = N`, checked against its first operand's rank.
std::size_t axis_of(const Op& op) {
  const std::size_t at = op.attributes.find("axis = ");
  if (at == std::string::npos) fail("{} without an axis", op.name);
  std::size_t used = 0;
  long long axis = -1;
  try {
    axis = std::stoll(op.attributes.substr(at + 7), &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::size_t rank = op.operand_types[0].shape.size();
  if (used == 0 || axis < 0 || static_cast<std::size_t>(axis) >= rank)
    fail("{}: axis {} of a rank-{} tensor", op.name,
         op.attributes.substr(at + 7, op.attributes.find_first_of(" ,}", at + 7) - at - 7), rank);
  return static_cast<std::size_t>(axis);
}

std::vector<AuditAccess> reduce_accesses(const Op& op, const Auditor& au, const AuditAccess& entry, bool scan) {
  const char* what = scan ? "a scan" : "a reduction";
  const std::size_t axis = axis_of(op);
  const Type& src = op.operand_types[0];
  const Distributed& d = au.distributed(src, std::max(8, src.element_bits));
  const LinearLayout& l = d.layout;
  int warp_bits = 0, lane_bits = 0;
  for (BitVec b : l.bases("warp")) warp_bits += dim_of(l, b) == static_cast<int>(axis);
  for (BitVec b : l.bases("lane")) lane_bits += l.unflatten(b)[axis] != 0;
  AuditAccess a = entry;
  a.distributed_layout = d.text;
  if (warp_bits == 0) {
    a.instruction = lane_bits ? "shuffle" : "registers";
    a.note = lane_bits ? fmt::format("{} along axis {} within each warp: shuffles, no shared memory", what, axis)
                       : fmt::format("{} along axis {} within each thread: registers only", what, axis);
    return {a};
  }
  const std::int64_t warps_along = std::int64_t{1} << warp_bits;
  if (scan) {
    a.instruction = "not modelled";
    a.note = fmt::format("{} along axis {} across {} warps: Triton's scan scratch in shared memory is not modelled", what, axis,
                         warps_along);
    return {a};
  }

  // The scratch: source shape with the axis cut to the warps along it, axis fastest.
  ReduceScratch scratch;
  scratch.shape = src.shape;
  scratch.shape[axis] = warps_along;
  const std::vector<int> order = layout_order(l);
  scratch.order.push_back(static_cast<int>(axis));
  for (int dim : order)
    if (dim != static_cast<int>(axis)) scratch.order.push_back(dim);
  const std::int64_t elems = scratch.elements();

  // One scratch per operand, one after the other, the widest first.
  const std::size_t operands = op.operand_types.size();
  std::vector<int> bytes(operands);
  for (std::size_t i = 0; i < operands; ++i) bytes[i] = std::max(8, op.operand_types[i].element_bits) / 8;
  std::vector<std::size_t> by_width(operands);
  std::iota(by_width.begin(), by_width.end(), 0);
  std::stable_sort(by_width.begin(), by_width.end(), [&](std::size_t x, std::size_t y) { return bytes[x] > bytes[y]; });
  std::vector<std::int64_t> base(operands, 0);
  for (std::size_t k = 1; k < operands; ++k) base[by_width[k]] = base[by_width[k - 1]] + elems * bytes[by_width[k - 1]];

  const auto& module = au.m;
  const int lanes = module.threads_per_warp, num_warps = module.num_warps;
  if ((std::int64_t{1} << l.bases("warp").size()) != num_warps || (std::int64_t{1} << l.bases("lane").size()) != lanes)
    fail("the reduced tensor's layout has {} warps of {} lanes, the module {} of {}", std::int64_t{1} << l.bases("warp").size(),
         std::int64_t{1} << l.bases("lane").size(), num_warps, lanes);
  ScratchPricer pricer{au.bank, {}, {}, {}};
  std::vector<std::int64_t> address(static_cast<std::size_t>(lanes));

  // 1. Each warp's partials: the first register of each output position, lane 0 along the axis.
  std::map<std::vector<std::int64_t>, std::uint64_t> keys;  // thread-0 coords, axis zeroed -> register
  for (std::uint64_t r : distinct_registers(l)) {
    Coords c = coords_at(l, r, 0, 0);
    c[axis] = 0;
    keys.emplace(c, r);
  }
  for (const auto& [key, reg] : keys)
    for (std::size_t i = 0; i < operands; ++i)
      for (int w = 0; w < num_warps; ++w) {
        const Delinearized warp = delinearize(l, "warp", static_cast<std::uint64_t>(w), order);
        for (int lane = 0; lane < lanes; ++lane) {
          const Delinearized ln = delinearize(l, "lane", static_cast<std::uint64_t>(lane), order);
          Coords index = coords_at(l, reg, static_cast<std::uint64_t>(lane), static_cast<std::uint64_t>(w));
          index[axis] = warp.index[axis];
          const bool writes = warp.representative && ln.representative && ln.index[axis] == 0;
          address[static_cast<std::size_t>(lane)] = writes ? base[i] + scratch.offset(index) * bytes[i] : -1;
        }
        pricer.issue(/*store=*/true, bytes[i], address);
      }
  pricer.end_step("partials stored", "");

  // 2-3. Threads combine the W partials of each element: read t + k T, write back from t % W == 0.
  const std::int64_t threads = static_cast<std::int64_t>(lanes) * num_warps;
  const std::int64_t rounds = std::max<std::int64_t>(elems / threads, 1);
  for (std::int64_t round = 0; round < rounds; ++round)
    for (const bool store : {false, true}) {
      for (std::size_t i = 0; i < operands; ++i)
        for (int w = 0; w < num_warps; ++w) {
          for (int lane = 0; lane < lanes; ++lane) {
            const std::int64_t t = static_cast<std::int64_t>(w) * lanes + lane;
            const bool active = t < elems && (!store || lane % warps_along == 0);
            address[static_cast<std::size_t>(lane)] = active ? base[i] + (t + round * threads) * bytes[i] : -1;
          }
          pricer.issue(store, bytes[i], address);
        }
    }
  pricer.end_step("combined partials written back", "partials read to combine");

  // 4. Every thread reads its results at [0][element]; results nobody reads are not loaded.
  const std::string result = op.results.empty() ? "" : op.results[0].substr(0, op.results[0].find(':'));
  for (std::size_t i = 0; i < operands; ++i) {
    const std::string name = operands == 1 ? result : fmt::format("{}#{}", result, i);
    if (!module.used_values.count(name)) continue;
    const bool tensor = i < op.result_types.size() && op.result_types[i].kind == Type::Kind::Tensor;
    if (!tensor) {  // a scalar: every lane reads the first element
      std::fill(address.begin(), address.end(), base[i]);
      for (int w = 0; w < num_warps; ++w) pricer.issue(/*store=*/false, bytes[i], address);
      continue;
    }
    const LinearLayout& rl = au.distributed(op.result_types[i], bytes[i] * 8).layout;
    for (std::uint64_t r : distinct_registers(rl))
      for (int w = 0; w < num_warps; ++w) {
        for (int lane = 0; lane < lanes; ++lane) {
          Coords c = coords_at(rl, r, static_cast<std::uint64_t>(lane), static_cast<std::uint64_t>(w));
          c.insert(c.begin() + static_cast<std::ptrdiff_t>(axis), 0);
          address[static_cast<std::size_t>(lane)] = base[i] + scratch.offset(c) * bytes[i];
        }
        pricer.issue(/*store=*/false, bytes[i], address);
      }
  }
  pricer.end_step("", "results read");

  // The scratch as Triton declares it, for the note.
  std::vector<std::int64_t> dims_in_order;
  for (auto it = scratch.order.rbegin(); it != scratch.order.rend(); ++it)
    dims_in_order.push_back(scratch.shape[static_cast<std::size_t>(*it)]);
  const std::string where = fmt::format(
      "{} along axis {} across {} warps through Triton 3.6's scratch [{}] (slowest dim first: each element's warp partials side "
      "by side)",
      what, axis, warps_along, fmt::join(dims_in_order, " x "));
  std::vector<AuditAccess> out;
  for (const auto& key : pricer.side_order) {
    const Tally& t = pricer.by_side.at(key);
    AuditAccess x = a;
    x.direction = key.first;
    x.instruction = key.second;
    x.instructions = t.instructions;
    x.wavefronts = static_cast<double>(t.wavefronts) / static_cast<double>(t.instructions);
    x.ideal_wavefronts = t.worst_ideal;
    x.worst_wavefronts = t.worst;
    x.conflicts = static_cast<double>(t.wavefronts - t.ideal_total) / static_cast<double>(t.instructions);
    x.element_bits = bytes[0] * 8;
    x.note = fmt::format("{}: {}", where, fmt::join(t.steps, ", "));
    if (t.wavefronts > t.ideal_total) {
      const double padded = static_cast<double>(pricer.padded_wavefronts.at(key)) / static_cast<double>(t.instructions);
      x.no_suggestion =
          fmt::format("Triton 3.6 chooses this scratch (no padding, no swizzle); no attribute changes it{}",
                      padded < *x.wavefronts - 1e-9
                          ? fmt::format(" (padded by one word per {} bytes it would cost {:.2f} wavefronts per instruction)",
                                        au.bank.wavefront_bytes(), padded)
                          : "");
    }
    out.push_back(std::move(x));
  }
  return out;
}

// [SECTION] tt.gather

// Triton 3.6 gathers within each warp by shuffles when the warp that owns an index also owns every
// source element it may name (GatherLoweringHelper::isWarpLocal): no warp basis moves along the
// axis in either tensor, both tensors map warps and lanes to the other dims alike, and the source
// layout is invertible. Otherwise the source goes to a scratch and each lane loads the element its
// index names: addresses that depend on the index values, which no layout fixes.
std::vector<AuditAccess> gather_accesses(const Op& op, const Auditor& au, const AuditAccess& entry) {
  AuditAccess a = entry;
  a.instruction = "not modelled";
  if (op.operand_types.size() < 2 || op.operand_types[0].kind != Type::Kind::Tensor ||
      op.operand_types[1].kind != Type::Kind::Tensor) {
    a.note = "tt.gather whose operand types were not printed";
    return {a};
  }
  const std::size_t axis = axis_of(op);
  const Type& src_type = op.operand_types[0];
  const Distributed& src = au.distributed(src_type, std::max(8, src_type.element_bits));
  const Distributed& idx = au.distributed(op.operand_types[1], std::max(8, op.operand_types[1].element_bits));
  a.distributed_layout = src.text;
  auto along_axis = [&](const LinearLayout& l, const char* in) {
    return std::any_of(l.bases(in).begin(), l.bases(in).end(), [&](BitVec b) { return l.unflatten(b)[axis] != 0; });
  };
  // The bases of `in` with the axis coordinate dropped: which other-dim positions it reaches.
  auto off_axis = [&](const LinearLayout& l, const char* in) {
    std::vector<Coords> out;
    for (BitVec b : l.bases(in)) {
      Coords c = l.unflatten(b);
      c.erase(c.begin() + static_cast<std::ptrdiff_t>(axis));
      out.push_back(c);
    }
    return out;
  };
  const bool warp_local = !along_axis(src.layout, "warp") && !along_axis(idx.layout, "warp") &&
                          off_axis(src.layout, "warp") == off_axis(idx.layout, "warp") &&
                          off_axis(src.layout, "lane") == off_axis(idx.layout, "lane") && src.layout.is_injective() &&
                          src.layout.is_surjective();
  if (warp_local) {
    a.instruction = "shuffle";
    a.note = fmt::format("tt.gather along axis {} within each warp: shuffles (Triton 3.6's warp-local gather), no shared memory",
                         axis);
    return {a};
  }
  a.note = fmt::format(
      "tt.gather along axis {} across warps: Triton 3.6 stores the source to its scratch and each lane loads the element its "
      "index names; those addresses depend on the index values (not modelled)",
      axis);
  return {a};
}

}  // namespace

bool is_scratch_op(const std::string& name) {
  return name == "tt.reduce" || name == "tt.scan" || name == "tt.gather" || name == "tt.histogram";
}

std::vector<AuditAccess> scratch_accesses(const Op& op, const Auditor& au, const AuditAccess& entry) {
  AuditAccess a = entry;
  if (op.name == "tt.reduce" || op.name == "tt.scan") {
    if (op.operand_types.empty() || op.operand_types[0].kind != Type::Kind::Tensor) {
      a.instruction = "not modelled";
      a.note =
          fmt::format("{}: {} whose operand types were not printed", op.name, op.name == "tt.scan" ? "a scan" : "a reduction");
      return {a};
    }
    return reduce_accesses(op, au, entry, op.name == "tt.scan");
  }
  if (op.name == "tt.gather") return gather_accesses(op, au, entry);
  a.instruction = "not modelled";
  a.note = fmt::format("{} may use shared memory (Triton's lowering of it is not modelled)", op.name);
  return {a};
}

}  // namespace swz::audit_parts
