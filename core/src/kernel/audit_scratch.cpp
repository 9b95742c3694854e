// audit_scratch.cpp: Triton 3.6's reduction scratch, priced (audit_scratch.h).
#include "audit_scratch.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "audit_scratch_parts.h"
#include "swz/error.h"
#include "swz/sim/warp_access.h"

namespace swz::audit_parts {

// [SECTION] Triton's view of a distributed layout (LinearEncodingAttr, retold)

int dim_of(const LinearLayout& l, BitVec basis) {
  const Coords c = l.unflatten(basis);
  for (std::size_t d = 0; d < c.size(); ++d)
    if (c[d] != 0) return static_cast<int>(d);
  return -1;
}

std::vector<int> order_per_dim(const LinearLayout& l, const char* in, const std::vector<int>& fallback) {
  std::vector<int> order;
  auto add = [&](int d) {
    if (d >= 0 && std::find(order.begin(), order.end(), d) == order.end()) order.push_back(d);
  };
  for (BitVec b : l.bases(in)) add(dim_of(l, b));
  for (int d : fallback) add(d);
  return order;
}

std::vector<int> layout_order(const LinearLayout& l) {
  std::vector<int> fallback(static_cast<std::size_t>(l.rank()));
  std::iota(fallback.rbegin(), fallback.rend(), 0);
  return order_per_dim(l, "register", fallback);
}

std::vector<std::int64_t> bases_per_dim(const LinearLayout& l, const char* in) {
  std::vector<std::int64_t> size(static_cast<std::size_t>(l.rank()), 1);
  for (BitVec b : l.bases(in))
    if (const int d = dim_of(l, b); d >= 0) size[static_cast<std::size_t>(d)] *= 2;
  return size;
}

Delinearized delinearize(const LinearLayout& l, const char* in, std::uint64_t id, const std::vector<int>& order) {
  const auto& bases = l.bases(in);
  Delinearized out;
  out.index.assign(static_cast<std::size_t>(l.rank()), 0);
  const std::vector<std::int64_t> size = bases_per_dim(l, in);
  std::uint64_t compact = 0;
  int kept = 0;
  for (std::size_t i = 0; i < bases.size(); ++i) {
    const bool bit = (id >> i) & 1u;
    if (dim_of(l, bases[i]) < 0) {
      out.representative &= !bit;
      continue;
    }
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

std::vector<std::uint64_t> distinct_registers(const LinearLayout& l) {
  std::vector<std::uint64_t> regs;
  std::set<BitVec> seen;
  for (std::uint64_t r = 0; r < (std::uint64_t{1} << l.bases("register").size()); ++r)
    if (seen.insert(l.apply("register", r)).second) regs.push_back(r);
  return regs;
}

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

std::vector<std::int64_t> operand_bases(const Op& op, std::int64_t elements, std::vector<int>& bytes) {
  const std::size_t operands = op.operand_types.size();
  bytes.assign(operands, 0);
  for (std::size_t i = 0; i < operands; ++i) bytes[i] = std::max(8, op.operand_types[i].element_bits) / 8;
  std::vector<std::size_t> by_width(operands);
  std::iota(by_width.begin(), by_width.end(), 0);
  std::stable_sort(by_width.begin(), by_width.end(), [&](std::size_t x, std::size_t y) { return bytes[x] > bytes[y]; });
  std::vector<std::int64_t> base(operands, 0);
  for (std::size_t k = 1; k < operands; ++k) base[by_width[k]] = base[by_width[k - 1]] + elements * bytes[by_width[k - 1]];
  return base;
}

// [SECTION] Pricing: every instruction served on its lanes' byte addresses

void ScratchPricer::issue(bool store, int bytes, const std::vector<std::int64_t>& address, bool predicated, const char* atomic) {
  const bool none = std::all_of(address.begin(), address.end(), [](std::int64_t a) { return a < 0; });
  if (none && !predicated) return;  // branched around
  const InstructionKind kind{store || atomic ? WarpOp::Store : WarpOp::Load, bytes, 0, false};
  const auto key = atomic ? std::make_pair(std::string("atomic"), std::string(atomic))
                          : std::make_pair(std::string(store ? "store" : "load"), kind.name());
  if (!by_side.count(key)) side_order.push_back(key);
  ScratchTally& t = by_side[key];
  ++t.instructions;
  auto& [n, w] = step[key];
  ++n;
  if (none) {  // issued with its predicate off: no wavefront
    ++t.predicated_off;
    return;
  }
  const Service s = serve(WarpRequest{kind, address, {}}, bank);
  std::vector<std::int64_t> padded = address;
  for (std::int64_t& p : padded)
    if (p >= 0) p += p / bank.wavefront_bytes() * bank.bank_bytes;
  padded_wavefronts[key] += serve(WarpRequest{kind, padded, {}}, bank).wavefronts;
  t.wavefronts += s.wavefronts;
  t.ideal_total += s.ideal;
  if (s.wavefronts > t.worst) t.worst = s.wavefronts, t.worst_ideal = s.ideal;
  w += s.wavefronts;
}

void ScratchPricer::end_step(const std::string& stored, const std::string& loaded) {
  for (auto& [key, nw] : step)
    if (nw.first)
      by_side[key].steps.push_back(fmt::format("{} {} at {:.2f}", nw.first, key.first == "load" ? loaded : stored,
                                               static_cast<double>(nw.second) / static_cast<double>(nw.first)));
  step.clear();
}

std::vector<AuditAccess> ScratchPricer::entries(const AuditAccess& a, const std::string& where, int element_bits) const {
  std::vector<AuditAccess> out;
  for (const auto& key : side_order) {
    const ScratchTally& t = by_side.at(key);
    AuditAccess x = a;
    x.direction = key.first;
    x.instruction = key.second;
    x.instructions = t.instructions;
    x.predicated_off = t.predicated_off;
    x.wavefronts = static_cast<double>(t.wavefronts) / static_cast<double>(t.instructions);
    x.ideal_wavefronts = t.worst_ideal;
    x.worst_wavefronts = t.worst;
    x.conflicts = static_cast<double>(t.wavefronts - t.ideal_total) / static_cast<double>(t.instructions);
    x.element_bits = element_bits;
    x.note = fmt::format(
        "{}: {}{}", where, fmt::join(t.steps, ", "),
        t.predicated_off
            ? fmt::format("; {} of them issued by warps with every lane's predicate off (0 wavefronts)", t.predicated_off)
            : "");
    if (t.wavefronts > t.ideal_total) {
      const auto padded_it = padded_wavefronts.find(key);
      const double padded = padded_it == padded_wavefronts.end()
                                ? *x.wavefronts
                                : static_cast<double>(padded_it->second) / static_cast<double>(t.instructions);
      x.no_suggestion =
          fmt::format("Triton 3.6 chooses this scratch (no padding, no swizzle); no attribute changes it{}",
                      padded < *x.wavefronts - 1e-9
                          ? fmt::format(" (padded by one word per {} bytes it would cost {:.2f} wavefronts per instruction)",
                                        bank.wavefront_bytes(), padded)
                          : "");
    }
    out.push_back(std::move(x));
  }
  return out;
}

namespace {

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
  if (scan) return scan_accesses(op, au, a, axis, warps_along);

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
  std::vector<int> bytes;
  const std::vector<std::int64_t> base = operand_bases(op, elems, bytes);

  const auto& module = au.m;
  const int lanes = module.threads_per_warp, num_warps = module.num_warps;
  if ((std::int64_t{1} << l.bases("warp").size()) != num_warps || (std::int64_t{1} << l.bases("lane").size()) != lanes)
    fail("the reduced tensor's layout has {} warps of {} lanes, the module {} of {}", std::int64_t{1} << l.bases("warp").size(),
         std::int64_t{1} << l.bases("lane").size(), num_warps, lanes);
  ScratchPricer pricer(au.bank);
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
        pricer.issue(/*store=*/true, bytes[i], address, /*predicated=*/true);
      }
  pricer.end_step("partials stored", "");

  // 2-3. Threads combine the W partials of each element: read t + k T, write back from t % W == 0.
  // Both predicated: a warp whose threads are all past the scratch still issues them (the H200's
  // counters on rowsum_4x2048_f32_w4: 3 idle warps, 3 more LDS and 3 more STS, no wavefront).
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
          pricer.issue(store, bytes[i], address, /*predicated=*/true);
        }
    }
  pricer.end_step("combined partials written back", "partials read to combine");

  // 4. Every thread reads its results at [0][element]; results nobody reads are not loaded, and a
  // warp whose copies a tt.store masks off skips loads only that store reads (only_stored()).
  const std::string result = op.results.empty() ? "" : op.results[0].substr(0, op.results[0].find(':'));
  for (std::size_t i = 0; i < operands; ++i) {
    const std::string name = operands == 1 ? result : fmt::format("{}#{}", result, i);
    if (!module.used_values.count(name)) continue;
    const bool tensor = i < op.result_types.size() && op.result_types[i].kind == Type::Kind::Tensor;
    if (!tensor) {  // a scalar: every lane reads the first element
      std::fill(address.begin(), address.end(), base[i]);
      for (int w = 0; w < num_warps; ++w) pricer.issue(/*store=*/false, bytes[i], address, /*predicated=*/false);
      continue;
    }
    const LinearLayout& rl = au.distributed(op.result_types[i], bytes[i] * 8).layout;
    const bool stored = only_stored(module, name);
    for (std::uint64_t r : distinct_registers(rl))
      for (int w = 0; w < num_warps; ++w) {
        if (stored && !stores_from_warp(rl, static_cast<std::uint64_t>(w))) continue;
        for (int lane = 0; lane < lanes; ++lane) {
          Coords c = coords_at(rl, r, static_cast<std::uint64_t>(lane), static_cast<std::uint64_t>(w));
          c.insert(c.begin() + static_cast<std::ptrdiff_t>(axis), 0);
          address[static_cast<std::size_t>(lane)] = base[i] + scratch.offset(c) * bytes[i];
        }
        pricer.issue(/*store=*/false, bytes[i], address, /*predicated=*/false);
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
  return pricer.entries(a, where, bytes[0] * 8);
}

}  // namespace

bool is_scratch_op(const std::string& name) {
  return name == "tt.reduce" || name == "tt.scan" || name == "tt.gather" || name == "tt.histogram";
}

std::vector<AuditAccess> scratch_accesses(const Op& op, const Auditor& au, const AuditAccess& entry,
                                          const ttgir::PointerReader* pointers) {
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
  if (op.name == "tt.gather") return gather_accesses(op, au, entry, pointers);
  if (op.name == "tt.histogram") return histogram_accesses(op, au, entry);
  a.instruction = "not modelled";
  a.note = fmt::format("{} may use shared memory (Triton's lowering of it is not modelled)", op.name);
  return {a};
}

}  // namespace swz::audit_parts
