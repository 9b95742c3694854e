#!/usr/bin/env python3
"""Triton's pipelined copies where a tile's lanes are masked by the problem's edge: a matmul written as
users write it (`mask=(rm[:, None] < M) & (k + rk < K)`, `other` zero), one CTA with M, N or K short of
the tile so that some lanes of a copy move no data, or a whole grid whose last programs sit at the
edge, measured per SASS instruction by Nsight Compute's source counters (run on a machine with a GPU,
Triton 3.6, PyTorch and ncu):

  python3 tests/triton/edge_masks.py OUT_DIR [--ncu PATH] [--only KERNEL,KERNEL] [--cases CASE,CASE]
  python3 tests/triton/edge_masks.py --compare SWIZZLE KEPT_DIR [EQUAL] [--one-cta | --grids]
      (no GPU: a kept run against the audit; all its launches, or the one-CTA ones, or the whole grids)

Every case of one kernel compiles to the same SASS: M, N, K and the row pitches `sa`, `sb` stay
multiples of 16 (tf32's `sa` one more, odd in every case), so Triton specializes them alike.
OUT_DIR gets, per kernel, its TTGIR and SASS, and edge_masks.json: per case and per LDGSTS its
executions, predicated-on threads and shared wavefronts."""
import concurrent.futures
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from source_counters import ldgsts_source_counters  # noqa: E402

# kernel -> (dtype, BM, BN, BK, warps, stages, A's pitch past its cases'); the edge cases: sizes().
# tf32's A rows one element longer (an odd pitch): its copies move 4 bytes a lane (LDGSTS.E, .ca).
KERNELS = {
    "fp16_128x128x64_w4s3": ("float16", 128, 128, 64, 4, 3, 0),
    "int8_128x128x64_w4s3": ("int8", 128, 128, 64, 4, 3, 0),
    "bf16_64x64x32_w4s4": ("bfloat16", 64, 64, 32, 4, 4, 0),
    "tf32_64x64x32_w4s3_odd": ("float32", 64, 64, 32, 4, 3, 1),
    "fp8_128x128x128_w4s3": ("float8_e4m3fn", 128, 128, 128, 4, 3, 0),
    # Eight warps, other tile shapes and stage counts (the second set).
    "fp16_64x128x64_w8s3": ("float16", 64, 128, 64, 8, 3, 0),
    "bf16_128x64x64_w4s4": ("bfloat16", 128, 64, 64, 4, 4, 0),
    "fp16_128x256x64_w8s3": ("float16", 128, 256, 64, 8, 3, 0),
    "tf32_128x64x32_w8s3_odd": ("float32", 128, 64, 32, 8, 3, 1),
}


def sizes(BM, BN, BK):
    """name -> (M, N, K, A's row pitch, B's row pitch) in elements: all lanes live; A's rows past M; B's
    columns past N with B's rows BN apart (the mask alone) and N apart (the pitch too); K's last tile half
    masked with A's rows 4 BK apart and K apart; all three with tight pitches."""
    K = 4 * BK
    return {"live": (BM, BN, K, K, BN), "m_edge": (BM - 32, BN, K, K, BN), "n_edge": (BM, BN - 32, K, K, BN),
            "n_edge_again": (BM, BN - 32, K, K, BN),
            "n_edge_pitch": (BM, BN - 32, K, K, BN - 32), "k_tail": (BM, BN, K - BK // 2, K, BN),
            "k_tail_pitch": (BM, BN, K - BK // 2, K - BK // 2, BN),
            "corner_pitch": (BM - 32, BN - 32, K - BK // 2, K - BK // 2, BN - 32)}


# Whole grids whose last row and column of programs sit at the edge (each program's copies priced
# at its program ids): kernel -> name -> (M, N, K, sa, sb).
GRIDS = {
    "fp16_128x128x64_w4s3": {"grid": (976, 944, 992, 1024, 1024), "grid_pitch": (976, 944, 992, 992, 944)},
    "tf32_64x64x32_w4s3_odd": {"grid": (240, 208, 240, 256, 256)},
    "fp8_128x128x128_w4s3": {"grid": (976, 944, 992, 1024, 1024)},
    "fp16_64x128x64_w8s3": {"grid": (240, 208, 240, 256, 256)},
}


def cases_of(kernel):
    """name -> (M, N, K, sa, sb): the one-program edges and the whole grids."""
    dtype, BM, BN, BK, warps, stages, longer = KERNELS[kernel]
    out = {name: (M, N, K, sa + longer, sb) for name, (M, N, K, sa, sb) in sizes(BM, BN, BK).items()}
    for name, (M, N, K, sa, sb) in GRIDS.get(kernel, {}).items():
        out[name] = (M, N, K, sa + longer, sb)
    return out


def grid_of(kernel, M, N):
    _, BM, BN = KERNELS[kernel][:3]
    return (M + BM - 1) // BM, (N + BN - 1) // BN


def define(tl, triton):
    @triton.jit
    def matmul_masked(a_ptr, b_ptr, c_ptr, M, N, K, sa, sb, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                      ZERO: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * sa + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K),
                        other=ZERO)
            b = tl.load(b_ptr + (k + rk)[:, None] * sb + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N),
                        other=ZERO)
            acc += tl.dot(a, b)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))
    return matmul_masked


def child(kernel, case, out_dir):
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    import torch
    import triton
    import triton.language as tl
    dtype, BM, BN, BK, warps, stages, longer = KERNELS[kernel]
    M, N, K, sa, sb = cases_of(kernel)[case]
    dt = getattr(torch, dtype)

    def tensor(*shape):
        if dt == torch.int8:
            return torch.randint(-8, 8, shape, device="cuda", dtype=dt)
        return torch.randn(*shape, device="cuda").to(dt)

    a, b = tensor(M, sa), tensor(K, sb)
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    compiled = define(tl, triton)[grid_of(kernel, M, N)](a, b, c, M, N, K, sa, sb, BM=BM, BN=BN, BK=BK,
                                                            ZERO=0 if dt == torch.int8 else 0.0, num_warps=warps,
                                                            num_stages=stages)
    torch.cuda.synchronize()
    want = a[:, :K].float() @ b[:, :N].float()  # exact for int8's small values
    err = (c.float() - want).abs().max().item()
    print(f"max error {err:g}")
    if case == "live":
        with open(os.path.join(out_dir, f"{kernel}.ttgir"), "w") as f:
            f.write(compiled.asm["ttgir"])
        with open(os.path.join(out_dir, f"{kernel}.sass"), "w") as f:
            from triton.tools.disasm import get_sass
            f.write(get_sass(compiled.asm["cubin"]))


def source_counters(ncu, kernel, case, out_dir):
    return ldgsts_source_counters(ncu, "^matmul_masked$",
                                  [sys.executable, os.path.abspath(__file__), "--child", kernel, case, out_dir])


def audited(swizzle, ttgir, case):
    """The audit's LDGSTS of one launch: (instructions issued, wavefronts, the lower end), each line's
    price per instruction times its instructions and executions, with the launch's integer arguments
    given, summed over the launch's programs (each at its program ids)."""
    total = [0.0, 0.0, 0.0]
    gm, gn = case.get("grid", [1, 1])
    # A grid's programs are audited side by side (one process each, as many at once as there are cores).
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        programs = pool.map(lambda p: audited_program(swizzle, ttgir, case, *p), [(m, n) for m in range(gm) for n in range(gn)])
        for program in programs:
            for i, v in enumerate(program):
                total[i] += v
    return tuple(total)


def audited_program(swizzle, ttgir, case, pid_m, pid_n):
    flags = [f"--arg={k}={case[k]}" for k in ("M", "N", "K", "sa", "sb")] + [f"--arg=pid_m={pid_m}", f"--arg=pid_n={pid_n}"]
    run = subprocess.run([swizzle, "audit", ttgir, "--json"] + flags, capture_output=True, text=True, timeout=300)
    if run.returncode not in (0, 1):
        raise RuntimeError(f"swizzle audit failed ({run.returncode}): {run.stderr[-2000:]}")
    issued = wavefronts = lowest = 0.0
    for a in json.loads(run.stdout)["accesses"]:
        if not str(a.get("instruction", "")).startswith("LDGSTS") or a.get("wavefronts") is None:
            continue
        n = a["instructions"] * a.get("executions", 1)
        mean = a["issued_wavefronts"] if a.get("issued_wavefronts") is not None else a["wavefronts"]
        note = a.get("note", "")
        ideal = "measured only its ideal" in note or "measured only their ideal" in note
        issued += n
        wavefronts += mean * n
        lowest += (a["ideal_wavefronts"] if ideal else mean) * n
    return issued, wavefronts, lowest


def compare(swizzle, kept, expect_equal, which="all"):
    """Every kept case (WHICH: "all", "one-cta" or "grids"): the LDGSTS Nsight Compute counted against
    the audit's price (the upper end its lines give) and its lower end (lines whose masked copies have
    measured their ideal, there). Exit 1 when a case lies outside the two, or the cases at the upper end
    are not EXPECT_EQUAL (KERNEL/CASE, comma-separated)."""
    results = json.load(open(os.path.join(kept, "edge_masks.json")))
    outside, equal, compared = 0, [], 0
    for kernel, entry in results["kernels"].items():
        for case, got in entry["cases"].items():
            if which != "all" and (got.get("grid", [1, 1]) != [1, 1]) != (which == "grids"):
                continue
            compared += 1
            measured = (sum(c["executions"] for c in got["ldgsts"]), sum(c["wavefronts"] for c in got["ldgsts"]))
            issued, high, low = audited(swizzle, os.path.join(kept, f"{kernel}.ttgir"), got)
            inside = abs(measured[0] - issued) < 1e-6 and low - 1e-6 <= measured[1] <= high + 1e-6
            outside += not inside
            if inside and abs(measured[1] - high) < 1e-6:
                equal.append(f"{kernel}/{case}")
            print(f"{kernel} {case} (M {got['M']}, N {got['N']}, K {got['K']}, pitches {got['sa']}, {got['sb']}): "
                  f"measured {measured[1]:g} wavefronts over {measured[0]} LDGSTS; the audit {low:g} to {high:g} over "
                  f"{issued:g}: {'at its price' if measured[1] == high else 'inside' if inside else 'OUTSIDE'}")
    wanted = sorted(n for n in expect_equal.split(",") if n)
    print(f"{len(equal)} of {compared} cases at the audit's price")
    if sorted(equal) != wanted:
        print(f"expected at the price: {', '.join(wanted)}")
    return 1 if outside or sorted(equal) != wanted else 0


def main():
    args = sys.argv[1:]
    which = "all"
    for flag in ("--one-cta", "--grids"):
        if flag in args:
            args.remove(flag)
            which = flag[2:]
    if args[:1] == ["--compare"] and len(args) in (3, 4):
        return compare(args[1], args[2], args[3] if len(args) == 4 else "", which)
    if args[:1] == ["--child"]:
        child(*args[1:4])
        return 0
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    out_dir, ncu, only = args[0], "ncu", None
    if "--ncu" in args:
        ncu = args[args.index("--ncu") + 1]
    if "--only" in args:
        only = args[args.index("--only") + 1].split(",")
    cases = args[args.index("--cases") + 1].split(",") if "--cases" in args else None
    os.makedirs(out_dir, exist_ok=True)
    import torch
    import triton
    results = {"device": torch.cuda.get_device_name(), "triton": triton.__version__,
               "how": "ncu --section SourceCounters --page source on one launch of matmul_masked (tests/triton/edge_masks.py): "
                      "one CTA, or the whole grid a case's grid gives; per LDGSTS its warp-level executions, mean threads "
                      "predicated on, L1 Wavefronts Shared and its Ideal",
               "kernels": {}}
    for kernel, spec in KERNELS.items():
        if only and kernel not in only:
            continue
        dtype, BM, BN, BK, warps, stages, longer = spec
        entry = results["kernels"][kernel] = {"dtype": dtype, "BM": BM, "BN": BN, "BK": BK, "warps": warps,
                                              "stages": stages, "cases": {}}
        for case, (M, N, K, sa, sb) in cases_of(kernel).items():
            if cases and case not in cases:
                continue
            copies, error = source_counters(ncu, kernel, case, out_dir)
            entry["cases"][case] = {"M": M, "N": N, "K": K, "sa": sa, "sb": sb, "grid": list(grid_of(kernel, M, N)),
                                    "max_error": error, "ldgsts": copies}
            print(kernel, case, M, N, K, sa, sb, "error", error, [(c["executions"], c["wavefronts"]) for c in copies], flush=True)
    with open(os.path.join(out_dir, "edge_masks.json"), "w") as f:
        json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
