#!/usr/bin/env bash
# Measure a fresh random corpus on this machine's GPU, in one command.
#
#   tests/gpu/run_calibration.sh OUTDIR [CASES] [SEED]
#
# Builds the CLI with the CUDA backend (SWZ_DEPS_PREFIX as in run_gpu_suite.sh),
# then writes OUTDIR/corpus-SEED.jsonl (the measured cases), calibrate-SEED.json
# (the model against them), probe.sass (cuobjdump of the probe kernels) and the
# profiler's list of shared-memory counters when ncu is installed.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: run_calibration.sh OUTDIR [CASES] [SEED]}
cases=${2:-10150}
seed=${3:-$(date +%s)}
build=${SWZ_GPU_BUILD_DIR:-$root/build-gpu-suite}
mkdir -p "$out"
. "$root/tests/gpu/build_env.sh"
if ! cmake "${args[@]}" >"$out/calibration-build.log" 2>&1 || ! cmake --build "$build" -j "$(nproc)" --target swizzle >>"$out/calibration-build.log" 2>&1; then
  echo "build failed; last lines of $out/calibration-build.log:"
  tail -40 "$out/calibration-build.log"
  exit 1
fi
"$build/app/cli/swizzle" calibrate --cases "$cases" --seed "$seed" -o "$out/corpus-$seed.jsonl" --cubin "$out/probe.cubin" --json \
  >"$out/calibrate-$seed.json" 2>"$out/calibrate-$seed.err"
rc=$?
command -v cuobjdump >/dev/null && cuobjdump -sass "$out/probe.cubin" >"$out/probe.sass" 2>&1
command -v ncu >/dev/null && ncu --query-metrics --chip gh100 2>/dev/null | grep -Ei "shared|ldgsts|ldsm|stsm" >"$out/shared-metrics.txt"
python3 - "$out/calibrate-$seed.json" <<'PY' || head -c 2000 "$out/calibrate-$seed.json"
import json, sys
j = json.load(open(sys.argv[1]))
print(f"{j['cases']} cases, {j['agree']} agree; metrics: {j.get('metrics')}")
for k, v in j['by_instruction'].items(): print(f"  {k:16} {v['cases']:6} {v['agree']:6}")
for n in j.get('notes', []): print("note:", n)
PY
cat "$out/calibrate-$seed.err" | tail -5
exit $rc
