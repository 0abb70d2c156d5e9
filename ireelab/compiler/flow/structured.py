"""What the Flow stage asks of a linalg op: maps, loops, kinds; and how to generalise one.

Mirrors MLIR's `LinalgOp` interface queries (`getIndexingMapsArray`, `getStaticLoopRanges`,
`isaContractionOpInterface`, `isaConvolutionOpInterface`, `isElementwise`) and
`linalg::generalizeNamedOp`, which IREE's GlobalOptimization and DispatchCreation passes rely
on. Every structured op (named or generic, xDSL's or `ireelab.dialects.linalg_ext`'s) answers
the same questions here, so the passes never special-case an op name they do not need to.
`iree_linalg_ext.quantize_affine` / `dequantize_affine` answer the map and loop queries too
(all loops parallel), so FoldUnitExtentDimsPass folds them before they are decomposed.
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.rewriter import Rewriter

from ireelab.dialects import builtin_resources
from ireelab.dialects.iree_linalg_ext_quant import AffineQuantOp
from ireelab.dialects.linalg_ext import MapOp


def is_structured(op: Operation | None) -> bool:
    """A linalg op with indexing maps and iterator types (not `linalg.yield`/`index`)."""
    if isinstance(op, linalg.BroadcastOp | linalg.ReduceOp):
        return True
    return op is not None and hasattr(op, "get_indexing_maps") and hasattr(op, "get_iterator_types")


def is_generic(op: Operation | None) -> bool:
    return isinstance(op, linalg.GenericOp)


def inputs(op: Operation) -> list[SSAValue]:
    if isinstance(op, linalg.BroadcastOp | linalg.ReduceOp):
        return [op.input]
    return list(op.inputs)


def inits(op: Operation) -> list[SSAValue]:
    if isinstance(op, linalg.ReduceOp | linalg.BroadcastOp):
        return [op.init]
    if isinstance(op, MapOp):
        return [op.init]
    return list(op.outputs)


def indexing_maps(op: Operation) -> list[AffineMap]:
    if isinstance(op, linalg.BroadcastOp | linalg.ReduceOp):
        return _dims_op_maps(op)
    if isinstance(op, AffineQuantOp):
        return op.maps()
    return [m.data for m in op.get_indexing_maps()]


def iterator_types(op: Operation) -> list[str]:
    if isinstance(op, linalg.ReduceOp):
        dims = set(op.dimensions.get_values())
        rank = len(op.input.type.get_shape())
        return ["reduction" if d in dims else "parallel" for d in range(rank)]
    if isinstance(op, linalg.BroadcastOp):
        return ["parallel"] * len(op.init.type.get_shape())
    if isinstance(op, AffineQuantOp):
        return ["parallel"] * op.maps()[-1].num_dims
    return [str(i.data) for i in op.get_iterator_types()]


def _dims_op_maps(op: Operation) -> list[AffineMap]:
    """`linalg.reduce` / `linalg.broadcast`: the full-rank side is the identity, the other side
    drops `dimensions`."""
    dims = set(op.dimensions.get_values())
    if isinstance(op, linalg.ReduceOp):
        rank = len(op.input.type.get_shape())
    else:
        rank = len(op.init.type.get_shape())
    kept = tuple(AffineDimExpr(d) for d in range(rank) if d not in dims)
    full, partial = AffineMap.identity(rank), AffineMap(rank, 0, kept)
    return [full, partial] if isinstance(op, linalg.ReduceOp) else [partial, full]


def num_loops(op: Operation) -> int:
    return len(iterator_types(op))


def num_reduction_loops(op: Operation) -> int:
    return iterator_types(op).count("reduction")


def is_all_parallel(op: Operation) -> bool:
    return num_reduction_loops(op) == 0


def operand_map(op: Operation, operand_index: int) -> AffineMap:
    return indexing_maps(op)[operand_index]


def result_map(result: OpResult) -> AffineMap:
    """The indexing map of the init tied to `result`."""
    op = result.op
    return indexing_maps(op)[len(inputs(op)) + result.index]


def loop_ranges(op: Operation) -> list[int]:
    """Static size of each loop, read off the operand shapes (MLIR's `getStaticLoopRanges`)."""
    ranges: list[int | None] = [None] * num_loops(op)
    for value, amap in zip([*inputs(op), *inits(op)], indexing_maps(op), strict=True):
        if not isinstance(value.type, ShapedType):
            continue
        for size, expr in zip(value.type.get_shape(), amap.results, strict=True):
            if isinstance(expr, AffineDimExpr) and ranges[expr.position] is None:
                ranges[expr.position] = size
    return [r if r is not None else -1 for r in ranges]


def is_projected_permutation(amap: AffineMap) -> bool:
    return amap.is_projected_permutation()


def is_permutation(amap: AffineMap) -> bool:
    return amap.is_projected_permutation() and len(amap.results) == amap.num_dims


def is_identity(amap: AffineMap) -> bool:
    return amap == AffineMap.identity(amap.num_dims)


def body_is_yield_only(op: Operation) -> bool:
    ops = list(op.regions[0].block.ops)
    return len(ops) == 1


def _mul_add_body(op: Operation) -> bool:
    """The body is `acc + a * b` up to casts (what contractions and convolutions compute)."""
    names = [o.name for o in op.regions[0].block.ops]
    core = [n for n in names if n not in _CASTS]
    return core in (
        ["arith.mulf", "arith.addf", "linalg.yield"],
        ["arith.muli", "arith.addi", "linalg.yield"],
    )


_CASTS = {
    "arith.extf",
    "arith.truncf",
    "arith.extsi",
    "arith.extui",
    "arith.trunci",
    "arith.sitofp",
}


def is_contraction(op: Operation) -> bool:
    """MLIR's `isaContractionOpInterface`: two inputs, projected-permutation maps, at least one
    reduction loop, a multiply-accumulate body."""
    if not is_structured(op) or len(inputs(op)) != 2 or len(inits(op)) != 1:
        return False
    if not all(is_projected_permutation(m) for m in indexing_maps(op)):
        return False
    return num_reduction_loops(op) >= 1 and _mul_add_body(op)


def is_convolution(op: Operation) -> bool:
    """MLIR's `isaConvolutionOpInterface`, approximately: an input indexed by sums of loops
    (`oh + kh`) and reduction loops over the window (pooling ops included)."""
    if not is_structured(op) or len(inputs(op)) != 2 or num_reduction_loops(op) == 0:
        return False
    image_map = indexing_maps(op)[0]
    return any(not isinstance(e, AffineDimExpr | AffineConstantExpr) for e in image_map.results)


def is_elementwise_generic(op: Operation) -> bool:
    return is_generic(op) and is_all_parallel(op)


def element_type_name(value: SSAValue) -> str:
    t = value.type
    return str(t.get_element_type()) if isinstance(t, ShapedType) else str(t)


# ---- generalisation (linalg::generalizeNamedOp) -----------------------------------------


def generalize(op: Operation, rewriter: Rewriter | None = None) -> linalg.GenericOp:
    """Replace a named structured op by the `linalg.generic` with the same maps, loops and body."""
    if isinstance(op, linalg.GenericOp):
        return op
    body = Region()
    op.regions[0].clone_into(body)
    generic = make_generic(inputs(op), inits(op), body, indexing_maps(op), iterator_types(op))
    if rewriter is None:
        Rewriter.replace_op(op, generic)
    else:
        rewriter.replace_op(op, generic)
    return generic


def make_generic(
    ins: list[SSAValue],
    outs: list[SSAValue],
    body: Region,
    maps: list[AffineMap],
    iterators: list[str],
) -> linalg.GenericOp:
    return linalg.GenericOp(
        ins,
        outs,
        body,
        ArrayAttr([AffineMapAttr(m) for m in maps]),
        ArrayAttr(
            [
                IteratorTypeAttr.parallel() if i == "parallel" else IteratorTypeAttr.reduction()
                for i in iterators
            ]
        ),
        [o.type for o in outs if isinstance(o.type, TensorType)],
    )


INLINE_CONSTANTS_MAX_BYTE_LENGTH = 256
"""IREE's `--iree-flow-inline-constants-max-byte-length` (default 256): a dense tensor constant
up to this size is cloned into the dispatches that use it; larger ones are outlined to globals
(`OutlineConstantsPass`) and passed in as resources. Splats are always cloned."""


def is_cheap_producer(
    op: Operation | None, max_constant_bytes: int = INLINE_CONSTANTS_MAX_BYTE_LENGTH
) -> bool:
    """Ops IREE clones into every dispatch that uses them instead of materialising their result
    (`isCloneableIntoDispatchOp`): fills, empties, extracts, scalar arith, scalar and splat
    constants, and dense constants of at most `max_constant_bytes` (0 disables constant cloning).
    """
    if op is None:
        return False
    if isinstance(op, linalg.FillOp | tensor.EmptyOp | tensor.ExtractOp | tensor.ExtractSliceOp):
        return True
    if isinstance(op, arith.ConstantOp):
        return _is_inlinable_constant(op, max_constant_bytes)
    if isinstance(op, arith.IndexCastOp):
        return True
    if op.dialect_name() == "arith":
        # IREE's test is `isIntOrFloat`, which `index` is not: size arithmetic stays on the
        # host and its result is passed in, as a dispatch's `?` sizes are
        values = [*op.operands, *op.results]
        return all(not isinstance(v.type, ShapedType | IndexType) for v in values)
    return False


def _is_inlinable_constant(op: arith.ConstantOp, max_constant_bytes: int) -> bool:
    value_type = op.result.type
    if not isinstance(value_type, ShapedType):
        return True
    if max_constant_bytes == 0:
        return False
    value = builtin_resources.elements(op.value)
    if value is None:
        return False
    return is_splat(value) or constant_byte_length(value_type) <= max_constant_bytes


def is_splat(value: DenseIntOrFPElementsAttr) -> bool:
    """Every element equal (compared on the stored bytes: fast on large constants)."""
    data = value.data.data
    count = len(value)
    if count <= 1:
        return True
    width = len(data) // count
    return data == data[:width] * count


def constant_byte_length(shaped: ShapedType) -> int:
    """Elements times element bits over 8, as IREE estimates a constant's size."""
    count = 1
    for size in shaped.get_shape():
        count *= size
    element = shaped.get_element_type()
    bits = element.bitwidth if hasattr(element, "bitwidth") else 64
    return count * bits // 8


def use_count(value: SSAValue) -> int:
    return sum(1 for _ in value.uses)


def op_use_count(op: Operation) -> int:
    return sum(use_count(r) for r in op.results)
