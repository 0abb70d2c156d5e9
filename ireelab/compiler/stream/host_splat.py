"""ConvertToStreamPass's cases for splats left on the host: a `tensor.splat` of a runtime
scalar, and a splat `arith.constant` that a `util.optimization_barrier` kept from folding into
its dispatches (a `stream.tensor.splat` of its element, as IREE's ConvertToStream makes it;
one of 64-bit elements, which no HAL fill pattern holds and IREE fills with a builtin
dispatch, becomes a constant resource global instead).

The runtime-scalar case:

IREE 3.13 leaves such a splat unconverted through the Flow stage (its TensorToFlow patterns
turn only `linalg.fill` and one-element `tensor.from_elements` into `flow.tensor.splat`) and
its stream conversion then stops with "failed to legalize operation 'tensor.splat' that was
explicitly marked illegal". ireelab goes one step further than IREE here and lowers it as
IREE lowers the op it would need, `flow.tensor.splat`:

    %sp = tensor.splat %x : tensor<4x6xf32>
      -> %sp = stream.tensor.splat on(#hal.device.affinity<@__device_0>) %x
               : f32 -> tensor<4x6xf32> in !stream.resource<*>{%size}

which EncodeHostTensorsPass makes a `stream.async.splat` of the value's bit pattern and
ScheduleAllocationPass a `stream.cmd.fill`. The pattern of a runtime value is its bits,
`arith.bitcast %x : f32 to i32` (what IREE's EncodeTensors emits for a runtime
`stream.tensor.splat`, and what its `tensor.insert` lowering fills with). A splat of a constant never gets here: the
canonicalizer folds it into a dense splat constant first (as MLIR's does).
"""

from __future__ import annotations

from typing import Protocol

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow.outline_constants import constant_name
from ireelab.compiler.stream.constant_globals import convert_constant_global
from ireelab.diagnostics import CompileError, copy_location
from ireelab.dialects import stream, util

STAGE = "stream"


class HostConverter(Protocol):
    """What this conversion needs from ConvertToStreamPass's host converter."""

    affinity: Attribute
    resources: dict

    def _sizeof(self, tensor_type: TensorType, before: Operation) -> SSAValue: ...

    def _erase_when_unused(self, op: Operation) -> None: ...

    constant_globals: set[str]

    def _load_constant(self, op: util.GlobalLoadOp) -> None: ...


def convert_host_splat(converter: HostConverter, op: tensor.SplatOp, resource_cls: type) -> None:
    """Replace the host splat `op` by `stream.tensor.splat`; record its resource."""
    tensor_type = op.result.type
    if not isinstance(tensor_type, TensorType) or op.dynamicSizes:
        raise CompileError.at(
            op, "'tensor.splat' of a dynamically shaped tensor is not supported", stage=STAGE
        )
    size = converter._sizeof(tensor_type, op)
    splat = stream.TensorSplatOp(
        op.input, tensor_type, stream.ResourceType(), size, converter.affinity
    )
    Rewriter.insert_op(splat, InsertPoint.before(op))
    converter.resources[op.result] = resource_cls(splat.result, size, tensor_type)
    converter._erase_when_unused(op)


def is_runtime_value(value: SSAValue) -> bool:
    return not isinstance(value.owner, arith.ConstantOp)


def encode_runtime_splat(op: stream.TensorSplatOp) -> None:
    """`stream.tensor.splat` of a runtime value -> `stream.async.splat` of its bits."""
    value = op.value
    ty = value.type
    width = ty.bitwidth if isinstance(ty, AnyFloat | IntegerType) else 0
    if width not in (8, 16, 32):
        raise CompileError.at(
            op, f"a splat of a runtime {ty} value is not supported (8, 16 or 32 bits)", STAGE
        )
    pattern = value
    if isinstance(ty, AnyFloat):
        cast = arith.BitcastOp(value, IntegerType(width))
        Rewriter.insert_op(cast, InsertPoint.before(op))
        pattern = cast.result
    new = stream.AsyncSplatOp(pattern, op.result.type, op.result_size, op.affinity)
    Rewriter.replace_op(op, new)


def convert_splat_constant(
    converter: HostConverter, op: arith.ConstantOp, resource_cls: type
) -> None:
    """A host splat constant (one kept from folding by a barrier) is a `stream.tensor.splat`
    of its element, as IREE's ConvertToStream makes it. A 64-bit element has no HAL fill
    pattern (IREE fills it with a builtin dispatch): it becomes a constant resource."""
    tensor_type = op.result.type
    assert isinstance(tensor_type, TensorType) and isinstance(op.value, DenseIntOrFPElementsAttr)
    if tensor_type.element_type.compile_time_size > 4:
        _outline_splat(converter, op)
        return
    element = arith.ConstantOp(op.value.get_attrs()[0], tensor_type.element_type)
    size = converter._sizeof(tensor_type, op)
    splat = stream.TensorSplatOp(
        element.result, tensor_type, stream.ResourceType(), size, converter.affinity
    )
    Rewriter.insert_op([element, splat], InsertPoint.before(op))
    converter.resources[op.result] = resource_cls(splat.result, size, tensor_type)
    converter._erase_when_unused(op)


def _outline_splat(converter: HostConverter, op: arith.ConstantOp) -> None:
    """The constant as a module global uploaded at initialisation, as OutlineConstantsPass
    makes the non-splat ones, then loaded like them."""
    module = op.get_toplevel_object()
    assert isinstance(module, ModuleOp)
    taken = {o.sym_name.data for o in module.body.block.ops if isinstance(o, util.GlobalOp)}
    name = _unique_symbol(constant_name(op), taken)
    glob = util.GlobalOp(name, op.result.type, initial_value=op.value, visibility="private")
    copy_location(op, glob)
    function = op
    while function.parent_op() is not module:
        function = function.parent_op()
    Rewriter.insert_op(glob, InsertPoint.before(function))
    converter.constant_globals.add(name)
    convert_constant_global(glob, converter.affinity)
    load = util.GlobalLoadOp(name, op.result.type, immutable=True)
    Rewriter.insert_op(load, InsertPoint.before(op))
    op.result.replace_all_uses_with(load.result)
    Rewriter.erase_op(op)
    converter._load_constant(load)


def _unique_symbol(name: str, taken: set[str]) -> str:
    suffix = 0
    unique = name
    while unique in taken:
        unique, suffix = f"{name}_{suffix}", suffix + 1
    return unique


def is_splat_constant(op: Operation) -> bool:
    return (
        isinstance(op, arith.ConstantOp)
        and isinstance(op.result.type, TensorType)
        and isinstance(op.value, DenseIntOrFPElementsAttr)
        and op.value.is_splat()
    )
