#!/usr/bin/env bash
# cli_scale.sh: whole `swizzle` processes on large fp16 transposes (not a ctest test): solve, analyze,
# export, figure and the GPU backend's planning (its generated source; no GPU needed).
#
#   tests/bench/cli_scale.sh [path/to/swizzle] [sizes...]     (default: build/app/cli/swizzle, 1024 4096 16384)
#
# For each N it writes the writer (an 8x8 fp16 block per lane, row by row; lanes along the rows, 8 warps
# down them) and the reader (the same, transposed) of an NxN tile as layout files, then prints the wall time
# and the maximum resident memory (GNU time) of each command on them or on the solved layout.
set -euo pipefail
swizzle=${1:-build/app/cli/swizzle}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024 4096 16384)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# layout N TRANSPOSED: a distributed layout as JSON (transpose_layout.py).
layout() { python3 "$(dirname "$0")/transpose_layout.py" "$1" "$2"; }

# run NAME N COMMAND...: one timed process; prints its row, and its first error line when it fails.
run() {
  local name=$1 n=$2
  shift 2
  local rc=0
  /usr/bin/time -f '%e %M' -o "$dir/time" "$@" > "$dir/stdout" 2> "$dir/stderr" || rc=$?
  read -r seconds kb < <(tail -1 "$dir/time")
  local note="ok"
  [ "$rc" -eq 0 ] || note="exit $rc: $(grep -v '^Command exited' "$dir/stderr" | head -1)"
  printf '%-8s %-16s %-10s %-12s %s\n' "$n" "$name" "$seconds" "$((kb / 1024))" "$note"
}

printf '%-8s %-16s %-10s %-12s %s\n' "N" "command" "seconds" "max RSS MB" "result"
for n in "${sizes[@]}"; do
  layout "$n" 0 > "$dir/w$n.json"
  layout "$n" 1 > "$dir/r$n.json"
  run "solve --json" "$n" "$swizzle" solve --src "$dir/w$n.json" --dst "$dir/r$n.json" --json
  cp "$dir/stdout" "$dir/solved$n.json"
  run "export header" "$n" "$swizzle" export --solved "$dir/solved$n.json" --format header -o "$dir/h$n.h"
  run "export triton" "$n" "$swizzle" export --solved "$dir/solved$n.json" --format triton -o "$dir/t$n.txt"
  run "figure tensor" "$n" "$swizzle" figure --src "$dir/w$n.json" --dst "$dir/r$n.json" --solved "$dir/solved$n.json" --view tensor -o "$dir/f$n.svg"
  run "figure reader" "$n" "$swizzle" figure --src "$dir/w$n.json" --dst "$dir/r$n.json" --solved "$dir/solved$n.json" --view reader -o "$dir/r$n.png"
  run "figure matrix-m" "$n" "$swizzle" figure --src "$dir/w$n.json" --dst "$dir/r$n.json" --solved "$dir/solved$n.json" --view matrix-m -o "$dir/m$n.svg"
  run "gpu --solve src" "$n" "$swizzle" gpu --src "$dir/w$n.json" --dst "$dir/r$n.json" --solve --print-source
done
