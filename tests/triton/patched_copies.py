#!/usr/bin/env python3
"""Triton's pipelined copies with one thing of their SASS changed: a kernel of dump_kernels.py compiled
once into a Triton cache, its cubin's bytes edited (an LDGSTS's predicate register or stall count, an
ISETP's immediate), and each edited kernel launched from that cache (the edit made, then undone) under
Nsight Compute's source counters (run on a machine with a GPU, Triton 3.6, PyTorch, cuobjdump, ncu):

  python3 tests/triton/patched_copies.py dump OUT_DIR          compile every kernel of KERNELS into
      OUT_DIR/cache, write NAME.cubin, NAME.ttgir and NAME.cuobjdump (its SASS with each instruction's
      encoding)
  python3 tests/triton/patched_copies.py edits OUT_DIR EDITS.json GROUP    (no GPU: a group of EDITS
      below as byte changes of the cubins dump wrote, each checked against its listing)
  python3 tests/triton/patched_copies.py measure OUT_DIR EDITS.json [--ncu PATH]
      every edit of EDITS.json (name, kernel, and per changed instruction its byte offset in the
      cubin, the 16 bytes there and the 16 bytes to write) and each kernel unedited: OUT_DIR/measured.json
      (kept as measured.json for the group "registers", measured-GROUP.json for the others):
      per LDGSTS its executions, predicated-on threads, shared wavefronts and their ideal, and the
      launch's largest error
  python3 tests/triton/patched_copies.py run NAME [K_TILES]    (under ncu: one launch from
      TRITON_CACHE_DIR, one CTA, K = K_TILES x BK, 4 unless given; prints the largest error against
      PyTorch)
  python3 tests/triton/patched_copies.py check SWIZZLE KEPT_DIR    (no GPU: a kept run, and the runs kept
      beside it, against the audit's two ends and the statements of KEPT_DIR/README.md; exit 1 where
      one fails)

An edit keeps the kernel's meaning where it swaps a predicate for another that holds the same value
at that point (both true at K = 4 x BK): the launch's error says whether it did."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from source_counters import ldgsts_source_counters  # noqa: E402

# name -> (dtype, stages, BM, BN, BK, warps): the variants of tests/data/triton/copies/h200-20261129-k64
KERNELS = {
    "bfloat16_4_64_64_32_4": ("bfloat16", 4, 64, 64, 32, 4),
    "float16_4_128_128_32_4": ("float16", 4, 128, 128, 32, 4),
    "float8_e4m3fn_3_64_64_64_4": ("float8_e4m3fn", 3, 64, 64, 64, 4),
}


# Edits by group: name -> (kernel, K in tiles of BK, [(listing addresses, change)]); a change sets an
# LDGSTS's predicate register ("P": 0-6, 7 for PT; "neg": negated, !PT being false), its stall count
# ("stall"), or an ISETP's immediate ("imm"). In "registers", K = 4 x BK and each swap keeps the copy's
# value where the listing sets both registers from K (or, fp8's P3 and P0, from one uniform predicate);
# the launch's error checks it. In "p0-value", the bf16 kernel's P0 (set at 0x510 as K > 32, read by the
# second stage's copies) made false at K = 4 x BK with those copies live through PT, and made true at
# K = 1 x BK with them off through !PT: whether the first stage's copies, reading P1, follow P0's value.
B16, F16, F8 = "bfloat16_4_64_64_32_4", "float16_4_128_128_32_4", "float8_e4m3fn_3_64_64_64_4"
PT = 7
S1_BF16 = [0x6a0, 0x6b0, 0x6d0, 0x6e0]  # the bf16 kernel's second stage: A's copies, then B's
EDITS = {
    "registers": {
        "bf16 stage 0 A: P1 -> P0": (B16, 4, [([0x570, 0x590], {"P": 0})]),
        "bf16 stage 1 A: P0 -> P1": (B16, 4, [([0x6a0, 0x6b0], {"P": 1})]),
        "bf16 stage 2 A: P1 -> P0": (B16, 4, [([0x790, 0x7a0], {"P": 0})]),
        "bf16 stage 0 A: P1 -> PT": (B16, 4, [([0x570, 0x590], {"P": PT})]),
        "bf16 stage 1 A: P0 -> PT": (B16, 4, [([0x6a0, 0x6b0], {"P": PT})]),
        "bf16 stage 0 A: stalls 2, 1 -> 4, 4": (B16, 4, [([0x570, 0x590], {"stall": 4})]),
        "bf16 stage 0 first A copy: P1 -> P0": (B16, 4, [([0x570], {"P": 0})]),
        "fp16 stage 1 A: P1 -> P0": (F16, 4, [([0x9b0, 0x9c0, 0x9d0, 0x9e0], {"P": 0})]),
        "fp16 stage 0 A: P0 -> PT": (F16, 4, [([0x650, 0x690, 0x6d0, 0x710], {"P": PT})]),
        "fp16 stage 1 A: P1 -> PT": (F16, 4, [([0x9b0, 0x9c0, 0x9d0, 0x9e0], {"P": PT})]),
        "bf16 stages 1 and 2 A swapped: P0 -> P1, P1 -> P0": (B16, 4, [([0x6a0, 0x6b0], {"P": 1}), ([0x790, 0x7a0], {"P": 0})]),
        "bf16 stage 1 B: P0 -> P1": (B16, 4, [([0x6d0, 0x6e0], {"P": 1})]),
        "fp16 stage 2 A: P0 -> PT": (F16, 4, [([0xb30, 0xb40, 0xb50, 0xb60], {"P": PT})]),
        "fp8 stage 1 A: P3 -> P0": (F8, 4, [([0x390, 0x3a0], {"P": 0})]),
        "fp8 stage 0 A: P0 -> P3": (F8, 4, [([0x310, 0x320], {"P": 3})]),
    },
    "p0-value": {
        "bf16 K = 1 x BK as compiled": (B16, 1, []),
        "bf16 K = 2 x BK as compiled": (B16, 2, []),
        "bf16 K = 1 x BK, stage 0 A: P1 -> PT": (B16, 1, [([0x570, 0x590], {"P": PT})]),
        "bf16 K = 4 x BK, P0 false, stage 1 on through PT": (B16, 4, [([0x510], {"imm": 0x7FFFFFFF}), (S1_BF16, {"P": PT})]),
        "bf16 K = 4 x BK, P0 false, stage 1 on through PT, stage 0 A: P1 -> PT":
            (B16, 4, [([0x510], {"imm": 0x7FFFFFFF}), (S1_BF16, {"P": PT}), ([0x570, 0x590], {"P": PT})]),
        "bf16 K = 1 x BK, P0 true, stage 1 off through !PT": (B16, 1, [([0x510], {"imm": 0}), (S1_BF16, {"P": PT, "neg": True})]),
        "bf16 K = 4 x BK, stage 1 off through !PT": (B16, 4, [(S1_BF16, {"P": PT, "neg": True})]),
    },
    # The other two kernels' first stage (P0 as compiled) read through PT, alone at K = 1 x BK, not at 2.
    "alone": {
        "fp16 K = 1 x BK as compiled": (F16, 1, []),
        "fp16 K = 1 x BK, stage 0 A: P0 -> PT": (F16, 1, [([0x650, 0x690, 0x6d0, 0x710], {"P": PT})]),
        "fp16 K = 2 x BK, stage 0 A: P0 -> PT": (F16, 2, [([0x650, 0x690, 0x6d0, 0x710], {"P": PT})]),
        "fp8 K = 1 x BK as compiled": (F8, 1, []),
        "fp8 K = 1 x BK, stage 0 A: P0 -> PT": (F8, 1, [([0x310, 0x320], {"P": PT})]),
        "fp8 K = 2 x BK, stage 0 A: P0 -> PT": (F8, 2, [([0x310, 0x320], {"P": PT})]),
    },
}


def listing(path):
    """cuobjdump -sass: address -> (text, low 64 bits, high 64 bits)."""
    lines = open(path).read().splitlines()
    out = {}
    for i, line in enumerate(lines):
        m = re.match(r"\s+/\*([0-9a-f]{4})\*/\s+(.*?)\s*;\s*/\* (0x[0-9a-f]{16}) \*/", line)
        if m:
            high = re.search(r"/\* (0x[0-9a-f]{16}) \*/", lines[i + 1]).group(1)
            out[int(m.group(1), 16)] = (m.group(2), int(m.group(3), 16), int(high, 16))
    return out


def write_edits(out_dir, path, group):
    """EDITS[group] as byte changes, after checking the predicate field against every LDGSTS of each
    listing (predicate at bits 87-89 with its negation at 90; the stall count is at 105-108, an ISETP's
    32-bit immediate at 32-63)."""
    edits = []
    for name, (kernel, k_tiles, groups) in EDITS[group].items():
        code = listing(os.path.join(out_dir, f"{kernel}.cuobjdump"))
        for text, _, high in code.values():
            m = re.search(r"(!?)P([0-6T])$", text.split(",")[-1].strip()) if "LDGSTS" in text else None
            if m and ((high >> 23) & 7 != (7 if m.group(2) == "T" else int(m.group(2))) or
                      (high >> 26) & 1 != (m.group(1) == "!")):
                sys.exit(f"{kernel}: {text}: the predicate field is not at bits 87-90")
        data = open(os.path.join(out_dir, f"{kernel}.cubin"), "rb").read()
        changes = []
        for addresses, change in groups:
            for at in addresses:
                text, low, high = code[at]
                old = struct.pack("<QQ", low, high)
                wants = "ISETP" if "imm" in change else "LDGSTS"
                if not text.startswith(wants) or data.count(old) != 1:
                    sys.exit(f"{kernel}: {at:#x} is not one {wants} of the cubin")
                if "P" in change:
                    high = (high & ~(0xF << 23)) | (change["P"] << 23) | (int(change.get("neg", False)) << 26)
                if "stall" in change:
                    high = (high & ~(0xF << 41)) | (change["stall"] << 41)
                if "imm" in change:
                    low = (low & 0xFFFFFFFF) | (change["imm"] << 32)
                changes.append({"at": hex(at), "sass": text, "offset": data.find(old), "old": old.hex(),
                                "new": struct.pack("<QQ", low, high).hex()})
        edits.append({"name": name, "kernel": kernel, "k_tiles": k_tiles, "changes": changes})
    with open(path, "w") as f:
        json.dump(edits, f, indent=1)


def launch(name, k_tiles=4):
    import torch
    import triton
    import triton.language as tl
    from dump_kernels import define
    dtype, stages, BM, BN, BK, warps = KERNELS[name]
    dt = getattr(torch, dtype)
    M, N, K = BM, BN, k_tiles * BK
    a = torch.randn(M, K, device="cuda").to(dt)
    b = torch.randn(K, N, device="cuda").to(dt)
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    compiled = define(tl, triton)["matmul"][(1, 1)](a, b, c, M, N, K, PRECISION=None, num_warps=warps,
                                                    num_stages=stages, BM=BM, BN=BN, BK=BK)
    torch.cuda.synchronize()
    want = a.float() @ b.float()
    print(f"max error {(c.float() - want).abs().max().item():g}")
    if os.environ.get("SWZ_TTGIR_OUT"):
        with open(os.environ["SWZ_TTGIR_OUT"], "w") as f:
            f.write(compiled.asm["ttgir"])


def cubin_in(cache):
    found = [os.path.join(d, f) for d, _, fs in os.walk(cache) for f in fs if f.endswith(".cubin")]
    if len(found) != 1:
        raise RuntimeError(f"{cache}: {len(found)} cubins, want 1")
    return found[0]


def dump(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for name in KERNELS:
        cache = os.path.join(out_dir, "cache", name)
        env = dict(os.environ, TRITON_CACHE_DIR=cache, SWZ_TTGIR_OUT=os.path.join(out_dir, f"{name}.ttgir"))
        run = subprocess.run([sys.executable, os.path.abspath(__file__), "run", name], env=env, capture_output=True,
                             text=True, timeout=600)
        print(name, run.stdout.strip(), run.stderr[-500:])
        cubin = cubin_in(cache)
        shutil.copy(cubin, os.path.join(out_dir, f"{name}.cubin"))
        with open(os.path.join(out_dir, f"{name}.cuobjdump"), "w") as f:
            f.write(subprocess.run(["cuobjdump", "-sass", cubin], capture_output=True, text=True).stdout)


def source_counters(ncu, name, cache, k_tiles):
    return ldgsts_source_counters(ncu, "^matmul$", [sys.executable, os.path.abspath(__file__), "run", name, str(k_tiles)],
                                  env=dict(os.environ, TRITON_CACHE_DIR=cache))


def measure(out_dir, edits_path, ncu):
    edits = json.load(open(edits_path))
    runs = [{"name": f"{k} as compiled", "kernel": k, "k_tiles": 4, "changes": []} for k in KERNELS] + edits
    results = []
    for e in runs:
        # The cache's index names its files by absolute path, so the edit is made in place and undone.
        cache = os.path.join(out_dir, "cache", e["kernel"])
        path = cubin_in(cache)
        original = open(path, "rb").read()
        data = bytearray(original)
        for ch in e["changes"]:
            at, old, new = ch["offset"], bytes.fromhex(ch["old"]), bytes.fromhex(ch["new"])
            if data[at:at + 16] != old:
                raise RuntimeError(f"{e['name']}: the cubin at {at} is not the instruction the edit names")
            data[at:at + 16] = new
        try:
            open(path, "wb").write(bytes(data))
            copies, error = source_counters(ncu, e["kernel"], cache, e.get("k_tiles", 4))
        finally:
            open(path, "wb").write(original)
        results.append({"name": e["name"], "kernel": e["kernel"], "k_tiles": e.get("k_tiles", 4), "changes": e["changes"],
                        "max_error": error, "ldgsts": copies})
        print(e["name"], error, [c["wavefronts"] // max(1, c["executions"]) for c in copies], flush=True)
    with open(os.path.join(out_dir, "measured.json"), "w") as f:
        json.dump(results, f, indent=1)


def audit_ends(swizzle, path, arguments):
    """The audit's two ends for the kernel's masked 16-byte copies: (ideal, price) of every LDGSTS line whose
    note says such a copy has also measured only its ideal."""
    flags = [f"--arg={k}={v}" for k, v in arguments.items()]
    run = subprocess.run([swizzle, "audit", path, "--json"] + flags, capture_output=True, text=True, timeout=300)
    if run.returncode not in (0, 1):
        raise RuntimeError(f"swizzle audit failed ({run.returncode}): {run.stderr[-2000:]}")
    return {(a["ideal_wavefronts"], a["wavefronts"]) for a in json.loads(run.stdout)["accesses"]
            if str(a.get("instruction", "")).startswith("LDGSTS") and "has also measured only its ideal" in a.get("note", "")}


BYTES = {"bfloat16": 2, "float16": 2, "float8_e4m3fn": 1, "int8": 1}


def copies_per_warp(dtype, rows, BK, warps):
    """16-byte copies per warp in one stage of a rows x BK tile (A's BM x BK, B's BK x BN) over the CTA's lanes."""
    return max(1, rows * BK * BYTES[dtype] // (16 * 32 * warps))


def predicate(sass):
    m = re.search(r",\s*(!?P[0-6T])\s*,", sass)
    return m.group(1) if m else None


def check(swizzle, kept):
    """Every prologue copy (issued once per warp) of every launch counts one of the audit's two ends for its
    kernel; and in the launches whose output is right, a copy that counts above its ideal in some launch
    counts its ideal exactly when its predicate register is P0 (K = 4 x BK: every stage moves data);
    check_p0_value, check_alone and check_earlier_runs."""
    runs = json.load(open(os.path.join(kept, "measured.json")))
    failures, moved, kept_runs = [], {"to P0": 0, "from P0": 0}, 0
    for name, (dtype, stages, BM, BN, BK, warps) in KERNELS.items():
        ends = audit_ends(swizzle, os.path.join(kept, f"{name}.ttgir"), {"M": BM, "N": BN, "K": 4 * BK})
        upper = {price for ideal, price in ends if ideal < price}
        if len(upper) != 1:
            failures.append(f"{name}: the audit's masked copies have upper ends {sorted(upper)}, want one")
            continue
        upper = upper.pop()
        mine = [r for r in runs if r["kernel"] == name]
        right = [r for r in mine if r["max_error"] is not None and r["max_error"] < 0.1]
        kept_runs += len(right)
        for r in mine:
            for i, c in enumerate(r["ldgsts"]):
                if c["executions"] == warps and c["wavefronts"] not in (c["ideal"], upper * warps):
                    failures.append(f"{r['name']}: copy {i} ({c['sass']}) counts {c['wavefronts']}, neither its ideal "
                                    f"{c['ideal']} nor the audit's {upper} x {warps}")
        base = mine[0]["ldgsts"]
        movable = {i for i, c in enumerate(base) if c["executions"] == warps and
                   any(r["ldgsts"][i]["wavefronts"] > r["ldgsts"][i]["ideal"] for r in right)}
        for r in right:
            for i in sorted(movable):
                c = r["ldgsts"][i]
                at_ideal, p0 = c["wavefronts"] == c["ideal"], predicate(c["sass"]) == "P0"
                if at_ideal != p0:
                    failures.append(f"{r['name']}: copy {i} ({c['sass']}) counts {c['wavefronts']} (ideal {c['ideal']})")
                was = predicate(base[i]["sass"]) == "P0"
                if p0 != was:
                    moved["to P0" if p0 else "from P0"] += 1
    print(f"{kept_runs} launches with their output right; edited copies moved to P0: {moved['to P0']}, "
          f"from P0: {moved['from P0']}")
    if not moved["to P0"] or not moved["from P0"]:
        failures.append("the kept run moves no copy both ways")
    failures += check_p0_value(kept)
    failures += check_alone(kept)
    failures += check_earlier_runs(os.path.dirname(os.path.abspath(kept)))
    for f in failures:
        print(f"error: {f}", file=sys.stderr)
    return 1 if failures else 0


def check_p0_value(kept):
    """The "p0-value" launches of the bf16 kernel: its first stage's A copies (read P1, or PT where edited)
    count their ideal exactly when no copy of a later prologue stage moves data, whatever P0 holds; a
    later stage moves data when K reaches it, the second stage's copies also where edited to PT, not
    where edited to !PT. Returns the failures."""
    path = os.path.join(kept, "measured-p0-value.json")
    failures, cheap = [], 0
    runs = [r for r in json.load(open(path)) if r["kernel"] == B16]
    for r in runs:
        copies = r["ldgsts"]  # SASS order: stages 0, 1, 2 (A's two copies, then B's), then the loop
        second = {predicate(c["sass"]) for c in copies[4:8]}
        second_moves = second == {None} or ("P0" in second and r["k_tiles"] > 1)  # PT prints no operand
        later_moves = second_moves or r["k_tiles"] > 2
        for c in copies[:2]:
            if (c["wavefronts"] == c["ideal"]) == later_moves:
                failures.append(f"{path}: {r['name']}: {c['sass']} counts {c['wavefronts']} (ideal {c['ideal']}) with a "
                                f"later stage {'moving' if later_moves else 'not moving'} data")
        cheap += 0 if later_moves else 1
    if not cheap or cheap == len(runs):
        failures.append(f"{path}: the launches do not take both sides")
    print(f"{len(runs)} launches of {B16}: {cheap} with no later stage moving data")
    return failures


def check_alone(kept):
    """The "alone" launches: the fp16 and fp8 kernels' first-stage A copies count their ideal exactly when
    they read P0 or K = 1 x BK (their stage the only one moving data). Returns the failures."""
    path = os.path.join(kept, "measured-alone.json")
    failures, tried = [], {True: 0, False: 0}
    for r in json.load(open(path)):
        dtype, stages, BM, BN, BK, warps = KERNELS[r["kernel"]]
        for c in r["ldgsts"][:copies_per_warp(dtype, BM, BK, warps)]:
            alone, p0 = r.get("k_tiles", 4) == 1, predicate(c["sass"]) == "P0"
            if (c["wavefronts"] == c["ideal"]) != (p0 or alone):
                failures.append(f"{path}: {r['name']}: {c['sass']} counts {c['wavefronts']} (ideal {c['ideal']})")
            if not p0:
                tried[alone] += 1
    print(f"first-stage A copies not reading P0: {tried[True]} alone, {tried[False]} not")
    if not tried[True] or not tried[False]:
        failures.append(f"{path}: the launches do not take both sides")
    return failures


def check_earlier_runs(copies):
    """The two statements on the unedited per-instruction runs kept beside (`copies`: the directory of the
    kept runs): every live prologue copy of A whose K slice is under 128 bytes (its two ends apart)
    counts its ideal exactly when it reads P0 or its stage is the only one moving data. A prologue
    lists each stage's A copies, then B's, before the loop's; some runs list A's alone."""
    launches = []  # (name, dtype, stages, BM, BN, BK, warps, K in tiles, rows)
    d = json.load(open(os.path.join(copies, "h200-20261129-k64", "per-instruction-stages.json")))
    for k, rows in d["variants"].items():
        dtype, *dims = k.rsplit("_", 5)
        launches.append((k, dtype, *map(int, dims), 4, rows))
    d = json.load(open(os.path.join(copies, "h200-20261129-int8-variants", "per-instruction.json")))
    for k, v in d["variants"].items():
        launches.append((k, "int8", v["stages"], v["BM"], 128, v["BK"], v["warps"], v["K"] // v["BK"], v["ldgsts"]))
    d = json.load(open(os.path.join(copies, "h200-20261129-predicated-off", "per-instruction.json")))
    for k, rows in d["kernels"].items():
        dtype, *dims = k.rsplit("_", 6)
        stages, BM, BN, BK, warps, K = map(int, dims)
        launches.append((k, dtype, stages, BM, BN, BK, warps, K // BK, rows))
    failures, held, alone_seen = [], 0, 0
    for name, dtype, stages, BM, BN, BK, warps, tiles, rows in launches:
        width = BYTES[dtype]
        n_a = copies_per_warp(dtype, BM, BK, warps)
        n_b = copies_per_warp(dtype, BN, BK, warps)
        if len(rows) == stages * n_a:
            n_b = 0
        elif len(rows) != stages * (n_a + n_b):
            failures.append(f"{name}: {len(rows)} copies, not {stages} stages of {n_a} + {n_b}")
            continue
        alone = tiles == 1
        for stage in range(min(tiles, stages - 1) if BK * width < 128 else 0):
            for c in rows[stage * (n_a + n_b):stage * (n_a + n_b) + n_a]:
                at_ideal = c["wavefronts"] == 4 * c["executions"]  # a warp's 512 bytes: 4 wavefronts
                if at_ideal != (predicate(c["sass"]) == "P0" or alone):
                    failures.append(f"{name}: stage {stage} {c['sass']}: {c['wavefronts'] / c['executions']:g} per copy")
                held += 1
                alone_seen += alone and predicate(c["sass"]) != "P0"
    print(f"{held} live prologue A copies of {len(launches)} unedited launches ({alone_seen} alone, not reading P0)")
    if not alone_seen:
        failures.append("no copy alone and not reading P0 among the earlier runs")
    # The edge-mask kernels (masks lane by lane) with every lane live: each copy reading P0, prologue or
    # loop, counts its ideal there too.
    p0 = 0
    for d in ("h200-20261129-edge-masks", "h200-20261129-edge-masks-8w"):
        for name, k in json.load(open(os.path.join(copies, d, "edge_masks.json")))["kernels"].items():
            for c in k["cases"]["live"]["ldgsts"]:
                if predicate(c["sass"]) == "P0":
                    p0 += 1
                    if c["wavefronts"] != c["ideal"]:
                        failures.append(f"{d} {name} live: {c['sass']} counts {c['wavefronts']}, its ideal {c['ideal']}")
    print(f"{p0} copies reading P0 in the edge-mask kernels' live launches")
    if not p0:
        failures.append("no copy reads P0 in the edge-mask kernels")
    return failures


def main():
    args = sys.argv[1:]
    if args[:1] == ["run"] and len(args) in (2, 3) and args[1] in KERNELS and (len(args) == 2 or args[2].isdigit()):
        launch(args[1], int(args[2]) if len(args) == 3 else 4)
    elif args[:1] == ["dump"] and len(args) == 2:
        dump(args[1])
    elif args[:1] == ["edits"] and len(args) == 4 and args[3] in EDITS:
        write_edits(args[1], args[2], args[3])
    elif args[:1] == ["check"] and len(args) == 3:
        sys.exit(check(args[1], args[2]))
    elif args[:1] == ["measure"] and len(args) in (3, 5):
        measure(args[1], args[2], args[4] if len(args) == 5 and args[3] == "--ncu" else "ncu")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
