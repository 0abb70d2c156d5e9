"""MLIR's channels-first convolutions over one and three spatial dimensions.

`linalg.conv_1d_ncw_fcw` and `linalg.conv_3d_ncdhw_fcdhw` are how torch-mlir lowers ONNX's
1-D and 3-D Conv / ConvTranspose; xDSL 0.75 has the 2-D `conv_2d_nchw_fchw` only. Semantics as
MLIR's op definitions: `O[n, f, o...] += I[n, c, o * stride + k * dilation ...] * K[f, c, k...]`,
loops `n, f, o..., c, k...` (the reductions last), inputs cast to the output's element type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr
from xdsl.dialects.linalg.abstract_ops import ConvOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import irdl_op_definition

from ireelab.dialects.linalg_pooling import window_exprs


class _ChannelsFirstConvOp(ConvOperation):
    SPATIAL: ClassVar[int]
    """How many spatial dimensions (1: `w`, 3: `d h w`)."""

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        k = self.SPATIAL
        loops = 3 + 2 * k
        n, f = AffineDimExpr(0), AffineDimExpr(1)
        outs = [AffineDimExpr(2 + i) for i in range(k)]
        c = AffineDimExpr(2 + k)
        wins = [AffineDimExpr(3 + k + i) for i in range(k)]
        reads = window_exprs(self, outs, wins)
        return (
            AffineMap(loops, 0, (n, c, *reads)),
            AffineMap(loops, 0, (f, c, *wins)),
            AffineMap(loops, 0, (n, f, *outs)),
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        k = self.SPATIAL
        return ArrayAttr(
            [IteratorTypeAttr.parallel()] * (2 + k) + [IteratorTypeAttr.reduction()] * (1 + k)
        )


@irdl_op_definition
class Conv1DNcwFcwOp(_ChannelsFirstConvOp):
    name = "linalg.conv_1d_ncw_fcw"
    SPATIAL: ClassVar[int] = 1


@irdl_op_definition
class Conv3DNcdhwFcdhwOp(_ChannelsFirstConvOp):
    name = "linalg.conv_3d_ncdhw_fcdhw"
    SPATIAL: ClassVar[int] = 3


CONV_ND_OPS: list = [Conv1DNcwFcwOp, Conv3DNcdhwFcdhwOp]
