#!/bin/sh
# to_amd_corpus.py on the format example: the probe's plan, and the counters folded back in.
# usage: to_amd_corpus_test.sh PYTHON SOURCE_DIR
set -eu
python=$1
script=$2/tests/gpu/amd/to_amd_corpus.py
data=$2/tests/data/amd
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$python" "$script" plan "$data/format-example.jsonl" > "$work/plan.txt"
[ "$(wc -l < "$work/plan.txt")" -eq 6 ] || { echo "plan: expected 6 lines"; exit 1; }
[ "$(head -1 "$work/plan.txt" | wc -w)" -eq 66 ] || { echo "plan: a line is INSTRUCTION REPEAT and 64 addresses"; exit 1; }
grep -q '^ds_read_b128 4 0 -1' "$work/plan.txt" || { echo "plan: case 3 missing"; exit 1; }

grep '"gfx942"' "$data/format-example.jsonl" > "$work/gfx942.jsonl"
"$python" "$script" fill "$work/gfx942.jsonl" "$data/format-example-gfx942_counter_collection.csv" "AMD Instinct MI300X" 2026-11-28 > "$work/measured.jsonl"
"$python" - "$work/measured.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert [l["SQ_LDS_BANK_CONFLICT"] for l in lines] == [28, 0, 0], lines
assert [l["SQ_INSTS_LDS"] for l in lines] == [4, 4, 1], lines
assert all("example" not in l and l["device"] == "AMD Instinct MI300X" and l["date"] == "2026-11-28" for l in lines)
PY
# One case too many for the dispatches: refused, naming both files.
if "$python" "$script" fill "$data/format-example.jsonl" "$data/format-example-gfx942_counter_collection.csv" d 2026-11-28 > /dev/null 2> "$work/err"; then
  echo "fill: a count mismatch must fail"; exit 1
fi
grep -q '3 probe dispatches for 6 cases' "$work/err" || { cat "$work/err"; exit 1; }
echo "to_amd_corpus: plan and fill agree"
