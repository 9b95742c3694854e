#!/usr/bin/env bash
# Build the CUDA backend and run the GPU suite in one command, on a machine with a GPU.
#
#   tests/gpu/run_gpu_suite.sh [RESULTS_DIR]
#
# RESULTS_DIR defaults to $OUT when set, else build-gpu-suite/results. It receives
# results.md (the tables for tests/gpu/RESULTS.md), results.json, gtest.log,
# gtest.xml, build.log, the CLI's JSON for the seed example, ncu.txt (Nsight
# Compute's own reading of the same counters, when ncu is installed) and
# header_device.log (the exported headers' tables and functions run in a kernel,
# compared with the host's values; needs nvcc), peers/transpose_peers.{md,json} and
# peers.log (tests/triton/transpose_peers.py: our transposes beside Triton, PyTorch
# and a copy; needs a Python with torch and Triton).
# SWZ_DEPS_PREFIX: an install prefix holding nlohmann_json, fmt, CLI11 and GTest
# for machines without those development packages.
# Exit status: 0 when every test of both binaries passed or skipped, else 1.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-${OUT:-$root/build-gpu-suite/results}}
build=${SWZ_GPU_BUILD_DIR:-$root/build-gpu-suite}
mkdir -p "$out"
. "$root/tests/gpu/build_env.sh"

{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv; } >"$out/build.log" 2>&1 || true
if ! cmake "${args[@]}" >>"$out/build.log" 2>&1 || ! cmake --build "$build" -j "$(nproc)" --target swizzle swz_gpu_tests swz_export_tests >>"$out/build.log" 2>&1; then
  echo "build failed; last lines of $out/build.log:"
  tail -40 "$out/build.log"
  exit 1
fi

SWZ_GPU_RESULTS_DIR="$out" "$build/tests/gpu/swz_gpu_tests" --gtest_output=xml:"$out/gtest.xml" >"$out/gtest.log" 2>&1
rc=$?
# The exported header in device code: every table and function in a kernel against the host
# (nvcc builds it); here a GPU must be present, so "no device" fails instead of skipping.
SWZ_EXPORT_REQUIRE_GPU=1 "$build/tests/export/swz_export_tests" --gtest_filter='HeaderDevice.*' >"$out/header_device.log" 2>&1 || rc=1
"$build/app/cli/swizzle" gpu --preset transpose16x32 --mask 2,4,8,16 --json >"$out/cli_transpose16x32.json" 2>&1
echo "swizzle gpu exit status: $?" >>"$out/cli_transpose16x32.json"

# Nsight Compute's own reading of the seed's read (XOR m: 2 wavefronts per LDS), next to ours.
if command -v ncu >/dev/null; then
  ncu --kernel-name swz_check --launch-count 1 \
      --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_ld.sum \
      "$build/app/cli/swizzle" gpu --preset transpose16x32 --mask 1,2,4,8 --no-transpose --repeats 1 --no-counters >"$out/ncu.txt" 2>&1 || true
fi

# The 8192 x 8192 transposes beside Triton's best tiled kernel, PyTorch and a copy, in the same run
# (needs a Python with torch and Triton: SWZ_PYTHON, else /opt/torch/.venv/bin/python3, else python3).
python=${SWZ_PYTHON:-}
[ -z "$python" ] && [ -x /opt/torch/.venv/bin/python3 ] && python=/opt/torch/.venv/bin/python3
python=${python:-python3}
if "$python" -c "import torch, triton" >/dev/null 2>&1; then
  "$python" "$root/tests/triton/transpose_peers.py" --swizzle "$build/app/cli/swizzle" "$out/peers" >"$out/peers.log" 2>&1 || rc=1
else
  echo "transpose peers: not run ($python has no torch and Triton)" >"$out/peers.log"
fi

grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran|FAILED TEST" "$out/gtest.log" | tail -15
grep -E "^device: |device matches host|^\[  (PASSED|FAILED|SKIPPED) |FAILED TEST" "$out/header_device.log" | sed 's/^/header device: /'
[ -f "$out/results.md" ] && cat "$out/results.md"
if [ -f "$out/peers/transpose_peers.md" ]; then cat "$out/peers/transpose_peers.md"; else cat "$out/peers.log"; fi
exit $rc
