#!/usr/bin/env python3
"""Every kept per-LDGSTS run of Triton's pipelined copies (H200) audited with the kernel's SASS
(`swizzle audit --sass`) and compared copy line by copy line with Nsight Compute's counts (no GPU):

  python3 tests/triton/sass_copies.py SWIZZLE COPIES_DIR [OUT_DIR...]

COPIES_DIR is tests/data/triton/copies. The runs: the source counters of h200-20261128/per-instruction
and h200-20261129-k64 (K = 4 x BK), h200-20261129-predicated-off (K = 1 to 3 x BK: later stages
predicated off) and h200-20261130-edited (cubins with one LDGSTS's predicate register changed; the
launches whose output stayed right and whose edits touch LDGSTS alone). Each run's listing is the
kernel's kept SASS where it ran as compiled (its LDGSTS checked against the ones ncu disassembled from
the running cubin), else one written from those ncu LDGSTS (an edited register shows there), in
Triton's asm["sass"] form. For each copy line of the audit (its LDGSTS by `sass_lines`), the measured
wavefronts summed over its LDGSTS against issued_wavefronts x instructions x executions, and the
measured executions against instructions x executions. Then h200-20261130-fresh, -fresh2 and -fresh3
(fresh_copies.py: 34 matmuls not measured before, K = 1 to 5 x BK), the last two measured after the
audit's rule was final; then each OUT_DIR that fresh_copies.py wrote (a run of your own). Exit 1 when
any line differs."""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

DTYPE_TAG = {"float16": "fp16", "bfloat16": "bf16", "float8_e4m3fn": "fp8", "int8": "int8", "float32": "tf32"}


def listing_form(ncu_text):
    """ncu's source page prints an LDGSTS's destination last ("LDGSTS.E.BYPASS.128 desc[UR16][R16.64], P1,
    [R23]") and leaves a PT predicate out; the listing has it first."""
    opcode, _, rest = ncu_text.strip().partition(" ")
    operands = [o.strip() for o in rest.split(", ")]
    if operands and operands[-1].startswith("["):
        operands = [operands[-1]] + operands[:-1]
    return f"{opcode} {', '.join(operands)}"


def listing_ldgsts(path):
    """The LDGSTS of a listing: (line, instruction text without control codes, guard and ';')."""
    out = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if "LDGSTS" not in line:
                continue
            text = line.split(";")[0]
            text = re.sub(r"^\s*(/\*[0-9a-f]+\*/)?\s*([-0-9A-Za-z]+:){4}[-0-9A-Za-z]+\s+", "", text)
            out.append((number, re.sub(r"\s+", " ", re.sub(r"^\s*/\*[0-9a-f]+\*/", "", text)).strip()))
    return out


def audit(swizzle, ttgir, sass, arguments):
    flags = [f"--arg={k}={v}" for k, v in arguments.items()]
    run = subprocess.run([swizzle, "audit", ttgir, "--json", f"--sass={sass}"] + flags, capture_output=True, text=True,
                         timeout=300)
    if run.returncode not in (0, 1):
        raise RuntimeError(f"swizzle audit {os.path.basename(ttgir)} failed ({run.returncode}): {run.stderr.strip()[-500:]}")
    return json.loads(run.stdout)


def compare_run(swizzle, label, ttgir, listing, measured, arguments):
    """One launch: (lines equal, lines, lines priced at an ideal by the SASS, problems)."""
    ldgsts = listing_ldgsts(listing)
    problems = []
    if len(ldgsts) != len(measured):
        return 0, 0, 0, [f"{label}: {len(ldgsts)} LDGSTS in the listing, {len(measured)} measured"]
    for (line, text), m in zip(ldgsts, measured):
        if listing_form(m["sass"]) != text.replace("PT", "").rstrip(", ") and listing_form(m["sass"]) != text:
            problems.append(f"{label}: listing line {line} '{text}' is not the LDGSTS ncu ran, '{m['sass']}'")
    index = {line: i for i, (line, _) in enumerate(ldgsts)}
    report = audit(swizzle, ttgir, listing, arguments)
    equal = lines = at_ideal = 0
    for a in report["accesses"]:
        if not a.get("sass_lines"):
            continue
        lines += 1
        at = [index[n] for n in a["sass_lines"]]
        wavefronts = sum(measured[i]["wavefronts"] for i in at)
        executions = sum(measured[i]["executions"] for i in at)
        mean = a["issued_wavefronts"] if a.get("issued_wavefronts") is not None else a["wavefronts"]
        issued = a["instructions"] * a.get("executions", 1)
        same = executions == issued and abs(wavefronts - mean * issued) < 1e-6
        equal += same
        at_ideal += ": its ideal" in a["note"] or "reading P0 at their ideal" in a["note"]
        if not same:
            problems.append(f"{label}: line {a['line']} measured {wavefronts} wavefronts over {executions} executions, "
                            f"audit {mean:.3f} x {issued} = {mean * issued:.1f}")
    return equal, lines, at_ideal, problems


def name_parts(name):
    """matmul_bf16_64x64x32_w4s4 -> (BM, BN, BK)."""
    BM, BN, BK = map(int, re.search(r"_(\d+)x(\d+)x(\d+)_", name).groups())
    return BM, BN, BK


def fresh_runs(fresh, label):
    """The launches of a directory fresh_copies.py wrote."""
    for name, measured in json.load(open(os.path.join(fresh, "per-instruction.json")))["kernels"].items():
        dtype, stages, BM, BN, BK, warps, K = re.match(r"(.+)_(\d+)_(\d+)_(\d+)_(\d+)_(\d+)_(\d+)$", name).groups()
        kernel = "_".join((dtype, stages, BM, BN, BK, warps))
        yield (f"{label} {name}", os.path.join(fresh, f"{kernel}.ttgir"), os.path.join(fresh, f"{kernel}.sass"), measured,
               {"M": int(BM), "N": int(BN), "K": int(K)})


def runs(root, extra=()):
    """(label, ttgir, listing or None (write one from ncu's), measured LDGSTS, arguments)."""
    kept = os.path.join(root, "h200-20261128")
    for csv_name in sorted(os.listdir(os.path.join(kept, "per-instruction"))):
        name = csv_name[:-4]
        with open(os.path.join(kept, "per-instruction", csv_name)) as f:
            rows = [r for r in csv.DictReader(f) if "LDGSTS" in r["Source"]]
        measured = [{"sass": r["Source"], "executions": int(r["Instructions Executed"]),
                     "wavefronts": int(r["L1 Wavefronts Shared"])} for r in rows]
        BM, BN, BK = name_parts(name)
        yield (f"h200-20261128 {name}", os.path.join(kept, f"{name}.ttgir"), os.path.join(kept, f"{name}.sass"), measured,
               {"M": BM, "N": BN, "K": 4 * BK})
    k64 = os.path.join(root, "h200-20261129-k64")
    for name, measured in json.load(open(os.path.join(k64, "per-instruction.json")))["kernels"].items():
        BM, BN, BK = name_parts(name)
        yield (f"k64 {name}", os.path.join(k64, f"{name}.ttgir"), os.path.join(k64, f"{name}.sass"), measured,
               {"M": BM, "N": BN, "K": 4 * BK})
    off = os.path.join(root, "h200-20261129-predicated-off")
    for name, measured in json.load(open(os.path.join(off, "per-instruction.json")))["kernels"].items():
        dtype, stages, BM, BN, BK, warps, K = re.match(r"(.+)_(\d+)_(\d+)_(\d+)_(\d+)_(\d+)_(\d+)$", name).groups()
        kernel = f"matmul_{DTYPE_TAG[dtype]}_{BM}x{BN}x{BK}_w{warps}s{stages}"
        where = next((d for d in (k64, kept) if os.path.isfile(os.path.join(d, f"{kernel}.ttgir"))), None)
        if where is None:
            yield (f"predicated-off {name}", None, None, measured, None)
            continue
        yield (f"predicated-off {name}", os.path.join(where, f"{kernel}.ttgir"), os.path.join(where, f"{kernel}.sass"),
               measured, {"M": int(BM), "N": int(BN), "K": int(K)})
    for kept_set in ("h200-20261130-fresh", "h200-20261130-fresh2", "h200-20261130-fresh3"):  # fresh_copies.py
        yield from fresh_runs(os.path.join(root, kept_set), kept_set[14:])
    edited = os.path.join(root, "h200-20261130-edited")
    for file in ("measured.json", "measured-p0-value.json", "measured-alone.json"):
        for launch in json.load(open(os.path.join(edited, file))):
            label = f"edited {launch['name']}"
            if launch["max_error"] > 1:
                print(f"{label}: left out: its output is wrong (the edited copy moved no data)")
                continue
            if any(not c["sass"].startswith("LDGSTS") for c in launch["changes"]):
                print(f"{label}: left out: an edit outside the LDGSTS (the module's masks no longer say what ran)")
                continue
            dtype, stages, BM, BN, BK, warps = re.match(r"(.+)_(\d+)_(\d+)_(\d+)_(\d+)_(\d+)$", launch["kernel"]).groups()
            yield (label, os.path.join(edited, f"{launch['kernel']}.ttgir"), None, launch["ldgsts"],
                   {"M": int(BM), "N": int(BN), "K": launch.get("k_tiles", 4) * int(BK)})
    for out_dir in extra:
        yield from fresh_runs(out_dir, os.path.basename(os.path.normpath(out_dir)))


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    swizzle, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    extra = [os.path.abspath(d) for d in sys.argv[3:]]
    for d in extra:
        if not os.path.isfile(os.path.join(d, "per-instruction.json")):
            print(f"error: {d}: no per-instruction.json (a directory fresh_copies.py wrote)", file=sys.stderr)
            return 2
    totals = [0, 0, 0]
    problems, skipped, launches = [], [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for label, ttgir, listing, measured, arguments in runs(root, extra):
            if ttgir is None:
                skipped.append(label)
                print(f"{label}: left out: its kernel's TTGIR is not kept")
                continue
            if listing is None:  # the LDGSTS as they ran, in Triton's listing form
                listing = os.path.join(tmp, "ran.sass")
                with open(listing, "w") as f:
                    f.write("Function:matmul\n" + "".join(f"--:-:-:-:1\t{listing_form(m['sass'])};\n" for m in measured))
            equal, lines, at_ideal, trouble = compare_run(swizzle, label, ttgir, listing, measured, arguments)
            launches += 1
            for i, v in enumerate((equal, lines, at_ideal)):
                totals[i] += v
            problems += trouble
            print(f"{label}: {equal} of {lines} copy lines equal ({at_ideal} priced at their ideal by the SASS)")
    print(f"{totals[0]} of {totals[1]} copy lines of {launches} launches equal to the counters, {totals[2]} of them "
          f"priced at their ideal by their LDGSTS's predicate or their stage alone; {len(skipped)} left out without a TTGIR")
    for p in problems:
        print(f"differs: {p}")
    return 1 if problems or totals[1] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
