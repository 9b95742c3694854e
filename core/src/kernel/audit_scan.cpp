// audit_scan.cpp: Triton 3.6's scan and histogram scratch, priced (audit_scratch_parts.h).
//
// A scan across warps (ScanOpToLLVM.cpp, ScanLoweringHelper in lib/Analysis/Utility.cpp), retold.
// Each thread first scans its contiguous elements along the axis ("chunks": a run of
// contigPerThread[axis] registers, numbered k in register order by the last one of each run), the
// lanes along the axis scan the chunks' last values by shuffles, and what crosses warps goes
// through a scratch of one partial per (chunk, warp along the axis, parallel lane):
//
//   scratch[k][w][p] at element  p + P * (w + W * k)
//
//   W  warps along the axis;  P = (warps / W) * (lanes / lanes along the axis): the threads that
//   scan independent columns, numbered p = lane's parallel index + warp's parallel index * lanes
//   off the axis (each id linearized in the layout's order, the axis left out).
//
//   1. store  the last lane along the axis of each warp writes its chunk's partial at [k][w][p]:
//             one predicated STS per chunk per warp (every warp issues it).
//   2. load   every thread reads the W partials [k][0..W-1][p] of each chunk, one LDS each.
//             The read of [k][W-1][p] in the last chunk of a column is dead (it only feeds the
//             next chunk; `w >= W` is known false) and LLVM drops it: the H200 counts 496 LDS on
//             cumsum_128x32_f32_w4 where the lowering writes 512 (4 warps, 4 columns a thread).
//             When P = 1 a thread's partials lie side by side and LLVM's vectorizer merges them
//             into aligned loads of up to 16 bytes (merged_loads below): cumsum_1024_f32_w4 issues
//             2 LDS.128 per warp (8 partials, one dead), each lane at the same address.
//   A reverse scan flips the chunks and the warps' order (flip(scan(flip))): each warp stores
//   and reads the same kind of lanes at mirrored places, so it costs the same and is priced so.
//
// A histogram (HistogramOpToLLVM.cpp): each warp counts its values by ballots, then through a
// scratch of max(bins, lanes) 32-bit counters:
//   1. store   every thread zeroes counters (tid + i * threads) % bins: ceil(bins / threads) STS each.
//   2. atomics the warps with distinct data add their counts: lane l owns counters
//              l * bins / lanes + j, one shared atomic (ATOMS.ADD) per j, priced by the store's
//              bank rule: on the H100's histogram (tests/data/triton/ncu/h100_one_cta.csv) 8 ATOMS
//              at 16 wavefronts, 8 conflicts, as that rule gives. Nsight Compute counts them on
//              their own counters (smsp__inst_executed_op_shared_atom, ..._mem_shared_op_atom),
//              not with LDS/STS: histogram_1024_w4's LDS/STS counters are exactly the zeroing
//              stores and the read-back.
//   3. load    every thread reads its result elements, one LDS each (warps a store masks off skip).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>

#include "audit_scratch_parts.h"
#include "swz/error.h"
#include "swz/sim/warp_access.h"

namespace swz::audit_parts {

namespace {

// The per-thread loads of element offsets `offsets` (one element of `bytes` each, in program order)
// as LLVM's vectorizer issues them, within each aligned 16-byte block. 32-bit elements: one load
// over the smallest aligned power-of-two span holding the block's offsets (a missing element is
// filled: cumsum_1024_f32_w8 reads partials 4-6 with one LDS.128). Narrower ones: each run of
// adjacent offsets cut into the widest aligned power-of-two pieces (cumsum_1024_f16_w4 reads
// partials 0-2 with an LDS.32 and an LDS.U16). Returns (first element, bytes) per load.
std::vector<std::pair<std::int64_t, int>> merged_loads(std::vector<std::int64_t> offsets, int bytes) {
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  std::vector<std::pair<std::int64_t, int>> loads;
  for (std::size_t i = 0; i < offsets.size();) {
    std::size_t end = i + 1;  // one block's offsets, or (narrow elements) one run of adjacent ones
    while (end < offsets.size() && offsets[end] * bytes / 16 == offsets[i] * bytes / 16 &&
           (bytes == 4 || offsets[end] == offsets[end - 1] + 1))
      ++end;
    const std::int64_t first = offsets[i] * bytes, last = (offsets[end - 1] + 1) * bytes;
    if (bytes == 4) {
      std::int64_t width = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(last - first)));
      while (first / width != (last - 1) / width) width *= 2;
      loads.emplace_back(first / width * width / bytes, static_cast<int>(width));
    } else {
      for (std::int64_t at = first; at < last;) {
        std::int64_t width = 16;
        while (width > bytes && (at % width != 0 || at + width > last)) width /= 2;
        loads.emplace_back(at / bytes, static_cast<int>(width));
        at += width;
      }
    }
    i = end;
  }
  return loads;
}

// LLVM::linearize: `index` in `order` (the first fastest) over `size`.
std::int64_t linearized(const std::vector<std::int64_t>& index, const std::vector<std::int64_t>& size,
                        const std::vector<int>& order) {
  std::int64_t at = 0, mult = 1;
  for (int d : order) {
    at += index[static_cast<std::size_t>(d)] * mult;
    mult *= size[static_cast<std::size_t>(d)];
  }
  return at;
}

// LinearEncodingAttr::getContigPerThread: per dim, the run of register bases that step 1, 2, 4, ...
// along it, dims taken in `order`.
std::vector<std::int64_t> contiguous_per_thread(const LinearLayout& l, const std::vector<int>& order) {
  std::vector<std::int64_t> contig(static_cast<std::size_t>(l.rank()), 1);
  const auto& regs = l.bases("register");
  std::size_t next = 0;
  for (int d : order) {
    Coords unit(static_cast<std::size_t>(l.rank()), 0);
    unit[static_cast<std::size_t>(d)] = 1;
    while (next < regs.size() && l.unflatten(regs[next]) == unit) {
      contig[static_cast<std::size_t>(d)] *= 2;
      unit[static_cast<std::size_t>(d)] *= 2;
      ++next;
    }
  }
  return contig;
}

void check_threads(const LinearLayout& l, const Module& m, const char* what) {
  if ((std::int64_t{1} << l.bases("warp").size()) != m.num_warps ||
      (std::int64_t{1} << l.bases("lane").size()) != m.threads_per_warp)
    fail("the {} tensor's layout has {} warps of {} lanes, the module {} of {}", what, std::int64_t{1} << l.bases("warp").size(),
         std::int64_t{1} << l.bases("lane").size(), m.num_warps, m.threads_per_warp);
}

}  // namespace

std::vector<AuditAccess> scan_accesses(const Op& op, const Auditor& au, const AuditAccess& a, std::size_t axis,
                                       std::int64_t warps_along) {
  const Module& m = au.m;
  const Type& src = op.operand_types[0];
  const LinearLayout& l = au.distributed(src, std::max(8, src.element_bits)).layout;
  check_threads(l, m, "scanned");
  const int lanes = m.threads_per_warp, num_warps = m.num_warps;
  const std::vector<int> order = layout_order(l);
  const std::vector<std::int64_t> lanes_per_dim = bases_per_dim(l, "lane"), warps_per_dim = bases_per_dim(l, "warp");
  const std::int64_t W = warps_along, lanes_along = lanes_per_dim[axis];
  const std::int64_t lanes_off_axis =
      std::accumulate(lanes_per_dim.begin(), lanes_per_dim.end(), std::int64_t{1}, std::multiplies<>()) / lanes_along;
  const std::int64_t P =
      std::accumulate(warps_per_dim.begin(), warps_per_dim.end(), std::int64_t{1}, std::multiplies<>()) / W * lanes_off_axis;

  // Chunks in register order, and the last chunk of each column (its thread-0 coords, axis cut).
  const std::vector<std::int64_t> contig = contiguous_per_thread(l, order);
  std::int64_t element_stride = 1;
  for (int d : order) {
    if (d == static_cast<int>(axis)) break;
    element_stride *= contig[static_cast<std::size_t>(d)];
  }
  const std::int64_t run = contig[axis];
  std::vector<std::uint64_t> chunks;
  std::map<Coords, std::size_t> last_of_column;
  for (std::uint64_t r = 0; r < (std::uint64_t{1} << l.bases("register").size()); ++r) {
    if ((static_cast<std::int64_t>(r) / element_stride) % run != run - 1) continue;
    Coords c = coords_at(l, r, 0, 0);
    c[axis] = 0;
    last_of_column[c] = chunks.size();
    chunks.push_back(r);
  }
  std::vector<bool> last(chunks.size(), false);
  for (const auto& [column, k] : last_of_column) last[k] = true;

  const std::int64_t elements = static_cast<std::int64_t>(chunks.size()) * W * P;
  std::vector<int> bytes;
  const std::vector<std::int64_t> base = operand_bases(op, elements, bytes);
  // Each thread's parallel id, lane along the axis, warp along the axis and whether it is representative.
  struct Thread {
    std::int64_t parallel = 0, lane_along = 0, warp_along = 0;
    bool representative = true;
  };
  std::vector<Thread> threads(static_cast<std::size_t>(lanes * num_warps));
  for (int w = 0; w < num_warps; ++w) {
    const Delinearized wd = delinearize(l, "warp", static_cast<std::uint64_t>(w), order);
    for (int lane = 0; lane < lanes; ++lane) {
      const Delinearized ld = delinearize(l, "lane", static_cast<std::uint64_t>(lane), order);
      std::vector<std::int64_t> li = ld.index, wi = wd.index, ls = lanes_per_dim, ws = warps_per_dim;
      li[axis] = wi[axis] = 0;
      ls[axis] = ws[axis] = 1;
      threads[static_cast<std::size_t>(w * lanes + lane)] =
          Thread{linearized(li, ls, order) + linearized(wi, ws, order) * lanes_off_axis, ld.index[axis], wd.index[axis],
                 ld.representative && wd.representative};
    }
  }

  ScratchPricer pricer(au.bank);
  std::vector<std::int64_t> address(static_cast<std::size_t>(lanes));
  for (std::size_t k = 0; k < chunks.size(); ++k)
    for (std::size_t i = 0; i < bytes.size(); ++i)
      for (int w = 0; w < num_warps; ++w) {
        for (int lane = 0; lane < lanes; ++lane) {
          const Thread& t = threads[static_cast<std::size_t>(w * lanes + lane)];
          const bool writes = t.representative && t.lane_along == lanes_along - 1;
          address[static_cast<std::size_t>(lane)] =
              writes ? base[i] + (t.parallel + P * (t.warp_along + W * static_cast<std::int64_t>(k))) * bytes[i] : -1;
        }
        pricer.issue(/*store=*/true, bytes[i], address, /*predicated=*/true);
      }
  pricer.end_step("partials stored", "");

  // The live reads, per thread, as offsets into [k][w] (times P); merged when P = 1.
  std::vector<std::int64_t> reads;
  for (std::size_t k = 0; k < chunks.size(); ++k)
    for (std::int64_t w = 0; w < W; ++w)
      if (!(last[k] && w == W - 1)) reads.push_back(w + W * static_cast<std::int64_t>(k));
  bool merged = false;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::vector<std::pair<std::int64_t, int>> loads;
    if (P == 1) {
      loads = merged_loads(reads, bytes[i]);
      merged |= loads.size() < reads.size();
    } else {
      for (std::int64_t r : reads) loads.emplace_back(r * P, bytes[i]);
    }
    for (const auto& [first, width] : loads)
      for (int w = 0; w < num_warps; ++w) {
        for (int lane = 0; lane < lanes; ++lane)
          address[static_cast<std::size_t>(lane)] =
              base[i] + (threads[static_cast<std::size_t>(w * lanes + lane)].parallel + first) * bytes[i];
        pricer.issue(/*store=*/false, width, address, /*predicated=*/false);
      }
  }
  pricer.end_step("", merged ? "partials read (adjacent ones merged into one load)" : "partials read");
  const std::string where = fmt::format(
      "a scan along axis {} across {} warps through Triton 3.6's scratch [{} x {} x {}] (chunks x warps along the axis x "
      "parallel threads; each chunk's last element per warp)",
      axis, W, chunks.size(), W, P);
  return pricer.entries(a, where, bytes[0] * 8);
}

std::vector<AuditAccess> histogram_accesses(const Op& op, const Auditor& au, const AuditAccess& entry) {
  AuditAccess a = entry;
  if (op.operand_types.empty() || op.result_types.empty() || op.operand_types[0].kind != Type::Kind::Tensor ||
      op.result_types[0].kind != Type::Kind::Tensor || op.result_types[0].shape.size() != 1) {
    a.instruction = "not modelled";
    a.note = "tt.histogram whose types were not printed as 1-D tensors";
    return {a};
  }
  const Module& m = au.m;
  const LinearLayout& src = au.distributed(op.operand_types[0], std::max(8, op.operand_types[0].element_bits)).layout;
  const Type& result = op.result_types[0];
  const LinearLayout& out = au.distributed(result, 32).layout;
  check_threads(src, m, "histogram's source");
  check_threads(out, m, "histogram's");
  a.distributed_layout = au.distributed(result, 32).text;
  const int lanes = m.threads_per_warp, num_warps = m.num_warps;
  const std::int64_t bins = std::max<std::int64_t>(result.shape[0], lanes), threads = std::int64_t{lanes} * num_warps;
  if (bins % lanes != 0) fail("tt.histogram of {} bins: Triton 3.6 needs a multiple of the {} lanes", result.shape[0], lanes);
  ScratchPricer pricer(au.bank);
  std::vector<std::int64_t> address(static_cast<std::size_t>(lanes));
  for (std::int64_t i = 0; i < (bins + threads - 1) / threads; ++i)
    for (int w = 0; w < num_warps; ++w) {
      for (int lane = 0; lane < lanes; ++lane)
        address[static_cast<std::size_t>(lane)] = ((w * lanes + lane + i * threads) % bins) * 4;
      pricer.issue(/*store=*/true, 4, address, /*predicated=*/false);
    }
  pricer.end_step("counters zeroed", "");

  // The warps with distinct data add their counts; the others branch around (HistogramOpToLLVM).
  const std::int64_t unique_warps = bases_per_dim(src, "warp")[0], owned = bins / lanes;
  for (std::int64_t j = 0; j < owned; ++j)
    for (std::int64_t w = 0; w < unique_warps; ++w) {
      for (int lane = 0; lane < lanes; ++lane) address[static_cast<std::size_t>(lane)] = (lane * owned + j) * 4;
      pricer.issue(/*store=*/true, 4, address, /*predicated=*/false, "ATOMS.ADD");
    }
  pricer.end_step("counts added (priced by the store rule)", "");

  const std::string name = op.results.empty() ? "" : op.results[0];
  const bool stored = only_stored(m, name);
  std::vector<std::int64_t> offsets;  // per register, thread 0's element: the constant part of its address
  const std::vector<std::uint64_t> regs = distinct_registers(out);
  for (std::uint64_t r : regs) offsets.push_back(coords_at(out, r, 0, 0)[0]);
  const auto loads = merged_loads(offsets, 4);
  for (const auto& [first, width] : loads)
    for (int w = 0; w < num_warps; ++w) {
      if (stored && !stores_from_warp(out, static_cast<std::uint64_t>(w))) continue;
      // The register whose element is `first` in thread 0: the lanes' part of the address follows it.
      const std::uint64_t r = regs[static_cast<std::size_t>(std::find(offsets.begin(), offsets.end(), first) - offsets.begin())];
      for (int lane = 0; lane < lanes; ++lane)
        address[static_cast<std::size_t>(lane)] =
            coords_at(out, r, static_cast<std::uint64_t>(lane), static_cast<std::uint64_t>(w))[0] * 4;
      pricer.issue(/*store=*/false, width, address, /*predicated=*/false);
    }
  pricer.end_step("", loads.size() < regs.size() ? "counters read (adjacent ones merged)" : "counters read");

  std::vector<AuditAccess> entries = pricer.entries(
      a, fmt::format("tt.histogram of {} bins through Triton 3.6's scratch of {} 32-bit counters", result.shape[0], bins), 32);
  return entries;
}

}  // namespace swz::audit_parts
