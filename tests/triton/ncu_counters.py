"""Nsight Compute's counters for one case of a measuring script (copy_counters.py, scratch_counters.py):
the script runs itself under ncu as `SCRIPT --child NAME OUT_DIR`, which compiles and launches the case's
kernel, and ncu counts that kernel's launches."""
import csv
import io
import subprocess
import sys


def measure(ncu, script, kernel, metrics, name, out_dir, blank_is_nan=False, ncu_flags=()):
    """Runs SCRIPT's child for case NAME under ncu; returns {key: value} for METRICS ({key: ncu's metric name}),
    each value summed over the launches of KERNEL. blank_is_nan: a value ncu prints as "" or "n/a" counts as
    NaN (without it, such a value is an error). ncu_flags: more of ncu's own options (say
    ["--cache-control", "none"]: the caches are not flushed before the launch)."""
    # Only the case's own kernel: the tensors' fill kernels launched beside it are left out.
    cmd = [ncu, *ncu_flags, "--csv", "--target-processes", "all", "-k", f"regex:^{kernel}$", "--metrics", ",".join(metrics.values()),
           sys.executable, script, "--child", name, out_dir]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        raise RuntimeError(f"ncu failed ({run.returncode}): {run.stderr[-2000:]}")
    lines = [l for l in run.stdout.splitlines() if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    if not rows:
        raise RuntimeError("ncu printed no counters:\n" + run.stdout[-2000:])
    at = {h: i for i, h in enumerate(rows[0])}
    values = {}
    for row in rows[1:]:
        for key, full in metrics.items():
            if row[at["Metric Name"]] == full:
                text = row[at["Metric Value"]].replace(",", "")
                value = float("nan") if blank_is_nan and text in ("", "n/a") else float(text)
                values[key] = values.get(key, 0.0) + value
    return values
