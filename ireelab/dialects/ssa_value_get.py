"""`SSAValue.get(value)` of a value without a type to check, answered before xDSL's body.

Not an IREE concept: MLIR's builders take `Value`s. xDSL's op constructors pass every operand
through `SSAValue.get`, whose answer for an `SSAValue` and no `type` is the value itself, but
which builds `SSAValue[AttributeInvT]` (a `typing` subscription, through its cache) for the
`cast` on the way: about 2% of a warm 64-layer `ireelab-compile`. `install()` returns the
value for that case at once and leaves every other case (an op, a `type` to check, anything
else) to xDSL's `get`.
"""

from __future__ import annotations

from xdsl.ir import Attribute, SSAValue

XDSL_GET = SSAValue.get
"""xDSL's own `SSAValue.get`, for every call the fast path does not answer."""


def get(arg, *, type=Attribute):
    if type is Attribute and isinstance(arg, SSAValue):
        return arg
    return XDSL_GET(arg, type=type)


get.__doc__ = XDSL_GET.__doc__


def install() -> None:
    SSAValue.get = staticmethod(get)
