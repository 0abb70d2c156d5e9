"""The byte range of a host slice or update whose position or extents are known at run time.

Mirrors the dynamic case of IREE's EncodeHostTensorsPass (Stream/Transforms/EncodeTensors.cpp,
`calculateElementByteOffset` and the `stream.tensor.slice` / `.update` patterns): a
`tensor<?x4xf32>{%n}` slice at `[%i, 0 for %m, 4]` starts at byte `%i * 16` and is `%m * 16`
bytes long, computed by `arith` ops on the host where the op stands (the host has every
value before the copy is recorded). A constant factor folds into its neighbour, so a start of
`[%n, 0]` in a `?x4xf32` is one `arith.muli %n, %c16`, the same value as the byte size of
`%n` rows, which CSE then shares.

The Flow stage only leaves a slice or update on the host when its elements are one row-major
run (`tensor_slices.is_contiguous`: every dimension inside the first partial one is taken
whole, every one outside it has length 1), so the run's length is the product of the lengths.
Bounds are the program's promise at run time, as in IREE (no check is emitted).
"""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Operation, SSAValue

from ireelab.compiler.stream.element_storage import element_bytes
from ireelab.compiler.stream.index_constants import IndexConstants, constant_value
from ireelab.compiler.util.index_math import Index, IndexMath
from ireelab.diagnostics import CompileError

STAGE = "stream"


def _mixed(values: list[SSAValue]) -> list[Index]:
    found = [constant_value(v) for v in values]
    return [v if c is None else c for v, c in zip(values, found, strict=True)]


def _extents(tensor_type: TensorType, dims: list[SSAValue]) -> list[Index]:
    values = iter(_mixed(dims))
    return [next(values) if d == DYNAMIC_INDEX else d for d in tensor_type.get_shape()]


def run_time_byte_range(
    op: Operation,
    tensor_type: TensorType,
    dims: list[SSAValue],
    starts: list[SSAValue],
    lengths: list[SSAValue],
    constants: IndexConstants,
) -> tuple[SSAValue, SSAValue]:
    """(start, end) byte offsets of the run `starts` / `lengths` select in a row-major
    `tensor_type` whose `?` extents are `dims`: `sum(start[i] * stride[i])` with byte
    strides `width * prod(extent[i+1:])`, and `start + width * prod(lengths)`."""
    extents = _extents(tensor_type, dims)
    if len(starts) != len(extents) or len(lengths) != len(extents):
        raise CompileError.at(op, "slice indices do not match the tensor's rank", STAGE)
    math = IndexMath(op, constants.get)
    stride: Index = element_bytes(op, tensor_type.element_type)
    offset: Index = 0
    length: Index = stride
    for i in reversed(range(len(extents))):
        start, size = _mixed(starts)[i], _mixed(lengths)[i]
        offset = math.add(math.mul(start, stride), offset)
        length = math.mul(size, length)
        if i > 0:  # the outermost extent scales nothing
            stride = math.mul(stride, extents[i])
    end = math.add(offset, length)
    return math.value(offset), math.value(end)
