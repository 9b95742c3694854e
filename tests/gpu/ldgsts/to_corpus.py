#!/usr/bin/env python3
"""A probe run (run.sh's OUTDIR with the case file's .jsonl beside raw.csv) as a corpus file.

    to_corpus.py OUTDIR CASES.jsonl DATE > corpus.jsonl [--metrics metrics.jsonl] [--seed N]

Each case becomes one corpus line (core/include/swz/sim/corpus.h) with the per-instruction
counter `sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts` as "wavefronts". A copy
issued without a src-size operand is named with ".NOZFILL" (LDGSTS.BYPASS.128.NOZFILL); a lane that
sits it out (shared -1 or -2 - X, or a source of -1 or -2 - X: its branch skips it) is written as
address -2 - X with its pointer as its source, X the shared offset its register holds (the probe
holds 0 for -1 and points -1 at byte 0), for a .cg copy counts it there. A lane that moves no
data (src-size 0) keeps its pointer as -2 - X.
With --metrics, every counter of the run goes to a second file, a line per case. --seed: the seed
the case file was drawn with (gen.py's, 20261128, unless given).
"""
import csv
import json
import sys

WAVEFRONTS = "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"
INSTRUCTIONS = "sm__sass_inst_executed_op_ldgsts.sum"


def rows(outdir):
    table = list(csv.reader(open(f"{outdir}/raw.csv")))
    head = next(i for i, r in enumerate(table) if r and r[0] == "ID")
    names = table[head]
    return [dict(zip(names, r)) for r in table[head + 2:]]


def main():
    outdir, cases_path, date = sys.argv[1:4]
    options = dict(zip(sys.argv[4::2], sys.argv[5::2]))
    if len(sys.argv[4:]) % 2 or set(options) - {"--metrics", "--seed"} or not options.get("--seed", "0").isdigit():
        sys.exit("usage: to_corpus.py OUTDIR CASES.jsonl DATE [--metrics FILE] [--seed N]")
    metrics_path = options.get("--metrics")
    seed = int(options.get("--seed", 20261128))
    cases = [json.loads(line) for line in open(cases_path)]
    measured = rows(outdir)
    if len(cases) != len(measured):
        sys.exit(f"{len(cases)} cases but {len(measured)} launches measured")
    device = open(f"{outdir}/device.txt").read().split(",")
    metrics = open(metrics_path, "w") if metrics_path else None
    for i, (c, m) in enumerate(zip(cases, measured)):
        plain = c["pattern"].endswith(", live") or c.get("form") in ("plain", "predicate")  # no src-size operand
        held = [a if a >= 0 else 0 if a == -1 else -2 - a for a in c["addresses"]]  # what each lane's registers hold
        pointer = [g if g >= 0 else 0 if g == -1 else -2 - g for g in c["global"]]
        if plain:  # a lane that sits out holds its registers: -2 - X, at its pointer
            live = [a >= 0 and g >= 0 for a, g in zip(c["addresses"], c["global"])]
            addresses = [a if on else -2 - x for a, x, on in zip(c["addresses"], held, live)]
            sources = pointer
        else:  # a lane that sits out does not count; one that moves no data keeps -2 - X
            addresses = [a if a >= 0 else -1 for a in c["addresses"]]
            sources = [g if g >= 0 else -2 if g == -1 else g for g in c["global"]]
        instructions = int(float(m[INSTRUCTIONS]))
        line = {"device": device[0].strip(), "cc": device[1].strip(), "date": date, "seed": seed, "case": i,
                "kind": c["kind"] + (".NOZFILL" if plain else ""), "pattern": c["pattern"], "shared_bytes": 65536, "addresses": addresses,
                "global": sources, "wavefronts": int(float(m[WAVEFRONTS])),
                "instructions": instructions if instructions > 0 else -1}
        print(json.dumps(line, separators=(",", ":")))
        if metrics:
            counters = {k: float(v.replace(",", "")) for k, v in m.items() if "ldgsts" in k or "mem_shared.sum" in k}
            metrics.write(json.dumps({"case": i, "counters": counters}, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
