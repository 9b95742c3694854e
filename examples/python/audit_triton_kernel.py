"""Audit a Triton kernel's shared-memory accesses straight from kernel.asm["ttgir"].

Compiles a small tiled transpose (its tile goes through shared memory: Triton stages the
layout conversion there) and a fp16 matmul, then prints each access the audit finds, its
wavefronts, and the solver's suggested layout where one beats it.

    PYTHONPATH=build/python python3 examples/python/audit_triton_kernel.py

Needs Triton, PyTorch and a GPU; elsewhere it prints one line saying why and exits 0.
"""
import sys

try:
    import torch
    import triton
    import triton.language as tl
except ImportError as e:
    print(f"skipped: Triton and PyTorch are needed ({e})")
    sys.exit(0)
if not torch.cuda.is_available():
    print("skipped: no CUDA GPU visible to PyTorch")
    sys.exit(0)

import swizzle


@triton.jit
def transpose_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    tile = tl.load(x_ptr + rows[:, None] * n + cols[None, :])
    tl.store(y_ptr + cols[:, None] * n + rows[None, :], tl.trans(tile))


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    r = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    c = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    k = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k0 in range(0, n, BLOCK):
        a = tl.load(a_ptr + r[:, None] * n + (k0 + k)[None, :])
        b = tl.load(b_ptr + (k0 + k)[:, None] * n + c[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + r[:, None] * n + c[None, :], acc)


def report(name, ttgir):
    result = swizzle.audit(ttgir, path=name)
    print(f"== {name}: {len(result['accesses'])} shared-memory accesses")
    for a in result["accesses"]:
        wavefronts = "-" if a["wavefronts"] is None else f"{a['wavefronts']:g} (ideal {a['ideal_wavefronts']})"
        print(f"  line {a['line']:4} {a['op']:<28} {a['instruction']:<14} wavefronts {wavefronts}")
        if a.get("suggestion"):
            print(f"       suggestion ({a['suggestion_wavefronts']:g} wavefronts): {a['suggestion']}")
    return result


def main():
    n, block = 256, 64
    x = torch.randn((n, n), device="cuda", dtype=torch.float32)
    y = torch.empty_like(x)
    kernel = transpose_kernel[(n // block, n // block)](x, y, n, BLOCK=block)
    assert torch.equal(y, x.t()), "the transpose kernel is wrong"
    report("transpose_kernel", kernel.asm["ttgir"])

    a = torch.randn((n, n), device="cuda", dtype=torch.float16)
    b = torch.randn((n, n), device="cuda", dtype=torch.float16)
    c = torch.empty((n, n), device="cuda", dtype=torch.float32)
    kernel = matmul_kernel[(n // block, n // block)](a, b, c, n, BLOCK=block)
    report("matmul_kernel", kernel.asm["ttgir"])
    print(f"triton {triton.__version__}, {torch.cuda.get_device_name()}")


if __name__ == "__main__":
    main()
