"""PropagateLinalgTransposePass (`iree-global-opt-propagate-linalg-transpose`).

Mirrors IREE's GlobalOptimization/PropagateLinalgTranspose.cpp with its default options: a
transpose is never materialised on its own if a consumer can read through it instead. As in
IREE the pass runs in phases, each a greedy rewrite to a fixed point that also erases the ops
left dead (MLIR's greedy driver):

0. Transposes written as generics are specialised back to `linalg.transpose`.
1. Initial sinking: a 2-D transpose feeding a `linalg.matmul` operand is folded into the
   matmul's indexing maps (`NamedOpConversion`; IREE 3.13 prints it as
   `linalg.matmul indexing_maps = [...]`, its matmul_transpose_a/b).
2. Bubbling: a single-use transpose of a single-use all-parallel generic's result is folded
   into that generic's init map (`FuseTransposeWithProducerLinalgOp`), and a transpose of a
   transpose becomes one transpose of the source with the composed permutation, or the source
   itself when that is the identity (`ComposeTransposes`; the inner one stays while others
   read it).
3. Sinking: a single-use transpose feeding an input of a `linalg.generic` is folded into that
   input's indexing map (`FuseTransposeWithLinalgOpConsumer`; convolutions excluded, as by
   default), with `ComposeTransposes` and the matmul folding again.

Transposes that remain are generalised again, as IREE's second GeneralizeLinalgNamedOpsPass
does right after. Not modelled: propagation through reshapes, extract_slice, pad, sinking
through unary elementwise generics, and the batch_matmul transposed forms.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, OpResult
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.dead_code import erase_dead_ops
from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.compiler.input.linalg_canonicalization import (
    compose_permutations,
    forward_operand,
    is_identity_permutation,
)
from ireelab.dialects.linalg_ext import MatmulOp
from ireelab.dialects.linalg_transpose import TransposeOp


def transpose_permutation(op: Operation) -> list[int] | None:
    """The permutation of a pure transpose (named or generic), else None."""
    if isinstance(op, linalg.TransposeOp):
        return list(op.permutation.get_values())
    if not st.is_generic(op) or len(st.inputs(op)) != 1 or len(st.inits(op)) != 1:
        return None
    if not st.is_all_parallel(op) or not st.body_is_yield_only(op):
        return None
    block = op.body.block
    if block.last_op.operands[0] is not block.args[0]:
        return None
    in_map, out_map = st.indexing_maps(op)
    if not (st.is_permutation(in_map) and st.is_permutation(out_map)) or in_map == out_map:
        return None
    in_pos = [e.position for e in in_map.results]
    return [in_pos.index(e.position) for e in out_map.results]


def specialize(op: Operation) -> None:
    perm = transpose_permutation(op)
    if perm is None or isinstance(op, linalg.TransposeOp):
        return
    (src,), (init,) = st.inputs(op), st.inits(op)
    new = TransposeOp(src, init, DenseArrayBase.from_list(i64, perm))
    Rewriter.replace_op(op, new)


def _permute_results(amap: AffineMap, perm: list[int]) -> AffineMap:
    """The map that reads the transpose's *source* where `amap` read its result."""
    inverse = [perm.index(i) for i in range(len(perm))]
    return AffineMap(amap.num_dims, 0, tuple(amap.results[inverse[i]] for i in range(len(perm))))


def fold_into_matmul(op: MatmulOp) -> bool:
    for index, value in enumerate(op.inputs):
        producer = value.owner
        if not isinstance(producer, linalg.TransposeOp) or list(
            producer.permutation.get_values()
        ) != [1, 0]:
            continue
        maps = st.indexing_maps(op)
        maps[index] = _permute_results(maps[index], [1, 0])
        op.indexing_maps = ArrayAttr([AffineMapAttr(m) for m in maps])
        op.operands[index] = producer.inputs[0]
        _erase_if_dead(producer)
        return True
    return False


def fold_into_consumer(op: linalg.GenericOp) -> bool:
    for index, value in enumerate(st.inputs(op)):
        producer = value.owner
        if not isinstance(producer, linalg.TransposeOp) or st.use_count(value) != 1:
            continue
        maps = st.indexing_maps(op)
        maps[index] = _permute_results(maps[index], list(producer.permutation.get_values()))
        op.indexing_maps = ArrayAttr([AffineMapAttr(m) for m in maps])
        op.operands[index] = producer.inputs[0]
        _erase_if_dead(producer)
        return True
    return False


def fold_into_producer(transpose: linalg.TransposeOp) -> bool:
    source = transpose.inputs[0]
    producer = source.owner
    if not isinstance(source, OpResult) or not st.is_elementwise_generic(producer):
        return False
    if st.use_count(source) != 1 or len(producer.results) != 1:
        return False
    n_in = len(st.inputs(producer))
    if any(arg.uses for arg in producer.body.block.args[n_in:]):
        return False
    perm = list(transpose.permutation.get_values())
    maps = st.indexing_maps(producer)
    out_map = maps[n_in]
    maps[n_in] = AffineMap(out_map.num_dims, 0, tuple(out_map.results[p] for p in perm))
    new = st.make_generic(
        st.inputs(producer),
        [transpose.outputs[0]],
        producer.detach_region(0),
        maps,
        st.iterator_types(producer),
    )
    Rewriter.replace_op(transpose, new)
    Rewriter.erase_op(producer)
    return True


def _permuted_empty(source, perm: list[int]) -> tensor.EmptyOp:
    shape = source.type.get_shape()
    result_type = TensorType(source.type.get_element_type(), [shape[p] for p in perm])
    return tensor.EmptyOp([], result_type)


def create_transpose(source, perm: list[int], before: Operation) -> Operation:
    """IREE's `createTranspose`: `source` transposed by `perm` into a new empty tensor, or a
    permuted `tensor.empty` when `source` is itself one (its contents are undefined)."""
    empty = _permuted_empty(source, perm)
    if isinstance(source.owner, tensor.EmptyOp):
        Rewriter.insert_op(empty, InsertPoint.before(before))
        return empty
    transpose = TransposeOp(source, empty.tensor, DenseArrayBase.from_list(i64, perm))
    Rewriter.insert_op([empty, transpose], InsertPoint.before(before))
    return transpose


def compose_transposes(consumer: linalg.TransposeOp) -> bool:
    """`ComposeTransposes`: transpose(transpose(x, p), q) -> x if p then q is the identity,
    else one transpose of x; the inner transpose goes when nothing else reads it."""
    producer = consumer.inputs[0].owner
    if not isinstance(producer, linalg.TransposeOp):
        return False
    perm = compose_permutations(
        list(producer.permutation.get_values()), list(consumer.permutation.get_values())
    )
    source = producer.inputs[0]
    if is_identity_permutation(perm):
        forward_operand(consumer, source)
    else:
        composed = create_transpose(source, perm, consumer)
        Rewriter.replace_op(consumer, [], list(composed.results))
    _erase_if_dead(producer)
    return True


def _erase_if_dead(op: Operation) -> None:
    if all(not r.uses for r in op.results):
        Rewriter.erase_op(op)


Rewrite = Callable[[Operation], bool]


def _sink_into_matmul(op: Operation) -> bool:
    return isinstance(op, MatmulOp) and fold_into_matmul(op)


def _bubble_into_producer(op: Operation) -> bool:
    return isinstance(op, linalg.TransposeOp) and fold_into_producer(op)


def _compose(op: Operation) -> bool:
    return isinstance(op, linalg.TransposeOp) and compose_transposes(op)


def _sink_into_consumer(op: Operation) -> bool:
    return st.is_generic(op) and not st.is_convolution(op) and fold_into_consumer(op)


INITIAL_SINKING: tuple[Rewrite, ...] = (_sink_into_matmul,)
BUBBLING: tuple[Rewrite, ...] = (_bubble_into_producer, _compose)
SINKING: tuple[Rewrite, ...] = (_sink_into_consumer, _compose, _sink_into_matmul)


def _step(module: ModuleOp, patterns: tuple[Rewrite, ...]) -> bool:
    for op in list(module.walk()):
        if op.parent is None or not is_outside_dispatch(op):
            continue
        if any(pattern(op) for pattern in patterns):
            return True
    return False


def run_phase(module: ModuleOp, patterns: tuple[Rewrite, ...], swept: bool = False) -> None:
    """One greedy phase: apply `patterns` until none applies, erasing what is left dead.
    `swept`: an earlier sweep left nothing dead and nothing changed since, so a phase that
    applies no pattern has nothing to erase (the sweep is a walk of the whole module)."""
    changed = False
    while _step(module, patterns):
        changed = True
    if changed or not swept:
        erase_dead_ops(module)


@dataclass(frozen=True)
class PropagateLinalgTransposePass(ModulePass):
    name = "iree-global-opt-propagate-linalg-transpose"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for candidate in [o for o in op.walk() if st.is_generic(o) and is_outside_dispatch(o)]:
            specialize(candidate)
        for index, phase in enumerate((INITIAL_SINKING, BUBBLING, SINKING)):
            run_phase(op, phase, swept=index > 0)
        for leftover in [o for o in op.walk() if isinstance(o, linalg.TransposeOp)]:
            st.generalize(leftover)
