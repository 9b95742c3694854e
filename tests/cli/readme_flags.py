#!/usr/bin/env python3
"""README's `swizzle` flags all exist: each flag README's CLI section names is one `--help` lists.

    readme_flags.py README.md path/to/swizzle

The section "## The `swizzle` CLI" holds three kinds of flag text, each checked against the help
of the subcommands it belongs to:
  - the command table: `swizzle SUB [SUB2] --flag ...` rows; every flag in the row is SUB's;
  - the PROBLEM block (lines starting with "--" in a ``` block): flags of every subcommand that
    takes a problem (analyze stands for them: one table in problem_spec.cpp gives them all);
  - the "flag | accepts" table: a row naming subcommands (`sweep`) is theirs; any other row's
    flags must each be listed by some subcommand's help.
Exit 1 naming each flag no help lists, with the README line it is on.
"""
import re
import subprocess
import sys

FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def section(text, title):
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("## ") and title in l)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return [(i + 1, lines[i]) for i in range(start, end)]


def help_flags(swizzle, words):
    out = subprocess.run([swizzle, *words, "--help"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        sys.exit(f"`swizzle {' '.join(words)} --help` failed ({out.returncode}): {out.stderr.strip()}")
    return set(FLAG.findall(out.stdout))


def main():
    readme, swizzle = sys.argv[1], sys.argv[2]
    lines = section(open(readme, encoding="utf-8").read(), "The `swizzle` CLI")
    subcommands = sorted(set(re.findall(r"^  (\w+)\s", subprocess.run([swizzle, "--help"], capture_output=True,
                                                                          text=True).stdout, re.M)))
    helps = {}

    def flags_of(words):
        key = tuple(words)
        if key not in helps:
            helps[key] = help_flags(swizzle, words)
        return helps[key]

    every = set().union(*(flags_of([s]) for s in subcommands))
    missing = []
    checked = 0
    in_block = False
    for number, line in lines:
        if line.startswith("```"):
            in_block = not in_block
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("| ") else []
        if in_block and line.startswith("--"):  # the PROBLEM block
            for flag in FLAG.findall(line):
                checked += 1
                if flag not in flags_of(["analyze"]):
                    missing.append(f"README.md:{number}: {flag} (a problem flag) is not in `swizzle analyze --help`")
        elif cells and cells[0].startswith("`swizzle "):  # the command table
            words = cells[0].strip("`").split()[1:]
            sub = [w for w in words[:2] if re.fullmatch(r"[a-z][a-z0-9]*", w)]
            owner = sub[:2] if len(sub) == 2 and sub[0] in ("quiz", "lesson") and sub[1] in ("show", "check", "summary", "list", "export") else sub[:1]
            for flag in FLAG.findall(cells[0]):
                checked += 1
                known = flags_of(owner) | flags_of(owner[:1])
                if owner[0] == "quiz":  # one row names `quiz show` and `quiz check` together
                    known |= flags_of(["quiz", "show"]) | flags_of(["quiz", "check"])
                if flag not in known:
                    missing.append(f"README.md:{number}: {flag} is not in `swizzle {' '.join(owner)} --help`")
        elif cells and cells[0].startswith("`--") or (cells and "(`--" in cells[0]):  # the flag table
            named = [s for s in re.findall(r"`(\w+)`", cells[0]) if s in subcommands]
            for flag in FLAG.findall(cells[0]):
                checked += 1
                known = set().union(*(flags_of([s]) for s in named)) if named else every
                if flag not in known:
                    where = f"`swizzle {' / '.join(named)} --help`" if named else "any subcommand's --help"
                    missing.append(f"README.md:{number}: {flag} is not in {where}")
    if checked < 40:
        sys.exit(f"only {checked} flags found in README's CLI section: has its layout changed?")
    for m in missing:
        print(m)
    print(f"{checked} flags checked, {len(missing)} missing")
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
