#!/usr/bin/env python3
"""Real Triton kernels for `swizzle audit`: their TTGIR, cubins and a manifest (run on a machine
with Triton 3.6 and a GPU).

  python3 tests/triton/dump_kernels.py OUT_DIR [--one-cta] [--only NAME,NAME] [--variants]

Each kernel of KERNELS is compiled (TRITON_KERNEL_DUMP=1, TRITON_ALWAYS_COMPILE=1) and launched
once, in the order listed. With --one-cta every grid is (1,), so a profiler's counters are per
CTA, e.g.

  ncu --csv --target-processes all -k 'regex:^(matmul|transpose|...)$' \\
      --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,... \\
      python3 tests/triton/dump_kernels.py OUT --one-cta

Writes OUT_DIR/<name>.ttgir and OUT_DIR/<name>.cubin (copied from the dump directory of the
compiled kernel) and OUT_DIR/manifest.json: for each kernel that ran, in launch order (the
profiler's ID), its name, Triton function, grid, warps, stages and shared-memory bytes.
--variants dumps other tile sizes and warp counts of the matmuls (tf32, fp16, fp8), transposes and
attention instead, each with its launch in the manifest (tests/triton/verify_fixes.py --dumps). A kernel
Triton refuses is listed under "failed" with the error; the others still run.
"""
import json
import os
import shutil
import sys
import traceback

KERNEL_FUNCTIONS = ("matmul", "transpose", "softmax", "layer_norm_fwd", "attn_fwd", "small_dot", "bmm", "reduce_axis0",
                    "argmax_axis0", "cumsum_1d", "cumsum_axis0", "permute_3d", "gather_rows", "histogram",
                    "tma_matmul", "sort_rows", "matmul_upcast")


def define(tl, triton):
    """The kernels, defined at first use (Triton is imported only on the GPU machine)."""
    k = {}

    @triton.jit
    def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
               PRECISION: tl.constexpr = None):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
            b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
            acc += tl.dot(a, b, input_precision=PRECISION)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))
    k["matmul"] = matmul

    @triton.jit
    def matmul_upcast(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        # fp16 activations times fp8 weights, upcast in registers before the dot.
        rm = tl.arange(0, BM)
        rn = tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
            b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
            acc += tl.dot(a, b.to(tl.float16))
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))
    k["matmul_upcast"] = matmul_upcast

    @triton.jit
    def tma_matmul(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        # Host-side tensor descriptors: TMA loads into shared memory, a TMA store of the tile.
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        for k in range(0, K, BK):
            a = a_desc.load([0, k])
            b = b_desc.load([k, 0])
            acc = tl.dot(a, b, acc)
        c_desc.store([0, 0], acc.to(tl.float16))
    k["tma_matmul"] = tma_matmul

    @triton.jit
    def transpose(x_ptr, y_ptr, N, B: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * B + tl.arange(0, B)
        rn = pid_n * B + tl.arange(0, B)
        x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
        tl.store(y_ptr + rn[:, None] * N + rm[None, :], tl.trans(x))
    k["transpose"] = transpose

    @triton.jit
    def softmax(x_ptr, y_ptr, N, B: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, B)
        x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        e = tl.exp(x)
        tl.store(y_ptr + row * N + cols, e / tl.sum(e, axis=0), mask=cols < N)
    k["softmax"] = softmax

    @triton.jit
    def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
        # The Triton tutorial's fused layer norm: one row per program.
        row = tl.program_id(0)
        Y += row * stride
        X += row * stride
        _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
        for off in range(0, N, BLOCK_SIZE):
            cols = off + tl.arange(0, BLOCK_SIZE)
            a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
            _mean += a
        mean = tl.sum(_mean, axis=0) / N
        _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
        for off in range(0, N, BLOCK_SIZE):
            cols = off + tl.arange(0, BLOCK_SIZE)
            x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
            x = tl.where(cols < N, x - mean, 0.)
            _var += x * x
        var = tl.sum(_var, axis=0) / N
        rstd = 1 / tl.sqrt(var + eps)
        tl.store(Mean + row, mean)
        tl.store(Rstd + row, rstd)
        for off in range(0, N, BLOCK_SIZE):
            cols = off + tl.arange(0, BLOCK_SIZE)
            mask = cols < N
            w = tl.load(W + cols, mask=mask)
            b = tl.load(B + cols, mask=mask)
            x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
            x_hat = (x - mean) * rstd
            y = x_hat * w + b
            tl.store(Y + cols, y, mask=mask)
    k["layer_norm_fwd"] = layer_norm_fwd

    @triton.jit
    def attn_fwd(Q, K, V, O, sm_scale, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
        # Flash attention forward (one head): QK^T and PV by tl.dot, online softmax in base 2.
        start_m = tl.program_id(0)
        offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = tl.arange(0, BLOCK_N)
        offs_d = tl.arange(0, HEAD_DIM)
        q = tl.load(Q + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
        m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
        l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
        acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
        qk_scale = sm_scale * 1.44269504
        for start_n in range(0, N_CTX, BLOCK_N):
            k = tl.load(K + (start_n + offs_n)[:, None] * HEAD_DIM + offs_d[None, :])
            qk = tl.dot(q, tl.trans(k))
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
            p = tl.math.exp2(qk)
            l_ij = tl.sum(p, 1)
            alpha = tl.math.exp2(m_i - m_ij)
            l_i = l_i * alpha + l_ij
            acc = acc * alpha[:, None]
            v = tl.load(V + (start_n + offs_n)[:, None] * HEAD_DIM + offs_d[None, :])
            acc = tl.dot(p.to(tl.float16), v, acc)
            m_i = m_ij
        acc = acc / l_i[:, None]
        tl.store(O + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(tl.float16))
    k["attn_fwd"] = attn_fwd

    @triton.jit
    def small_dot(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, PRECISION: tl.constexpr):
        # One dot of a small tile, no loop (M < 64: mma v2 rather than wgmma).
        rm = tl.arange(0, M)
        rn = tl.arange(0, N)
        rk = tl.arange(0, K)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
        c = tl.dot(a, b, input_precision=PRECISION)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)
    k["small_dot"] = small_dot

    @triton.jit
    def bmm(a_ptr, b_ptr, c_ptr, NB: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
        # A batched dot on 3-D blocks loaded at once.
        rb = tl.arange(0, NB)
        rm = tl.arange(0, M)
        rn = tl.arange(0, N)
        rk = tl.arange(0, K)
        a = tl.load(a_ptr + rb[:, None, None] * M * K + rm[None, :, None] * K + rk[None, None, :])
        b = tl.load(b_ptr + rb[:, None, None] * K * N + rk[None, :, None] * N + rn[None, None, :])
        c = tl.dot(a, b)
        tl.store(c_ptr + rb[:, None, None] * M * N + rm[None, :, None] * N + rn[None, None, :], c)
    k["bmm"] = bmm

    @triton.jit
    def reduce_axis0(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
        r = tl.arange(0, R)
        c = tl.arange(0, C)
        x = tl.load(x_ptr + r[:, None] * C + c[None, :])
        tl.store(y_ptr + c, tl.sum(x, axis=0))
    k["reduce_axis0"] = reduce_axis0

    @triton.jit
    def argmax_axis0(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
        # A reduction of two values (value, index) per element.
        r = tl.arange(0, R)
        c = tl.arange(0, C)
        x = tl.load(x_ptr + r[:, None] * C + c[None, :])
        tl.store(y_ptr + c, tl.argmax(x, axis=0))
    k["argmax_axis0"] = argmax_axis0

    @triton.jit
    def cumsum_1d(x_ptr, y_ptr, B: tl.constexpr):
        i = tl.arange(0, B)
        tl.store(y_ptr + i, tl.cumsum(tl.load(x_ptr + i), axis=0))
    k["cumsum_1d"] = cumsum_1d

    @triton.jit
    def cumsum_axis0(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
        r = tl.arange(0, R)
        c = tl.arange(0, C)
        offs = r[:, None] * C + c[None, :]
        tl.store(y_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), axis=0))
    k["cumsum_axis0"] = cumsum_axis0

    @triton.jit
    def permute_3d(x_ptr, y_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
        # y[c, b, a] = x[a, b, c]
        ra = tl.arange(0, A)
        rb = tl.arange(0, B)
        rc = tl.arange(0, C)
        x = tl.load(x_ptr + ra[:, None, None] * B * C + rb[None, :, None] * C + rc[None, None, :])
        y = tl.permute(x, (2, 1, 0))
        tl.store(y_ptr + rc[:, None, None] * B * A + rb[None, :, None] * A + ra[None, None, :], y)
    k["permute_3d"] = permute_3d

    @triton.jit
    def gather_rows(x_ptr, idx_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
        r = tl.arange(0, R)
        c = tl.arange(0, C)
        offs = r[:, None] * C + c[None, :]
        x = tl.load(x_ptr + offs)
        idx = tl.load(idx_ptr + offs)
        tl.store(y_ptr + offs, tl.gather(x, idx, axis=0))
    k["gather_rows"] = gather_rows

    @triton.jit
    def histogram(x_ptr, y_ptr, B: tl.constexpr, BINS: tl.constexpr):
        x = tl.load(x_ptr + tl.arange(0, B))
        tl.store(y_ptr + tl.arange(0, BINS), tl.histogram(x, BINS))
    k["histogram"] = histogram

    @triton.jit
    def sort_rows(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
        r = tl.arange(0, R)
        c = tl.arange(0, C)
        offs = r[:, None] * C + c[None, :]
        tl.store(y_ptr + offs, tl.sort(tl.load(x_ptr + offs), dim=1))
    k["sort_rows"] = sort_rows
    return k


def plan(torch, triton, K, one_cta):
    """(name, launch) pairs in launch order; launch() returns the compiled kernel."""
    cuda = "cuda"
    g = lambda full: (1, ) if one_cta else full
    fp8 = torch.float8_e4m3fn
    r = lambda *s, dtype=torch.float16: torch.randn(*s, device=cuda).to(dtype)
    runs = []

    def matmul(name, dtype, BM, BN, BK, warps, stages, precision=None, size=512):
        def go():
            a, b = r(size, size, dtype=dtype), r(size, size, dtype=dtype)
            c = torch.empty(size, size, device=cuda, dtype=torch.float16)
            return K["matmul"][g((size // BM, size // BN))](a, b, c, size, size, size, BM=BM, BN=BN, BK=BK,
                                                           PRECISION=precision, num_warps=warps, num_stages=stages)
        runs.append((name, go))

    # The first five as before (tests/data/ttgir/triton36 kept their names).
    matmul("matmul_fp16", torch.float16, 128, 128, 64, 8, 3)
    for dtype, tag in ((torch.float32, "fp32"), (torch.float16, "fp16"), (fp8, "fp8")):
        def go(dtype=dtype):
            x = r(1024, 1024, dtype=dtype)
            return K["transpose"][g((16, 16))](x, torch.empty_like(x), 1024, B=64, num_warps=4)
        runs.append((f"transpose_{tag}", go))

    def softmax():
        x = r(256, 1000, dtype=torch.float32)
        return K["softmax"][g((256, ))](x, torch.empty_like(x), 1000, B=1024, num_warps=4)
    runs.append(("softmax", softmax))

    def layer_norm():
        M, N = 256, 4096
        x, w, b = r(M, N), r(N), r(N)
        y = torch.empty_like(x)
        mean = torch.empty(M, device=cuda, dtype=torch.float32)
        rstd = torch.empty_like(mean)
        BLOCK = min(65536 // x.element_size(), triton.next_power_of_2(N))
        warps = min(max(BLOCK // 256, 1), 8)
        return K["layer_norm_fwd"][g((M, ))](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5, BLOCK_SIZE=BLOCK,
                                             num_warps=warps)
    runs.append(("layer_norm", layer_norm))

    for name, BM, warps, stages in (("attention_m128", 128, 8, 3), ("attention_m64", 64, 4, 2)):
        def go(BM=BM, warps=warps, stages=stages):
            n_ctx, d = 512, 64
            q, k, v = r(n_ctx, d), r(n_ctx, d), r(n_ctx, d)
            o = torch.empty_like(q)
            return K["attn_fwd"][g((n_ctx // BM, ))](q, k, v, o, d**-0.5, n_ctx, HEAD_DIM=d, BLOCK_M=BM, BLOCK_N=64,
                                                     num_warps=warps, num_stages=stages)
        runs.append((name, go))

    matmul("matmul_fp8", fp8, 128, 128, 128, 8, 3)
    matmul("matmul_fp16_w8s4", torch.float16, 128, 256, 64, 8, 4)
    matmul("matmul_fp16_w4s4", torch.float16, 64, 128, 32, 4, 4)
    matmul("matmul_mma_v2", torch.float16, 32, 32, 32, 4, 3)   # M < 64: mma v2, ldmatrix operands
    matmul("matmul_tf32", torch.float32, 64, 64, 32, 4, 3, precision="tf32")

    for name, M, N, Kd, dtype, precision in (("dot_16x16_fp16", 16, 16, 16, torch.float16, None),
                                             ("dot_32x32_fp32_ieee", 32, 32, 32, torch.float32, "ieee")):
        def go(M=M, N=N, Kd=Kd, dtype=dtype, precision=precision):
            a, b = r(M, Kd, dtype=dtype), r(Kd, N, dtype=dtype)
            c = torch.empty(M, N, device=cuda, dtype=torch.float32)
            return K["small_dot"][(1, )](a, b, c, M, N, Kd, precision, num_warps=4)
        runs.append((name, go))

    def bmm():
        a, b = r(4, 32, 32), r(4, 32, 32)
        c = torch.empty(4, 32, 32, device=cuda, dtype=torch.float32)
        return K["bmm"][(1, )](a, b, c, 4, 32, 32, 32, num_warps=4)
    runs.append(("bmm_3d", bmm))

    def matmul_upcast():
        a, b = r(64, 256), r(256, 128, dtype=fp8)
        c = torch.empty(64, 128, device=cuda, dtype=torch.float16)
        return K["matmul_upcast"][(1, )](a, b, c, 64, 128, 256, BM=64, BN=128, BK=64, num_warps=4, num_stages=3)
    runs.append(("matmul_upcast_fp8", matmul_upcast))

    def tma():
        from triton.tools.tensor_descriptor import TensorDescriptor
        BM, BN, BK, size = 128, 128, 64, 512
        a, b = r(BM, size), r(size, BN)
        c = torch.empty(BM, BN, device=cuda, dtype=torch.float16)
        return K["tma_matmul"][(1, )](TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BK, BN]),
                                      TensorDescriptor.from_tensor(c, [BM, BN]), size, BM=BM, BN=BN, BK=BK, num_warps=4,
                                      num_stages=3)
    runs.append(("tma_matmul", tma))

    def reduce_axis0():
        x = r(128, 64, dtype=torch.float32)
        return K["reduce_axis0"][(1, )](x, torch.empty(64, device=cuda), 128, 64, num_warps=4)
    runs.append(("reduce_axis0", reduce_axis0))

    def argmax_axis0():
        x = r(64, 128, dtype=torch.float32)
        return K["argmax_axis0"][(1, )](x, torch.empty(128, device=cuda, dtype=torch.int32), 64, 128, num_warps=4)
    runs.append(("argmax_axis0", argmax_axis0))

    def cumsum_1d():
        x = r(1024, dtype=torch.float32)
        return K["cumsum_1d"][(1, )](x, torch.empty_like(x), 1024, num_warps=4)
    runs.append(("cumsum_1d", cumsum_1d))

    def cumsum_axis0():
        x = r(128, 32, dtype=torch.float32)
        return K["cumsum_axis0"][(1, )](x, torch.empty_like(x), 128, 32, num_warps=4)
    runs.append(("cumsum_axis0", cumsum_axis0))

    def permute():
        x = r(8, 16, 32)
        return K["permute_3d"][(1, )](x, torch.empty_like(x), 8, 16, 32, num_warps=4)
    runs.append(("permute_3d", permute))

    def gather():
        x = r(64, 32, dtype=torch.float32)
        idx = torch.randint(0, 64, (64, 32), device=cuda, dtype=torch.int32)
        return K["gather_rows"][(1, )](x, idx, torch.empty_like(x), 64, 32, num_warps=4)
    runs.append(("gather_rows", gather))

    def histogram():
        x = torch.randint(0, 64, (1024, ), device=cuda, dtype=torch.int32)
        return K["histogram"][(1, )](x, torch.empty(64, device=cuda, dtype=torch.int32), 1024, 64, num_warps=4)
    runs.append(("histogram", histogram))

    def sort():
        x = r(64, 16, dtype=torch.float32)
        return K["sort_rows"][(1, )](x, torch.empty_like(x), 64, 16, num_warps=4)
    runs.append(("sort_rows", sort))
    return runs


def variants(torch, triton, K):
    """More tile sizes and warp counts of the matmuls, transposes and attention (--variants): the
    audit's fixes are checked on each (tests/triton/verify_fixes.py). Each run records its launch,
    so the verifier can run the module Triton compiled from the TTGIR at another size."""
    cuda = "cuda"
    fp8 = torch.float8_e4m3fn
    r = lambda *s, dtype=torch.float16: torch.randn(*s, device=cuda).to(dtype)
    runs = []
    names = {torch.float32: "fp32", torch.float16: "fp16", fp8: "fp8"}
    for dtype, precision, tiles in (
            (torch.float32, "tf32", ((64, 64, 32, 4, 3), (128, 128, 32, 4, 3), (128, 64, 32, 4, 4),
                                     (64, 128, 32, 8, 3), (128, 128, 32, 8, 3))),
            (torch.float16, None, ((128, 128, 64, 4, 3), (64, 64, 64, 4, 4))),
            (fp8, None, ((128, 128, 128, 4, 3), (64, 128, 128, 4, 4)))):
        for BM, BN, BK, warps, stages in tiles:
            tag = "tf32" if precision else names[dtype]
            name = f"matmul_{tag}_{BM}x{BN}x{BK}_w{warps}s{stages}"
            launch = {"kind": "matmul", "BM": BM, "BN": BN, "dtype": str(dtype).split(".")[-1]}

            def go(dtype=dtype, BM=BM, BN=BN, BK=BK, warps=warps, stages=stages, precision=precision):
                size = 512
                a, b = r(size, size, dtype=dtype), r(size, size, dtype=dtype)
                c = torch.empty(size, size, device=cuda, dtype=torch.float16)
                return K["matmul"][(size // BM, size // BN)](a, b, c, size, size, size, BM=BM, BN=BN, BK=BK,
                                                              PRECISION=precision, num_warps=warps, num_stages=stages)
            runs.append((name, go, launch))
    for dtype in (torch.float32, torch.float16, fp8):
        for B, warps in ((32, 4), (64, 8), (128, 4), (128, 8)):
            name = f"transpose_{names[dtype]}_{B}_w{warps}"
            launch = {"kind": "transpose", "B": B, "dtype": str(dtype).split(".")[-1]}

            def go(dtype=dtype, B=B, warps=warps):
                x = r(1024, 1024, dtype=dtype)
                return K["transpose"][(1024 // B, 1024 // B)](x, torch.empty_like(x), 1024, B=B, num_warps=warps)
            runs.append((name, go, launch))
    for BM, BN, warps, stages in ((128, 64, 8, 3), (64, 64, 4, 2), (128, 128, 8, 2), (64, 32, 4, 3)):
        name = f"attention_{BM}x{BN}_w{warps}s{stages}"
        launch = {"kind": "attention", "BM": BM, "D": 64}

        def go(BM=BM, BN=BN, warps=warps, stages=stages):
            n_ctx, d = 512, 64
            q, k, v = r(n_ctx, d), r(n_ctx, d), r(n_ctx, d)
            return K["attn_fwd"][(n_ctx // BM, )](q, k, v, torch.empty_like(q), d**-0.5, n_ctx, HEAD_DIM=d, BLOCK_M=BM,
                                                  BLOCK_N=BN, num_warps=warps, num_stages=stages)
        runs.append((name, go, launch))

    def bmm():
        a, b = r(4, 32, 32), r(4, 32, 32)
        c = torch.empty(4, 32, 32, device=cuda, dtype=torch.float32)
        return K["bmm"][(1, )](a, b, c, 4, 32, 32, 32, num_warps=4)
    runs.append(("bmm_3d", bmm, {"kind": "bmm", "shape": [4, 32, 32]}))
    return runs


def run(out_dir, one_cta=False, only=None, more=False):
    os.makedirs(out_dir, exist_ok=True)
    dump_dir = os.path.abspath(os.path.join(out_dir, "dump"))
    os.environ["TRITON_KERNEL_DUMP"] = "1"
    os.environ["TRITON_DUMP_DIR"] = dump_dir
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    import torch
    import triton
    import triton.language as tl
    K = define(tl, triton)
    manifest = {"triton": getattr(triton, "__version__", "?"), "torch": torch.__version__,
                "device": torch.cuda.get_device_name(), "one_cta": one_cta, "kernels": [], "failed": []}
    runs = variants(torch, triton, K) if more else [(n, go, None) for n, go in plan(torch, triton, K, one_cta)]
    for name, go, launch in runs:
        if only and name not in only:
            continue
        try:
            compiled = go()
            torch.cuda.synchronize()
        except Exception as e:
            traceback.print_exc()
            manifest["failed"].append({"name": name, "error": f"{type(e).__name__}: {str(e)[:2000]}"})
            continue
        md = compiled.metadata
        entry = {"id": len(manifest["kernels"]), "name": name, "function": md.name, "num_warps": md.num_warps,
                 "num_stages": getattr(md, "num_stages", None), "shared_bytes": getattr(md, "shared", None),
                 "hash": md.hash}
        if launch:
            entry["launch"] = launch
        src = os.path.join(dump_dir, md.hash)
        for ext in ("ttgir", "cubin", "ptx"):
            path = os.path.join(src, f"{md.name}.{ext}")
            if os.path.exists(path):
                shutil.copy(path, os.path.join(out_dir, f"{name}.{ext}"))
            else:  # the cached text (the same module)
                data = compiled.asm.get(ext)
                if data is not None:
                    with open(os.path.join(out_dir, f"{name}.{ext}"), "wb" if isinstance(data, bytes) else "w") as f:
                        f.write(data)
                    entry[f"{ext}_from"] = "asm"
        manifest["kernels"].append(entry)
        print(f"ran {name} ({md.name}, {md.num_warps} warps, {md.shared} bytes of shared memory)", flush=True)
    shutil.rmtree(dump_dir, ignore_errors=True)
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"{len(manifest['kernels'])} kernels ran, {len(manifest['failed'])} failed: "
          f"{', '.join(e['name'] for e in manifest['failed'])}")


if __name__ == "__main__":
    args = sys.argv[1:]
    only = None
    if "--only" in args:
        only = set(args[args.index("--only") + 1].split(","))
    run(args[0] if args and not args[0].startswith("--") else "out", one_cta="--one-cta" in args, only=only,
        more="--variants" in args)
