"""The sizes a `?`-shaped value had in the last call, for the pictures' labels.

IREE's host code reads each `?` of an argument from its buffer view (`hal.buffer_view.dim`)
and carries it as an index value next to every tensor that has it (`tensor<?x4xf32>{%d}` on
`hal.tensor.import`, `flow.dispatch` results, the `flow.tensor.*` ops). Given the argument
shapes of a call, those index values are evaluated here: the dims read from the views, the
constants, and the integer arithmetic the size math uses (with `util.align`, which
places the slices of a slab sized at run time).

A size computed some other way (read from a tensor's element, say) is known when a result
has it: `hal.tensor.export` records its dims in the result's view. Anything else stays `?`.

`CompiledModule` keeps the argument and result shapes of each function's last call
(`last_run`); the dispatch graph then labels an edge `tensor<?x4xf32> (last run 7x4)`.
"""

from __future__ import annotations

from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from ireelab.viz.generic_ir import type_text

Shapes = tuple[tuple[int, ...], ...]

_DIM_OPERANDS = ("result_dims", "target_dims")
"""The operand groups that carry the `?` sizes of an op's tensor results, in result order."""

_ARITH = {
    "arith.addi": lambda a, b: a + b,
    "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b,
    "arith.divui": lambda a, b: a // b if b else None,
    "arith.ceildivui": lambda a, b: -(-a // b) if b else None,
    "arith.ceildivsi": lambda a, b: -(-a // b) if b else None,
    "arith.maxui": max,
    "arith.minui": min,
    "arith.maxsi": max,
    "arith.minsi": min,
    "util.align": lambda a, b: -(-a // b) * b if b else None,
}


class LastRun:
    """Evaluates the `?` sizes of one function's values for the argument shapes of one call."""

    def __init__(self, function: Operation, shapes: Shapes, results: Shapes = ()):
        self.arguments = list(function.regions[0].blocks[0].args)
        self.shapes = shapes
        self.known: dict[SSAValue, int | None] = {}
        self._seed_from_results(function, results)

    def _seed_from_results(self, function: Operation, results: Shapes) -> None:
        """A size the host computed some other way (read from a tensor's element) is known
        from the result it shapes: `hal.tensor.export` records its dims in the view."""
        body = function.regions[0].blocks[0]
        returned = body.last_op.operands if body.last_op is not None else ()
        for value, shape in zip(returned, results, strict=False):
            encoded = _encoded(value.owner) if isinstance(value.owner, Operation) else None
            if encoded is None:
                continue
            axes = [i for i, d in enumerate(_shape(encoded[0]) or ()) if d < 0]
            for axis, dim in zip(axes, encoded[1], strict=False):
                if axis < len(shape):
                    self.known.setdefault(dim, shape[axis])

    def tensor(self, op: Operation) -> str | None:
        """`64x1000` for a `stream.tensor.import` / `export` (or `hal.tensor.*`) of a tensor
        with `?` sizes; None when it has none."""
        encoded = _encoded(op)
        return None if encoded is None else self._fill(_shape(encoded[0]), list(encoded[1]))

    def bytes(self, size: SSAValue) -> str | None:
        """`16000 B` for a byte size the host computes at run time, when known."""
        value = self.index(size)
        owner = size.owner
        constant = isinstance(owner, Operation) and owner.name == "arith.constant"
        return None if value is None or constant else f"{value} B"

    def label(self, value: SSAValue) -> str:
        """The value's type, with its sizes in the last run when it has a `?`."""
        text = type_text(value.type)
        sizes = self.sizes(value)
        return f"{text} (last run {sizes})" if sizes else text

    def sizes(self, value: SSAValue) -> str | None:
        """`7x4` for a `tensor<?x4xf32>` value whose `?` was 7 in the last run, `?x4` where
        that `?` is not known; None for a value with no `?` sizes."""
        dims = _dims_of(value)
        return None if dims is None else self._fill(_shape(value.type), dims)

    def _fill(self, shape: tuple[int, ...] | None, dims: list[SSAValue]) -> str | None:
        if shape is None or all(d >= 0 for d in shape):
            return None
        if len(dims) != sum(1 for d in shape if d < 0):
            return None
        known = iter(self.index(d) for d in dims)
        sizes = [d if d >= 0 else next(known) for d in shape]
        return "x".join("?" if d is None else str(d) for d in sizes)

    def index(self, value: SSAValue) -> int | None:
        if value not in self.known:
            self.known[value] = self._evaluate(value)
        return self.known[value]

    def _evaluate(self, value: SSAValue) -> int | None:
        op = value.owner
        if isinstance(value, BlockArgument) or not isinstance(op, Operation):
            return None
        if op.name == "hal.buffer_view.dim":
            view = op.operands[0]
            if view not in self.arguments:
                return None
            shape = self.shapes[self.arguments.index(view)]
            axis = op.properties["index"].value.data
            return shape[axis] if axis < len(shape) else None
        if op.name == "arith.constant":
            attr = op.properties.get("value") or op.attributes.get("value")
            data = getattr(getattr(attr, "value", None), "data", None)
            return data if isinstance(data, int) else None
        fn = _ARITH.get(op.name)
        if fn is None or len(op.operands) != 2:
            return None
        a, b = (self.index(o) for o in op.operands)
        return None if a is None or b is None else fn(a, b)


def _shape(t: Attribute) -> tuple[int, ...] | None:
    shape = getattr(t, "get_shape", None)
    return tuple(shape()) if callable(shape) else None


_ENCODED = {
    "hal.tensor.import": ("target", "target_dims"),
    "hal.tensor.export": ("source", "source_dims"),
    "stream.tensor.import": ("result_encoding", "result_encoding_dims"),
    "stream.tensor.export": ("source_encoding", "source_encoding_dims"),
}
"""Per ABI op: where its tensor type is (an operand, a result or a property) and its dims."""


def _encoded(op: Operation) -> tuple[Attribute, list[SSAValue]] | None:
    """The tensor type an import / export moves and the index values of its `?` sizes."""
    names = _ENCODED.get(op.name)
    if names is None:
        return None
    where, dims = names
    attr = op.properties.get(where)
    if attr is None:
        attr = getattr(op, where).type
    return attr, list(getattr(op, dims))


def _dims_of(value: SSAValue) -> list[SSAValue] | None:
    """The index values giving `value`'s `?` sizes on the op that defines it."""
    op = value.owner
    if not isinstance(op, Operation):
        return None
    group = next((getattr(op, g) for g in _DIM_OPERANDS if hasattr(op, g)), None)
    if group is None:
        return None
    dims = list(group)
    for result in op.results:
        count = sum(1 for d in _shape(result.type) or () if d < 0)
        if result is value:
            return dims[:count]
        dims = dims[count:]
    return None
