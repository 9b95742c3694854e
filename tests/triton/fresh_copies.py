#!/usr/bin/env python3
"""Triton matmuls not measured before, each LDGSTS counted by Nsight Compute, kept with the kernel's
TTGIR and SASS, so that `swizzle audit --sass` can be checked on copies it was not built from (run on
a machine with a GPU, Triton 3.6, PyTorch and ncu):

  python3 tests/triton/fresh_copies.py OUT_DIR [--ncu PATH] [--only NAME,NAME] [--second | --third]

For each case of CASES (dtype, stages, BM x BN x BK, warps) and each K of its K_TILES x BK, ncu's
source counters of one launch (one CTA, M = BM, N = BN) of the matmul of dump_kernels.py, as
predicated_off.py launches it. Writes OUT_DIR/NAME.ttgir and OUT_DIR/NAME.sass (the compiled kernel,
the same for every K) and OUT_DIR/per-instruction.json: {"kernels": {"NAME_K": [per LDGSTS: sass,
executions, predicated_on_threads, wavefronts, ideal]}}, NAME = DTYPE_STAGES_BM_BN_BK_WARPS, written
after every launch. --second measures the second set (SECOND, at SECOND_K_TILES) instead, --third
the third (THIRD, at K_TILES).
tests/triton/sass_copies.py compares a kept OUT_DIR with the audit.
"""
import datetime
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from source_counters import ldgsts_source_counters  # noqa: E402

# (dtype, stages, BM, BN, BK, warps): 64-byte K slices (fp16 / bf16 at BK 32, fp8 / int8 at BK 64),
# where a copy's ideal and rule 5 differ, and one whole-line control.
CASES = [("bfloat16", 3, 64, 128, 32, 4), ("bfloat16", 4, 128, 64, 32, 4), ("bfloat16", 4, 128, 128, 32, 8),
         ("bfloat16", 5, 64, 64, 32, 4), ("float16", 2, 64, 64, 32, 4), ("float16", 5, 128, 64, 32, 4),
         ("float16", 3, 64, 128, 32, 8), ("float8_e4m3fn", 3, 64, 128, 64, 4), ("float8_e4m3fn", 4, 128, 64, 64, 4),
         ("float8_e4m3fn", 4, 64, 64, 64, 4), ("float8_e4m3fn", 3, 128, 128, 64, 8), ("int8", 3, 64, 64, 64, 4),
         ("int8", 4, 128, 64, 64, 4), ("float16", 3, 64, 64, 64, 4)]
K_TILES = (1, 2, 4)
# The second set, measured after the audit read the first: other tiles and stage counts, odd K.
SECOND = [("bfloat16", 3, 64, 64, 32, 4), ("bfloat16", 3, 128, 128, 32, 4), ("bfloat16", 4, 64, 128, 32, 4),
          ("bfloat16", 3, 128, 64, 32, 8), ("float16", 4, 64, 64, 32, 4), ("float16", 4, 128, 128, 32, 8),
          ("float16", 5, 64, 128, 32, 4), ("float16", 3, 128, 64, 32, 4), ("float8_e4m3fn", 2, 64, 64, 64, 4),
          ("float8_e4m3fn", 4, 128, 128, 64, 4), ("float8_e4m3fn", 4, 64, 128, 64, 8), ("int8", 4, 64, 64, 64, 4),
          ("int8", 3, 128, 128, 64, 8), ("int8", 3, 64, 128, 64, 4)]
SECOND_K_TILES = (1, 3, 5)
# The third: fp32 inputs (tf32 dots: 16-byte A copies, whose K slice is 64 bytes at BK 16, and 4-byte
# B copies) and tiles of 8 warps past 128 x 128.
THIRD = [("float32", 3, 64, 64, 16, 4), ("float32", 3, 128, 128, 16, 4), ("float32", 4, 128, 64, 16, 4),
         ("float32", 3, 64, 128, 32, 4), ("bfloat16", 3, 128, 256, 32, 8), ("float16", 3, 256, 128, 32, 8)]


def name_of(case):
    return "_".join(map(str, case))


def child(name, k_tiles, out_dir):
    """Compiles and launches one case at K = k_tiles x BK; writes its TTGIR and SASS once."""
    import torch
    import triton
    import triton.language as tl
    from dump_kernels import define
    dtype_name, stages, BM, BN, BK, warps = next(c for c in CASES + SECOND + THIRD if name_of(c) == name)
    dtype = getattr(torch, dtype_name)
    K = k_tiles * BK
    if dtype == torch.int8:
        a = torch.randint(-8, 8, (BM, K), device="cuda", dtype=dtype)
        b = torch.randint(-8, 8, (K, BN), device="cuda", dtype=dtype)
    else:
        a = torch.randn(BM, K, device="cuda").to(dtype)
        b = torch.randn(K, BN, device="cuda").to(dtype)
    c = torch.empty(BM, BN, device="cuda", dtype=torch.float16)
    fn = define(tl, triton)["matmul"]
    precision = "tf32" if dtype == torch.float32 else None
    compiled = fn[(1, 1)](a, b, c, BM, BN, K, PRECISION=precision, num_warps=warps, num_stages=stages, BM=BM, BN=BN,
                          BK=BK)
    torch.cuda.synchronize()
    want = (a.float() @ b.float()).half().float()
    print(f"max error {(c.float() - want).abs().max().item()}")
    ttgir = os.path.join(out_dir, f"{name}.ttgir")
    if not os.path.exists(ttgir):
        from triton.tools.disasm import get_sass
        with open(os.path.join(out_dir, f"{name}.sass"), "w") as f:
            f.write(get_sass(compiled.asm["cubin"]))
        with open(ttgir, "w") as f:
            f.write(compiled.asm["ttgir"])


def main():
    args = sys.argv[1:]
    if len(args) == 4 and args[0] == "child":
        child(args[1], int(args[2]), args[3])
        return 0
    if not args or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    out_dir = os.path.abspath(args[0])
    ncu = args[args.index("--ncu") + 1] if "--ncu" in args else "ncu"
    only = set(args[args.index("--only") + 1].split(",")) if "--only" in args else None
    os.makedirs(out_dir, exist_ok=True)
    import torch
    import triton
    result = {"device": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(),
              "triton": triton.__version__,
              "how": "ncu --section SourceCounters --page source --print-source sass on one launch (one CTA, M = BM, "
                     "N = BN, K = k x BK) of the matmul of tests/triton/dump_kernels.py: per LDGSTS of the SASS its "
                     "executions (warp-level), the mean threads predicated on, 'L1 Wavefronts Shared' and its ideal. "
                     "Name: DTYPE_STAGES_BM_BN_BK_WARPS_K.",
              "kernels": {}, "errors": {}}
    second, third = "--second" in args, "--third" in args
    for case in SECOND if second else THIRD if third else CASES:
        name = name_of(case)
        if only and name not in only:
            continue
        for k_tiles in SECOND_K_TILES if second else K_TILES:
            run = f"{name}_{k_tiles * case[4]}"
            try:
                rows, error = ldgsts_source_counters(ncu, "^matmul$", [sys.executable, os.path.abspath(__file__), "child",
                                                                       name, str(k_tiles), out_dir])
                result["kernels"][run] = rows
                result.setdefault("max_error", {})[run] = error
                print(f"{run}: {len(rows)} LDGSTS, max error {error}", flush=True)
            except Exception as e:  # one case that fails does not stop the others
                result["errors"][run] = f"{type(e).__name__}: {str(e)[:1000]}"
                print(f"{run}: {result['errors'][run]}", flush=True)
            with open(os.path.join(out_dir, "per-instruction.json"), "w") as f:
                json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
