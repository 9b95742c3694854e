#!/usr/bin/env bash
# audit_scale.sh: the whole `swizzle audit` process on a large MLIR_ENABLE_DUMP-shaped file (not a ctest test).
#
#   tests/bench/audit_scale.sh [path/to/swizzle] [megabytes] [mix|dense]   (default: build/app/cli/swizzle, 50, mix)
#   tests/bench/audit_scale.sh [path/to/swizzle] [accesses] one-buffer      (default accesses: 100000)
#
# It writes the file from the real Triton 3.6 dumps in tests/data/ttgir/triton36: each module under an
# "// -----// IR Dump Before <pass> //----- //" header, as MLIR_ENABLE_DUMP prints one per pass, the
# kernels again and again until the file holds the megabytes asked for.
#   mix    all 26 kernels (softmax, sorts and layer norms too: few shared-memory accesses per line)
#   dense  only the quarter of the kernels with the most shared-memory accesses per line (ranked
#          by what `swizzle audit --bench` counts in each): nearer a dump of matmul or attention
#          kernels. Issue 24's dump had 0.67 accesses per line (435k lines, 290k accesses); no real
#          module here has more than 0.23, so this reaches about 0.09, not that density.
#   one-buffer  one module whose single 32x32 buffer is stored once and read `accesses` - 1 times
#          (transpose_conflict.ttgir's column read, repeated): every access shares the buffer's one
#          suggestion, which lists every op using the buffer. Linear output and memory is the point:
#          before, 10,000 such reads printed 1.7 GB and took 3.4 GB.
# Then it prints the wall time and the maximum resident memory (GNU time) of `swizzle audit FILE`
# and of `swizzle audit FILE --json`, and the modules, lines and accesses `--bench` counts.
set -euo pipefail
swizzle=${1:-build/app/cli/swizzle}
mode=${3:-mix}
megabytes=${2:-$([ "$mode" = one-buffer ] && echo 100000 || echo 50)}
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
dump="$dir/dump.mlir"

# The line `swizzle audit FILE --bench` prints: "bench: 1 module, 267 lines read in ..., 30 accesses audited in ..."
bench_line() { "$swizzle" audit "$1" --bench 2>&1 >/dev/null | grep '^bench:'; }
# That line -> "30 267"
accesses_and_lines() { sed -n 's/^bench: .*, \([0-9]*\) lines read.*, \([0-9]*\) accesses audited.*/\2 \1/p' <<< "$1"; }

kernels=("$here"/tests/data/ttgir/triton36/*.ttgir)
case "$mode" in
  mix) ;;
  one-buffer)
    accesses=$megabytes
    python3 - "$accesses" "$dump" <<'PY'
import sys
accesses, path = int(sys.argv[1]), sys.argv[2]
mem = "!ttg.memdesc<32x32xf32, #shared, #smem, mutable>"
with open(path, "w") as f:
    f.write("#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
            "#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>\n"
            "#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n"
            "#smem = #ttg.shared_memory\n"
            'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {\n'
            "  tt.func public @transpose(%x: tensor<32x32xf32, #blocked>) {\n"
            f"    %buf = ttg.local_alloc : () -> {mem}\n"
            f"    ttg.local_store %x, %buf : tensor<32x32xf32, #blocked> -> {mem}\n")
    for i in range(accesses - 1):
        f.write(f"    %y{i} = ttg.local_load %buf : {mem} -> tensor<32x32xf32, #blocked1>\n")
    f.write("    tt.return\n  }\n}\n")
PY
    ;;
  dense)
    # The quarter of the kernels with the most accesses per line.
    mapfile -t kernels < <(for f in "${kernels[@]}"; do
                             read -r accesses lines < <(accesses_and_lines "$(bench_line "$f")")
                             printf '%s %s\n' "$(awk -v a="$accesses" -v l="$lines" 'BEGIN { printf "%.6f", a / l }')" "$f"
                           done | sort -rn | head -n $((${#kernels[@]} / 4)) | cut -d' ' -f2-)
    ;;
  *) echo "audit_scale.sh: mode '$mode' is not mix or dense" >&2; exit 2 ;;
esac

if [ "$mode" != one-buffer ]; then
passes=(TritonGPUCoalesce TritonGPURemoveLayoutConversions TritonGPUOptimizeThreadLocality TritonGPUPipeline
        TritonGPUPrefetch TritonGPUReduceDataDuplication TritonGPUReorderInstructions ConvertTritonGPUToLLVM)
round=0
: > "$dump"
while [ "$(stat -c %s "$dump")" -lt $((megabytes * 1024 * 1024)) ]; do
  for f in "${kernels[@]}"; do
    pass=${passes[$((round % ${#passes[@]}))]}
    printf "// -----// IR Dump Before %s ('builtin.module' operation) //----- //\n" "$pass" >> "$dump"
    cat "$f" >> "$dump"
    printf '\n' >> "$dump"
  done
  round=$((round + 1))
done
fi

[ "$mode" = one-buffer ] || printf 'kernels (%s): %s\n' "$mode" "$(for f in "${kernels[@]}"; do basename "$f" .ttgir; done | tr '\n' ' ')"
counts=$(bench_line "$dump")
read -r accesses lines < <(accesses_and_lines "$counts")
printf 'file: %s MB, %s accesses per line; %s\n' "$(($(stat -c %s "$dump") / 1024 / 1024))" \
  "$(awk -v a="$accesses" -v l="$lines" 'BEGIN { printf "%.3f", a / l }')" "${counts#bench: }"
printf '%-22s %-10s %-12s %s\n' "command" "seconds" "max RSS MB" "output MB"
for out in table json; do
  args=(audit "$dump")
  [ "$out" = json ] && args+=(--json)
  /usr/bin/time -f '%e %M' -o "$dir/time" "$swizzle" "${args[@]}" > "$dir/out"
  read -r seconds kb < "$dir/time"
  [ "$out" = json ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$dir/out"  # one valid document
  printf '%-22s %-10s %-12s %s\n' "audit${args[2]:+ ${args[2]}}" "$seconds" "$((kb / 1024))" \
    "$(awk -v b="$(stat -c %s "$dir/out")" 'BEGIN { printf "%.1f", b / 1048576 }')"
done
