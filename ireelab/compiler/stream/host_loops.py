"""Host `scf.for` / `scf.if` / `scf.while` over tensors through ConvertToStreamPass.

Mirrors the structural patterns of IREE's stream conversion (Stream/Conversion/
StandardToStream/ConvertStructuralOps.cpp, through `populateStreamConversionPatterns`): a
region op that carries tensors keeps its structure, and every tensor it carries (an
`iter_args` operand, a block argument, a result, a yielded value) is expanded into the two
values a tensor is on the host: its `!stream.resource<*>` and its byte size (`index`), in
that order, in place of the tensor. So

    %r = scf.for %i = ... iter_args(%acc = %e) -> (tensor<2x4xf32>)

becomes `%r:2 = scf.for %i = ... iter_args(%acc = %e, %acc_size = %s) -> (!stream.resource<*>,
index)`, and the body's `scf.yield %u` a `scf.yield %u, %u_size`. Later passes give the loop
its timepoint (PropagateTimepointsPass) and its allocations (ScheduleAllocationPass); the
loop becomes blocks before ElideTimepointsPass (SCFToControlFlowPass, as in IREE's Stream
pipeline).

A carried tensor with `?` dims keeps its init's dims (the input stage lets an `scf.for`
carry one only when the loop keeps its sizes, MLIR's DimOfIterArgFolder; they are defined
before the loop, as in iree-compile's output); an `scf.if` result has the dims both
branches yield (read before the branches are converted); a `?` tensor an `scf.while`
carries is refused with a located error (its dims would have to travel as further `index`
values).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.stream.host_slices import HostConverter
from ireelab.compiler.util.dynamic_dims import find_dynamic_dims
from ireelab.diagnostics import CompileError
from ireelab.dialects import stream

STAGE = "stream"


def carries_tensors(op: Operation) -> bool:
    values = [*op.operands, *op.results]
    values += [a for r in op.regions for b in r.blocks for a in b.args]
    return any(isinstance(v.type, TensorType) for v in values)


def _dims(op: Operation, tensor_type: TensorType, known) -> tuple[SSAValue, ...]:
    """The `?` sizes a carried tensor keeps, `known`: an scf.for's init's (the input stage
    let only shape-preserving loops carry `?` tensors, MLIR's DimOfIterArgFolder), or those
    both branches of an scf.if yield; a `?` tensor without them (an scf.while's) is
    refused, located."""
    if all(d >= 0 for d in tensor_type.get_shape()):
        return ()
    if known is None or len(known) != sum(d < 0 for d in tensor_type.get_shape()):
        raise CompileError.at(
            op,
            f"'{op.name}' carrying the dynamically shaped {tensor_type} is not supported "
            "by ConvertToStreamPass",
            stage=STAGE,
        )
    return tuple(known)


def _expand_operands(converter: HostConverter, op: Operation, values) -> list[SSAValue]:
    """Operands with each tensor replaced by its resource and size."""
    expanded: list[SSAValue] = []
    for value in values:
        if not isinstance(value.type, TensorType):
            expanded.append(value)
            continue
        found = converter._lookup(op, value)
        if not isinstance(op, scf.ForOp):
            _dims(op, value.type, found.dims if isinstance(op, scf.YieldOp) else None)
        expanded += [found.value, found.size]
    return expanded


def _expand_block_args(
    converter: HostConverter, op: Operation, block: Block, resource_cls, inits=None
):
    """Each tensor block argument gets a resource argument and a size argument after it; the
    tensor argument stays (its users are converted through it) until the conversion ends.
    `inits` are the tensors entering the block, for their `?` sizes (an scf.for's)."""
    tensors = [a for a in block.args if isinstance(a.type, TensorType)]
    entering = iter(inits if inits is not None else [None] * len(tensors))
    for arg in tensors:
        tensor_type = arg.type
        init = next(entering)
        dims = _dims(op, tensor_type, init.dims if init is not None else None)
        resource = block.insert_arg(stream.ResourceType(), arg.index + 1)
        size = block.insert_arg(IndexType(), arg.index + 2)
        resource.name_hint = arg.name_hint
        converter.resources[arg] = resource_cls(resource, size, tensor_type, dims)
        converter.pending_args.append(arg)


def _expanded_types(values) -> list:
    types = []
    for value in values:
        if isinstance(value.type, TensorType):
            types += [stream.ResourceType(), IndexType()]
        else:
            types.append(value.type)
    return types


def _map_results(
    converter: HostConverter, old: Operation, new: Operation, resource_cls, known=None
):
    """`known`: the `?` sizes of each tensor result, in order (None: not known)."""
    results = iter(new.results)
    tensors = [r for r in old.results if isinstance(r.type, TensorType)]
    entering = dict(zip(tensors, known, strict=True)) if known is not None else {}
    for result in old.results:
        value = next(results)
        if isinstance(result.type, TensorType):
            dims = _dims(old, result.type, entering.get(result))
            converter.resources[result] = resource_cls(value, next(results), result.type, dims)
        else:
            result.replace_all_uses_with(value)


def _move_regions(old: Operation) -> list:
    regions = []
    for region in old.regions:
        regions.append(Rewriter.move_region_contents_to_new_regions(region))
    return regions


def convert_for(converter: HostConverter, op: scf.ForOp, resource_cls) -> None:
    entering = [converter._lookup(op, v) for v in op.iter_args if isinstance(v.type, TensorType)]
    inits = _expand_operands(converter, op, op.iter_args)
    (body,) = _move_regions(op)
    _expand_block_args(converter, op, body.block, resource_cls, entering)
    new = scf.ForOp(op.lb, op.ub, op.step, inits, body)
    Rewriter.insert_op(new, InsertPoint.before(op))
    _map_results(converter, op, new, resource_cls, [e.dims for e in entering])
    converter._erase_when_unused(op)


def convert_if(converter: HostConverter, op: scf.IfOp, resource_cls) -> None:
    # the sizes both branches yield, read before their ops are converted (pre-order walk)
    known = [find_dynamic_dims(r) for r in op.results if isinstance(r.type, TensorType)]
    true_region, false_region = _move_regions(op)
    new = scf.IfOp(op.cond, _expanded_types(op.results), true_region, false_region)
    Rewriter.insert_op(new, InsertPoint.before(op))
    _map_results(converter, op, new, resource_cls, known)
    converter._erase_when_unused(op)


def convert_while(converter: HostConverter, op: scf.WhileOp, resource_cls) -> None:
    inits = _expand_operands(converter, op, op.arguments)
    before, after = _move_regions(op)
    result_types = _expanded_types(op.results)
    _expand_block_args(converter, op, before.block, resource_cls)
    _expand_block_args(converter, op, after.block, resource_cls)
    new = scf.WhileOp(inits, result_types, before, after)
    Rewriter.insert_op(new, InsertPoint.before(op))
    _map_results(converter, op, new, resource_cls)
    converter._erase_when_unused(op)


def convert_terminator(converter: HostConverter, op: scf.YieldOp | scf.ConditionOp) -> None:
    """`scf.yield` / `scf.condition` of tensors -> of their resources and sizes."""
    if isinstance(op, scf.ConditionOp):
        args = _expand_operands(converter, op, op.args)
        Rewriter.replace_op(op, scf.ConditionOp(op.condition, *args))
        return
    Rewriter.replace_op(op, scf.YieldOp(*_expand_operands(converter, op, op.arguments)))
