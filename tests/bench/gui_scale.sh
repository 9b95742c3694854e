#!/usr/bin/env bash
# gui_scale.sh: whole `swizzle-workbench` processes on large fp16 transposes (not a ctest test), under
# Xvfb when there is no display.
#
#   tests/bench/gui_scale.sh [path/to/swizzle-workbench] [sizes...]
#       (default: build/app/gui/swizzle-workbench, 4096 16384 32768)
#
# For each N it writes a session file holding the writer (an 8x8 fp16 block per lane, row by row; lanes
# along the rows, 8 warps down them) and the reader (the same, transposed) of an NxN tile, as
# tests/bench/cli_scale.sh does, then times (GNU time: wall seconds, maximum resident memory) two runs:
#   screenshot   open the session, draw 5 frames, write the window as a PNG, exit (the first frame's cost)
#   100 frames   open it and draw 100 frames (--bench-frames): the mean and p95 CPU time of a frame
# The screenshots are kept in $GUI_SCALE_OUT (default: a temporary folder, removed at the end).
set -euo pipefail
workbench=${1:-build/app/gui/swizzle-workbench}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(4096 16384 32768)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
out=${GUI_SCALE_OUT:-$dir}
mkdir -p "$out"
export XDG_CONFIG_HOME="$dir/config"  # no last session read or written
display=()
if [ -z "${DISPLAY:-}" ]; then display=(xvfb-run -a -s "-screen 0 1920x1200x24"); fi

# session N: the transpose's session file, its layouts from transpose_layout.py.
session() {
  local here
  here=$(dirname "$0")
  python3 - "$(python3 "$here/transpose_layout.py" "$1" 0)" "$(python3 "$here/transpose_layout.py" "$1" 1)" <<'PY'
import json, sys
writer, reader = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(json.dumps({"format": "swizzle-workbench-session", "version": 1,
                  "problem": {"preset": "", "writer": {"origin": "writer", "layout": writer},
                              "reader": {"origin": "reader", "layout": reader}}}))
PY
}

# run NAME N COMMAND...: one timed process; prints its row with the frame times it printed, or its first error line.
run() {
  local name=$1 n=$2
  shift 2
  local rc=0
  # time runs inside the display, so the figures are the workbench's own (not Xvfb's start or memory)
  "${display[@]}" /usr/bin/time -f '%e %M' -o "$dir/time" "$@" > "$dir/stdout" 2> "$dir/stderr" || rc=$?
  read -r seconds kb < <(tail -1 "$dir/time")
  local note="ok"
  if [ "$rc" -ne 0 ]; then
    note="exit $rc: $(grep -v '^Command exited' "$dir/stderr" | head -1)"
  elif grep -q 'frame time' "$dir/stdout"; then
    note=$(grep -o 'CPU frame time mean [0-9.]* ms, p95 [0-9.]* ms' "$dir/stdout" | head -1)
  fi
  printf '%-8s %-12s %-10s %-12s %s\n' "$n" "$name" "$seconds" "$((kb / 1024))" "$note"
}

printf '%-8s %-12s %-10s %-12s %s\n' "N" "run" "seconds" "max RSS MB" "result"
for n in "${sizes[@]}"; do
  session "$n" > "$dir/s$n.json"
  run "screenshot" "$n" "$workbench" --session "$dir/s$n.json" --size 1600x1000 --frames 5 --screenshot "$out/workbench$n.png"
  run "100 frames" "$n" "$workbench" --session "$dir/s$n.json" --size 1600x1000 --bench-frames 100
done
