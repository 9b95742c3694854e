"""Nsight Compute's source counters for every LDGSTS of one launch, for the scripts that measure Triton's
copies on a GPU (edge_masks.py, patched_copies.py)."""
import csv
import io
import re
import subprocess


def ldgsts_source_counters(ncu, kernel_regex, argv, env=None):
    """Runs `ncu --section SourceCounters` on the command `argv` for the kernels matching `kernel_regex`:
    per LDGSTS its address, SASS, warp-level executions, mean threads predicated on, L1 Wavefronts Shared
    and its Ideal; and the largest error the launch printed (`max error X`), or None."""
    cmd = [ncu, "--section", "SourceCounters", "--page", "source", "--print-source", "sass", "--csv",
           "--target-processes", "all", "-k", f"regex:{kernel_regex}"] + list(argv)
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    if run.returncode != 0:
        raise RuntimeError(f"ncu failed ({run.returncode}): {run.stderr[-2000:]}")
    lines = [l for l in run.stdout.splitlines() if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    header_at = next(i for i, r in enumerate(rows) if "Source" in r and "Address" in r)
    header = rows[header_at]
    col = {h: header.index(h) for h in header}
    out = []
    for r in rows[header_at + 1:]:
        if len(r) != len(header) or "LDGSTS" not in r[col["Source"]]:
            continue
        executed = int(r[col["Instructions Executed"]] or 0)
        on = float(r[col["Predicated-On Thread Instructions Executed"]] or 0)
        out.append({"address": r[col["Address"]], "sass": r[col["Source"]].strip(), "executions": executed,
                    "predicated_on_threads": on / executed if executed else 0.0,
                    "wavefronts": int(r[col["L1 Wavefronts Shared"]] or 0),
                    "ideal": int(r[col["L1 Wavefronts Shared Ideal"]] or 0)})
    error = re.search(r"max error (\S+)", run.stdout)
    return out, (float(error.group(1)) if error else None)
