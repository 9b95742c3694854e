"""A notebook's pictures: a Layout and the results of analyze() and solve() show (_repr_svg_,
_repr_html_) the tensor colored by bank that `swizzle figure` draws, the core's SVG."""
import re

import pytest

import swizzle

SEED = "cli/data/seed_store.json", "cli/data/seed_read.json"
SHARED = "cli/data/xor2m_shared.json"


def cells(svg, attribute):
    """Each drawn element's coordinates and its `attribute` (data-bank, data-thread), in drawing order."""
    return re.findall(r'<rect class="cell" [^>]*data-coords="([0-9,]+)"[^>]*data-' + attribute + r'="(\d+)"', svg)


def test_analyze_result_shows_the_cli_figure(cli):
    result = swizzle.analyze(preset="transpose16x32", mask=[2, 4, 8, 16])
    svg = result._repr_svg_()
    assert svg == cli.json("figure", "--preset", "transpose16x32", "--mask", "2,4,8,16")
    assert 'data-view="tensor"' in svg and len(cells(svg, "bank")) == 16 * 32
    # HTML: the same picture inline, without the XML declaration.
    html = result._repr_html_()
    assert html.startswith("<svg ") and svg.endswith(html)
    assert result.figure("reader") == cli.json("figure", "--preset", "transpose16x32", "--mask", "2,4,8,16", "--view", "reader")
    # Still the dict --json prints.
    assert result == swizzle.analyze(preset="transpose16x32", mask="2,4,8,16") and isinstance(result, dict)


def test_solve_result_shows_its_layout(cli, tmp_path):
    # A repaired mask: the picture is the answer's layout (`figure --solved`), not the mask's.
    solved = tmp_path / "solved.json"
    solved.write_text(cli.json("solve", "--preset", "transpose16x32", "--mask", "1,2,4,8", "--json"))
    result = swizzle.solve(preset="transpose16x32", mask=[1, 2, 4, 8])
    banks = cells(result._repr_svg_(), "bank")
    assert banks == cells(cli.json("figure", "--solved", solved), "bank")
    assert banks != cells(cli.json("figure", "--preset", "transpose16x32", "--mask", "1,2,4,8"), "bank")


def test_solve_of_a_spec_shows_the_dict(cli, tmp_path):
    # As in the CLI, --solved does not combine with --spec: no picture (None: the notebook shows
    # the dict), and figure() says why with the CLI's line.
    spec = tmp_path / "problem.json"
    spec.write_text('{"preset": "transpose16x32"}')
    solved = tmp_path / "solved.json"
    solved.write_text(cli.json("solve", "--spec", spec, "--json"))
    result = swizzle.solve(spec={"preset": "transpose16x32"})
    assert result._repr_svg_() is None and result._repr_html_() is None
    with pytest.raises(ValueError) as raised:
        result.figure()
    assert str(raised.value) == cli.error("figure", "--spec", spec, "--solved", solved)


def test_shared_layout_shows_its_banks(cli, data):
    # The layout alone is drawn as the CLI draws a problem holding it (32-bit elements: the
    # file gives no width, and the seed problem's are 32-bit).
    layout = swizzle.Layout.load(str(data / SHARED))
    assert layout.element_bits is None
    svg = layout._repr_svg_()
    src, dst = (data / p for p in SEED)
    in_a_problem = cli.json("figure", "--src", src, "--dst", dst, "--shared", data / SHARED)
    assert cells(svg, "bank") == cells(in_a_problem, "bank") and len(cells(svg, "bank")) == 16 * 32
    assert "xor2m_shared.json: 32-bit elements in shared memory, colored by bank" in svg
    assert layout._repr_html_().startswith("<svg ")
    # Another width moves the banks, as --bits does; a width the layout contradicts is refused.
    as_16_bits = cli.json("figure", "--preset", "transpose16x32", "--shared", data / SHARED, "--bits", "16")
    assert cells(layout.figure(bits=16), "bank") == cells(as_16_bits, "bank") != cells(svg, "bank")
    sized = swizzle.Layout(layout.to_dict() | {"element_bits": 32})
    assert sized.figure() == sized.figure(bits=32)
    with pytest.raises(ValueError, match="the layout says 32-bit elements, not 16"):
        sized.figure(bits=16)


def test_distributed_layout_shows_its_owners(cli, data):
    src, dst = (data / p for p in SEED)
    svg = swizzle.Layout.load(str(src))._repr_svg_()
    owners = cli.json("figure", "--src", src, "--dst", dst, "--shared", data / SHARED, "--view", "writer")
    assert sorted(cells(svg, "thread")) == sorted(cells(owners, "thread"))
    assert 'data-view="writer"' in svg and "who holds each element" in svg
