"""ConvertToStreamPass's case for a `tensor.splat` of a runtime scalar left on the host.

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
from xdsl.dialects.builtin import AnyFloat, IntegerType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.diagnostics import CompileError
from ireelab.dialects import stream

STAGE = "stream"


class HostConverter(Protocol):
    """What this conversion needs from ConvertToStreamPass's host converter."""

    affinity: Attribute
    resources: dict

    def _sizeof(self, tensor_type: TensorType, before: Operation) -> SSAValue: ...

    def _erase_when_unused(self, op: Operation) -> None: ...


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
