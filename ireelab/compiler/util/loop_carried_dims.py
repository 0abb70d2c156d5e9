"""The `?` sizes of a tensor a host `scf.for` carries, when the loop does not change them.

Mirrors MLIR's `DimOfIterArgFolder` / `DimOfLoopResultFolder` (SCF's `scf.for`
canonicalizations IREE runs): a `tensor.dim` of an iter_arg, or of the loop's result, is
the init's size when the loop is shape-preserving for that argument - what the body yields
there has the iter_arg's own sizes. IREE then carries the tensor through Flow as
`tensor<?xf32>{%d}` with `%d` the init's size, defined before the loop, and Stream as a
resource and its byte size. The check is an induction: assuming the iter_arg has the
init's sizes, the yielded value must have them too, so nested loops keeping their sizes
are carried (after CollapseDimensionsPass an inner body yields an expand_shape sized by the
outer init's dim; IREE 3.13 stops at Flow on such nested loops). A loop whose carried sizes
change per iteration (a tensor grown by a concat) is not shape-preserving: its dims stay
unknown here, and the input stage refuses it (IREE 3.13 itself stops at Flow on it, or
returns an empty tensor).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerAttr, TensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import BlockArgument, OpResult, SSAValue

Finder = Callable[[SSAValue], "list[SSAValue] | None"]


def carried_loop(value: SSAValue) -> tuple[scf.ForOp, int] | None:
    """The host `scf.for` carrying `value` (an iter_arg of its body, or one of its results)
    and the iter_arg's position; None for any other value."""
    if isinstance(value, BlockArgument) and value.index > 0:
        loop = value.block.parent_op()
        if isinstance(loop, scf.ForOp) and value.block is loop.body.block:
            return loop, value.index - 1
    if isinstance(value, OpResult) and isinstance(value.op, scf.ForOp):
        return value.op, value.index
    return None


def loop_carried_dims(value: SSAValue, find: Finder) -> list[SSAValue] | None:
    """The init's `?` sizes for a tensor a shape-preserving `scf.for` carries (`find` is
    `find_dynamic_dims`), None when `value` is not one or the loop changes its sizes."""
    carried = carried_loop(value)
    if carried is None:
        return None
    loop, i = carried
    if (id(loop), i) in _ASSUMED:  # deciding this loop: its iter_arg has the init's sizes
        return _ASSUMED[id(loop), i]
    if not preserves_shape(loop, i, find):
        return None
    return find(loop.iter_args[i])


def preserves_shape(loop: scf.ForOp, i: int, find: Finder) -> bool:
    """What the body yields at position `i` has iter_arg `i`'s sizes, by induction: assuming
    the iter_arg has the init's sizes, the yielded value is the iter_arg itself, reached
    through destination operands (linalg outs, insert_slice dests, casts to the same type,
    nested loops keeping their sizes) or the first operand of elementwise `arith` / `math`
    on whole tensors, or its sizes are the iter_arg's `tensor.dim`s or the init's."""
    arg = loop.body.block.args[i + 1]
    if not isinstance(arg.type, TensorType):
        return True
    key = (id(loop), i)
    if key in _ASSUMED:
        return True  # a nested loop's check reached back here: the assumption holds
    _ASSUMED[key] = find(loop.iter_args[i])
    try:
        return _preserves_shape(loop, i, arg, find)
    finally:
        del _ASSUMED[key]


_ASSUMED: dict[tuple[int, int], list[SSAValue] | None] = {}
"""The (loop, position) pairs `preserves_shape` is deciding, with the init's sizes the
iter_arg is assumed to have meanwhile (None where the init's are not known yet: then only
a yielded value reached from the iter_arg itself counts)."""


def _preserves_shape(loop: scf.ForOp, i: int, arg: SSAValue, find: Finder) -> bool:
    yielded = loop.body.block.last_op
    if not isinstance(yielded, scf.YieldOp):
        return False
    value, seen = yielded.operands[i], set()
    while value not in seen:
        seen.add(value)
        if value is arg:
            return True
        nxt = shape_source(value, find)
        if nxt is None:
            break
        value = nxt
    if value.type != arg.type:
        return False
    init_dims = _ASSUMED[id(loop), i]
    dims = find(value)
    if dims is None or init_dims is None:
        return False
    return all(
        d is init or _is_dim_of(d, arg, k)
        for k, (d, init) in enumerate(zip(dims, init_dims, strict=True))
    )


def shape_source(value: SSAValue, find: Finder) -> SSAValue | None:
    """The operand whose shape `value` has, for ops that write into a destination."""
    if not isinstance(value, OpResult):
        return None
    op = value.op
    if isinstance(op, LinalgStructuredOperation):
        return op.outputs[value.index]
    if isinstance(op, tensor.InsertSliceOp):
        return op.dest
    if isinstance(op, tensor.CastOp) and op.source.type == op.dest.type:
        return op.source
    if op.dialect_name() in ("arith", "math") and not op.regions and op.operands:
        # elementwise on whole tensors: every operand has the result's shape
        if all(v.type == value.type for v in op.operands):
            return op.operands[0]
    if isinstance(op, scf.ForOp) and preserves_shape(op, value.index, find):
        return op.iter_args[value.index]  # a nested loop keeping the sizes
    return None


def _is_dim_of(size: SSAValue, arg: SSAValue, k: int) -> bool:
    """`size` is `tensor.dim %arg, %c` with `%c` the position of `arg`'s `k`-th `?`."""
    op = size.owner
    if not isinstance(op, tensor.DimOp) or op.source is not arg:
        return False
    index = op.index.owner
    if not isinstance(index, arith.ConstantOp) or not isinstance(index.value, IntegerAttr):
        return False
    positions = [p for p, d in enumerate(arg.type.get_shape()) if d == DYNAMIC_INDEX]
    return k < len(positions) and index.value.value.data == positions[k]
