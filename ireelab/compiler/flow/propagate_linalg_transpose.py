"""PropagateLinalgTransposePass (`iree-global-opt-propagate-linalg-transpose`).

Mirrors IREE's GlobalOptimization/PropagateLinalgTranspose.cpp with its default options: a
transpose is never materialised on its own if a consumer can read through it instead.

1. Transposes written as generics are specialised back to `linalg.transpose`.
2. A 2-D transpose feeding a `linalg.matmul` operand is folded into the matmul's indexing maps
   (IREE 3.13 prints it as `linalg.matmul indexing_maps = [...]`, its matmul_transpose_a/b).
3. A single-use transpose feeding an input of a `linalg.generic` is folded into that input's
   indexing map (`FuseTransposeWithLinalgOpConsumer`; convolutions excluded, as by default).
4. A single-use transpose of a single-use all-parallel generic's result is folded into that
   generic's init map (`FuseTransposeWithProducerLinalgOp`).

Transposes that remain are generalised again, as IREE's second GeneralizeLinalgNamedOpsPass
does right after. Not modelled: propagation through reshapes, extract_slice, pad, and the
batch_matmul transposed forms.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, DenseArrayBase, ModuleOp, i64
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation, OpResult
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.dialects.linalg_ext import MatmulOp


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
    new = linalg.TransposeOp(src, init, DenseArrayBase.from_list(i64, perm))
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


def _erase_if_dead(op: Operation) -> None:
    if all(not r.uses for r in op.results):
        Rewriter.erase_op(op)


def _step(module: ModuleOp) -> bool:
    for op in list(module.walk()):
        if op.parent is None or not is_outside_dispatch(op):
            continue
        if isinstance(op, MatmulOp) and fold_into_matmul(op):
            return True
        if isinstance(op, linalg.TransposeOp) and fold_into_producer(op):
            return True
        if st.is_generic(op) and not st.is_convolution(op) and fold_into_consumer(op):
            return True
    return False


@dataclass(frozen=True)
class PropagateLinalgTransposePass(ModulePass):
    name = "iree-global-opt-propagate-linalg-transpose"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for candidate in [o for o in op.walk() if st.is_generic(o) and is_outside_dispatch(o)]:
            specialize(candidate)
        while _step(op):
            pass
        for leftover in [o for o in op.walk() if isinstance(o, linalg.TransposeOp)]:
            st.generalize(leftover)
