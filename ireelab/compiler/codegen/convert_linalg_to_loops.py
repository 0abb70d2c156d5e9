"""`ConvertLinalgToLoopsPass` (`convert-linalg-to-loops`): linalg ops on buffers -> `scf.for`.

IREE runs MLIR's pass of this name late in its CPU pipeline (after `LinalgExtToLoopsPass`) for
whatever linalg op vectorisation left behind; in ireelab it lowers every structured op, named or
generic, since the numba emitter works on scalar loops. Each op becomes a perfect loop nest:
loads through its indexing maps, a clone of its region, stores of what it yields.

Unlike MLIR's pass, the loop order is chosen (an interchange, as `linalg` interchange would do):
the innermost loop is the dimension most operands walk contiguously, the last index of the most
inputs, then of the outputs, parallel before reduction. For a matmul that is `n`, giving the
`m, k, n` order whose inner loop LLVM vectorises over rows of B and C. When that innermost loop
is a reduction the outputs do not index (a row sum, a row max), the outputs are carried through
it as `scf.for` iter_args instead of loaded and stored every iteration, so the loop body reads
only its inputs and LLVM vectorises the reduction.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import IndexType, MemRefType, ModuleOp, ShapedType, TensorType
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Block, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.codegen.index_arith import IndexBuilder
from ireelab.diagnostics import CompileError


def _last_dim(indexing: AffineMap) -> int | None:
    if indexing.results and isinstance(indexing.results[-1], AffineDimExpr):
        return indexing.results[-1].position
    return None


def loop_order(maps: list[AffineMap], iterators: list[IteratorType], num_inputs: int) -> list[int]:
    """Loop dimensions outermost first, with the most contiguous dimension innermost."""
    count = len(iterators)
    if count == 0:
        return []
    input_hits = [0] * count
    output_hits = [0] * count
    for position, indexing in enumerate(maps):
        last = _last_dim(indexing)
        if last is None:
            continue
        hits = input_hits if position < num_inputs else output_hits
        hits[last] += 1

    def score(dim: int) -> tuple[int, int, int, int]:
        parallel = int(iterators[dim] == IteratorType.PARALLEL)
        return (input_hits[dim], output_hits[dim], parallel, dim)

    innermost = max(range(count), key=score)
    return [d for d in range(count) if d != innermost] + [innermost]


def loop_bounds(op: LinalgStructuredOperation) -> list[int | SSAValue]:
    """Each loop's trip count: a number, or for a `?` size a `memref.dim` of the first operand
    that a map indexes with that loop alone (MLIR's `createLoopRanges` from the shapes)."""
    bounds: list[int | SSAValue] = list(op.get_static_loop_ranges())
    maps = [m.data for m in op.get_indexing_maps()]
    for dim, bound in enumerate(bounds):
        if bound >= 0:
            continue
        for operand, indexing in zip(op.operands, maps, strict=False):
            at = [i for i, e in enumerate(indexing.results) if e == AffineDimExpr(dim)]
            if at and isinstance(operand.type, MemRefType):
                index = IndexBuilder(InsertPoint.before(op)).constant(at[0])
                size = memref.DimOp(operand, index)
                Rewriter.insert_op(size, InsertPoint.before(op))
                bounds[dim] = size.result
                break
        else:
            raise CompileError.at(op, f"no operand gives the size of loop {dim}", "codegen")
    return bounds


def _bound(builder: IndexBuilder, bound: int | SSAValue) -> SSAValue:
    return builder.constant(bound) if isinstance(bound, int) else bound


def _emit_loop_nest(
    op: LinalgStructuredOperation, order: list[int], bounds: list[int | SSAValue]
) -> tuple[list[SSAValue | None], InsertPoint, InsertPoint]:
    """Build empty `scf.for` loops before `op`; return induction variables, the inner point, and
    a point before the nest where further constants go."""
    builder = IndexBuilder(InsertPoint.before(op))
    zero, one = builder.constant(0), builder.constant(1)
    constants_point = InsertPoint.before(zero.owner)
    upper = {dim: _bound(builder, bounds[dim]) for dim in order}
    induction: list[SSAValue | None] = [None] * len(bounds)
    point = InsertPoint.before(op)
    for dim in order:
        body = Block(arg_types=[IndexType()])
        body.add_op(scf.YieldOp())
        loop = scf.ForOp(zero, upper[dim], one, [], body)
        Rewriter.insert_op(loop, point)
        induction[dim] = body.args[0]
        point = InsertPoint.before(body.last_op)
    return induction, point, constants_point


class LowerStructuredOpToLoops(RewritePattern):
    """One linalg op on memrefs -> a loop nest computing it element by element."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LinalgStructuredOperation, rewriter: PatternRewriter) -> None:
        if op.results or any(isinstance(v.type, TensorType) for v in op.operands):
            raise CompileError.at(
                op, f"'{op.name}' must be bufferized before loop lowering", stage="codegen"
            )
        maps = [m.data for m in op.get_indexing_maps()]
        iterators = [it.data for it in op.get_iterator_types()]
        order = loop_order(maps, iterators, len(op.inputs))
        if _accumulates_in_registers(maps[len(op.inputs) :], iterators, order):
            _lower_with_carried_outputs(op, maps, order)
        else:
            _lower_perfect_nest(op, maps, order)
        operands = list(op.operands)
        rewriter.erase(op)
        _erase_unread_allocations(operands, rewriter)


def _erase_unread_allocations(operands: list[SSAValue], rewriter: PatternRewriter) -> None:
    """An allocation the op's loops never load from (a pooling window, there for its shape)
    has no uses left once the op is gone: erase it, as MLIR's canonicalizer erases an
    allocation nothing uses."""
    for value in operands:
        if isinstance(value.owner, memref.AllocOp) and not value.uses:
            rewriter.erase(value.owner)


def _check_buffer(op: LinalgStructuredOperation, output: SSAValue) -> None:
    if not isinstance(output.type, MemRefType):
        raise CompileError.at(op, "linalg outputs must be memrefs here", stage="codegen")


def _accumulates_in_registers(
    output_maps: list[AffineMap], iterators: list[IteratorType], order: list[int]
) -> bool:
    """The innermost loop reduces into outputs it does not index: carry them in registers."""
    if not order or iterators[order[-1]] != IteratorType.REDUCTION:
        return False
    return all(order[-1] not in indexing.used_dims() for indexing in output_maps)


def _load_inputs(
    op: LinalgStructuredOperation,
    maps: list[AffineMap],
    induction: list[SSAValue | None],
    builder: IndexBuilder,
    mapping: dict[SSAValue, SSAValue],
    count: int,
) -> None:
    """Map the first `count` block arguments to scalar operands or loads of their element."""
    block = op.body.block
    for arg, operand, indexing in zip(block.args[:count], op.operands, maps, strict=False):
        if not isinstance(operand.type, ShapedType):
            mapping[arg] = operand
        elif arg.uses:
            indices = [builder.value(builder.expr(e, induction)) for e in indexing.results]
            mapping[arg] = builder.insert(memref.LoadOp.get(operand, indices))


def _clone_body(
    op: LinalgStructuredOperation,
    induction: list[SSAValue | None],
    builder: IndexBuilder,
    mapping: dict[SSAValue, SSAValue],
) -> list[SSAValue]:
    """Clone the payload at the builder; return the values it yields."""
    yielded: list[SSAValue] = []
    for body_op in op.body.block.ops:
        if isinstance(body_op, linalg_ops.YieldOp):
            yielded = [mapping.get(v, v) for v in body_op.operands]
        elif isinstance(body_op, linalg_ops.IndexOp):
            mapping[body_op.result] = induction[body_op.dim.value.data]
        else:
            builder.insert(body_op.clone(value_mapper=mapping))
    return yielded


def _lower_perfect_nest(
    op: LinalgStructuredOperation, maps: list[AffineMap], order: list[int]
) -> None:
    """Every element of every output is loaded, updated and stored in the innermost loop."""
    induction, point, constants = _emit_loop_nest(op, order, loop_bounds(op))
    builder = IndexBuilder(point, constants_point=constants)
    mapping: dict[SSAValue, SSAValue] = {}
    _load_inputs(op, maps, induction, builder, mapping, len(op.operands))
    yielded = _clone_body(op, induction, builder, mapping)
    output_maps = maps[len(op.inputs) :]
    for value, output, indexing in zip(yielded, op.outputs, output_maps, strict=True):
        _check_buffer(op, output)
        indices = [builder.value(builder.expr(e, induction)) for e in indexing.results]
        builder.insert(memref.StoreOp.get(value, output, indices))


def _lower_with_carried_outputs(
    op: LinalgStructuredOperation, maps: list[AffineMap], order: list[int]
) -> None:
    """The innermost (reduction) loop carries the outputs as `iter_args`: loaded before it,
    stored after it, so the loop body touches no output memory and LLVM can vectorise the
    reduction (what IREE gets from vector.multi_reduction and hoisting redundant transfers)."""
    bounds = loop_bounds(op)
    induction, point, constants = _emit_loop_nest(op, order[:-1], bounds)
    outer = IndexBuilder(point, constants_point=constants)
    output_maps = maps[len(op.inputs) :]
    output_indices = []
    initial = []
    for output, indexing in zip(op.outputs, output_maps, strict=True):
        _check_buffer(op, output)
        indices = [outer.value(outer.expr(e, induction)) for e in indexing.results]
        output_indices.append(indices)
        initial.append(outer.insert(memref.LoadOp.get(output, indices)))
    inner_dim = order[-1]
    body = Block(arg_types=[IndexType(), *(v.type for v in initial)])
    loop = scf.ForOp(
        outer.constant(0), _bound(outer, bounds[inner_dim]), outer.constant(1), initial, body
    )
    outer.insert(loop)
    induction[inner_dim] = body.args[0]
    inner = IndexBuilder(InsertPoint.at_end(body), constants_point=constants)
    mapping: dict[SSAValue, SSAValue] = {}
    _load_inputs(op, maps, induction, inner, mapping, len(op.inputs))
    block = op.body.block
    for arg, carried in zip(block.args[len(op.inputs) :], body.args[1:], strict=True):
        mapping[arg] = carried
    yielded = _clone_body(op, induction, inner, mapping)
    inner.insert(scf.YieldOp(*yielded))
    for result, output, indices in zip(loop.results, op.outputs, output_indices, strict=True):
        outer.insert(memref.StoreOp.get(result, output, indices))


@dataclass(frozen=True)
class ConvertLinalgToLoopsPass(ModulePass):
    """Lower every linalg structured op on buffers to `scf.for` loop nests."""

    name = "convert-linalg-to-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(LowerStructuredOpToLoops(), apply_recursively=False).rewrite_module(op)
