#!/usr/bin/env python3
"""Real Triton kernels compiled for GPUs this machine need not have: AMD CDNA3 (gfx942), CDNA4 (gfx950)
and NVIDIA Blackwell (sm_100), as far as TTGIR, for `swizzle audit --gpu`.

  python3 tests/triton/dump_targets.py OUT_DIR [--targets gfx942,gfx950,sm_100,sm_90]

Triton compiles for another target without its GPU (triton.compile with a GPUTarget); nothing is
launched. Writes OUT_DIR/<target>/<name>.ttgir and OUT_DIR/manifest.json: per kernel its target,
function, warps, stages, the arguments' types and constants, and for each failed compile the error.
The kernels are those of dump_kernels.py (same source), at the tilings a user of each GPU picks.
"""
import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dump_kernels import define  # noqa: E402

TARGETS = {
    "gfx942": ("hip", "gfx942", 64),
    "gfx950": ("hip", "gfx950", 64),
    "sm_100": ("cuda", 100, 32),
    "sm_90": ("cuda", 90, 32),
}


def fp8_type(target):
    # gfx942 has the fnuz fp8 formats only; gfx950 and NVIDIA have the OCP e4m3.
    return "fp8e4b8" if target == "gfx942" else "fp8e4nv"


def kernels(target):
    """(name, function, pointer/scalar types by argument, constants, warps, stages)."""
    out = []
    amd = target.startswith("gfx")
    mm_types = [("fp16", "fp16", None), ("bf16", "bf16", None), ("fp8", fp8_type(target), None)]
    if not amd:
        mm_types.append(("tf32", "fp32", "tf32"))
    tiles = ((128, 128, 64, 8, 2), (128, 128, 32, 4, 2), (64, 64, 64, 4, 2), (256, 128, 64, 8, 2))
    for tag, elem, precision in mm_types:
        for BM, BN, BK, warps, stages in tiles:
            if tag == "fp8" and BK < 64:
                continue
            sig = {"a_ptr": "*" + elem, "b_ptr": "*" + elem, "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32"}
            const = {"BM": BM, "BN": BN, "BK": BK, "PRECISION": precision}
            out.append((f"matmul_{tag}_{BM}x{BN}x{BK}_w{warps}s{stages}", "matmul", sig, const, warps, stages))
    for tag, elem in (("fp32", "fp32"), ("fp16", "fp16")):
        for B, warps in ((64, 4), (128, 8)):
            sig = {"x_ptr": "*" + elem, "y_ptr": "*" + elem, "N": "i32"}
            out.append((f"transpose_{tag}_{B}_w{warps}", "transpose", sig, {"B": B}, warps, 1))
    for BM, BN, warps, stages in ((128, 64, 8, 2), (64, 64, 4, 2)):
        sig = {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "O": "*fp16", "sm_scale": "fp32", "N_CTX": "i32"}
        const = {"HEAD_DIM": 64, "BLOCK_M": BM, "BLOCK_N": BN}
        out.append((f"attention_{BM}x{BN}_w{warps}s{stages}", "attn_fwd", sig, const, warps, stages))
    out.append(("reduce_axis0", "reduce_axis0", {"x_ptr": "*fp32", "y_ptr": "*fp32"}, {"R": 128, "C": 64}, 4, 1))
    return out


def compile_one(triton, fn, sig, const, target, warps, stages):
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    full = dict(sig)
    for name in const:
        full[name] = "constexpr"
    ordered = {name: full[name] for name in fn.arg_names if name in full}
    try:
        src = ASTSource(fn, ordered, constexprs={(fn.arg_names.index(k), ): v for k, v in const.items()})
    except Exception:
        src = ASTSource(fn, ordered, constexprs=dict(const))
    options = {"num_warps": warps, "num_stages": stages}
    return triton.compile(src, target=GPUTarget(*TARGETS[target]), options=options)


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    out_dir = argv[0]
    targets = list(TARGETS)
    if len(argv) >= 3 and argv[1] == "--targets":
        targets = argv[2].split(",")
    import triton
    import triton.language as tl
    K = define(tl, triton)
    manifest = {"triton": triton.__version__, "kernels": [], "failed": []}
    for target in targets:
        os.makedirs(os.path.join(out_dir, target), exist_ok=True)
        for name, function, sig, const, warps, stages in kernels(target):
            try:
                compiled = compile_one(triton, K[function], sig, const, target, warps, stages)
            except Exception as e:  # a kernel the target refuses is recorded, the rest still compile
                manifest["failed"].append({"target": target, "name": name, "error": str(e).splitlines()[-1:],
                                           "trace": traceback.format_exc()[-2000:]})
                print(f"FAILED {target}/{name}: {e}", flush=True)
                continue
            with open(os.path.join(out_dir, target, name + ".ttgir"), "w") as f:
                f.write(compiled.asm["ttgir"])
            md = compiled.metadata
            manifest["kernels"].append({
                "target": target, "name": name, "function": function, "num_warps": warps, "num_stages": stages,
                "types": sig, "constants": const, "shared": getattr(md, "shared", None)})
            print(f"ok {target}/{name} shared={getattr(md, 'shared', None)}", flush=True)
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
