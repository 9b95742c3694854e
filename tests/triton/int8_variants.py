#!/usr/bin/env python3
"""Triton's int8 128x128x64 matmul (4 warps, 3 stages), launched once in one of several variants, for
Nsight Compute to count its cp.async (run on a machine with a GPU, Triton 3.6 and PyTorch):

    ncu --target-processes all -k regex:^matmul$ --metrics ... python3 tests/triton/int8_variants.py VARIANT

rand: as copy_counters.py launches it (randint -8..8, M = N = 128, K = 256); zeros, ones: A and B
filled so; a_only_zero: A zeros, B random; k512: K = 512; grid4: M = N = 256 (4 CTAs); offN: A at
byte N of a larger buffer, its pitch still K; S_K_BM_BK_W (five numbers): num_stages S, K, the tile's BM
and BK, W warps (BN 128, one CTA). Prints the largest error against PyTorch's product. What they
measured (H200, 2026-11-29) is in tests/data/triton/copies/h200-20261129-int8-variants (counters.json;
per-instruction.json: the S_K_BM_BK_W variants under ncu's source counters)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if len(sys.argv) != 2:
    sys.exit(__doc__)
variant = sys.argv[1]
KNOWN = ("rand", "zeros", "ones", "a_only_zero", "k512", "grid4")
shape = variant.split("_")
tiled = len(shape) == 5 and all(x.isdigit() for x in shape)
if variant not in KNOWN and not (variant.startswith("off") and variant[3:].isdigit()) and not tiled:
    sys.exit(f"unknown variant {variant!r}: {', '.join(KNOWN)}, offN or S_K_BM_BK_W")
os.environ["TRITON_ALWAYS_COMPILE"] = "1"
import torch, triton, triton.language as tl  # noqa: E402 (after the arguments are checked)
from dump_kernels import define  # noqa: E402
fn = define(tl, triton)["matmul"]
stages, K, BM, BK, warps = map(int, shape) if tiled else (3, 512 if variant == "k512" else 256, 128, 64, 4)
N = 256 if variant == "grid4" else 128
M = N if not tiled else BM
def fill(shape, zero=False):
    if zero or variant == "zeros":
        return torch.zeros(*shape, device="cuda", dtype=torch.int8)
    if variant == "ones":
        return torch.ones(*shape, device="cuda", dtype=torch.int8)
    return torch.randint(-8, 8, shape, device="cuda", dtype=torch.int8)
if variant.startswith("off"):  # A at a byte offset into a larger buffer, its pitch still K
    off = int(variant[3:])
    a = fill((M * K + off + 4096,)).narrow(0, off, M * K).view(M, K)
else:
    a = fill((M, K), zero=variant == "a_only_zero")
b = fill((K, N))
c = torch.empty(M, N, device="cuda", dtype=torch.float16)
grid = (M // BM, N // 128)
compiled = fn[grid](a, b, c, M, N, K, PRECISION=None, num_warps=warps, num_stages=stages, BM=BM, BN=128, BK=BK)
torch.cuda.synchronize()
ref = (a.float() @ b.float())
print(variant, "max err", (c.float() - ref).abs().max().item(), "fn", compiled.metadata.name)
