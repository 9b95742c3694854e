#!/usr/bin/env bash
# The audit's fixes on every kernel variant, on a machine with a GPU, Triton 3.6 and PyTorch:
#
#   tests/triton/verify_all_fixes.sh SWIZZLE OUT_DIR [PYTHON]
#
# 1. dump_kernels.py --variants: matmuls (tf32, fp16, fp8), transposes and attention at several
#    tile sizes and warp counts, their TTGIR in OUT_DIR/dumps;
# 2. SWIZZLE audit of each (OUT_DIR/audit/NAME.json) and `audit --fix -o OUT_DIR/fixed/NAME.ttgir`
#    where it has a fix (the exit status and message of the others in OUT_DIR/audit/NAME.fix.txt);
# 3. verify_fixes.py: original and fixed compiled by Triton, run on the same inputs (bitwise
#    comparison) and timed (OUT_DIR/verify/verify.json);
# 4. under ncu (when installed), each pair launched once at 1024: the shared-memory counters of
#    every launch (OUT_DIR/ncu.csv; tests/data/triton/fixes/h100-20261126/tf32_variants.json holds
#    the tf32 ones, the A tile's 16-byte .cg copies taken out at 4 wavefronts each, and
#    AuditCopy.Tf32FixesAtFiveTilesAreWhatTheH100Measured compares them with the audit).
set -uo pipefail
swz=$1
out=$2
py=${3:-python3}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/audit" "$out/fixed"
"$py" "$here/dump_kernels.py" "$out/dumps" --variants >"$out/dump.log" 2>&1 || { tail -20 "$out/dump.log"; exit 1; }
for f in "$out"/dumps/*.ttgir; do
  n=$(basename "$f" .ttgir)
  "$swz" audit "$f" --json >"$out/audit/$n.json" 2>"$out/audit/$n.err"
  "$swz" audit "$f" --fix -o "$out/fixed/$n.ttgir" >"$out/audit/$n.fix.txt" 2>&1
  echo "$n: fix exit $?" >>"$out/audit/fix_status.txt"
done
cp "$out"/fixed/*.ttgir "$out/audit/" 2>/dev/null
"$py" "$here/verify_fixes.py" "$out/verify" --dumps "$out/dumps" --fixed "$out/fixed" >"$out/verify.log" 2>&1
if command -v ncu >/dev/null; then
  ncu --csv --metrics smsp__inst_executed_op_ldgsts.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__inst_executed_op_ldsm.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum \
      "$py" "$here/verify_fixes.py" "$out/verify_profile" --dumps "$out/dumps" --fixed "$out/fixed" --profile --size 1024 \
      >"$out/ncu.csv" 2>"$out/ncu.err"
fi
exit 0
