#!/usr/bin/env python3
"""`swizzle audit --fix` checked on a GPU: the original and the fixed module of each kernel,
compiled by Triton from their TTGIR, run on the same inputs and compared bit for bit, timed, and
their cp.async counters read (run on a machine with Triton 3.6, PyTorch and a GPU).

  python3 tests/triton/verify_fixes.py OUT_DIR [--size 4096] [--dumps DIR --fixed DIR]
  ncu --csv --metrics smsp__inst_executed_op_ldgsts.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum \\
      python3 tests/triton/verify_fixes.py OUT_DIR --profile > ncu.csv

The pairs are tests/data/ttgir/triton36/<name>.ttgir and tests/data/ttgir/fixed/<name>.ttgir (what
`swizzle audit --fix -o` wrote; tests/triton checks that it still writes the same), or with --dumps
the kernels of `dump_kernels.py DIR --variants` (their launches are in its manifest) and the
modules `--fix` wrote for them in --fixed (kernels without one are skipped). Transposes run at
twice --size. Writes
OUT_DIR/verify.json: per kernel, whether the outputs are identical, the median time of each and the
speedup. With --profile each module is launched once at --size (so a profiler sees two launches
per kernel, original first).
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TTGIR = os.path.join(ROOT, "tests", "data", "ttgir")

# name -> launch of dump_kernels.py: the modules kept in tests/data/ttgir.
KERNELS = {
    "matmul_tf32": {"kind": "matmul", "BM": 64, "BN": 64, "dtype": "float32"},
}
# More modules to run beside the pair, as "--variant NAME=PATH" (e.g. a suggestion's alternative).


def launcher(torch, launch, size):
    """(inputs, run(kernel) -> output, flop count or None) for one launch kind at a size."""
    cuda = "cuda"
    dtype = getattr(torch, launch.get("dtype", "float16"))
    rand = lambda *s: torch.randn(*s, device=cuda).to(dtype)
    torch.manual_seed(0)
    kind = launch["kind"]
    if kind == "matmul":
        a, b = rand(size, size), rand(size, size)
        c = torch.empty(size, size, device=cuda, dtype=torch.float16)
        grid = (size // launch["BM"], size // launch["BN"], 1)
        return (lambda k: k[grid](a, b, c, size, size, size)), c, 2 * size**3
    if kind == "transpose":
        x = rand(size, size)
        y = torch.empty_like(x)
        grid = (size // launch["B"], size // launch["B"], 1)
        return (lambda k: k[grid](x, y, size)), y, None
    if kind == "attention":
        d = launch["D"]
        q, k_, v = rand(size, d), rand(size, d), rand(size, d)
        o = torch.empty_like(q)
        grid = (size // launch["BM"], 1, 1)
        return (lambda k: k[grid](q, k_, v, o, d**-0.5, size)), o, 4 * size * size * d
    if kind == "bmm":
        nb, m, n = launch["shape"]
        a, b = rand(nb, m, n), rand(nb, m, n)
        c = torch.empty(nb, m, n, device=cuda, dtype=torch.float32)
        return (lambda k: k[(1, 1, 1)](a, b, c)), c, None
    raise ValueError(f"unknown launch kind {kind}")


def default_size(launch, size):
    return {"matmul": size, "transpose": 2 * size, "attention": size}.get(launch["kind"], size)


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    out = args[0]
    opt = lambda flag, default=None: args[args.index(flag) + 1] if flag in args else default
    size = int(opt("--size", 4096))
    profile = "--profile" in args
    variants = {}
    for i, a in enumerate(args):
        if a == "--variant":
            name, path = args[i + 1].split("=", 1)
            variants.setdefault(name, []).append(path)
    try:
        import torch
        import triton
        from triton.testing import do_bench
    except ImportError as e:
        print(f"verify_fixes: needs Triton and PyTorch ({e}); nothing run")
        return 0
    os.makedirs(out, exist_ok=True)
    kernels = []  # (name, launch, original, fixed or None)
    if "--dumps" in args:
        dumps, fixed = opt("--dumps"), opt("--fixed")
        with open(os.path.join(dumps, "manifest.json")) as f:
            manifest = json.load(f)
        for entry in manifest["kernels"]:
            if "launch" not in entry:
                continue
            name = entry["name"]
            patched = os.path.join(fixed, name + ".ttgir") if fixed else None
            kernels.append((name, entry["launch"], os.path.join(dumps, name + ".ttgir"),
                            patched if patched and os.path.exists(patched) else None))
    else:
        for name, launch in KERNELS.items():
            kernels.append((name, launch, os.path.join(TTGIR, "triton36", name + ".ttgir"),
                            os.path.join(TTGIR, "fixed", name + ".ttgir")))
    results = []
    for name, launch, original, patched in kernels:
        if patched is None and not variants.get(name):
            continue  # nothing to compare (the audit found nothing to fix)
        n = size if profile else default_size(launch, size)
        run_with, c, flops = launcher(torch, launch, n)
        row = {"kernel": name, "size": n, "launch": launch}
        outputs = {}
        modules = [("original", original)] + ([("fixed", patched)] if patched else [])
        modules += [(os.path.splitext(os.path.basename(p))[0], p) for p in variants.get(name, [])]
        for which, path in modules:
            try:
                k = triton.compile(path)
            except Exception as e:  # Triton refuses the module: that is the finding
                row[which] = {"compiled": False, "error": str(e).splitlines()[-1][:300]}
                continue

            def run(k=k):
                run_with(k)

            c.view(torch.uint8).zero_()
            run()
            torch.cuda.synchronize()
            outputs[which] = c.clone()
            entry = {"compiled": True, "shared_bytes": k.metadata.shared, "num_warps": k.metadata.num_warps}
            if not profile:
                ms = do_bench(run, warmup=50, rep=400)
                entry["ms"] = ms
                if flops:
                    entry["tflops"] = flops / ms / 1e9
                else:
                    entry["gbps"] = 2 * c.numel() * c.element_size() / ms / 1e6
            row[which] = entry
        if "original" in outputs:
            for which, o in outputs.items():
                if which == "original":
                    continue
                row[which]["bitwise_identical"] = bool(torch.equal(outputs["original"].view(torch.uint8),
                                                                   o.view(torch.uint8)))
                if not profile and "ms" in row["original"]:
                    row[which]["speedup"] = row["original"]["ms"] / row[which]["ms"]
        results.append(row)
        print(json.dumps(row), flush=True)
    with open(os.path.join(out, "verify.json" if not profile else "verify_profile.json"), "w") as f:
        json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
