#!/usr/bin/env python3
"""The cp.async (LDGSTS) traffic of Triton's pipelined matmuls and attention: measured by Nsight Compute
on one CTA, kept with the kernel's TTGIR, and compared with what `swizzle audit` prices for the same
copies (run on a machine with a GPU, Triton 3.6, PyTorch and ncu).

  python3 tests/triton/copy_counters.py OUT_DIR [--ncu PATH] [--only NAME,NAME] [--cache-control all|none]
  python3 tests/triton/copy_counters.py --compare SWIZZLE KEPT_DIR [EQUAL] [--within NAMES] [--sass]   (no GPU: a kept run again)
  python3 tests/triton/copy_counters.py --compare-modules SWIZZLE KEPT_DIR   (no GPU: whole kernels at several sizes)

For each kernel of CASES the script runs itself once under ncu (`--child NAME`), which compiles the
kernel, launches one CTA and writes OUT_DIR/NAME.ttgir; ncu reads METRICS for that launch, and
OUT_DIR/copy_counters.json keeps them. The prologue issues each stage's copies once and the loop one
of each per iteration, its last stages - 1 predicated off; `swizzle audit --arg K=...` (the launch's
integer arguments) prices each copy line over its executions, so the measured wavefronts per LDGSTS
instruction is the audit's price of its copy lines weighted by instructions x executions: `--compare`
prints both for every kept kernel. A masked .cg copy has measured as low as its ideal (the line's note
says so), so each kernel also has a lower end, the same weighting with such lines at their ideal:
`--within NAMES` names the kernels measured inside that range but not at its upper end. `--sass` gives
the audit each kernel's kept SASS (NAME.sass, `swizzle audit --sass`): its masked copies priced by the
predicate register ptxas gave them.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_counters  # noqa: E402 (found beside this script, from wherever it runs)

METRICS = {
    "ldgsts_instructions": "sm__sass_inst_executed_op_ldgsts.sum",
    "ldgsts_wavefronts": "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
    "ldgsts_bypass_wavefronts": "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts_cache_bypass.sum",
    "ldgsts_sectors": "sm__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum",
    "ldgsts_requests": "sm__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum",
    "ldgsts_conflicts": "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
}

# name -> (kernel, dtype, constexprs, warps, stages). K = 4 x BK: one CTA runs the prologue and the loop.
CASES = {}
# The 64-byte K slices (fp16 / bf16 BK 32, fp8 BK 64, int8 BK 64): two stages share each 128-byte line.
for dtype, tag, tiles in (("float16", "fp16", ((128, 128, 64, 4, 3), (64, 64, 64, 4, 4), (128, 128, 64, 8, 3),
                                               (128, 128, 32, 4, 3))),
                          ("bfloat16", "bf16", ((128, 128, 64, 8, 3), (64, 64, 32, 4, 4))),
                          ("float8_e4m3fn", "fp8", ((128, 128, 128, 4, 3), (64, 128, 128, 4, 4), (128, 128, 64, 4, 3))),
                          ("int8", "int8", ((128, 128, 64, 4, 3), (64, 64, 128, 4, 3))),
                          ("float32", "tf32", ((64, 64, 32, 4, 3), (128, 128, 32, 4, 3), (128, 64, 32, 4, 4)))):
    for BM, BN, BK, warps, stages in tiles:
        CASES[f"matmul_{tag}_{BM}x{BN}x{BK}_w{warps}s{stages}"] = ("matmul", dtype, dict(BM=BM, BN=BN, BK=BK), warps,
                                                                   stages)
for BM, BN, warps, stages in ((128, 64, 8, 3), (64, 64, 4, 2), (64, 32, 4, 3)):
    CASES[f"attention_{BM}x{BN}_w{warps}s{stages}"] = ("attn_fwd", "float16", dict(BLOCK_M=BM, BLOCK_N=BN), warps,
                                                       stages)


def child(name, out_dir):
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    import torch
    import triton
    import triton.language as tl
    from dump_kernels import define
    kernel, dtype, const, warps, stages = CASES[name]
    fn = define(tl, triton)[kernel]
    dt = getattr(torch, dtype)

    def tensor(*shape):
        if dt == torch.int8:
            return torch.randint(-8, 8, shape, device="cuda", dtype=dt)
        return torch.randn(*shape, device="cuda").to(dt)

    if kernel == "matmul":
        M, N, K = const["BM"], const["BN"], 4 * const["BK"]
        a, b = tensor(M, K), tensor(K, N)
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        precision = "tf32" if dtype == "float32" else None
        compiled = fn[(1, 1)](a, b, c, M, N, K, PRECISION=precision, num_warps=warps, num_stages=stages, **const)
    else:
        n_ctx, d = 4 * const["BLOCK_N"], 64
        n_ctx = max(n_ctx, const["BLOCK_M"])
        q, k, v = tensor(n_ctx, d), tensor(n_ctx, d), tensor(n_ctx, d)
        compiled = fn[(1, )](q, k, v, torch.empty_like(q), d**-0.5, n_ctx, HEAD_DIM=d, num_warps=warps,
                              num_stages=stages, **const)
    torch.cuda.synchronize()
    with open(os.path.join(out_dir, f"{name}.ttgir"), "w") as f:
        f.write(compiled.asm["ttgir"])
    with open(os.path.join(out_dir, f"{name}.sass"), "w") as f:
        try:
            from triton.tools.disasm import get_sass
            f.write(get_sass(compiled.asm["cubin"]))
        except Exception as e:  # the SASS is a help for reading, not needed for the counters
            f.write(f"no SASS: {e}\n")
    with open(os.path.join(out_dir, f"{name}.meta.json"), "w") as f:
        json.dump({"function": compiled.metadata.name, "num_warps": warps, "num_stages": stages,
                   "shared_bytes": compiled.metadata.shared, "triton": triton.__version__,
                   "device": torch.cuda.get_device_name()}, f)


def runtime_arguments(entry):
    """The kernel's integer arguments as child() launched it (--arg NAME=VALUE for `swizzle audit`)."""
    const = entry["constants"]
    if entry["kernel"] == "matmul":
        return {"M": const["BM"], "N": const["BN"], "K": 4 * const["BK"]}
    return {"N_CTX": max(4 * const["BLOCK_N"], const["BLOCK_M"])}


def predicted_per_instruction(swizzle, path, arguments, lowest=None, sass=None):
    """The audit's cp.async lines: wavefronts per LDGSTS weighted by each line's instructions and executions.
    `lowest` (a list), when given, gets the same weighting with every line that says a masked copy has
    measured only its ideal at that ideal: the lower end."""
    flags = [f"--arg={name}={value}" for name, value in arguments.items()] + ([f"--sass={sass}"] if sass else [])
    run = subprocess.run([swizzle, "audit", path, "--json"] + flags, capture_output=True, text=True, timeout=300)
    if run.returncode not in (0, 1):
        raise RuntimeError(f"swizzle audit failed ({run.returncode}): {run.stderr[-2000:]}")
    report = json.loads(run.stdout)
    total = low = weight = 0.0
    lines = []
    for a in report["accesses"]:
        if not str(a.get("instruction", "")).startswith("LDGSTS") or a.get("wavefronts") is None:
            continue
        issued = a["instructions"] * a.get("executions", 1)
        mean = a["issued_wavefronts"] if a.get("issued_wavefronts") is not None else a["wavefronts"]
        masked = "has also measured only its ideal" in a.get("note", "") and a.get("ideal_wavefronts") is not None
        total += mean * issued
        low += (a["ideal_wavefronts"] if masked else mean) * issued
        weight += issued
        ideal = f" (ideal {a['ideal_wavefronts']})" if masked else ""
        lines.append(f"{a['line']}: {a['instruction']} {mean:.3f}{ideal} x {a['instructions']} x {a.get('executions', 1)}")
    if lowest is not None:
        lowest.append(low / weight if weight else None)
    return (total / weight if weight else None), lines


def compare(swizzle, kept, expect_equal="", expect_within=None, sass=False):
    """Exit 1 when a kernel named in EXPECT_EQUAL (comma-separated) differs, or one not named is equal;
    with EXPECT_WITHIN, also when the kernels inside the masked copies' range but below its upper end
    are not exactly those."""
    results = json.load(open(os.path.join(kept, "copy_counters.json")))
    equal, within = [], []
    for name, entry in results["cases"].items():
        m = entry.get("measured") or {}
        if not m.get("ldgsts_instructions"):
            print(f"{name}: not measured")
            continue
        measured = m["ldgsts_wavefronts"] / m["ldgsts_instructions"]
        lowest = []
        predicted, lines = predicted_per_instruction(swizzle, os.path.join(kept, f"{name}.ttgir"), runtime_arguments(entry),
                                                     lowest, os.path.join(kept, f"{name}.sass") if sass else None)
        same = predicted is not None and abs(measured - predicted) < 1e-9
        inside = not same and predicted is not None and lowest[0] - 1e-9 <= measured < predicted
        if same or inside:
            (equal if same else within).append(name)
        verdict = "equal" if same else f"within {lowest[0]:.3f}..{predicted:.3f}" if inside else "differs"
        print(f"{name}: {verdict}: measured {measured:.3f} wavefronts per LDGSTS, audit "
              f"{'-' if predicted is None else f'{predicted:.3f}'} ({'; '.join(lines)})")
    wanted = sorted(n for n in expect_equal.split(",") if n)
    print(f"{len(equal)} of {len(results['cases'])} kernels equal: {', '.join(equal)}; {len(within)} within the masked "
          f"copies' range: {', '.join(within)}")
    ok = not expect_equal or sorted(equal) == wanted
    if expect_within is not None:
        ok = ok and sorted(within) == sorted(n for n in expect_within.split(",") if n)
    return 0 if ok else 1


def compare_modules(swizzle, kept):
    """A kept run of whole kernels (counters.json: modules launched at several sizes, every CTA counted)
    against the audit's price per LDGSTS at each size's M = N = K. Exit 1 when any differs."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = os.path.join(kept, "counters.json")
    if not os.path.isfile(path):
        print(f"error: {path}: no such file (a kept run holds counters.json)", file=sys.stderr)
        return 2
    results = json.load(open(path))
    differ = 0
    for run in results["runs"]:
        c = run["counters"]
        measured = c["sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"] / c["smsp__inst_executed_op_ldgsts.sum"]
        n = run["size"]
        path = os.path.join(root, results["modules"][run["module"]])
        predicted, _ = predicted_per_instruction(swizzle, path, {"M": n, "N": n, "K": n})
        same = predicted is not None and abs(measured - predicted) < 1e-9
        differ += not same
        print(f"{run['module']} at {n}^3: {'equal' if same else 'differs'}: measured {measured:.6f} wavefronts per LDGSTS, "
              f"audit {'-' if predicted is None else f'{predicted:.6f}'}")
    print(f"{len(results['runs']) - differ} of {len(results['runs'])} runs equal")
    return 1 if differ else 0


def main():
    args = sys.argv[1:]
    if args and args[0] == "--compare-modules":
        if len(args) != 3:
            print(__doc__, file=sys.stderr)
            return 2
        return compare_modules(os.path.abspath(args[1]), os.path.abspath(args[2]))
    if args and args[0] == "--child":
        child(args[1], args[2])
        return 0
    if args and args[0] == "--compare":
        sass = "--sass" in args
        args = [a for a in args if a != "--sass"]
        within = None
        if "--within" in args:
            at = args.index("--within")
            if at + 1 >= len(args):
                print("error: --within takes a comma-separated list of kernels", file=sys.stderr)
                return 2
            within = args[at + 1]
            args = args[:at] + args[at + 2:]
        if len(args) < 3:
            print(__doc__, file=sys.stderr)
            return 2
        return compare(os.path.abspath(args[1]), os.path.abspath(args[2]), args[3] if len(args) > 3 else "", within, sass)
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir = os.path.abspath(args[0])
    ncu = args[args.index("--ncu") + 1] if "--ncu" in args else "ncu"
    only = set(args[args.index("--only") + 1].split(",")) if "--only" in args else None
    # ncu flushes the caches before each launch unless told not to ("none": a kernel's first copies may
    # then find their lines in L2, as a kernel launched after its inputs were written does).
    cache = "all"
    if "--cache-control" in args:
        at = args.index("--cache-control") + 1
        cache = args[at] if at < len(args) else ""
    if cache not in ("all", "none"):
        print("error: --cache-control takes all or none", file=sys.stderr)
        return 2
    os.makedirs(out_dir, exist_ok=True)
    results = {"metrics": METRICS, "cache_control": cache, "cases": {}}
    for name, (kernel, dtype, const, warps, stages) in CASES.items():
        if only and name not in only:
            continue
        entry = {"kernel": kernel, "dtype": dtype, "constants": const, "num_warps": warps, "num_stages": stages}
        try:
            entry["measured"] = ncu_counters.measure(ncu, os.path.abspath(__file__), kernel, METRICS, name, out_dir,
                                                     blank_is_nan=True, ncu_flags=["--cache-control", cache])
        except Exception as e:  # one case that fails does not stop the others
            entry["error"] = f"{type(e).__name__}: {str(e)[:2000]}"
        results["cases"][name] = entry
        print(f"{name}: {entry.get('error') or entry['measured']}", flush=True)
    with open(os.path.join(out_dir, "copy_counters.json"), "w") as f:
        json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
