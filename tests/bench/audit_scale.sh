#!/usr/bin/env bash
# audit_scale.sh: the whole `swizzle audit` process on a large MLIR_ENABLE_DUMP-shaped file (not a ctest test).
#
#   tests/bench/audit_scale.sh [path/to/swizzle] [megabytes]     (default: build/app/cli/swizzle, 50)
#
# It writes the file from the real Triton 3.6 dumps in tests/data/ttgir/triton36: each module under an
# "// -----// IR Dump Before <pass> //----- //" header, as MLIR_ENABLE_DUMP prints one per pass, all 26
# kernels again and again until the file holds the megabytes asked for. Then it prints the wall time and
# the maximum resident memory (GNU time) of `swizzle audit FILE` and of `swizzle audit FILE --json`, and
# the modules, lines and accesses `--bench` counts.
set -euo pipefail
swizzle=${1:-build/app/cli/swizzle}
megabytes=${2:-50}
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
dump="$dir/dump.mlir"

passes=(TritonGPUCoalesce TritonGPURemoveLayoutConversions TritonGPUOptimizeThreadLocality TritonGPUPipeline
        TritonGPUPrefetch TritonGPUReduceDataDuplication TritonGPUReorderInstructions ConvertTritonGPUToLLVM)
round=0
: > "$dump"
while [ "$(stat -c %s "$dump")" -lt $((megabytes * 1024 * 1024)) ]; do
  for f in "$here"/tests/data/ttgir/triton36/*.ttgir; do
    pass=${passes[$((round % ${#passes[@]}))]}
    printf "// -----// IR Dump Before %s ('builtin.module' operation) //----- //\n" "$pass" >> "$dump"
    cat "$f" >> "$dump"
    printf '\n' >> "$dump"
  done
  round=$((round + 1))
done

counts=$("$swizzle" audit "$dump" --bench 2>&1 >/dev/null | grep '^bench:')
printf 'file: %s MB, %s\n' "$(($(stat -c %s "$dump") / 1024 / 1024))" "${counts#bench: }"
printf '%-22s %-10s %s\n' "command" "seconds" "max RSS MB"
for mode in table json; do
  args=(audit "$dump")
  [ "$mode" = json ] && args+=(--json)
  /usr/bin/time -f '%e %M' -o "$dir/time" "$swizzle" "${args[@]}" > "$dir/out"
  read -r seconds kb < "$dir/time"
  [ "$mode" = json ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$dir/out"  # one valid document
  printf '%-22s %-10s %s\n' "audit${args[2]:+ ${args[2]}}" "$seconds" "$((kb / 1024))"
done
