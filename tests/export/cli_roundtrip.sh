#!/bin/sh
# swizzle export through files: JSON out and back in (with and without the preset),
# a `swizzle solve --json` result, atomic replacement and byte-identical reruns.
# Usage: cli_roundtrip.sh SWIZZLE WORKDIR; prints "roundtrip ok" on success.
set -e
swizzle=$1
dir=$2
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
offset_line() { grep -A1 'constexpr std::uint32_t offset(' "$1" | tail -n 1; }

"$swizzle" export --preset transpose16x32 --mask 2,4,8,16 --name tile -o "$dir/direct.h"
"$swizzle" export --preset transpose16x32 --mask 2,4,8,16 --name tile --format json -o "$dir/tile.json"
"$swizzle" export --shared "$dir/tile.json" --name tile -o "$dir/from_json.h"
"$swizzle" export --preset transpose16x32 --shared "$dir/tile.json" --name tile -o "$dir/from_json_preset.h"
"$swizzle" solve --preset transpose16x32 --json > "$dir/solved.json"
"$swizzle" export --solved "$dir/solved.json" --preset transpose16x32 --name tile -o "$dir/from_solve.h"
# The result names its preset, so --preset can be left out.
grep -q '"preset": "transpose16x32"' "$dir/solved.json" || fail "solve --json does not name its preset"
"$swizzle" export --solved "$dir/solved.json" --name tile -o "$dir/from_solve_alone.h"

want=$(offset_line "$dir/direct.h")
[ -n "$want" ] || fail "no offset() in direct.h"
for f in from_json.h from_json_preset.h from_solve.h from_solve_alone.h; do
  [ "$(offset_line "$dir/$f")" = "$want" ] || fail "$f computes a different offset()"
done
grep -q 'swizzle export --preset transpose16x32 --mask 2,4,8,16 --name tile -o' "$dir/direct.h" || fail "no regenerating command"
grep -q 'Read (B, the reader): 1 wavefront per instruction' "$dir/from_solve.h" || fail "solve result lost the problem"
grep -q 'Read (B, the reader): 1 wavefront per instruction' "$dir/from_solve_alone.h" || fail "the preset in the solve result was not used"

# Replacing an existing file: same bytes, same permissions, no temporary left behind.
chmod 640 "$dir/direct.h"
cp "$dir/direct.h" "$dir/first.h"
"$swizzle" export --preset transpose16x32 --mask 2,4,8,16 --name tile -o "$dir/direct.h"
cmp -s "$dir/direct.h" "$dir/first.h" || fail "a rerun changed the bytes"
[ "$(stat -c %a "$dir/direct.h")" = 640 ] || fail "replacing changed the permissions"
[ -z "$(ls -A "$dir" | grep '^\.')" ] || fail "temporary file left behind"

# A failed export leaves the old file alone.
if "$swizzle" export --preset transpose16x32 --layout padded --name tile -o "$dir/direct.h" 2>/dev/null; then
  fail "a non-linear layout was exported"
fi
cmp -s "$dir/direct.h" "$dir/first.h" || fail "a failed export touched the file"
echo "roundtrip ok"
