"""DecomposeAggregatedOpPass (`iree-linalg-ext-decompose-aggregated-ops`).

Mirrors IREE's LinalgExt/Transforms/DecomposeAggregatedOps.cpp, which DispatchCreation runs
right after FusionPreprocessingPass with `filter-ops` naming `quantize_affine` and
`dequantize_affine`: each named op is rewritten as the `linalg.generic` it stands for, with
the op's own indexing maps and all-parallel loops, so elementwise fusion and dispatch
formation see an ordinary elementwise generic (IREE names its dispatch
`elementwise_4_i8xf32xi64xf32`). The bodies are IREE 3.13's, op for op:

- dequantize: the stored integer and the zero point are brought to twice the storage width
  (`extui` / `extsi` as the flags say, `trunci` for a wider zero point), subtracted, converted
  with `sitofp` and multiplied by the scale;
- quantize: `divf` by the scale, `math.roundeven`, plus the zero point (`sitofp` /
  `uitofp`), clamped to `[quant_min, quant_max]` with `maxnumf` / `minnumf` against float
  constants built in the body, then `fptosi` / `fptoui` to the storage type.

An op the filter does not name stays; an op named that has no decomposition is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects import math as math_dialect
from xdsl.dialects.builtin import FloatAttr, IntegerType, ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.diagnostics import CompileError, copy_location, location_of
from ireelab.dialects import arith_ext
from ireelab.dialects.iree_linalg_ext_quant import (
    AffineQuantOp,
    DequantizeAffineOp,
    QuantizeAffineOp,
    element_type,
)


class _Body:
    """The ops of a generic's body, in order."""

    def __init__(self, block: Block) -> None:
        self.block = block

    def add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]


def _to_width(body: _Body, value: SSAValue, wide: IntegerType, unsigned: bool) -> SSAValue:
    width = value.type.width.data
    if width == wide.width.data:
        return value
    if width > wide.width.data:
        return body.add(arith_ext.TruncIOp(value, wide))
    extend = arith_ext.ExtUIOp if unsigned else arith_ext.ExtSIOp
    return body.add(extend(value, wide))


def _dequantize(op: DequantizeAffineOp, body: _Body) -> SSAValue:
    stored, scale, zero_point, _ = body.block.args
    wide = IntegerType(2 * stored.type.width.data)
    value = _to_width(body, stored, wide, op.flag("input_unsigned"))
    offset = _to_width(body, zero_point, wide, op.flag("zp_unsigned"))
    difference = body.add(arith.SubiOp(value, offset))
    real = body.add(arith_ext.SIToFPOp(difference, op.float_type()))
    return body.add(arith.MulfOp(real, scale))


def _quantize(op: QuantizeAffineOp, body: _Body) -> SSAValue:
    value, scale, zero_point, out = body.block.args
    float_type = op.float_type()
    scaled = body.add(math_dialect.RoundEvenOp(body.add(arith.DivfOp(value, scale))))
    to_float = arith_ext.UIToFPOp if op.flag("zp_unsigned") else arith_ext.SIToFPOp
    shifted = body.add(arith.AddfOp(scaled, body.add(to_float(zero_point, float_type))))
    low = body.add(arith.ConstantOp(FloatAttr(float(op.quant_min.value.data), float_type)))
    high = body.add(arith.ConstantOp(FloatAttr(float(op.quant_max.value.data), float_type)))
    clamped = body.add(arith.MinnumfOp(body.add(arith.MaxnumfOp(shifted, low)), high))
    to_int = arith_ext.FPToUIOp if op.storage_unsigned() else arith_ext.FPToSIOp
    return body.add(to_int(clamped, out.type))


_DECOMPOSITIONS = {DequantizeAffineOp: _dequantize, QuantizeAffineOp: _quantize}


def decompose(op: AffineQuantOp) -> linalg.GenericOp:
    """Replace `op` by its generic (same operands and maps, all loops parallel)."""
    types = [element_type(v) for v in op.operands]
    block = Block(arg_types=types)
    body = _Body(block)
    result = _DECOMPOSITIONS[type(op)](op, body)
    block.add_op(linalg.YieldOp(result))
    for inner in block.ops:
        copy_location(op, inner)
    loops = ["parallel"] * op.maps()[-1].num_dims
    generic = st.make_generic(op.inputs, op.outputs, Region(block), op.maps(), loops)
    copy_location(op, generic)
    Rewriter.replace_op(op, generic)
    return generic


@dataclass(frozen=True)
class DecomposeAggregatedOpPass(ModulePass):
    name = "iree-linalg-ext-decompose-aggregated-ops"

    filter_ops: str = "iree_linalg_ext.quantize_affine,iree_linalg_ext.dequantize_affine"
    """IREE's `filter-ops`: the comma-separated names of the ops to decompose. IREE's own
    default is empty (it warns and does nothing); this one is the list DispatchCreation
    passes, so the pass does its pipeline's job under `ireelab-opt -p` too."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        names = {n for n in self.filter_ops.split(",") if n}
        decomposable = {cls.name for cls in _DECOMPOSITIONS}
        for candidate in [o for o in op.walk() if o.name in names]:
            if candidate.name not in decomposable:
                raise CompileError(
                    f"'{candidate.name}' has no decomposition",
                    location_of(candidate),
                    stage="flow",
                )
            decompose(candidate)
