#!/usr/bin/env python3
"""The shared-memory traffic of Triton's reductions, scans, gathers and histograms: measured by Nsight
Compute against what `swizzle audit` predicts from the same kernels' TTGIR (run on a machine with a
GPU, Triton 3.6, PyTorch and ncu).

  python3 tests/triton/scratch_counters.py SWIZZLE OUT_DIR [--ncu PATH] [--only NAME,NAME]
  python3 tests/triton/scratch_counters.py --compare SWIZZLE KEPT_DIR NAME,NAME   (no GPU: a kept run again)
  python3 tests/triton/scratch_counters.py --source OUT_DIR NAME,NAME [--ncu PATH]   (per SASS instruction)
  python3 tests/triton/scratch_counters.py --compare-source SWIZZLE KEPT_DIR NAME,NAME   (no GPU: a kept --source run)

SWIZZLE is the built command-line tool (build/app/cli/swizzle). For each kernel of CASES the script
runs itself once under ncu (`--child NAME`), which compiles the kernel (one CTA), launches it once and
writes OUT_DIR/NAME.ttgir; ncu reads the counters below for that launch. Then `swizzle audit
OUT_DIR/NAME.ttgir --json` predicts them: instructions, wavefronts and bank conflicts of every STS
and LDS the audit prices (ldmatrix / stmatrix wavefronts and conflicts count with the loads and
stores, as ncu counts them; their instructions are listed apart). OUT_DIR/scratch_counters.json
holds, per kernel, the measured and predicted numbers, whether they are equal, and the ops the
audit lists as not modelled (a kernel with one of those cannot be expected to match).

With SWZ_KEEP_LOWERING=1 in the environment each case also keeps NAME.llir, NAME.ptx and NAME.sass
(which loads the compiler kept of those the TTGIR implies). `--source` runs each named case once
more under ncu's source page (`ncu --section SourceCounters
--page source --print-source sass --csv`) and keeps, in OUT_DIR/per-instruction/NAME.csv, one row per
SASS shared-memory instruction (LDS, STS, ATOMS, LDSM, STSM): executions, wavefronts, ideal wavefronts
and conflicts. Where a kernel's totals differ from the audit, this says which instruction differs.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_counters  # noqa: E402 (found beside this script, from wherever it runs)

METRICS = {
    "ld_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "st_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "ld_instructions": "smsp__inst_executed_op_shared_ld.sum",
    "st_instructions": "smsp__inst_executed_op_shared_st.sum",
    "ld_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "st_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    # Shared atomics (a histogram's ATOMS.ADD) have counters of their own, apart from LDS/STS.
    "atom_instructions": "smsp__inst_executed_op_shared_atom.sum",
    "atom_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
    "atom_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
}

# name -> (kernel, constexpr arguments, warps, element type). Row and column sums in fp16 and fp32
# on 4 and 8 warps: Triton's default layout puts warps along dim 0 for a 64x128 tile (the column
# sum crosses them) and along dim 1 for a 4x2048 one (the row sum crosses them).
CASES = {
    "colsum_64x128_f32_w4": ("reduce", dict(R=64, C=128, AXIS=0), 4, "float32"),
    "colsum_64x128_f16_w4": ("reduce", dict(R=64, C=128, AXIS=0), 4, "float16"),
    "colsum_64x128_f32_w8": ("reduce", dict(R=64, C=128, AXIS=0), 8, "float32"),
    "colsum_128x64_f16_w8": ("reduce", dict(R=128, C=64, AXIS=0), 8, "float16"),
    "rowsum_4x2048_f32_w4": ("reduce", dict(R=4, C=2048, AXIS=1), 4, "float32"),
    "rowsum_4x2048_f16_w4": ("reduce", dict(R=4, C=2048, AXIS=1), 4, "float16"),
    "rowsum_8x1024_f32_w8": ("reduce", dict(R=8, C=1024, AXIS=1), 8, "float32"),
    "rowsum_8x1024_f16_w8": ("reduce", dict(R=8, C=1024, AXIS=1), 8, "float16"),
    "argmax_64x128_f32_w4": ("argmax", dict(R=64, C=128), 4, "float32"),
    "cumsum_1024_f32_w4": ("cumsum_1d", dict(B=1024), 4, "float32"),
    "cumsum_128x32_f32_w4": ("cumsum_axis0", dict(R=128, C=32), 4, "float32"),
    "gather_64x32_f32_w4": ("gather", dict(R=64, C=32), 4, "float32"),
    "histogram_1024_w4": ("histogram", dict(B=1024, BINS=64), 4, "int32"),
    # Added in a second run: scans in fp16 and on 8 warps, along either axis; more histograms,
    # gathers and reductions.
    "cumsum_1024_f16_w4": ("cumsum_1d", dict(B=1024), 4, "float16"),
    "cumsum_1024_f32_w8": ("cumsum_1d", dict(B=1024), 8, "float32"),
    "cumsum_4096_f32_w8": ("cumsum_1d", dict(B=4096), 8, "float32"),
    "cumsum_128x32_f16_w4": ("cumsum_axis0", dict(R=128, C=32), 4, "float16"),
    "cumsum_128x32_f32_w8": ("cumsum_axis0", dict(R=128, C=32), 8, "float32"),
    "rowcumsum_16x256_f32_w4": ("cumsum_axis1", dict(R=16, C=256), 4, "float32"),
    "rowcumsum_8x1024_f16_w8": ("cumsum_axis1", dict(R=8, C=1024), 8, "float16"),
    "histogram_4096_w8": ("histogram", dict(B=4096, BINS=128), 8, "int32"),
    "histogram_1024_b256_w4": ("histogram", dict(B=1024, BINS=256), 4, "int32"),
    "gather_64x32_f32_w8": ("gather", dict(R=64, C=32), 8, "float32"),
    "gather_128x64_f16_w4": ("gather", dict(R=128, C=64), 4, "float16"),
    "colsum_32x256_f16_w8": ("reduce", dict(R=32, C=256, AXIS=0), 8, "float16"),
    "rowsum_16x512_f32_w8": ("reduce", dict(R=16, C=512, AXIS=1), 8, "float32"),
    # cumsum_128x32_f16_w4 measured 2 load wavefronts (and conflicts) more than the audit: its scan
    # and its conversion apart. The scan along axis 1 stays in each warp (4 lanes x 8 registers
    # per row), so only the same conversion (#blocked1 [1, 8] -> #blocked [1, 4] for the fp32
    # store) goes through shared memory; storing the cumsum as fp16 needs no conversion, so only
    # the scan's 128 STS.U16 and 480 LDS.U16 do. Whichever carries the 2 holds them.
    "rowcumsum_128x32_f16_w4": ("cumsum_axis1", dict(R=128, C=32), 4, "float16"),
    "cumsum_128x32_f16_w4_f16out": ("cumsum_axis0_keep", dict(R=128, C=32), 4, "float16"),
    # Gathers across warps, through shared memory: Triton 3.6 rewrites a gather of rank 2 or more to
    # a warp-local layout (shuffles), so these are 1-D gathers (whose layout spreads the axis over
    # the warps unless Triton's layout pass gives it a warp-local one: the kept TTGIR says which)
    # and a Gluon one whose layout the kernel sets (warps along the gathered axis). The indices are
    # (i * S) % B, computed in the kernel, so the audit reads them from the module and prices every
    # load (with 4 elements a thread: S = 33 puts lanes 8 apart on one bank, 4 wavefronts a load;
    # S = 32, 8). The _idx case reads random indices from memory: the audit gives each of its loads
    # a range only. Stores: 4 fp32 (8 fp16) adjacent registers a thread, one STS.128 if LLVM merges
    # them as the audit assumes, 4 STS.32 (8 STS.U16) at 4 wavefronts each if it does not.
    "gather1d_1024_f32_w4_s33": ("gather1d", dict(B=1024, S=33), 4, "float32"),
    "gather1d_1024_f32_w4_s32": ("gather1d", dict(B=1024, S=32), 4, "float32"),
    "gather1d_1024_f16_w4_s32": ("gather1d", dict(B=1024, S=32), 4, "float16"),
    "gather1d_2048_f32_w8_s64": ("gather1d", dict(B=2048, S=64), 8, "float32"),
    "gather1d_1024_f32_w4_idx": ("gather1d_idx", dict(B=1024), 4, "float32"),
    "gather_gluon_64x32_f32_w4_s33": ("gather_gluon", dict(R=64, C=32, S=33), 4, "float32"),
    "gather_gluon_64x32_f16_w4_s2": ("gather_gluon", dict(R=64, C=32, S=2), 4, "float16"),
}

# Gluon kernels: defined apart (the Gluon front end is imported only for them).
GLUON_KERNELS = ("gather_gluon", )


def define(tl, triton):
    @triton.jit
    def reduce(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr, AXIS: tl.constexpr):
        r = tl.arange(0, R)
        c = tl.arange(0, C)
        x = tl.load(x_ptr + r[:, None] * C + c[None, :])
        s = tl.sum(x, axis=AXIS)
        if AXIS == 0:
            tl.store(y_ptr + c, s)
        else:
            tl.store(y_ptr + r, s)

    @triton.jit
    def argmax(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
        r = tl.arange(0, R)
        c = tl.arange(0, C)
        tl.store(y_ptr + c, tl.argmax(tl.load(x_ptr + r[:, None] * C + c[None, :]), axis=0))

    @triton.jit
    def cumsum_1d(x_ptr, y_ptr, B: tl.constexpr):
        i = tl.arange(0, B)
        tl.store(y_ptr + i, tl.cumsum(tl.load(x_ptr + i), axis=0))

    @triton.jit
    def cumsum_axis0(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
        offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
        tl.store(y_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), axis=0))

    @triton.jit
    def cumsum_axis0_keep(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
        # cumsum_axis0 with y of x's type (the host passes it so): stored in the scan's own layout.
        offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
        tl.store(y_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), axis=0))

    @triton.jit
    def cumsum_axis1(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
        offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
        tl.store(y_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), axis=1))

    @triton.jit
    def gather(x_ptr, idx_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
        offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
        tl.store(y_ptr + offs, tl.gather(tl.load(x_ptr + offs), tl.load(idx_ptr + offs), axis=0))

    @triton.jit
    def gather1d(x_ptr, y_ptr, B: tl.constexpr, S: tl.constexpr):
        i = tl.arange(0, B)
        tl.store(y_ptr + i, tl.gather(tl.load(x_ptr + i), (i * S) % B, 0))

    @triton.jit
    def gather1d_idx(x_ptr, idx_ptr, y_ptr, B: tl.constexpr):
        i = tl.arange(0, B)
        tl.store(y_ptr + i, tl.gather(tl.load(x_ptr + i), tl.load(idx_ptr + i), 0))

    @triton.jit
    def histogram(x_ptr, y_ptr, B: tl.constexpr, BINS: tl.constexpr):
        x = tl.load(x_ptr + tl.arange(0, B))
        tl.store(y_ptr + tl.arange(0, BINS), tl.histogram(x, BINS))

    return dict(reduce=reduce, argmax=argmax, cumsum_1d=cumsum_1d, cumsum_axis0=cumsum_axis0,
                cumsum_axis0_keep=cumsum_axis0_keep, cumsum_axis1=cumsum_axis1, gather=gather, gather1d=gather1d,
                gather1d_idx=gather1d_idx,
                histogram=histogram)


def define_gluon():
    """The Gluon gather: the source and index layout L is the kernel's (warps along axis 0). The
    script's folder is on the path (it runs as a script), so gluon_setup imports as it is."""
    from gluon_setup import gluon_setup
    gluon, gl, _, make, _ = gluon_setup()

    @gluon.jit
    def gather_gluon(x_ptr, y_ptr, R: gl.constexpr, C: gl.constexpr, S: gl.constexpr, L: gl.constexpr):
        offs = (gl.arange(0, R, layout=gl.SliceLayout(1, L))[:, None] * C +
                gl.arange(0, C, layout=gl.SliceLayout(0, L))[None, :])
        gl.store(y_ptr + offs, gl.gather(gl.load(x_ptr + offs), (offs * S) % R, 0))

    layout = make(gl.BlockedLayout, size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0],
                  ctas_per_cga=[1, 1], cta_split_num=[1, 1], cta_order=[1, 0])
    return dict(gather_gluon=gather_gluon), dict(L=layout)


def child(name, out_dir):
    """Compiles and launches one case (one CTA), writing its TTGIR."""
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    import torch
    import triton
    import triton.language as tl
    kernel, args, warps, dtype = CASES[name]
    if kernel in GLUON_KERNELS:
        kernels, extra = define_gluon()
        fn, args = kernels[kernel], dict(args, **extra)
    else:
        fn = define(tl, triton)[kernel]
    dt = getattr(torch, dtype)
    size = max(args.get("R", 1) * args.get("C", 1) * args.get("B", 1), 4096)
    if dt.is_floating_point:
        x = torch.randn(size, device="cuda", dtype=dt)
    else:
        x = torch.randint(0, args.get("BINS", 64), (size,), device="cuda", dtype=dt)
    out_type = {"reduce": dt, "cumsum_axis0_keep": dt, "gather1d": dt, "gather1d_idx": dt, "gather_gluon": dt,
                "argmax": torch.int32, "histogram": torch.int32}.get(kernel, torch.float32)
    y = torch.zeros(size, device="cuda", dtype=out_type)
    if kernel in ("gather", "gather1d_idx"):
        idx = torch.randint(0, args.get("R", args.get("B")), (size,), device="cuda", dtype=torch.int32)
        compiled = fn[(1,)](x, idx, y, num_warps=warps, **args)
    else:
        compiled = fn[(1,)](x, y, num_warps=warps, **args)
    torch.cuda.synchronize()
    with open(os.path.join(out_dir, f"{name}.ttgir"), "w") as f:
        f.write(compiled.asm["ttgir"])
    if os.environ.get("SWZ_KEEP_LOWERING"):  # the LLVM IR, PTX and SASS too: which loads the compiler kept
        for stage in ("llir", "ptx"):
            with open(os.path.join(out_dir, f"{name}.{stage}"), "w") as f:
                f.write(compiled.asm[stage])
        with open(os.path.join(out_dir, f"{name}.sass"), "w") as f:
            try:
                from triton.tools.disasm import get_sass
                f.write(get_sass(compiled.asm["cubin"]))
            except Exception as e:  # a help for reading, not needed for the counters
                f.write(f"no SASS: {e}\n")
    with open(os.path.join(out_dir, f"{name}.meta.json"), "w") as f:
        json.dump({"function": compiled.metadata.name, "num_warps": compiled.metadata.num_warps,
                   "shared_bytes": compiled.metadata.shared, "triton": triton.__version__,
                   "device": torch.cuda.get_device_name()}, f)


SOURCE_COLUMNS = ("Address", "Source", "Instructions Executed", "Predicated-On Thread Instructions Executed",
                  "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal", "L1 Conflicts Shared N-Way")


def source_counters(ncu, name, out_dir):
    """One case under ncu's source page: writes OUT_DIR/per-instruction/NAME.csv (the shared-memory
    instructions' rows, the columns of SOURCE_COLUMNS ncu printed) and NAME.raw.csv (all of it)."""
    cmd = [ncu, "--section", "SourceCounters", "--page", "source", "--print-source", "sass", "--csv",
           "--target-processes", "all", "-k", f"regex:^{CASES[name][0]}$",
           sys.executable, os.path.abspath(__file__), "--child", name, out_dir]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        raise RuntimeError(f"ncu failed ({run.returncode}): {run.stderr[-2000:]}")
    folder = os.path.join(out_dir, "per-instruction")
    os.makedirs(folder, exist_ok=True)
    lines = [l for l in run.stdout.splitlines() if l.startswith('"')]
    with open(os.path.join(folder, f"{name}.raw.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    header_at = next((i for i, r in enumerate(rows) if "Source" in r and "Address" in r), None)
    if header_at is None:
        raise RuntimeError("ncu printed no source page:\n" + run.stdout[-2000:])
    header = rows[header_at]
    keep = [header.index(c) for c in SOURCE_COLUMNS if c in header] or list(range(len(header)))
    shared = re.compile(r"\b(LDS|STS|ATOMS|LDSM|STSM)\b")
    kept = [[r[i] for i in keep] for r in rows[header_at + 1:]
            if len(r) == len(header) and shared.search(r[header.index("Source")])]
    with open(os.path.join(folder, f"{name}.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([header[i] for i in keep])
        w.writerows(kept)
    return len(kept)


def predict(swizzle, path):
    """What the audit prices, summed the way ncu counts it."""
    run = subprocess.run([swizzle, "audit", path, "--json"], capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        raise RuntimeError(f"swizzle audit failed ({run.returncode}): {run.stderr[-2000:]}")
    report = json.loads(run.stdout)
    p = {key: 0.0 for key in METRICS}
    p.update(ldsm_instructions=0.0, stsm_instructions=0.0)
    # Loads whose addresses are index values read at run time (a gather's): their count is known,
    # their wavefronts only between ideal and worst, kept apart as the bounds of ld_wavefronts.
    spread = [0.0, 0.0]
    not_modelled, lines = [], []
    for a in report["accesses"]:
        if a["instruction"] == "not modelled":
            not_modelled.append(f"{a['line']}: {a['op']}: {a.get('note', '')}")
            continue
        if a.get("index_dependent"):
            p["ld_instructions"] += a["instructions"]
            spread[0] += a["ideal_wavefronts"] * a["instructions"]
            spread[1] += a["worst_wavefronts"] * a["instructions"]
            continue
        if a.get("wavefronts") is None:
            continue
        kind = a["instruction"].split(".")[0]
        side = {"STS": "st", "STSM": "st", "LDS": "ld", "LDSM": "ld", "ATOMS": "atom"}.get(kind)
        if side is None:
            continue
        n = a["instructions"]
        p[f"{side}_wavefronts"] += a["wavefronts"] * n
        p[f"{side}_conflicts"] += (a.get("conflicts") or 0.0) * n
        if kind in ("STS", "LDS", "ATOMS"):
            p[f"{side}_instructions"] += n
        else:
            p[f"{kind.lower()}_instructions"] += n
        lines.append({"line": a["line"], "op": a["op"], "direction": a.get("direction"), "instruction": a["instruction"],
                      "instructions": n, "wavefronts": a["wavefronts"]})
    if spread[1]:
        p["ld_wavefronts_at_least"] = p["ld_wavefronts"] + spread[0]
        p["ld_wavefronts_at_most"] = p["ld_wavefronts"] + spread[1]
    return p, not_modelled, lines


def compare(swizzle, out_dir, expect_equal):
    """A kept run again: the audit's prediction of each stored kernel against its stored counters.
    Exit 1 when a kernel named in EXPECT_EQUAL (comma-separated) differs, or when one not named is equal
    (the list is what README says matches)."""
    results = json.load(open(os.path.join(out_dir, "scratch_counters.json")))
    equal = []
    for name, entry in results["cases"].items():
        predicted, not_modelled, _ = predict(swizzle, os.path.join(out_dir, f"{name}.ttgir"))
        # A run kept before a counter was added is compared on the counters it has.
        keys = [k for k in METRICS if k in entry["measured"]]
        same = all(abs(predicted[k] - entry["measured"][k]) < 1e-6 for k in keys)
        print(f"{name}: {'equal' if same else 'differs'}" + (f" ({len(not_modelled)} not modelled)" if not_modelled else ""))
        if not same:
            for k in keys:
                print(f"    {k}: measured {entry['measured'].get(k)}, predicted {predicted[k]}")
        if same:
            equal.append(name)
    wanted = sorted(n for n in expect_equal.split(",") if n)
    print(f"{len(equal)} of {len(results['cases'])} kernels equal: {', '.join(equal)}")
    return 0 if sorted(equal) == wanted else 1


def compare_source(swizzle, out_dir, names):
    """A kept `--source` run: per SASS instruction name (LDS.U16, STS.128, ...), the executions and
    wavefronts ncu attributes to the kernel's instructions against the audit's lines of that
    instruction (instructions x wavefronts). Exit 1 when any differs. Prints beside each the kernel-level
    counter's difference (scratch_counters.json): wavefronts no instruction carries."""
    differ = 0
    results = json.load(open(os.path.join(out_dir, "scratch_counters.json")))
    for name in names:
        attributed = {}
        with open(os.path.join(out_dir, "per-instruction", name + ".csv")) as f:
            for row in csv.DictReader(f):
                words = row["Source"].split()
                op = words[1] if words[0].startswith("@") else words[0]
                got = attributed.setdefault(op, [0, 0])
                got[0] += int(row["Instructions Executed"])
                got[1] += int(row["L1 Wavefronts Shared"])
        _, _, lines = predict(swizzle, os.path.join(out_dir, f"{name}.ttgir"))
        priced = {}
        for line in lines:
            got = priced.setdefault(line["instruction"], [0, 0])
            got[0] += line["instructions"]
            got[1] += line["wavefronts"] * line["instructions"]
        same = attributed == priced
        differ += not same
        loads = sum(v[1] for k, v in attributed.items() if k.startswith("LD"))
        unattributed = results["cases"][name]["measured"]["ld_wavefronts"] - loads
        print(f"{name}: {'equal' if same else 'differs'} per instruction (measured {attributed}, audit {priced}); "
              f"load wavefronts on no instruction: {unattributed:g}")
    return 1 if differ else 0


def main():
    args = sys.argv[1:]
    if args and args[0] == "--compare-source":
        if len(args) != 4:
            print(__doc__, file=sys.stderr)
            return 2
        return compare_source(os.path.abspath(args[1]), os.path.abspath(args[2]), [n for n in args[3].split(",") if n])
    if args and args[0] == "--child":
        child(args[1], args[2])
        return 0
    if args and args[0] == "--source":
        if len(args) < 3:
            print(__doc__, file=sys.stderr)
            return 2
        out_dir, names = os.path.abspath(args[1]), [n for n in args[2].split(",") if n]
        ncu = args[args.index("--ncu") + 1] if "--ncu" in args else "ncu"
        unknown = [n for n in names if n not in CASES]
        if unknown:
            print(f"error: no case named {', '.join(unknown)}", file=sys.stderr)
            return 2
        os.makedirs(out_dir, exist_ok=True)
        for name in names:
            print(f"{name}: {source_counters(ncu, name, out_dir)} shared-memory instructions "
                  f"({os.path.join(out_dir, 'per-instruction', name + '.csv')})", flush=True)
        return 0
    if args and args[0] == "--compare":
        return compare(os.path.abspath(args[1]), os.path.abspath(args[2]), args[3] if len(args) > 3 else "")
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    swizzle, out_dir = os.path.abspath(args[0]), os.path.abspath(args[1])
    ncu = args[args.index("--ncu") + 1] if "--ncu" in args else "ncu"
    only = set(args[args.index("--only") + 1].split(",")) if "--only" in args else None
    if not os.access(swizzle, os.X_OK):
        print(f"error: {swizzle} is not an executable swizzle tool", file=sys.stderr)
        return 2
    os.makedirs(out_dir, exist_ok=True)
    results = {"metrics": METRICS, "cases": {}}
    for name in CASES:
        if only and name not in only:
            continue
        entry = {"kernel": CASES[name][0], "args": CASES[name][1], "num_warps": CASES[name][2], "dtype": CASES[name][3]}
        try:
            entry["measured"] = ncu_counters.measure(ncu, os.path.abspath(__file__), CASES[name][0], METRICS, name, out_dir)
            with open(os.path.join(out_dir, f"{name}.meta.json")) as f:
                entry["compiled"] = json.load(f)
            predicted, not_modelled, lines = predict(swizzle, os.path.join(out_dir, f"{name}.ttgir"))
            entry.update(predicted=predicted, not_modelled=not_modelled, lines=lines)
            entry["equal"] = {k: abs(predicted[k] - entry["measured"].get(k, float("nan"))) < 1e-6 for k in METRICS}
            entry["all_equal"] = all(entry["equal"].values())
            if "ld_wavefronts_at_most" in predicted:  # index values read at run time: a range
                entry["ld_wavefronts_within_range"] = (predicted["ld_wavefronts_at_least"] <= entry["measured"].get(
                    "ld_wavefronts", -1) <= predicted["ld_wavefronts_at_most"])
        except Exception as e:  # one case that fails does not stop the others
            entry["error"] = f"{type(e).__name__}: {str(e)[:2000]}"
        results["cases"][name] = entry
        status = entry.get("error") or ("equal" if entry.get("all_equal") else "differs")
        print(f"{name}: {status}", flush=True)
    with open(os.path.join(out_dir, "scratch_counters.json"), "w") as f:
        json.dump(results, f, indent=1)
    equal = sum(1 for e in results["cases"].values() if e.get("all_equal"))
    print(f"{equal} of {len(results['cases'])} kernels: every counter equal to the audit's prediction "
          f"({os.path.join(out_dir, 'scratch_counters.json')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
