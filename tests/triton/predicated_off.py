#!/usr/bin/env python3
"""One launch of the matmul of dump_kernels.py (one CTA, BM x BN) with K given, so that the pipeline's
prologue stages past K are issued with their predicate false (run on a machine with a GPU, Triton 3.6
and PyTorch, under Nsight Compute's source counters):

    ncu --csv -k regex:^matmul$ --section SourceCounters --page source --print-source sass \\
        python3 tests/triton/predicated_off.py DTYPE STAGES BM BN BK WARPS K

What it measured (H200, 2026-11-29): tests/data/triton/copies/h200-20261129-predicated-off."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if len(sys.argv) != 8 or not all(x.isdigit() for x in sys.argv[2:]):
    sys.exit(__doc__)
import torch, triton, triton.language as tl  # noqa: E402 (after the arguments are checked)
from dump_kernels import define  # noqa: E402
dtype = getattr(torch, sys.argv[1])
stages, BM, BN, BK, warps, K = map(int, sys.argv[2:8])
fn = define(tl, triton)["matmul"]
M, N = BM, BN
if dtype == torch.int8:
    a = torch.randint(-8, 8, (M, K), device="cuda", dtype=dtype)
    b = torch.randint(-8, 8, (K, N), device="cuda", dtype=dtype)
else:
    a = torch.randn(M, K, device="cuda").to(dtype)
    b = torch.randn(K, N, device="cuda").to(dtype)
c = torch.empty(M, N, device="cuda", dtype=torch.float16)
fn[(1, 1)](a, b, c, M, N, K, PRECISION=None, num_warps=warps, num_stages=stages, BM=BM, BN=BN, BK=BK)
torch.cuda.synchronize()
print("ok")
