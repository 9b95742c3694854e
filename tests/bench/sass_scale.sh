#!/usr/bin/env bash
# sass_scale.sh: the whole `swizzle audit --sass` process with a large listing (not a ctest test).
#
#   tests/bench/sass_scale.sh [path/to/swizzle] [megabytes]   (default: build/app/cli/swizzle, 60)
#
# A cuobjdump -sass of a whole library holds many functions: it writes one from the kept int8
# 128x128x64 kernel's listing (tests/data/triton/copies/h200-20261128, Triton's asm["sass"] form), its
# function again and again under other names until the file holds the megabytes asked for (the
# reader's bound is 64 MiB), the kernel's own function last, then prints the wall time and the
# maximum resident memory (GNU time) of auditing the kernel with it, and of the kernel's own listing.
set -euo pipefail
swizzle=${1:-build/app/cli/swizzle}
megabytes=${2:-60}
here=$(cd "$(dirname "$0")/../.." && pwd)
kept="$here/tests/data/triton/copies/h200-20261128/matmul_int8_128x128x64_w4s3"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$kept.sass" "$dir/big.sass" "$megabytes" <<'PY'
import sys
own, out, megabytes = open(sys.argv[1]).read(), sys.argv[2], int(sys.argv[3])
body = own.split("\n", 1)[1]
with open(out, "w") as f:
    n = 0
    while f.tell() < megabytes * 1000 * 1000 - 2 * len(own):
        f.write(f"Function:other_{n}\n{body}")
        n += 1
    f.write(own)
print(f"{out}: {n + 1} functions")
PY
for listing in "$kept.sass" "$dir/big.sass"; do
  size=$(stat -c %s "$listing")
  /usr/bin/time -f "%e s, %M KiB" -o "$dir/time" "$swizzle" audit "$kept.ttgir" --arg K=256 --sass "$listing" > "$dir/out"
  grep -q "read P0: its ideal" "$dir/out"
  echo "$(basename "$listing") ($((size / 1000)) kB): $(cat "$dir/time")"
done
