"""One answer everywhere, through the CLI's JSON and the Python module: whatever `swizzle solve`
answers, `swizzle analyze` (and `swizzle conflicts --instruction` on each side's layout file)
accepts and prices the same on the same layouts, for every preset and for kernel layouts (a
transposing copy, mma fragments stored for blocked rows). The core checks every access of the
Triton dumps the same way (tests/triton/faces_test.cpp); the Solver panel is compared with the
CLI in tests/gui/solver_panel_test.cpp."""
import json

import pytest

import swizzle

from conftest import as_cli_prints

# The kernel layouts of tests/data/ttgir/transpose_conflict.ttgir, and an mma.sync C fragment
# stored for 128-bit blocked rows (solve answers STSM.x4: issue 41).
TRANSPOSE_WRITER = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>"
TRANSPOSE_READER = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>"


def presets(cli):
    """Presets up to 64x64: solve counts a toggle grid's family, a minute for the 128x128 transposes on a
    loaded machine (tests/triton/faces_test.cpp checks every preset in the core, without the count)."""
    listed = json.loads(cli.json("presets", "--json"))["presets"]
    return [p["name"] for p in listed if p["shape"][0] * p["shape"][1] <= 64 * 64]


def kernel_problems(data, tmp_path):
    (tmp_path / "writer.mlir").write_text(TRANSPOSE_WRITER + "\n")
    (tmp_path / "reader.mlir").write_text(TRANSPOSE_READER + "\n")
    return [
        {"src": str(tmp_path / "writer.mlir"), "dst": str(tmp_path / "reader.mlir"), "shape": "32x32", "bits": 32},
        {"src": str(data / "solver/data/mma_c_fp16_64x64.mlir"), "dst": str(data / "solver/data/blocked_rows_fp16_64x64.mlir"),
         "shape": "64x64", "bits": 16},
    ]


def flags(problem):
    out = []
    for key, value in problem.items():
        out += [f"--{key.replace('_', '-')}", str(value)]
    return out


def stated(side, cost):
    """A side's instruction as a user gives it to analyze: --write-matrix x4[.trans], else --write-vec-bits N."""
    instruction = cost["instruction"]
    if instruction.startswith(("LDSM.", "STSM.")):
        return {f"{side}_matrix": instruction.split(".", 1)[1]}
    return {f"{side}_vec_bits": cost["vec_bits"]}


def price(side):
    return {k: side[k] for k in ("instruction", "instructions", "wavefronts", "total_wavefronts")}


def check_faces(cli, tmp_path, problem):
    answer = json.loads(cli.json("solve", *flags(problem), "--json"))
    assert as_cli_prints(swizzle.solve(**problem)) == cli.json("solve", *flags(problem), "--json")
    shared = tmp_path / "shared.json"
    shared.write_text(json.dumps(answer["shared"]))
    given = dict(problem, shared=str(shared), **stated("write", answer["write"]), **stated("read", answer["read"]))
    out = cli.json("analyze", *flags(given), "--json")
    analyzed = json.loads(out)
    assert price(analyzed["store"]) == price(answer["write"])
    assert price(analyzed["read"]) == price(answer["read"])
    assert as_cli_prints(swizzle.analyze(**given)) == out
    if "src" in problem:  # one side at a time: conflicts --dist FILE --instruction NAME
        for side, layout, role in (("write", problem["src"], "store"), ("read", problem["dst"], "load")):
            one = json.loads(cli.json("conflicts", "--dist", layout, "--shared", shared, "--shape", problem["shape"],
                                      "--bits", problem["bits"], "--instruction", answer[side]["instruction"], "--json"))
            assert one["kind"] == role
            assert price(one) == price(answer[side])
    return answer


def test_every_preset_answer_is_priced_alike_by_analyze(cli, tmp_path):
    instructions = set()
    for name in presets(cli):
        answer = check_faces(cli, tmp_path, {"preset": name})
        instructions |= {answer["write"]["instruction"], answer["read"]["instruction"]}
    assert "STSM.x4" in instructions  # mma_to_blocked_fp16's answer (issue 41)


def test_kernel_layout_answers_are_priced_alike_by_analyze_and_conflicts(cli, data, tmp_path):
    transpose, mma = (check_faces(cli, tmp_path, p) for p in kernel_problems(data, tmp_path))
    assert transpose["total_wavefronts"] == 64  # what the workbench's Solver answers for the opened kernel
    assert mma["write"]["instruction"] == "STSM.x4"
