"""The dynamic constructs the stages after input carry, and refusing the others at input.

IREE compiles dynamic shapes: `tensor<?x4xf32>` values, `tensor.empty(%n)`, slices at offsets
computed at run time, each carried through Flow (workloads), Stream (sizes computed on the
host) and codegen (dims as push constants). ireelab carries a first family through every
stage: `?` sizes in a public function's signature (not a private one's), flowing through
elementwise `linalg.generic`s and reductions, `linalg.matmul` / `linalg.batch_matmul`,
`linalg.fill`, `tensor.empty` whose sizes are computed from argument shapes (`tensor.dim`,
index arithmetic, sizes behind `util.optimization_barrier`), `tensor.dim`, `tensor.cast`,
`util.optimization_barrier`, `flow.tensor.dynamic_constant` / `tie_shape` / `reshape`, and
`tensor.collapse_shape` / `tensor.expand_shape` (an expand's `output_shape` computed from shapes).
Any other dynamic construct would be compiled as if it had some fixed size and give wrong numbers, so it is
refused here, at its line: a dynamically shaped value of any other op, a `tensor.empty` sized
by a tensor's contents (ONNX's one-hot depth), and an op whose offsets, sizes, strides,
padding or output shape are SSA values rather than constants in the op
(`tensor.extract_slice %a[%i] [4] [1]`).
"""

from __future__ import annotations

from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, ShapedType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from ireelab.diagnostics import CompileError
from ireelab.dialects import flow, iree_linalg_ext, linalg_ext, linalg_softmax, util

_POSITIONS = {
    "static_offsets": "offsets",
    "static_sizes": "sizes",
    "static_strides": "strides",
    "static_low": "low padding",
    "static_high": "high padding",
    "static_output_shape": "output shape",
}
"""Properties where MLIR marks an SSA-valued entry with `kDynamic`, and what each holds."""


def is_dynamic(t: Attribute) -> bool:
    return isinstance(t, ShapedType) and any(d == DYNAMIC_INDEX for d in t.get_shape())


_CARRIES_DYNAMIC = (
    tensor.DimOp,
    flow.TensorReshapeOp,
    flow.TensorTieShapeOp,
    flow.TensorDynamicConstantOp,
    tensor.CastOp,
    tensor.CollapseShapeOp,
    tensor.ExpandShapeOp,
    util.OptimizationBarrierOp,
    linalg.FillOp,
    linalg_ext.MatmulOp,
    linalg_ext.BatchMatmulOp,
    linalg_softmax.SoftmaxOp,
    iree_linalg_ext.AttentionOp,
    iree_linalg_ext.OnlineAttentionOp,
    iree_linalg_ext.GatherOp,
    iree_linalg_ext.TopkV2Op,
    util.ReturnOp,
    util.CallOp,
    func.ReturnOp,
)
"""Ops that may take or make `?`-sized tensors (with `linalg.generic`, `tensor.empty` and
`util.func` under the rules below)."""

_SIZE_ARITH = (arith.ConstantOp, arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivUIOp)
"""Index arithmetic a size may be computed with from argument shapes."""


def _is_shape_size(value: SSAValue) -> bool:
    """True if `value` is computed from tensor shapes and constants only (never from a
    tensor's contents), so every stage can compute it where the dims are known."""
    if not isinstance(value, OpResult):
        return False
    op = value.op
    if isinstance(op, tensor.DimOp):
        return True
    if isinstance(op, util.OptimizationBarrierOp):
        return _is_shape_size(op.operands[value.index])
    if isinstance(op, _SIZE_ARITH):
        return all(_is_shape_size(v) for v in op.operands)
    return False


def _carries_dynamic(op: Operation) -> bool:
    if isinstance(op, _CARRIES_DYNAMIC) or op.name.startswith("check.expect_"):
        return True
    if isinstance(op, tensor.EmptyOp):
        return all(_is_shape_size(v) for v in op.dynamic_sizes)
    if isinstance(op, linalg.GenericOp):
        maps = [m.data for m in op.indexing_maps]
        return all(m.is_projected_permutation() for m in maps)
    return False


def signature_error(func: util.FuncOp, t: Attribute) -> CompileError:
    name = func.sym_name.data
    return CompileError.at(
        func, f"dynamic shape {t} in the signature of '@{name}' is not supported yet", "input"
    )


def _check_signature(op: util.FuncOp) -> None:
    """`?` sizes enter through a public function's buffer views; a private function's would
    come from its callers' tensors (a `tensor.cast` to `?`), which is not carried yet."""
    if op.sym_visibility is None or op.sym_visibility.data == "public":
        return
    for t in (*op.function_type.inputs.data, *op.function_type.outputs.data):
        if is_dynamic(t):
            raise signature_error(op, t)


def check_dynamic(op: Operation) -> None:
    """Raise a located error if `op` makes, takes or positions anything at run-time size in
    a way the later stages do not carry."""
    if isinstance(op, util.FuncOp):
        _check_signature(op)
    if isinstance(op, util.FuncOp) or _carries_dynamic(op):
        check_positions(op)
        return
    for t in value_types(op):
        if is_dynamic(t):
            raise CompileError.at(
                op, f"dynamic shape {t} of '{op.name}' is not supported yet", stage="input"
            )
    check_positions(op)


def check_positions(op: Operation) -> None:
    """Refuse offsets, sizes, strides, padding or output shapes given as SSA values."""
    for prop, what in _POSITIONS.items():
        values = op.properties.get(prop)
        if isinstance(op, tensor.ExpandShapeOp) and _expand_sized_by_shapes(op):
            continue
        if isinstance(values, DenseArrayBase) and DYNAMIC_INDEX in values.get_values():
            raise CompileError.at(op, _position_message(op, what), stage="input")


def _expand_sized_by_shapes(op: tensor.ExpandShapeOp) -> bool:
    """An `output_shape` computed from tensor shapes (`%n / 8` of a `?` input's size)."""
    return all(_is_shape_size(v) for v in op.dynamic_output_shape)


def value_types(op: Operation):
    """The types of `op`'s results, operands and region arguments."""
    yield from (v.type for v in op.results)
    yield from (v.type for v in op.operands)
    for region in op.regions:
        for block in region.blocks:
            yield from (a.type for a in block.args)


def _position_message(op: Operation, what: str) -> str:
    return (
        f"{what} of '{op.name}' given as SSA values are not supported yet "
        f"(only constants written in the op, as in [0, 2])"
    )
