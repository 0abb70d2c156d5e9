"""Single-element tensor ops on the host: the `tensor.extract` / `tensor.insert` cases of
ConvertTensorToFlowPass.

Mirrors `ConvertTensorExtractPattern` and `ConvertTensorInsertPattern` of IREE's
Flow/Conversion/TensorToFlow/Patterns.cpp, which ConvertTensorToFlowPass applies after the
dispatch regions were formed:

- a `tensor.extract` still on the host (its result feeds host code: a function result, a
  host `tensor.splat`) becomes `flow.tensor.load %t[%i, %j] : tensor<...>`; one read by a
  dispatch was already cloned into it by CloneProducersIntoDispatchRegionsPass and stays a
  `tensor.extract` of the loaded operand there;
- a host `tensor.insert` becomes `flow.tensor.store %v, %t[%i, %j] : tensor<...>`;
- a host `tensor.from_elements` (`ConvertTensorFromElementsPattern`) of one element becomes
  `flow.tensor.splat`, of more a `flow.tensor.empty` and one `flow.tensor.store` per element
  in row-major order (ONNX's CenterCropPad gathers the sizes it computed this way). One
  64-bit element is stored too: a splat of a runtime 64-bit value needs IREE's builtin fill
  dispatch, which ireelab does not have, while a store writes it as two 32-bit words.

A host `tensor.splat` is left as it is, as IREE 3.13 leaves it (its TensorToFlow patterns
turn only `linalg.fill` and one-element `tensor.from_elements` into `flow.tensor.splat`);
the stream stage handles it (see `convert_to_stream`).

Constant indices outside the tensor are refused here, at the user's line: IREE's stream
verifier rejects such a host read later ("invalid Read access range"), and inside a kernel
the read would go past the binding.
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from ireelab.compiler.flow.dispatch_utils import is_outside_dispatch
from ireelab.diagnostics import CompileError, copy_location
from ireelab.dialects import flow

STAGE = "flow"

HOST_TENSOR_OPS_KEPT = ("tensor.splat",)
"""Host tensor ops IREE 3.13 leaves unconverted at the flow stage."""


def _constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def check_constant_indices(op: tensor.ExtractOp | tensor.InsertOp, source: SSAValue) -> None:
    """Refuse a constant index outside its dimension, located at `op`."""
    shape = source.type.get_shape() if isinstance(source.type, TensorType) else ()
    for dim, (index, extent) in enumerate(zip(op.indices, shape, strict=False)):
        value = _constant_index(index)
        if value is None or extent < 0:
            continue
        if not 0 <= value < extent:
            raise CompileError.at(
                op,
                f"'{op.name}' index {value} is out of bounds for dimension {dim} of "
                f"{source.type} (size {extent})",
                stage=STAGE,
            )


def _dynamic_dims(op: Operation) -> None:
    for value in op.operands:
        if isinstance(value.type, TensorType) and -1 in value.type.get_shape():
            raise CompileError.at(
                op, f"'{op.name}' on a dynamically shaped tensor is not supported", stage=STAGE
            )


def convert_extract(op: tensor.ExtractOp) -> None:
    _dynamic_dims(op)
    load = flow.TensorLoadOp(op.tensor, list(op.indices))
    copy_location(op, load)
    Rewriter.replace_op(op, load)


def convert_insert(op: tensor.InsertOp) -> None:
    _dynamic_dims(op)
    store = flow.TensorStoreOp(op.scalar, op.dest, list(op.indices))
    copy_location(op, store)
    Rewriter.replace_op(op, store)


def _row_major_index(i: int, shape: list[int]) -> list[int]:
    index = []
    for extent in reversed(shape):
        index.append(i % extent)
        i //= extent
    return index[::-1]


def convert_from_elements(op: tensor.FromElementsOp) -> None:
    result_type = op.result.type
    if len(op.elements) == 1 and result_type.element_type.compile_time_size <= 4:
        new_ops: list[Operation] = [flow.TensorSplatOp(op.elements[0], result_type)]
    else:
        new_ops = [flow.TensorEmptyOp(result_type)]
        shape = list(result_type.get_shape())
        for i, element in enumerate(op.elements):
            indices = [
                arith.ConstantOp(IntegerAttr.from_index_int_value(v))
                for v in _row_major_index(i, shape)
            ]
            store = flow.TensorStoreOp(element, new_ops[-1].results[0], [c.result for c in indices])
            new_ops += [*indices, store]
    for new in new_ops:
        copy_location(op, new)
    Rewriter.replace_op(op, new_ops, [new_ops[-1].results[0]])


def convert_tensor_elements(module: ModuleOp) -> None:
    """Check every extract / insert; turn the host ones and the host `from_elements` into
    `flow.tensor.load` / `store` (and `splat`)."""
    for op in list(module.walk()):
        if isinstance(op, tensor.ExtractOp):
            check_constant_indices(op, op.tensor)
            if is_outside_dispatch(op):
                convert_extract(op)
        elif isinstance(op, tensor.InsertOp):
            check_constant_indices(op, op.dest)
            if is_outside_dispatch(op):
                convert_insert(op)
        elif isinstance(op, tensor.FromElementsOp) and is_outside_dispatch(op):
            convert_from_elements(op)
