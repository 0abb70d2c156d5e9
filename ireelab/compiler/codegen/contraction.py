"""Is this linalg op a matrix multiply a GEMM micro-kernel can run, and how?

The analysis behind IREE's ukernel selection (`CPULowerToUKernelsPass` matches `linalg.mmt4d`
and friends; `linalg::inferContractionDims` finds the batch / M / N / K loops of any
contraction). ireelab's contraction micro-kernel is a row-major GEMM `C = op(A) @ op(B)` over
strided 2-D tiles, so an op matches when:

- it has two tensor or memref inputs and one output of the same float type (f32 or f64);
- its body is a multiply-accumulate, `yield(addf(out, mulf(a, b)))` (either operand order);
- every indexing map is a projected permutation naming its loops once, and each loop is a
  batch (in all three), M (lhs and out), N (rhs and out) or K (lhs and rhs, a reduction);
- exactly one M, one N and one K loop, at most one batch loop, leading in every operand;
- the output is `(batch, m, n)`; the lhs `(batch, m, k)` or transposed `(batch, k, m)`; the
  rhs `(batch, k, n)` or transposed `(batch, n, k)`.

`linalg.matmul` (also with transposing `indexing_maps`), `linalg.batch_matmul` and their
generic forms all match.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, Float64Type, ShapedType
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr

GEMM_ELEMENT_TYPES = (Float32Type, Float64Type)


@dataclass(frozen=True)
class GemmDims:
    """Which loop of the op is batch, M, N and K, and which operands are transposed."""

    batch: int | None
    m: int
    n: int
    k: int
    transpose_lhs: bool
    transpose_rhs: bool


def _positions(op: LinalgStructuredOperation) -> list[list[int]] | None:
    maps = [m.data for m in op.get_indexing_maps()]
    positions = []
    for indexing in maps:
        if not all(isinstance(e, AffineDimExpr) for e in indexing.results):
            return None
        dims = [e.position for e in indexing.results]
        if len(set(dims)) != len(dims):
            return None
        positions.append(dims)
    return positions


def _is_multiply_accumulate(op: LinalgStructuredOperation) -> bool:
    block = op.body.block
    ops = list(block.ops)
    if len(ops) != 3 or len(block.args) != 3:
        return False
    mul, add, yield_op = ops
    if not isinstance(mul, arith.MulfOp) or not isinstance(add, arith.AddfOp):
        return False
    if not isinstance(yield_op, linalg_ops.YieldOp) or list(yield_op.operands) != [add.result]:
        return False
    a, b, out = block.args
    if {mul.lhs, mul.rhs} != {a, b} or a is b:
        return False
    return {add.lhs, add.rhs} == {mul.result, out}


def _element_types_match(op: LinalgStructuredOperation) -> bool:
    types = []
    for value in op.operands:
        if not isinstance(value.type, ShapedType):
            return False
        types.append(value.type.get_element_type())
    return isinstance(types[0], GEMM_ELEMENT_TYPES) and all(t == types[0] for t in types)


def match_gemm(op: Operation) -> GemmDims | None:
    """The GEMM view of `op`, or None when the micro-kernel cannot run it."""
    if not isinstance(op, LinalgStructuredOperation):
        return None
    if len(op.inputs) != 2 or len(op.outputs) != 1 or not _element_types_match(op):
        return None
    if not _is_multiply_accumulate(op):
        return None
    positions = _positions(op)
    if positions is None:
        return None
    lhs, rhs, out = (set(p) for p in positions)
    iterators = [it.data for it in op.get_iterator_types()]
    roles: dict[str, list[int]] = {"batch": [], "m": [], "n": [], "k": []}
    for dim, iterator in enumerate(iterators):
        role = {
            (True, True, True): "batch",
            (True, False, True): "m",
            (False, True, True): "n",
            (True, True, False): "k",
        }.get((dim in lhs, dim in rhs, dim in out))
        if role is None or (role == "k") != (iterator == IteratorType.REDUCTION):
            return None
        roles[role].append(dim)
    if any(len(roles[r]) != 1 for r in "mnk") or len(roles["batch"]) > 1:
        return None
    batch = roles["batch"][0] if roles["batch"] else None
    m, n, k = roles["m"][0], roles["n"][0], roles["k"][0]
    lead = [batch] if batch is not None else []
    if positions[2] != [*lead, m, n]:
        return None
    if positions[0] not in ([*lead, m, k], [*lead, k, m]):
        return None
    if positions[1] not in ([*lead, k, n], [*lead, n, k]):
        return None
    return GemmDims(batch, m, n, k, positions[0] == [*lead, k, m], positions[1] == [*lead, n, k])
