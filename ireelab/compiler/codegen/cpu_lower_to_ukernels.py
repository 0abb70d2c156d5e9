"""`CPULowerToUKernelsPass` (`iree-codegen-cpu-lower-to-ukernels`): tiled contractions become
calls of the GEMM micro-kernel.

IREE replaces `linalg.mmt4d` (and pack / unpack) with `iree_codegen.ukernel.generic
"iree_uk_mmt4d"` when ukernels are enabled, so the hot loop is hand-tuned code instead of what
generic vectorisation makes of it. ireelab does the same for every matmul-like op (see
`contraction.match_gemm`) after workgroup tiling, so each workgroup's tile runs

    %r = iree_codegen.ukernel.generic "ireelab_uk_matmul"
           ins(%lhs, %rhs : ...) outs(%acc : ...) (%flags : i32) -> ...

and the ops fused around it (bias, activation, scaling: the dispatch's epilogue; a softmax
feeding the lhs: its prologue) stay as linalg ops on the same tile, lowered to loops after
bufferization. The micro-kernel is a GEMM over strided tiles that the numba kernel runs by
calling BLAS (`sgemm` / `dgemm`); see `ukernel_library.py`.

Flags (an `i32`, like `iree_uk_mmt4d`'s): bit 0 accumulate into `outs` (otherwise overwrite
it), bit 1 the lhs is stored transposed (`k x m`), bit 2 the rhs is stored transposed
(`n x k`). A `linalg.fill` of zero feeding the accumulator is folded into "do not accumulate",
as IREE folds it into the mmt4d flags.

2-D convolutions (`convolution.match_conv`: `conv_2d_nhwc_hwcf` and `conv_2d_nchw_fchw`, named
or generic, any strides and dilations) become

    %r = iree_codegen.ukernel.generic "ireelab_uk_conv_2d_nhwc_hwcf"
           ins(%image, %filter : ...) outs(%acc : ...) (%flags, %sh, %sw, %dh, %dw : i32, index, ...)

(or `"ireelab_uk_conv_2d_nchw_fchw"`). The micro-kernel picks a GEMM form per tile
(`runtime/hal/ukernels.py`, `_uk_conv_hwc`): for NHWC tiles with at most 31 input channels,
im2col of a block of output rows and one GEMM with K = KH * KW * C (the form of IREE's
`ConvolutionToIGEMMPass`, which IREE uses on GPUs); for 1x1 filters whose pixels are evenly
spaced, one GEMM over the whole tile; otherwise one GEMM per filter tap and output row,
`(OW x C) @ (C x F)` over strided views of the image tile, accumulated into the output tile
(operands with no unit stride are packed). Its epilogue (bias, relu) stays on the tile as for
matmuls. IREE's CPU backend has no convolution ukernel: it decomposes convolutions into 1-D
ones and vectorises them (`ConvTileAndDecomposeExpert`); the GEMM forms are what ireelab can
make fast with BLAS.

`linalg.pack` and `linalg.unpack` in data tiling's two 2-D layouts (f32 / f64, static shapes)
become `iree_uk_pack` / `iree_uk_unpack` (IREE lowers them to its pack / unpack ukernels under
`--iree-llvmcpu-enable-ukernels=all`); `DecomposePackUnPackOpsPass` leaves these to this pass,
and decomposes the rest into loops. Each workgroup's call packs its tile: the workgroup
tiling cuts them first (`packing_regions.py`).

Depthwise convolution tiles of up to 127 channels (`convolution.match_depthwise_ukernel`:
`depthwise_conv_2d_nhwc_hwc` and `depthwise_conv_2d_nchw_chw`, named or generic) become
`"ireelab_uk_depthwise_conv_2d_nhwc_hwc"` / `"..._nchw_chw"` with the same operands: a
multiply-accumulate loop nest vectorised along the unit-stride dimension (channels in NHWC,
output columns in NCHW), as IREE vectorises a depthwise convolution after decomposing it
into 1-D ones; no BLAS.

Only float32 / float64 contractions and convolutions are lowered, only when scipy (numba's BLAS provider) is
installed and the target does not say `ukernels = "none"`; everything else keeps the loop
lowering.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cache

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    i32,
)
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.codegen.contraction import GemmDims, match_gemm
from ireelab.compiler.codegen.convolution import ConvDims, match_conv, match_depthwise_ukernel
from ireelab.compiler.codegen.executables import export_sites
from ireelab.compiler.codegen.scalar_ops import type_key
from ireelab.diagnostics import copy_location
from ireelab.dialects import hal
from ireelab.dialects.iree_codegen import UKernelGenericOp
from ireelab.dialects.linalg_ext import Mmt4DOp
from ireelab.dialects.linalg_pack import PackOp, UnPackOp

MATMUL_UKERNEL = "ireelab_uk_matmul"
MMT4D_UKERNEL = "iree_uk_mmt4d"
PACK_UKERNEL = "iree_uk_pack"
UNPACK_UKERNEL = "iree_uk_unpack"
CONV_UKERNELS = {
    "nhwc_hwcf": "ireelab_uk_conv_2d_nhwc_hwcf",
    "nchw_fchw": "ireelab_uk_conv_2d_nchw_fchw",
    "nhwc_hwc": "ireelab_uk_depthwise_conv_2d_nhwc_hwc",
    "nchw_chw": "ireelab_uk_depthwise_conv_2d_nchw_chw",
}
"""Convolution layout (`convolution.ConvDims.layout`) -> its micro-kernel's name."""
FLAG_ACCUMULATE = 1
FLAG_TRANSPOSE_LHS = 2
FLAG_TRANSPOSE_RHS = 4


@cache
def ukernels_available() -> bool:
    """numba reaches BLAS through scipy's Cython BLAS; without scipy there is no GEMM."""
    return importlib.util.find_spec("scipy") is not None


def ukernels_enabled(variant: hal.ExecutableVariantOp) -> bool:
    """Whether the variant's target allows micro-kernels: IREE reads `ukernels = "..."` from
    the `#hal.executable.target` configuration (`--iree-llvmcpu-enable-ukernels`); ireelab
    honours `ukernels = "none"` and otherwise enables its one micro-kernel (IREE's default is
    off without data tiling; ireelab's scalar loops are too slow for matmuls to make that the
    default)."""
    setting = variant.target.configuration.data.get("ukernels")
    if isinstance(setting, StringAttr) and setting.data == "none":
        return False
    return ukernels_available()


def _zero_fill_source(value: SSAValue) -> SSAValue | None:
    """The destination under a `linalg.fill` of 0.0 that only this use reads, if any."""
    fill = value.owner
    if not isinstance(fill, linalg_ops.FillOp) or not value.has_one_use():
        return None
    constant = fill.inputs[0].owner
    if not isinstance(constant, arith.ConstantOp) or not isinstance(constant.value, FloatAttr):
        return None
    if constant.value.value.data != 0.0:
        return None
    return fill.outputs[0]


def flags_for(dims: GemmDims, accumulate: bool) -> int:
    flags = FLAG_ACCUMULATE if accumulate else 0
    if dims.transpose_lhs:
        flags |= FLAG_TRANSPOSE_LHS
    if dims.transpose_rhs:
        flags |= FLAG_TRANSPOSE_RHS
    return flags


def _replace_with_ukernel(
    op: LinalgStructuredOperation, name: str, flags_for_fresh, extra: list
) -> UKernelGenericOp:
    """Replace `op` by `iree_codegen.ukernel.generic name` (operands: the flags, then `extra`
    constants); a zero fill of its accumulator is folded into the flags and erased."""
    accumulator = op.outputs[0]
    fresh = _zero_fill_source(accumulator)
    flags = arith.ConstantOp(IntegerAttr(flags_for_fresh(fresh is not None), i32))
    fill = accumulator.owner if fresh is not None else None
    destination = fresh if fresh is not None else accumulator
    call = UKernelGenericOp(
        name,
        list(op.inputs),
        [destination],
        [flags.result, *(c.result for c in extra)],
        [op.results[0].type],
    )
    Rewriter.insert_op([flags, *extra, call], InsertPoint.before(op))
    copy_location(op, call)
    op.results[0].replace_all_uses_with(call.results[0])
    Rewriter.erase_op(op)
    if fill is not None and not fill.results[0].uses:
        Rewriter.erase_op(fill)
    return call


def _accumulate_unless_fresh(fresh: bool) -> int:
    return 0 if fresh else FLAG_ACCUMULATE


def lower_to_ukernel(op: LinalgStructuredOperation, dims: GemmDims) -> UKernelGenericOp:
    """Replace `op` by the GEMM micro-kernel call."""
    return _replace_with_ukernel(
        op, MATMUL_UKERNEL, lambda fresh: flags_for(dims, accumulate=not fresh), []
    )


def is_ukernel_mmt4d(op) -> bool:
    """An f32 / f64 `linalg.mmt4d` with K0 = 1 (the tiles data tiling picks for f32)."""
    if not isinstance(op, Mmt4DOp):
        return False
    lhs, rhs = (v.type for v in op.inputs)
    element = op.outputs[0].type.get_element_type()
    same = lhs.get_element_type() == rhs.get_element_type() == element
    return same and type_key(element) in ("f32", "f64") and lhs.get_shape()[3] == 1


def lower_mmt4d_to_ukernel(op: Mmt4DOp) -> UKernelGenericOp:
    """`linalg.mmt4d` -> `iree_codegen.ukernel.generic "iree_uk_mmt4d"`, as IREE names it."""
    return _replace_with_ukernel(op, MMT4D_UKERNEL, _accumulate_unless_fresh, [])


def packing_layout(op) -> bool | None:
    """For a `linalg.pack` / `linalg.unpack` the pack micro-kernels run: whether the 2-D tensor
    is seen transposed (the rhs layout, `outer_dims_perm = [1, 0] inner_dims_pos = [1, 0]`)
    or not (the lhs / result layout, `inner_dims_pos = [0, 1]`); None for other layouts,
    ranks and element types (they are decomposed into loops)."""
    if not isinstance(op, PackOp | UnPackOp):
        return None
    unpacked, packed = op.unpacked_type(), op.packed_type()
    if len(unpacked.get_shape()) != 2 or len(packed.get_shape()) != 4:
        return None
    if type_key(unpacked.get_element_type()) not in ("f32", "f64"):
        return None
    layout = (tuple(op.outer_perm()), tuple(op.inner_dims_pos.get_values()))
    if DYNAMIC_INDEX in (*unpacked.get_shape(), *packed.get_shape()):
        return None
    return {((0, 1), (0, 1)): False, ((1, 0), (1, 0)): True}.get(layout)


def lower_packing_to_ukernel(op: PackOp | UnPackOp, transposed: bool) -> UKernelGenericOp:
    """`linalg.pack` -> `iree_uk_pack` (operands: padding value, transposed flag) and
    `linalg.unpack` -> `iree_uk_unpack` (transposed flag), as IREE's ukernels are named."""
    flag = arith.ConstantOp(IntegerAttr(int(transposed), i32))
    extra: list = [flag]
    scalars = [flag.result]
    if isinstance(op, PackOp):
        name = PACK_UKERNEL
        pad = op.padding_value
        if pad is None:
            zero = arith.ConstantOp(FloatAttr(0.0, op.source.type.get_element_type()))
            extra.insert(0, zero)
            pad = zero.result
        scalars.insert(0, pad)
    else:
        name = UNPACK_UKERNEL
    call = UKernelGenericOp(name, [op.source], [op.dest], scalars, [op.results[0].type])
    Rewriter.insert_op([*extra, call], InsertPoint.before(op))
    copy_location(op, call)
    op.results[0].replace_all_uses_with(call.results[0])
    Rewriter.erase_op(op)
    return call


def lower_conv_to_ukernel(op: LinalgStructuredOperation, dims: ConvDims) -> UKernelGenericOp:
    """Replace the convolution `op` by its micro-kernel call (operands: flags, then strides
    and dilations as index values)."""
    window = [
        arith.ConstantOp(IntegerAttr(v, IndexType())) for v in (*dims.strides, *dims.dilations)
    ]
    return _replace_with_ukernel(op, CONV_UKERNELS[dims.layout], _accumulate_unless_fresh, window)


@dataclass(frozen=True)
class CPULowerToUKernelsPass(ModulePass):
    """Run every float matmul-like op and 2-D convolution of a dispatch as a BLAS-backed
    micro-kernel."""

    name = "iree-codegen-cpu-lower-to-ukernels"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for site in export_sites(op):
            if not ukernels_enabled(site.variant):
                continue
            for candidate in list(site.function.body.block.ops):
                if not candidate.results:
                    continue
                if is_ukernel_mmt4d(candidate):
                    lower_mmt4d_to_ukernel(candidate)
                elif (transposed := packing_layout(candidate)) is not None:
                    lower_packing_to_ukernel(candidate, transposed)
                elif (dims := match_gemm(candidate)) is not None:
                    lower_to_ukernel(candidate, dims)
                elif (
                    conv := match_conv(candidate) or match_depthwise_ukernel(candidate)
                ) is not None:
                    lower_conv_to_ukernel(candidate, conv)
