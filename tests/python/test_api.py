"""Every function of the swizzle module, and the same answers as the CLI's --json, byte for byte."""
import inspect
import json

import pytest

import swizzle
from conftest import as_cli_prints

SEED = "cli/data/seed_store.json", "cli/data/seed_read.json"


# [SECTION] Layout

def test_layout_from_dict_round_trips(data):
    d = json.loads((data / SEED[0]).read_text())
    layout = swizzle.Layout(d)
    assert layout.kind == "distributed"
    assert layout.shape == [16, 32]
    assert layout.element_bits == 32
    assert swizzle.Layout(layout.to_dict()) == layout
    assert layout.to_dict()["lane_bases"] == d["lane_bases"]


def test_layout_from_triton_attribute_needs_its_shape(cli, data):
    text = (data / "cli/data/ttg_blocked.mlir").read_text()
    layout = swizzle.Layout(text, shape=[64, 64])
    assert layout.shape == [64, 64]
    # The CLI's convert reads the same file to the same layout.
    converted = json.loads(cli.json("convert", data / "cli/data/ttg_blocked.mlir", "--to", "json", "--shape", "64x64"))
    assert swizzle.Layout(converted) == layout
    with pytest.raises(ValueError, match="shape"):
        swizzle.Layout(text)


def test_layout_text_forms(data):
    shared = swizzle.Layout.load(str(data / "cli/data/xor2m_shared.json"))
    assert shared.kind == "shared" and shared.origin.endswith("xor2m_shared.json")
    assert "offset=1 -> (0, 1)" in str(shared)
    assert str(shared) == shared.to_triton()
    assert swizzle.Layout(shared.to_triton()) == shared
    assert swizzle.Layout(shared.to_mlir()) == shared
    cute = swizzle.Layout("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)")
    assert cute.kind == "shared" and cute.shape == [8, 64]
    assert swizzle.Layout(cute.to_cute()) == cute
    assert "shared 8x64" in repr(cute)


def test_layout_by_sm100_mode_name():
    # CuTe's sm100 atom, the tcgen05 descriptor mode by name and by field value, and CuTe's printout: one layout.
    atom = swizzle.Layout("UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>")
    assert atom.shape == [32, 4] and atom.element_bits == 32
    assert swizzle.Layout("tcgen05 SWIZZLE_128B_BASE32B ; MN ; element_bits=32") == atom
    assert swizzle.Layout("tcgen05 layout_type=1 ; MN", bits=32) == atom
    assert swizzle.Layout("Sw<2,5,2> o smem_ptr[32b](unset) o (_32,_4):(_1,_32)") == atom
    tma = swizzle.Layout("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B ; element_bits=32", shape=[4, 32])
    assert swizzle.Layout("tma value=4", shape=[4, 32], bits=32) == tma
    with pytest.raises(ValueError, match="layout type 3 is not one"):
        swizzle.Layout("tcgen05 layout_type=3 ; element_bits=16")


# [SECTION] analyze, solve, audit, export: the CLI's JSON

def test_analyze_preset_matches_cli(cli):
    out = cli.json("analyze", "--preset", "transpose16x32", "--mask", "2,4,8,16", "--json")
    result = swizzle.analyze(preset="transpose16x32", mask=[2, 4, 8, 16])
    assert as_cli_prints(result) == out
    assert swizzle.analyze(preset="transpose16x32", mask="2,4,8,16") == result


def test_analyze_custom_problem_matches_cli(cli, data):
    src, dst = (str(data / p) for p in SEED)
    shared = str(data / "cli/data/xor2m_shared.json")
    out = cli.json("analyze", "--src", src, "--dst", dst, "--shared", shared, "--bits", "32", "--json")
    # Files by name (as the CLI takes them), and Layout objects read from them.
    assert as_cli_prints(swizzle.analyze(src, dst, shared, bits=32)) == out
    loaded = [swizzle.Layout.load(p) for p in (src, dst, shared)]
    assert as_cli_prints(swizzle.analyze(*loaded, bits=32)) == out


def test_solve_matches_cli(cli, data):
    out = cli.json("solve", "--preset", "transpose16x32", "--json")
    result = swizzle.solve(preset="transpose16x32")
    assert as_cli_prints(result) == out
    assert result["conflict_free"] and result["trace"]
    src, dst = (str(data / p) for p in SEED)
    out = cli.json("solve", "--src", src, "--dst", dst, "--vec-bits", "64", "--json")
    result = swizzle.solve(swizzle.Layout.load(src), swizzle.Layout.load(dst), vec_bits=64)
    assert as_cli_prints(result) == out
    # The answer is a layout: it reads back, and is conflict-free when analyzed.
    assert swizzle.Layout(result["shared"]).kind == "shared"


def test_solve_repairs_a_mask(cli):
    out = cli.json("solve", "--preset", "transpose16x32", "--mask", "1,2,4,8", "--json")
    result = swizzle.solve(preset="transpose16x32", mask=[1, 2, 4, 8])
    assert as_cli_prints(result) == out
    assert result["repair"]["possible"]


def test_matrix_sides_match_cli(cli):
    # stmatrix in, ldmatrix.trans out: each side's instruction named as the CLI's --json names it.
    out = cli.json("analyze", "--preset", "tma128_fp16", "--write-matrix", "x4", "--read-matrix", "x4.trans", "--json")
    result = swizzle.analyze(preset="tma128_fp16", write_matrix="x4", read_matrix="x4.trans")
    assert as_cli_prints(result) == out
    assert (result["store"]["instruction"], result["read"]["instruction"]) == ("STSM.x4", "LDSM.x4.trans")
    out = cli.json("solve", "--preset", "tma128_fp16", "--read-matrix", "x4.trans", "--json")
    result = swizzle.solve(preset="tma128_fp16", read_matrix="x4.trans")
    assert as_cli_prints(result) == out
    assert result["read"]["instruction"] == "LDSM.x4.trans"
    out = cli.json("export", "--preset", "tma128_fp16", "--read-matrix", "x2", "--name", "tile")
    assert swizzle.export_header(preset="tma128_fp16", read_matrix="x2", name="tile") == out


def test_spec_matches_cli(cli, tmp_path):
    # The whole problem as one object: a dict in memory, or the file's name as --spec takes it.
    spec = {"preset": "tma128_fp16", "read_matrix": "x4.trans", "variant": "tma-128B"}
    path = tmp_path / "problem.json"
    path.write_text(json.dumps(spec))
    out = cli.json("analyze", "--spec", path, "--json")
    assert as_cli_prints(swizzle.analyze(spec=spec)) == out
    assert as_cli_prints(swizzle.analyze(spec=str(path))) == out
    assert as_cli_prints(swizzle.solve(spec=spec)) == cli.json("solve", "--spec", path, "--json")
    assert swizzle.export_header(spec=spec) == cli.json("export", "--spec", path)
    with pytest.raises(ValueError) as raised:
        swizzle.analyze(spec=str(path), bits=16)
    assert str(raised.value) == cli.error("analyze", "--spec", path, "--bits", "16")
    with pytest.raises(ValueError, match="^the spec argument: 'mask' is not a problem field"):
        swizzle.analyze(spec={"preset": "transpose16x32", "mask": [2, 4, 8, 16]})


def test_copy_global_side_matches_cli(cli):
    # A cp.async writer reading rows 128 or 160 bytes apart: the copy's count and its sectors, as the CLI prints them.
    tile = dict(preset="transpose16x32", shape="32x8", bits=32, write_vec_bits=32, write_copy="ca")
    for pitch, wavefronts in ((128, 16), (160, 4)):
        out = cli.json("analyze", "--preset", "transpose16x32", "--shape", "32x8", "--bits", "32", "--write-vec-bits", "32",
                       "--write-copy", "ca", "--global-pitch", str(pitch), "--json")
        result = swizzle.analyze(global_pitch=pitch, **tile)
        assert as_cli_prints(result) == out
        assert result["store"]["wavefronts"] == wavefronts
        assert result["store"]["global"]["pitch_bytes"] == pitch
        assert result["store"]["global"]["sectors_per_request"] == 16.0
    answer = swizzle.solve(global_pitch=128, **tile)
    assert answer["write"]["global"]["total_sectors"] <= answer["write"]["global"]["problem_total_sectors"]
    with pytest.raises(ValueError, match=r"global_pitch \(--global-pitch\): 130 bytes is not a whole number"):
        swizzle.analyze(global_pitch=130, **tile)


def test_every_problem_flag_of_the_cli_is_an_argument(cli):
    def flags(command):
        status, out, _ = cli.run(command, "--help")
        assert status == 0
        return {word.strip(",") for line in out.splitlines() for word in line.split()[:2] if word.startswith("--")}
    problem_flags = flags("analyze") - {"--help", "--json"}
    assert {"--preset", "--src", "--write-matrix", "--read-matrix", "--spec"} <= problem_flags
    for command, function in (("analyze", swizzle.analyze), ("solve", swizzle.solve), ("export", swizzle.export_header),
                              ("figure", swizzle.figure)):
        taken = {flag[2:].replace("-", "_") for flag in flags(command) & problem_flags}
        assert taken <= set(inspect.signature(function).parameters), command


def test_audit_matches_cli(cli, data):
    path = data / "data/ttgir/transpose_conflict.ttgir"
    out = cli.json("audit", path, "--json")
    result = swizzle.audit(path.read_text(), path=str(path))
    assert as_cli_prints(result) == out
    stores = [a for a in result["accesses"] if a["op"] == "ttg.local_store"]
    assert stores and stores[0]["wavefronts"] is not None


def test_audit_with_arguments_and_a_gpu_matches_cli(cli, data):
    # A matmul masked at a tile's edge (N = 96 of 128): the copy lines priced lane by lane, the same
    # report from both faces; the program id and the GPU given as the CLI gives them.
    path = data / "data/triton/copies/h200-20261129-edge-masks/fp16_128x128x64_w4s3.ttgir"
    args = {"M": 128, "N": 96, "K": 256, "sa": 256, "sb": 128, "pid_n": 0}
    flags = [f"--arg={k}={v}" for k, v in args.items()]
    result = swizzle.audit(path.read_text(), path=str(path), args=args, gpu="h200")
    assert as_cli_prints(result) == cli.json("audit", path, "--json", "--gpu", "h200", *flags)
    edge = [a for a in result["accesses"] if a["line"] == 86]
    assert edge and edge[0]["issued_wavefronts"] == 8.0 and "1 partly masked at 8.00" in edge[0]["note"]
    # A name the kernel lacks: the CLI's line, as ValueError.
    message = cli.error("audit", path, "--arg=Q=1")
    with pytest.raises(ValueError) as raised:
        swizzle.audit(path.read_text(), path=str(path), args={"Q": 1})
    assert str(raised.value) == message


def test_audit_arguments_of_the_wrong_kind_are_one_value_error(data):
    # What --arg refuses (a value past 64 bits, not an integer) and what only Python can give (a
    # name not a str, a bool, a name that is not text): one ValueError naming the entry.
    text = (data / "data/triton/copies/h200-20261129-edge-masks/fp16_128x128x64_w4s3.ttgir").read_text()
    for args, said in [({"K": 1 << 64}, "args['K']: 18446744073709551616 is past 64 bits"),
                       ({"K": 4.0}, "args['K']: expected an integer, not float"),
                       ({"K": "4096"}, "args['K']: expected an integer, not str"),
                       ({"K": True}, "args['K']: expected an integer, not bool"),
                       ({3: 1}, "args: the name 3 is not a str"),
                       ({"\udcff": 1}, "args: the name '\\udcff' is not valid text"),
                       ([("K", 1)], "args: expected a dict of NAME: integer"),
                       # A name past 60 characters reaches the core, whose line names its start.
                       ({"K" * 100000: 1}, "<string>: --arg " + "K" * 60 + "...: the kernel has no integer argument")]:
        for face in (swizzle.audit, swizzle.fix):
            with pytest.raises(ValueError) as raised:
                face(text, args=args)
            assert str(raised.value).startswith(said), str(raised.value)
            assert len(str(raised.value)) < 300
    # An integer of another type (numpy's, a subclass) is taken as its value.
    class Pitch(int):
        pass
    assert swizzle.audit(text, args={"K": Pitch(256), "sa": 256, "sb": 128}) == swizzle.audit(
        text, args={"K": 256, "sa": 256, "sb": 128})


def test_audit_refuses_an_alias_cycle_as_the_cli_does(cli, data):
    # The interpreter died (a stack overflow) on a module whose alias refers to itself.
    for name in ("alias_cycle_slice.ttgir", "alias_is_itself.ttgir"):
        path = data / "cli/data" / name
        message = cli.error("audit", path)
        assert message.endswith(f"{name}:2: #a refers to itself (#a -> #a): a cycle of aliases")
        with pytest.raises(ValueError) as raised:
            swizzle.audit(path.read_text(), path=str(path))
        assert str(raised.value) == message


def test_attribute_nested_past_the_bound_is_a_value_error():
    deep = "#ttg.blocked<{order = " + "[" * 50000 + "]" * 50000 + "}>"
    with pytest.raises(ValueError, match="nested more than 256 deep"):
        swizzle.Layout(deep, shape=[64, 64])


def test_fix_matches_cli(cli, data, tmp_path):
    # The tf32 matmul's B copy: the module `swizzle audit --fix -o` writes, byte for byte.
    path = data / "data/ttgir/triton36/matmul_tf32.ttgir"
    written = tmp_path / "fixed.ttgir"
    cli.json("audit", path, "--fix", "-o", written)
    fixed = swizzle.fix(path.read_text(), path=str(path))
    assert fixed == written.read_text()
    assert fixed != path.read_text()
    chosen = [s for s in swizzle.audit(fixed, path="fixed")["suggestions"] if s["chosen"]]
    assert not [s for s in chosen if s["line"] == 71]  # the fixed copy needs nothing more
    # Nothing to fix: the CLI's line as ValueError.
    clean = data / "data/ttgir/triton36/transpose_fp32.ttgir"
    message = cli.error("audit", clean, "--fix", "-o", tmp_path / "never.ttgir")
    with pytest.raises(ValueError) as raised:
        swizzle.fix(clean.read_text(), path=str(clean))
    assert str(raised.value) == message
    assert not (tmp_path / "never.ttgir").exists()


def test_export_matches_cli(cli, data, tmp_path):
    out = cli.json("export", "--preset", "transpose16x32", "--mask", "2,4,8,16", "--name", "tile")
    assert swizzle.export_header(preset="transpose16x32", mask=[2, 4, 8, 16], name="tile") == out
    out = cli.json("export", "--preset", "transpose16x32", "--mask", "2,4,8,16", "--format", "triton")
    assert swizzle.export_header(preset="transpose16x32", mask=[2, 4, 8, 16], format="triton") == out
    # A solve result, from a file (as the CLI's --solved) and as the dict solve() returned.
    solved = tmp_path / "solved.json"
    solved.write_text(cli.json("solve", "--preset", "transpose16x32", "--json"))
    out = cli.json("export", "--solved", solved)
    assert swizzle.export_header(solved=str(solved)) == out
    from_dict = swizzle.export_header(solved=swizzle.solve(preset="transpose16x32"))
    # The same header, but for where the layout came from (the comment and the regenerating command).
    def body(text):
        return [line for line in text.splitlines() if "solved" not in line and "--shared" not in line]
    assert body(from_dict) == body(out)


def test_serve_counts_wavefronts():
    spread = swizzle.serve("LDS.32", [4 * lane for lane in range(32)])
    assert spread["wavefronts"] == 1 and spread["conflicts"] == 0
    one_bank = swizzle.serve("LDS.32", [128 * lane for lane in range(32)])
    assert one_bank["wavefronts"] == 32 and one_bank["ideal"] == 1
    wide = swizzle.serve("LDS.128", [16 * lane for lane in range(32)])
    assert wide["phases"] == 4 and wide["wavefronts"] == 4
    idle = swizzle.serve("LDS.32", [0] + [-1] * 31)
    assert idle["wavefronts"] == 1
    # cp.async: no prediction without the global sources; with them, at least the shared side's passes.
    shared = [16 * lane for lane in range(32)]
    assert not swizzle.serve("LDGSTS.128", shared)["modelled"]
    copy = swizzle.serve("LDGSTS.128", shared, global_addresses=[16 * lane for lane in range(32)])
    assert copy["modelled"] and copy["wavefronts"] >= 4 and copy["write_only_wavefronts"] is None
    # A .cg copy whose lanes all move no data, pointing at byte 0: 64 read there, 4 as writes only
    # (both measured on an H200, README "A lane that moves no data").
    masked = swizzle.serve("LDGSTS.BYPASS.128", shared, global_addresses=[-2] * 32)
    assert masked["wavefronts"] == 64 and masked["write_only_wavefronts"] == 4


# [SECTION] Bad input: one ValueError, the CLI's message

def test_errors_are_the_cli_lines(cli, data):
    cases = [
        (("analyze", "--preset", "nope"), lambda: swizzle.analyze(preset="nope")),
        (("analyze", "--preset", "transpose16x32", "--mask", "1,2,x"), lambda: swizzle.analyze(preset="transpose16x32", mask="1,2,x")),
        (("analyze", "--src", data / "cli/data/malformed.json", "--dst", data / SEED[1]),
         lambda: swizzle.analyze(str(data / "cli/data/malformed.json"), str(data / SEED[1]))),
        (("solve", "--preset", "transpose16x32", "--bits", "3"), lambda: swizzle.solve(preset="transpose16x32", bits=3)),
        (("audit", data / "data/ttgir/malformed.ttgir"),
         lambda: swizzle.audit((data / "data/ttgir/malformed.ttgir").read_text(), path=str(data / "data/ttgir/malformed.ttgir"))),
        (("export", "--preset", "transpose16x32", "--name", "class"),
         lambda: swizzle.export_header(preset="transpose16x32", name="class")),
        (("analyze", "--preset", "tma128_fp16", "--read-matrix", "x3"),
         lambda: swizzle.analyze(preset="tma128_fp16", read_matrix="x3")),
        (("solve", "--preset", "transpose16x32", "--write-matrix", "x2.trans"),
         lambda: swizzle.solve(preset="transpose16x32", write_matrix="x2.trans")),
        (("export", "--preset", "tma128_fp16", "--read-matrix", "x4", "--read-vec-bits", "64"),
         lambda: swizzle.export_header(preset="tma128_fp16", read_matrix="x4", read_vec_bits=64)),
    ]
    for args, call in cases:
        message = cli.error(*args)
        with pytest.raises(ValueError) as raised:
            call()
        assert str(raised.value) == message, args
        assert "\n" not in str(raised.value)


def test_bad_python_values_raise_value_error():
    with pytest.raises(ValueError, match="not a JSON value"):
        swizzle.Layout({"offset_bases": {1, 2}})
    with pytest.raises(ValueError, match="expected a dict or a str"):
        swizzle.Layout(42)
    with pytest.raises(ValueError, match="--bits: expected a whole number"):
        swizzle.analyze(preset="transpose16x32", bits=True)
    with pytest.raises(ValueError, match="is not an instruction; known: LDS"):
        swizzle.serve("LDS.33", [0] * 32)
    with pytest.raises(ValueError, match="lane addresses given"):
        swizzle.serve("LDS.32", [0] * 31)
    with pytest.raises(ValueError, match="cannot open"):
        swizzle.Layout.load("/nonexistent/layout.json")


def test_docstrings_and_version():
    for f in (swizzle.analyze, swizzle.solve, swizzle.figure, swizzle.audit, swizzle.export_header, swizzle.serve, swizzle.Layout,
              swizzle.Result):
        assert f.__doc__ and len(f.__doc__) > 80, f
    assert swizzle.__version__


def test_audit_with_the_kernels_sass_matches_cli(cli, data):
    # int8 128x128x64 (H200): with its SASS the first stage's copy, whose LDGSTS read P0, is priced at
    # its ideal (4), as measured; the same report from both faces; a listing of another kernel is the
    # CLI's line, as ValueError.
    kept = data / "data/triton/copies/h200-20261128"
    path, sass = kept / "matmul_int8_128x128x64_w4s3.ttgir", kept / "matmul_int8_128x128x64_w4s3.sass"
    result = swizzle.audit(path.read_text(), path=str(path), args={"K": 256}, sass=sass.read_text())
    assert as_cli_prints(result) == cli.json("audit", path, "--json", "--arg=K=256", f"--sass={sass}")
    first = [a for a in result["accesses"] if a["line"] == 61][0]
    assert first["wavefronts"] == 4.0 and first["sass_lines"] == [80, 82, 84, 85] and "read P0: its ideal" in first["note"]
    other = kept / "matmul_fp16_128x128x64_w4s3.sass"
    message = cli.error("audit", path, f"--sass={other}")
    with pytest.raises(ValueError) as raised:
        swizzle.audit(path.read_text(), path=str(path), sass=other.read_text())
    assert str(raised.value) == message.replace(str(other), "<sass>")
    with pytest.raises(ValueError, match="sass: expected the listing's text, not bytes"):
        swizzle.audit(path.read_text(), sass=b"Function:matmul")
