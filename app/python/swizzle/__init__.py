"""swizzle: bank-conflict-free shared-memory layouts, from Python.

The same core as the ``swizzle`` command line, one import away::

    import swizzle
    a = swizzle.analyze(preset="transpose16x32", mask=[2, 4, 8, 16])
    a["read"]["wavefronts"]                        # what `swizzle analyze --json` says
    r = swizzle.solve(src, dst, bits=16)           # the optimal layout, its instructions and proof
    print(swizzle.export_header(solved=r, name="tile_swizzle"))
    swizzle.audit(kernel.asm["ttgir"])["accesses"]  # every shared-memory access of a Triton kernel
    swizzle.Layout.load("smem.json")               # in a notebook: the tensor colored by bank

Results are the dicts the CLI prints with ``--json`` (README documents the keys); bad input raises
``ValueError`` with the line the CLI prints after ``swizzle: error:``. A ``RuntimeError`` starting
"solver bug:" is the solver's own check failing (the simulator contradicting the construction).

Layout arguments (``src``, ``dst``, ``shared``) take a :class:`Layout`, a dict in the layout-file
form, or a str naming a file (as the command line does). The problem's other arguments are the
CLI's flags: ``preset``, ``mask`` (list of ints or "2,4,8,16"), ``layout`` (a preset's named
layout), ``shape`` ([64, 64] or "64x64"), ``bits``, ``gpu`` (a GPU by name or alias: "sm_90" the default,
"sm_80", "sm_100", "gfx942", "gfx950", "h100", "b200", "mi300x", "mi355x"), ``banks``, ``warp_size``, ``write_vec_bits``,
``read_vec_bits``, ``write_matrix`` / ``read_matrix`` ("x4", "x2.trans": that side issues
stmatrix / ldmatrix, its layout giving the 16-byte rows lanes address) and ``spec`` (the whole
problem as one dict, or the name of a file holding it, as ``--spec``; not with the others).
"""

import operator

from . import _core

__all__ = ["Layout", "Result", "analyze", "solve", "figure", "audit", "fix", "export_header", "serve", "__version__"]
__version__ = _core.version


Layout = _core.Layout


class Result(dict):
    """What :func:`analyze` and :func:`solve` return: the dict ``--json`` prints, which a notebook
    shows as the tensor colored by bank (``swizzle figure``'s tensor view; :meth:`figure`)."""

    def __init__(self, result, figure_arguments):
        super().__init__(result)
        self._figure_arguments = figure_arguments

    def figure(self, view="tensor") -> str:
        """The SVG of ``swizzle figure --view VIEW`` on this result's problem (solve: its layout)."""
        return _core.figure(view=view, **self._figure_arguments)

    def _drawable(self):
        # A solve() of a spec has no picture, as in the CLI: --solved does not combine with --spec
        # (figure() says so); the notebook shows the dict instead.
        return not ("solved" in self._figure_arguments and self._figure_arguments["spec"] is not None)

    def _repr_svg_(self):
        return self.figure() if self._drawable() else None

    def _repr_html_(self):
        return _core.inline_svg(self.figure()) if self._drawable() else None


def analyze(src=None, dst=None, shared=None, *, preset=None, mask=None, layout=None, shape=None, bits=None,
            gpu=None, banks=None, warp_size=None, write_vec_bits=None, read_vec_bits=None, write_matrix=None,
            read_matrix=None, spec=None, write_copy=None, global_dim=None, global_pitch=None,
            global_layout=None) -> dict:
    """Both accesses of a problem, simulated and predicted: `swizzle analyze --json`.

    A preset (``preset="transpose16x32"``, with ``mask`` or ``layout``), or a custom problem
    (``src`` writer, ``dst`` reader), with ``shared`` the layout between them. ``write_copy``
    ("ca", "cg"): the writer is a cp.async, reading rows ``global_pitch`` bytes apart along
    ``global_dim`` (or as ``global_layout`` places them); ``store["global"]`` gives its sectors.
    Returns ``{"problem", "shared_layout", "store", "read", ...}`` (README: JSON output).
    """
    problem = dict(src=src, dst=dst, shared=shared, preset=preset, mask=mask, layout=layout, shape=shape, bits=bits,
                   gpu=gpu, banks=banks, warp_size=warp_size, write_vec_bits=write_vec_bits, read_vec_bits=read_vec_bits,
                   write_matrix=write_matrix, read_matrix=read_matrix, spec=spec, write_copy=write_copy,
                   global_dim=global_dim, global_pitch=global_pitch, global_layout=global_layout)
    return Result(_core.analyze(**problem), problem)


def solve(src=None, dst=None, *, preset=None, mask=None, shape=None, bits=None, gpu=None, banks=None, warp_size=None,
          write_vec_bits=None, read_vec_bits=None, write_matrix=None, read_matrix=None, spec=None, ldmatrix=0,
          vec_bits=0, keep_register_order=False, write_copy=None, global_dim=None, global_pitch=None,
          global_layout=None) -> dict:
    """The optimal shared layout for a writer and a reader, with its proof: `swizzle solve --json`.

    The answer's ``shared`` layout, each side's ``instruction``-level cost (``write``, ``read``),
    ``width_proof``, ``lower_bound``, ``check`` (the simulator's verdict) and the construction's
    ``trace``; for toggle-grid presets ``masks``, ``family`` and, with ``mask``, its ``repair``.
    ``ldmatrix`` (1, 2, 4): the reader is ldmatrix; ``vec_bits`` caps both sides' vectors. A cp.async
    writer (``write_copy``, as in analyze) gets ``write["global"]``: its sectors against the problem's.
    """
    problem = dict(src=src, dst=dst, preset=preset, shape=shape, bits=bits, gpu=gpu, banks=banks, warp_size=warp_size,
                   write_vec_bits=write_vec_bits, read_vec_bits=read_vec_bits, write_matrix=write_matrix,
                   read_matrix=read_matrix, spec=spec, write_copy=write_copy, global_dim=global_dim,
                   global_pitch=global_pitch, global_layout=global_layout)
    result = _core.solve(mask=mask, ldmatrix=ldmatrix, vec_bits=vec_bits, keep_register_order=keep_register_order,
                         **problem)
    # Drawn as `swizzle figure --solved`: the answer's layout replaces the masks repaired.
    return Result(result, dict(problem, solved=result))


def figure(src=None, dst=None, shared=None, *, solved=None, view="tensor", preset=None, mask=None, layout=None,
           shape=None, bits=None, gpu=None, banks=None, warp_size=None, write_vec_bits=None, read_vec_bits=None,
           write_matrix=None, read_matrix=None, spec=None, write_copy=None, global_dim=None, global_pitch=None,
           global_layout=None) -> str:
    """One view of a problem as SVG: `swizzle figure` (to stdout).

    ``view``: "tensor" (colored by bank), "writer", "reader", "matrix-a", "matrix-b", "matrix-m".
    The problem as in :func:`analyze`; ``solved``, a :func:`solve` result, gives its layout.
    """
    return _core.figure(src=src, dst=dst, shared=shared, solved=solved, view=view, preset=preset, mask=mask,
                        layout=layout, shape=shape, bits=bits, gpu=gpu, banks=banks, warp_size=warp_size,
                        write_vec_bits=write_vec_bits, read_vec_bits=read_vec_bits, write_matrix=write_matrix,
                        read_matrix=read_matrix, spec=spec, write_copy=write_copy, global_dim=global_dim,
                        global_pitch=global_pitch, global_layout=global_layout)


def _argument_values(args) -> dict:
    """``args`` as ``--arg`` reads them: names to integers of 64 bits (numpy's too). Anything else
    is a ValueError naming the entry, as the CLI's line names the flag."""
    if args is None:
        return {}
    if not isinstance(args, dict):
        raise ValueError(f"args: expected a dict of NAME: integer (e.g. {{'K': 4096}}), not {type(args).__name__}")
    values = {}
    for name, value in args.items():
        shown = repr(name) if len(repr(name)) <= 60 else repr(name)[:57] + "..."
        if not isinstance(name, str):
            raise ValueError(f"args: the name {shown} is not a str")
        try:
            name.encode("utf-8")
            number = None if isinstance(value, bool) else operator.index(value)
        except UnicodeEncodeError:
            raise ValueError(f"args: the name {shown} is not valid text") from None
        except TypeError:
            number = None
        if number is None:
            raise ValueError(f"args[{shown}]: expected an integer, not {type(value).__name__}")
        if not -(1 << 63) <= number < (1 << 63):
            raise ValueError(f"args[{shown}]: {number} is past 64 bits")
        values[name] = number
    return values


def audit(ttgir: str, *, path: str = "<string>", gpu: str = "", args: dict = None, sass: str = "") -> dict:
    """Bank conflicts of every shared-memory access of a Triton TTGIR module: `swizzle audit --json`.

    ``ttgir`` is the module's text (``kernel.asm["ttgir"]``); ``path`` names it in messages.
    ``gpu`` prices it on that GPU instead of the one its ``ttg.target`` names (``--gpu``); ``args``
    gives the kernel's integer arguments and program ids, ``{"K": 4096, "N": 96, "pid_n": 1}``
    (``--arg``): loop bounds, pitches, and the masks of a tile's edge. ``sass`` is the kernel's SASS
    listing (``kernel.asm["sass"]``, ``--sass``): each cp.async is matched to its LDGSTS (``sass_lines``)
    and a masked 16-byte copy priced by the predicate register ptxas gave it.
    Returns ``{"accesses": [...], "suggestions": [...], ...}``: each access's op, line,
    instruction, wavefronts and, where a layout beats it, its ``suggestion``: the index of its
    entry in ``suggestions``, which holds one per buffer (the attribute to paste, every op using
    the buffer and the module edits).
    """
    if not isinstance(sass, str):
        raise ValueError(f"sass: expected the listing's text, not {type(sass).__name__}")
    return _core.audit(ttgir, path=path, gpu=gpu, args=_argument_values(args), sass=sass)


def fix(ttgir: str, *, path: str = "<string>", gpu: str = "", args: dict = None) -> str:
    """The module with the audit's suggestions applied: `swizzle audit --fix -o`.

    Returns the patched TTGIR text (only attribute definitions and layout references change; it
    reads back and audits better), ready for ``triton.compile`` from a ``.ttgir`` file. Applies the
    suggestion each access chose (``"chosen": true`` in ``audit()``'s ``suggestions``); ``gpu`` and
    ``args`` as for :func:`audit`. Raises ValueError with the CLI's line when there is nothing to fix.
    """
    return _core.fix(ttgir, path=path, gpu=gpu, args=_argument_values(args))


def export_header(src=None, dst=None, shared=None, *, solved=None, preset=None, mask=None, layout=None,
                  shape=None, bits=None, gpu=None, banks=None, warp_size=None, write_vec_bits=None, read_vec_bits=None,
                  write_matrix=None, read_matrix=None, spec=None, write_copy=None, global_dim=None,
                  global_pitch=None, global_layout=None, name="tile_swizzle", format="header") -> str:
    """The layout as text for a kernel: `swizzle export` (to stdout).

    ``format``: "header" (self-contained C++), "triton" (Gluon / MLIR), "cute" or "json".
    The layout: a problem's (as in :func:`analyze`), ``shared`` alone (a layout on its own), or
    ``solved``, a :func:`solve` result (or the name of a file holding one).
    """
    return _core.export_header(src=src, dst=dst, shared=shared, solved=solved, preset=preset, mask=mask,
                               layout=layout, shape=shape, bits=bits, gpu=gpu, banks=banks, warp_size=warp_size,
                               write_vec_bits=write_vec_bits, read_vec_bits=read_vec_bits,
                               write_matrix=write_matrix, read_matrix=read_matrix, spec=spec, write_copy=write_copy,
                               global_dim=global_dim, global_pitch=global_pitch, global_layout=global_layout,
                               name=name, format=format)


def serve(kind: str, addresses, *, global_addresses=(), gpu=None, banks=None, bank_bytes=None,
          warp_size=None) -> dict:
    """The bank model on one warp instruction: how many wavefronts the hardware spends on it.

    ``kind``: the SASS name (``LDS.32``, ``LDS.128``, ``STS.64``, ``LDSM.x4``, ``LDSM.x4.trans``,
    ``STSM.x2``, ``LDGSTS.128``, ...); ``addresses``: one byte address per lane (-1: inactive);
    ``global_addresses``: for cp.async (LDGSTS), each lane's global source (-1: a masked copy at an
    unknown pointer, -2 - X: one pointing at X).
    ``gpu``: the GPU whose model serves it (default sm_90: 32 banks x 4 B, 32 lanes); ``banks``,
    ``bank_bytes`` and ``warp_size`` replace its counts.
    Returns ``{"wavefronts", "ideal", "conflicts", "phases", "lanes_per_phase", "merged",
    "modelled", "write_only_wavefronts", "rule", "pass_wavefronts", "bank_words"}``;
    ``write_only_wavefronts`` is the other count a build gives a src-size cp.async.cg whose masked
    lanes only write their zeros (``wavefronts`` counts them at their pointers), else None.
    """
    return _core.serve(kind, list(addresses), global_addresses=list(global_addresses), gpu=gpu, banks=banks,
                       bank_bytes=bank_bytes, warp_size=warp_size)
