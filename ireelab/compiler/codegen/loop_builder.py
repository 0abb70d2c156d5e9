"""Scalar loop IR built at one point: `scf.for` nests, loads, stores, inlined regions.

What IREE's scalar implementations (`generateScalarImplementation`) build with an
`OpBuilder`, for ireelab's lowerings of `iree_linalg_ext` ops (`linalg_ext_to_loops.py`,
`attention_to_loops.py`): an `IndexBuilder` that also opens loops (with carried values),
guards a block with `scf.if`, and clones a region's body with its arguments bound.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.codegen.index_arith import IndexBuilder
from ireelab.diagnostics import CompileError
from ireelab.dialects import iree_linalg_ext as ext

Index = SSAValue | int


class LoopBuilder(IndexBuilder):
    """An `IndexBuilder` that also opens loops and inlines regions at its point."""

    def load(self, buffer: SSAValue, indices: Sequence[Index]) -> SSAValue:
        return self.insert(memref.LoadOp.get(buffer, [self.value(i) for i in indices]))

    def store(self, value: SSAValue, buffer: SSAValue, indices: Sequence[Index]) -> None:
        self.insert(memref.StoreOp.get(value, buffer, [self.value(i) for i in indices]))

    def sizes(self, buffer: SSAValue) -> list[Index]:
        """The buffer's extents: ints where static, `memref.dim` here where `?` (a dim
        pushed to the kernel as a constant, read back through the binding's view)."""
        return [
            size if size >= 0 else self._dim(buffer, i)
            for i, size in enumerate(buffer.type.get_shape())
        ]

    def _dim(self, buffer: SSAValue, index: int) -> SSAValue:
        """`memref.dim` with the constants, before every loop of the lowering, so it
        dominates a use in any loop whichever builder asks."""
        dim = memref.DimOp(buffer, self.constant(index))
        Rewriter.insert_op(dim, self.constants_point)
        return dim.result

    def select(self, condition: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.insert(arith.SelectOp(condition, a, b))

    def loop(
        self, lower: Index, upper: Index, carried: Sequence[SSAValue] = ()
    ) -> tuple[SSAValue, list[SSAValue], LoopBuilder, scf.ForOp]:
        """An `scf.for` here; returns its counter, carried block args, a builder inside
        (finish the body with `close`) and the loop."""
        body = Block(arg_types=[IndexType(), *(v.type for v in carried)])
        loop = scf.ForOp(self.value(lower), self.value(upper), self.value(1), carried, body)
        self.insert(loop)
        inner = LoopBuilder(InsertPoint.at_end(body), constants_point=self.constants_point)
        inner._constants = self._constants
        return body.args[0], list(body.args[1:]), inner, loop

    def nest(self, extents: Sequence[Index]) -> tuple[list[SSAValue], LoopBuilder]:
        """A perfect nest over `extents`, outermost first; the innermost builder."""
        builder, counters = self, []
        for extent in extents:
            counter, _, builder, _ = builder.loop(0, extent)
            counters.append(counter)
        return counters, builder

    def guarded(self, condition: SSAValue) -> LoopBuilder:
        """A builder inside `scf.if condition` (no results)."""
        then = Block()
        self.insert(scf.IfOp(condition, [], Region(then)))
        inner = LoopBuilder(InsertPoint.at_end(then), constants_point=self.constants_point)
        inner._constants = self._constants
        return inner

    def inline(self, region: Region, args: Sequence[SSAValue]) -> list[SSAValue]:
        """Clone `region`'s block here with its arguments bound to `args`; the yielded."""
        block = region.block
        mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, args, strict=True))
        for op in block.ops:
            if isinstance(op, ext.YieldOp):
                return [mapping.get(v, v) for v in op.values]
            self.insert(op.clone(value_mapper=mapping))
        raise CompileError.at(region.parent_op(), "region has no yield", stage="codegen")


def close(builder: LoopBuilder, *values: SSAValue) -> None:
    builder.insert(scf.YieldOp(*values))


def finish_nest(counters: list[SSAValue]) -> None:
    """Give every loop of a nest built by `nest` its empty `scf.yield`."""
    for counter in counters:
        counter.block.add_op(scf.YieldOp())


def reduce(
    builder: LoopBuilder,
    extents: Sequence[Index],
    carried: Sequence[SSAValue],
    body: Callable[[list[SSAValue], LoopBuilder, list[SSAValue]], list[SSAValue]],
) -> list[SSAValue]:
    """Loops over `extents` carrying `carried`; `body(counters, builder, values)` returns
    the next values; the values after the last iteration are returned."""
    if not extents:
        return body([], builder, list(carried))
    counter, args, inner, loop = builder.loop(0, extents[0], carried)

    def rest(counters, b, values):
        return body([counter, *counters], b, values)

    close(inner, *reduce(inner, extents[1:], args, rest))
    return list(loop.results)
