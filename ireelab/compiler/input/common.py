"""MLIR's generic passes as IREE schedules them: canonicalize, inline, cse, symbol-dce.

IREE runs these (upstream MLIR passes) between its own; ireelab runs xDSL's equivalents where
xDSL has them and writes the `util`-aware ones (inliner, symbol DCE) here.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp, TransposeOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern

from ireelab.compiler.flow.dead_code import erase_dead_ops
from ireelab.compiler.input.constant_argument_folding import fold_constant_arguments
from ireelab.compiler.input.infer_static_shapes import infer_static_shapes
from ireelab.compiler.input.linalg_canonicalization import (
    erase_identity_generics,
    fold_linalg_transposes,
)
from ireelab.compiler.input.region_dce import region_dce
from ireelab.compiler.input.tensor_canonicalization import (
    fold_tensor_dims,
    fold_tensor_empties,
    fold_tensor_splats,
)
from ireelab.compiler.input.tensor_cast_folding import fold_tensor_casts
from ireelab.dialects import util

MAX_CANONICALIZE_ITERATIONS = 10
"""MLIR's `canonicalize{max-iterations=10}`: rounds of patterns and dead-op erasure."""


@dataclass(frozen=True)
class CanonicalizerPass(ModulePass):
    """Folds and simplifies with every op's canonicalization patterns (xDSL's canonicalize,
    plus the linalg patterns xDSL lacks) and erases trivially dead ops, linalg ops on tensors
    included, as MLIR's greedy driver does (an unused reduction and the fill feeding it go)."""

    name = "canonicalize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for _ in range(MAX_CANONICALIZE_ITERATIONS):
            # xDSL's CanonicalizePass, its region DCE by a worklist (`region_dce.py`)
            patterns = GreedyRewritePatternApplier(
                [CanonicalizationRewritePattern()], ctx=ctx, folding_enabled=True
            )
            PatternRewriteWalker(patterns, post_walk_func=region_dce).rewrite_module(op)
            ops = WalkedOps(op)  # one walk for the folds, while none of them changes the IR
            folded = fold_linalg_transposes(op, ops.of(TransposeOp))
            folded = erase_identity_generics(op, ops.of(GenericOp, folded)) or folded
            folded = fold_tensor_splats(op, ops.of(tensor.SplatOp, folded)) or folded
            folded = fold_tensor_empties(op, ops.of(tensor.EmptyOp, folded)) or folded
            folded = fold_tensor_casts(op, ops.of(tensor.CastOp, folded)) or folded
            generics, casts = ops.of(GenericOp, folded), ops.of(tensor.CastOp, folded)
            folded = infer_static_shapes(op, generics, casts) or folded
            folded = fold_tensor_dims(op, ops.of(tensor.DimOp, folded)) or folded
            slices = ops.of(tensor.ExtractSliceOp | tensor.InsertSliceOp, folded)
            folded = fold_constant_arguments(op, slices) or folded
            if not erase_dead_ops(op) and not folded:
                return


class WalkedOps:
    """The ops under `root` in walk order, walked once and handed to each fold in turn. A fold
    that returned True may have made or erased ops, so a fold after it walks again (`of`
    returns None: "walk yourself"); one that returned False changed nothing its successors
    look at (an identity `tensor.cast` is erased uncounted, and only casts are looked for)."""

    def __init__(self, root: Operation):
        self._ops = list(root.walk())

    def of(self, kinds, stale: bool = False) -> list[Operation] | None:
        if stale:
            return None
        memo: dict[type, bool] = {}
        found = []
        for o in self._ops:
            kind = type(o)
            hit = memo.get(kind)
            if hit is None:
                hit = memo[kind] = issubclass(kind, kinds)
            if hit:
                found.append(o)
        return found


@dataclass(frozen=True)
class CSEPass(ModulePass):
    """Common subexpression elimination (xDSL's cse, its keys hashed once: `cse.py`)."""

    name = "cse"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from ireelab.compiler.input.cse import FewerHashesCSEDriver

        FewerHashesCSEDriver().simplify(op)


def inlinable(callee: Operation | None) -> bool:
    """True if InlinerPass inlines every call of `callee`: a single-block, non-recursive
    `util.func` with a body and no never-inline policy."""
    if not isinstance(callee, util.FuncOp) or callee.is_declaration:
        return False
    if len(callee.body.blocks) != 1:
        return False
    policy = callee.attributes.get("inlining_policy")
    return not isinstance(policy, util.InlineNeverAttr) and not _calls_itself(callee)


def _calls_itself(callee: util.FuncOp) -> bool:
    return any(
        isinstance(o, util.CallOp) and o.callee.root_reference.data == callee.sym_name.data
        for o in callee.walk()
    )


def _inline_call(call: util.CallOp, callee: util.FuncOp) -> None:
    body: Block = callee.body.block
    mapping = dict(zip(body.args, call.arguments, strict=True))
    results = []
    for inner in body.ops:
        if isinstance(inner, util.ReturnOp):
            results = [mapping.get(v, v) for v in inner.operands_]
            break
        clone = inner.clone(value_mapper=mapping)
        Rewriter.insert_op(clone, InsertPoint.before(call))
    Rewriter.replace_op(call, [], results)


@dataclass(frozen=True)
class InlinerPass(ModulePass):
    """Inlines every call of a single-block, non-recursive `util.func` (MLIR's inliner
    inlines everything its cost model allows; for these programs that is every call). MLIR's
    inliner then simplifies with its default pipeline, the canonicalizer; of that, the folds of
    `tensor.dim` matter here: the wrapper's result dims become the callee's size values."""

    name = "inline"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        changed = True
        while changed:
            changed = False
            for call in [o for o in op.walk() if isinstance(o, util.CallOp)]:
                callee = SymbolTable.lookup_symbol(call, call.callee)
                if inlinable(callee):
                    _inline_call(call, callee)
                    changed = True
        if fold_tensor_dims(op):
            erase_dead_ops(op)


@dataclass(frozen=True)
class SymbolDCEPass(ModulePass):
    """Removes private functions and globals that nothing references (MLIR's symbol-dce)."""

    name = "symbol-dce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        changed = True
        while changed:
            changed = False
            used = _referenced_symbols(op)
            for inner in list(op.body.block.ops):
                visibility = inner.properties.get("sym_visibility")
                sym = inner.properties.get("sym_name")
                if sym is None or visibility is None or visibility.data != "private":
                    continue
                if sym.data not in used:
                    Rewriter.erase_op(inner)
                    changed = True


def _referenced_symbols(module: ModuleOp) -> set[str]:
    from xdsl.dialects.builtin import SymbolRefAttr

    used: set[str] = set()
    seen: set[int] = set()  # attributes are immutable and shared: one visit each

    def visit(attr) -> None:
        if id(attr) in seen:
            return
        seen.add(id(attr))
        if isinstance(attr, SymbolRefAttr):
            used.add(attr.root_reference.data)
        for child in _children(attr):
            visit(child)

    for inner in module.walk():
        if inner is module:
            continue
        for attr in (*inner.properties.values(), *inner.attributes.values()):
            if attr is inner.properties.get("sym_name"):
                continue
            visit(attr)
    return used


def _children(attr):
    from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr
    from xdsl.ir import ParametrizedAttribute

    if isinstance(attr, ArrayAttr):
        return attr.data
    if isinstance(attr, DictionaryAttr):
        return attr.data.values()
    if isinstance(attr, ParametrizedAttribute):
        return attr.parameters
    return ()
