"""`linalg.conv_2d_nchw_fchw_q`: MLIR's channels-first 2-D convolution with zero points.

How torch-mlir lowers ONNX's ConvInteger (and QLinearConv's integer core): operands
`ins(input, filter, input_zp, filter_zp) outs(init)`, the zero points scalars. Semantics as
MLIR's op definition: `O[n, f, oh, ow] += (I[n, c, oh * sh + kh * dh, ow * sw + kw * dw] -
izp) * (K[f, c, kh, kw] - kzp)`, every operand cast to the output's element type
(`cast_signed`) before the subtraction. Loops `n, f, oh, ow, c, kh, kw`, the reductions last.
xDSL 0.75 has no quantized convolution. IREE's LinalgQuantizedConvToConvPass leaves the
channels-first form alone (it rewrites `conv_2d_nhwc_hwcf_q`), so the op reaches
GeneralizeLinalgNamedOpsPass, which turns it into the generic with this body; IREE then
names the dispatch a `reduction` (the generic has four inputs, not a convolution's two).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat
from xdsl.dialects.linalg.abstract_ops import ConvOperation
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import irdl_op_definition

from ireelab.dialects.linalg_helpers import cast_scalar
from ireelab.dialects.linalg_pooling import window_exprs


@irdl_op_definition
class Conv2DNchwFchwQOp(ConvOperation):
    name = "linalg.conv_2d_nchw_fchw_q"

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        acc = arg_types[-1]
        sub, mul, add = (
            (arith.SubfOp, arith.MulfOp, arith.AddfOp)
            if isinstance(acc, AnyFloat)
            else (arith.SubiOp, arith.MuliOp, arith.AddiOp)
        )

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            image, filt, image_zp, filter_zp, out = args
            a = sub(cast_scalar(image, acc), cast_scalar(image_zp, acc)).result
            b = sub(cast_scalar(filt, acc), cast_scalar(filter_zp, acc)).result
            YieldOp(add(out, mul(a, b)).result)

        return body

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, f, oh, ow, c, kh, kw = (AffineDimExpr(i) for i in range(7))
        rows, cols = window_exprs(self, (oh, ow), (kh, kw))
        return (
            AffineMap(7, 0, (n, c, rows, cols)),
            AffineMap(7, 0, (f, c, kh, kw)),
            AffineMap(7, 0, ()),
            AffineMap(7, 0, ()),
            AffineMap(7, 0, (n, f, oh, ow)),
        )
