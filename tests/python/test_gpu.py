"""The GPU as a problem argument (``gpu=``, the CLI's --gpu): Python, the CLI and a session's
problem give one answer, and an unknown name is the CLI's one line."""

import pytest

import swizzle
from conftest import as_cli_prints


def test_gpu_argument_is_the_clis_answer(cli):
    python = swizzle.analyze(preset="transpose16x32", shape="64x64", gpu="gfx950")
    assert as_cli_prints(python) == cli.json("analyze", "--preset", "transpose16x32", "--shape", "64x64", "--gpu", "gfx950", "--json")
    # The problem as a session holds it ("problem": {..., "gpu": ...}), given as --spec.
    session_problem = {"preset": "transpose16x32", "shape": [64, 64], "gpu": "gfx950"}
    assert swizzle.analyze(spec=session_problem) == python
    # An alias is the same GPU; the H100 (the default) issues the reads otherwise (32-lane LDS.32).
    assert swizzle.analyze(preset="transpose16x32", shape="64x64", gpu="MI355X") == python
    h100 = swizzle.analyze(preset="transpose16x32", shape="64x64")
    assert h100 == swizzle.analyze(preset="transpose16x32", shape="64x64", gpu="sm_90")
    assert (h100["read"]["instruction"], h100["read"]["instructions"]) != (python["read"]["instruction"], python["read"]["instructions"])


def test_gpu_argument_on_solve_and_figure():
    solved = swizzle.solve(preset="transpose16x32", shape="64x64", gpu="gfx950")
    assert solved == swizzle.solve(spec={"preset": "transpose16x32", "shape": [64, 64], "gpu": "gfx950"})
    assert swizzle.figure(preset="transpose16x32", shape="64x64", gpu="gfx950").lstrip().startswith("<")


def test_unknown_gpu_is_one_line(cli):
    with pytest.raises(ValueError) as e:
        swizzle.analyze(preset="transpose16x32", shape="64x64", gpu="gfx9000")
    assert str(e.value).startswith('gpu (--gpu): unknown GPU "gfx9000"')
    assert str(e.value) == cli.error("analyze", "--preset", "transpose16x32", "--shape", "64x64", "--gpu", "gfx9000")
    with pytest.raises(ValueError) as e:
        swizzle.analyze(spec={"preset": "transpose16x32", "gpu": "gfx9000"})
    assert "'gpu': unknown GPU \"gfx9000\"" in str(e.value)
    with pytest.raises(ValueError) as e:
        swizzle.serve("LDS.32", [0] * 32, gpu="gfx9000")
    assert str(e.value).startswith('unknown GPU "gfx9000"')
