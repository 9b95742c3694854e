#!/usr/bin/env python3
"""The .cg copies `swizzle replay` gets wrong, grouped so a rule can be read off them.

    cg_misses.py SWIZZLE CORPUS.jsonl...

Runs `SWIZZLE replay --json` over the corpus files (its predictions are the core's; this script
computes none), finds each disagreeing cp.async.cg line again in its file, and prints the misses
grouped by form (src-size or plain), by measured - predicted, and by what their lanes share:
two lanes reading the same 16 bytes, two lanes writing the same 16 bytes, lanes that move no
data, lanes that sit out, and how many 128-byte lines and shared rows the copy touches. Ends
with one line: "N misses, D with two lanes reading the same 16 bytes".
"""
import collections
import json
import subprocess
import sys


def corpus_lines(paths):
    """(device, seed, case, kind, addresses) -> (path, line number, corpus object)."""
    found = {}
    for path in paths:
        with open(path, encoding="utf-8-sig") as f:
            for number, text in enumerate(f, 1):
                d = json.loads(text)
                if "BYPASS" in d.get("kind", ""):
                    found[(d["device"], d["seed"], d["case"], d["kind"], tuple(d["addresses"]))] = (path, number, d)
    return found


def shape(d):
    """What the copy's lanes share, as words."""
    a, g = d["addresses"], d["global"]
    live = [l for l in range(len(a)) if a[l] >= 0]
    source = [(-2 - g[l] if g[l] < 0 else g[l]) // 16 for l in live]
    words = []
    if len(set(source)) < len(source):
        words.append("shared source")
    if len({a[l] // 16 for l in live}) < len(live):
        words.append("shared destination")
    if any(g[l] < 0 for l in live):
        words.append("moves-no-data lanes")
    if len(live) < len(a):
        words.append("lanes sit out")
    words.append(f"{len({s // 8 for s in source})} lines")
    words.append(f"{len({a[l] // 128 for l in live})} rows")
    return words


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    swizzle, paths = sys.argv[1], sys.argv[2:]
    run = subprocess.run([swizzle, "replay", "--json", "--show", "100000", *paths], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.exit(f"{swizzle} replay failed ({run.returncode}): {run.stderr.strip()}")
    report = json.loads(run.stdout)
    lines = corpus_lines(paths)
    misses = []
    for m in report["disagree"]:
        if "BYPASS" not in m["kind"]:
            continue
        key = (m["device"], m["seed"], m["case"], m["kind"], tuple(m["addresses"]))
        if key not in lines:
            sys.exit(f"a disagreement is in no corpus file given: {m['device']} seed {m['seed']} case {m['case']}")
        misses.append((m, *lines[key]))
    by_group = collections.Counter()
    for m, path, number, d in misses:
        form = "plain" if m["kind"].endswith(".NOZFILL") else "src-size"
        shared = ", ".join(w for w in shape(d) if not w.endswith(("lines", "rows")))
        by_group[(form, m["measured"] - m["predicted"], shared)] += 1
        print(f"{path}:{number}: {m['device']}, {form}, measured {m['measured']}, predicted {m['predicted']} "
              f"({m['rule']}); {', '.join(shape(d))}")
    print("form, measured - predicted, lanes: misses")
    for (form, diff, words), n in sorted(by_group.items()):
        print(f"  {form}, {diff:+d}, {words or 'nothing shared'}: {n}")
    shared = sum("shared source" in shape(d) for _, _, _, d in misses)
    print(f"{len(misses)} misses, {shared} with two lanes reading the same 16 bytes")


if __name__ == "__main__":
    main()
