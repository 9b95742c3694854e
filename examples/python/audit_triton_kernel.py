"""Audit a Triton kernel's shared-memory accesses straight from kernel.asm["ttgir"].

Compiles a small tiled transpose (its tile goes through shared memory: Triton stages the
layout conversion there), a fp16 matmul and a tf32 matmul, then prints each access the audit
finds, its wavefronts, and the suggested layout where one beats it. The tf32 matmul's B tile is
copied with conflicts: `swizzle.fix` patches its TTGIR, Triton compiles the fixed module, and the
two kernels are run on the same inputs (bit for bit) and timed.

    PYTHONPATH=build/python python3 examples/python/audit_triton_kernel.py

Needs Triton, PyTorch and a GPU; elsewhere it prints one line saying why and exits 0.
"""
import os
import sys
import tempfile

try:
    import torch
    import triton
    import triton.language as tl
    import triton.testing
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


@triton.jit
def matmul_tf32_kernel(a_ptr, b_ptr, c_ptr, n, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, n, BK):
        a = tl.load(a_ptr + rm[:, None] * n + (k0 + rk)[None, :])
        b = tl.load(b_ptr + (k0 + rk)[:, None] * n + rn[None, :])
        acc += tl.dot(a, b, input_precision="tf32")
    tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc.to(tl.float16))


def fix_and_compare(kernel, n, bm, bn, bk):
    """swizzle.fix on the compiled kernel's TTGIR; the fixed module compiled, run and timed."""
    original_text = kernel.asm["ttgir"]
    fixed_text = swizzle.fix(original_text, path="matmul_tf32_kernel")
    compiled = []
    with tempfile.TemporaryDirectory() as d:
        for name, text in (("original", original_text), ("fixed", fixed_text)):
            path = os.path.join(d, name + ".ttgir")
            with open(path, "w") as f:
                f.write(text)
            compiled.append(triton.compile(path))  # both from TTGIR: the same launch signature
    a = torch.randn((n, n), device="cuda", dtype=torch.float32)
    b = torch.randn((n, n), device="cuda", dtype=torch.float32)
    grid = (n // bm, n // bn, 1)
    outputs, times = [], []
    for k in compiled:
        c = torch.empty((n, n), device="cuda", dtype=torch.float16)
        run = lambda k=k, c=c: k[grid](a, b, c, n)  # noqa: E731
        run()
        torch.cuda.synchronize()
        outputs.append(c)
        times.append(triton.testing.do_bench(run))
    same = torch.equal(outputs[0].view(torch.int16), outputs[1].view(torch.int16))
    flops = 2 * n ** 3
    print(f"   fixed module: outputs {'bitwise identical' if same else 'DIFFER'}; "
          f"{times[0]:.3f} ms -> {times[1]:.3f} ms ({flops / times[0] / 1e9:.1f} -> {flops / times[1] / 1e9:.1f} TFLOP/s, "
          f"{times[0] / times[1]:.2f}x)")
    return same


def report(name, ttgir):
    result = swizzle.audit(ttgir, path=name)
    print(f"== {name}: {len(result['accesses'])} shared-memory accesses")
    for a in result["accesses"]:
        wavefronts = "-" if a["wavefronts"] is None else f"{a['wavefronts']:g} (ideal {a['ideal_wavefronts']})"
        print(f"  line {a['line']:4} {a['op']:<28} {a['instruction']:<14} wavefronts {wavefronts}")
        if a.get("suggestion") is not None:
            s = result["suggestions"][a["suggestion"]]
            change = s["shared_layout"] or s["distributed_layout"]
            what = "shared layout" if s["shared_layout"] else "copy layout"
            print(f"       suggestion ({a['suggestion_wavefronts']:g} wavefronts, {what}): {change['new']}")
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

    n, bm, bn, bk = 4096, 64, 64, 32
    a = torch.randn((n, n), device="cuda", dtype=torch.float32)
    b = torch.randn((n, n), device="cuda", dtype=torch.float32)
    c = torch.empty((n, n), device="cuda", dtype=torch.float16)
    kernel = matmul_tf32_kernel[(n // bm, n // bn)](a, b, c, n, BM=bm, BN=bn, BK=bk, num_warps=4, num_stages=3)
    result = report("matmul_tf32_kernel", kernel.asm["ttgir"])
    if any(s["chosen"] for s in result["suggestions"]):
        fix_and_compare(kernel, n, bm, bn, bk)
    print(f"triton {triton.__version__}, {torch.cuda.get_device_name()}")


if __name__ == "__main__":
    main()
