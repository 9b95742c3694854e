#!/usr/bin/env python3
"""An AMD corpus (README "AMD: a measured corpus of your own") to and from lds_probe runs.

    to_amd_corpus.py plan CORPUS.jsonl > plan.txt
        the probe's input: one line per case, INSTRUCTION REPEAT and the 64 lane addresses.
    to_amd_corpus.py fill CORPUS.jsonl COUNTERS.csv DEVICE DATE > measured.jsonl
        the corpus with each case's rocprofv3 counters (SQ_INSTS_LDS, SQ_LDS_BANK_CONFLICT)
        from COUNTERS.csv (rocprofv3 --output-format csv: <name>_counter_collection.csv), taken
        from the probe's dispatches (kernel names holding "lds_probe") in dispatch order; other
        dispatches (the runtime's own copy kernels) are skipped. The lines lose "example".
"""
import csv
import json
import sys

COUNTERS = ("SQ_INSTS_LDS", "SQ_LDS_BANK_CONFLICT")


def cases(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def plan(corpus_path):
    for case in cases(corpus_path):
        if len(case["addresses"]) != 64:
            sys.exit(f"{corpus_path}: case {case['case']}: {len(case['addresses'])} addresses, a wavefront has 64")
        print(case["instruction"], case.get("repeat", 1), *case["addresses"])


def probe_dispatches(csv_path):
    """Dispatch id -> {counter: value} for the probe's kernels, in dispatch order."""
    dispatches = {}
    for row in csv.DictReader(open(csv_path)):
        if "lds_probe" not in row["Kernel_Name"] or row["Counter_Name"] not in COUNTERS:
            continue
        dispatches.setdefault(int(row["Dispatch_Id"]), {})[row["Counter_Name"]] = float(row["Counter_Value"])
    return [dispatches[d] for d in sorted(dispatches)]


def fill(corpus_path, csv_path, device, date):
    corpus = cases(corpus_path)
    measured = probe_dispatches(csv_path)
    if len(measured) != len(corpus):
        sys.exit(f"{csv_path}: {len(measured)} probe dispatches for {len(corpus)} cases in {corpus_path}")
    for case, counters in zip(corpus, measured):
        missing = [c for c in COUNTERS if c not in counters]
        if missing:
            sys.exit(f"{csv_path}: case {case['case']}: no {', '.join(missing)} (rocprofv3 --pmc {' '.join(COUNTERS)})")
        case.pop("example", None)
        case["device"], case["date"] = device, date
        for counter in COUNTERS:
            case[counter] = round(counters[counter])
        print(json.dumps(case))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "plan":
        plan(sys.argv[2])
    elif len(sys.argv) == 6 and sys.argv[1] == "fill":
        fill(*sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
