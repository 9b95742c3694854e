"""What both device scripts need from Gluon: its modules, a layout builder, and
`make`, which passes a layout constructor only the arguments this Triton takes
(the constructors differ between 3.x releases)."""
import inspect


def gluon_setup():
    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl
    from triton._C.libtriton import ir, gluon_ir

    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)

    def make(cls, **kwargs):
        params = inspect.signature(cls).parameters
        return cls(**{k: v for k, v in kwargs.items() if k in params})

    return gluon, gl, builder, make, ctx
