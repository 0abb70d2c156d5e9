"""`!hal.buffer_view`: a buffer plus shape, element type and encoding (IREE's
`iree_hal_buffer_view_t`): what crosses the ABI of every exported function.
"""

from __future__ import annotations

import math

import numpy as np

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.buffer import Buffer
from ireelab.schemas import hal_element_types as element_types

DIM_LIMIT = (1 << 56) - 1
"""The largest dim of a buffer view the runtime makes (every dim is in `[0, DIM_LIMIT]`): the
translated VM code relies on it (`vm.value_ranges`) to write a `?` function's size arithmetic
(`dim * 4`, `dim * 16`) without wrapping to 64 bits. A non-empty array's dims are at most its
element count, which the fast call path checks against this; a larger dim (of an empty
array, or computed by a program) is refused where a view is made (`check_dims`). No array
with memory behind it comes near: 2**56 bytes is the whole of a 5-level-paging address
space."""

_DTYPES: dict[int, np.dtype] = {}
"""Element type code -> dtype, for the codes `to_numpy` has seen (results come back on every
call; the lookup through the MLIR name is slower)."""


class BufferView:
    __slots__ = ("buffer", "shape", "element_type", "encoding_type")

    def __init__(
        self,
        buffer: Buffer,
        shape: tuple[int, ...],
        element_type: int,
        encoding_type: int = element_types.DENSE_ROW_MAJOR,
    ):
        self.buffer = buffer
        self.shape = shape
        self.element_type = element_type
        self.encoding_type = encoding_type

    @property
    def dtype(self) -> np.dtype:
        dtype = element_types.dtype_of_code(self.element_type)
        _DTYPES[self.element_type] = dtype
        return dtype

    def to_numpy(self) -> np.ndarray:
        """The contents as an array sharing the buffer's memory."""
        dtype = _DTYPES.get(self.element_type) or self.dtype
        buffer = self.buffer
        size = math.prod(self.shape) * dtype.itemsize
        if size > buffer.length:
            buffer.bytes(0, size)  # raises OUT_OF_RANGE
        return np.ndarray(self.shape, dtype, buffer.storage, buffer.offset)

    def type_string(self) -> str:
        """`2x4xf32` as IREE's tools spell a buffer view's type."""
        element = element_types.CODE_TO_MLIR.get(self.element_type, f"0x{self.element_type:08X}")
        return "x".join([*(str(d) for d in self.shape), element])

    def __repr__(self) -> str:
        return f"<hal.buffer_view {self.type_string()}>"


def check_dims(shape) -> None:
    """Refuse a shape with a dim outside `[0, DIM_LIMIT]` (IREE's buffer views hold unsigned
    dims and compute their byte size with overflow checks)."""
    for dim in shape:
        if not 0 <= dim <= DIM_LIMIT:
            raise HALError(
                f"buffer view dim {dim} is outside [0, {DIM_LIMIT}]", code="INVALID_ARGUMENT"
            )


def from_numpy(array: np.ndarray, allocator, element_type: int | None = None) -> BufferView:
    """Wrap a numpy array as a buffer view; no copy when it is C-contiguous, aligned and
    writeable (what kernels may be handed)."""
    check_dims(array.shape)
    if not array.flags.carray:
        array = np.array(array, order="C", copy=True)
    if element_type is None:
        element_type = element_types.MLIR_TO_CODE[element_types.mlir_of_dtype(array.dtype)]
    storage = np.frombuffer(array, np.uint8) if array.size else np.empty(0, np.uint8)
    return BufferView(allocator.wrap(storage), array.shape, element_type)
