"""Is this linalg op a 2-D convolution the convolution micro-kernel can run, and how?

IREE's CPU backend recognises convolutions by their indexing maps
(`linalg::inferConvolutionDims`: batch, output image, output channel, filter loop and input
channel dimensions, with the strides and dilations read off the input map's `oh * s + kh * d`
expressions) and picks `ConvTileAndDecomposeExpert` for them. ireelab does that analysis here
for the two layouts its micro-kernel runs (`ukernel_library.py`, one GEMM per filter tap):

- `nhwc_hwcf`: input `(n, oh * sh + kh * dh, ow * sw + kw * dw, c)`, filter `(kh, kw, c, f)`,
  output `(n, oh, ow, f)`;
- `nchw_fchw`: input `(n, c, oh * sh + kh * dh, ow * sw + kw * dw)`, filter `(f, c, kh, kw)`,
  output `(n, f, oh, ow)`;

the batch loop `n` may be absent (`FoldUnitExtentDimsPass` drops a unit batch). The named ops
`linalg.conv_2d_nhwc_hwcf` / `linalg.conv_2d_nchw_fchw` and their generalised forms match; the
body must be a multiply-accumulate on one float type (f32 or f64).

Depthwise convolutions (`match_depthwise`, IREE's `linalg::inferConvolutionDims` reports the
channel loop as a "depth" dimension, in image, filter and output alike) match in two layouts:

- `nhwc_hwc`: input `(n, oh * sh + kh * dh, ow * sw + kw * dw, c)`, filter `(kh, kw, c)`,
  output `(n, oh, ow, c)` (`linalg.depthwise_conv_2d_nhwc_hwc`);
- `nchw_chw`: input `(n, c, oh * sh + kh * dh, ow * sw + kw * dw)`, filter `(c, kh, kw)`,
  output `(n, c, oh, ow)` (`linalg.depthwise_conv_2d_nchw_chw`);

with `f == c` in their `ConvDims` (`match_depthwise_ukernel`: tiles the micro-kernel runs,
up to 127 channels). Grouped convolutions do not match and keep the loop lowering.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)

from ireelab.compiler.codegen.contraction import _element_types_match, _is_multiply_accumulate

NHWC_HWCF = "nhwc_hwcf"
NCHW_FCHW = "nchw_fchw"
NHWC_HWC = "nhwc_hwc"
NCHW_CHW = "nchw_chw"
DEPTHWISE_LAYOUTS = (NHWC_HWC, NCHW_CHW)


@dataclass(frozen=True)
class ConvDims:
    """The loops of a 2-D convolution by role, its layout, strides and dilations."""

    layout: str
    batch: int | None
    oh: int
    ow: int
    f: int
    kh: int
    kw: int
    c: int
    strides: tuple[int, int]
    dilations: tuple[int, int]


def _linear(expr: AffineExpr) -> dict[int, int] | None:
    """`expr` as {dim: coefficient} when it is a sum of dims times constants (no constant
    term), else None."""
    if isinstance(expr, AffineDimExpr):
        return {expr.position: 1}
    if not isinstance(expr, AffineBinaryOpExpr):
        return None
    if expr.kind == AffineBinaryOpKind.Add:
        lhs, rhs = _linear(expr.lhs), _linear(expr.rhs)
        if lhs is None or rhs is None:
            return None
        total = dict(lhs)
        for dim, coefficient in rhs.items():
            total[dim] = total.get(dim, 0) + coefficient
        return total
    if expr.kind == AffineBinaryOpKind.Mul:
        for factor, other in ((expr.lhs, expr.rhs), (expr.rhs, expr.lhs)):
            if isinstance(factor, AffineConstantExpr):
                inner = _linear(other)
                if inner is None:
                    return None
                return {dim: c * factor.value for dim, c in inner.items()}
    return None


def _window(expr: AffineExpr, out_dim: int, filter_dim: int) -> tuple[int, int] | None:
    """(stride, dilation) when `expr` is `out_dim * stride + filter_dim * dilation`."""
    form = _linear(expr)
    if form is None or set(form) != {out_dim, filter_dim}:
        return None
    stride, dilation = form[out_dim], form[filter_dim]
    if stride < 1 or dilation < 1:
        return None
    return stride, dilation


def _dims(exprs: tuple[AffineExpr, ...]) -> list[int] | None:
    if not all(isinstance(e, AffineDimExpr) for e in exprs):
        return None
    return [e.position for e in exprs]


def _float_multiply_accumulate(op: Operation) -> bool:
    if not isinstance(op, LinalgStructuredOperation):
        return False
    if len(op.inputs) != 2 or len(op.outputs) != 1 or not _element_types_match(op):
        return False
    return _is_multiply_accumulate(op)


def match_depthwise(op: Operation) -> ConvDims | None:
    """The depthwise convolution view of `op` (`f == c`), or None."""
    if not _float_multiply_accumulate(op):
        return None
    image, weights, result = (m.data for m in op.get_indexing_maps())
    out, filt = _dims(result.results), _dims(weights.results)
    if out is None or filt is None or len(filt) != 3 or len(out) not in (3, 4):
        return None
    if len(image.results) != len(out):
        return None
    batch = out[0] if len(out) == 4 else None
    lead = [batch] if batch is not None else []
    if _dims(image.results[: len(lead)]) != lead:
        return None
    for layout in DEPTHWISE_LAYOUTS:
        if layout == NHWC_HWC:
            (oh, ow, c), (kh, kw, c_filter) = out[-3:], filt
            window, channel = image.results[-3:-1], image.results[-1]
        else:
            (c, oh, ow), (c_filter, kh, kw) = out[-3:], filt
            window, channel = image.results[-2:], image.results[-3]
        if c_filter != c or not isinstance(channel, AffineDimExpr) or channel.position != c:
            continue
        height, width = _window(window[0], oh, kh), _window(window[1], ow, kw)
        if height is None or width is None:
            continue
        strides, dilations = (height[0], width[0]), (height[1], width[1])
        dims = ConvDims(layout, batch, oh, ow, c, kh, kw, c, strides, dilations)
        parallel = [d for d in (batch, oh, ow, c) if d is not None]
        iterators = [it.data for it in op.get_iterator_types()]
        if sorted([*parallel, kh, kw]) != list(range(len(iterators))):
            continue
        if all(iterators[d] == IteratorType.PARALLEL for d in parallel) and all(
            iterators[d] == IteratorType.REDUCTION for d in (kh, kw)
        ):
            return dims
    return None


DEPTHWISE_UKERNEL_MAX_CHANNELS = 127
"""Depthwise convolution tiles (after workgroup tiling, which gives them up to 256 channels)
with at most this many channels run as the depthwise micro-kernel; wider ones keep the loop
nest, measured faster there (SqueezeNet-size 14x14x512: 0.37-0.38 ms
single-threaded against 0.48-0.56 for the micro-kernel; 112x112x32: 11.9-13.5 ms against
1.7-1.8)."""


def match_depthwise_ukernel(op: Operation) -> ConvDims | None:
    """The depthwise view of the tiled `op` when the depthwise micro-kernel should run it."""
    dims = match_depthwise(op)
    if dims is None or not isinstance(op, LinalgStructuredOperation):
        return None
    if op.get_static_loop_ranges()[dims.c] > DEPTHWISE_UKERNEL_MAX_CHANNELS:
        return None
    return dims


def match_conv(op: Operation) -> ConvDims | None:
    """The convolution view of `op`, or None when the micro-kernel cannot run it."""
    if not _float_multiply_accumulate(op):
        return None
    image, weights, result = (m.data for m in op.get_indexing_maps())
    out = _dims(result.results)
    filt = _dims(weights.results)
    if out is None or filt is None or len(filt) != 4 or len(out) not in (3, 4):
        return None
    batch = out[0] if len(out) == 4 else None
    lead = [batch] if batch is not None else []
    if len(image.results) != len(out):
        return None
    for layout in (NHWC_HWCF, NCHW_FCHW):
        if layout == NHWC_HWCF:
            oh, ow, f = out[-3:]
            kh, kw, c, f_filter = filt
            window = image.results[-3:-1]
            channel = image.results[-1]
        else:
            f, oh, ow = out[-3:]
            f_filter, c, kh, kw = filt
            window = image.results[-2:]
            channel = image.results[-3]
        if f_filter != f or not isinstance(channel, AffineDimExpr) or channel.position != c:
            continue
        if _dims(image.results[: len(lead)]) != lead:
            continue
        height, width = _window(window[0], oh, kh), _window(window[1], ow, kw)
        if height is None or width is None:
            continue
        dims = ConvDims(
            layout, batch, oh, ow, f, kh, kw, c, (height[0], width[0]), (height[1], width[1])
        )
        if _iterators_match(op, dims):
            return dims
    return None


def _iterators_match(op: LinalgStructuredOperation, dims: ConvDims) -> bool:
    parallel = [d for d in (dims.batch, dims.oh, dims.ow, dims.f) if d is not None]
    reduction = [dims.kh, dims.kw, dims.c]
    iterators = [it.data for it in op.get_iterator_types()]
    if sorted(parallel + reduction) != list(range(len(iterators))):
        return False
    return all(iterators[d] == IteratorType.PARALLEL for d in parallel) and all(
        iterators[d] == IteratorType.REDUCTION for d in reduction
    )
