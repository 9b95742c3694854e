#!/usr/bin/env bash
# cli_scale.sh: the whole `swizzle solve --json` process on large fp16 transposes (not a ctest test).
#
#   tests/bench/cli_scale.sh [path/to/swizzle] [sizes...]     (default: build/app/cli/swizzle, 1024 4096 16384)
#
# For each N it writes the writer (an 8x8 fp16 block per lane, row by row; lanes along the rows, 8 warps
# down them) and the reader (the same, transposed) of an NxN tile as layout files, then prints the wall time
# and the maximum resident memory of one `swizzle solve --src W --dst R --json` (GNU time).
set -euo pipefail
swizzle=${1:-build/app/cli/swizzle}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024 4096 16384)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# layout N TRANSPOSED: a distributed layout as JSON; bases are [row, col].
layout() {
  python3 - "$1" "$2" <<'PY'
import json, sys
n, transposed = int(sys.argv[1]), sys.argv[2] == "1"
bits = n.bit_length() - 1
along = [[0, 1 << i] for i in range(bits)]   # along a row
down = [[1 << i, 0] for i in range(bits)]    # down a column
if transposed:
    along, down = down, along                # the reader's rows are the writer's columns
# each lane holds an 8x8 block (8 elements of a row first), 32 lanes along the rows, 8 warps down them
reg = along[:3] + down[:3] + along[8:] + down[6:]
print(json.dumps({"reg_bases": reg, "lane_bases": along[3:8], "warp_bases": down[3:6], "block_bases": [],
                  "shape": [n, n], "element_bits": 16}))
PY
}

printf '%-8s %-10s %-12s %s\n' "N" "seconds" "max RSS MB" "total_wavefronts"
for n in "${sizes[@]}"; do
  layout "$n" 0 > "$dir/w$n.json"
  layout "$n" 1 > "$dir/r$n.json"
  /usr/bin/time -f '%e %M' -o "$dir/time" "$swizzle" solve --src "$dir/w$n.json" --dst "$dir/r$n.json" --json > "$dir/out.json"
  read -r seconds kb < "$dir/time"
  total=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total_wavefronts"])' "$dir/out.json")
  printf '%-8s %-10s %-12s %s\n' "$n" "$seconds" "$((kb / 1024))" "$total"
done
