"""MoveInitOperandsToInput: an all-parallel generic's init that its body reads becomes an input.

Mirrors MLIR's `MoveInitOperandsToInput` pattern (`linalg::populateMoveInitOperandsToInputPattern`),
which IREE's FoldUnitExtentDimsPass applies with its canonicalisation patterns: in

    linalg.generic ins(%scale : tensor<f32>) outs(%x : tensor<1000xf32>) { %out / %in }

`%x` is read, not only written, so it is moved to the inputs (same map) and the init becomes a
fresh `tensor.empty` of its shape (its `?` sizes those of the old init) whose block argument
nothing reads:

    linalg.generic ins(%scale, %x : tensor<f32>, tensor<1000xf32>) outs(%e : tensor<1000xf32>)

The op then reads its operands as elementwise ops do (IREE names the dispatch
`elementwise_1000_f32`, not `elementwise_broadcast_1000_f32`), and fusion sees an init that can
be written in place. Ops with a reduction loop keep their inits: there the init is the
accumulator.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.util.dynamic_dims import find_dynamic_dims


def move_init_operands_to_input(op: Operation) -> bool:
    """Rewrite `op` (a generic with tensor semantics) as above; True if it changed."""
    if not st.is_generic(op) or not st.is_all_parallel(op):
        return False
    ins, outs = st.inputs(op), st.inits(op)
    if not all(isinstance(v.type, TensorType) for v in [*ins, *outs]):
        return False
    n_in = len(ins)
    args = op.regions[0].block.args
    moved = [k for k, _ in enumerate(outs) if args[n_in + k].uses]
    if not moved:
        return False
    sizes = {k: find_dynamic_dims(outs[k]) for k in moved}
    if any(dims is None for dims in sizes.values()):
        return False  # a `?` size no op states: the fresh init could not be sized
    maps = st.indexing_maps(op)
    new_ins = [*ins, *(outs[k] for k in moved)]
    new_maps = [*maps[:n_in], *(maps[n_in + k] for k in moved), *maps[n_in:]]
    new_outs = list(outs)
    for k in moved:
        empty = tensor.EmptyOp(sizes[k], outs[k].type)
        empty.location = op.location
        Rewriter.insert_op(empty, InsertPoint.before(op))
        new_outs[k] = empty.tensor
    body = op.detach_region(0)
    block = body.block
    for position, k in enumerate(moved):
        old = block.args[n_in + position + k]  # the init's argument, after those inserted
        new = block.insert_arg(old.type, n_in + position)
        old.replace_all_uses_with(new)
    generic = st.make_generic(new_ins, new_outs, body, new_maps, st.iterator_types(op))
    generic.location = op.location
    Rewriter.replace_op(op, generic)
    return True
