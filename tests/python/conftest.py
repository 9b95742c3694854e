"""Shared fixtures: the built `swizzle` CLI, run with --json, and the test data."""
import json
import os
import pathlib
import subprocess

import pytest

DATA = pathlib.Path(os.environ.get("SWZ_TEST_DATA", pathlib.Path(__file__).resolve().parents[1]))
CLI = os.environ.get("SWZ_CLI", "swizzle")


class Cli:
    def run(self, *args):
        """(status, stdout, stderr) of `swizzle args...`."""
        p = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, timeout=60)
        return p.returncode, p.stdout, p.stderr

    def json(self, *args):
        """stdout of a run that succeeds (status 0)."""
        status, out, err = self.run(*args)
        assert status == 0, err
        return out

    def error(self, *args):
        """The message of a run that fails with bad input: status 2, one line on stderr."""
        status, out, err = self.run(*args)
        assert status == 2, (status, out, err)
        assert err.count("\n") == 1, err
        assert err.startswith("swizzle: error: "), err
        return err[len("swizzle: error: "):].rstrip("\n")


@pytest.fixture(scope="session")
def cli():
    return Cli()


@pytest.fixture(scope="session")
def data():
    return DATA


def as_cli_prints(result):
    """A result serialized as the CLI prints --json (nlohmann's dump(2) and a newline)."""
    return json.dumps(result, indent=2, ensure_ascii=False) + "\n"
