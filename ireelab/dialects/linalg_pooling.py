"""MLIR's linalg pooling ops, every layout and window rank IREE's importers produce.

MLIR defines pooling as named structured ops (`LinalgNamedStructuredOps.yaml`): a window
operand that is there only for its shape, an input read at `o * stride + k * dilation` along
each spatial dimension, and a body that folds the window into the accumulator (`sum`: add;
`max` / `min`: `maximumf` / `max_signed` ...; `*_unsigned`: `maxui` / `minui`). xDSL 0.75
defines only `pooling_nchw_max` (with a body that reads the window operand, so ireelab
redefines it); the others are defined here: the 2-D `nhwc` / `nchw` ops, the 1-D `nwc` /
`ncw` ones (ONNX's 1-D AveragePool, MaxPool and LpPool as torch-mlir lowers them) and the
3-D `ndhwc` ones (its 3-D pools and LRN's window over channels).

A layout string says where the dimensions are: `n` batch, `c` channels, `d h w` spatial.
The loops are the output's dimensions in layout order, then one window loop per spatial
dimension, as MLIR's op definitions order them (`pooling_ncw_sum`: `n, c, ow, kw`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr
from xdsl.dialects.linalg.abstract_ops import PoolingOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import irdl_op_definition

from ireelab.dialects.linalg_helpers import cast_scalar, is_float

SPATIAL = "dhw"
"""Layout letters of spatial dimensions (each has a window loop)."""


def window_exprs(op, out_dims: Sequence[AffineExpr], win_dims: Sequence[AffineExpr]):
    """`o * stride + k * dilation` per spatial dimension, from the op's properties."""
    strides = op.strides.get_values()
    dilations = op.dilations.get_values()
    return tuple(
        o * s + w * d for o, w, s, d in zip(out_dims, win_dims, strides, dilations, strict=True)
    )


_FOLDS = {
    "sum": (arith.AddfOp, arith.AddiOp),
    "max": (arith.MaximumfOp, arith.MaxSIOp),
    "min": (arith.MinimumfOp, arith.MinSIOp),
    "max_unsigned": (arith.MaximumfOp, arith.MaxUIOp),
    "min_unsigned": (arith.MinimumfOp, arith.MinUIOp),
}
"""The scalar op that folds a window element into the accumulator: (float, integer)."""


def _pool_body(kind: str) -> Callable[[type, Sequence[SSAValue], Sequence[SSAValue]], Region]:
    float_op, int_op = _FOLDS[kind]

    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            value, acc = cast_scalar(args[0], args[2].type), args[2]
            YieldOp((float_op if is_float(acc.type) else int_op)(acc, value))

        return body

    return classmethod(get_hidden_region)  # type: ignore[return-value]


class _LayoutPoolingOp(PoolingOperation):
    """`O[layout] = fold over the window of I[layout, spatial dims at o*s + k*d]`."""

    LAYOUT: ClassVar[str]
    """The input's and output's dimension order, `nchw`, `nwc`, `ndhwc`, ..."""

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        spatial = [letter for letter in self.LAYOUT if letter in SPATIAL]
        rank, window = len(self.LAYOUT), len(spatial)
        outs = {letter: AffineDimExpr(i) for i, letter in enumerate(self.LAYOUT)}
        wins = [AffineDimExpr(rank + i) for i in range(window)]
        reads = window_exprs(self, [outs[s] for s in spatial], wins)
        reads = dict(zip(spatial, reads, strict=True))
        loops = rank + window
        return (
            AffineMap(loops, 0, tuple(reads.get(letter, outs[letter]) for letter in self.LAYOUT)),
            AffineMap(loops, 0, tuple(wins)),
            AffineMap(loops, 0, tuple(outs.values())),
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        window = sum(letter in SPATIAL for letter in self.LAYOUT)
        return ArrayAttr(
            [IteratorTypeAttr.parallel()] * len(self.LAYOUT)
            + [IteratorTypeAttr.reduction()] * window
        )


@irdl_op_definition
class PoolingNhwcSumOp(_LayoutPoolingOp):
    name = "linalg.pooling_nhwc_sum"
    LAYOUT: ClassVar[str] = "nhwc"
    get_hidden_region = _pool_body("sum")


@irdl_op_definition
class PoolingNhwcMaxOp(_LayoutPoolingOp):
    name = "linalg.pooling_nhwc_max"
    LAYOUT: ClassVar[str] = "nhwc"
    get_hidden_region = _pool_body("max")


@irdl_op_definition
class PoolingNhwcMaxUnsignedOp(_LayoutPoolingOp):
    name = "linalg.pooling_nhwc_max_unsigned"
    LAYOUT: ClassVar[str] = "nhwc"
    get_hidden_region = _pool_body("max_unsigned")


@irdl_op_definition
class PoolingNhwcMinOp(_LayoutPoolingOp):
    name = "linalg.pooling_nhwc_min"
    LAYOUT: ClassVar[str] = "nhwc"
    get_hidden_region = _pool_body("min")


@irdl_op_definition
class PoolingNhwcMinUnsignedOp(_LayoutPoolingOp):
    name = "linalg.pooling_nhwc_min_unsigned"
    LAYOUT: ClassVar[str] = "nhwc"
    get_hidden_region = _pool_body("min_unsigned")


@irdl_op_definition
class PoolingNchwSumOp(_LayoutPoolingOp):
    name = "linalg.pooling_nchw_sum"
    LAYOUT: ClassVar[str] = "nchw"
    get_hidden_region = _pool_body("sum")


@irdl_op_definition
class PoolingNchwMaxOp(_LayoutPoolingOp):
    name = "linalg.pooling_nchw_max"
    LAYOUT: ClassVar[str] = "nchw"
    get_hidden_region = _pool_body("max")


@irdl_op_definition
class PoolingNwcSumOp(_LayoutPoolingOp):
    name = "linalg.pooling_nwc_sum"
    LAYOUT: ClassVar[str] = "nwc"
    get_hidden_region = _pool_body("sum")


@irdl_op_definition
class PoolingNwcMaxOp(_LayoutPoolingOp):
    name = "linalg.pooling_nwc_max"
    LAYOUT: ClassVar[str] = "nwc"
    get_hidden_region = _pool_body("max")


@irdl_op_definition
class PoolingNwcMaxUnsignedOp(_LayoutPoolingOp):
    name = "linalg.pooling_nwc_max_unsigned"
    LAYOUT: ClassVar[str] = "nwc"
    get_hidden_region = _pool_body("max_unsigned")


@irdl_op_definition
class PoolingNwcMinOp(_LayoutPoolingOp):
    name = "linalg.pooling_nwc_min"
    LAYOUT: ClassVar[str] = "nwc"
    get_hidden_region = _pool_body("min")


@irdl_op_definition
class PoolingNwcMinUnsignedOp(_LayoutPoolingOp):
    name = "linalg.pooling_nwc_min_unsigned"
    LAYOUT: ClassVar[str] = "nwc"
    get_hidden_region = _pool_body("min_unsigned")


@irdl_op_definition
class PoolingNcwSumOp(_LayoutPoolingOp):
    name = "linalg.pooling_ncw_sum"
    LAYOUT: ClassVar[str] = "ncw"
    get_hidden_region = _pool_body("sum")


@irdl_op_definition
class PoolingNcwMaxOp(_LayoutPoolingOp):
    name = "linalg.pooling_ncw_max"
    LAYOUT: ClassVar[str] = "ncw"
    get_hidden_region = _pool_body("max")


@irdl_op_definition
class PoolingNdhwcSumOp(_LayoutPoolingOp):
    name = "linalg.pooling_ndhwc_sum"
    LAYOUT: ClassVar[str] = "ndhwc"
    get_hidden_region = _pool_body("sum")


@irdl_op_definition
class PoolingNdhwcMaxOp(_LayoutPoolingOp):
    name = "linalg.pooling_ndhwc_max"
    LAYOUT: ClassVar[str] = "ndhwc"
    get_hidden_region = _pool_body("max")


@irdl_op_definition
class PoolingNdhwcMinOp(_LayoutPoolingOp):
    name = "linalg.pooling_ndhwc_min"
    LAYOUT: ClassVar[str] = "ndhwc"
    get_hidden_region = _pool_body("min")


POOLING_OPS: list = [
    PoolingNhwcSumOp,
    PoolingNhwcMaxOp,
    PoolingNhwcMaxUnsignedOp,
    PoolingNhwcMinOp,
    PoolingNhwcMinUnsignedOp,
    PoolingNchwSumOp,
    PoolingNwcSumOp,
    PoolingNwcMaxOp,
    PoolingNwcMaxUnsignedOp,
    PoolingNwcMinOp,
    PoolingNwcMinUnsignedOp,
    PoolingNcwSumOp,
    PoolingNcwMaxOp,
    PoolingNdhwcSumOp,
    PoolingNdhwcMaxOp,
    PoolingNdhwcMinOp,
]
"""The pooling ops xDSL 0.75 lacks (`PoolingNchwMaxOp` replaces xDSL's own)."""
