"""AnnotateDispatchesPass (`iree-flow-annotate-dispatches`).

Mirrors IREE's Flow/Transforms/AnnotateDispatches.cpp: each export is renamed
`<executable>_<summary>` after the most expensive op of its body, so a profile reads like the
program. The cost of a linalg op is the product of its loop ranges (doubled with a reduction);
ties go to the later op. The summary of that op is a kind, its loop ranges and its element
types, e.g. `matmul_256x512x512_f32`, `elementwise_1048576_f32`, `reduction_512x1024_f32`,
`elementwise_transpose_1024x1024_f32`, `conv_54x54x64x3x3x64_f32`: named ops give their own
name; generics are classified as elementwise, elementwise_transpose, elementwise_broadcast,
matvec_like, matmul_like, contract, conv or reduction, as IREE does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.form_dispatch_regions import AGGREGATE_ROOTS
from ireelab.dialects import flow
from ireelab.dialects.iree_linalg_ext import AttentionLikeOp, LinalgExtOp
from ireelab.dialects.iree_tensor_ext import DispatchTensorLoadOp, DispatchTensorStoreOp
from ireelab.dialects.linalg_pack import PackOp, UnPackOp
from ireelab.dialects.linalg_softmax import SoftmaxOp

_DYNAMIC_COST = 1024


def cost(op: Operation) -> int:
    product = 1
    for size in st.loop_ranges(op):
        product *= size if size >= 0 else _DYNAMIC_COST
    return product * 2 if st.num_reduction_loops(op) else product


def _ranges_text(ranges: list[int]) -> str:
    return "x".join(str(r) if r >= 0 else "D" for r in ranges)


def _types_text(op: Operation) -> str:
    tokens = [st.element_type_name(v) for v in op.operands]
    return tokens[0] if len(set(tokens)) == 1 else "x".join(tokens)


def _contraction_dims(op: Operation) -> dict[str, set[int]]:
    lhs, rhs, out = (m.used_dims() for m in st.indexing_maps(op))
    iters = st.iterator_types(op)
    parallel = {i for i, k in enumerate(iters) if k == "parallel"}
    return {
        "batch": lhs & rhs & out & parallel,
        "m": (lhs & out & parallel) - rhs,
        "n": (rhs & out & parallel) - lhs,
        "k": (lhs & rhs) - out,
    }


def _is_matvec_like(op: Operation) -> bool:
    if not st.is_contraction(op):
        return False
    dims = _contraction_dims(op)
    ranges = st.loop_ranges(op)
    iters = st.iterator_types(op)

    def unit_parallel(amap) -> bool:
        return all(
            iters[e.position] != "parallel"
            or ranges[e.position] == 1
            or e.position in dims["batch"]
            for e in amap.results
        )

    maps = st.indexing_maps(op)
    return unit_parallel(maps[0]) or unit_parallel(maps[1])


def _generic_kind(op: Operation) -> str:
    maps = st.indexing_maps(op)
    n_in = len(st.inputs(op))
    ins, outs = maps[:n_in], maps[n_in:]
    identity_outs = all(st.is_identity(m) for m in outs)
    permutation_outs = all(st.is_permutation(m) for m in outs)
    projected_ins = all(m.is_projected_permutation(allow_zero_in_results=True) for m in ins)
    n_identity = sum(st.is_identity(m) for m in ins)
    n_permutation = sum(st.is_permutation(m) for m in ins)
    identity_root = n_identity > 0 and n_identity == n_permutation
    if identity_outs and projected_ins and identity_root:
        return "elementwise"
    if (
        permutation_outs
        and projected_ins
        and ((identity_root and not identity_outs) or n_permutation > n_identity)
    ):
        return "elementwise_transpose"
    if permutation_outs and projected_ins and n_permutation == 0:
        return "elementwise_broadcast"
    if _is_matvec_like(op):
        return "matvec_like"
    if st.is_contraction(op) and st.num_loops(op) - st.num_reduction_loops(op) >= 2:
        return "matmul_like"
    if st.is_contraction(op):
        return "contract"
    if st.is_convolution(op):
        return "conv"
    if st.num_reduction_loops(op):
        return "reduction"
    return ""


def summarize_op(op: Operation) -> str:
    prefix = ""
    if st.body_is_yield_only(op) and all(st.is_permutation(m) for m in st.indexing_maps(op)):
        prefix = "transpose"
    if not prefix and st.is_generic(op):
        prefix = _generic_kind(op)
    if not prefix:
        prefix = op.name.removeprefix("linalg.")
    ranges = _ranges_text(st.loop_ranges(op))
    if not ranges:
        return prefix
    return f"{prefix}_{ranges}_{_types_text(op)}"


def _linalg_ext_cost(op: LinalgExtOp) -> int:
    """IREE's `estimateLinalgExtOpCost`: ten times the size of the op's largest tensor;
    attention is always the most expensive op of its dispatch."""
    if isinstance(op, AttentionLikeOp):
        return 1 << 62
    main = op.main_tensor()
    size = 1
    for extent in main.get_shape() if main is not None else ():
        size *= extent if extent >= 0 else _DYNAMIC_COST
    return size * 10


def summarize_linalg_ext_op(op: LinalgExtOp) -> str:
    """IREE's `summarizeLinalgExtOp`: the op's name, its largest tensor's shape and element
    type, and the op that uses its only result (`sort_2x2xi32_dispatch_tensor_store`)."""
    summary = op.name.removeprefix("iree_linalg_ext.")
    if isinstance(op, AttentionLikeOp):
        return f"{summary}_{_ranges_text(op.loop_ranges())}"
    main = op.main_tensor()
    if main is not None:
        summary += f"_{_ranges_text(list(main.get_shape()))}x{main.get_element_type()}"
    users = [use.operation for result in op.results for use in result.uses]
    if len(users) == 1:
        summary += "_" + users[0].name.split(".", 1)[1].replace(".", "_")
    return summary


def _main_tensor_cost(op: Operation) -> int:
    """IREE's cost of a LinalgExt-like op (softmax): its largest tensor's domain, times 10."""
    sizes = [
        _domain(v.type.get_shape())
        for v in (*op.operands, *op.results)
        if isinstance(v.type, TensorType)
    ]
    return 10 * max(sizes, default=1)


def _domain(shape) -> int:
    product = 1
    for size in shape:
        product *= size if size >= 0 else _DYNAMIC_COST
    return product


def _aggregate_summary(op: Operation) -> str:
    """`pack_f32`; `softmax_4x16xf32` and, with one user, that user's name without dialect."""
    kind = op.name.removeprefix("linalg.")
    if isinstance(op, PackOp | UnPackOp):
        return f"{kind}_{st.element_type_name(op.source)}"
    main = max(
        (v.type for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)),
        key=lambda t: _domain(t.get_shape()),
    )
    summary = f"{kind}_{_ranges_text(list(main.get_shape()))}x{main.element_type}"
    users = [use.operation for r in op.results for use in r.uses]
    if len(users) == 1:
        summary += "_" + users[0].name.split(".", 1)[-1]
    return summary


def _best_op(fn: func.FuncOp) -> Operation | None:
    """The op IREE's cost model rates highest (ties: the later op); a pack or unpack only
    when nothing else is costed."""
    best, best_cost = None, -1
    for op in fn.walk():
        if isinstance(op, PackOp | UnPackOp):
            op_cost = 0
        elif isinstance(op, SoftmaxOp):
            op_cost = _main_tensor_cost(op)
        elif isinstance(op, LinalgExtOp):
            op_cost = _linalg_ext_cost(op)
        elif st.is_structured(op):
            op_cost = cost(op)
        else:
            continue
        if op_cost >= best_cost:
            best, best_cost = op, op_cost
    return best


def _with_layout_hints(summary: str, best: Operation, fn: func.FuncOp) -> str:
    """IREE's hint: `unpack_` when an unpack opens the dispatch, `_pack` when a pack ends it."""
    tileable = [o for o in fn.walk() if st.is_structured(o) or isinstance(o, AGGREGATE_ROOTS)]
    if not tileable:
        return summary
    if not isinstance(best, UnPackOp) and isinstance(tileable[0], UnPackOp):
        summary = "unpack_" + summary
    if not isinstance(best, PackOp) and isinstance(tileable[-1], PackOp):
        summary += "_pack"
    return summary


def summarize(fn: func.FuncOp) -> str:
    best = _best_op(fn)
    if best is None:
        for op in fn.walk():
            if isinstance(op, DispatchTensorStoreOp) and isinstance(
                op.value.owner, DispatchTensorLoadOp
            ):
                return "slow_memcpy"
        return ""
    if isinstance(best, LinalgExtOp):
        summary = summarize_linalg_ext_op(best)
    elif isinstance(best, AGGREGATE_ROOTS):
        summary = _aggregate_summary(best)
    else:
        summary = summarize_op(best)
    return re.sub(r"[^A-Za-z0-9_]", "_", _with_layout_hints(summary, best, fn))


def annotate(module: ModuleOp) -> None:
    renames: dict[str, str] = {}
    for executable in [o for o in module.body.block.ops if isinstance(o, flow.ExecutableOp)]:
        block = executable.body.block
        exports = [o for o in block.ops if isinstance(o, flow.ExecutableExportOp)]
        inner = next((o for o in block.ops if isinstance(o, ModuleOp)), None)
        if inner is None:
            continue
        for export in exports:
            fn = next(
                (
                    o
                    for o in inner.body.block.ops
                    if isinstance(o, func.FuncOp)
                    and o.sym_name == export.function_ref.root_reference
                ),
                None,
            )
            summary = summarize(fn) if fn is not None else ""
            if not summary:
                continue
            new_name = f"{fn.sym_name.data}_{summary}"
            old = f"{executable.sym_name.data}::{export.sym_name.data}"
            export.sym_name = StringAttr(new_name)
            export.function_ref = SymbolRefAttr(new_name)
            fn.sym_name = StringAttr(new_name)
            renames[old] = new_name
    for dispatch in [o for o in module.walk() if isinstance(o, flow.DispatchOp)]:
        ref = dispatch.entry_point
        key = f"{ref.root_reference.data}::{ref.nested_references.data[0].data}"
        if key in renames:
            dispatch.entry_points = type(dispatch.entry_points)(
                [SymbolRefAttr(ref.root_reference, [renames[key]])]
            )


@dataclass(frozen=True)
class AnnotateDispatchesPass(ModulePass):
    name = "iree-flow-annotate-dispatches"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        annotate(op)
