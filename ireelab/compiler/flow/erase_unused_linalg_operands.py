"""EraseUnusedLinalgOperandsPass (`iree-global-opt-erase-unused-linalg-operands`).

Mirrors IREE's GlobalOptimization/EraseUnusedLinalgOperands.cpp, which applies MLIR's
`populateEraseUnusedOperandsAndResultsPatterns` (Linalg/Transforms/
EraseUnusedOperandsAndResults.cpp) greedily to every `linalg.generic` on tensors:

- a result nobody uses is dropped with its init, when the body does not read that init, or
  reads it only to yield it back at the same position (`isResultValueDead`); an accumulation
  `%s = addf %x, %acc; yield %s` whose result is unused is first cut back to `yield %acc`
  (`RemoveUnusedCycleInGenericOp`);
- an input the body never reads is dropped, and an input repeating another (same value, same
  indexing map) is merged into it;
- an init the body does not read that repeats another result (same init, map and yielded
  value) is merged into it;
- but an operand stays if without its indexing map the loop ranges could no longer be derived
  from the remaining operands' shapes (`canOpOperandsBeDropped`).

As under MLIR's greedy driver, body ops left unused and ops with no used result are erased
(`dead_code.erase_dead_ops`), so a generic none of whose results is used goes entirely.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.dead_code import erase_dead_ops
from ireelab.compiler.input.linalg_canonicalization import forward_operand


def _has_tensor_semantics(op: linalg.GenericOp) -> bool:
    return all(isinstance(v.type, TensorType) for v in st.inits(op))


def _yield(op: linalg.GenericOp) -> linalg.YieldOp:
    last = op.body.block.last_op
    assert isinstance(last, linalg.YieldOp)
    return last


def _out_arg(op: linalg.GenericOp, index: int) -> BlockArgument:
    return op.body.block.args[len(st.inputs(op)) + index]


def remove_unused_cycles(op: linalg.GenericOp) -> bool:
    """`RemoveUnusedCycleInGenericOp`: for an unused result whose init is read by one op that
    only feeds the yield at that result's position, yield the init element directly."""
    changed = False
    terminator = _yield(op)
    for index, result in enumerate(op.results):
        out = _out_arg(op, index)
        if result.uses or st.use_count(out) != 1:
            continue
        cycle = next(iter(out.uses)).operation
        if cycle is terminator or len(cycle.results) != 1 or st.use_count(cycle.results[0]) != 1:
            continue
        if terminator.operands[index] is not cycle.results[0]:
            continue
        forward_operand(cycle, out)
        changed = True
    return changed


def is_result_dead(op: linalg.GenericOp, index: int) -> bool:
    """MLIR's `isResultValueDead`: unused, and its init read by nothing but its own yield."""
    if op.results[index].uses:
        return False
    out = _out_arg(op, index)
    if not out.uses:
        return True
    if st.use_count(out) != 1:
        return False
    user = next(iter(out.uses)).operation
    return isinstance(user, linalg.YieldOp) and user.operands[index] is out


def _loops_derivable(maps: list[AffineMap], num_loops: int) -> bool:
    """`canOpOperandsBeDropped`: every loop appears as a plain dimension of a kept map, so its
    range is read off an operand's shape."""
    dims = {e.position for m in maps for e in m.results if isinstance(e, AffineDimExpr)}
    return dims >= set(range(num_loops))


@dataclass
class _Plan:
    """Which operands the rebuilt generic keeps, and where each old one goes."""

    maps: list[AffineMap]
    dropped: set[int]
    """Operand numbers (inputs then inits) that go."""
    input_to: dict[int, int]
    """Old input number -> new input number (a merged duplicate maps to the kept one)."""
    output_to: dict[int, int]
    """Old result number -> new result number; dropped results are absent."""


def plan(op: linalg.GenericOp) -> _Plan:
    """MLIR's `deduplicateInputOperands` then `deduplicateOutputOperands`."""
    ins, outs, maps = st.inputs(op), st.inits(op), st.indexing_maps(op)
    n_in, num_loops, block = len(ins), st.num_loops(op), op.body.block
    result = _Plan(maps, set(), {}, {})

    def can_drop(operand: int) -> bool:
        kept = [m for i, m in enumerate(maps) if i not in result.dropped and i != operand]
        return _loops_derivable(kept, num_loops)

    kept_inputs: dict[tuple[SSAValue, AffineMap], int] = {}
    for i, value in enumerate(ins):
        if not block.args[i].uses and can_drop(i):
            result.dropped.add(i)
            continue
        key = (value, maps[i])
        if key in kept_inputs:
            result.input_to[i] = kept_inputs[key]
            result.dropped.add(i)
            continue
        result.input_to[i] = kept_inputs[key] = len(kept_inputs)

    if not _has_tensor_semantics(op):
        result.output_to = {k: k for k in range(len(outs))}
        return result
    yielded = _yield(op).operands
    kept_outputs: dict[tuple[SSAValue, AffineMap, SSAValue], int] = {}
    for k, value in enumerate(outs):
        operand = n_in + k
        if is_result_dead(op, k) and can_drop(operand):
            result.dropped.add(operand)
            continue
        key = (value, maps[operand], yielded[k])
        if not _out_arg(op, k).uses and key in kept_outputs:
            result.output_to[k] = kept_outputs[key]
            result.dropped.add(operand)
            continue
        result.output_to[k] = kept_outputs[key] = len(kept_outputs)
    return result


def rebuild(op: linalg.GenericOp, p: _Plan) -> linalg.GenericOp:
    """The generic with `p`'s operands, its body moved over, its live results rewired."""
    ins, outs = st.inputs(op), st.inits(op)
    n_in = len(ins)
    keep = [i for i in range(len(op.operands)) if i not in p.dropped]
    n_kept_in = sum(1 for i in keep if i < n_in)
    old = op.body.block
    block = Block(arg_types=[old.args[i].type for i in keep])
    terminator = _yield(op)
    kept_results = [k for k in range(len(outs)) if n_in + k not in p.dropped]
    Rewriter.replace_op(terminator, linalg.YieldOp(*[terminator.operands[k] for k in kept_results]))
    for i, new_position in p.input_to.items():
        old.args[i].replace_all_uses_with(block.args[new_position])
    for k in kept_results:
        old.args[n_in + k].replace_all_uses_with(block.args[n_kept_in + p.output_to[k]])
    for inner in list(old.ops):
        inner.detach()
        block.add_op(inner)
    generic = st.make_generic(
        [ins[i] for i in keep if i < n_in],
        [outs[k] for k in kept_results],
        Region(block),
        [p.maps[i] for i in keep],
        st.iterator_types(op),
    )
    Rewriter.insert_op(generic, InsertPoint.before(op))
    for k, result in enumerate(op.results):
        if k in p.output_to:
            result.replace_all_uses_with(generic.results[p.output_to[k]])
    Rewriter.erase_op(op)
    return generic


def erase_unused_operands_and_results(op: linalg.GenericOp) -> linalg.GenericOp | None:
    """Apply both patterns to one generic; the new generic, or None if nothing changed."""
    if not _has_tensor_semantics(op):
        return None
    cut = remove_unused_cycles(op)
    p = plan(op)
    if not p.dropped or not p.output_to:
        return op if cut else None
    return rebuild(op, p)


@dataclass(frozen=True)
class EraseUnusedLinalgOperandsPass(ModulePass):
    name = "iree-global-opt-erase-unused-linalg-operands"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        erase_dead_ops(op)
        for generic in [o for o in op.walk() if isinstance(o, linalg.GenericOp)]:
            erase_unused_operands_and_results(generic)
        erase_dead_ops(op)
