#!/usr/bin/env python3
"""`swizzle audit --fix` checked on a GPU: the original and the fixed module of each kernel,
compiled by Triton from their TTGIR, run on the same inputs and compared bit for bit, timed, and
their cp.async counters read (run on a machine with Triton 3.6, PyTorch and a GPU).

  python3 tests/triton/verify_fixes.py OUT_DIR [--size 4096]
  ncu --csv --metrics smsp__inst_executed_op_ldgsts.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum \\
      python3 tests/triton/verify_fixes.py OUT_DIR --profile > ncu.csv

The pairs are tests/data/ttgir/triton36/<name>.ttgir and tests/data/ttgir/fixed/<name>.ttgir (what
`swizzle audit --fix -o` wrote; tests/triton checks that it still writes the same). Writes
OUT_DIR/verify.json: per kernel, whether the outputs are identical, the median time of each and the
speedup. With --profile each module is launched once at --size (so a profiler sees two launches
per kernel, original first).
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TTGIR = os.path.join(ROOT, "tests", "data", "ttgir")

# name -> (tile M, tile N, input dtype name): the launches of dump_kernels.py.
KERNELS = {
    "matmul_tf32": (64, 64, "float32"),
}
# More modules to run beside the pair, as "--variant NAME=PATH" (e.g. a suggestion's alternative).


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    out = args[0]
    size = int(args[args.index("--size") + 1]) if "--size" in args else 4096
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
    results = []
    for name, (bm, bn, dtype) in KERNELS.items():
        torch.manual_seed(0)
        a = torch.randn(size, size, device="cuda", dtype=getattr(torch, dtype))
        b = torch.randn(size, size, device="cuda", dtype=getattr(torch, dtype))
        row = {"kernel": name, "size": size}
        outputs = {}
        modules = [("original", os.path.join(TTGIR, "triton36", name + ".ttgir")),
                   ("fixed", os.path.join(TTGIR, "fixed", name + ".ttgir"))]
        modules += [(os.path.splitext(os.path.basename(p))[0], p) for p in variants.get(name, [])]
        for which, path in modules:
            try:
                k = triton.compile(path)
            except Exception as e:  # Triton refuses the module: that is the finding
                row[which] = {"compiled": False, "error": str(e).splitlines()[-1][:300]}
                continue
            c = torch.empty(size, size, device="cuda", dtype=torch.float16)
            grid = (size // bm, size // bn, 1)

            def run(k=k, c=c):
                k[grid](a, b, c, size, size, size)

            run()
            torch.cuda.synchronize()
            outputs[which] = c.clone()
            entry = {"compiled": True, "shared_bytes": k.metadata.shared, "num_warps": k.metadata.num_warps}
            if not profile:
                ms = do_bench(run, warmup=50, rep=400)
                entry["ms"] = ms
                entry["tflops"] = 2 * size ** 3 / ms / 1e9
            row[which] = entry
        if "original" in outputs:
            ref = (a.double() @ b.double()).float()
            row["max_abs_error_vs_fp64"] = {w: float((o.float() - ref).abs().max()) for w, o in outputs.items()}
            for which, o in outputs.items():
                if which == "original":
                    continue
                row[which]["bitwise_identical"] = bool(torch.equal(outputs["original"].view(torch.int16), o.view(torch.int16)))
                if not profile:
                    row[which]["speedup"] = row["original"]["ms"] / row[which]["ms"]
        results.append(row)
        print(json.dumps(row))
    with open(os.path.join(out, "verify.json" if not profile else "verify_profile.json"), "w") as f:
        json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
