#!/usr/bin/env python3
"""Test vectors from Triton itself (run on a machine with Triton 3.6 and a GPU).

For every (attribute, shape) case below this prints what Triton computes:
  distributed layouts: the linear layout from gluon's to_linear_layout;
  shared layouts:      the placement the hardware sees. A small Gluon kernel
                       stores each element's row (then its column) through
                       the shared layout, reinterprets the buffer as flat
                       (1-D SwizzledSharedLayout(1, 1, 1, [0])) and reads it
                       back, so entry i of `rows`/`cols` is the element that
                       lives at element offset i (-1: padding, never written).
It also compiles a few real kernels with TRITON_KERNEL_DUMP=1 and copies
their TTGIR next to the vectors.

  python3 tests/triton/dump_vectors.py OUT_DIR [--no-kernels | --kernels-only]

The measured kernel set is tests/triton/dump_kernels.py (26 kernels, TTGIR, cubins).
--kernels-only runs just the kernels, one CTA each (for a profiler: counters
are then per CTA), e.g.
  ncu --csv --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,... \
      python3 tests/triton/dump_vectors.py OUT --kernels-only

Writes OUT_DIR/vectors.json ({"triton": version, "cases": [...]}) and
OUT_DIR/ttgir/<kernel>.ttgir. Cases Triton refuses are listed with the error.
"""
import inspect
import json
import os
import shutil
import sys
import traceback


def attr_text(layout):
    """The TTGIR text of a layout written from its fields (used where no kernel printed it)."""
    text = attr_text_without_cga(layout)
    cga = getattr(layout, "cga_layout", None)
    if cga and text.endswith("}>"):
        text = text[:-2] + ", CGALayout = [" + ", ".join("[" + ", ".join(map(str, b)) + "]" for b in cga) + "]}>"
    return text


def attr_text_without_cga(layout):
    name = type(layout).__name__
    f = lambda v: "[" + ", ".join(map(str, v)) + "]"
    b = lambda v: "true" if v else "false"
    get = lambda k, d=None: getattr(layout, k, d)
    if name == "BlockedLayout":
        return (f"#ttg.blocked<{{sizePerThread = {f(get('size_per_thread'))}, threadsPerWarp = {f(get('threads_per_warp'))}, "
                f"warpsPerCTA = {f(get('warps_per_cta'))}, order = {f(get('order'))}}}>")
    if name == "SliceLayout":
        return f"#ttg.slice<{{dim = {get('dim')}, parent = {attr_text(get('parent'))}}}>"
    if name == "NVMMADistributedLayout":
        v = get("version")
        return (f"#ttg.nvidia_mma<{{versionMajor = {v[0]}, versionMinor = {v[1]}, warpsPerCTA = {f(get('warps_per_cta'))}, "
                f"instrShape = {f(get('instr_shape'))}}}>")
    if name == "DotOperandLayout":
        return f"#ttg.dot_op<{{opIdx = {get('operand_index')}, parent = {attr_text(get('parent'))}, kWidth = {get('k_width')}}}>"
    if name == "AMDMFMALayout":
        return (f"#ttg.amd_mfma<{{version = {get('version')}, warpsPerCTA = {f(get('warps_per_cta'))}, "
                f"instrShape = {f(get('instr_shape'))}, isTransposed = {b(get('transposed'))}}}>")
    if name == "AMDWMMALayout":
        return (f"#ttg.amd_wmma<{{version = {get('version')}, isTranspose = {b(get('transposed'))}, "
                f"warpsPerCTA = {f(get('warps_per_cta'))}}}>")
    if name == "SwizzledSharedLayout":
        return (f"#ttg.swizzled_shared<{{vec = {get('vec')}, perPhase = {get('per_phase')}, maxPhase = {get('max_phase')}, "
                f"order = {f(get('order'))}}}>")
    if name == "NVMMASharedLayout":
        return (f"#ttg.nvmma_shared<{{swizzlingByteWidth = {get('swizzle_byte_width')}, transposed = {b(get('transposed'))}, "
                f"elementBitWidth = {get('element_bitwidth')}}}>")
    return repr(layout)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "out"
    os.makedirs(out_dir, exist_ok=True)
    dump_dir = os.path.join(out_dir, "dump")
    if "--no-kernels" not in sys.argv:
        os.environ["TRITON_KERNEL_DUMP"] = "1"
        os.environ["TRITON_DUMP_DIR"] = dump_dir
        os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    import torch
    import triton
    if "--kernels-only" in sys.argv:
        kernels(out_dir, dump_dir, torch, triton, one_cta=True)
        return
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gluon_setup import gluon_setup
    gluon, gl, builder, make, ctx = gluon_setup()

    cases = []

    # -- distributed ---------------------------------------------------------
    @gluon.jit
    def show(out_ptr, layout: gl.constexpr, shape: gl.constexpr, order: gl.constexpr):
        # Keeps one tensor in `layout` alive (a store to shared memory) so the TTGIR names its attribute.
        x = gl.full(shape, 0, gl.int32, layout)
        buf = gl.allocate_shared_memory(gl.int32, shape, gl.SwizzledSharedLayout(1, 1, 1, order))
        buf.store(x)

    def ttgir_of(compiled):
        # The module's alias lines and the local_store line: the attribute as Triton prints it.
        text = compiled.asm["ttgir"]
        lines = text.splitlines()
        aliases = [l for l in lines if l.startswith("#")]
        stores = [l.strip() for l in lines if "ttg.local_store" in l]
        return {"aliases": aliases, "store": stores[-1] if stores else ""}

    def dist(layout, shape, note=""):
        entry = {"kind": "distributed", "shape": list(shape), "note": note}
        try:
            ll = builder.to_linear_layout(layout._to_ir(builder), list(shape))
            try:
                warps = 1 << len(ll.warp_bases)
                out = torch.empty(1, dtype=torch.int32, device="cuda")
                compiled = show[(1, )](out, layout, tuple(shape), tuple(reversed(range(len(shape)))), num_warps=warps)
                entry["ttgir"] = ttgir_of(compiled)
            except Exception as e:
                entry["ttgir_error"] = f"{type(e).__name__}: {str(e)[:300]}"
            entry["attr"] = repr(layout)
            entry["attr_text"] = attr_text(layout)
            entry["reg_bases"] = [list(b) for b in ll.reg_bases]
            entry["lane_bases"] = [list(b) for b in ll.lane_bases]
            entry["warp_bases"] = [list(b) for b in ll.warp_bases]
            entry["block_bases"] = [list(b) for b in ll.block_bases]
            entry["ll_shape"] = list(ll.shape)
        except Exception as e:  # keep going: a refused case is a fact too
            entry["error"] = f"{type(e).__name__}: {e}"
        cases.append(entry)

    B = gl.BlockedLayout
    blocked = [
        ([1, 1], [4, 8], [4, 1], [1, 0], [32, 32]),
        ([1, 4], [4, 8], [4, 1], [1, 0], [64, 64]),
        ([1, 8], [8, 4], [4, 1], [1, 0], [128, 64]),
        ([4, 1], [8, 4], [1, 4], [0, 1], [64, 128]),
        ([1, 4], [2, 16], [2, 2], [1, 0], [16, 16]),   # smaller than the layout: broadcast
        ([2, 2], [4, 8], [2, 2], [0, 1], [128, 16]),
        ([1, 1], [32, 1], [1, 4], [0, 1], [32, 256]),
        ([1], [32], [4], [0], [512]),
        ([1, 1, 4], [1, 4, 8], [2, 2, 1], [2, 1, 0], [4, 16, 64]),
        ([1, 16], [16, 2], [8, 1], [1, 0], [256, 128]),
    ]
    blocked_layouts = []
    for spt, tpw, wpc, order, shape in blocked:
        lay = make(B, size_per_thread=spt, threads_per_warp=tpw, warps_per_cta=wpc, order=order)
        blocked_layouts.append((lay, shape))
        dist(lay, shape)
    # Multi-CTA: CGA fields (spelling differs across versions).
    for kw in ({"cga_layout": [[1, 0]]}, {"ctas_per_cga": [2, 1], "cta_split_num": [2, 1], "cta_order": [1, 0]}):
        try:
            params = inspect.signature(B).parameters
            if all(k in params for k in kw):
                dist(B(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0], **kw), [128, 64],
                     "two CTAs")
        except Exception as e:
            cases.append({"kind": "distributed", "error": f"CGA: {e}"})
    for lay, shape in blocked_layouts[:4]:
        for dim in (0, 1):
            sliced_shape = [s for i, s in enumerate(shape) if i != dim]
            dist(gl.SliceLayout(dim, lay), sliced_shape)

    MMA = getattr(gl, "NVMMADistributedLayout", None)
    mmas = []
    if MMA:
        for version, wpc, instr, shape in (
            ([2, 0], [4, 1], [16, 8], [128, 64]),
            ([2, 0], [2, 2], [16, 8], [64, 64]),
            ([2, 0], [1, 4], [16, 8], [32, 128]),
            ([3, 0], [4, 1], [16, 64, 16], [64, 64]),
            ([3, 0], [4, 1], [16, 128, 16], [128, 128]),
            ([3, 0], [8, 1], [16, 256, 16], [128, 256]),
            ([3, 0], [4, 2], [16, 64, 16], [128, 128]),
        ):
            lay = make(MMA, version=version, warps_per_cta=wpc, instr_shape=instr)
            mmas.append((lay, version, shape))
            dist(lay, shape)
        DOT = gl.DotOperandLayout
        for lay, version, shape in mmas:
            for op in (0, 1):
                if version[0] == 3 and op == 1:
                    continue  # wgmma reads B from shared memory
                for k_width in (2, 4, 8):
                    m, n = shape
                    k = 64
                    dshape = [m, k] if op == 0 else [k, n]
                    dist(make(DOT, operand_index=op, parent=lay, k_width=k_width), dshape)
    MFMA = getattr(gl.amd, "AMDMFMALayout", None) if hasattr(gl, "amd") else None
    if MFMA is None:
        try:
            from triton.experimental.gluon.language.amd import AMDMFMALayout as MFMA
        except Exception:
            MFMA = None
    if MFMA:
        for version, instr, transposed, wpc, shape in (
            (3, [32, 32, 8], True, [2, 2], [64, 64]),
            (3, [32, 32, 8], False, [4, 1], [128, 64]),
            (3, [16, 16, 16], True, [2, 2], [64, 64]),
            (4, [16, 16, 32], False, [1, 4], [32, 128]),
            (3, [32, 32, 8], True, [1, 1], [32, 32]),
        ):
            lay = make(MFMA, version=version, instr_shape=instr, transposed=transposed, warps_per_cta=wpc,
                       element_bitwidth=32, tiles_per_warp=[1, 1])
            dist(lay, shape)
            for op in (0, 1):
                dshape = [shape[0], 64] if op == 0 else [64, shape[1]]
                dist(make(gl.DotOperandLayout, operand_index=op, parent=lay, k_width=8), dshape)
    WMMA = None
    try:
        from triton.experimental.gluon.language.amd import AMDWMMALayout as WMMA
    except Exception:
        pass
    if WMMA:
        for version, transposed, wpc, shape in ((1, False, [2, 2], [64, 64]), (2, True, [4, 1], [64, 32]), (2, False, [2, 2], [32, 32])):
            dist(make(WMMA, version=version, transposed=transposed, warps_per_cta=wpc, instr_shape=[16, 16, 16]), shape)

    # -- shared: ask the hardware -------------------------------------------
    dtypes = {8: gl.int8, 16: gl.int16, 32: gl.int32}
    torch_dtypes = {8: torch.int8, 16: torch.int16, 32: torch.int32}

    @gluon.jit
    def probe(out_ptr, R: gl.constexpr, C: gl.constexpr, FLAT: gl.constexpr, layout: gl.constexpr,
              dtype: gl.constexpr, WHICH: gl.constexpr):
        blk: gl.constexpr = gl.BlockedLayout([1, 1], [1, 32], [4, 1], [1, 0])
        flat_blk: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
        flat_shared: gl.constexpr = gl.SwizzledSharedLayout(1, 1, 1, [0])
        r = gl.arange(0, R, layout=gl.SliceLayout(1, blk))
        c = gl.arange(0, C, layout=gl.SliceLayout(0, blk))
        zero = gl.zeros([R, C], gl.int32, layout=blk)
        if WHICH == 0:
            ids = r[:, None] + zero
        else:
            ids = c[None, :] + zero
        buf = gl.allocate_shared_memory(dtype, [FLAT], flat_shared)
        buf.store(gl.full([FLAT], -1, dtype, layout=flat_blk))
        gl.thread_barrier()
        tile = buf._reinterpret(dtype, [R, C], layout)
        tile.store(ids.to(dtype))
        gl.thread_barrier()
        v = buf.load(flat_blk)
        gl.store(out_ptr + gl.arange(0, FLAT, layout=flat_blk), v.to(gl.int32))

    def shared(layout, shape, bits, extent=None, note=""):
        entry = {"kind": "shared", "shape": list(shape), "element_bits": bits, "note": note}
        try:
            entry["attr"] = repr(layout)
            entry["attr_text"] = attr_text(layout)
            n = shape[0] * shape[1]
            flat = 1
            while flat < (extent or n):
                flat *= 2
            got = []
            for which in (0, 1):
                out = torch.empty(flat, dtype=torch.int32, device="cuda")
                compiled = probe[(1, )](out, shape[0], shape[1], flat, layout, dtypes[bits], which, num_warps=4)
                torch.cuda.synchronize()
                entry["ttgir"] = ttgir_of(compiled)
                got.append(out.cpu().tolist())
            mask = (1 << bits) - 1 if bits < 32 else None
            entry["rows"] = got[0] if mask is None else [v if v == -1 else v & mask for v in got[0]]
            entry["cols"] = got[1] if mask is None else [v if v == -1 else v & mask for v in got[1]]
        except Exception as e:
            entry["error"] = f"{type(e).__name__}: {e}"
            traceback.print_exc()
        cases.append(entry)

    SW = gl.SwizzledSharedLayout
    for vec, per_phase, max_phase, order, shape, bits in (
        (1, 1, 1, [1, 0], [32, 32], 32),
        (4, 1, 8, [1, 0], [32, 32], 32),
        (8, 1, 8, [1, 0], [64, 64], 16),
        (8, 2, 4, [1, 0], [64, 64], 16),
        (4, 4, 2, [0, 1], [64, 32], 32),
        (16, 1, 8, [1, 0], [32, 128], 8),
        (2, 1, 4, [1, 0], [16, 32], 32),
        (8, 1, 8, [0, 1], [128, 64], 16),
        (1, 1, 16, [1, 0], [16, 16], 32),
    ):
        shared(SW(vec, per_phase, max_phase, order), shape, bits)
    NV = gl.NVMMASharedLayout
    for swizzle, bits, transposed, shape in (
        (128, 16, False, [64, 64]),
        (128, 16, False, [128, 128]),
        (64, 16, False, [64, 32]),
        (32, 16, False, [32, 16]),
        (128, 8, False, [64, 128]),
        (128, 32, False, [32, 32]),
        (128, 16, True, [64, 64]),
        (64, 32, True, [16, 64]),
        (0, 16, False, [32, 32]),
        (128, 16, False, [256, 64]),
    ):
        shared(make(NV, swizzle_byte_width=swizzle, element_bitwidth=bits, rank=2, transposed=transposed), shape, bits)
    PAD = getattr(gl, "PaddedSharedLayout", None)
    if PAD:
        for pairs, shape, order, bits in (([[32, 4]], [32, 32], [1, 0], 32), ([[64, 8]], [64, 64], [1, 0], 16),
                                         ([[16, 1], [64, 2]], [32, 64], [1, 0], 32), ([[32, 1]], [32, 32], [0, 1], 32)):
            try:
                lay = PAD.with_identity_for(pairs, shape, order)
            except Exception:
                lay = make(PAD, interval_padding_pairs=pairs, order=order, shape=shape)
            n = shape[0] * shape[1]
            extent = n + sum(((n - 1) // iv) * pad for iv, pad in pairs)
            shared(lay, shape, bits, extent=extent)

    version = getattr(triton, "__version__", "?")
    with open(os.path.join(out_dir, "vectors.json"), "w") as f:
        json.dump({"triton": version, "cases": cases}, f, separators=(",", ":"))
    ok = sum(1 for c in cases if "error" not in c)
    print(f"triton {version}: {ok} of {len(cases)} cases answered")
    for c in cases:
        if "error" in c:
            print("refused:", c.get("attr", "?"), c.get("shape"), c["error"][:300])
        elif "ttgir_error" in c:
            print("no ttgir:", c.get("attr", "?"), c.get("shape"), c["ttgir_error"][:200])

    if "--no-kernels" in sys.argv:
        return
    kernels(out_dir, dump_dir, torch, triton)


def kernels(out_dir, dump_dir, torch, triton, one_cta=False):
    import triton.language as tl

    @triton.jit
    def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
            b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
            acc += tl.dot(a, b)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))

    @triton.jit
    def transpose(x_ptr, y_ptr, N, B: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * B + tl.arange(0, B)
        rn = pid_n * B + tl.arange(0, B)
        x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
        tl.store(y_ptr + rn[:, None] * N + rm[None, :], tl.trans(x))

    @triton.jit
    def softmax(x_ptr, y_ptr, N, B: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, B)
        x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        e = tl.exp(x)
        tl.store(y_ptr + row * N + cols, e / tl.sum(e, axis=0), mask=cols < N)

    runs = []
    try:
        a = torch.randn(512, 512, device="cuda", dtype=torch.float16)
        b = torch.randn(512, 512, device="cuda", dtype=torch.float16)
        c = torch.empty(512, 512, device="cuda", dtype=torch.float16)
        matmul[(1, 1) if one_cta else (4, 4)](a, b, c, 512, 512, 512, BM=128, BN=128, BK=64, num_warps=8, num_stages=3)
        runs.append("matmul_fp16")
        for dtype, name in ((torch.float32, "fp32"), (torch.float16, "fp16"), (torch.float8_e4m3fn, "fp8")):
            x = torch.randn(1024, 1024, device="cuda").to(dtype)
            y = torch.empty_like(x)
            transpose[(1, 1) if one_cta else (16, 16)](x, y, 1024, B=64, num_warps=4)
            runs.append(f"transpose_{name}")
        x = torch.randn(256, 1000, device="cuda")
        y = torch.empty_like(x)
        softmax[(1, ) if one_cta else (256, )](x, y, 1000, B=1024, num_warps=4)
        runs.append("softmax")
        torch.cuda.synchronize()
    except Exception:
        traceback.print_exc()
    os.makedirs(os.path.join(out_dir, "ttgir"), exist_ok=True)
    found = 0
    for root, _, files in os.walk(dump_dir):
        for f in files:
            if f.endswith(".ttgir") and not f.startswith(("probe", "show")):
                found += 1
                shutil.copy(os.path.join(root, f), os.path.join(out_dir, "ttgir", f"{os.path.basename(root)[:8]}_{f}"))
    shutil.rmtree(dump_dir, ignore_errors=True)  # only the TTGIR comes back
    print(f"kernels run: {', '.join(runs)}; {found} ttgir files")


if __name__ == "__main__":
    main()
