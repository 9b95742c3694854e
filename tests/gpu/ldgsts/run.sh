#!/usr/bin/env bash
# Runs the cp.async probe over a case file on this machine's GPU under Nsight Compute.
#   tests/gpu/ldgsts/run.sh CASES OUTDIR [METRICS]
# METRICS: a comma-separated list; default: every metric whose name holds "ldgsts", read from
# `ncu --query-metrics` (its list is kept in OUTDIR/metrics.txt). Writes OUTDIR/raw.csv (one row
# per launch, in case order), OUTDIR/probe.sass and OUTDIR/device.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cases=${1:?usage: run.sh CASES OUTDIR [METRICS]}
out=${2:?usage: run.sh CASES OUTDIR [METRICS]}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
nvcc -O2 -arch=sm_90 -o "$out/probe" "$here/probe.cu"
cuobjdump -sass "$out/probe" >"$out/probe.sass"
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader >"$out/device.txt"
ncu --query-metrics --chip gh100 >"$out/metrics.txt" 2>&1 || true
metrics=${3:-}
if [ -z "$metrics" ]; then
  metrics=$(awk '{print $1}' "$out/metrics.txt" | grep -i ldgsts | sed 's/$/.sum/' | paste -sd, -)
fi
echo "$metrics" >"$out/metrics-used.txt"
start=$(date +%s)
ncu --metrics "$metrics" --csv --page raw --cache-control all --clock-control base "$out/probe" "$cases" >"$out/raw.csv" 2>"$out/ncu.err"
echo "ncu: $(( $(date +%s) - start )) s for $(wc -l <"$cases") cases" | tee "$out/timing.txt"
