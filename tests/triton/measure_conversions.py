#!/usr/bin/env python3
"""What Triton 3.6 does with a convert_layout through shared memory, measured.

For every case below (Triton's own optimal-swizzling test problems that run on
an NVIDIA GPU, transposes and mma/dot-operand <-> blocked conversions at
8/16/32 bits with 4 and 8 warps) this builds a Gluon kernel of one CTA:

    x = load(tile, SRC)        global -> registers
    y = convert_layout(x, DST) the only shared-memory traffic
    store(tile, y)             registers -> global

and records the source and destination linear layouts (gluon's
to_linear_layout), the TTGIR, and the shared-memory instructions of the SASS.
Run it under Nsight Compute to add the counters (one launch per case, in order):

  ncu --csv --metrics <see METRICS> python3 tests/triton/measure_conversions.py OUT
  python3 tests/triton/measure_conversions.py OUT --merge ncu.csv

OUT/cases.json: {"triton": version, "device": name, "cases": [...]}.
"""
import inspect
import json
import os
import re
import subprocess
import sys

METRICS = [
    "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_ldsm.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
]


def cases(gl, make):
    B = gl.BlockedLayout
    L = getattr(gl, "DistributedLinearLayout")
    MMA = gl.NVMMADistributedLayout
    DOT = gl.DotOperandLayout
    out = []

    def add(name, shape, bits, warps, src, dst, origin):
        out.append({"name": name, "shape": shape, "bits": bits, "warps": warps, "src": src, "dst": dst, "origin": origin})

    def linear(reg, lane, warp, shape):
        return make(L, reg_bases=reg, lane_bases=lane, warp_bases=warp, block_bases=[], shape=shape)

    # Triton's SwizzleTest problems that fit a 32-lane NVIDIA warp (the 4-bit one has no Gluon dtype).
    m = linear([[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0]], [[0, 16], [0, 32], [0, 64], [4, 0], [8, 0]],
               [[16, 0], [32, 0], [64, 0]], [128, 128])
    mt = linear([[1, 0], [2, 0], [4, 0], [8, 0], [0, 1], [0, 2]], [[16, 0], [32, 0], [64, 0], [0, 4], [0, 8]],
                [[0, 16], [0, 32], [0, 64]], [128, 128])
    add("triton_128x128_fp8_transpose", [128, 128], 8, 8, m, mt, "Triton SwizzleTest.Test128x128Float8Transpose")
    add("triton_16x16_bf16_blocked_mma", [16, 16], 16, 1,
        linear([[0, 1], [0, 2], [0, 4]], [[0, 8], [1, 0], [2, 0], [4, 0], [8, 0]], [], [16, 16]),
        linear([[0, 1], [8, 0], [0, 8]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [], [16, 16]),
        "Triton SwizzleTest.Test16x16Bf16BlockedMma")
    add("triton_32x16_fp32_transpose", [32, 16], 32, 2,
        linear([[4, 0], [8, 0], [16, 0]], [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]], [[2, 0]], [32, 16]),
        linear([[0, 2], [0, 4], [0, 8]], [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], [[0, 1]], [32, 16]),
        "Triton SwizzleTest.Test32x16F32Transpose")
    add("triton_128x128_fp16_transpose", [128, 128], 16, 16,
        linear([[1, 0], [2, 0], [4, 0], [0, 32], [0, 64]], [[8, 0], [16, 0], [32, 0], [64, 0], [0, 1]],
               [[0, 2], [0, 4], [0, 8], [0, 16]], [128, 128]),
        linear([[0, 1], [0, 2], [0, 4], [32, 0], [64, 0]], [[0, 8], [0, 16], [0, 32], [0, 64], [1, 0]],
               [[2, 0], [4, 0], [8, 0], [16, 0]], [128, 128]),
        "Triton SwizzleTest.Test128x128F16Transpose")

    # Transposes: row-contiguous <-> column-contiguous blocked tiles, 128-bit per thread.
    for bits in (8, 16, 32):
        for warps in (4, 8):
            v = 128 // bits
            t1 = min(32, 128 // v)
            t0 = 32 // t1
            rows = make(B, size_per_thread=[1, v], threads_per_warp=[t0, t1], warps_per_cta=[warps, 1], order=[1, 0])
            cols = make(B, size_per_thread=[v, 1], threads_per_warp=[t1, t0], warps_per_cta=[1, warps], order=[0, 1])
            add(f"transpose_128x128_{bits}b_{warps}w", [128, 128], bits, warps, rows, cols, "transpose")

    # mma v2 accumulators <-> blocked, and blocked -> dot operands (what a matmul's prologue/epilogue converts).
    for bits in (8, 16, 32):
        for warps in (4, 8):
            wpc = [warps // 2, 2]
            mma = make(MMA, version=[2, 0], warps_per_cta=wpc, instr_shape=[16, 8])
            v = 128 // bits
            t1 = min(32, 128 // v)
            blk = make(B, size_per_thread=[1, v], threads_per_warp=[32 // t1, t1], warps_per_cta=[warps, 1], order=[1, 0])
            add(f"mma_to_blocked_128x128_{bits}b_{warps}w", [128, 128], bits, warps, mma, blk, "mma v2 accumulator -> blocked")
            if bits <= 16:
                k_width = 32 // bits
                for op in (0, 1):
                    dot = make(DOT, operand_index=op, parent=mma, k_width=k_width)
                    shape = [128, 64] if op == 0 else [64, 128]
                    t1 = min(32, shape[1] // v)
                    bl = make(B, size_per_thread=[1, v], threads_per_warp=[32 // t1, t1], warps_per_cta=[warps, 1], order=[1, 0])
                    add(f"blocked_to_dot{op}_{shape[0]}x{shape[1]}_{bits}b_{warps}w", shape, bits, warps, bl, dot,
                        f"blocked -> dot operand {'AB'[op]} (kWidth {k_width})")
    return out


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    if "--merge" in sys.argv:
        merge(out_dir, sys.argv[sys.argv.index("--merge") + 1])
        return
    import torch
    import triton
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gluon_setup import gluon_setup
    gluon, gl, builder, make, ctx = gluon_setup()

    @gluon.jit
    def cvt(x_ptr, y_ptr, R: gl.constexpr, C: gl.constexpr, SRC: gl.constexpr, DST: gl.constexpr):
        r = gl.arange(0, R, layout=gl.SliceLayout(1, SRC))
        c = gl.arange(0, C, layout=gl.SliceLayout(0, SRC))
        x = gl.load(x_ptr + r[:, None] * C + c[None, :])
        y = gl.convert_layout(x, DST)
        r2 = gl.arange(0, R, layout=gl.SliceLayout(1, DST))
        c2 = gl.arange(0, C, layout=gl.SliceLayout(0, DST))
        gl.store(y_ptr + r2[:, None] * C + c2[None, :], y)

    dtypes = {8: torch.int8, 16: torch.int16, 32: torch.int32}
    results = []
    for case in cases(gl, make):
        entry = {k: case[k] for k in ("name", "shape", "bits", "warps", "origin")}
        try:
            for side in ("src", "dst"):
                ll = builder.to_linear_layout(case[side]._to_ir(builder), list(case["shape"]))
                entry[side] = {"register": [list(b) for b in ll.reg_bases], "lane": [list(b) for b in ll.lane_bases],
                               "warp": [list(b) for b in ll.warp_bases], "attr": repr(case[side])}
            R, C = case["shape"]
            x = torch.arange(R * C, device="cuda").to(dtypes[case["bits"]])
            y = torch.empty_like(x)
            k = cvt[(1, )](x, y, R, C, case["src"], case["dst"], num_warps=case["warps"])
            torch.cuda.synchronize()
            entry["correct"] = bool(torch.equal(x, y))
            entry["launched"] = True
            ttgir = k.asm["ttgir"]
            entry["ttgir_convert"] = [l.strip() for l in ttgir.splitlines() if "convert_layout" in l or "local_" in l]
            sass = k.asm.get("sass") or ""
            if not sass and "cubin" in k.asm:
                path = os.path.join(out_dir, case["name"] + ".cubin")
                with open(path, "wb") as f:
                    f.write(k.asm["cubin"])
                sass = subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True).stdout
            ops = {}
            for op in re.findall(r"\b((?:STS|LDS|LDSM|STSM)(?:\.[A-Z0-9]+)*)\b", sass):
                ops[op] = ops.get(op, 0) + 1
            entry["sass_shared_ops"] = ops
        except Exception as e:  # a refused case is a fact too
            entry["launched"] = entry.get("launched", False)
            entry["error"] = f"{type(e).__name__}: {str(e)[:400]}"
        results.append(entry)
        print(entry["name"], "ok" if "error" not in entry else entry["error"][:120], flush=True)
    doc = {"triton": triton.__version__, "device": torch.cuda.get_device_name(), "metrics": METRICS, "cases": results}
    with open(os.path.join(out_dir, "cases.json"), "w") as f:
        json.dump(doc, f, indent=1)


def merge(out_dir, csv_path):
    """Adds the counters of launch i (ncu's ID i) to the i-th launched case."""
    import csv
    with open(os.path.join(out_dir, "cases.json")) as f:
        doc = json.load(f)
    rows = {}
    with open(csv_path) as f:
        lines = [l for l in f if l.startswith('"')]
    for row in csv.DictReader(lines):
        if row["Kernel Name"] != "cvt":
            continue  # the framework's own kernels (filling the input) are profiled too
        rows.setdefault(int(row["ID"]), {})[row["Metric Name"]] = float(row["Metric Value"].replace(",", "") or 0)
    launched = [c for c in doc["cases"] if c.get("launched")]
    ids = sorted(rows)
    if len(ids) != len(launched):
        sys.exit(f"{len(ids)} profiled cvt launches for {len(launched)} launched cases")
    for i, c in zip(ids, launched):
        c["counters"] = rows[i]
    with open(os.path.join(out_dir, "cases.json"), "w") as f:
        json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
