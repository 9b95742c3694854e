"""The examples under examples/python run, and what their text claims is what they print."""
import os
import pathlib
import re
import subprocess
import sys

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"


def run_example(name):
    p = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert p.returncode == 0, p.stderr
    return p.stdout


def comment_text(source):
    """Every comment of a Python file (markdown cells are comments too)."""
    return "\n".join(line.split("#", 1)[1] for line in source.splitlines() if "#" in line)


def test_walkthrough_claims_only_the_conflicts_it_prints():
    source = (EXAMPLES / "walkthrough.py").read_text()
    out = run_example("walkthrough.py")
    printed = set(re.findall(r"(\d+)-way", out))
    assert printed, out  # the row-major tile conflicts, and the output says how many ways
    claimed = set(re.findall(r"(\d+)-way", comment_text(source)))
    assert claimed <= printed, f"the text says {sorted(claimed)}-way, the output {sorted(printed)}-way"
