#!/bin/sh
# swizzle calibrate --gpu gfx942: the designed cases written, read by the probe's planner, refused
# by replay until measured; random cases repeat with their seed.
# usage: amd_plan_cli_test.sh SWIZZLE SOURCE_DIR [PYTHON]
set -eu
swizzle=$1
script=$2/tests/gpu/amd/to_amd_corpus.py
python=${3:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$swizzle" calibrate --gpu gfx942 --designed -o "$work/designed.jsonl" > "$work/out.txt"
grep -q '^1878 cases for gfx942 (MI300X, MI300A, MI325X) written to' "$work/out.txt" || { cat "$work/out.txt"; exit 1; }
grep -q 'rocprofv3 --pmc SQ_INSTS_LDS SQ_LDS_BANK_CONFLICT' "$work/out.txt" || { echo "no measuring steps"; exit 1; }
"$python" "$script" plan "$work/designed.jsonl" > "$work/plan.txt"
[ "$(wc -l < "$work/plan.txt")" -eq 1878 ] || { echo "plan: expected 1878 lines"; exit 1; }
[ "$(awk '{print NF}' "$work/plan.txt" | sort -u)" = 66 ] || { echo "plan: a line is INSTRUCTION REPEAT and 64 addresses"; exit 1; }
if "$swizzle" replay "$work/designed.jsonl" > /dev/null 2> "$work/err"; then echo "replay of unmeasured cases must fail"; exit 1; fi
grep -q 'designed.jsonl:1: case 0 is not measured yet' "$work/err" || { cat "$work/err"; exit 1; }

"$swizzle" calibrate --gpu mi355x --cases 50 --seed 9 -o "$work/a.jsonl" > /dev/null
"$swizzle" calibrate --gpu gfx950 --cases 50 --seed 9 -o "$work/b.jsonl" > /dev/null
cmp -s "$work/a.jsonl" "$work/b.jsonl" || { echo "the same seed must write the same cases"; exit 1; }
grep -q '"gpu":"gfx950"' "$work/a.jsonl" || { echo "the alias names gfx950"; exit 1; }
if "$swizzle" calibrate --gpu h100 -o "$work/c.jsonl" 2> "$work/err"; then echo "--gpu on an NVIDIA GPU must fail"; exit 1; fi
grep -q 'calibrate measures this machine' "$work/err" || { cat "$work/err"; exit 1; }
[ ! -e "$work/c.jsonl" ] || { echo "nothing is written on bad input"; exit 1; }
echo "calibrate --gpu: cases written, planned, and held until measured"
